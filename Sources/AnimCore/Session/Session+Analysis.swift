// Session+Analysis: what `anim check` finds, as data rather than text, for a front end that
// shows diagnostics itself (the language server). It is `check(name:bytes:)` itself, run with an
// output that keeps each diagnostic instead of rendering it, so the two can never disagree:
// the same diagnostics, in the same order, with the same limit on how many are shown.
import Synchronization

/// What checking one script found.
public struct ScriptDiagnostics: Sendable {
    /// The script as the passes read it (a leading byte order mark removed): spans with its
    /// `id` point into its `bytes`.
    public var file: SourceFile
    /// Every source a span may point into (the prelude's too).
    public var sources: SourceMap
    /// The diagnostics `anim check` shows, in its order.
    public var diagnostics: [Diagnostic]
    /// How many more were found past `Session.maxShownErrors` and not shown, as `anim check`
    /// counts them in its last line.
    public var notShown: Int
    /// Whether `shouldStop` stopped the timing run before the script ended: the parse and
    /// check diagnostics are complete, run-time ones past that point are missing.
    public var stopped: Bool
    /// The check's outcome: exit code, total duration, or the graph that never ends.
    public var report: CheckReport
}

extension Session {
    /// Checks a script as `anim check` does and returns its diagnostics as data. `shouldStop`
    /// is the interpreter's (`Interpreter.shouldStop`): asked now and then while the timing run
    /// plays, true stops it, so a script that runs a year of millisecond events costs only the
    /// budget the caller gives it.
    public static func diagnose(name: String, bytes: [UInt8], options: SessionOptions = SessionOptions(),
                                shouldStop: (() -> Bool)? = nil) -> ScriptDiagnostics {
        diagnose(name: name, bytes: bytes, options: options, shouldStop: shouldStop, prepare: { _ in })
    }

    /// `diagnose`, with a session `prepare` sets up before the check.
    static func diagnose(name: String, bytes: [UInt8], options: SessionOptions, shouldStop: (() -> Bool)?,
                         prepare: (Session) -> Void) -> ScriptDiagnostics {
        let kept = KeptDiagnostics()
        let session = Session(options: options, output: kept)
        prepare(session)
        var stopped = false
        if let shouldStop {
            session.interpreter.shouldStop = {
                if shouldStop() { stopped = true }
                return stopped
            }
        }
        let report = session.check(name: name, bytes: bytes)
        // check added the script last, after the prelude.
        var id: SourceID = 0
        while session.sources[id + 1] != nil { id += 1 }
        let file = session.sources[id]!
        let counted = session.errorCount + session.warningCount
        let shown = kept.diagnostics.filter { $0.severity != .note }.count
        return ScriptDiagnostics(file: file, sources: session.sources, diagnostics: kept.diagnostics,
                                 notShown: max(0, counted - shown), stopped: stopped, report: report)
    }
}

/// A value made on first use, once, by whichever thread asks first.
final class Lazy<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    /// Whether the value has been made (for tests that check what a request computed).
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

/// An output that keeps diagnostics as data and drops everything else (a check prints nothing
/// else but the count of diagnostics not shown, which `diagnose` computes).
final class KeptDiagnostics: SessionOutput {
    var diagnostics: [Diagnostic] = []
    func standardOutput(_ text: String) {}
    func standardError(_ text: String) {}
    func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) { diagnostics.append(diagnostic) }
}

/// What an editor needs to know about one script: its diagnostics, as `anim check` finds them,
/// and the parsed tree, the names, the checked environment and the timing run behind them.
public struct ScriptAnalysis: Sendable {
    /// The diagnostics, exactly `diagnose`'s.
    public var diagnostics: ScriptDiagnostics
    /// The parsed tree (with the parser's recovery when there were syntax errors).
    public var tree: SyntaxTree
    /// The script's names and their uses (indexed on first use).
    public var symbols: SymbolIndex { lazySymbols.value }
    let lazySymbols: Lazy<SymbolIndex>
    /// Whether `symbols` has been built (it is built on the first request that needs it).
    public var symbolsAreBuilt: Bool { lazySymbols.isMade }
    /// The checker's environment, when the check passed (shapes, kinds, defines).
    public var environment: Environment?
    /// The timing run as data, when the check passed and the run got going: its graphs and
    /// activities, and the properties' history when `analyze` was asked to keep it.
    public var timeline: Timeline?
    /// When each step ran in the timing run (read from the timeline on first use).
    public var stepTimes: StepTimes { lazyStepTimes.value }
    let lazyStepTimes: Lazy<StepTimes>
    /// Where script time landed after each top-level `wait`, by the wait's span.
    public var waitLandings: [Span: Time]
}

extension Session {
    /// Analyzes a script for an editor: `diagnose`'s diagnostics, plus the tree, the names and
    /// a timing run kept as a timeline (the same run `anim check` makes; with `history`, every
    /// property's values are kept too, which makes the run slower). `shouldStop` bounds the run
    /// as for `diagnose`.
    public static func analyze(name: String, bytes: [UInt8], options: SessionOptions = SessionOptions(), history: Bool = false,
                               shouldStop: (() -> Bool)? = nil) -> ScriptAnalysis {
        var session: Session?
        let diagnostics = diagnose(name: name, bytes: bytes, options: options, shouldStop: shouldStop) { s in
            s.keepsTree = true
            s.waitLandings = []
            // No report is shown: the walk for the critical path is work no diagnostic needs.
            s.findsCriticalPath = false
            if history { s.interpreter.recordHistory() }
            session = s
        }
        let s = session!
        let tree = s.keptTree ?? Parser.parseProgram(diagnostics.file).tree
        let checked = s.keptCheckPassed
        var timeline: Timeline?
        if checked { timeline = s.currentTimeline() }
        var landings: [Span: Time] = [:]
        for w in s.waitLandings ?? [] { landings[w.span] = w.now }
        // The names and the times wait for a request: diagnostics need neither.
        return ScriptAnalysis(diagnostics: diagnostics, tree: tree, lazySymbols: Lazy { SymbolIndex(tree) },
                              environment: checked ? s.environment : nil, timeline: timeline,
                              lazyStepTimes: Lazy { [timeline] in timeline.map(StepTimes.init) ?? StepTimes() }, waitLandings: landings)
    }
}

extension Vocabulary {
    /// The prelude's defines and their parameters, in its order (a script may play them
    /// whether or not it checks).
    public static var preludeDefines: [(name: String, parameters: [String])] {
        let env = Session.prelude.environment
        return env.defines.values.sorted { $0.span.start < $1.span.start }.map { d in (d.name, d.parameters.map { env.names[$0] }) }
    }
}

// MARK: - Value edits

/// A full analysis to reuse for edits that change only values: the number written alone as a
/// top-level `let`'s value (`let gap = 12` → `125`), when `ValueFlow` finds that the value only
/// ever reaches properties written and never read back. The parse is then the same tree with
/// the literal longer or shorter (a number's digits and its point are one token, whatever they
/// are), the check the same (a `let` is a slot of its kind, never folded into its uses), and the
/// timing run the same events at the same times with other values in some tracks: every
/// diagnostic is the same, at the same place in the text (shifted past the literal).
public final class ValueEditBase: Sendable {
    /// The analysis reused.
    public let analysis: ScriptAnalysis
    /// `ValueFlow.amplification` of each `let` asked about, by statement.
    private let verdicts = Mutex<[Int32: Double?]>([:])

    /// A base for edits of the text `analysis` analysed.
    public init(_ analysis: ScriptAnalysis) { self.analysis = analysis }

    /// Whether edits can reuse it at all: it checked, and its timing run went to the end.
    var isReusable: Bool { analysis.environment != nil && !analysis.diagnostics.stopped }

    func amplification(ofLet stmt: StmtID) -> Double? {
        if let v = verdicts.withLock({ $0[stmt.raw] }) { return v }
        let v = ValueFlow.amplification(ofLet: stmt, in: analysis.tree)
        verdicts.withLock { $0[stmt.raw] = v }
        return v
    }
}

/// A base analysis and the literals edited since: how its spans map into the text of now.
public struct ValueEdits: Sendable {
    /// The analysis whose diagnostics are reused.
    public let base: ValueEditBase
    /// The literals edited, by their span in the base text, in order: their length now.
    private(set) var literals: [(start: UInt32, end: UInt32, length: UInt32)] = []

    /// The largest magnitude a written value may reach: far from overflow in every
    /// interpolation and sum the runtime makes of it.
    static let maxMagnitude = 1e200
    /// The most digits a literal may have (exact as a Double, within DecimalLiteral's range).
    static let maxDigits = 15

    /// No edits yet.
    public init(base: ScriptAnalysis) { self.base = ValueEditBase(base) }

    /// The offset in today's text of a base offset (an offset at a literal's end is after it).
    public func current(_ offset: UInt32) -> UInt32 {
        var o = Int64(offset)
        for l in literals where l.end <= offset { o += Int64(l.length) - Int64(l.end - l.start) }
        return UInt32(o)
    }

    /// The base offset of an offset of today's text outside the edited literals' insides.
    func baseOffset(_ offset: UInt32) -> UInt32 {
        var o = Int64(offset)
        for l in literals {
            let start = Int64(current(l.start))
            guard start + Int64(l.length) <= Int64(offset) else { break }
            o -= Int64(l.length) - Int64(l.end - l.start)
        }
        return UInt32(o)
    }

    func current(_ span: Span) -> Span {
        guard span.source == base.analysis.diagnostics.file.id else { return span }
        return Span(source: span.source, start: current(span.start), end: current(span.end))
    }

    /// The diagnostics of `new`, when it is `old` (the text of these edits) with the digits of
    /// one number changed, a number that is the whole value of a `let` whose value is pure
    /// (ValueFlow), and still a plain number that cannot overflow on its way: exactly those a
    /// full analysis of `new` finds. Nil for any other edit (analyse it in full).
    public func edit(old: [UInt8], new: [UInt8]) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        guard base.isReusable, old != new else { return nil }
        // The bytes that differ.
        var p = 0
        let shortest = min(old.count, new.count)
        old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in while p < shortest && o[p] == n[p] { p += 1 } } }
        var s = 0
        old.withUnsafeBufferPointer { o in
            new.withUnsafeBufferPointer { n in while s < shortest - p && o[o.count - 1 - s] == n[n.count - 1 - s] { s += 1 } }
        }
        func isNumberByte(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || c == 0x2E }
        guard old[p..<(old.count - s)].allSatisfy(isNumberByte), new[p..<(new.count - s)].allSatisfy(isNumberByte) else { return nil }
        // The run of digits and points around them, in both texts.
        var a = p
        while a > 0 && isNumberByte(old[a - 1]) { a -= 1 }
        var oldEnd = old.count - s, newEnd = new.count - s
        while oldEnd < old.count && isNumberByte(old[oldEnd]) { oldEnd += 1; newEnd += 1 }
        guard let value = ValueEdits.plainDecimal(new[a..<newEnd]), ValueEdits.plainDecimal(old[a..<oldEnd]) != nil else { return nil }
        // It must be the digits of a top-level `let`'s number, in the base tree.
        let tree = base.analysis.tree
        let baseStart = baseOffset(UInt32(a))
        let statements = tree[tree.statements]
        var lo = 0, hi = statements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tree.span(statements[mid]).end <= baseStart { lo = mid + 1 } else { hi = mid }
        }
        guard lo < statements.count, case .let(let l) = tree[statements[lo]], case .number(let n) = tree[l.value],
              n.span.start == baseStart else { return nil }
        let existing = literals.firstIndex { $0.start == n.span.start }
        let length = existing.map { literals[$0].length } ?? (n.span.end - n.span.start)
        let suffix = UInt32(n.unit.suffixLength)
        guard current(n.span.start) == UInt32(a), length - suffix == UInt32(oldEnd - a) else { return nil }
        guard let k = base.amplification(ofLet: statements[lo]), k * max(1, abs(value)) <= ValueEdits.maxMagnitude else { return nil }
        var next = self
        let newLength = UInt32(newEnd - a) + suffix
        if let i = existing { next.literals[i].length = newLength } else {
            next.literals.append((n.span.start, n.span.end, newLength))
            next.literals.sort { $0.start < $1.start }
        }
        return (next, next.diagnostics(for: new))
    }

    /// The base's diagnostics, placed in `bytes` (the text of these edits).
    func diagnostics(for bytes: [UInt8]) -> ScriptDiagnostics {
        var d = base.analysis.diagnostics
        let file = SourceFile(id: d.file.id, name: d.file.name, bytes: bytes)
        var sources = SourceMap()
        for id in 0..<file.id { sources.add(d.sources[id]!) }
        sources.add(file)
        d.file = file
        d.sources = sources
        d.diagnostics = d.diagnostics.map { x in
            var x = x
            x.span = current(x.span)
            x.secondary = x.secondary.map { Diagnostic.Label(span: current($0.span), text: $0.text) }
            return x
        }
        d.report.endless = d.report.endless.map(current)
        return d
    }

    /// The value of digits with at most one point between digits (`12`, `0.55`), at most
    /// `maxDigits` of them; nil for anything else.
    static func plainDecimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        let points = bytes.filter { $0 == 0x2E }.count
        guard let first = bytes.first, let last = bytes.last, first != 0x2E, last != 0x2E, points <= 1, bytes.count - points <= maxDigits
        else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
