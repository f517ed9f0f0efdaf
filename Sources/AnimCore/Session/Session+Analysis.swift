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
