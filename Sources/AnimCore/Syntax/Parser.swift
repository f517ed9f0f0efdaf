// Parser: tokens → syntax tree, by recursive descent. Each parse function starts with its
// production, which must agree with Grammar.md. Nodes go into a SyntaxTree (flat arrays); a
// function returns the handle of the node it made, and lists are gathered on `scratch` and moved
// into the tree when they end. Tokens come from the lexer a chunk at a time and are let go
// after each top-level statement (all are kept once an error needs the ones before).
// Errors are reported to a DiagnosticBag (ParseMessage); a statement with an error is skipped up
// to the next statement boundary (panic mode, then `synchronize`), so one run reports every
// broken statement once. Expressions: Parser+Expressions.swift; steps and blocks: Parser+Steps.swift.

/// Thrown inside the parser to unwind to the statement being parsed; already reported.
struct ParseError: Error {}

/// Parses one source into a `SyntaxTree`.
public struct Parser {
    let file: SourceFile
    /// The tokens lexed and not let go yet: `tokens[0]` is the token with index `base`.
    var tokens: [Token] = []
    var base = 0
    /// The index of the next token.
    var current = 0
    /// Where more tokens come from; nil once every token is in `tokens`.
    var lexer: Lexer?
    /// The lexer's diagnostics, once it is done.
    var lexDiagnostics = DiagnosticBag()
    /// What the parser builds.
    var tree: SyntaxTree
    /// Items of the lists being parsed (statements, chains, steps …), innermost last.
    let scratch = SyntaxRun<Int32>(capacity: 256)
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
    /// A token array kept for the next string interpolation to lex into, so that the 898
    /// interpolations of the bench script do not allocate an array each (`parseInterpolation`).
    var spareTokens: [Token] = []

    /// The deepest nesting of blocks and expressions accepted. Deeper input is almost surely
    /// generated or hostile, and recursive descent needs stack for each level.
    public static let maxNestingDepth = 200

    /// Tokens lexed at a time: enough that refilling is rare, few enough to stay in cache.
    static let chunk = 512

    /// Tokens let go at a statement boundary once this many are behind the parser.
    static let keptBehind = 4096

    /// Creates a parser that lexes `file` as it goes.
    init(file: SourceFile) {
        self.file = file
        // Room for one node per 4 bytes and one Int32 of lists per 8: the bench script
        // (lsp-5000) makes about one node per 5.5 bytes, and at one per 6 its nodes outgrew the
        // run once, a copy of 0.83 M instructions (callgrind). Pages never written stay out of
        // memory, so the larger estimate costs address space, not memory.
        self.tree = SyntaxTree(file: file, nodes: file.bytes.count / 4, extra: file.bytes.count / 8)
        var lexer = Lexer(file: file)
        lexer.lex(into: &tokens, atLeast: Parser.chunk)
        if lexer.isAtEnd { lexDiagnostics = lexer.diagnostics } else { self.lexer = lexer }
    }

    /// Creates a parser over tokens lexed already (all of them, ending with `.eof`).
    init(file: SourceFile, tokens: [Token]) {
        self.file = file
        self.tree = SyntaxTree(file: file)
        self.tokens = tokens
    }

    /// Lexes and parses a whole source. `endedEarly`: see the property of that name.
    public static func parseProgram(_ file: SourceFile) -> (tree: SyntaxTree, diagnostics: DiagnosticBag, endedEarly: Bool) {
        var parser = Parser(file: file)
        parser.parseProgram()
        return (parser.tree, parser.allDiagnostics(), parser.endedEarly)
    }

    /// Lexes and parses a source that holds one expression (a `--trace` value, a REPL entry):
    /// the expression, or nil if it does not parse, and the first token after it when it does
    /// not end the source (no diagnostic is made for that: the caller says what it expected).
    /// Line breaks are spaces here.
    public static func parseExpression(_ file: SourceFile)
        -> (tree: SyntaxTree, expression: ExprID?, trailing: Token?, diagnostics: DiagnosticBag) {
        let (tokens, lexDiagnostics) = Lexer.tokenize(file)
        var parser = Parser(file: file, tokens: tokens.filter { $0.kind != .newline })
        parser.lexDiagnostics = lexDiagnostics
        let e = try? parser.parseExpression()
        return (parser.tree, e, e != nil && !parser.check(.eof) ? parser.peek : nil, parser.allDiagnostics())
    }

    /// The lexer's and the parser's diagnostics, in source order (both report in order, so
    /// this merges two sorted lists; a tie keeps the lexer's first).
    func allDiagnostics() -> DiagnosticBag {
        var all = lexDiagnostics
        all.append(contentsOf: diagnostics)
        let sorted = all.all.enumerated().sorted { a, b in
            a.element.span.start != b.element.span.start ? a.element.span.start < b.element.span.start : a.offset < b.offset
        }.map(\.element)
        var bag = DiagnosticBag()
        for d in sorted { bag.report(d) }
        return bag
    }

    // MARK: - Program and statements

    /// program := { separator } [ statement { separator+ statement } ] { separator } EOF
    mutating func parseProgram() {
        let mark = scratch.count
        skipSeparators()
        while !check(.eof) {
            let start = tree.mark
            if let s = parseStatementRecovering() {
                scratch.append(s.raw)
                tree.statementStarts.append(start)
            }
            letGoOfConsumedTokens()
            skipSeparators()
        }
        tree.statements = tree.list(scratch, from: mark)
    }

    /// Parses one statement; on error, reports once and skips to the next statement.
    mutating func parseStatementRecovering() -> StmtID? {
        panicMode = false
        let mark = scratch.count
        do {
            let s = try parseStatement()
            let kind = tree.node(s.raw).kind
            try expectStatementEnd(afterStep: kind == .topChain || kind == .topWait)
            return s
        } catch {
            scratch.removeLast(scratch.count - mark)
            synchronize()
            // At the top level a `>` closes no block: step over it, or the loop would stop on it forever.
            if check(.gt) { advance() }
            return nil
        }
    }

    /// statement := stageDecl | shapeDecl | groupDecl | letStmt | seedStmt | defineStmt
    ///            | atStmt | onChangeStmt | chain
    mutating func parseStatement() throws -> StmtID {
        let t = peek
        if t.kind == .keyword, let kw = t.keyword {
            switch kw {
            case .stage: return try parseStage()
            case .rect: return try parseShape(.rect)
            case .circle: return try parseShape(.circle)
            case .text: return try parseShape(.text)
            case .group: return try parseGroup()
            case .let: return try parseLet()
            case .seed: return try parseSeed()
            case .define: return try parseDefine()
            case .at: return try parseAt()
            case .on: return try parseOnChange()
            default: break
            }
        }
        if t.kind == .identifier, let kind = contextualShapeKind(t) { return try parseShape(kind) }
        let chain = try parseChain()
        let span = tree.span(chain)
        // A lone `wait` at the top level moves script time instead of building a graph. The
        // chain's node is read as it is stored (`a`: its steps, `b` < 0: no name), not decoded
        // into a `Chain` view, which reads the name's span for nothing.
        let c = tree.node(chain.raw)
        let steps = SyntaxList<StepID>(offset: c.a)
        if c.b < 0, tree.count(steps) == 1, let first = tree[steps].first, tree.node(first.raw).kind == .wait {
            return StmtID(raw: tree.add(.topWait, span, first.raw))
        }
        return StmtID(raw: tree.add(.topChain, span, chain.raw))
    }

    /// stageDecl := "stage" expr "x" expr { NAME expr }  |  "stage" expr { NAME expr }
    mutating func parseStage() throws -> StmtID {
        let start = advance().span
        let first = try parseExpression()
        var size = first
        if check(.identifier) && isWord(peek, "x") {
            advance()
            let h = try parseExpression()
            size = ExprID(raw: tree.add(.pair, span(first).merged(with: span(h)), first.raw, h.raw))
        }
        let props = try parsePropertyInits()
        return StmtID(raw: tree.add(.stage, start.merged(with: previous.span), size.raw, props.offset))
    }

    /// `line`, `ellipse`, `polygon`, `polyline`, `path` or `image` starting a declaration: the word
    /// followed by a name on the same line (they are not keywords, so `let line = 3` still works).
    mutating func contextualShapeKind(_ t: Token) -> ShapeKind? {
        let next = token(at: current + 1)
        guard next.kind == .identifier, next.spaceBefore else { return nil }
        let word = text(t)
        return ShapeKind.contextualKinds.first { $0.rawValue == word }
    }

    /// shapeDecl := ("rect" | "circle" | "text" | "line" | "ellipse" | "polygon" | "polyline" | "path" | "image") NAME [ "[" expr "]" ] { NAME expr }
    mutating func parseShape(_ kind: ShapeKind) throws -> StmtID {
        let start = advance().span
        let name = try consumeName(.shapeName(kind))
        var count: ExprID?
        if match(.lbracket) {
            count = try parseExpression()
            try consume(.rbracket, orReport: .expectedToken(.arraySize))
        }
        let props = try parsePropertyInits()
        let r = tree.record(Int32(name.start), Int32(name.end), count?.raw ?? -1, props.offset)
        return StmtID(raw: tree.add(.shape, start.merged(with: previous.span), flags: kind.code, r))
    }

    /// { NAME expr } — property keys may be keywords (`text "Hello"`). A key written as a
    /// hyphenated word (`border-radius`) is read whole, for the checker to reject by name.
    mutating func parsePropertyInits() throws -> SyntaxList<PropertyInitID> {
        let mark = scratch.count
        while check(.identifier) || check(.keyword) {
            let key = try parseHyphenatedWord(.propertyName)
            if atStatementEnd {
                throw report(.expectedValue(file.text(of: key)), at: peek)
            }
            let value = try parseExpression()
            let p = tree.add(.property, key, value.raw)
            scratch.append(p)
        }
        return tree.list(scratch, from: mark)
    }

    /// groupDecl := "group" NAME "=" expr
    mutating func parseGroup() throws -> StmtID {
        let start = advance().span
        let name = try consumeName(.groupName)
        try consume(.equal, orReport: .expected(.equalsAfterGroupName))
        let members = try parseExpression()
        return StmtID(raw: tree.add(.group, start.merged(with: span(members)), tree.record(Int32(name.start), Int32(name.end)), members.raw))
    }

    /// letStmt := "let" NAME "=" expr
    mutating func parseLet() throws -> StmtID {
        let start = advance().span
        let name = try consumeName(.letName)
        try consume(.equal, orReport: .expected(.equalsAfter(file.text(of: name))))
        let value = try parseExpression()
        return StmtID(raw: tree.add(.let, start.merged(with: span(value)), tree.record(Int32(name.start), Int32(name.end)), value.raw))
    }

    /// seedStmt := "seed" expr
    mutating func parseSeed() throws -> StmtID {
        let start = advance().span
        let value = try parseExpression()
        return StmtID(raw: tree.add(.seed, start.merged(with: span(value)), value.raw))
    }

    /// defineStmt := "define" NAME "(" [ NAME { "," NAME } ] ")" "=" chain
    mutating func parseDefine() throws -> StmtID {
        let start = advance().span
        let name = try consumeName(.defineName)
        let mark = scratch.count
        try consume(.lparen, orReport: .expected(.open(file.text(of: name))))
        if !check(.rparen) {
            repeat { let p = try consumeName(.parameterName); scratch.append(tree.add(.identifier, p)) } while match(.comma)
        }
        try consume(.rparen, orReport: .expectedToken(.parameters))
        try consume(.equal, orReport: .expected(.equalsBeforeBody(file.text(of: name))))
        let params: SyntaxList<IdentifierID> = tree.list(scratch, from: mark)
        skipNewlines()
        let body = try parseChain()
        let r = tree.record(Int32(name.start), Int32(name.end), params.offset, body.raw)
        return StmtID(raw: tree.add(.define, start.merged(with: span(body)), r))
    }

    /// atStmt := "at" expr block
    mutating func parseAt() throws -> StmtID {
        let start = advance().span
        let time = try parseExpression()
        let file = self.file, timeSpan = span(time)
        let body = try parseBlock(after: "'at \(file.text(of: timeSpan))'")
        return StmtID(raw: tree.add(.at, start.merged(with: tree.span(ofNode: body)), time.raw, body))
    }

    /// onChangeStmt := "on" "change" postfix block
    mutating func parseOnChange() throws -> StmtID {
        let start = advance().span
        guard check(.identifier), isWord(peek, "change") else {
            throw report(.expected(.change), at: peek)
        }
        advance()
        let prop = try parsePostfix()
        let body = try parseBlock(after: "the watched property")
        return StmtID(raw: tree.add(.onChange, start.merged(with: tree.span(ofNode: body)), prop.raw, body))
    }

    // MARK: - Vocabulary (Lox: peek, previous, advance, check, match, consume)

    var peek: Token { tokens[current - base] }
    var previous: Token { tokens[max(base, current - 1) - base] }

    /// The text of a token.
    func text(_ t: Token) -> String { file.text(of: t.span) }

    /// The span of a node made so far.
    @inline(__always) func span(_ id: some SyntaxID) -> Span { tree.span(id) }

    /// Whether a token's text is `word` (compared as bytes, no String made).
    func isWord(_ t: Token, _ word: StaticString) -> Bool {
        let n = Int(t.span.end - t.span.start)
        guard n == word.utf8CodeUnitCount else { return false }
        return file.bytes.withUnsafeBufferPointer { b in
            word.withUTF8Buffer { w in (0..<n).allSatisfy { b[Int(t.span.start) + $0] == w[$0] } }
        }
    }

    @discardableResult @inline(__always)
    mutating func advance() -> Token {
        let t = tokens[current - base]
        if t.kind != .eof {
            current += 1
            // Two tokens of lookahead are always lexed (`peek` and the one after it).
            if current - base + 2 >= tokens.count { lexMore() }
        }
        return t
    }

    /// The token with index `i` (lexing up to it if needed), or `.eof` past the end.
    mutating func token(at i: Int) -> Token {
        while i - base >= tokens.count, lexer != nil { lexMore() }
        return tokens[min(i - base, tokens.count - 1)]
    }

    /// Lexes the next chunk of tokens (none once every token is in).
    @inline(never)
    mutating func lexMore() {
        guard var l = lexer else { return }
        lexer = nil
        l.lex(into: &tokens, atLeast: Parser.chunk)
        if l.isAtEnd { lexDiagnostics = l.diagnostics } else { lexer = l }
    }

    /// At a statement boundary: lets go of the tokens well behind the parser (one is kept, for
    /// `previous`).
    mutating func letGoOfConsumedTokens() {
        guard current - base > Parser.keptBehind, lexer != nil else { return }
        tokens.removeFirst(current - 1 - base)
        base = current - 1
    }

    /// From now on every token is kept, from the first: what an error message reads (the line
    /// of a token, the `>` that closes a block) may lie before the tokens kept so far or far
    /// ahead. The source is lexed again whole, which gives the same tokens.
    mutating func keepEveryToken() {
        guard lexer != nil || base > 0 else { return }
        let (all, lexed) = Lexer.tokenize(file)
        tokens = all
        base = 0
        lexer = nil
        lexDiagnostics = lexed
    }

    @inline(__always) func check(_ kind: TokenKind) -> Bool { peek.kind == kind }
    @inline(__always) func check(_ kw: Keyword) -> Bool { peek.is(kw) }

    @inline(__always) mutating func match(_ kind: TokenKind) -> Bool {
        guard check(kind) else { return false }
        advance()
        return true
    }

    @inline(__always) mutating func match(_ kw: Keyword) -> Bool {
        guard check(kw) else { return false }
        advance()
        return true
    }

    /// Consumes a token of `kind` or reports `message` at the current token.
    @discardableResult
    mutating func consume(_ kind: TokenKind, orReport message: ParseMessage) throws -> Token {
        if check(kind) { return advance() }
        throw report(message, at: peek)
    }

    /// Consumes an identifier (not a keyword) and returns its span.
    mutating func consumeName(_ what: ParseMessage.Wanted) throws -> Span {
        if check(.identifier) { return advance().span }
        if check(.keyword) { throw report(.keywordAsName(text(peek)), at: peek) }
        throw report(.expected(what), at: peek)
    }

    /// Whether the current token ends a statement.
    var atStatementEnd: Bool {
        check(.newline) || check(.semicolon) || check(.eof) || check(.gt)
    }

    /// Requires the end of a statement; `afterStep` says that a step ended just before, so that
    /// a step starting here could be joined to it with `then`.
    mutating func expectStatementEnd(afterStep: Bool) throws {
        if atStatementEnd { return }
        throw report(.expectedStatementEnd(found: describe(peek)), at: peek,
                     help: afterStep ? twoStepsHelp() : peek.startsStep ? ParseMessage.separateStatements : nil)
    }

    /// For a step written right after another on one line: how to sequence them or run them together.
    func twoStepsHelp() -> String? {
        guard peek.startsStep else { return nil }
        return ParseMessage.twoSteps(before: peek.kind == .lt ? "the block" : "'\(text(peek))'")
    }

    mutating func skipSeparators() {
        while check(.newline) || check(.semicolon) { advance() }
    }

    mutating func skipNewlines() {
        while check(.newline) { advance() }
    }

    /// The first token after any newlines.
    mutating func peekPastNewlines() -> Token {
        var i = current
        while token(at: i).kind == .newline { i += 1 }
        return token(at: i)
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
    /// token) and returns the error to throw. `help` replaces the message's own.
    mutating func report(_ message: ParseMessage, at t: Token, help: String? = nil) -> ParseError {
        keepEveryToken()
        if t.kind == .eof { endedEarly = true }
        if !panicMode && t.kind != .error {
            let span = t.kind == .newline || t.kind == .eof ? Span.point(file.id, endOfLastToken(before: t)) : t.span
            var d = Diagnostic(.error, message.message, at: span, label: message.label, help: help ?? message.help)
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

    /// The position in `tokens` of the first token starting at or after byte `offset` (tokens
    /// are in source order).
    private func tokenIndex(at offset: Int) -> Int {
        var lo = 0, hi = tokens.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(tokens[mid].span.start) < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether the token after position `i` of `tokens` is a word on the same line.
    private func wordFollows(_ i: Int) -> Bool {
        guard i + 1 < tokens.count else { return false }
        let next = tokens[i + 1]
        guard next.kind == .identifier || next.kind == .keyword else { return false }
        return !file.bytes[Int(tokens[i].span.end)..<Int(next.span.start)].contains(0x0A)
    }

    /// Says that `color` was read as a color, not a comment, and how to write the comment.
    func explainColorComment(_ color: Token, in d: inout Diagnostic) {
        let explanation = ParseMessage.colorNotComment(digits: Int(color.span.end - color.span.start) - 1)
        if d.span == color.span && d.label == nil { d.label = explanation } else {
            d.secondary.append(.init(span: color.span, text: explanation))
        }
        // The line as it would read with the space: `# fade out` (its first 40 characters).
        let bytes = file.bytes
        var end = Int(color.span.end)
        while end < bytes.count, end < Int(color.span.start) + 200, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var rest = String(decoding: bytes[(Int(color.span.start) + 1)..<end], as: UTF8.self)
        if rest.count > 40 || end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { rest = String(rest.prefix(40)) + "…" }
        if d.help == nil { d.help = ParseMessage.commentNeedsSpace(rest) }
    }

    /// Where an error at a line break or at the end of input points: just after the last token
    /// before it, so the caret sits on the line that needs more (not after a trailing comment,
    /// nor on an empty line past the end of the file).
    func endOfLastToken(before t: Token) -> Int {
        var i = min(current - base, tokens.count - 1)
        while i >= 0, tokens[i].span.start >= t.span.start || tokens[i].kind == .newline { i -= 1 }
        return i >= 0 ? Int(tokens[i].span.end) : Int(t.span.start)
    }

    /// Reports a diagnostic built by the caller (with secondary labels), unless in panic mode.
    mutating func report(_ d: Diagnostic) -> ParseError {
        keepEveryToken()
        if !panicMode { diagnostics.report(d) }
        panicMode = true
        return ParseError()
    }

    /// Reports an error at a span.
    mutating func report(_ message: ParseMessage, at span: Span) -> ParseError {
        keepEveryToken()
        if !panicMode { diagnostics.error(message.message, at: span, label: message.label, help: message.help) }
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
            throw report(.nestingTooDeep(Parser.maxNestingDepth), at: t)
        }
    }
}
