// Completion (`textDocument/completion`) and signature help (`textDocument/signatureHelp`),
// from the text before the cursor and the analysis of the latest version:
// - after `name.` (`card[2].` too): the shape's properties, with their kinds (a text's
//   `glyphs` too, and after `title.glyphs[k].` a glyph's five properties); after
//   `name.prop.` where the property is a point (`center`, `size`, `scale`, `offset`): its
//   components `x` and `y`;
// - after `ease`: every easing, those with parameters as snippets;
// - after `play`: the defines (the script's and the prelude's) as snippets of their parameters;
// - after `after`, `with`, `wait`, `pause`, `resume`, `seek`, `reverse`, `speed`: step names; after
//   `interrupt`: step names and shapes; after `save` and `restore`: shapes;
// - inside `animate …` or `spring …` before its `<`: the options (and a spring's parameters);
// - where a statement or step may start (a line's first word, after `then`, `;` or `<`): the
//   keywords that start one, and shape names (a bare `name.prop = v` is not a statement, but
//   `set` completes to one);
// - anywhere else (an expression): names in scope, functions (as snippets) and colours.
// Signature help: `play NAME(` shows the define's parameters, `f(` a built-in function's,
// with the parameter the cursor is in.
import AnimCore

struct CompletionFeature: LanguageFeature {
    /// The last analysis published for each open document, read without waiting for one
    /// being made.
    let published = PublishedAnalyses()

    func analysisFinished(_ analysis: DocumentAnalysis, output: ServerOutput) { published.keep(analysis) }
    func documentClosed(_ uri: String, output: ServerOutput) { published.forget(uri) }

    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["completionProvider"] = ["triggerCharacters": ["."], "resolveProvider": false]
        capabilities["signatureHelpProvider"] = ["triggerCharacters": ["(", ","]]
    }

    var requests: [String: RequestHandler] {
        let published = published
        return [
            "textDocument/completion": { ctx throws(ResponseError) in
                let source = try CompletionSource.requested(ctx, published: published)
                guard let p = Position(json: ctx.params?["position"]) else {
                    throw .invalidParams("expected params.position with non-negative line and character")
                }
                let offset = source.text.offset(of: p, encoding: ctx.encoding)
                return ["isIncomplete": false, "items": .array(Completion.items(source, at: offset).map(\.json))]
            },
            "textDocument/signatureHelp": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                let offset = try ctx.requestedOffset(in: a)
                return Completion.signatureHelp(a, at: offset) ?? .null
            },
        ]
    }
}

/// LSP CompletionItemKind numbers.
enum CompletionKind: Int {
    case function = 3, field = 5, variable = 6, property = 10, value = 12, keyword = 14, snippet = 15, color = 16, event = 23, constant = 21
}

struct CompletionItem {
    var label: String
    var kind: CompletionKind
    var detail: String?
    var snippet: String?

    var json: JSON {
        var o: [String: JSON] = ["label": .string(label), "kind": .int(kind.rawValue)]
        if let detail { o["detail"] = .string(detail) }
        if let snippet { o["insertText"] = .string(snippet); o["insertTextFormat"] = 2 }
        return .object(o)
    }
}

enum Completion {
    /// The text of the document before `offset`, from the start of its statement's line.
    static func prefix(_ text: DocumentText, _ offset: Int) -> [UInt8] {
        let line = text.line(ofOffset: offset)
        return Array(text.bytes[text.lineStarts[line]..<offset])
    }

    static func isWord(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == UInt8(ascii: "-")
    }

    /// Splits the line before the cursor: the word being typed, and what comes before it.
    static func split(_ p: [UInt8]) -> (before: [UInt8], word: String) {
        var k = p.count
        while k > 0, isWord(p[k - 1]) { k -= 1 }
        return (Array(p[..<k]), String(decoding: p[k...], as: UTF8.self))
    }

    /// The last word of some text (skipping spaces), and what is before it.
    static func lastWord(_ p: [UInt8]) -> String {
        var e = p.count
        while e > 0, p[e - 1] == 0x20 || p[e - 1] == 0x09 { e -= 1 }
        var s = e
        while s > 0, isWord(p[s - 1]) { s -= 1 }
        return String(decoding: p[s..<e], as: UTF8.self)
    }

    /// After `name.prop.` (`card[2].prop.` too), `base` being the text before the last `.`
    /// After `title.glyphs[k].` (`base` the text before the `[`, `member` its last word): a
    /// glyph's properties with their kinds (nil when `member` is not a text's `glyphs`).
    static func glyphProperties(_ a: CompletionSource, base: [UInt8], member: String) -> [CompletionItem]? {
        guard member == "glyphs" else { return nil }
        let before = Array(base.dropLast(member.utf8.count))
        guard before.last == UInt8(ascii: ".") else { return nil }
        let text = lastWord(Array(before.dropLast()))
        guard a.glyphsDetail(text) != nil else { return nil }
        return BuiltinProperty.allCases.filter { $0.applies(to: .glyph) }.map {
            CompletionItem(label: $0.name, kind: .property, detail: $0.kind.description)
        }
    }

    /// and `property` its last word: the components of the property when it is a point, as a
    /// read of `sq.center.x` takes them (nil when the text is not `name.prop` or the property
    /// is not a point).
    static func pointComponents(_ a: CompletionSource, base: [UInt8], property: String) -> [CompletionItem]? {
        var before = Array(base.dropLast(property.utf8.count))
        guard !property.isEmpty, before.last == UInt8(ascii: ".") else { return nil }
        before.removeLast()
        if before.last == UInt8(ascii: "]"), let open = before.lastIndex(of: UInt8(ascii: "[")) { before = Array(before[..<open]) }
        let shape = lastWord(before)
        guard !shape.isEmpty else { return nil }
        let kind: Kind?
        if let env = a.environment, let id = Hover.shapeID(env, shape), let pid = env.propertyID(named: property) {
            kind = env.kind(of: pid, on: id)
        } else {
            kind = BuiltinProperty.named(property)?.kind
        }
        guard kind == .point else { return nil }
        return [CompletionItem(label: "x", kind: .field, detail: "number"), CompletionItem(label: "y", kind: .field, detail: "number")]
    }

    static func items(_ a: CompletionSource, at offset: Int) -> [CompletionItem] {
        let (before, _) = split(prefix(a.text, offset))
        let symbols = a.symbols
        let env = a.environment
        let decls = symbols.declarations
        func named(_ kinds: Set<DeclarationKind>) -> [Declaration] {
            var seen = Set<String>()
            return decls.filter { kinds.contains($0.kind) && seen.insert($0.name).inserted }
        }
        // `name.` or `name[i].`
        if before.last == UInt8(ascii: ".") {
            var base = Array(before.dropLast())
            if base.last == UInt8(ascii: "]"), let open = base.lastIndex(of: UInt8(ascii: "[")) { base = Array(base[..<open]) }
            let name = lastWord(base)
            // `title.glyphs[k].`: a glyph's properties.
            if let glyph = glyphProperties(a, base: base, member: name) { return glyph }
            // `name.prop.`: a point's components, and nothing after any other property (a
            // number, a colour) has no properties.
            if !name.isEmpty, base.dropLast(name.utf8.count).last == UInt8(ascii: ".") {
                return pointComponents(a, base: base, property: name) ?? []
            }
            let kind = decls.last { $0.name == name }
            if case .global(_, .point)? = env?.symbol(named: name) {
                return [CompletionItem(label: "x", kind: .field, detail: "number"), CompletionItem(label: "y", kind: .field, detail: "number")]
            }
            // A name that declares nothing (or is not a shape's, a parameter's or a loop
            // variable's, which may hold one) has no properties.
            if env.flatMap({ Hover.shapeID($0, name) }) == nil,
               kind.map({ $0.shapeKind == nil && ![.shape, .array, .group, .parameter, .loopVariable].contains($0.kind) }) ?? true {
                return []
            }
            var props: [String] = BuiltinProperty.allCases.map(\.name)
            var shapeKind: ShapeKind?
            if let env, let id = Hover.shapeID(env, name) {
                props = env.propertyNames(of: id)
                shapeKind = env.shapes[Int(id.index)].kind
            } else if let d = kind, let k = d.shapeKind {
                props = BuiltinProperty.allCases.filter { $0.applies(to: k) }.map(\.name) + d.properties.map { a.text(of: $0.name) }
                shapeKind = k
            }
            var seenProps = Set<String>()
            props = props.filter { seenProps.insert($0).inserted }
            var items = props.map { p in
                var detail: String?
                if let env, let id = Hover.shapeID(env, name), let pid = env.propertyID(named: p) { detail = env.kind(of: pid, on: id)?.description }
                else if let b = BuiltinProperty.named(p) { detail = b.kind.description }
                return CompletionItem(label: p, kind: .property, detail: detail)
            }
            // A text's glyphs (Grammar.md §4.12), unless a property of its own has that name.
            if shapeKind == .text, !seenProps.contains("glyphs"), let detail = a.glyphsDetail(name) {
                items.append(CompletionItem(label: "glyphs", kind: .field, detail: detail))
            }
            return items
        }
        let previous = lastWord(before)
        switch previous {
        case "ease":
            return Vocabulary.easingSnippets.map { CompletionItem(label: $0.name, kind: .value, detail: "easing", snippet: $0.snippet) }
        case "play":
            var out = named([.define]).map { d in
                let ps = d.parameters.map { decls[$0].name }
                return CompletionItem(label: d.name, kind: .function, detail: "define (\(ps.joined(separator: ", ")))",
                                      snippet: "\(d.name)(\(ps.enumerated().map { "${\($0.offset + 1):\($0.element)}" }.joined(separator: ", ")))")
            }
            let own = Set(out.map(\.label))
            for (name, ps) in Vocabulary.preludeDefines where !own.contains(name) {
                out.append(CompletionItem(label: name, kind: .function, detail: "prelude (\(ps.joined(separator: ", ")))",
                                          snippet: "\(name)(\(ps.enumerated().map { "${\($0.offset + 1):\($0.element)}" }.joined(separator: ", ")))"))
            }
            return out
        case "after", "with", "wait", "pause", "resume", "seek", "reverse", "speed":
            return named([.stepName]).map { CompletionItem(label: $0.name, kind: .event, detail: "step name") }
        case "interrupt":
            // A step, or a shape (or list of shapes) whose tweens stop (Grammar.md §6.13).
            return named([.stepName]).map { CompletionItem(label: $0.name, kind: .event, detail: "step name") }
                + named([.shape, .array, .group]).map { CompletionItem(label: $0.name, kind: .variable, detail: $0.kind.rawValue) }
        case "save", "restore":
            return named([.shape, .array, .group]).map { CompletionItem(label: $0.name, kind: .variable, detail: $0.kind.rawValue) }
        default:
            // The words of a property that takes only some, after its key (`align `, `weight `, `line-cap `).
            if let b = BuiltinProperty.named(previous), let words = b.words {
                return words.map { CompletionItem(label: $0, kind: .value, detail: b.name) }
            }
        }
        // Options of a tween being written: `animate …` / `spring …` with no `<` yet.
        let clause = lastClause(before)
        if clause.hasPrefix("animate ") || clause.hasPrefix("spring ") || clause == "spring" {
            var out = Vocabulary.tweenOptions.map { CompletionItem(label: $0, kind: .keyword, detail: "option") }
            if clause.hasPrefix("spring") {
                // A preset is the word right after `spring`.
                let presets = clause.split(separator: " ").count <= 1 ? Vocabulary.springPresets.map { CompletionItem(label: $0, kind: .keyword, detail: "spring preset") } : []
                out = presets + Vocabulary.springParameters.map { CompletionItem(label: $0, kind: .keyword, detail: "spring parameter") }
                    + out.filter { $0.label == "delay" }
            }
            return out
        }
        // Options of a stagger being written, after its interval and before its `for`
        // (Grammar.md §6.10): the orders after `from`, the axes after `axis`.
        if clause.hasPrefix("stagger "), !clause.contains(" for ") {
            let words = clause.split(separator: " ")
            switch previous {
            case "from": return StaggerOrder.allCases.map { CompletionItem(label: $0.rawValue, kind: .keyword, detail: "stagger order") }
            case "axis": return StaggerAxis.allCases.map { CompletionItem(label: $0.rawValue, kind: .keyword, detail: "stagger axis") }
            case "stagger", "amount", "grid": break
            default:
                if words.count >= 2 || clause.hasSuffix(" ") {
                    return ["from", "ease", "grid", "axis", "for"].map { CompletionItem(label: $0, kind: .keyword, detail: "stagger option") }
                }
            }
        }
        // The first word inside a tween block: what it assigns to.
        if clause.isEmpty, tweenBlockOpens(before) {
            let scopeOffset = a.sourceOffset(offset)
            var seen = Set<String>()
            return decls.reversed().filter { d in
                guard [.shape, .array, .group, .parameter, .loopVariable].contains(d.kind) else { return false }
                if let s = d.scope, !(s.start <= scopeOffset && scopeOffset <= s.end) { return false }
                return seen.insert(d.name).inserted
            }.reversed().map { CompletionItem(label: $0.name, kind: .variable, detail: $0.kind.rawValue) }
        }
        if clause.isEmpty || previous == "then" {
            let starts = Keyword.allCases.filter { $0.startsStep || ($0.startsStatement && clause.isEmpty && !inBlock(before)) }
            // `if`, `any` and `choose` start a step too, though the lexer reads them as words
            // (Grammar.md §6.16, §6.17). The outline shapes declare a shape though they are words
            // (`line l from …`, Grammar.md §3).
            let shapes = clause.isEmpty && !inBlock(before)
                ? ShapeKind.contextualKinds.map { CompletionItem(label: $0.rawValue, kind: .keyword, detail: "statement") } : []
            return starts.map { CompletionItem(label: $0.rawValue, kind: .keyword, detail: $0.startsStep ? "step" : "statement") }
                + ["if", "any", "choose"].map { CompletionItem(label: $0, kind: .keyword, detail: "step") } + shapes
        }
        // An expression.
        let scopeOffset = a.sourceOffset(offset)
        var out: [CompletionItem] = []
        var seen = Set<String>()
        for d in decls.reversed() where d.kind != .define && d.kind != .stepName {
            if let s = d.scope, !(s.start <= scopeOffset && scopeOffset <= s.end) { continue }
            guard seen.insert(d.name).inserted else { continue }
            out.append(CompletionItem(label: d.name, kind: d.kind == .let ? .constant : .variable, detail: d.kind.rawValue))
        }
        out.reverse()
        out += FunctionSignature.all.map { f in
            CompletionItem(label: f.name, kind: .function, detail: f.label,
                           snippet: "\(f.name)(\(f.parameters.filter { $0 != "…" }.enumerated().map { "${\($0.offset + 1):\($0.element)}" }.joined(separator: ", ")))")
        }
        out += Vocabulary.colorNames.filter { !seen.contains($0) }.map { CompletionItem(label: $0, kind: .color, detail: "colour") }
        out += ["true", "false"].map { CompletionItem(label: $0, kind: .keyword, detail: "bool") }
        out += ["pi", "tau"].filter { !seen.contains($0) }.map { CompletionItem(label: $0, kind: .constant, detail: "number") }
        out += ["and", "or", "not"].map { CompletionItem(label: $0, kind: .keyword, detail: "operator") }
        return out
    }

    /// The text of the statement or step being written on this line: after the last `then`,
    /// `;` or unmatched `<`, spaces trimmed.
    static func lastClause(_ before: [UInt8]) -> String {
        var k = before.count
        var depth = 0
        while k > 0 {
            let c = before[k - 1]
            if c == UInt8(ascii: ">") { depth += 1 }
            if c == UInt8(ascii: "<") { if depth == 0 { break }; depth -= 1 }
            if c == UInt8(ascii: ";") && depth == 0 { break }
            k -= 1
        }
        var bytes = Array(before[k...])
        let then = Array(" then ".utf8)
        if bytes.count >= then.count, let at = (0...(bytes.count - then.count)).last(where: { bytes[$0..<($0 + then.count)].elementsEqual(then) }) {
            bytes = Array(bytes[(at + then.count)...])
        }
        var s = String(decoding: bytes, as: UTF8.self)
        s = String(s.drop { $0 == " " || $0 == "\t" })
        if s.hasPrefix("then ") { s = String(s.dropFirst(5)) }
        return s
    }

    /// Whether the unmatched `<` before the cursor on this line opens a tween block (the text
    /// before it is an `animate` or `spring` step).
    static func tweenBlockOpens(_ before: [UInt8]) -> Bool {
        var k = before.count, depth = 0
        while k > 0 {
            let c = before[k - 1]
            if c == UInt8(ascii: ">") { depth += 1 }
            if c == UInt8(ascii: "<") {
                if depth == 0 { break }
                depth -= 1
            }
            k -= 1
        }
        guard k > 0 else { return false }
        let clause = lastClause(Array(before[..<(k - 1)]))
        return clause.hasPrefix("animate ") || clause.hasPrefix("spring")
    }

    /// Whether the line before the cursor is inside an unclosed `<` (or starts indented, as a
    /// line of a block does).
    static func inBlock(_ before: [UInt8]) -> Bool {
        before.first == 0x20 || before.first == 0x09 || before.filter { $0 == UInt8(ascii: "<") }.count > before.filter { $0 == UInt8(ascii: ">") }.count
    }

    // MARK: - Signature help

    static func signatureHelp(_ a: DocumentAnalysis, at offset: Int) -> JSON? {
        let p = prefix(a.text, offset)
        var depth = 0, commas = 0
        var k = p.count
        while k > 0 {
            let c = p[k - 1]
            if c == UInt8(ascii: ")") || c == UInt8(ascii: "]") { depth += 1 }
            if c == UInt8(ascii: "(") || c == UInt8(ascii: "[") {
                if depth == 0 { break }
                depth -= 1
            }
            if c == UInt8(ascii: ","), depth == 0 { commas += 1 }
            k -= 1
        }
        guard k > 0, p[k - 1] == UInt8(ascii: "(") else { return nil }
        let before = Array(p[..<(k - 1)])
        let name = lastWord(before)
        let isPlay = lastWord(Array(before.dropLast(name.utf8.count))) == "play"
        var label: String, params: [String], doc: String
        if isPlay {
            if let d = a.script.symbols.declarations.last(where: { $0.kind == .define && $0.name == name }) {
                params = d.parameters.map { a.script.symbols.declarations[$0].name }
                doc = Hover.declaration(a, a.script.symbols.declarations.lastIndex { $0.kind == .define && $0.name == name }!)
            } else if let d = Vocabulary.preludeDefines.first(where: { $0.name == name }) {
                params = d.parameters
                doc = "from the prelude"
            } else { return nil }
            label = "play \(name)(\(params.joined(separator: ", ")))"
        } else if let f = FunctionSignature.named(name) {
            params = f.parameters
            label = f.label
            doc = f.summary
        } else {
            return nil
        }
        let active = min(commas, max(0, params.count - 1))
        return ["signatures": [["label": .string(label), "documentation": ["kind": "markdown", "value": .string(doc)],
                                "parameters": .array(params.map { ["label": .string($0)] })]],
                "activeSignature": 0, "activeParameter": .int(active)]
    }
}
