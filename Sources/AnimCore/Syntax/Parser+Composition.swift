// Parser+Composition: the steps that compose or steer others — any/choose, if, repeat, stagger,
// play, after/with, and the control verbs (pause, seek, speed, interrupt …).

extension Parser {
    /// select := ("any" | "choose") block
    mutating func parseSelect() throws -> StepID {
        // `any` and `choose` are words, not keywords: they mean this only before a `<`.
        let kw = advance()
        let mode: SelectStep.Mode = isWord(kw, "any") ? .any : .choose
        let body = try parseBlock(after: "'\(mode.rawValue)'")
        return StepID(raw: tree.add(.select, kw.span.merged(with: tree.span(ofNode: body)), flags: mode == .any ? 0 : 1, body))
    }

    /// if := "if" expr block { "else" "if" expr block } [ "else" block ]
    /// `else` may follow the `>` before it on its line or start the next line.
    mutating func parseIf() throws -> StepID {
        let kw = advance()
        let mark = scratch.count
        var end = kw.span
        var sawElse = false
        while true {
            if check(.lt) { throw report(.expectedIfCondition, at: peek) }
            let condition = try parseExpression()
            let body = try parseBlock(after: "the condition")
            scratch.append(condition.raw); scratch.append(body)
            end = tree.span(ofNode: body)
            guard nextIsElse() else { break }
            skipNewlines()
            advance()  // else
            if check(.identifier), isWord(peek, "if") { advance(); continue }
            let last = try parseBlock(after: "'else'")
            scratch.append(-1); scratch.append(last)
            end = tree.span(ofNode: last)
            sawElse = true
            break
        }
        if sawElse, nextIsElse() {
            skipNewlines()
            throw report(.elseAfterElse, at: peek)
        }
        let branches: SyntaxList<ExprID> = tree.list(scratch, from: mark)
        return StepID(raw: tree.add(.conditional, kw.span.merged(with: end), branches.offset))
    }

    /// Whether `else` comes next, on this line or at the start of the next ones.
    mutating func nextIsElse() -> Bool {
        var i = current
        while token(at: i).kind == .newline { i += 1 }
        let t = token(at: i)
        return t.kind == .identifier && isWord(t, "else")
    }

    /// repeat := "repeat" ( expr | "forever" | "while" expr ) [ "for" NAME ] [ "yoyo" ] [ "repeat-delay" expr ] block
    mutating func parseRepeat() throws -> StepID {
        let kw = advance()
        var count: ExprID?
        var condition: ExprID?
        if !match(.forever) {
            if check(.lt) { throw report(.expectedRepeatCount, at: peek) }
            // `repeat while COND`: `while` is a word, special only right after `repeat`.
            if check(.identifier), isWord(peek, "while") {
                advance()
                if check(.lt) || atStatementEnd { throw report(.expectedRepeatCondition, at: peek) }
                condition = try parseExpression()
            } else {
                count = try parseExpression()
            }
        }
        // `for k`: the pass index, from 0.
        var variable: Span?
        if match(.for) { variable = try consumeName(.loopVariable) }
        let yoyo = match(.yoyo)
        var delay: ExprID?
        if isRepeatDelay(at: current) {
            advance(); advance(); advance()
            delay = try parseExpression()
        } else if check(.identifier), let s = ParseMessage.optionSuggestion(text(peek)), s == "repeat-delay" || s == "yoyo" {
            // GSAP's `repeatDelay`, a misspelt `yoyo`: the block's options are these two.
            throw report(.unknownRepeatOption(text(peek), suggestion: s), at: peek)
        }
        let body = try parseBlock(after: "'repeat'")
        let span = kw.span.merged(with: tree.span(ofNode: body))
        if condition != nil || variable != nil {
            // Flag 4: `b` is a record of the body, the delay, the pass variable; flag 8: `a` is the condition.
            let r = tree.record(body, delay?.raw ?? -1, variable.map { Int32($0.start) } ?? -1, variable.map { Int32($0.end) } ?? -1)
            return StepID(raw: tree.add(.repeat, span, flags: (yoyo ? 1 : 0) | 4 | (condition != nil ? 8 : 0),
                                        (condition ?? count)?.raw ?? -1, r))
        }
        if let delay {
            return StepID(raw: tree.add(.repeat, span, flags: (yoyo ? 1 : 0) | 2, count?.raw ?? -1, tree.record(body, delay.raw)))
        }
        return StepID(raw: tree.add(.repeat, span, flags: yoyo ? 1 : 0, count?.raw ?? -1, body))
    }

    /// stagger := "stagger" [ "amount" ] expr { staggerOption } "for" NAME [ "," NAME ] "in" expr block
    /// staggerOption := "from" ( NAME | NUMBER | "(" expr ")" ) | "ease" easing
    ///                | "grid" "(" expr "," expr ")" | "axis" NAME
    /// `amount`, `grid` and `axis` are contextual words (GSAP's stagger object: `amount`,
    /// `grid`, `axis`; its `each` is the plain interval).
    mutating func parseStagger() throws -> StepID {
        let kw = advance()
        // `amount` starts the amount unless it is the interval itself (a `let amount`).
        var isAmount = false
        if check(.identifier), isWord(peek, "amount") || isWord(peek, "each") {
            let next = token(at: current + 1)
            if next.kind == .colon { throw report(.staggerOptionColon(text(peek)), at: next) }
            if isWord(peek, "each"), Parser.startsExpression(next) { throw report(.staggerEach, at: peek) }
            if isWord(peek, "amount"), Parser.startsExpression(next) { advance(); isAmount = true }
        }
        let interval = try parseExpression()
        var order: Span?, fromIndex: ExprID?, ease: EasingID?, rows: ExprID?, columns: ExprID?, axis: Span?
        var seen: Set<String> = []
        func once(_ word: String, _ t: Token) throws {
            if !seen.insert(word).inserted { throw report(.repeatedStaggerOption(word), at: t) }
        }
        while true {
            let t = peek
            if match(.from) {
                try once("from", t)
                if check(.colon) { throw report(.staggerOptionColon("from"), at: peek) }
                if check(.identifier) {
                    order = advance().span
                } else if check(.number) || check(.lparen) || check(.minus) {
                    fromIndex = try parseUnary()
                } else if check(.string) {
                    throw report(.staggerOrderString(file.text(of: peek.span)), at: peek)  // GSAP's from: "center"
                } else {
                    throw report(.expectedStaggerOrder, at: peek)
                }
            } else if match(.ease) {
                try once("ease", t)
                ease = try parseEasing()
            } else if check(.identifier), isWord(t, "grid") {
                advance()
                try once("grid", t)
                if check(.colon) { throw report(.staggerOptionColon("grid"), at: peek) }
                try consume(.lparen, orReport: .expectedStaggerGrid)
                rows = try parseExpression()
                try consume(.comma, orReport: .expectedStaggerGrid)
                columns = try parseExpression()
                try consume(.rparen, orReport: .expectedStaggerGrid)
            } else if check(.identifier), isWord(t, "axis") {
                advance()
                try once("axis", t)
                if check(.colon) { throw report(.staggerOptionColon("axis"), at: peek) }
                guard check(.identifier) else { throw report(.expectedStaggerAxis, at: peek) }
                axis = advance().span
            } else if check(.identifier), let s = DidYouMean.suggest(text(t), from: ParseMessage.staggerOptionWords + ["for"]) {
                throw report(.unknownStaggerOption(text(t), suggestion: s), at: t)
            } else {
                break
            }
        }
        guard match(.for) else { throw report(.expectedFor, at: peek) }
        let variable = try consumeName(.loopVariable)
        var index: Span?
        if match(.comma) { index = try consumeName(.loopVariable) }
        guard match(.in) else { throw report(.expectedIn(file.text(of: index ?? variable)), at: peek) }
        let seq = try parseExpression()
        let body = try parseBlock(after: "the shapes")
        let r = tree.record(interval.raw, order.map { Int32($0.start) } ?? -1, order.map { Int32($0.end) } ?? -1,
                            Int32(variable.start), Int32(variable.end), seq.raw, body)
        // The options beyond the interval and order, when any is given: a second record.
        var options: Int32 = -1
        if fromIndex != nil || ease != nil || rows != nil || axis != nil || index != nil {
            options = tree.record(fields: [fromIndex?.raw ?? -1, ease?.raw ?? -1, rows?.raw ?? -1, columns?.raw ?? -1,
                                           axis.map { Int32($0.start) } ?? -1, axis.map { Int32($0.end) } ?? -1,
                                           index.map { Int32($0.start) } ?? -1, index.map { Int32($0.end) } ?? -1])
        }
        return StepID(raw: tree.add(.stagger, kw.span.merged(with: tree.span(ofNode: body)), flags: isAmount ? 1 : 0, r, options))
    }

    /// Whether a token can start an expression (a stagger's `amount` is then the word, not a name).
    static func startsExpression(_ t: Token) -> Bool {
        switch t.kind {
        case .number, .string, .color, .identifier, .lparen, .lbracket, .minus: true
        case .keyword: t.is(.true) || t.is(.false)
        default: false
        }
    }

    /// play := "play" NAME "(" [ expr { "," expr } ] ")" { "reversed" | "speed" expr }
    mutating func parsePlay() throws -> StepID {
        let kw = advance()
        let name = try consumeName(.sequenceName)
        let mark = scratch.count
        try consume(.lparen, orReport: .expected(.open(file.text(of: name))))
        if !check(.rparen) {
            repeat { let a = try parseExpression(); scratch.append(a.raw) } while match(.comma)
        }
        try consume(.rparen, orReport: .expectedToken(.playArguments))
        let args: SyntaxList<ExprID> = tree.list(scratch, from: mark)
        var reversed = false, speed: ExprID?
        while true {
            if match(.reversed) { reversed = true } else if match(.speed) { speed = try parseExpression() } else { break }
        }
        let r = tree.record(Int32(name.start), Int32(name.end), args.offset, speed?.raw ?? -1)
        return StepID(raw: tree.add(.play, kw.span.merged(with: previous.span), flags: reversed ? 1 : 0, r))
    }

    /// relative := ("after" | "with") NAME [ ("+" | "-") unary ] block
    mutating func parseRelative() throws -> StepID {
        let kw = advance()
        let anchor: RelativeStep.Anchor = kw.is(.after) ? .after : .with
        let target = try consumeName(.stepName(anchor))
        var offset: ExprID?, negative = false
        if check(.plus) || check(.minus) {
            negative = advance().kind == .minus
            offset = try parseUnary()
        }
        let file = self.file
        let body = try parseBlock(after: "'\(anchor.rawValue) \(file.text(of: target))'")
        let r = tree.record(Int32(target.start), Int32(target.end), offset?.raw ?? -1, body)
        return StepID(raw: tree.add(.relative, kw.span.merged(with: tree.span(ofNode: body)),
                                    flags: (anchor == .after ? 0 : 1) | (negative ? 2 : 0), r))
    }

    /// control := ("pause" | "resume" | "reverse" | "interrupt" | "save" | "restore") postfix
    ///          | "seek" postfix [ expr ]
    ///          | "speed" postfix expr
    mutating func parseControl() throws -> StepID {
        let kw = advance()
        let verb = ControlStep.Verb(keyword: kw.keyword!)
        if atStatementEnd { throw report(.expectedControlTarget(verb), at: peek) }
        let target = try parsePostfix()
        // `seek NAME T` moves the run's playhead to T; `seek NAME` alone jumps the run holding
        // the step NAME to the step's start (GSAP's `tl.seek("label")`).
        var time: ExprID?
        if verb == .seek, !(atStatementEnd || check(.then) || check(.as)) {
            time = try parseExpression()
        }
        if verb == .speed {
            // `speed NAME R`: the run's new rate (GSAP timeScale, Web Animations updatePlaybackRate).
            if atStatementEnd { throw report(.expectedSpeedRate(file.text(of: span(target))), at: peek) }
            time = try parseExpression()
        }
        return StepID(raw: tree.add(.control, kw.span.merged(with: previous.span), flags: verb.code, target.raw, time?.raw ?? -1))
    }
}

extension ControlStep.Verb {
    /// The verb a control keyword names.
    init(keyword: Keyword) {
        switch keyword {
        case .pause: self = .pause
        case .resume: self = .resume
        case .seek: self = .seek
        case .reverse: self = .reverse
        case .interrupt: self = .interrupt
        case .save: self = .save
        case .speed: self = .speed
        default: self = .restore
        }
    }
}
