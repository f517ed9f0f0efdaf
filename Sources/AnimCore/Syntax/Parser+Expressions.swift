// Parser+Expressions: arithmetic by precedence climbing, postfix member/index/call, and primary
// expressions including interpolated strings. There are no bare `<`/`>` operators: those
// characters delimit blocks.

extension Parser {
    /// Binary operator precedence: higher binds tighter. All are left-associative.
    static let binaryOperators: [TokenKind: (Int, BinaryExpr.Op)] = [
        .plus: (1, .add), .minus: (1, .subtract),     // + -
        .star: (2, .multiply), .slash: (2, .divide),  // * /
    ]

    /// `binaryOperators` indexed by the token kind's raw value (read for every operand).
    static let precedence: [(Int, BinaryExpr.Op)?] = (0...Int(TokenKind.error.rawValue)).map { raw in
        TokenKind(rawValue: UInt8(raw)).flatMap { binaryOperators[$0] }
    }

    /// expr := unary { binop unary }   (precedence from `Parser.binaryOperators`)
    mutating func parseExpression() throws -> Expr {
        try enterNesting(peek)
        defer { depth -= 1 }
        return try parseBinary(minPrecedence: 1)
    }

    mutating func parseBinary(minPrecedence: Int) throws -> Expr {
        var lhs = try parseUnary()
        while let (prec, op) = Parser.precedence[Int(peek.kind.rawValue)], prec >= minPrecedence {
            let opToken = advance()
            if atStatementEnd || check(.lt) {
                throw report("expected an expression after '\(op.rawValue)'", at: peek)
            }
            let rhs = try parseBinary(minPrecedence: prec + 1)
            lhs = .binary(BinaryExpr(op: op, opSpan: opToken.span, lhs: lhs, rhs: rhs, span: lhs.span.merged(with: rhs.span)))
        }
        return lhs
    }

    /// unary := "-" unary | postfix
    mutating func parseUnary() throws -> Expr {
        if check(.minus) {
            let t = advance()
            try enterNesting(t)
            defer { depth -= 1 }
            let operand = try parseUnary()
            return .unary(UnaryExpr(op: .negate, operand: operand, span: t.span.merged(with: operand.span)))
        }
        return try parsePostfix()
    }

    /// postfix := primary { "." NAME | "[" expr "]" }
    mutating func parsePostfix() throws -> Expr {
        var e = try parsePrimary()
        while true {
            if match(.dot) {
                guard check(.identifier) || check(.keyword) else {
                    throw report("expected a property name after '.'", at: peek)
                }
                let t = advance()
                e = .member(MemberExpr(base: e, member: Identifier(text(t), t.span), span: e.span.merged(with: t.span)))
            } else if check(.lbracket) && !peek.spaceBefore {
                advance()
                let index = try parseExpression()
                try consume(.rbracket, orReport: "expected ']' after the index")
                e = .index(IndexExpr(base: e, index: index, span: e.span.merged(with: previous.span)))
            } else {
                return e
            }
        }
    }

    /// primary := NUMBER | STRING | COLOR | "true" | "false" | NAME [ "(" args ")" ]
    ///          | "(" expr [ "," expr ] ")" | "[" [ expr { "," expr } ] "]"
    mutating func parsePrimary() throws -> Expr {
        let t = peek
        switch t.kind {
        case .number:
            advance()
            let dec = file.bytes.withUnsafeBufferPointer { b in
                DecimalLiteral(bytes: UnsafeBufferPointer(rebasing: b[Int(t.span.start)..<Int(t.digitsEnd)]))
            }
            guard let dec else { throw report("malformed number '\(text(t))'", at: t) }
            return .number(NumberLiteral(value: dec, unit: t.unit, span: t.span))
        case .string:
            advance()
            return .string(try parseStringLiteral(t))
        case .color:
            advance()
            let hex = text(t).dropFirst()
            return .color(ColorLiteral(value: Color(hex: hex)!, span: t.span))
        case .keyword where t.is(.true) || t.is(.false):
            advance()
            return .bool(BoolLiteral(value: t.is(.true), span: t.span))
        case .identifier:
            advance()
            let id = Identifier(text(t), t.span)
            if check(.lparen) && !peek.spaceBefore {
                advance()
                var args: [Expr] = []
                if !check(.rparen) {
                    repeat { args.append(try parseExpression()) } while match(.comma)
                }
                try consume(.rparen, orReport: "expected ')' after the arguments of '\(id.name)'")
                return .call(CallExpr(callee: id, arguments: args, span: t.span.merged(with: previous.span)))
            }
            return .name(id)
        case .lparen:
            advance()
            let first = try parseExpression()
            if match(.comma) {
                let second = try parseExpression()
                if check(.comma) {
                    throw report("a point has two components", at: peek, help: "write (x, y)")
                }
                try consume(.rparen, orReport: "expected ')' after the point's second component")
                return .pair(PairExpr(x: first, y: second, span: t.span.merged(with: previous.span)))
            }
            try consume(.rparen, orReport: "expected ')' to close '('")
            return first
        case .lbracket:
            advance()
            var elements: [Expr] = []
            if !check(.rbracket) {
                repeat {
                    if check(.rbracket) { break }  // a trailing comma is fine
                    elements.append(try parseExpression())
                } while match(.comma)
            }
            try consume(.rbracket, orReport: "expected ']' to close the list")
            return .list(ListExpr(elements: elements, span: t.span.merged(with: previous.span)))
        case .keyword:
            throw report("expected an expression, found keyword '\(text(t))'", at: t)
        case .newline, .eof, .semicolon, .gt:
            throw report("expected an expression", at: t)
        default:
            throw report("expected an expression, found \(describe(t))", at: t)
        }
    }

    /// Splits a string token into text and `{expr}` parts, decoding escapes.
    mutating func parseStringLiteral(_ t: Token) throws -> StringLiteral {
        let bytes = file.bytes
        var parts: [StringLiteral.Part] = []
        var buffer: [UInt8] = []
        var i = Int(t.span.start) + 1
        let end = Int(t.span.end) - 1
        while i < end {
            let c = bytes[i]
            if c == 0x5C, i + 1 < end {  // backslash escape
                let e = bytes[i + 1]
                switch e {
                case 0x6E: buffer.append(0x0A)
                case 0x74: buffer.append(0x09)
                case 0x22, 0x5C, 0x7B, 0x7D: buffer.append(e)
                default:
                    diagnostics.error("unknown escape '\\\(Character(Unicode.Scalar(e)))' in string",
                                      at: Span(source: file.id, start: i, end: i + 2),
                                      help: "escapes are \\n, \\t, \\\", \\\\, \\{ and \\}")
                    throw ParseError()
                }
                i += 2
            } else if c == 0x7B {  // { expr }
                if !buffer.isEmpty { parts.append(.text(String(decoding: buffer, as: UTF8.self))); buffer = [] }
                // Find the matching brace, skipping nested strings.
                var j = i + 1, nesting = 1, inString = false
                while j < end {
                    let d = bytes[j]
                    if d == 0x5C { j += 2; continue }
                    if d == 0x22 { inString.toggle() } else if !inString && d == 0x7B { nesting += 1 } else if !inString && d == 0x7D {
                        nesting -= 1
                        if nesting == 0 { break }
                    }
                    j += 1
                }
                guard j < end else {
                    throw report("unclosed '{' in string", at: Span(source: file.id, start: i, end: i + 1),
                                 help: "write '\\{' for a literal brace")
                }
                let (sub, subDiags) = lexRange(i + 1..<j)
                if subDiags.hasErrors { diagnostics.append(contentsOf: subDiags); throw ParseError() }
                var inner = Parser(file: file, tokens: sub)
                inner.panicMode = false
                inner.depth = depth
                if inner.check(.eof) {
                    throw report("empty '{}' in string", at: Span(source: file.id, start: i, end: j + 1),
                                 help: "write '\\{' for a literal brace")
                }
                let expr = try? inner.parseExpression()
                if expr == nil || !inner.check(.eof) {
                    if inner.diagnostics.hasErrors { diagnostics.append(contentsOf: inner.diagnostics) } else {
                        diagnostics.error("expected '}' after the interpolated expression", at: inner.peek.span)
                    }
                    throw ParseError()
                }
                parts.append(.interpolation(expr!))
                i = j + 1
            } else if c == 0x7D {
                throw report("unmatched '}' in string", at: Span(source: file.id, start: i, end: i + 1),
                             help: "write '\\}' for a literal brace")
            } else {
                buffer.append(c)
                i += 1
            }
        }
        if !buffer.isEmpty || parts.isEmpty { parts.append(.text(String(decoding: buffer, as: UTF8.self))) }
        return StringLiteral(parts: parts, span: t.span)
    }

    /// Lexes part of the file (an interpolation), without newline tokens.
    func lexRange(_ range: Range<Int>) -> ([Token], DiagnosticBag) {
        var lexer = Lexer(file: file, range: range)
        let tokens = lexer.tokenize().filter { $0.kind != .newline }
        return (tokens, lexer.diagnostics)
    }
}
