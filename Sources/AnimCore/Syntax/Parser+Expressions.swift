// Parser+Expressions: arithmetic by precedence climbing, postfix member/index/call, and primary
// expressions including interpolated strings. There are no bare `<`/`>` operators: those
// characters delimit blocks.

extension Parser {
    /// expr := unary { binop unary }
    /// The precedence of each `binop` is in `Parser.binaryOperator(_:)`.
    mutating func parseExpression() throws -> ExprID {
        if let e = parseLoneOperand() { return e }
        try enterNesting(peek)
        defer { depth -= 1 }
        return try parseBinary(minPrecedence: 1)
    }

    /// An expression of `+ - * /` only: the operands of `expect`, whose comparison is its own
    /// (a comparison or `and` as an operand there is written in parentheses).
    mutating func parseArithmetic() throws -> ExprID {
        if let e = parseLoneOperand() { return e }
        try enterNesting(peek)
        defer { depth -= 1 }
        return try parseBinary(minPrecedence: Parser.arithmeticPrecedence)
    }

    mutating func parseBinary(minPrecedence: Int) throws -> ExprID {
        var lhs = try parseUnary()
        while let (prec, op) = binaryOperator(peek), prec >= minPrecedence {
            let opToken = advance()
            if atStatementEnd || check(.lt) {
                throw report(.expectedOperand(op.text), at: peek)
            }
            let rhs = try parseBinary(minPrecedence: prec + 1)
            let r = tree.record(rhs.raw, Int32(opToken.span.start))
            lhs = ExprID(raw: tree.add(.binary, span(lhs).merged(with: span(rhs)), flags: op.code, lhs.raw, r))
        }
        return lhs
    }

    /// Where a hyphenated function name that starts at the current identifier ends (the index
    /// of its `(`), or nil when the identifier is not one: `word-word(` with no spaces.
    mutating func hyphenatedCallEnd() -> Int? {
        var k = current + 1
        var joined = false
        while token(at: k).kind == .minus, !token(at: k).spaceBefore {
            let w = token(at: k + 1)
            guard w.kind == .identifier || w.kind == .keyword, !w.spaceBefore else { return nil }
            k += 2
            joined = true
        }
        let open = token(at: k)
        return joined && open.kind == .lparen && !open.spaceBefore ? k : nil
    }

    /// The precedence of `+` and `-`, the loosest arithmetic.
    static let arithmeticPrecedence = 5
    /// The precedence of the comparisons; `not` takes an operand of this precedence or tighter.
    static let comparisonPrecedence = 4

    /// The precedence and operator of a token, if it is a binary operator: the precedence
    /// table (higher binds tighter; all are left-associative). `and` and `or` are contextual
    /// words: operators only where an operator may follow an operand.
    @inline(__always) func binaryOperator(_ t: Token) -> (Int, BinaryExpr.Op)? {
        switch t.kind {
        case .plus: (5, .arithmetic(.add))
        case .minus: (5, .arithmetic(.subtract))
        case .star: (6, .arithmetic(.multiply))
        case .slash: (6, .arithmetic(.divide))
        case .equalEqual: (4, .comparison(.equal))
        case .bangEqual: (4, .comparison(.notEqual))
        case .lessEqual: (4, .comparison(.lessEqual))
        case .greaterEqual: (4, .comparison(.greaterEqual))
        case .identifier where isWord(t, "and"): (2, .and)
        case .identifier where isWord(t, "or"): (1, .or)
        default: nil
        }
    }

    /// Whether a token can begin an operand (what `not` needs after it to be the operator).
    func beginsOperand(_ t: Token) -> Bool {
        switch t.kind {
        case .number, .string, .color, .identifier, .lparen, .lbracket, .minus: true
        case .keyword: t.is(.true) || t.is(.false)
        default: false
        }
    }

    /// A number or a name that is a whole expression (`0.5`, `o12`): most operands are, and
    /// they need no climb through the precedence levels. Nil (nothing consumed) when an
    /// operator, a postfix or a call follows, or the number does not read: the full descent
    /// then parses it, and reports what it must.
    mutating func parseLoneOperand() -> ExprID? {
        let t = peek
        guard t.kind == .number || t.kind == .identifier, depth < Parser.maxNestingDepth else { return nil }
        let next = token(at: current + 1)
        switch next.kind {
        case .plus, .minus, .star, .slash, .dot, .equalEqual, .bangEqual, .lessEqual, .greaterEqual: return nil
        // An index or a call follows only with no space before it (`a[0]`, `f(x)`), as in parsePostfix.
        case .lbracket where !next.spaceBefore, .lparen where !next.spaceBefore: return nil
        case .identifier where binaryOperator(next) != nil: return nil
        default: break
        }
        if t.kind == .number {
            guard numberReads(t) else { return nil }
            advance()
            return ExprID(raw: tree.add(.number, t.span, flags: t.unit.rawValue))
        }
        if isWord(t, "not") && beginsOperand(next) { return nil }
        advance()
        return ExprID(raw: tree.add(.name, t.span))
    }

    /// Whether a number token's digits read as a decimal literal (the lexer's digits always
    /// do, but for an exponent out of DecimalLiteral's range).
    func numberReads(_ t: Token) -> Bool {
        file.bytes.withUnsafeBufferPointer { b in
            let digits = UnsafeBufferPointer(rebasing: b[Int(t.span.start)..<Int(t.digitsEnd)])
            return !digits.contains(where: { $0 | 0x20 == 0x65 /* e */ }) || DecimalLiteral(bytes: digits) != nil
        }
    }

    /// unary := "not" unary | "-" unary | postfix
    /// (`not` takes an operand of comparison precedence: `not a == b` is `not (a == b)`.)
    mutating func parseUnary() throws -> ExprID {
        if peek.kind == .identifier, isWord(peek, "not"), beginsOperand(token(at: current + 1)) {
            let t = advance()
            try enterNesting(t)
            defer { depth -= 1 }
            let operand = try parseBinary(minPrecedence: Parser.comparisonPrecedence)
            return ExprID(raw: tree.add(.not, t.span.merged(with: span(operand)), operand.raw))
        }
        if check(.minus) {
            let t = advance()
            try enterNesting(t)
            defer { depth -= 1 }
            let operand = try parseUnary()
            return ExprID(raw: tree.add(.unary, t.span.merged(with: span(operand)), operand.raw))
        }
        return try parsePostfix()
    }

    /// postfix := primary { "." NAME { "-" NAME } | "[" expr "]" }
    mutating func parsePostfix() throws -> ExprID {
        var e = try parsePrimary()
        while true {
            if match(.dot) {
                guard check(.identifier) || check(.keyword) else {
                    throw report(.expectedPropertyAfterDot, at: peek)
                }
                // A hyphenated property name (`card.shadow-blur`) reads in one piece, as in
                // declarations: `-` between words with no space either side.
                let t = try parseHyphenatedWord(.propertyName)
                e = ExprID(raw: tree.add(.member, span(e).merged(with: t), e.raw, Int32(t.start)))
            } else if check(.lbracket) && !peek.spaceBefore {
                advance()
                let index = try parseExpression()
                try consume(.rbracket, orReport: .expectedToken(.index))
                e = ExprID(raw: tree.add(.index, span(e).merged(with: previous.span), e.raw, index.raw))
            } else {
                return e
            }
        }
    }

    /// primary := NUMBER | STRING | COLOR | "true" | "false" | NAME [ "(" args ")" ]
    ///          | "(" expr [ "," expr ] ")" | "[" [ expr { "," expr } [","] ] "]"
    mutating func parsePrimary() throws -> ExprID {
        let t = peek
        switch t.kind {
        case .number:
            advance()
            guard numberReads(t) else { throw report(.malformedNumber(text(t)), at: t) }
            return ExprID(raw: tree.add(.number, t.span, flags: t.unit.rawValue))
        case .string:
            advance()
            return try parseStringLiteral(t)
        case .color:
            advance()
            tree.colors.append(Color(hexLiteral: file.bytes, from: Int(t.span.start) + 1, to: Int(t.span.end)))
            return ExprID(raw: tree.add(.color, t.span, Int32(tree.colors.count - 1) + tree.colorBase))
        case .keyword where t.is(.true) || t.is(.false):
            advance()
            return ExprID(raw: tree.add(.bool, t.span, flags: t.is(.true) ? 1 : 0))
        case .identifier:
            // A hyphenated function name (`linear-gradient(`) reads in one piece: words joined by
            // `-` with no space anywhere, right before `(`.
            var callee = t.span
            if let end = hyphenatedCallEnd() {
                while current < end { callee = callee.merged(with: advance().span) }
            } else {
                advance()
            }
            if check(.lparen) && !peek.spaceBefore {
                advance()
                let mark = scratch.count
                if !check(.rparen) {
                    repeat {
                        var a = try parseExpression()
                        // `colour at position`: a gradient's stop (the checker allows it there only).
                        if check(.at) {
                            let opToken = advance()
                            let position = try parseExpression()
                            a = ExprID(raw: tree.add(.binary, span(a).merged(with: span(position)), flags: BinaryOperator.at.code, a.raw,
                                                     tree.record(position.raw, Int32(opToken.span.start))))
                        }
                        scratch.append(a.raw)
                    } while match(.comma)
                }
                try consume(.rparen, orReport: .expectedToken(.callArguments(file.text(of: callee))))
                let args: SyntaxList<ExprID> = tree.list(scratch, from: mark)
                return ExprID(raw: tree.add(.call, t.span.merged(with: previous.span), Int32(callee.end), args.offset))
            }
            return ExprID(raw: tree.add(.name, t.span))
        case .lparen:
            advance()
            let first = try parseExpression()
            if match(.comma) {
                let second = try parseExpression()
                if check(.comma) {
                    throw report(.pointHasTwoComponents, at: peek)
                }
                try consume(.rparen, orReport: .expectedToken(.pointEnd))
                return ExprID(raw: tree.add(.pair, t.span.merged(with: previous.span), first.raw, second.raw))
            }
            try consume(.rparen, orReport: .expectedToken(.paren))
            return first
        case .lbracket:
            advance()
            let mark = scratch.count
            if !check(.rbracket) {
                repeat {
                    if check(.rbracket) { break }  // a trailing comma is fine
                    let e = try parseExpression(); scratch.append(e.raw)
                } while match(.comma)
            }
            try consume(.rbracket, orReport: .expectedToken(.list))
            let elements: SyntaxList<ExprID> = tree.list(scratch, from: mark)
            return ExprID(raw: tree.add(.list, t.span.merged(with: previous.span), elements.offset))
        case .keyword:
            throw report(.expectedExpressionFoundKeyword(text(t)), at: t)
        case .newline, .eof, .semicolon, .gt:
            throw report(.expectedExpression, at: t)
        default:
            throw report(.expectedExpressionFound(describe(t)), at: t)
        }
    }

    /// Splits a string token into text and `{expr}` parts, decoding escapes. A text part with
    /// no escape (nearly every one) is decoded straight from the source bytes; only a part with
    /// an escape gathers its bytes in a buffer (copying every byte into one cost ~1,800
    /// instructions a string; callgrind, lsp-5000).
    mutating func parseStringLiteral(_ t: Token) throws -> ExprID {
        let bytes = file.bytes
        let mark = scratch.count
        /// The bytes of the current part before `runStart`, escapes decoded; empty while the
        /// part has had no escape.
        var escaped: [UInt8] = []
        var i = Int(t.span.start) + 1
        /// Where the bytes of the current part not yet in `escaped` begin.
        var runStart = i
        let end = Int(t.span.end) - 1
        /// The text part ending at `to`: a negative item, naming an entry of the tree's `strings`.
        func text(to: Int, _ tree: inout SyntaxTree) -> Int32 {
            if escaped.isEmpty {
                tree.strings.append(String(decoding: bytes[runStart..<to], as: UTF8.self))
            } else {
                escaped.append(contentsOf: bytes[runStart..<to])
                tree.strings.append(String(decoding: escaped, as: UTF8.self))
                escaped.removeAll(keepingCapacity: true)
            }
            return -(Int32(tree.strings.count - 1) + tree.stringBase) - 1
        }
        while i < end {
            let c = bytes[i]
            if c == 0x5C, i + 1 < end {  // backslash escape
                let e = bytes[i + 1]
                let decoded: UInt8
                switch e {
                case 0x6E: decoded = 0x0A
                case 0x74: decoded = 0x09
                case 0x22, 0x5C, 0x7B, 0x7D: decoded = e
                default:
                    let m = ParseMessage.unknownEscape(Character(Unicode.Scalar(e)))
                    diagnostics.error(m.message, at: Span(source: file.id, start: i, end: i + 2), help: m.help)
                    throw ParseError()
                }
                escaped.append(contentsOf: bytes[runStart..<i])
                escaped.append(decoded)
                i += 2
                runStart = i
            } else if c == 0x7B {  // { expr }
                if runStart < i || !escaped.isEmpty { let part = text(to: i, &tree); scratch.append(part) }
                // Find the matching brace, skipping nested strings.
                guard let j = Interpolation.closingBrace(bytes, open: i, end: end) else {
                    throw report(.unclosedInterpolation, at: Span(source: file.id, start: i, end: i + 1))
                }
                let part = try parseInterpolation(i..<(j + 1))
                scratch.append(part.raw)
                i = j + 1
                runStart = i
            } else if c == 0x7D {
                throw report(.unmatchedBrace, at: Span(source: file.id, start: i, end: i + 1))
            } else {
                i += 1
            }
        }
        if runStart < end || !escaped.isEmpty || scratch.count == mark { let part = text(to: end, &tree); scratch.append(part) }
        let parts: SyntaxList<ExprID> = tree.list(scratch, from: mark)
        return ExprID(raw: tree.add(.string, t.span, parts.offset))
    }

    /// The expression of an interpolation `{ … }` (the braces at the ends of `braces`), parsed
    /// by the same functions as any other on the tokens lexed from between the braces. Its
    /// errors are reported as any other; only an error at its end is not one more lines fix.
    ///
    /// The inner tokens go into `spareTokens` (taken, so a nested interpolation gets an array of
    /// its own), and the parser's state is moved aside and back rather than copied as a tuple:
    /// copying the outer lexer and token array retained and released them each time, and a
    /// fresh array per interpolation was a malloc (parseInterpolation 3.56 M instructions for
    /// 898 interpolations before; callgrind, lsp-5000).
    mutating func parseInterpolation(_ braces: Range<Int>) throws -> ExprID {
        var lexer = Lexer(file: file, range: (braces.lowerBound + 1)..<(braces.upperBound - 1))
        var sub: [Token] = []
        swap(&sub, &spareTokens)
        sub.removeAll(keepingCapacity: true)
        lexer.tokenize(appendingTo: &sub)
        // A newline inside braces is rare: the tokens are filtered only when there is one.
        if sub.contains(where: { $0.kind == .newline }) { sub.removeAll { $0.kind == .newline } }
        if lexer.diagnostics.hasErrors { diagnostics.append(contentsOf: lexer.diagnostics); throw ParseError() }
        if sub.count == 1 {  // only `.eof`
            throw report(.emptyInterpolation, at: Span(source: file.id, start: braces.lowerBound, end: braces.upperBound))
        }
        // Parse the inner tokens in place of the outer ones, then put the outer ones back.
        let outerBase = base, outerCurrent = current, outerPanicMode = panicMode, outerEndedEarly = endedEarly
        var outerLexer = self.lexer.take(), outerCloses = blockCloses.take()
        swap(&tokens, &sub)
        (base, current, panicMode) = (0, 0, false)
        defer {
            swap(&tokens, &sub)
            swap(&spareTokens, &sub)
            (base, current, panicMode, endedEarly) = (outerBase, outerCurrent, outerPanicMode, outerEndedEarly)
            self.lexer = outerLexer.take()
            blockCloses = outerCloses.take()
        }
        let errorsBefore = diagnostics.all.count
        let e = try? parseExpression()
        guard let e, check(.eof) else {
            if diagnostics.all.count == errorsBefore {
                diagnostics.error(ParseMessage.expectedInterpolationEnd.message, at: peek.span)
            }
            throw ParseError()
        }
        return e
    }
}

extension Color {
    /// The color of a `#` literal, from its hex digits `bytes[from..<to]` (the lexer made the
    /// token only for 3, 4, 6 or 8 ASCII hex digits). The same channels as `Color(hex:)`, read
    /// from the source bytes: that initializer takes text, and making a String of every colour
    /// token to give it cost 0.66 M instructions for the bench script's 500 colours (callgrind).
    init(hexLiteral bytes: [UInt8], from: Int, to: Int) {
        var packed: UInt32 = 0
        for i in from..<to {
            let c = bytes[i]
            let d = c <= 0x39 ? c &- 0x30 : (c | 0x20) &- 0x57
            packed = packed << 4 | UInt32(d)
        }
        let n = to - from
        /// Digit `k` (from the left) of the `n` digits.
        func digit(_ k: Int) -> Int { Int((packed >> UInt32(4 * (n - 1 - k))) & 0xF) }
        if n <= 4 {
            self.init(r: Double(digit(0) * 17), g: Double(digit(1) * 17), b: Double(digit(2) * 17),
                      a: n == 4 ? Double(digit(3) * 17) / 255 : 1)
        } else {
            self.init(r: Double(digit(0) * 16 + digit(1)), g: Double(digit(2) * 16 + digit(3)), b: Double(digit(4) * 16 + digit(5)),
                      a: n == 8 ? Double(digit(6) * 16 + digit(7)) / 255 : 1)
        }
    }
}
