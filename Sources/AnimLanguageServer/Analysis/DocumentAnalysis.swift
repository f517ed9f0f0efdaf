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
    /// What the core found: diagnostics, tree, names, environment, timing run. For a version
    /// whose diagnostics came from a value edit (`ValueEdits`), made on the first request that
    /// needs it: publishing the diagnostics needs none of it.
    public var script: ScriptAnalysis { lazyScript.value }
    let lazyScript: LazyValue<ScriptAnalysis>
    /// What checking it found, as `anim check` does.
    public let check: ScriptDiagnostics
    /// This version's syntax tree and names, made on first use: the analysis's own, or for a
    /// version whose diagnostics were reused, the new text's parse alone (never an analysis),
    /// for the features that read only the text's structure (semantic tokens, folding, the
    /// outline).
    public var syntax: DocumentSyntax { lazySyntax.value }
    let lazySyntax: LazyValue<DocumentSyntax>
    /// The full analysis this version's diagnostics reuse and the literals edited since it (nil:
    /// a document too large to analyse).
    let edits: ValueEdits?
    /// Whether the diagnostics came from a value edit, without analysing this version.
    public var reusedDiagnostics: Bool { !lazyScript.isMade }
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
    public func text(of span: Span) -> String { syntax.tree.text(span) }

    /// The analysis whose timing run (step times, wait landings) is this version's, and how the
    /// offsets where its steps end map into this text. For a version whose diagnostics were
    /// reused it is the base's: ValueFlow proves the edited number reaches no duration, delay,
    /// count, speed, condition, read or spring, a trivia edit changes no token and a print-text
    /// edit only what is printed, so every step ran at the same times and every `wait` landed at
    /// the same time; only the spans moved, as the diagnostics' do. For any other version, its own.
    public var timing: (script: ScriptAnalysis, offset: @Sendable (UInt32) -> Int) {
        let bom = text.byteOrderMarkLength
        guard let edits else { return (script, { Int($0) + bom }) }
        // A reused version has no byte order mark (`reusing`), and a full one no edits yet.
        return (edits.base.analysis, { Int(edits.currentEnd($0)) + bom })
    }

    /// The range of a span of this document.
    public func range(of span: Span, encoding: PositionEncoding) -> TextRange {
        text.range(ofOffsets: documentOffset(span.start)..<documentOffset(span.end), encoding: encoding)
    }

    /// Analyzes one version of a document. `superseded` says when the version is no longer
    /// wanted: the analysis then stops (its check too: `Session.diagnose`'s `abandons`) and
    /// returns nil. `remains` receives what the analysis's
    /// session leaves, for the caller to free once the diagnostics are out (`Session.analyze`).
    static func make(_ job: Analyzer.Job, budget: WorkBudget, remains: ((SessionRemains) -> Void)? = nil,
                     superseded: @escaping @Sendable () -> Bool) -> DocumentAnalysis? {
        guard job.text.bytes.count <= budget.maxBytes else {
            // As `anim check` refuses to read it: one error, and nothing analyzed.
            var script = Session.analyze(name: fileName(of: job.uri), bytes: [])
            script.diagnostics.diagnostics = [.error("a script may be at most \(budget.maxBytes >> 20) MiB",
                                                     at: .point(script.diagnostics.file.id, 0))]
            return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, lazyScript: LazyValue(made: script),
                                    check: script.diagnostics, lazySyntax: LazyValue(made: DocumentSyntax(script)), edits: nil,
                                    lazyHistory: LazyHistory { nil }, budget: budget)
        }
        var checks = 0
        let script = Session.analyze(name: fileName(of: job.uri), bytes: job.text.bytes, shouldStop: {
            checks += 1
            return checks > budget.checks || superseded()
        }, abandons: superseded, remains: remains)
        if script.diagnostics.abandoned || superseded() { return nil }
        return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, lazyScript: LazyValue(made: script),
                                check: script.diagnostics, lazySyntax: LazyValue(made: DocumentSyntax(script)), edits: ValueEdits(base: script),
                                lazyHistory: history(job, budget: budget), budget: budget)
    }

    /// The next version of a document when the change from `previous` only changes a value, only
    /// trivia or only the text a `print` prints (`ValueEdits.reuse`): the same diagnostics,
    /// placed in the new text, and the rest of the analysis made when a request asks for it. Nil
    /// for any other change.
    static func reusing(_ previous: DocumentAnalysis, for job: Analyzer.Job, budget: WorkBudget) -> DocumentAnalysis? {
        guard let edits = previous.edits, previous.budget == budget, previous.text.byteOrderMarkLength == 0,
              job.text.byteOrderMarkLength == 0, job.text.bytes.count <= budget.maxBytes,
              let (next, diagnostics) = edits.reuse(old: previous.text.bytes, new: job.text.bytes) else { return nil }
        let name = fileName(of: job.uri), bytes = job.text.bytes
        let script = LazyValue<ScriptAnalysis> {
            var checks = 0
            return Session.analyze(name: name, bytes: bytes) {
                checks += 1
                return checks > budget.checks
            }
        }
        // The structure of the new text is its parse's: the same tree as the base's with its
        // spans moved (a literal or a string longer or shorter), but parsing it is cheap and
        // needs no proof.
        let file = diagnostics.file
        let syntax = LazyValue<DocumentSyntax> { script.isMade ? DocumentSyntax(script.value) : DocumentSyntax(parsing: file) }
        return DocumentAnalysis(uri: job.uri, version: job.version, text: job.text, lazyScript: script, check: diagnostics,
                                lazySyntax: syntax, edits: next, lazyHistory: history(job, budget: budget), budget: budget)
    }

    /// The timing run with every property's history, made on first use.
    static func history(_ job: Analyzer.Job, budget: WorkBudget) -> LazyHistory {
        let name = fileName(of: job.uri), bytes = job.text.bytes
        return LazyHistory {
            var n = 0
            return Session.analyze(name: name, bytes: bytes, history: true) {
                n += 1
                return n > budget.checks
            }.timeline
        }
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

/// A document version's syntax tree and the names in it (indexed on first use).
public struct DocumentSyntax: Sendable {
    /// The parsed tree (with the parser's recovery when there were syntax errors).
    public let tree: SyntaxTree
    let lazySymbols: LazyValue<SymbolIndex>
    /// The names and their uses.
    public var symbols: SymbolIndex { lazySymbols.value }
    /// Whether `symbols` has been built.
    var symbolsAreBuilt: Bool { lazySymbols.isMade }

    /// An analysis's tree and names (shared with it).
    init(_ script: ScriptAnalysis) {
        tree = script.tree
        lazySymbols = LazyValue { script.symbols }
    }

    /// The tree of a parse of `file` alone.
    init(parsing file: SourceFile) {
        let tree = Parser.parseProgram(file).tree
        self.tree = tree
        lazySymbols = LazyValue { SymbolIndex(tree) }
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

/// A value made on first use, once, by whichever thread asks first (or made already).
final class LazyValue<Value: Sendable>: Sendable {
    private let state: Mutex<Value?>
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        state = Mutex(nil)
        self.make = make
    }

    /// A value made already.
    init(made value: Value) {
        state = Mutex(value)
        make = { value }
    }

    /// Whether the value has been made.
    var isMade: Bool { state.withLock { $0 != nil } }

    var value: Value {
        state.withLock { s in
            if let v = s { return v }
            let v = make()
            s = v
            return v
        }
    }
}
