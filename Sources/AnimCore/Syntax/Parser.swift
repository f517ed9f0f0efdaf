// Parser: tokens → AST, by recursive descent. Each parse function starts with its production,
// which must agree with Grammar.md. Errors are reported to a DiagnosticBag; a statement with an
// error is skipped up to the next statement boundary (panic mode, then `synchronize`), so one
// run reports every broken statement once. Expressions: Parser+Expressions.swift; steps and
// blocks: Parser+Steps.swift.

/// Thrown inside the parser to unwind to the statement being parsed; already reported.
struct ParseError: Error {}

/// Parses one source into a `Program`.
public struct Parser {
    let file: SourceFile
    var tokens: [Token]
    var current = 0
    /// Diagnostics found while parsing (lexer diagnostics are added by `parseProgram`).
    public internal(set) var diagnostics = DiagnosticBag()
    /// Set when an error happened at the end of the input, where more lines could complete it:
    /// an open block or bracket, a trailing `then`, a `define ... =` before its body. The REPL
    /// parses an entry with a line break added and asks for more lines when this is set; an
    /// error at that line break (`print 1 +`) is not one more lines could fix.
    public internal(set) var endedEarly = false
    var panicMode = false
    var depth = 0
    /// For each `<` (by token index), the index of the `>` that closes it, or nil if none does;
    /// found once an error needs it (`closeOfBlock`).
    var blockCloses: [Int: Int?]?

    /// The deepest nesting of blocks and expressions accepted. Deeper input is almost surely
    /// generated or hostile, and recursive descent needs stack for each level.
    public static let maxNestingDepth = 200

    /// Creates a parser over lexed tokens.
    init(file: SourceFile, tokens: [Token]) {
        self.file = file
        self.tokens = tokens
    }

    /// Lexes and parses a whole source. `endedEarly`: see the property of that name.
    public static func parseProgram(_ file: SourceFile) -> (program: Program, diagnostics: DiagnosticBag, endedEarly: Bool) {
        let (tokens, lexDiagnostics) = Lexer.tokenize(file)
        var parser = Parser(file: file, tokens: tokens)
        let program = parser.parseProgram()
        var all = lexDiagnostics
        all.append(contentsOf: parser.diagnostics)
        // Keep source order when both passes reported.
        let sorted = all.all.enumerated().sorted { a, b in
            a.element.span.start != b.element.span.start ? a.element.span.start < b.element.span.start : a.offset < b.offset
        }.map(\.element)
        var bag = DiagnosticBag()
        for d in sorted { bag.report(d) }
        // An unterminated string is not one of them: a string ends at the end of its line.
        return (program, bag, parser.endedEarly)
    }

    // MARK: - Program and statements

    /// program := { separator } [ statement { separator+ statement } ] { separator } EOF
    mutating func parseProgram() -> Program {
        var statements: [Stmt] = []
        skipSeparators()
        while !check(.eof) {
            if let s = parseStatementRecovering() { statements.append(s) }
            skipSeparators()
        }
        return Program(statements: statements)
    }

    /// Parses one statement; on error, reports once and skips to the next statement.
    mutating func parseStatementRecovering() -> Stmt? {
        panicMode = false
        do {
            let s = try parseStatement()
            switch s {
            case .chain, .wait: try expectStatementEnd(afterStep: true)
            default: try expectStatementEnd(afterStep: false)
            }
            return s
        } catch {
            synchronize()
            // At the top level a `>` closes no block: step over it, or the loop would stop on it forever.
            if check(.gt) { advance() }
            return nil
        }
    }

    /// statement := stageDecl | shapeDecl | groupDecl | letStmt | seedStmt | defineStmt
    ///            | atStmt | onChangeStmt | chain
    mutating func parseStatement() throws -> Stmt {
        let t = peek
        if t.kind == .keyword, let kw = t.keyword {
            switch kw {
            case .stage: return .stage(try parseStage())
            case .rect: return .shape(try parseShape(.rect))
            case .circle: return .shape(try parseShape(.circle))
            case .text: return .shape(try parseShape(.text))
            case .group: return .group(try parseGroup())
            case .let: return .let(try parseLet())
            case .seed: return .seed(try parseSeed())
            case .define: return .define(try parseDefine())
            case .at: return .at(try parseAt())
            case .on: return .onChange(try parseOnChange())
            default: break
            }
        }
        let chain = try parseChain()
        // A lone `wait` at the top level moves script time instead of building a graph.
        if chain.name == nil, chain.steps.count == 1, case .wait(let w) = chain.steps[0] { return .wait(w) }
        return .chain(chain)
    }

    /// stageDecl := "stage" expr "x" expr { NAME expr }  |  "stage" expr { NAME expr }
    mutating func parseStage() throws -> StageDecl {
        let start = advance().span
        let first = try parseExpression()
        var size = first
        if check(.identifier) && text(peek) == "x" {
            advance()
            let h = try parseExpression()
            size = .pair(PairExpr(x: first, y: h, span: first.span.merged(with: h.span)))
        }
        let props = try parsePropertyInits()
        return StageDecl(size: size, properties: props, span: start.merged(with: previous.span))
    }

    /// shapeDecl := ("rect" | "circle" | "text") NAME [ "[" expr "]" ] { NAME expr }
    mutating func parseShape(_ kind: ShapeKind) throws -> ShapeDecl {
        let start = advance().span
        let name = try consumeName("a shape name after '\(kind.rawValue)'")
        var count: Expr?
        if match(.lbracket) {
            count = try parseExpression()
            try consume(.rbracket, orReport: "expected ']' after the array size")
        }
        let props = try parsePropertyInits()
        return ShapeDecl(kind: kind, name: name, count: count, properties: props, span: start.merged(with: previous.span))
    }

    /// { NAME expr } — property keys may be keywords (`text "Hello"`). A key written as a
    /// hyphenated word (`border-radius`) is read whole, for the checker to reject by name.
    mutating func parsePropertyInits() throws -> [PropertyInit] {
        var props: [PropertyInit] = []
        while check(.identifier) || check(.keyword) {
            let (name, span) = try parseHyphenatedWord("a property name")
            let key = Identifier(name, span)
            if atStatementEnd {
                throw report("expected a value for '\(key.name)'", at: peek)
            }
            props.append(PropertyInit(name: key, value: try parseExpression()))
        }
        return props
    }

    /// groupDecl := "group" NAME "=" expr
    mutating func parseGroup() throws -> GroupDecl {
        let start = advance().span
        let name = try consumeName("a group name after 'group'")
        try consume(.equal, orReport: "expected '=' after the group name")
        let members = try parseExpression()
        return GroupDecl(name: name, members: members, span: start.merged(with: members.span))
    }

    /// letStmt := "let" NAME "=" expr
    mutating func parseLet() throws -> LetStmt {
        let start = advance().span
        let name = try consumeName("a name after 'let'")
        try consume(.equal, orReport: "expected '=' after '\(name.name)'")
        let value = try parseExpression()
        return LetStmt(name: name, value: value, span: start.merged(with: value.span))
    }

    /// seedStmt := "seed" expr
    mutating func parseSeed() throws -> SeedStmt {
        let start = advance().span
        let value = try parseExpression()
        return SeedStmt(value: value, span: start.merged(with: value.span))
    }

    /// defineStmt := "define" NAME "(" [ NAME { "," NAME } ] ")" "=" chain
    mutating func parseDefine() throws -> DefineStmt {
        let start = advance().span
        let name = try consumeName("a name after 'define'")
        var params: [Identifier] = []
        try consume(.lparen, orReport: "expected '(' after '\(name.name)'")
        if !check(.rparen) {
            repeat { params.append(try consumeName("a parameter name")) } while match(.comma)
        }
        try consume(.rparen, orReport: "expected ')' after the parameters")
        try consume(.equal, orReport: "expected '=' before the body of '\(name.name)'")
        skipNewlines()
        let body = try parseChain()
        return DefineStmt(name: name, parameters: params, body: body, span: start.merged(with: body.span))
    }

    /// atStmt := "at" expr block
    mutating func parseAt() throws -> AtStmt {
        let start = advance().span
        let time = try parseExpression()
        let body = try parseBlock(after: "'at \(file.text(of: time.span))'")
        return AtStmt(time: time, body: body, span: start.merged(with: body.span))
    }

    /// onChangeStmt := "on" "change" expr block
    mutating func parseOnChange() throws -> OnChangeStmt {
        let start = advance().span
        guard check(.identifier), text(peek) == "change" else {
            throw report("expected 'change' after 'on'", at: peek)
        }
        advance()
        let prop = try parsePostfix()
        let body = try parseBlock(after: "the watched property")
        return OnChangeStmt(property: prop, body: body, span: start.merged(with: body.span))
    }

    // MARK: - Vocabulary (Lox: peek, previous, advance, check, match, consume)

    var peek: Token { tokens[current] }
    var previous: Token { tokens[max(0, current - 1)] }

    /// The text of a token.
    func text(_ t: Token) -> String { file.text(of: t.span) }

    @discardableResult
    mutating func advance() -> Token {
        let t = tokens[current]
        if t.kind != .eof { current += 1 }
        return t
    }

    func check(_ kind: TokenKind) -> Bool { peek.kind == kind }
    func check(_ kw: Keyword) -> Bool { peek.is(kw) }

    mutating func match(_ kind: TokenKind) -> Bool {
        guard check(kind) else { return false }
        advance()
        return true
    }

    mutating func match(_ kw: Keyword) -> Bool {
        guard check(kw) else { return false }
        advance()
        return true
    }

    /// Consumes a token of `kind` or reports `message` at the current token.
    @discardableResult
    mutating func consume(_ kind: TokenKind, orReport message: String) throws -> Token {
        if check(kind) { return advance() }
        throw report(message, at: peek)
    }

    /// Consumes an identifier (not a keyword) and returns it.
    mutating func consumeName(_ what: String) throws -> Identifier {
        if check(.identifier) { return Identifier(text(peek), advance().span) }
        if check(.keyword) {
            throw report("'\(text(peek))' is a keyword and cannot be used as a name", at: peek,
                         help: "choose another name, such as '\(text(peek))1'")
        }
        throw report("expected \(what)", at: peek)
    }

    /// Whether the current token ends a statement.
    var atStatementEnd: Bool {
        check(.newline) || check(.semicolon) || check(.eof) || check(.gt)
    }

    /// Requires the end of a statement; `afterStep` says that a step ended just before, so that
    /// a step starting here could be joined to it with `then`.
    mutating func expectStatementEnd(afterStep: Bool) throws {
        if atStatementEnd { return }
        throw report("expected end of statement, found \(describe(peek))", at: peek,
                     help: afterStep ? twoStepsHelp() : peek.startsStep ? "separate two statements with ';' or a new line" : nil)
    }

    /// For a step written right after another on one line: how to sequence them or run them together.
    func twoStepsHelp() -> String? {
        guard peek.startsStep else { return nil }
        let word = peek.kind == .lt ? "the block" : "'\(text(peek))'"
        return "write 'then' before \(word) to run it after the step before, or ';' to start both now"
    }

    mutating func skipSeparators() {
        while check(.newline) || check(.semicolon) { advance() }
    }

    mutating func skipNewlines() {
        while check(.newline) { advance() }
    }

    /// The kind of the first token after any newlines.
    func peekPastNewlines() -> Token {
        var i = current
        while tokens[i].kind == .newline { i += 1 }
        return tokens[i]
    }

    /// How a token is named in a message: `'foo'`, `end of line`.
    func describe(_ t: Token) -> String {
        switch t.kind {
        case .newline, .eof: t.kind.display
        case .string: "string \(text(t))"
        case .color: "color '\(text(t))'"
        default: "'\(text(t))'"
        }
    }

    // MARK: - Errors and recovery

    /// Reports an error at a token (unless in panic mode, or the lexer already reported the
    /// token) and returns the error to throw.
    mutating func report(_ message: String, at t: Token, label: String? = nil, help: String? = nil) -> ParseError {
        if t.kind == .eof { endedEarly = true }
        if !panicMode && t.kind != .error {
            let span = t.kind == .newline || t.kind == .eof ? Span.point(file.id, endOfLastToken(before: t)) : t.span
            var d = Diagnostic(.error, message, at: span, label: label, help: help)
            if let color = colorReadForComment(near: t) { explainColorComment(color, in: &d) }
            diagnostics.report(d)
        }
        panicMode = true
        return ParseError()
    }

    /// The color token that reads as a comment written without a space after `#` (`#fade out`,
    /// `#add more`; a 3, 4, 6 or 8 hex-digit word after `#` is a color, §1.2): `t` itself when it
    /// is such a color that starts its line or has a word after it, else the color that starts
    /// the line of `t` when a word follows it.
    func colorReadForComment(near t: Token) -> Token? {
        guard t.kind != .eof, t.kind != .newline else { return nil }
        let bytes = file.bytes
        var lineStart = file.lineStarts[file.lineIndex(of: Int(t.span.start))]
        while lineStart < bytes.count, bytes[lineStart] == 0x20 || bytes[lineStart] == 0x09 { lineStart += 1 }
        let i = tokenIndex(at: Int(t.span.start))
        if t.kind == .color, Int(t.span.start) == lineStart || wordFollows(i) { return t }
        let first = tokenIndex(at: lineStart)
        guard tokens[first].kind == .color, Int(tokens[first].span.start) == lineStart, wordFollows(first) else { return nil }
        return tokens[first]
    }

    /// The index of the first token starting at or after byte `offset` (tokens are in source order).
    private func tokenIndex(at offset: Int) -> Int {
        var lo = 0, hi = tokens.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(tokens[mid].span.start) < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether the token after index `i` is a word on the same line.
    private func wordFollows(_ i: Int) -> Bool {
        guard i + 1 < tokens.count else { return false }
        let next = tokens[i + 1]
        guard next.kind == .identifier || next.kind == .keyword else { return false }
        return !file.bytes[Int(tokens[i].span.end)..<Int(next.span.start)].contains(0x0A)
    }

    /// Says that `color` was read as a color, not a comment, and how to write the comment.
    func explainColorComment(_ color: Token, in d: inout Diagnostic) {
        let digits = Int(color.span.end - color.span.start) - 1
        let explanation = "'#' and \(digits) hex digits make a color, not a comment"
        if d.span == color.span && d.label == nil { d.label = explanation } else {
            d.secondary.append(.init(span: color.span, text: explanation))
        }
        // The line as it would read with the space: `# fade out` (its first 40 characters).
        let bytes = file.bytes
        var end = Int(color.span.end)
        while end < bytes.count, end < Int(color.span.start) + 200, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var rest = String(decoding: bytes[(Int(color.span.start) + 1)..<end], as: UTF8.self)
        if rest.count > 40 || end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { rest = String(rest.prefix(40)) + "…" }
        if d.help == nil { d.help = "put a space after '#' to start a comment: '# \(rest)'" }
    }

    /// Where an error at a line break or at the end of input points: just after the last token
    /// before it, so the caret sits on the line that needs more (not after a trailing comment,
    /// nor on an empty line past the end of the file).
    func endOfLastToken(before t: Token) -> Int {
        var i = min(current, tokens.count - 1)
        while i >= 0, tokens[i].span.start >= t.span.start || tokens[i].kind == .newline { i -= 1 }
        return i >= 0 ? Int(tokens[i].span.end) : Int(t.span.start)
    }

    /// Reports a diagnostic built by the caller (with secondary labels), unless in panic mode.
    mutating func report(_ d: Diagnostic) -> ParseError {
        if !panicMode { diagnostics.report(d) }
        panicMode = true
        return ParseError()
    }

    /// Reports an error at a span.
    mutating func report(_ message: String, at span: Span, label: String? = nil, help: String? = nil) -> ParseError {
        if !panicMode { diagnostics.error(message, at: span, label: label, help: help) }
        panicMode = true
        return ParseError()
    }

    /// Skips to the next statement boundary at the current block depth: a newline or `;`,
    /// or the `>` that closes the block being parsed (left for the block to consume).
    mutating func synchronize() {
        var nesting = 0
        while !check(.eof) {
            switch peek.kind {
            case .lt: nesting += 1
            case .gt:
                if nesting == 0 { return }
                nesting -= 1
            case .newline, .semicolon:
                if nesting == 0 { return }
            default: break
            }
            advance()
        }
    }

    /// Guards recursion depth; call with `defer { depth -= 1 }`.
    mutating func enterNesting(_ t: Token) throws {
        depth += 1
        if depth > Parser.maxNestingDepth {
            throw report("nesting is too deep (the limit is \(Parser.maxNestingDepth) levels)", at: t)
        }
    }
}
