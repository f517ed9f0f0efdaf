// Session: the one API the front ends drive. It owns the sources, the checker's Environment,
// the Interpreter and the script clock `now`, and runs a source through every pass:
// lex → parse → check → build graphs → play. `anim run`, `anim check`, `anim test` and the REPL
// (ReplSession) are thin layers over it. Output goes to an injected SessionOutput.

/// Where a session writes.
public protocol SessionOutput: AnyObject {
    /// Writes to standard output (events, traces).
    func standardOutput(_ text: String)
    /// Writes to standard error (diagnostics).
    func standardError(_ text: String)
    /// Receives one diagnostic as it is shown. The default writes it rendered to standard
    /// error; an output that wants the data (the language server) takes it as it is.
    func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer)
}

extension SessionOutput {
    public func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) {
        standardError(renderer.render(diagnostic))
    }
}

/// Output that goes nowhere: for runs where only the work counts (the fuzz targets).
public final class DiscardedOutput: SessionOutput {
    /// Creates an output that drops everything.
    public init() {}
    public func standardOutput(_ text: String) {}
    public func standardError(_ text: String) {}
}

/// Process exit codes (brief §7): 0 success, 1 a script error or failed expectation, 2 usage.
public struct ExitCode: Hashable, Sendable {
    /// The numeric code.
    public var rawValue: Int32
    /// Everything ran and every expectation held.
    public static let success = ExitCode(rawValue: 0)
    /// A script error, a run-time error, or a failed expectation.
    public static let failure = ExitCode(rawValue: 1)
    /// A bad flag or an unreadable file.
    public static let usage = ExitCode(rawValue: 2)
}

/// Settings for a session.
public struct SessionOptions: Sendable {
    /// `--seed`.
    public var seed: UInt64?
    /// `--fps`: frames per second for traces and observers.
    public var fps: Int = 60
    /// `--until`: stop the run at this time.
    public var until: Time?
    /// `--trace`: expressions sampled every frame.
    public var trace: [String] = []
    /// `--json`: events as JSON lines.
    public var json = false
    /// Prefix event lines with their time (`--no-time` turns this off).
    public var showTime = true
    /// Colour diagnostics (stderr is a terminal).
    public var color = false
    /// Show only file base names in diagnostics (golden tests).
    public var baseNamesOnly = false

    /// Default options.
    public init() {}
}

/// A checked statement with its chain built into a sequencer graph (nil for statements
/// without one): what `Session.execute` runs.
public struct BuiltStatement: Sendable {
    /// The checked statement.
    public var statement: CheckedStmt
    /// The graph of its chain or observer body.
    public var graph: SequencerGraph?
}

/// A whole interpreter session: one scene, one clock.
public final class Session: RunEventSink {
    /// The options it was made with (the REPL changes `until` while seeking).
    public internal(set) var options: SessionOptions
    /// Every source seen, for rendering diagnostics.
    public internal(set) var sources = SourceMap()
    /// The checker's symbol table.
    public internal(set) var environment = Environment()
    /// The graphs of the environment's define instantiations, built from their checked bodies
    /// (`GraphBuilder.buildInstantiations`), by index.
    public internal(set) var instantiations: [Instantiation] = []
    /// The runtime.
    public internal(set) var interpreter: Interpreter!
    /// Script time: where the next statement starts.
    public internal(set) var now = Time.zero
    /// Errors reported so far (parse, check and run time).
    public internal(set) var errorCount = 0
    /// Warnings reported so far.
    public internal(set) var warningCount = 0
    /// Whether `--until` cut the script short.
    public internal(set) var stoppedAtLimit = false
    /// When the script finished on its own: its last event, or the last `now` (nil until
    /// `playToEnd`, and when `--until` cut it short). `--until` may carry the clock past it.
    public internal(set) var finishedAt: Time?
    /// When set, prints and expectations are not shown (seeking, timing runs).
    public var silent = false {
        didSet { interpreter.silent = silent }
    }

    /// Where events and diagnostics go (`checkExecuting` holds the run's back while the check
    /// is still going).
    var output: SessionOutput
    var formatter: EventFormatter
    var traces: [(String, TypedExpr)] = []
    /// The next frame that has not run.
    var nextFrame: Int64 = 0
    /// Whether an observer may see a change at the next frame even though nothing moves: events
    /// fired or an observer was declared since the last look. While it is false and nothing
    /// moves, frames without traces or a hook can be skipped up to the next event.
    var framesMaySeeChange = true
    /// `on change` observers.
    var observers: [Observer] = []
    /// When set, prints are collected here (timeline runs, and the REPL for `:timeline`).
    var collectingPrints: [(time: Time, text: String)]?
    /// Whether collected prints are written as well (the REPL) or only collected.
    var writesCollectedPrints = false
    /// When set, `parse` keeps the last tree it made in `keptTree`, errors or not (the
    /// language server's analysis reads it).
    var keepsTree = false
    var keptTree: SyntaxTree?
    /// With `keepsTree`: whether the last check passed (the environment is the script's).
    var keptCheckPassed = false
    /// Whether `check(name:bytes:)` checks and runs at once (`checkExecuting`), when the session
    /// has run nothing yet; off, it checks the whole script before running any of it.
    public var checksAlongside = true
    /// Whether a statement of the session's own (not the prelude's) has been executed.
    var hasExecuted = false
    /// Whether `checkExecuting` ran statements of a script whose check then failed: the run
    /// counts for nothing (no diagnostic, no timing, not stopped).
    var runWasDiscarded = false
    /// Asked now and then while `check(name:bytes:)` checks beside the run (every
    /// `CheckFeed.batch` statements): true gives the whole check up at once — the check, the run
    /// and every diagnostic — for a caller that no longer wants the result (the language
    /// server, when a newer version of the document supersedes the one being analysed).
    var abandons: (@Sendable () -> Bool)?
    /// Whether `abandons` gave the last check up: nothing it found was reported.
    var wasAbandoned = false
    /// When set, `check(name:bytes:)` keeps the statements it ran in `keptStatements` rather
    /// than freeing them (they go with the session: `Session.analyze`'s remains).
    var keepsStatements = false
    var keptStatements: [CheckedStmt] = []
    /// Whether `check` finds the chain of steps that makes the total duration (`anim check`
    /// prints it; the language server's analysis, which shows no report, skips the walk).
    var findsCriticalPath = true
    /// The directory of the last script with image shapes (Session+Images): their files' base.
    var imageDirectory = ""
    /// The font families already looked up (Session+Fonts): each is warned about once.
    var warnedFamilies: Set<String> = []
    /// The image files the checked scripts name, resolved, in order (read or not): what
    /// `anim serve` watches besides the scripts.
    public internal(set) var imageFiles: [String] = []
    /// When set, each top-level `wait` notes here where script time landed (the language
    /// server's hints).
    var waitLandings: [(span: Span, now: Time)]?
    /// Called at every frame (`--fps`) with the frame's time, after observers ran — except the
    /// frames skipped because nothing can change in them (no trace, nothing moves, and the last
    /// frame or look came after the last event).
    public var frameHook: ((Time) -> Void)?

    /// An `on change` observer: the watched property, the graph it starts, the last sample.
    struct Observer {
        var property: TypedExpr
        var graph: SequencerGraph
        var last: Value?
    }

    /// Creates a session writing to `output`.
    public init(options: SessionOptions = SessionOptions(), output: SessionOutput) {
        self.options = options
        self.output = output
        self.formatter = EventFormatter(json: options.json, showTime: options.showTime)
        self.interpreter = Interpreter(sink: self, seed: options.seed)
        loadPrelude()
    }

    /// The prelude parsed and checked against an empty environment, as every session starts:
    /// the same for all sessions, so done once per process (it was half the cost of a session
    /// that runs a short script, which the test suites and the fuzzers make by the thousand).
    struct CheckedPrelude: Sendable {
        var file: SourceFile
        var diagnostics: DiagnosticBag
        var environment: Environment
        var statements: [CheckedStmt]
    }

    static let prelude: CheckedPrelude = {
        var map = SourceMap()
        let file = map.add(name: "<prelude>", text: Prelude.source)
        let parsed = Parser.parseProgram(file)
        var diagnostics = parsed.diagnostics
        let checked = Checker.check(parsed.tree, environment: Environment(), isPrelude: true)
        diagnostics.append(contentsOf: checked.diagnostics)
        var environment = checked.environment
        environment.markDeclaredNamesAsPrelude()
        return CheckedPrelude(file: file, diagnostics: diagnostics, environment: environment, statements: checked.statements)
    }()

    /// Loads the standard prelude: its names may be declared again by scripts.
    func loadPrelude() {
        let prelude = Session.prelude
        sources.add(prelude.file)
        guard !prelude.diagnostics.hasErrors else {
            // A broken prelude is a bug in anim itself; say so rather than run without it.
            report(prelude.diagnostics)
            return
        }
        commit(prelude.environment)
        try? execute(prelude.statements)
        // Its defines are declarations: the session is as new (`checksAlongside`).
        hasExecuted = false
    }

    /// The number of failed expectations.
    public var expectFailures: Int { interpreter.expectFailures }

    /// The exit code the run so far deserves.
    public var exitCode: ExitCode { errorCount > 0 || expectFailures > 0 ? .failure : .success }

    // MARK: - Running a file

    /// Runs a whole script: compile, execute every statement, then play every graph to its end
    /// (or to `--until`). Returns the exit code.
    @discardableResult
    public func run(name: String, bytes: [UInt8]) -> ExitCode {
        let file = sources.add(name: name, bytes: bytes)
        guard var statements = compile(file), prepareTraces() else { return .failure }
        do {
            // The graphs live on in the interpreter; each checked statement goes once it has run.
            try execute(consuming: &statements)
            try playToEnd()
        } catch {
            // Already reported where it was raised.
        }
        return exitCode
    }

    /// Lexes, parses and checks a source; reports diagnostics; nil if there were errors. The
    /// syntax tree goes when the check is done.
    public func compile(_ file: SourceFile) -> [CheckedStmt]? {
        guard let tree = parse(file) else { return nil }
        return check(tree)
    }

    /// Lexes and parses a source; reports diagnostics; nil if there were errors.
    public func parse(_ file: SourceFile) -> SyntaxTree? {
        let parsed = Parser.parseProgram(file)
        if keepsTree { keptTree = parsed.tree }
        if parsed.diagnostics.hasErrors {
            report(parsed.diagnostics)
            return nil
        }
        return parsed.tree
    }

    /// Checks a parsed program against the session's environment, which it updates; reports
    /// diagnostics; nil if there were errors.
    public func check(_ tree: SyntaxTree) -> [CheckedStmt]? {
        let checked = Checker.check(tree, environment: environment)
        report(checked.diagnostics)
        if keepsTree { keptCheckPassed = !checked.diagnostics.hasErrors }
        if checked.diagnostics.hasErrors { return nil }
        checkFonts(checked.fontFamilies)
        guard checkImages(checked.statements, source: tree.file.name) else {
            if keepsTree { keptCheckPassed = false }
            return nil
        }
        commit(checked.environment)
        return checked.statements
    }

    /// Makes `env` the session's environment, and tells the interpreter the property names.
    /// Graphs of instantiations it no longer has (a REPL entry that stopped part way) go.
    func commit(_ env: Environment) {
        environment = env
        interpreter.propertyNames = environment.propertyNames
        if instantiations.count > environment.instantiations.count {
            instantiations.removeSubrange(environment.instantiations.count...)
            interpreter.instantiations = instantiations
        }
    }

    /// Builds and executes checked statements in order at script time `now`. The built
    /// statements are this call's own, so they go through `execute(consuming:)`: the
    /// interpreter gets room for them at once and each graph is handed over, not copied
    /// (`anim check` comes this way: on lsp-5000, Interpreter.start 4.50 → 2.64 M and
    /// beginActivity 2.83 → 2.04 M instructions incl over 3,598 graphs; callgrind).
    public func execute(_ statements: [CheckedStmt]) throws(RuntimeError) {
        var built = build(statements)
        try execute(consuming: &built)
    }

    /// Builds and executes checked statements in order at script time `now`, each graph built
    /// just before its statement runs (the graphs are the ones `build` makes: building reads
    /// nothing a statement changes) and each statement let go once it has run (its graph lives
    /// on in the interpreter), so a run never holds every statement twice. Leaves `statements`
    /// empty.
    func execute(consuming statements: inout [CheckedStmt]) throws(RuntimeError) {
        defer { statements = [] }
        buildInstantiations()
        reserveRoom(for: statements)
        for i in statements.indices {
            if stoppedAtLimit { return }
            var s = CheckedStmt.declaration(.none)
            swap(&s, &statements[i])
            try execute(built(s))
        }
    }

    /// Has the interpreter make room at once for the shapes and graphs `statements` make, and
    /// for what their graphs start (`plays`, `spawns`, `nodes`: `Interpreter.reserve`), when
    /// the caller has the graphs.
    func reserveRoom(for statements: some Sequence<CheckedStmt>, plays: Int = 0, spawns: Int = 0, nodes: Int = 0) {
        var shapes = 0, graphs = 0
        for s in statements {
            switch s {
            case .shapes(let c): shapes += c.count
            case .start: graphs += 1
            case .stage, .bind, .seed, .wait, .observe, .declaration: break
            }
        }
        interpreter.reserve(shapes: shapes, graphs: graphs, plays: plays, spawns: spawns, nodes: nodes)
    }

    /// Has the interpreter make room at once for what built statements make: their shapes and
    /// started graphs as above, and, as their graphs are at hand, the child instances their
    /// `play` and named-chain nodes start (a played define's graph joins the interpreter's
    /// graphs too) and, when activities are logged, about one activity a node. Counting the
    /// nodes reads only their kinds, in place; without it the instances array, sized for the
    /// started graphs alone, was copied once more when the first children came (lsp-5000:
    /// 3,598 started graphs, 450 plays).
    func reserveRoom(for statements: [BuiltStatement]) {
        var plays = 0, spawns = 0, nodes = 0
        for i in statements.indices {  // by index, in place: a statement copied retains its graph
            guard case .start = statements[i].statement, let graphNodes = statements[i].graph?.nodes else { continue }
            nodes += graphNodes.count
            for k in graphNodes.indices {
                switch graphNodes[k].kind {
                case .play: plays += 1
                case .spawn: spawns += 1
                default: break
                }
            }
        }
        reserveRoom(for: statements.lazy.map(\.statement), plays: plays, spawns: spawns, nodes: nodes)
    }

    /// Executes built statements in order at script time `now`.
    public func execute(_ statements: [BuiltStatement]) throws(RuntimeError) {
        for i in statements.indices {  // by index: each statement is read in place, not copied
            if stoppedAtLimit { return }
            try execute(statements[i])
        }
    }

    /// Executes built statements in order at script time `now`, letting each go once it has
    /// run (its graph lives on in the interpreter). Leaves `statements` empty.
    func execute(consuming statements: inout [BuiltStatement]) throws(RuntimeError) {
        defer { statements = [] }
        reserveRoom(for: statements)
        for i in statements.indices {
            if stoppedAtLimit { return }
            var b = BuiltStatement(statement: .declaration(.none), graph: nil)
            swap(&b, &statements[i])
            try execute(consume b)
        }
    }

    /// Executes one statement. It takes the statement so that its graph moves into the
    /// interpreter (or the observer) instead of being copied, which would retain each of the
    /// graph's arrays and release them again when the statement goes.
    func execute(_ built: consuming BuiltStatement) throws(RuntimeError) {
        hasExecuted = true
        try advanceClock(to: now)  // fire everything due at `now` before reading state
        let graph = built.graph.take()
        switch built.statement {
        case .stage(let size, let color, _):
            guard case .point(let p) = try interpreter.evaluate(size) else { return }
            var c: Color?
            if let e = color, case .color(let x) = try interpreter.evaluate(e) { c = x }
            interpreter.setStage(size: p, color: c)
        case .shapes(let creation):
            do { try interpreter.create(creation) } catch { reportRuntime(error); throw error }
        case .bind(let slot, let value, _):
            interpreter.bind(slot: slot, try evaluateTopLevel(value))
        case .seed(let e, _):
            if case .number(let n) = try evaluateTopLevel(e) { interpreter.reseed(n) }
        case .wait(let until, let span):
            try wait(until, span: span)
            waitLandings?.append((span, now))
        case .observe(let property, _, _, _):
            observers.append(Observer(property: property, graph: (consume graph)!, last: nil))
            interpreter.notesReleases = true
            framesMaySeeChange = true
        case .start(_, let at, _, let span):
            var start = now
            if let at {
                guard case .time(let t) = try evaluateTopLevel(at) else { return }
                if t < now {
                    let e = RuntimeError("'at \(t)' is in the past: the script is already at \(now)", at: span,
                                         help: "use 'wait' or 'then' to start steps later")
                    reportRuntime(e); throw e
                }
                start = t
            }
            interpreter.start((consume graph)!, at: start)
        case .declaration:
            break
        }
    }

    func evaluateTopLevel(_ e: TypedExpr) throws(RuntimeError) -> Value {
        do { return try interpreter.evaluate(e) } catch { reportRuntime(error); throw error }
    }

    /// A top-level `wait`.
    func wait(_ until: WaitUntil, span: Span) throws(RuntimeError) {
        switch until {
        case .duration(let e):
            guard case .time(let d) = try evaluateTopLevel(e) else { return }
            if d.ticks < 0 {
                let err = RuntimeError("cannot wait a negative time (\(d))", at: e.span); reportRuntime(err); throw err
            }
            try moveNow(to: now + d)
        case .allFinished:
            try advanceClock(to: now)
            if options.until == nil, let node = interpreter.endlessGraph {
                let err = neverEnds(node, what: "'wait' would wait forever"); reportRuntime(err); throw err
            }
            let last = try reportingEndless { () throws(RuntimeError) in
                try play(until: .exhausted, bound: options.until ?? .max, neverEnds: options.until == nil ? "'wait' would wait forever" : nil).last
            }
            // A graph still runs at the limit: the wait cannot end before it, so the run stops there.
            if let u = options.until, !interpreter.isIdle {
                stoppedAtLimit = true
                try moveNow(to: max(now, u))
                return
            }
            try moveNow(to: max(now, last))
        case .named(let id, let name):
            let played = try reportingEndless { () throws(RuntimeError) in
                try play(until: .stepEnds(id), bound: options.until ?? .max, neverEnds: options.until == nil ? "'wait \(name)' would wait forever" : nil)
            }
            guard played.reached else {
                if options.until != nil, interpreter.nextEventTime != nil { stoppedAtLimit = true; try moveNow(to: options.until!); return }
                let err = RuntimeError("'\(name)' \(interpreter.run(of: id) == nil ? "never started" : "never finished"), so 'wait \(name)' cannot end",
                                       at: span)
                reportRuntime(err); throw err
            }
            try moveNow(to: max(now, interpreter.run(of: id)!.end!))
        }
    }

    /// Moves script time forward, clipped by `--until`.
    func moveNow(to t: Time) throws(RuntimeError) {
        var target = t
        if let u = options.until, t > u { target = u; stoppedAtLimit = true }
        do {
            try advanceClock(to: target)
        } catch {
            // Stopped from outside (Ctrl-C in the REPL): script time stays where the clock did.
            if error.isInterruption { holdAfterInterruption() }
            throw error
        }
        now = max(now, target)
    }

    /// After the clock was interrupted: script time moves up to the clock, and the events still
    /// due there wait (firing them could be the very loop that was interrupted).
    func holdAfterInterruption() {
        now = max(now, interpreter.time)
    }

    /// Runs a play, reporting the error it stops with when the run could never end.
    func reportingEndless<T>(_ reports: Bool = true, _ body: () throws(RuntimeError) -> T) throws(RuntimeError) -> T {
        do { return try body() } catch {
            if error.isEndless && reports { reportRuntime(error) }
            throw error
        }
    }

    func neverEnds(_ node: GraphNode, what: String) -> RuntimeError {
        var e = RuntimeError("\(what): this graph never ends", at: node.span,
                             help: "pass '--until T' to stop the run at time T")
        e.isEndless = true
        return e
    }

    /// Plays every graph to its end, or to `--until`: with `--until T` the run covers 0…T
    /// whatever its last event is (a graph that never ends, or one that ended before T).
    /// Without `--until`, a graph that never ends, or that begins a step that never ends as
    /// it plays (an `if` taking a `repeat forever` branch), is that error; `reportsEndless`
    /// false leaves it unreported (`anim check` says it in its own words).
    public func playToEnd(reportsEndless: Bool = true) throws(RuntimeError) {
        if !stoppedAtLimit {
            // What is due now happens before the run is judged unable to finish.
            try advanceClock(to: now)
            if options.until == nil, let node = interpreter.endlessGraph {
                let err = neverEnds(node, what: "the script cannot finish")
                if reportsEndless { reportRuntime(err) }
                throw err
            }
            let last = try reportingEndless(reportsEndless) { () throws(RuntimeError) in
                try play(until: .exhausted, bound: options.until ?? .max, neverEnds: options.until == nil ? "the script cannot finish" : nil).last
            }
            now = max(now, last)
            if let u = options.until, !interpreter.isIdle || interpreter.isMoving { stoppedAtLimit = true; now = max(now, u) }
            if !stoppedAtLimit { finishedAt = now }
            if let u = options.until { now = max(now, u) }
        }
        // The frames up to the end, the one at the end included.
        try advanceClock(to: now, throughFrameAt: true)
        if let (span, message) = interpreter.unmetWaits.first {
            let err = RuntimeError(message, at: span); reportRuntime(err); throw err
        }
    }

    /// Whether anything samples frames: traces, observers or a frame hook.
    var watchesFrames: Bool { !traces.isEmpty || !observers.isEmpty || frameHook != nil }

    /// Plays the clock to `t`. Every event at or before `t` fires, and right after the events
    /// of an instant where a watched property stopped moving, observers look at it once more
    /// (`observeReleases`), so a statement after a `wait` sees what they did. Each frame before
    /// `t` runs at its time, after everything at its instant; the frame at `t` waits for the
    /// statements still to come at `t` (`throughFrameAt` runs it: the end of the run), so a
    /// frame shows what a picture of that instant shows.
    func advanceClock(to t: Time, throughFrameAt: Bool = false) throws(RuntimeError) {
        guard watchesFrames else { return try interpreter.advance(to: t) }
        while true {
            let ft = frameTime(nextFrame)
            if let e = interpreter.nextEventTime, e <= t, e <= ft {
                // The events of an instant, then the looks where changes ended, before its frame.
                try interpreter.advance(to: e)
                framesMaySeeChange = true
                if !interpreter.releasedKeys.isEmpty { try observeReleases(at: e) }
                continue
            }
            guard ft < t || (throughFrameAt && ft == t) else { break }
            if traces.isEmpty, !framesMaySeeChange, !interpreter.isMoving {
                // Nothing moves and observers saw the state already: no frame up to the next
                // event can show a change (a long `wait` costs nothing).
                let skipTo = firstFrame(atOrAfter: min(t, interpreter.nextEventTime ?? t))
                if skipTo > nextFrame { nextFrame = skipTo; continue }
            }
            try interpreter.advance(to: ft)
            try frame(at: ft)
            nextFrame += 1
        }
        try interpreter.advance(to: t)
    }

    /// One frame: observers whose property changed run their bodies, then traces are sampled.
    func frame(at ft: Time) throws(RuntimeError) {
        // This look sees every change so far, releases included; releases the bodies cause
        // now are seen at the next frame.
        interpreter.releasedKeys.removeAll(keepingCapacity: true)
        framesMaySeeChange = false
        for k in observers.indices { try look(k, at: ft) }
        interpreter.releasedKeys.removeAll(keepingCapacity: true)
        if !traces.isEmpty { emitTrace(at: ft) }
        frameHook?(ft)
    }

    /// The look at an instant where watched properties stopped moving: their observers run if
    /// the value changed since they last looked (releases their bodies cause now are seen at
    /// the next frame).
    func observeReleases(at x: Time) throws(RuntimeError) {
        // A point and its components are released together (either may show the other's change).
        let released = Set(interpreter.releasedKeys.map { PropertyKey($0.shape, $0.property.whole) })
        interpreter.releasedKeys.removeAll(keepingCapacity: true)
        for k in observers.indices {
            guard let key = interpreter.propertyKey(of: observers[k].property), released.contains(PropertyKey(key.shape, key.property.whole)),
                  !interpreter.isMoving(key) else { continue }
            try look(k, at: x)
        }
        interpreter.releasedKeys.removeAll(keepingCapacity: true)
    }

    /// Observer `k` reads its property; if the value changed since its last look, its body
    /// starts as a new graph at `x` (the first look only records the value).
    func look(_ k: Int, at x: Time) throws(RuntimeError) {
        let v = try? interpreter.evaluate(observers[k].property)
        defer { observers[k].last = v }
        guard let v, let last = observers[k].last, last != v else { return }
        interpreter.start(observers[k].graph, at: x)
        try interpreter.advance(to: x)
    }

    /// The frames of `--fps`.
    var frameGrid: FrameGrid { FrameGrid(fps: options.fps) }

    /// The first frame at or after `t`.
    func firstFrame(atOrAfter t: Time) -> Int64 { frameGrid.firstFrame(atOrAfter: t) }

    /// The time of frame `f` at `--fps`.
    func frameTime(_ f: Int64) -> Time { frameGrid.time(ofFrame: f) }

    // MARK: - Traces

    /// Parses and checks the `--trace` expressions against the final environment.
    func prepareTraces() -> Bool {
        traces = []
        var ok = true
        for spec in options.trace {
            let file = sources.add(name: "--trace", text: spec)
            let parsed = Parser.parseExpression(file)
            var diags = parsed.diagnostics
            if let t = parsed.trailing { diags.error(ParseMessage.expectedTraceProperty.message, at: t.span) }
            guard let e = parsed.expression, !diags.hasErrors else { report(diags); ok = false; continue }
            var c = Checker(tree: parsed.tree, environment: environment)
            c.makesGlyphs = false  // no statement runs to make them
            let typed = c.check(e)
            report(c.diagnostics)
            guard let t = typed, !c.diagnostics.hasErrors else { ok = false; continue }
            traces.append((spec, t))
        }
        return ok
    }

    func emitTrace(at t: Time) {
        var values: [(String, Value?)] = []
        for (name, e) in traces {
            values.append((name, try? interpreter.evaluate(e)))
        }
        emit(.trace(time: t, values: values))
    }

    // MARK: - Reporting

    /// Receives the interpreter's events.
    public func emit(_ event: RunEvent) {
        if silent, case .trace = event { return }
        if collectingPrints != nil, case .print(let t, let text) = event {
            collectingPrints!.append((t, text))
            if !writesCollectedPrints { return }
        }
        if let line = formatter.line(for: event, position: position) { output.standardOutput(line) }
        switch event {
        case .expectFailed(_, let d): output.diagnostic(d, renderer: renderer)
        case .runtimeError(_, let d):
            errorCount += 1
            output.diagnostic(d, renderer: renderer)
        case .print, .trace: break
        }
    }

    /// Renders and writes diagnostics to standard error.
    /// Shows the first `maxShownErrors` errors of a bag (and the warnings among them); the
    /// rest are counted and summed up in one line. A binary file given as a script would
    /// otherwise print an error for every stray byte.
    public func report(_ bag: DiagnosticBag) {
        var shownErrors = 0, hidden = 0
        let renderer = renderer
        for d in bag.all {
            if d.severity == .error { errorCount += 1 } else if d.severity == .warning { warningCount += 1 }
            if shownErrors >= Session.maxShownErrors { hidden += 1; continue }
            if d.severity == .error { shownErrors += 1 }
            output.diagnostic(d, renderer: renderer)
        }
        if hidden > 0 {
            output.standardError("anim: \(hidden) more diagnostic\(hidden == 1 ? "" : "s") not shown (the first \(Session.maxShownErrors) errors are above)\n")
        }
    }

    /// The most errors one parse or check shows (as a C compiler's default error limit).
    public static let maxShownErrors = 20

    /// Reports a run-time error raised outside the interpreter's event loop.
    func reportRuntime(_ e: RuntimeError) {
        emit(.runtimeError(time: interpreter.time, diagnostic: e.diagnostic))
    }

    /// The diagnostic renderer for this session's sources.
    public var renderer: DiagnosticRenderer {
        DiagnosticRenderer(sources: sources, color: options.color, baseNamesOnly: options.baseNamesOnly)
    }

    func position(_ span: Span) -> (file: String, line: Int, column: Int)? {
        guard let f = sources[span.source] else { return nil }
        let loc = f.location(of: Int(span.start))
        return (renderer.displayName(f), loc.line, loc.column)
    }
}
