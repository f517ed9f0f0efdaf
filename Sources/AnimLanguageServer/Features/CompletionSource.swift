// CompletionSource: what completion reads — the document's text as it is now, its names (the
// SymbolIndex of its parse) and a checked environment (shapes' kinds and properties) — taken
// from what is at hand, so completing never waits for an analysis being made (a timing run of a
// long script takes tens of milliseconds, and a completion is asked on every `.`).
//
// - The names are the current version's: the last published analysis's when it is of this
//   version (its tree, or for a value edit its parse, made once and shared with the semantic
//   tokens), else a parse of the current text.
// - The environment is the last published analysis's timing run's (`DocumentAnalysis.timing`):
//   for a value edit the base analysis's, whose shapes, kinds and properties are the same (a
//   value edit changes one number); for a version still being analysed, the previous one's. A
//   name it does not know (a shape just declared) is completed from its declaration, as when
//   the check failed.
import AnimCore
import Synchronization

struct CompletionSource {
    /// The document's text now.
    let text: DocumentText
    /// The names of this text's parse.
    let symbols: SymbolIndex
    /// This text's tree.
    let tree: SyntaxTree
    /// The last checked environment at hand (nil: none passed the check yet).
    let environment: Environment?

    /// The source offset of a document offset (the source has no byte order mark).
    func sourceOffset(_ documentOffset: Int) -> UInt32 { UInt32(max(0, documentOffset - text.byteOrderMarkLength)) }

    /// The source text of a span.
    func text(of span: Span) -> String { tree.text(span) }

    /// What `name.glyphs` is when `name` is a text: the environment's glyph count, or from its
    /// declaration when the environment has none (nil when it is not a text).
    func glyphsDetail(_ name: String) -> String? {
        guard let env = environment, let id = Hover.shapeID(env, name) else {
            return symbols.declarations.last(where: { $0.name == name && $0.kind == .shape })?.shapeKind == .text ? "list of glyph shapes" : nil
        }
        guard env.shapes[Int(id.index)].kind == .text, let count = env.glyphCounts[id] else { return nil }
        return "list of \(count) glyph shape\(count == 1 ? "" : "s")"
    }

    /// The source of an analysis, made in full (for hovers, which read its timing run anyway).
    init(_ a: DocumentAnalysis) {
        self.init(text: a.text, symbols: a.script.symbols, tree: a.script.tree, environment: a.script.environment)
    }

    init(text: DocumentText, symbols: SymbolIndex, tree: SyntaxTree, environment: Environment?) {
        self.text = text
        self.symbols = symbols
        self.tree = tree
        self.environment = environment
    }

    /// The source for the request's document, from its text and `published`.
    static func requested(_ ctx: RequestContext, published: PublishedAnalyses) throws(ResponseError) -> CompletionSource {
        let uri = try ctx.textDocumentURI()
        guard let document = ctx.document(uri) else { throw .invalidParams("the document \(uri) is not open") }
        let last = published[uri]
        let environment = last?.timing.script.environment
        if let last, last.version == document.version {
            return CompletionSource(text: last.text, symbols: last.syntax.symbols, tree: last.syntax.tree, environment: environment)
        }
        let text = document.text
        // The analysed source's id, so spans compare with the environment's.
        let id = last?.check.file.id ?? SourceID(0)
        let file = SourceFile(id: id, name: DocumentAnalysis.fileName(of: uri), bytes: Array(text.bytes.dropFirst(text.byteOrderMarkLength)))
        let syntax = DocumentSyntax(parsing: file)
        return CompletionSource(text: text, symbols: syntax.symbols, tree: syntax.tree, environment: environment)
    }
}

/// The last analysis published for each open document.
final class PublishedAnalyses: Sendable {
    private let analyses = Mutex<[String: DocumentAnalysis]>([:])

    /// Keeps the analysis of a document's latest version.
    func keep(_ a: DocumentAnalysis) { analyses.withLock { $0[a.uri] = a } }

    /// A document closed.
    func forget(_ uri: String) { analyses.withLock { _ = $0.removeValue(forKey: uri) } }

    subscript(uri: String) -> DocumentAnalysis? { analyses.withLock { $0[uri] } }
}
