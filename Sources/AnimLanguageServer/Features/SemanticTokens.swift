// Semantic tokens (`textDocument/semanticTokens/full`, `…/full/delta` and `…/range`): keywords,
// numbers, strings, colours, comments, and names by what they are (shapes and groups as
// variables, lets read-only, defines and built-in functions as functions, parameters and loop
// variables, step names as events, properties), from the lexer's tokens and the SymbolIndex. A
// string's `{ … }` interpolations are split out: the braces and the literal text are string
// tokens, the expression inside gets its own (names, properties, numbers, and operators).
//
// An editor asks again after every keystroke. The last full answer of each document is kept
// (its `resultId` and numbers), so a delta request answers only the numbers that changed: after
// a keystroke those of the tokens of the edited line, since each token's position is relative to
// the one before. A range request (VS Code asks one for the visible lines first) lexes and
// classifies only the top-level statements the range touches. For a version whose diagnostics a
// value edit reused (typing into `let gap = 12`), the tokens are its base analysis's, classified
// once and moved past the edited number (`SemanticTokens.moved`): no parse, names or lexing.
import AnimCore
import Synchronization

struct SemanticTokensFeature: LanguageFeature {
    /// The last full or delta answer of each open document.
    let results = TokenResults()

    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["semanticTokensProvider"] = ["legend": ["tokenTypes": .array(SemanticTokens.types.map { .string($0) }),
                                                             "tokenModifiers": .array(SemanticTokens.modifiers.map { .string($0) })],
                                                  "full": ["delta": true], "range": true]
    }

    var requests: [String: RequestHandler] {
        let results = results
        return [
            "textDocument/semanticTokens/full": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                let (id, data) = results.full(a, encoding: ctx.encoding)
                return ["resultId": .string(id), "data": .uints(data)]
            },
            "textDocument/semanticTokens/full/delta": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                guard let previous = ctx.params?["previousResultId"]?.string else {
                    throw .invalidParams("expected params.previousResultId")
                }
                switch results.delta(a, from: previous, encoding: ctx.encoding) {
                case .full(let id, let data):
                    // A result the server no longer has: the whole answer, as the spec allows.
                    return ["resultId": .string(id), "data": .uints(data)]
                case .edits(let id, let edits):
                    return ["resultId": .string(id), "edits": .array(edits.map { e in
                        ["start": .int(e.start), "deleteCount": .int(e.deleteCount), "data": .uints(Array(e.data))]
                    })]
                }
            },
            "textDocument/semanticTokens/range": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                guard let range = TextRange(json: ctx.params?["range"]) else { throw .invalidParams("expected params.range") }
                let lo = a.text.offset(of: range.start, encoding: ctx.encoding), hi = a.text.offset(of: range.end, encoding: ctx.encoding)
                return ["data": .uints(results.range(a, lo..<max(lo, hi), encoding: ctx.encoding))]
            },
        ]
    }

    func documentClosed(_ uri: String, output: ServerOutput) { results.forget(uri) }
}

/// The last semantic tokens answered for each document, for delta requests.
final class TokenResults: Sendable {
    private struct Entry {
        var id: String
        var version: Int
        var data: [UInt32]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// The tokens of the base analysis of each document's value edits.
        var bases: [String: (base: ValueEditBase, tokens: [(Span, SemanticTokens.T, Int)])] = [:]
        var next = 1
    }

    private let state = Mutex(State())

    /// What a delta request answers.
    enum Delta {
        /// The whole result (the previous one is not known).
        case full(String, [UInt32])
        /// Edits to the previous result (none when nothing changed).
        case edits(String, [SemanticTokens.Edit])
    }

    /// The tokens of `a` and their new result id, kept for the next delta request; a version
    /// already answered is not encoded again.
    func full(_ a: DocumentAnalysis, encoding: PositionEncoding) -> (String, [UInt32]) {
        let cached = state.withLock { s in s.entries[a.uri].flatMap { $0.version == a.version ? $0.data : nil } }
        let data = cached ?? SemanticTokens.encode(a, tokens(a), encoding: encoding)
        return (remember(a, data), data)
    }

    /// The tokens of `a` as edits to the result `previous`, or whole when it is not the last
    /// one kept.
    func delta(_ a: DocumentAnalysis, from previous: String, encoding: PositionEncoding) -> Delta {
        let old = state.withLock { s in s.entries[a.uri] }
        guard let old, old.id == previous else {
            let (id, data) = full(a, encoding: encoding)
            return .full(id, data)
        }
        let data = old.version == a.version ? old.data : SemanticTokens.encode(a, tokens(a), encoding: encoding)
        let id = remember(a, data)
        return .edits(id, SemanticTokens.edits(from: old.data, to: data).map { [$0] } ?? [])
    }

    /// The tokens of `a` in a range of document offsets.
    func range(_ a: DocumentAnalysis, _ range: Range<Int>, encoding: PositionEncoding) -> [UInt32] {
        let r = SemanticTokens.sourceRange(a, range)
        let tokens = valueEditTokens(a).map { $0.filter { $0.0.start < r.upperBound && $0.0.end > r.lowerBound } }
        return SemanticTokens.encode(a, tokens ?? SemanticTokens.tokens(a, in: r), encoding: encoding)
    }

    /// The tokens of `a`: for a value edit the base's moved, else classified anew.
    func tokens(_ a: DocumentAnalysis) -> [(Span, SemanticTokens.T, Int)] {
        valueEditTokens(a) ?? SemanticTokens.tokens(a)
    }

    /// For a version whose diagnostics a value edit reused (and whose own parse has not been
    /// made for some other feature), its base analysis's tokens moved into its text; the base's
    /// are classified once and kept while edits reuse it.
    private func valueEditTokens(_ a: DocumentAnalysis) -> [(Span, SemanticTokens.T, Int)]? {
        // After a trivia edit comments may have come, gone or changed length: classified anew.
        guard a.reusedDiagnostics, let edits = a.edits, !edits.changesComments else { return nil }
        let base = edits.base
        let kept = state.withLock { s in s.bases[a.uri].flatMap { $0.base === base ? $0.tokens : nil } }
        let tokens = kept ?? SemanticTokens.tokens(base.analysis.tree, base.analysis.symbols)
        if kept == nil { state.withLock { $0.bases[a.uri] = (base, tokens) } }
        return SemanticTokens.moved(tokens, edits)
    }

    /// Keeps `data` as the document's last result; returns its id.
    private func remember(_ a: DocumentAnalysis, _ data: [UInt32]) -> String {
        state.withLock { s in
            let id = String(s.next)
            s.next += 1
            s.entries[a.uri] = Entry(id: id, version: a.version, data: data)
            return id
        }
    }

    /// A document closed: its result is let go.
    func forget(_ uri: String) {
        state.withLock { s in
            s.entries[uri] = nil
            s.bases[uri] = nil
        }
    }
}

enum SemanticTokens {
    static let types = ["keyword", "number", "string", "comment", "variable", "parameter", "function", "property", "event", "enumMember",
                        "operator"]
    static let modifiers = ["declaration", "readonly", "defaultLibrary"]

    enum T: Int { case keyword, number, string, comment, variable, parameter, function, property, event, enumMember, `operator` }

    /// The tokens that are operators inside an interpolation (outside strings, editors colour
    /// them from their grammar; inside one they must not look like the string's text).
    static let operators: Set<TokenKind> = [.plus, .minus, .star, .slash, .dot, .equalEqual, .bangEqual, .lessEqual, .greaterEqual, .lt, .gt]

    /// The expressions of a string token's `{ … }` interpolations (the bytes between the
    /// braces), found as the parser finds them (`Interpolation.closingBrace`). An unclosed `{`
    /// ends the search (the parser reports it; the rest stays string).
    static func interpolations(in span: Span, _ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = Int(span.start) + 1
        let end = Int(span.end) - 1
        while i < end {
            let c = bytes[i]
            if c == 0x5C { i += 2; continue }
            if c == 0x7B {
                guard let j = Interpolation.closingBrace(bytes, open: i, end: end) else { break }
                out.append((i + 1)..<j)
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// Where to lex so that every token meeting `range` (source offsets) is made as the whole
    /// text's lexing makes it: from the start of the top-level statement holding its start to
    /// the start of the first one after its end. A top-level statement starts outside any
    /// string and bracket, where the lexer has nothing open. Comments between statements are
    /// in the gaps the comment scan reads.
    static func lexingBounds(_ tree: SyntaxTree, _ range: Range<UInt32>) -> Range<Int> {
        let statements = tree[tree.statements]
        let count = tree.file.bytes.count
        // The last statement starting at or before the range's start…
        var lo = 0, hi = statements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tree.span(statements[mid]).start <= range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        let from = lo > 0 ? Int(tree.span(statements[lo - 1]).start) : 0
        // …and the first starting at or after its end.
        var k = lo
        while k < statements.count, tree.span(statements[k]).start < range.upperBound { k += 1 }
        let to = k < statements.count ? Int(tree.span(statements[k]).start) : count
        return from..<max(from, min(to, count))
    }

    /// Tokens as (span, type, modifier bits), in order; with `range` (source offsets), only
    /// those meeting it, lexing and classifying only the statements it touches.
    static func tokens(_ a: DocumentAnalysis, in range: Range<UInt32>? = nil) -> [(Span, T, Int)] {
        tokens(a.syntax.tree, a.syntax.symbols, in: range)
    }

    /// The tokens of a tree with its names (`tokens(_:in:)`).
    static func tokens(_ tree: SyntaxTree, _ symbols: SymbolIndex, in range: Range<UInt32>? = nil) -> [(Span, T, Int)] {
        let file = tree.file
        let bounds = range.map { lexingBounds(tree, $0) } ?? 0..<file.bytes.count
        let tokens: [Token]
        if range == nil {
            tokens = Lexer.tokenize(file).tokens
        } else {
            var lexer = Lexer(file: file, range: bounds)
            tokens = lexer.tokenize()
        }
        /// Whether a span's start is where tokens are classified.
        func inBounds(_ s: Span) -> Bool { bounds.contains(Int(s.start)) }
        var declAt: [UInt32: Declaration] = [:]
        for d in symbols.declarations where inBounds(d.nameSpan) { declAt[d.nameSpan.start] = d }
        var refAt: [UInt32: Reference] = [:]
        for r in symbols.references where inBounds(r.span) { refAt[r.span.start] = r }
        let operatorWordAt = Set(symbols.operatorWords.lazy.filter(inBounds).map(\.start))
        func type(of d: Declaration) -> (T, Int) {
            switch d.kind {
            case .shape, .array, .group: (.variable, 0)
            case .let: (.variable, 2)
            case .define: (.function, 0)
            case .parameter, .loopVariable: (.parameter, 0)
            case .stepName: (.event, 0)
            }
        }
        // Easing names (`ease-in-out` lexes as words and dashes) are one token each.
        let easingNames = symbols.easings.lazy.map { tree[$0].nameSpan }.filter(inBounds)
        var out: [(Span, T, Int)] = []
        var last = UInt32(bounds.lowerBound)
        let bytes = file.bytes
        /// Comments in the gap before a token: a `#` the lexer skipped, to the end of its line.
        func comments(upTo end: UInt32) {
            var k = Int(last)
            while k < Int(end) {
                if bytes[k] == UInt8(ascii: "#") {
                    var e = k
                    while e < bytes.count, bytes[e] != 0x0A, bytes[e] != 0x0D { e += 1 }
                    out.append((Span(source: file.id, start: k, end: e), .comment, 0))
                    k = e
                } else { k += 1 }
            }
        }
        /// A token's type outside a string (nil: none, as for punctuation).
        func classify(_ t: Token) -> (T, Int)? {
            switch t.kind {
            case .keyword: return (.keyword, 0)
            case .number: return (.number, 0)
            case .color: return (.enumMember, 0)
            case .identifier:
                if operatorWordAt.contains(t.span.start) { return (.keyword, 0) }
                if let d = declAt[t.span.start] {
                    let (ty, m) = type(of: d)
                    return (ty, m | 1)
                }
                if let r = refAt[t.span.start] {
                    switch r.role {
                    case .name(let d): return type(of: symbols.declarations[d])
                    case .property: return (.property, 0)
                    case .function: return (.function, 4)
                    case .unresolved:
                        if Vocabulary.colorNameSet.contains(tree.text(t.span)) { return (.enumMember, 4) }
                    }
                }
                return nil
            default: return nil
            }
        }
        /// A string: its literal text and braces are string tokens, and each `{ … }`
        /// interpolation's expression is lexed again (as the parser does) and gets the tokens
        /// of any expression, with its operators and dots as operators.
        func string(_ span: Span) {
            var text = Int(span.start)
            for inner in interpolations(in: span, bytes) {
                out.append((Span(source: file.id, start: text, end: inner.lowerBound), .string, 0))
                var lexer = Lexer(file: file, range: inner)
                for t in lexer.tokenize() {
                    if t.kind == .string {
                        string(t.span)
                    } else if let c = classify(t) {
                        out.append((t.span, c.0, c.1))
                    } else if SemanticTokens.operators.contains(t.kind) {
                        out.append((t.span, .operator, 0))
                    }
                }
                text = inner.upperBound
            }
            out.append((Span(source: file.id, start: text, end: Int(span.end)), .string, 0))
        }
        var nextEasing = easingNames.startIndex
        for t in tokens {
            comments(upTo: t.span.start)
            while nextEasing < easingNames.endIndex, easingNames[nextEasing].end <= t.span.start, easingNames[nextEasing].end <= last {
                nextEasing = easingNames.index(after: nextEasing)
            }
            if nextEasing < easingNames.endIndex, easingNames[nextEasing].contains(t.span) {
                if easingNames[nextEasing].start == t.span.start { out.append((easingNames[nextEasing], .enumMember, 4)) }
                last = max(last, t.span.end)
                continue
            }
            last = max(last, t.span.end)
            if t.kind == .string {
                string(t.span)
            } else if let c = classify(t) {
                out.append((t.span, c.0, c.1))
            }
        }
        comments(upTo: UInt32(bounds.upperBound))
        guard let range else { return out }
        return out.filter { $0.0.start < range.upperBound && $0.0.end > range.lowerBound }
    }

    /// The LSP encoding: five integers per token, relative to the one before. A token that
    /// spans lines (a string with a line break) is cut at its first line's end. With `range`
    /// (document offsets), the tokens meeting it, the first relative to the document's start.
    static func encode(_ a: DocumentAnalysis, encoding: PositionEncoding, in range: Range<Int>? = nil) -> [UInt32] {
        encode(a, tokens(a, in: range.map { a.sourceOffset($0.lowerBound)..<a.sourceOffset($0.upperBound) }), encoding: encoding)
    }

    /// The source range of a range of document offsets.
    static func sourceRange(_ a: DocumentAnalysis, _ range: Range<Int>) -> Range<UInt32> {
        a.sourceOffset(range.lowerBound)..<a.sourceOffset(range.upperBound)
    }

    /// The tokens of the base of a value edit moved into the text of now: the same tokens, as
    /// the edit changed the digits of one number (`ValueEdits`: the new text lexes to the same
    /// tokens and parses to the same tree and names, with that number longer or shorter), so
    /// nothing is parsed, indexed, lexed or classified again.
    static func moved(_ base: [(Span, T, Int)], _ edits: ValueEdits) -> [(Span, T, Int)] {
        base.map { (Span(source: $0.0.source, start: Int(edits.current($0.0.start)), end: Int(edits.current($0.0.end))), $0.1, $0.2) }
    }

    /// `tokens` in the LSP encoding (`encode(_:encoding:in:)`).
    static func encode(_ a: DocumentAnalysis, _ tokens: [(Span, T, Int)], encoding: PositionEncoding) -> [UInt32] {
        var data: [UInt32] = []
        data.reserveCapacity(tokens.count * 5)
        var line = 0, char = 0, near = -1
        for (span, t, m) in tokens {
            let r = TextRange(start: a.text.position(ofOffset: a.documentOffset(span.start), encoding: encoding, near: &near),
                              end: a.text.position(ofOffset: a.documentOffset(span.end), encoding: encoding, near: &near))
            let length = r.end.line == r.start.line ? r.end.character - r.start.character
                : a.text.position(ofOffset: a.text.lineEnd(r.start.line), encoding: encoding).character - r.start.character
            guard length > 0 else { continue }
            data.append(UInt32(r.start.line - line))
            data.append(UInt32(r.start.line == line ? r.start.character - char : r.start.character))
            data.append(UInt32(length))
            data.append(UInt32(t.rawValue))
            data.append(UInt32(m))
            line = r.start.line
            char = r.start.character
        }
        return data
    }

    /// One edit of a result's numbers (LSP `SemanticTokensEdit`).
    struct Edit: Equatable {
        var start: Int
        var deleteCount: Int
        var data: ArraySlice<UInt32>
    }

    /// The one edit that turns `old` into `new`: the numbers between their common head and
    /// common tail, both cut to whole tokens (five numbers). Nil when they are equal.
    static func edits(from old: [UInt32], to new: [UInt32]) -> Edit? {
        guard old != new else { return nil }
        var head = 0
        let most = min(old.count, new.count)
        while head < most, old[head] == new[head] { head += 1 }
        head -= head % 5
        var tail = 0
        while tail < most - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] { tail += 1 }
        tail -= tail % 5
        return Edit(start: head, deleteCount: old.count - tail - head, data: new[head..<(new.count - tail)])
    }

    /// `old` with `edits` applied (as a client applies them; for tests).
    static func apply(_ edits: [Edit], to old: [UInt32]) -> [UInt32] {
        var out = old
        for e in edits.sorted(by: { $0.start > $1.start }) {
            out.replaceSubrange(e.start..<(e.start + e.deleteCount), with: e.data)
        }
        return out
    }
}
