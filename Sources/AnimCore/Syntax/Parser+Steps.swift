// Parser+Steps: chains, steps and blocks — the part of the grammar that builds sequencer graphs.

extension Parser {
    /// chain := step [ "as" NAME ] { "then" step [ "as" NAME ] }
    /// A line that ends with `then`, or a next line that starts with it, continues the chain.
    /// `as NAME` followed by `then` names the step before it (GSAP's label mid-timeline); at the
    /// end of the chain it names the whole chain. A named step is kept as a block of one named
    /// chain, flagged as written without `< >` (`SyntaxTree.implicitBlock`), so every pass sees
    /// exactly what `< step as NAME > then …` is: a child instance of its own (Grammar.md §6.11).
    mutating func parseChain() throws -> ChainID {
        let mark = scratch.count
        let first = try parseStep()
        var step = first
        var name: Int32 = -1
        while true {
            if match(.as) {
                let asSpan = previous.span
                let id = try consumeName(.nameAfterAs)
                let record = tree.record(Int32(id.start), Int32(id.end))
                if check(.as) {
                    let m = ParseMessage.asAfterAs(file.text(of: id))
                    throw report(Diagnostic(.error, m.message, at: peek.span,
                                            secondary: [.init(span: asSpan.merged(with: id), text: ParseMessage.stepHasOneName)],
                                            help: m.help))
                }
                let continues = check(.then) || (check(.newline) && peekPastNewlines().is(.then))
                guard continues else {
                    name = record
                    scratch.append(step.raw)
                    break
                }
                let named = span(step).merged(with: id)
                let chain = tree.add(.chain, named, tree.list([step]).offset, record)
                step = StepID(raw: tree.add(.block, named, flags: SyntaxTree.implicitBlock, tree.list([ChainID(raw: chain)]).offset))
            }
            scratch.append(step.raw)
            if check(.newline), peekPastNewlines().is(.then) { skipNewlines() }
            guard match(.then) else { break }
            skipNewlines()
            step = try parseStep()
        }
        if check(.identifier), ParseMessage.labelWords.contains(text(peek)) {
            throw report(.foreignLabel(text(peek)), at: peek)  // GSAP's `addLabel`
        }
        let span = span(first).merged(with: previous.span)
        let steps: SyntaxList<StepID> = tree.list(scratch, from: mark)
        return ChainID(raw: tree.add(.chain, span, steps.offset, name))
    }

    /// step := animate | spring | wait | print | set | expect | block | repeat | stagger
    ///       | play | relative | control | if | select
    /// Two of them are short enough to be parsed here:
    /// print := "print" expr
    /// set := "set" assignment
    mutating func parseStep() throws -> StepID {
        let t = peek
        try enterNesting(t)
        defer { depth -= 1 }
        if t.kind == .lt { return StepID(raw: try parseBlock(after: nil)) }
        if t.kind == .keyword, let kw = t.keyword {
            switch kw {
            case .animate: return try parseAnimate()
            case .spring: return try parseSpring()
            case .wait: return try parseWait()
            case .print:
                advance()
                let value = try parseExpression()
                return StepID(raw: tree.add(.print, t.span.merged(with: span(value)), value.raw))
            case .set:
                advance()
                let a = try parseAssignment()
                return StepID(raw: tree.add(.set, t.span.merged(with: span(a)), a.raw))
            case .expect: return try parseExpect()
            case .repeat: return try parseRepeat()
            case .stagger: return try parseStagger()
            case .play: return try parsePlay()
            case .after, .with: return try parseRelative()
            case .pause, .resume, .seek, .reverse, .interrupt, .save, .restore, .speed: return try parseControl()
            default:
                throw report(.cannotStartStep(text(t)), at: t)
            }
        }
        if t.kind == .identifier, isWord(t, "if"), !peekIsAssignment() { return try parseIf() }
        if t.kind == .identifier, isWord(t, "any") || isWord(t, "choose"), token(at: current + 1).kind == .lt {
            return try parseSelect()
        }
        if t.kind == .identifier {
            let word = text(t)
            // `a.z = 1` is an assignment, whatever keyword its first word resembles (`lett x = 1` is not).
            let isWrite = peekIsAssignment()
            let next = token(at: current + 1).kind
            if isWrite, next == .dot || next == .lbracket { throw report(.bareAssignment(word), at: t) }
            if ParseMessage.labelWords.contains(word) { throw report(.foreignLabel(word), at: t) }
            if let s = ParseMessage.statementSuggestion(word) {
                throw report(.unknownStatement(word, suggestion: s), at: t)
            }
            if isWrite { throw report(.bareAssignment(word), at: t) }
            throw report(.unknownStatement(word, suggestion: nil), at: t)
        }
        if t.kind == .eof { throw report(.expectedStep, at: t) }
        throw report(.expectedStatementFound(describe(t)), at: t)
    }

    /// Whether the tokens from here look like `name.prop = value`.
    mutating func peekIsAssignment() -> Bool {
        var i = current
        while true {
            switch token(at: i).kind {
            case .equal, .plusEqual, .minusEqual: return true
            case .newline, .semicolon, .eof, .gt, .lt: return false
            default: i += 1
            }
        }
    }

    /// block := "<" { separator } [ chain { separator+ chain } ] { separator } ">"
    /// Returns the block's node (a step). `context` names what the block belongs to, for the
    /// message when the `<` is missing.
    mutating func parseBlock(after context: @autoclosure () -> String?) throws -> Int32 {
        let open = peek
        guard match(.lt) else {
            throw report(.expectedBlock(after: context()), at: peek)
        }
        let mark = scratch.count
        skipSeparators()
        while !check(.gt) {
            if check(.eof) { throw reportUnclosed(open) }
            panicMode = false
            // A chain that parsed stays, even when what follows it is an error.
            var kept = scratch.count
            do {
                let c = try parseChain()
                scratch.append(c.raw)
                kept = scratch.count
                if !check(.gt) {
                    if !(check(.newline) || check(.semicolon)) {
                        throw report(.expectedAfterStep(found: describe(peek)), at: peek, help: twoStepsHelp())
                    }
                }
            } catch {
                scratch.removeLast(scratch.count - kept)
                synchronize()
                if check(.eof) { throw error }
            }
            skipSeparators()
        }
        let close = advance()
        let chains: SyntaxList<ChainID> = tree.list(scratch, from: mark)
        return tree.add(.block, open.span.merged(with: close.span), chains.offset)
    }

    /// Reports the block opened by `open` as unclosed: the caret where its `>` is missing (after
    /// the last token before the current one), "opened here" under the `<` (rustc's unclosed
    /// delimiter, Lua's `check_match`). `note` says why the block cannot go on.
    mutating func reportUnclosed(_ open: Token, note: ParseMessage? = nil) -> ParseError {
        keepEveryToken()
        if check(.eof) { endedEarly = true }
        if !panicMode {
            let at = Span.point(file.id, endOfLastToken(before: peek))
            let m = ParseMessage.unclosedBlock
            diagnostics.report(Diagnostic(.error, m.message, at: at, label: m.label,
                                          secondary: [.init(span: open.span, text: ParseMessage.openedHere)],
                                          notes: note.map { [$0.message] } ?? []))
        }
        panicMode = true
        return ParseError()
    }

    /// The token index of the `>` that closes the `<` at token index `i`, or nil if no `>` does
    /// (each `>` closes the innermost open `<`, as the lexer pairs them). Found for every `<` in
    /// one pass over the tokens, the first time an error needs it.
    mutating func closeOfBlock(_ i: Int) -> Int? {
        keepEveryToken()
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
    mutating func parseAssignmentBlock(after context: String) throws -> (SyntaxList<AssignmentID>, Span) {
        let open = peek, openIndex = current
        guard match(.lt) else { throw report(.expectedTweenBlock(context), at: peek) }
        let mark = scratch.count
        var lastSpan: Span?
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
                _ = reportUnclosed(open, note: .keywordInTweenBlock(which, context: context))
                current = contentEnd
                guard let last = lastSpan else { throw ParseError() }
                return (tree.list(scratch, from: mark), open.span.merged(with: last))
            }
            do {
                let a = try parseAssignment()
                scratch.append(a.raw)
                lastSpan = span(a)
                if !check(.gt) && !(check(.newline) || check(.semicolon))
                    && !(Parser.startsStatementOrStep(peek) && isUnclosed(openIndex)) {
                    throw report(.expectedAfterAssignment(found: describe(peek)), at: peek)
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
        if lastSpan == nil {
            throw report(.emptyTweenBlock(context), at: open.span.merged(with: close.span))
        }
        return (tree.list(scratch, from: mark), open.span.merged(with: close.span))
    }

    /// assignment := postfix ("=" | "+=" | "-=") ( expr | keyframes | "path" keyframes [ "orient" [ expr ] ] )
    mutating func parseAssignment() throws -> AssignmentID {
        let target = try parsePostfix()
        let op: Assignment.Op
        switch peek.kind {
        case .equal: op = .assign
        case .plusEqual: op = .add
        case .minusEqual: op = .subtract
        case .equalEqual:
            throw report(.doubleEqualInAssignment, at: peek)
        default:
            throw report(.expectedAssignmentOperator(target: file.text(of: span(target)), found: describe(peek)), at: peek)
        }
        advance()
        var isPath = false
        var pathKeyword: Span?
        if check(.identifier), isWord(peek, "path"), token(at: current + 1).kind == .lbracket {
            isPath = true
            pathKeyword = advance().span
        }
        if check(.lbracket) {
            let (frames, values, listSpan) = try parseKeyframes()
            let value = tree.add(.list, listSpan, values.offset)
            var whole = span(target).merged(with: pathKeyword.map { $0.merged(with: listSpan) } ?? listSpan)
            // `orient [A]` after a path: the rotation follows its tangent (flag 16; the angle, or -1).
            if isPath, check(.identifier), isWord(peek, "orient") {
                whole = whole.merged(with: advance().span)
                var angle: Int32 = -1
                if !atStatementEnd, !check(.gt), !check(.semicolon) {
                    let e = try parseExpression()
                    angle = e.raw
                    whole = whole.merged(with: span(e))
                }
                return AssignmentID(raw: tree.add(.assignment, whole, flags: op.code | 4 | 8 | 16, target.raw,
                                                  tree.record(value, frames.offset, angle)))
            }
            return AssignmentID(raw: tree.add(.assignment, whole, flags: op.code | (isPath ? 4 : 0) | 8, target.raw,
                                              tree.record(value, frames.offset)))
        }
        let value = try parseExpression()
        return AssignmentID(raw: tree.add(.assignment, span(target).merged(with: span(value)), flags: op.code, target.raw, value.raw))
    }

    /// keyframes := "[" keyframe { "," keyframe } [","] "]"
    /// keyframe := expr [ "at" expr ] [ "ease" easing ]
    /// Returns the keyframes, the list of their values, and the span from `[` to `]`.
    mutating func parseKeyframes() throws -> (SyntaxList<KeyframeID>, SyntaxList<ExprID>, Span) {
        let open = advance()
        let mark = scratch.count
        repeat {
            if check(.rbracket) { break }
            let value = try parseExpression()
            var offset: ExprID?, easing: EasingID?
            if match(.at) { offset = try parseExpression() }
            if match(.ease) { easing = try parseEasing() }
            let extra = offset == nil && easing == nil ? -1 : tree.record(offset?.raw ?? -1, easing?.raw ?? -1)
            let k = tree.add(.keyframe, span(value).merged(with: previous.span), value.raw, extra)
            scratch.append(k)
        } while match(.comma)
        let close = try consume(.rbracket, orReport: .expectedToken(.keyframes))
        let span = open.span.merged(with: close.span)
        if scratch.count == mark { throw report(.emptyKeyframes, at: span) }
        let frames: SyntaxList<KeyframeID> = tree.list(scratch, from: mark)
        return (frames, tree.list(valuesOf: frames), span)
    }

    /// animate := "animate" expr { tweenOption } tweenBlock
    mutating func parseAnimate() throws -> StepID {
        let kw = advance()
        if check(.lt) {
            throw report(.expectedDuration, at: peek)
        }
        let duration = try parseExpression()
        let options = try parseTweenOptions()
        let (assignments, blockSpan) = try parseAssignmentBlock(after: "'animate'")
        return StepID(raw: tree.add(.animate, kw.span.merged(with: blockSpan), duration.raw, tree.record(options.offset, assignments.offset)))
    }

    /// tweenOption := "delay" expr | "ease" easing | "repeat" (expr | "forever") | "yoyo"
    ///              | "speed" expr | "from" expr | "repeat-delay" expr | timingOption
    mutating func parseTweenOptions() throws -> SyntaxList<OptionID> {
        let mark = scratch.count
        while true {
            let t = peek
            let option: Int32
            switch t.kind == .keyword ? t.keyword : nil {
            case .delay?:
                advance()
                let e = try parseExpression(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 0, e.raw)
            case .ease?:
                advance()
                let e = try parseEasing(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 1, e.raw)
            case .repeat? where isRepeatDelay(at: current):
                // `repeat-delay D` (GSAP's repeatDelay): `repeat` joined to `delay` by a hyphen.
                advance(); advance(); advance()
                let e = try parseExpression(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 10, e.raw)
            case .repeat?:
                advance()
                if match(.forever) { option = tree.add(.option, t.span.merged(with: previous.span), flags: 2, -1) } else {
                    let e = try parseExpression(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 2, e.raw)
                }
            case .yoyo?:
                advance()
                option = tree.add(.option, t.span, flags: 3)
            case .speed?:
                advance()
                let e = try parseExpression(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 4, e.raw)
            case .from?:
                advance()
                let e = try parseExpression(); option = tree.add(.option, t.span.merged(with: span(e)), flags: 5, e.raw)
            default:
                if t.kind == .identifier, !check(.lt) {
                    option = try parseTimingOption()
                } else {
                    return tree.list(scratch, from: mark)
                }
            }
            scratch.append(option)
        }
    }

    /// Whether the tokens from `k` are `repeat-delay`, written without spaces.
    mutating func isRepeatDelay(at k: Int) -> Bool {
        let minus = token(at: k + 1), delay = token(at: k + 2)
        return token(at: k).is(.repeat) && minus.kind == .minus && !minus.spaceBefore && delay.is(.delay) && !delay.spaceBefore
    }

    /// timingOption := "direction" word { "-" word } | "iteration-start" expr | "end-delay" expr
    ///               | "fill" word
    ///
    /// The Web Animations timing options (Grammar.md §6.1). The option's name is read whole, so
    /// `fill-mode` and `iterationStart` are unknown options whose did-you-mean is anim's.
    mutating func parseTimingOption() throws -> Int32 {
        let name = try parseHyphenatedWord(.word)
        let word = file.text(of: name)
        switch word {
        case "direction", "fill":
            let value = try parseHyphenatedWord(.word)
            return tree.add(.option, name.merged(with: value), flags: word == "direction" ? 6 : 9, tree.add(.identifier, value))
        case "iteration-start", "end-delay":
            let e = try parseExpression()
            return tree.add(.option, name.merged(with: span(e)), flags: word == "end-delay" ? 8 : 7, e.raw)
        default:
            throw report(.unknownOption(word, suggestion: ParseMessage.optionSuggestion(word)), at: name)
        }
    }

    /// easing := word { "-" word } [ "(" easingArg { "," easingArg } ")" ]
    /// easingArg := ( ["-"] NUMBER )+ | word { "-" word }
    mutating func parseEasing() throws -> EasingID {
        // Dots join words too, so GSAP's `power2.out` reaches the checker whole and its error can
        // name the anim easing; no anim easing has a dot.
        let name = try parseHyphenatedWord(.easingName, joiningDots: true)
        var args: Int32 = -1
        if check(.lparen) && !peek.spaceBefore {
            advance()
            let mark = scratch.count
            if !check(.rparen) {
                repeat {
                    let t = peek
                    if check(.number) || check(.minus) {
                        // Numbers written one after another, without commas, are one argument: a
                        // stop of `linear(0, 0.25 25% 75%, 1)` (CSS Easing Level 2). Each number
                        // after the first has flag 2; a percentage has flag 1.
                        var first = true
                        while check(.number) || check(.minus) {
                            let start = peek
                            let neg = match(.minus)
                            let n = try consume(.number, orReport: .expected(.number))
                            guard n.unit == .none || n.unit == .percent,
                                  let dec = DecimalLiteral(file.text(of: Span(source: n.span.source, start: n.span.start, end: n.digitsEnd)))
                            else {
                                throw report(.easingParameterWithUnit, at: n)
                            }
                            let bits = (neg ? -dec.doubleValue : dec.doubleValue).bitPattern
                            let flags: UInt8 = (n.unit == .percent ? 1 : 0) | (first ? 0 : 2)
                            let a = tree.add(.easingNumber, start.span.merged(with: n.span), flags: flags,
                                             Int32(bitPattern: UInt32(truncatingIfNeeded: bits)),
                                             Int32(bitPattern: UInt32(truncatingIfNeeded: bits >> 32)))
                            scratch.append(a)
                            first = false
                        }
                    } else if check(.identifier) || check(.keyword) {
                        let w = try parseHyphenatedWord(.word)
                        scratch.append(tree.add(.easingWord, w))
                    } else {
                        throw report(.expectedEasingParameter(found: describe(t)), at: t)
                    }
                } while match(.comma)
            }
            try consume(.rparen, orReport: .expectedToken(.easingParameters))
            // An empty list (`steps()`) is written parentheses: offset 0, not -1.
            args = (tree.list(scratch, from: mark) as SyntaxList<EasingArgumentID>).offset
        }
        return EasingID(raw: tree.add(.easing, name.merged(with: previous.span), Int32(name.end), args))
    }

    /// Joins `word-word-word` written without spaces (`ease-in-out`, `jump-start`, `damping-ratio`),
    /// and `word.word` too when `joiningDots` is set. The name is the text of the span.
    mutating func parseHyphenatedWord(_ what: ParseMessage.Wanted, joiningDots: Bool = false) throws -> Span {
        guard check(.identifier) || check(.keyword) else { throw report(.expected(what), at: peek) }
        var span = advance().span
        while check(.minus) || joiningDots && check(.dot), !peek.spaceBefore {
            let next = token(at: current + 1)
            guard next.kind == .identifier || next.kind == .keyword, !next.spaceBefore else { break }
            advance()
            span = span.merged(with: advance().span)
        }
        return span
    }

    /// spring := "spring" [ springPreset ] { springParam | "delay" expr } tweenBlock
    /// springParam := word { "-" word } expr
    mutating func parseSpring() throws -> StepID {
        let kw = advance()
        let preset = parseSpringPreset()
        let paramMark = scratch.count
        var options: [OptionID] = []
        while !check(.lt) {
            let t = peek
            if match(.delay) {
                let e = try parseExpression()
                options.append(OptionID(raw: tree.add(.option, t.span.merged(with: span(e)), flags: 0, e.raw)))
                continue
            }
            guard check(.identifier) || check(.keyword) else {
                throw report(.expectedSpringParameter(found: describe(peek)), at: peek)
            }
            let name = try parseHyphenatedWord(.springParameter)
            if atStatementEnd || check(.lt) { throw report(.expectedValue(file.text(of: name)), at: peek) }
            let value = try parseExpression()
            let p = tree.add(.property, name, value.raw)
            scratch.append(p)
        }
        let params: SyntaxList<PropertyInitID> = tree.list(scratch, from: paramMark)
        let (assignments, blockSpan) = try parseAssignmentBlock(after: "'spring'")
        let r = tree.record(params.offset, tree.list(options).offset, assignments.offset, preset)
        return StepID(raw: tree.add(.spring, kw.span.merged(with: blockSpan), r))
    }

    /// springPreset := word
    ///
    /// A preset (SwiftUI's `smooth`, `snappy`, `bouncy`) is a word with no value: one of the
    /// presets' names, or any other word but a parameter's that a `<` follows (so `spring smoth
    /// < … >` reaches the checker, which names the preset meant). The
    /// node is an identifier, or -1 when there is none.
    mutating func parseSpringPreset() -> Int32 {
        guard check(.identifier) else { return -1 }
        let word = text(peek)
        // A parameter's name before `<` is a parameter without its value, reported as such.
        guard ParseMessage.springPresets.contains(word)
                || token(at: current + 1).kind == .lt && !ParseMessage.springParameters.contains(word) else { return -1 }
        return tree.add(.identifier, advance().span)
    }

    /// wait := "wait" [ expr ]
    mutating func parseWait() throws -> StepID {
        let kw = advance()
        if atStatementEnd || check(.then) || check(.as) { return StepID(raw: tree.add(.wait, kw.span)) }
        let e = try parseExpression()
        return StepID(raw: tree.add(.wait, kw.span.merged(with: span(e)), e.raw))
    }

    /// expect := "expect" expr ("==" | "!=" | "<=" | ">=") expr [ "within" expr ]
    mutating func parseExpect() throws -> StepID {
        let kw = advance()
        let lhs = try parseArithmetic()
        let op: ExpectStep.Op
        switch peek.kind {
        case .equalEqual: op = .equal
        case .bangEqual: op = .notEqual
        case .lessEqual: op = .lessEqual
        case .greaterEqual: op = .greaterEqual
        case .equal:
            throw report(.singleEqualInExpect, at: peek)
        case .lt, .gt:
            throw report(.angleBracketInExpect, at: peek)
        case .identifier where binaryOperator(peek) != nil:
            throw report(.boolOperandInExpect(text(peek)), at: peek)
        default:
            throw report(.expectedComparison(found: describe(peek)), at: peek)
        }
        advance()
        let rhs = try parseArithmetic()
        if let (_, op) = binaryOperator(peek) { throw report(.boolOperandInExpect(op.text), at: peek) }
        var tolerance: ExprID?
        if match(.within) { tolerance = try parseExpression() }
        return StepID(raw: tree.add(.expect, kw.span.merged(with: previous.span), flags: op.code, lhs.raw,
                                    tree.record(rhs.raw, tolerance?.raw ?? -1)))
    }
}
