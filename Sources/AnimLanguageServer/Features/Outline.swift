// Outline: document symbols (`textDocument/documentSymbol`: shapes with their declared
// properties, arrays, groups, lets, defines with their parameters, named steps and `at`
// blocks, nested as the text nests them) and folding ranges (`textDocument/foldingRange`:
// every block and every statement that spans lines, from the syntax tree alone).
import AnimCore

/// The LSP SymbolKind numbers used.
enum SymbolKind: Int {
    case namespace = 3, property = 7, function = 12, variable = 13, constant = 14, array = 18, object = 19, event = 24,
         typeParameter = 26, `struct` = 23
}

struct OutlineFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["documentSymbolProvider"] = true
        capabilities["foldingRangeProvider"] = true
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/documentSymbol": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                return .array(Outline.symbols(a, encoding: ctx.encoding).map { $0.json })
            },
            "textDocument/foldingRange": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                return .array(Outline.foldingRanges(a).map { ["startLine": .int($0.0), "endLine": .int($0.1)] })
            },
        ]
    }
}

enum Outline {
    /// One symbol and its children.
    struct Item {
        var name: String
        var detail: String?
        var kind: SymbolKind
        var span: Span
        var selection: Span
        var children: [Item] = []
        var range: (TextRange, TextRange)? = nil

        var json: JSON {
            var o: [String: JSON] = ["name": .string(name), "kind": .int(kind.rawValue), "range": range!.0.json,
                                     "selectionRange": range!.1.json]
            if let detail { o["detail"] = .string(detail) }
            if !children.isEmpty { o["children"] = .array(children.map(\.json)) }
            return .object(o)
        }
    }

    static func symbols(_ a: DocumentAnalysis, encoding: PositionEncoding) -> [Item] {
        let tree = a.syntax.tree
        var flat: [Item] = []
        for d in a.syntax.symbols.declarations {
            switch d.kind {
            case .shape, .array:
                var item = Item(name: d.name, detail: d.shapeKind.map { d.kind == .array ? "\($0.rawValue) array" : $0.rawValue },
                                kind: d.kind == .array ? .array : .object, span: d.span, selection: d.nameSpan)
                item.children = d.properties.map { p in
                    Item(name: a.text(of: p.name), detail: a.text(of: p.value), kind: .property, span: p.name.merged(with: p.value), selection: p.name)
                }
                flat.append(item)
            case .group: flat.append(Item(name: d.name, detail: "group", kind: .struct, span: d.span, selection: d.nameSpan))
            case .let: flat.append(Item(name: d.name, detail: "let", kind: .constant, span: d.span, selection: d.nameSpan))
            case .define:
                let params = d.parameters.map { a.syntax.symbols.declarations[$0].name }
                var item = Item(name: d.name, detail: "(\(params.joined(separator: ", ")))", kind: .function, span: d.span, selection: d.nameSpan)
                item.children = d.parameters.map { k in
                    let p = a.syntax.symbols.declarations[k]
                    return Item(name: p.name, detail: "parameter", kind: .typeParameter, span: p.nameSpan, selection: p.nameSpan)
                }
                flat.append(item)
            case .stepName: flat.append(Item(name: d.name, detail: "step", kind: .event, span: d.span, selection: d.nameSpan))
            case .parameter, .loopVariable: break
            }
        }
        for s in tree[tree.statements] {
            if case .at(let at) = tree[s] {
                let time = tree.span(at.time)
                flat.append(Item(name: "at \(a.text(of: time))", detail: nil, kind: .namespace, span: at.span, selection: time))
            }
        }
        flat.sort { ($0.span.start, $1.span.end) < ($1.span.start, $0.span.end) }
        // Nest by containment.
        func nest(_ items: inout ArraySlice<Item>, within outer: Span?) -> [Item] {
            var out: [Item] = []
            while var item = items.first, outer.map({ $0.contains(item.span) && $0 != item.span }) ?? true {
                items.removeFirst()
                item.children += nest(&items, within: item.span)
                out.append(item)
            }
            return out
        }
        var rest = flat[...]
        var top: [Item] = []
        while !rest.isEmpty { top += nest(&rest, within: nil) }
        func place(_ item: Item) -> Item {
            var i = item
            i.range = (a.range(of: i.span, encoding: encoding), a.range(of: i.selection, encoding: encoding))
            i.children = i.children.map(place)
            return i
        }
        return top.map(place)
    }

    /// Line ranges to fold: blocks and multi-line statements (each once, outermost first),
    /// read from the syntax tree (the SymbolIndex is not needed, nor built, for them).
    static func foldingRanges(_ a: DocumentAnalysis) -> [(Int, Int)] {
        let tree = a.syntax.tree
        var spans = tree.blockSpans
        for s in tree[tree.statements] { spans.append(tree.span(s)) }
        var seen = Set<[Int]>()
        var out: [(Int, Int)] = []
        for s in spans.sorted(by: { ($0.start, $1.end) < ($1.start, $0.end) }) {
            let first = a.text.line(ofOffset: a.documentOffset(s.start))
            let last = a.text.line(ofOffset: a.documentOffset(s.end))
            guard last > first, seen.insert([first, last]).inserted else { continue }
            out.append((first, last))
        }
        return out
    }
}
