// Parser+Steps: chains, steps and blocks — the part of the grammar that builds sequencer graphs.

extension Parser {
    /// chain := step { "then" step } [ "as" NAME ]
    /// A line that ends with `then`, or a next line that starts with it, continues the chain.
    mutating func parseChain() throws -> Chain {
        var steps = [try parseStep()]
        while true {
            if check(.newline), peekPastNewlines().is(.then) { skipNewlines() }
            guard match(.then) else { break }
            skipNewlines()
            steps.append(try parseStep())
        }
        var name: Identifier?
        if match(.as) {
            let asSpan = previous.span
            let id = try consumeName("a name after 'as'")
            name = id
            // `as` names the whole chain before it, so nothing can be chained after the name.
            let next = check(.newline) ? peekPastNewlines() : peek
            if next.is(.then) {
                skipNewlines()  // recovery then skips the `then` line too, which cannot start a statement
                throw report(Diagnostic(.error, "'then' cannot follow 'as \(id.name)'", at: next.span,
                                        secondary: [.init(span: asSpan.merged(with: id.span), text: "'as' names the whole chain before it, and ends it")],
                                        help: "to name one part of a chain, put that part in a block: '< … as \(id.name) > then …'"))
            }
        }
        let span = steps[0].span.merged(with: previous.span)
        return Chain(steps: steps, name: name, span: span)
    }

    /// step := animate | spring | wait | print | set | expect | block | repeat | stagger
    ///       | play | after | with | control
    mutating func parseStep() throws -> Step {
        let t = peek
        try enterNesting(t)
        defer { depth -= 1 }
        if t.kind == .lt { return .block(try parseBlock(after: nil)) }
        if t.kind == .keyword, let kw = t.keyword {
            switch kw {
            case .animate: return .animate(try parseAnimate())
            case .spring: return .spring(try parseSpring())
            case .wait: return .wait(try parseWait())
            case .print:
                advance()
                let value = try parseExpression()
                return .print(PrintStep(value: value, span: t.span.merged(with: value.span)))
            case .set:
                advance()
                let a = try parseAssignment()
                return .set(SetStep(assignment: a, span: t.span.merged(with: a.span)))
            case .expect: return .expect(try parseExpect())
            case .repeat: return .repeat(try parseRepeat())
            case .stagger: return .stagger(try parseStagger())
            case .play: return .play(try parsePlay())
            case .after, .with: return .relative(try parseRelative())
            case .pause, .resume, .seek, .reverse, .interrupt, .save, .restore: return .control(try parseControl())
            default:
                throw report("'\(text(t))' cannot start a step", at: t,
                             help: Parser.stepStartHelp)
            }
        }
        if t.kind == .identifier {
            let word = text(t)
            // `a.z = 1` is an assignment, whatever keyword its first word resembles (`lett x = 1` is not).
            let isWrite = peekIsAssignment()
            let next = tokens[min(current + 1, tokens.count - 1)].kind
            if isWrite, next == .dot || next == .lbracket { throw reportBareAssignment(t) }
            if let s = DidYouMean.suggest(word, from: Parser.statementWords) {
                throw report("unknown statement '\(word)'; did you mean '\(s)'?", at: t)
            }
            if isWrite { throw reportBareAssignment(t) }
            throw report("unknown statement '\(word)'", at: t, help: Parser.stepStartHelp)
        }
        if t.kind == .eof { throw report("expected a step", at: t) }
        throw report("expected a statement, found \(describe(t))", at: t)
    }

    /// `square.center = v` written as a statement.
    mutating func reportBareAssignment(_ t: Token) -> ParseError {
        let word = text(t)
        return report("an assignment needs 'set' or an 'animate' block", at: t,
                      help: "write 'set \(word)... = v' to change it now, or 'animate 1 < \(word)... = v >' to tween it")
    }

    static let stepStartHelp = "a step starts with animate, spring, wait, print, set, expect, repeat, stagger, play, after, with or '<'"

    /// The words that may begin a statement, for did-you-mean.
    static let statementWords = ["stage", "rect", "circle", "text", "group", "let", "seed", "define",
                                 "animate", "spring", "wait", "print", "set", "expect", "repeat", "stagger",
                                 "play", "after", "with", "at", "on", "pause", "resume", "seek", "reverse",
                                 "interrupt", "save", "restore"]

    /// Whether the tokens from here look like `name.prop = value`.
    func peekIsAssignment() -> Bool {
        var i = current
        while i < tokens.count {
            switch tokens[i].kind {
            case .equal, .plusEqual, .minusEqual: return true
            case .newline, .semicolon, .eof, .gt, .lt: return false
            default: i += 1
            }
        }
        return false
    }

    /// block := "<" { separator } [ chain { separator+ chain } ] { separator } ">"
    mutating func parseBlock(after context: String?) throws -> Block {
        let open = peek
        guard match(.lt) else {
            throw report("expected '<' to open a block" + (context.map { " after \($0)" } ?? ""), at: peek)
        }
        var chains: [Chain] = []
        skipSeparators()
        while !check(.gt) {
            if check(.eof) { throw reportUnclosed(open) }
            panicMode = false
            do {
                chains.append(try parseChain())
                if !check(.gt) {
                    if !(check(.newline) || check(.semicolon)) {
                        throw report("expected ';', a new line or '>' after the step, found \(describe(peek))", at: peek,
                                     help: twoStepsHelp())
                    }
                }
            } catch {
                synchronize()
                if check(.eof) { throw error }
            }
            skipSeparators()
        }
        let close = advance()
        return Block(chains: chains, span: open.span.merged(with: close.span))
    }

    /// Reports the block opened by `open` as unclosed: the caret where its `>` is missing (after
    /// the last token before the current one), "opened here" under the `<` (rustc's unclosed
    /// delimiter, Lua's `check_match`). `note` says why the block cannot go on.
    mutating func reportUnclosed(_ open: Token, note: String? = nil) -> ParseError {
        if check(.eof) { endedEarly = true }
        if !panicMode {
            let at = Span.point(file.id, endOfLastToken(before: peek))
            diagnostics.report(Diagnostic(.error, "unclosed '<'", at: at, label: "expected '>'",
                                          secondary: [.init(span: open.span, text: "opened here")],
                                          notes: note.map { [$0] } ?? []))
        }
        panicMode = true
        return ParseError()
    }

    /// The token index of the `>` that closes the `<` at token index `i`, or nil if no `>` does
    /// (each `>` closes the innermost open `<`, as the lexer pairs them). Found for every `<` in
    /// one pass over the tokens, the first time an error needs it.
    mutating func closeOfBlock(_ i: Int) -> Int? {
        if blockCloses == nil {
            var closes: [Int: Int?] = [:]
            var open: [Int] = []
            for (k, t) in tokens.enumerated() {
                if t.kind == .lt { open.append(k); closes[k] = .some(nil) } else if t.kind == .gt, let o = open.popLast() { closes[o] = k }
            }
            blockCloses = closes
        }
        return blockCloses![i] ?? nil
    }

    /// Whether no `>` closes the `<` at token index `i`.
    mutating func isUnclosed(_ i: Int) -> Bool { closeOfBlock(i) == nil }

    /// Whether `t` starts a statement or a step, or continues a chain (`then`, `as`): it cannot be
    /// part of an assignment, so inside a tween block it means the block's `>` is missing.
    static func startsStatementOrStep(_ t: Token) -> Bool {
        guard t.kind == .keyword, let kw = t.keyword else { return false }
        return kw.startsStatement || kw.startsStep || kw == .then || kw == .as
    }

    /// tweenBlock := "<" { separator } [ assignment { separator+ assignment } ] { separator } ">"
    mutating func parseAssignmentBlock(after context: String) throws -> ([Assignment], Span) {
        let open = peek, openIndex = current
        guard match(.lt) else { throw report("expected '<' to open the block of \(context)", at: peek) }
        var list: [Assignment] = []
        var contentEnd = current
        skipSeparators()
        while !check(.gt) {
            if check(.eof) { throw reportUnclosed(open) }
            // A statement or step where an assignment belongs, in a block that no `>` closes:
            // the `>` is missing before it. The block ends there, so what follows parses as if
            // the `>` were written (one error, not a cascade).
            if Parser.startsStatementOrStep(peek), isUnclosed(openIndex) {
                let word = text(peek)
                let line = file.lineIndex(of: Int(peek.span.start)) + 1
                let which = file.lineIndex(of: endOfLastToken(before: peek)) + 1 != line ? "'\(word)' on line \(line)" : "'\(word)'"
                _ = reportUnclosed(open, note: "\(which) cannot be inside the block of \(context), which holds only property assignments")
                current = contentEnd
                if list.isEmpty { throw ParseError() }
                return (list, open.span.merged(with: list.last!.span))
            }
            do {
                list.append(try parseAssignment())
                if !check(.gt) && !(check(.newline) || check(.semicolon))
                    && !(Parser.startsStatementOrStep(peek) && isUnclosed(openIndex)) {
                    throw report("expected ';', a new line or '>' after the assignment, found \(describe(peek))", at: peek)
                }
            } catch {
                // Skip past this block's own `>` (on a later line, too), so neither the rest of the
                // block nor its `>` is reported again, and an enclosing block does not take it for its end.
                if let close = closeOfBlock(openIndex), close >= current { current = close + 1 } else {
                    synchronize()
                    if check(.gt) { advance() }
                }
                throw error
            }
            contentEnd = current
            skipSeparators()
        }
        let close = advance()
        if list.isEmpty {
            throw report("\(context) needs at least one property to change", at: open.span.merged(with: close.span),
                         help: "write a property assignment inside, as in '< square.alpha = 0 >'")
        }
        return (list, open.span.merged(with: close.span))
    }

    /// assignment := postfix ("=" | "+=" | "-=") ( expr | keyframes | "path" keyframes )
    mutating func parseAssignment() throws -> Assignment {
        let target = try parsePostfix()
        let op: Assignment.Op
        switch peek.kind {
        case .equal: op = .assign
        case .plusEqual: op = .add
        case .minusEqual: op = .subtract
        case .equalEqual:
            throw report("expected '=' in an assignment, found '=='", at: peek, help: "'==' compares; use it in 'expect'")
        default:
            throw report("expected '=', '+=' or '-=' after '\(file.text(of: target.span))', found \(describe(peek))", at: peek)
        }
        advance()
        if check(.lbracket) {
            let (frames, span) = try parseKeyframes()
            let value = Expr.list(ListExpr(elements: frames.map(\.value), span: span))
            return Assignment(target: target, op: op, value: value, keyframes: frames, span: target.span.merged(with: span))
        }
        if check(.identifier), text(peek) == "path", tokens[current + 1].kind == .lbracket {
            let kw = advance()
            let (frames, span) = try parseKeyframes()
            let value = Expr.list(ListExpr(elements: frames.map(\.value), span: span))
            return Assignment(target: target, op: op, value: value, keyframes: frames, isPath: true,
                              span: target.span.merged(with: kw.span.merged(with: span)))
        }
        let value = try parseExpression()
        return Assignment(target: target, op: op, value: value, span: target.span.merged(with: value.span))
    }

    /// keyframes := "[" keyframe { "," keyframe } [","] "]"
    /// keyframe := expr [ "at" expr ] [ "ease" easing ]
    mutating func parseKeyframes() throws -> ([Keyframe], Span) {
        let open = advance()
        var frames: [Keyframe] = []
        repeat {
            if check(.rbracket) { break }
            let value = try parseExpression()
            var offset: Expr?, easing: EasingSyntax?
            if match(.at) { offset = try parseExpression() }
            if match(.ease) { easing = try parseEasing() }
            frames.append(Keyframe(value: value, offset: offset, easing: easing, span: value.span.merged(with: previous.span)))
        } while match(.comma)
        let close = try consume(.rbracket, orReport: "expected ']' to close the keyframes")
        if frames.isEmpty { throw report("a keyframe list needs at least one value", at: open.span.merged(with: close.span)) }
        return (frames, open.span.merged(with: close.span))
    }

    /// animate := "animate" expr { tweenOption } tweenBlock
    mutating func parseAnimate() throws -> AnimateStep {
        let kw = advance()
        if check(.lt) {
            throw report("expected a duration after 'animate'", at: peek, help: "write the duration first, as in 'animate 0.5 < ... >'")
        }
        let duration = try parseExpression()
        let options = try parseTweenOptions()
        let (assignments, blockSpan) = try parseAssignmentBlock(after: "'animate'")
        return AnimateStep(duration: duration, options: options, assignments: assignments, keywordSpan: kw.span,
                           span: kw.span.merged(with: blockSpan))
    }

    /// tweenOption := "delay" expr | "ease" easing | "repeat" (expr | "forever") | "yoyo"
    ///              | "speed" expr | "from" expr
    mutating func parseTweenOptions() throws -> [TweenOption] {
        var options: [TweenOption] = []
        while true {
            let t = peek
            if match(.delay) {
                let e = try parseExpression(); options.append(.delay(e, t.span.merged(with: e.span)))
            } else if match(.ease) {
                let e = try parseEasing(); options.append(.ease(e, t.span.merged(with: e.span)))
            } else if match(.repeat) {
                if match(.forever) { options.append(.repeat(nil, t.span.merged(with: previous.span))) } else {
                    let e = try parseExpression(); options.append(.repeat(e, t.span.merged(with: e.span)))
                }
            } else if match(.yoyo) {
                options.append(.yoyo(t.span))
            } else if match(.speed) {
                let e = try parseExpression(); options.append(.speed(e, t.span.merged(with: e.span)))
            } else if match(.from) {
                let e = try parseExpression(); options.append(.from(e, t.span.merged(with: e.span)))
            } else if t.kind == .identifier, !check(.lt) {
                let word = text(t)
                let known = ["delay", "ease", "repeat", "yoyo", "speed", "from"]
                throw report("unknown option '\(word)'" + DidYouMean.suffix(word, from: known), at: t,
                             help: "options are delay, ease, repeat, yoyo, speed and from")
            } else {
                return options
            }
        }
    }

    /// easing := word { "-" word } [ "(" easingArg { "," easingArg } ")" ]
    /// easingArg := ["-"] NUMBER | word { "-" word }
    mutating func parseEasing() throws -> EasingSyntax {
        // Dots join words too, so GSAP's `power2.out` reaches the checker whole and its error can
        // name the anim easing; no anim easing has a dot.
        let (name, nameSpan) = try parseHyphenatedWord("an easing name after 'ease'", joiningDots: true)
        var args: [EasingSyntax.Argument]?
        if check(.lparen) && !peek.spaceBefore {
            advance()
            var list: [EasingSyntax.Argument] = []
            if !check(.rparen) {
                repeat {
                    let t = peek
                    if check(.number) || check(.minus) {
                        let neg = match(.minus)
                        let n = try consume(.number, orReport: "expected a number")
                        guard n.unit == .none, let dec = DecimalLiteral(text(n)) else {
                            throw report("easing parameters are plain numbers", at: n)
                        }
                        list.append(.number(neg ? -dec.doubleValue : dec.doubleValue, t.span.merged(with: n.span)))
                    } else if check(.identifier) || check(.keyword) {
                        let (w, s) = try parseHyphenatedWord("a word")
                        list.append(.word(w, s))
                    } else {
                        throw report("expected a number or a word in the easing's parameters, found \(describe(t))", at: t)
                    }
                } while match(.comma)
            }
            try consume(.rparen, orReport: "expected ')' after the easing's parameters")
            args = list
        }
        return EasingSyntax(name: name, nameSpan: nameSpan, arguments: args, span: nameSpan.merged(with: previous.span))
    }

    /// Joins `word-word-word` written without spaces (`ease-in-out`, `jump-start`, `damping-ratio`),
    /// and `word.word` too when `joiningDots` is set.
    mutating func parseHyphenatedWord(_ what: String, joiningDots: Bool = false) throws -> (String, Span) {
        guard check(.identifier) || check(.keyword) else { throw report("expected \(what)", at: peek) }
        var span = advance().span
        while check(.minus) || joiningDots && check(.dot), !peek.spaceBefore,
              tokens[current + 1].kind == .identifier || tokens[current + 1].kind == .keyword,
              !tokens[current + 1].spaceBefore {
            advance()
            span = span.merged(with: advance().span)
        }
        // The words and hyphens touch, so the name is the text of the whole span.
        return (file.text(of: span), span)
    }

    /// spring := "spring" { springParam | "delay" expr } tweenBlock
    /// springParam := word { "-" word } expr
    mutating func parseSpring() throws -> SpringStep {
        let kw = advance()
        var params: [SpringStep.Parameter] = []
        var options: [TweenOption] = []
        while !check(.lt) {
            let t = peek
            if match(.delay) {
                let e = try parseExpression(); options.append(.delay(e, t.span.merged(with: e.span)))
                continue
            }
            guard check(.identifier) || check(.keyword) else {
                throw report("expected a spring parameter or '<', found \(describe(peek))", at: peek)
            }
            let (name, span) = try parseHyphenatedWord("a spring parameter")
            if atStatementEnd || check(.lt) { throw report("expected a value for '\(name)'", at: peek) }
            params.append(.init(name: Identifier(name, span), value: try parseExpression()))
        }
        let (assignments, blockSpan) = try parseAssignmentBlock(after: "'spring'")
        return SpringStep(parameters: params, options: options, assignments: assignments, keywordSpan: kw.span,
                          span: kw.span.merged(with: blockSpan))
    }

    /// wait := "wait" [ expr ]
    mutating func parseWait() throws -> WaitStep {
        let kw = advance()
        if atStatementEnd || check(.then) || check(.as) { return WaitStep(argument: nil, span: kw.span) }
        let e = try parseExpression()
        return WaitStep(argument: e, span: kw.span.merged(with: e.span))
    }

    /// expect := "expect" expr ("==" | "!=" | "<=" | ">=") expr [ "within" expr ]
    mutating func parseExpect() throws -> ExpectStep {
        let kw = advance()
        let lhs = try parseExpression()
        let op: ExpectStep.Op
        switch peek.kind {
        case .equalEqual: op = .equal
        case .bangEqual: op = .notEqual
        case .lessEqual: op = .lessEqual
        case .greaterEqual: op = .greaterEqual
        case .equal:
            throw report("expected a comparison, found '='", at: peek, help: "use '==' to compare")
        case .lt, .gt:
            throw report("'<' and '>' are block delimiters, not comparisons", at: peek, help: "use '<=' or '>='")
        default:
            throw report("expected '==', '!=', '<=' or '>=' after the value, found \(describe(peek))", at: peek)
        }
        advance()
        let rhs = try parseExpression()
        var tolerance: Expr?
        if match(.within) { tolerance = try parseExpression() }
        return ExpectStep(lhs: lhs, op: op, rhs: rhs, tolerance: tolerance, span: kw.span.merged(with: previous.span))
    }

    /// repeat := "repeat" ( expr | "forever" ) [ "yoyo" ] block
    mutating func parseRepeat() throws -> RepeatStep {
        let kw = advance()
        var count: Expr?
        if !match(.forever) {
            if check(.lt) { throw report("expected a count or 'forever' after 'repeat'", at: peek) }
            count = try parseExpression()
        }
        let yoyo = match(.yoyo)
        let body = try parseBlock(after: "'repeat'")
        return RepeatStep(count: count, yoyo: yoyo, body: body, keywordSpan: kw.span, span: kw.span.merged(with: body.span))
    }

    /// stagger := "stagger" expr [ "from" NAME ] "for" NAME "in" expr block
    mutating func parseStagger() throws -> StaggerStep {
        let kw = advance()
        let interval = try parseExpression()
        var order: Identifier?
        if match(.from) {
            guard check(.identifier) else { throw report("expected start, end, center, edges or random after 'from'", at: peek) }
            order = Identifier(text(peek), advance().span)
        }
        guard match(.for) else { throw report("expected 'for' in 'stagger D for NAME in SHAPES < ... >'", at: peek) }
        let variable = try consumeName("a loop variable after 'for'")
        guard match(.in) else { throw report("expected 'in' after '\(variable.name)'", at: peek) }
        let seq = try parseExpression()
        let body = try parseBlock(after: "the shapes")
        return StaggerStep(interval: interval, order: order, variable: variable, sequence: seq, body: body,
                           span: kw.span.merged(with: body.span))
    }

    /// play := "play" NAME "(" [ expr { "," expr } ] ")" [ "reversed" ] [ "speed" expr ]
    mutating func parsePlay() throws -> PlayStep {
        let kw = advance()
        let name = try consumeName("the name of a defined sequence after 'play'")
        var args: [Expr] = []
        try consume(.lparen, orReport: "expected '(' after '\(name.name)'")
        if !check(.rparen) {
            repeat { args.append(try parseExpression()) } while match(.comma)
        }
        try consume(.rparen, orReport: "expected ')' after the arguments")
        var reversed = false, speed: Expr?
        while true {
            if match(.reversed) { reversed = true } else if match(.speed) { speed = try parseExpression() } else { break }
        }
        return PlayStep(name: name, arguments: args, reversed: reversed, speed: speed, span: kw.span.merged(with: previous.span))
    }

    /// relative := ("after" | "with") NAME [ ("+" | "-") expr ] block
    mutating func parseRelative() throws -> RelativeStep {
        let kw = advance()
        let anchor: RelativeStep.Anchor = kw.is(.after) ? .after : .with
        let target = try consumeName("the name of a step after '\(anchor.rawValue)'")
        var offset: Expr?, negative = false
        if check(.plus) || check(.minus) {
            negative = advance().kind == .minus
            offset = try parseUnary()
        }
        let body = try parseBlock(after: "'\(anchor.rawValue) \(target.name)'")
        return RelativeStep(anchor: anchor, target: target, offset: offset, negative: negative, body: body,
                            span: kw.span.merged(with: body.span))
    }

    /// control := ("pause" | "resume" | "reverse" | "interrupt" | "save" | "restore") postfix
    ///          | "seek" postfix expr
    mutating func parseControl() throws -> ControlStep {
        let kw = advance()
        let verb = ControlStep.Verb(rawValue: text(kw))!
        if atStatementEnd { throw report("expected a name after '\(verb.rawValue)'", at: peek) }
        let target = try parsePostfix()
        var time: Expr?
        if verb == .seek {
            if atStatementEnd { throw report("expected a time after 'seek \(file.text(of: target.span))'", at: peek) }
            time = try parseExpression()
        }
        return ControlStep(verb: verb, target: target, time: time, span: kw.span.merged(with: previous.span))
    }
}

