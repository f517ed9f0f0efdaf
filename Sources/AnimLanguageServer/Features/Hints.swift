// Inlay hints (`textDocument/inlayHint`): after each step, when it ran in the timing run —
// `⟨1.250s → 2.000s⟩`, `⟨1.250s → …⟩` for a step still running when the run stopped, and
// `×N` for a step that ran N times (the first start and the last end) — and after each
// top-level `wait`, where script time landed: `⟨now 3.000s⟩`. A step that never ran gets none.
//
// Semantic tokens (`textDocument/semanticTokens/full`): keywords, numbers, strings, colours,
// comments, and names by what they are (shapes and groups as variables, lets read-only,
// defines and built-in functions as functions, parameters and loop variables, step names as
// events, properties), from the lexer's tokens and the SymbolIndex. A string's `{ … }`
// interpolations are split out: the braces and the literal text are string tokens, the
// expression inside gets its own (names, properties, numbers, and operators).
import AnimCore

struct HintsFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["inlayHintProvider"] = true
        capabilities["semanticTokensProvider"] = ["legend": ["tokenTypes": .array(SemanticTokens.types.map { .string($0) }),
                                                             "tokenModifiers": .array(SemanticTokens.modifiers.map { .string($0) })],
                                                  "full": true]
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/inlayHint": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                let range = TextRange(json: ctx.params?["range"])
                let lo = range.map { a.text.offset(of: $0.start, encoding: ctx.encoding) } ?? 0
                let hi = range.map { a.text.offset(of: $0.end, encoding: ctx.encoding) } ?? a.text.bytes.count
                return .array(InlayHints.hints(a, in: lo...hi).map { h in
                    ["position": a.text.position(ofOffset: h.offset, encoding: ctx.encoding).json, "label": .string(h.label),
                     "kind": 1, "paddingLeft": true]
                })
            },
            "textDocument/semanticTokens/full": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                return ["data": .array(SemanticTokens.encode(a, encoding: ctx.encoding).map { .int($0) })]
            },
        ]
    }
}

enum InlayHints {
    /// Hints as (document offset, label), in order. They read the timing run alone (when each
    /// step ran, where each `wait` landed) and print only times and run counts, never a value:
    /// for a version whose diagnostics were reused they are the base analysis's, moved as the
    /// diagnostics are (`DocumentAnalysis.timing`).
    /// Only those placed in `range` (document offsets) are labelled and returned.
    static func hints(_ a: DocumentAnalysis, in range: ClosedRange<Int> = 0...Int.max) -> [(offset: Int, label: String)] {
        let (script, offset) = a.timing
        guard script.timeline != nil else { return [] }
        let tree = script.tree
        var out: [(Int, String)] = []
        for s in script.symbols.steps {
            let span = tree.span(s)
            let at = offset(span.end)
            guard range.contains(at), let t = script.stepTimes.time(of: span) else { continue }
            out.append((at, label(t)))
        }
        for s in tree[tree.statements] {
            let at = offset(tree.span(s).end)
            guard range.contains(at), case .wait(let w) = tree[s],
                  let now = script.waitLandings[w.span] ?? script.waitLandings[tree.span(s)] else { continue }
            out.append((at, "⟨now \(Hover.stamp(now))⟩"))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    static func label(_ t: StepTime) -> String {
        let end = t.end.map(Hover.stamp) ?? "…"
        return "⟨\(Hover.stamp(t.start)) → \(end)\(t.runs > 1 ? ", ×\(t.runs)" : "")⟩"
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
    /// braces), found as the parser finds them: a backslash escapes the next byte, and braces
    /// inside a nested string do not count. An unclosed `{` ends the search (the parser
    /// reports it; the rest stays string).
    static func interpolations(in span: Span, _ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var i = Int(span.start) + 1
        let end = Int(span.end) - 1
        while i < end {
            let c = bytes[i]
            if c == 0x5C { i += 2; continue }
            if c == 0x7B {
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
                guard j < end else { break }
                out.append((i + 1)..<j)
                i = j + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// Tokens as (span, type, modifier bits), in order.
    static func tokens(_ a: DocumentAnalysis) -> [(Span, T, Int)] {
        let file = a.syntax.tree.file
        let (tokens, _) = Lexer.tokenize(file)
        let symbols = a.syntax.symbols
        var declAt: [UInt32: Declaration] = [:]
        for d in symbols.declarations { declAt[d.nameSpan.start] = d }
        var refAt: [UInt32: Reference] = [:]
        for r in symbols.references { refAt[r.span.start] = r }
        let operatorWordAt = Set(symbols.operatorWords.map(\.start))
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
        let tree = a.syntax.tree
        let easingNames = symbols.easings.map { tree[$0].nameSpan }
        var out: [(Span, T, Int)] = []
        var last: UInt32 = 0
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
                        if Vocabulary.colorNameSet.contains(a.text(of: t.span)) { return (.enumMember, 4) }
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
        var nextEasing = 0
        for t in tokens {
            comments(upTo: t.span.start)
            while nextEasing < easingNames.count, easingNames[nextEasing].end <= t.span.start, easingNames[nextEasing].end <= last { nextEasing += 1 }
            if nextEasing < easingNames.count, easingNames[nextEasing].contains(t.span) {
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
        comments(upTo: UInt32(bytes.count))
        return out
    }

    /// The LSP encoding: five integers per token, relative to the one before. A token that
    /// spans lines (a string with a line break) is cut at its first line's end.
    static func encode(_ a: DocumentAnalysis, encoding: PositionEncoding) -> [Int] {
        var data: [Int] = []
        var line = 0, char = 0, near = -1
        for (span, t, m) in tokens(a) {
            let r = TextRange(start: a.text.position(ofOffset: a.documentOffset(span.start), encoding: encoding, near: &near),
                              end: a.text.position(ofOffset: a.documentOffset(span.end), encoding: encoding, near: &near))
            let length = r.end.line == r.start.line ? r.end.character - r.start.character
                : a.text.position(ofOffset: a.text.lineEnd(r.start.line), encoding: encoding).character - r.start.character
            guard length > 0 else { continue }
            data += [r.start.line - line, r.start.line == line ? r.start.character - char : r.start.character, length, t.rawValue, m]
            line = r.start.line
            char = r.start.character
        }
        return data
    }
}
