// Inlay hints (`textDocument/inlayHint`): after each step, when it ran in the timing run —
// `⟨1.250s → 2.000s⟩`, `⟨1.250s → …⟩` for a step still running when the run stopped, and
// `×N` for a step that ran N times (the first start and the last end) — and after each
// top-level `wait`, where script time landed: `⟨now 3.000s⟩`. A step that never ran gets none.
//
// Semantic tokens (`textDocument/semanticTokens/full`): keywords, numbers, strings, colours,
// comments, and names by what they are (shapes and groups as variables, lets read-only,
// defines and built-in functions as functions, parameters and loop variables, step names as
// events, properties), from the lexer's tokens and the SymbolIndex.
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
                return .array(InlayHints.hints(a).filter { lo <= $0.offset && $0.offset <= hi }.map { h in
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
    /// Hints as (document offset, label), in order.
    static func hints(_ a: DocumentAnalysis) -> [(offset: Int, label: String)] {
        guard a.script.timeline != nil else { return [] }
        let tree = a.script.tree
        var out: [(Int, String)] = []
        for s in a.script.symbols.steps {
            let span = tree.span(s)
            guard let t = a.script.stepTimes.time(of: span) else { continue }
            out.append((a.documentOffset(span.end), label(t)))
        }
        for s in tree[tree.statements] {
            guard case .wait(let w) = tree[s], let now = a.script.waitLandings[w.span] ?? a.script.waitLandings[tree.span(s)] else { continue }
            out.append((a.documentOffset(tree.span(s).end), "⟨now \(Hover.stamp(now))⟩"))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    static func label(_ t: StepTime) -> String {
        let end = t.end.map(Hover.stamp) ?? "…"
        return "⟨\(Hover.stamp(t.start)) → \(end)\(t.runs > 1 ? ", ×\(t.runs)" : "")⟩"
    }
}

enum SemanticTokens {
    static let types = ["keyword", "number", "string", "comment", "variable", "parameter", "function", "property", "event", "enumMember"]
    static let modifiers = ["declaration", "readonly", "defaultLibrary"]

    enum T: Int { case keyword, number, string, comment, variable, parameter, function, property, event, enumMember }

    /// Tokens as (span, type, modifier bits), in order.
    static func tokens(_ a: DocumentAnalysis) -> [(Span, T, Int)] {
        let file = a.script.tree.file
        let (tokens, _) = Lexer.tokenize(file)
        let symbols = a.script.symbols
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
        let tree = a.script.tree
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
            switch t.kind {
            case .keyword: out.append((t.span, .keyword, 0))
            case .number: out.append((t.span, .number, 0))
            case .string: out.append((t.span, .string, 0))
            case .color: out.append((t.span, .enumMember, 0))
            case .identifier:
                if operatorWordAt.contains(t.span.start) {
                    out.append((t.span, .keyword, 0))
                } else if let d = declAt[t.span.start] {
                    let (ty, m) = type(of: d)
                    out.append((t.span, ty, m | 1))
                } else if let r = refAt[t.span.start] {
                    switch r.role {
                    case .name(let d): let (ty, m) = type(of: symbols.declarations[d]); out.append((t.span, ty, m))
                    case .property: out.append((t.span, .property, 0))
                    case .function: out.append((t.span, .function, 4))
                    case .unresolved:
                        if Vocabulary.colorNameSet.contains(a.text(of: t.span)) { out.append((t.span, .enumMember, 4)) }
                    }
                }
            default: break
            }
        }
        comments(upTo: UInt32(bytes.count))
        return out
    }

    /// The LSP encoding: five integers per token, relative to the one before. A token that
    /// spans lines (a string with a line break) is cut at its first line's end.
    static func encode(_ a: DocumentAnalysis, encoding: PositionEncoding) -> [Int] {
        var data: [Int] = []
        var line = 0, char = 0
        for (span, t, m) in tokens(a) {
            let r = a.range(of: span, encoding: encoding)
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
