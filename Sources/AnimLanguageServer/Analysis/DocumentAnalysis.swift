// DocumentAnalysis: what the server knows about one version of one document, made by the core
// and read by every feature. Today that is what `anim check` finds (Session.diagnose). The
// features to come read the same value; what each needs from the core, as data with spans:
// - hover, definition, references, rename, document symbols, semantic tokens: the checked
//   program's symbols (shapes, arrays, groups, lets, defines and their parameters, step
//   names, loop variables) with their declaration spans and the span of every use;
// - hover on a shape, completion after `name.`: each shape's kind and declared properties
//   (built-in and custom) with their kinds and initial values;
// - hover on a step, inlay hints: each step's start and end time in the timing run (the
//   interpreter's activities, keyed by the node's span), and where script time lands after
//   each top-level `wait`; for `shape.prop` in a step, its value when the step starts and ends;
// - hover on an easing or spring, signature help: the resolved Easing or spring and its
//   settling time, and each define's parameters and duration;
// - folding, symbols, formatting: the syntax tree with spans, comments included;
// - quick fixes: the replacement of each did-you-mean (Diagnostic.help as data).
import AnimCore

/// One analyzed version of a document.
public struct DocumentAnalysis: Sendable {
    /// The document's URI.
    public var uri: String
    /// The version analyzed.
    public var version: Int
    /// The text analyzed, with its line table (for converting spans to positions).
    public var text: DocumentText
    /// What checking it found, as `anim check` does.
    public var check: ScriptDiagnostics
    /// The work budget the timing run had.
    public var budget: WorkBudget
    /// Whether the work budget stopped the timing run before the script ended.
    public var stoppedByBudget: Bool { check.stopped }

    /// The document offset of a byte offset into the analyzed source (which has no byte order
    /// mark).
    public func documentOffset(_ sourceOffset: UInt32) -> Int { Int(sourceOffset) + text.byteOrderMarkLength }

    /// Whether a span points into this document (not the prelude, and not nowhere).
    public func isInDocument(_ span: Span) -> Bool { span.source == check.file.id }

    /// The range of a span of this document.
    public func range(of span: Span, encoding: PositionEncoding) -> TextRange {
        text.range(ofOffsets: documentOffset(span.start)..<documentOffset(span.end), encoding: encoding)
    }

    /// Analyzes one version of a document. `superseded` says when the version is no longer
    /// wanted: the analysis then stops and returns nil.
    static func make(_ job: Analyzer.Job, budget: WorkBudget, superseded: @escaping () -> Bool) -> DocumentAnalysis? {
        guard job.text.bytes.count <= budget.maxBytes else {
            // As `anim check` refuses to read it: one error, and nothing analyzed.
            var check = Session.diagnose(name: fileName(of: job.uri), bytes: [])
            check.diagnostics = [.error("a script may be at most \(budget.maxBytes >> 20) MiB",
                                        at: .point(check.file.id, 0))]
            return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, check: check, budget: budget)
        }
        var checks = 0
        let check = Session.diagnose(name: fileName(of: job.uri), bytes: job.text.bytes) {
            checks += 1
            return checks > budget.checks || superseded()
        }
        if superseded() { return nil }
        return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, check: check, budget: budget)
    }

    /// The name diagnostics use for a document: the path of a `file:` URI, else the URI.
    static func fileName(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        var path = Substring(uri.dropFirst("file://".count))
        // `file://host/path`: keep the path.
        if !path.hasPrefix("/"), let slash = path.firstIndex(of: "/") { path = path[slash...] }
        return percentDecoded(path)
    }

    /// `%XX` escapes decoded (an escape that does not decode to UTF-8 stays as written).
    static func percentDecoded(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let c = u.first {
            if c == UInt8(ascii: "%"), u.count >= 3, let v = UInt8(String(decoding: u.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                u = u.dropFirst(3)
            } else {
                bytes.append(c)
                u = u.dropFirst()
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(s)
    }
}
