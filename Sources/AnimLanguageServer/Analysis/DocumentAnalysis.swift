// DocumentAnalysis: what the server knows about one version of one document, made by the core
// (Session.analyze) and read by every feature: the diagnostics `anim check` finds, the syntax
// tree, the names and their uses (SymbolIndex), the checked environment (shapes, kinds,
// defines), and the timing run kept as a Timeline with each step's times (StepTimes) and where
// each top-level `wait` left the clock. Features turn spans into positions here.
import AnimCore
import Synchronization

/// One analyzed version of a document.
public struct DocumentAnalysis: Sendable {
    /// The document's URI.
    public var uri: String
    /// The version analyzed.
    public var version: Int
    /// The text analyzed, with its line table (for converting spans to positions).
    public var text: DocumentText
    /// What the core found: diagnostics, tree, names, environment, timing run.
    public var script: ScriptAnalysis
    /// What checking it found, as `anim check` does.
    public var check: ScriptDiagnostics { script.diagnostics }
    /// The timing run again with every property's history (for a hover's values), made on
    /// first use: a keystroke's analysis does not keep it, as it slows the run.
    public var history: Timeline? { lazyHistory.value }
    let lazyHistory: LazyHistory
    /// The work budget the timing run had.
    public var budget: WorkBudget
    /// Whether the work budget stopped the timing run before the script ended.
    public var stoppedByBudget: Bool { check.stopped }

    /// The document offset of a byte offset into the analyzed source (which has no byte order
    /// mark).
    public func documentOffset(_ sourceOffset: UInt32) -> Int { Int(sourceOffset) + text.byteOrderMarkLength }

    /// Whether a span points into this document (not the prelude, and not nowhere).
    public func isInDocument(_ span: Span) -> Bool { span.source == check.file.id }

    /// The byte offset into the analyzed source of a document offset.
    public func sourceOffset(_ documentOffset: Int) -> UInt32 { UInt32(max(0, documentOffset - text.byteOrderMarkLength)) }

    /// The source text of a span.
    public func text(of span: Span) -> String { script.tree.text(span) }

    /// The range of a span of this document.
    public func range(of span: Span, encoding: PositionEncoding) -> TextRange {
        text.range(ofOffsets: documentOffset(span.start)..<documentOffset(span.end), encoding: encoding)
    }

    /// Analyzes one version of a document. `superseded` says when the version is no longer
    /// wanted: the analysis then stops and returns nil.
    static func make(_ job: Analyzer.Job, budget: WorkBudget, superseded: @escaping () -> Bool) -> DocumentAnalysis? {
        guard job.text.bytes.count <= budget.maxBytes else {
            // As `anim check` refuses to read it: one error, and nothing analyzed.
            var script = Session.analyze(name: fileName(of: job.uri), bytes: [])
            script.diagnostics.diagnostics = [.error("a script may be at most \(budget.maxBytes >> 20) MiB",
                                                     at: .point(script.diagnostics.file.id, 0))]
            return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, script: script, lazyHistory: LazyHistory { nil },
                                    budget: budget)
        }
        var checks = 0
        let script = Session.analyze(name: fileName(of: job.uri), bytes: job.text.bytes) {
            checks += 1
            return checks > budget.checks || superseded()
        }
        if superseded() { return nil }
        let name = fileName(of: job.uri), bytes = job.text.bytes
        let history = LazyHistory {
            var n = 0
            return Session.analyze(name: name, bytes: bytes, history: true) {
                n += 1
                return n > budget.checks
            }.timeline
        }
        return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, script: script, lazyHistory: history, budget: budget)
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

/// A value computed once, on first use, by whichever thread asks first.
final class LazyHistory: Sendable {
    private let state: Mutex<(done: Bool, value: Timeline?)> = Mutex((false, nil))
    private let make: @Sendable () -> Timeline?

    init(_ make: @escaping @Sendable () -> Timeline?) { self.make = make }

    var value: Timeline? {
        state.withLock { s in
            if !s.done { s = (true, make()) }
            return s.value
        }
    }
}
