// ReplSession: the REPL's logic, without a terminal. It gathers lines until an entry is
// complete — as the file parser decides: an open block or bracket, a trailing `then` or a
// `define ... =` asks for more — runs entries in a Session, lets the clock run after each one
// (`:auto`), and carries out `:` commands, among them `:seek` in either direction by
// deterministic replay of the entry log. The front end only reads lines and prints.
//
// Text handed to `handle(line:)` may hold several lines (a paste, or lines typed ahead). Up to
// a `:` command they are one entry and run as their file would: checked as a whole, numbered
// from their first line, and the clock runs once, after all of them. An entry that starts
// with `then` starts when the previous entry's last statement has finished.

/// The interactive session behind `anim repl`.
public final class ReplSession {
    /// The session entries run in (replaced by `:reset` and by `:seek`).
    public internal(set) var session: Session
    /// Where everything is written: the front end's output, muted while replaying.
    let relay: RelayOutput
    let baseOptions: SessionOptions
    /// Reads a file for `:load` (the front end does the I/O).
    let readFile: (String) -> Result<[UInt8], UsageError>
    /// The lines of the entry being typed.
    var buffer: [String] = []
    /// Whether the clock runs after each entry.
    public internal(set) var auto = true
    /// How far the clock runs after an entry while a graph that never ends is running (`:until`).
    public internal(set) var runLimit = ReplSession.defaultRunLimit
    /// Every entry that ran, in order, with its script time: `:seek` replays them.
    var log: [Entry] = []
    /// How many entries of `log` the current session has run. Fewer than `log.count` after a
    /// seek back: the rest are the future, replayed by a seek forward and dropped by a new entry.
    var executed = 0
    /// The entry a seek back stopped in the middle of (a `wait` inside it crossed the target).
    var cut: (index: Int, time: Time)?
    /// The graphs the last statement of the last entry started (indices into the interpreter's
    /// instances), which a line starting with `then` follows.
    var lastEntryGraphs: Range<Int> = 0..<0
    /// Entries ran since the clock last ran.
    var clockPending = false
    /// The script time before the first of those entries.
    var pendingSince = Time.zero
    /// Asked between clock events; true stops the clock where it is (Ctrl-C in the front end).
    public var interruptRequested: () -> Bool = { false }
    /// Set once `interruptRequested` said yes during the current input: the rest of the input
    /// is dropped and the clock is left where it stopped.
    var interruptedInput = false

    /// The default of `:until`.
    public static let defaultRunLimit = Time(seconds: 10)

    /// One entry of the log.
    struct Entry {
        enum Kind { case statements, expression }
        var kind: Kind
        /// The source name (`<repl>` or the file of `:load`).
        var name: String
        var text: String
        /// The script time it started at.
        var time: Time
        /// The script time when its statements were done (a `wait` in it moves time).
        var end: Time
        /// Set when a seek back cut it short and new entries went on from there.
        var cutAt: Time?
    }

    /// What happened to a line.
    public enum Outcome: Equatable, Sendable {
        /// The entry (or command) ran.
        case ok
        /// It reported an error; the session goes on.
        case failed
        /// The entry is not complete yet: the next line continues it.
        case incomplete
        /// `:quit`.
        case quit
    }

    /// Creates a REPL writing to `output`.
    public init(options: SessionOptions = SessionOptions(), output: SessionOutput,
                readFile: @escaping (String) -> Result<[UInt8], UsageError> = { _ in .failure(UsageError("cannot read files here")) }) {
        self.baseOptions = options
        self.relay = RelayOutput(output)
        self.readFile = readFile
        self.session = ReplSession.makeSession(options, relay)
        watchForInterrupts(session)
    }

    /// The terminal's width, for `:timeline` (the front end sets it).
    public var terminalWidth = 80

    /// A session that keeps the history of the run and the messages printed, so `:timeline`
    /// can draw them.
    static func makeSession(_ options: SessionOptions, _ output: SessionOutput) -> Session {
        let s = Session(options: options, output: output)
        s.interpreter.recordHistory()
        s.keepPrints()
        return s
    }

    func makeSession(_ options: SessionOptions) -> Session {
        let s = ReplSession.makeSession(options, relay)
        watchForInterrupts(s)
        return s
    }

    /// Lets Ctrl-C stop a session's clock between any two events, not only between the instants
    /// the REPL plays one by one: a `wait` in an entry, or one instant with many events.
    func watchForInterrupts(_ s: Session) {
        s.interpreter.shouldStop = { [unowned self] in self.checkInterrupt() }
    }

    /// Asks the front end whether Ctrl-C was pressed, and remembers a yes for this input.
    func checkInterrupt() -> Bool {
        guard interruptRequested() else { return false }
        interruptedInput = true
        return true
    }

    /// `anim> `, or `...> ` while an entry continues.
    public var prompt: String { buffer.isEmpty ? "anim> " : "...> " }

    /// Whether an entry is half typed.
    public var isContinuing: Bool { !buffer.isEmpty }

    /// Drops a half-typed entry (Ctrl-C).
    public func cancelInput() { buffer = [] }

    // MARK: - Lines and entries

    /// Handles input: one line, or several separated by newlines (a paste, or lines typed
    /// ahead). Lines are gathered into an entry until the parser says it is complete (see
    /// `isComplete`); the lines of one input up to a `:` command make one entry, run as its
    /// file would be, with the file's line numbers. The clock runs once, after all of it.
    @discardableResult
    public func handle(line text: String) -> Outcome {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { l in
            l.last == "\r" ? String(l.dropLast()) : String(l)
        }
        var failed = false
        interruptedInput = false
        for line in lines {
            // A `:` line is a command unless it falls inside an entry left open.
            if line.trimmingSpaces.hasPrefix(":"), buffer.isEmpty || ReplSession.isComplete(pendingEntry.text) {
                if !buffer.isEmpty && runPendingEntry() == .failed { failed = true }
                // Commands see the world as typed entries leave it: with the clock run.
                if !interruptedInput && settleClock() == .failed { failed = true }
                if interruptedInput { return dropInterruptedInput() }
                switch command(line.trimmingSpaces) {
                case .quit: return .quit
                case .failed: failed = true
                case .ok, .incomplete: break
                }
                if interruptedInput { return dropInterruptedInput() }
                continue
            }
            buffer.append(line)
        }
        if !buffer.isEmpty {
            guard ReplSession.isComplete(pendingEntry.text) else { return .incomplete }
            if runPendingEntry() == .failed { failed = true }
            if interruptedInput { return dropInterruptedInput() }
        }
        if settleClock() == .failed { failed = true }
        return failed ? .failed : .ok
    }

    /// Ctrl-C during a run drops the rest of the input, and the clock stays put.
    func dropInterruptedInput() -> Outcome {
        buffer = []
        clockPending = false
        return .failed
    }

    /// The entry being gathered, with a leading `then` blanked out (so columns stay), and
    /// whether it had one: it then starts when the previous entry has finished. With no graph
    /// to follow (the last statement was a declaration, or nothing ran yet) the `then` stays,
    /// and is the error it is in a file.
    var pendingEntry: (text: String, follows: Bool) {
        let text = buffer.joined(separator: "\n")
        if !lastEntryGraphs.isEmpty, let rest = ReplSession.blankingLeadingThen(text) { return (rest, true) }
        return (text, false)
    }

    /// Runs the entry gathered in `buffer` (complete) and empties it. Blank lines alone are
    /// no entry.
    func runPendingEntry() -> Outcome {
        let (text, follows) = pendingEntry
        buffer = []
        guard text.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" && $0 != "\n" }) else { return .ok }
        let failuresBefore = failureCount
        if follows {
            guard followPreviousEntry() else { return .failed }
        }
        let o = run(entry: text, name: "<repl>")
        return failureCount > failuresBefore ? .failed : o
    }

    /// Errors and failed expectations reported so far in the current session.
    var failureCount: Int { session.errorCount + session.expectFailures }

    /// Whether an entry can run, or is incomplete and the next line continues it. The parser
    /// that reads files decides (`Parser.parseProgram`): an entry is incomplete when, read as
    /// a file that ends after its last line, it stops with an error at the end of the input —
    /// an open block or bracket, a trailing `then`, a `define` whose body is still to come.
    /// Any other error is reported when the entry runs.
    public static func isComplete(_ text: String) -> Bool {
        !Parser.parseProgram(SourceFile(id: .max, name: "<repl>", text: text + "\n")).endedEarly
    }

    /// The entry with its leading `then` replaced by spaces, or nil if it does not start with
    /// one.
    static func blankingLeadingThen(_ text: String) -> String? {
        let file = SourceFile(id: .max, name: "<repl>", text: text)
        guard let first = Lexer.tokenize(file).tokens.first(where: { $0.kind != .newline }), first.is(.then) else { return nil }
        var bytes = file.bytes
        for i in Int(first.span.start)..<Int(first.span.end) { bytes[i] = 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs a complete entry: a bare expression prints its value; statements run at `now`.
    /// The clock runs later, once the input is used up (`settleClock`).
    func run(entry: String, name: String) -> Outcome {
        if let outcome = evaluateExpression(entry) { return outcome }
        let failuresBefore = failureCount
        let file = session.sources.add(name: name, text: entry)
        let start = session.now
        var failed = false, interrupted = false
        // The graphs of the entry's last statement: a line starting with `then` follows them,
        // as a line starting with `then` in a file continues the chain before it.
        var lastStatementGraphs = session.interpreter.instances.count
        do {
            switch try session.runEntry(file, beforeEachStatement: { lastStatementGraphs = self.session.interpreter.instances.count }) {
            case .rejected: return .failed
            case .empty: return .ok  // only comments
            case .ran: break
            }
        } catch {
            failed = true
            interrupted = error.isInterruption
        }
        // An interrupted entry is logged as cut at the time it stopped, so `:seek` replays it
        // only that far (its `wait` ends there, and the statements after it do not run).
        record(Entry(kind: .statements, name: name, text: entry, time: start, end: session.now, cutAt: interrupted ? session.now : nil))
        if interrupted { say(interruptedLine()) }
        lastEntryGraphs = lastStatementGraphs..<session.interpreter.instances.count
        if !clockPending { pendingSince = start }
        clockPending = true
        return failed || failureCount > failuresBefore ? .failed : .ok
    }

    /// Adds an entry to the log. After a seek back, a new entry replaces the future.
    func record(_ entry: Entry) {
        if let c = cut { log[c.index].cutAt = c.time; log[c.index].end = c.time }
        cut = nil
        log.removeSubrange(executed...)
        log.append(entry)
        executed = log.count
    }

    /// A line that starts with `then`: plays the clock until the graphs of the previous
    /// entry's last statement have finished, as `wait` would. False (and an error) if they
    /// never finish.
    func followPreviousEntry() -> Bool {
        let interp = session.interpreter!
        let graphs = lastEntryGraphs.filter { $0 < interp.instances.count }
        func running() -> [Int] { graphs.filter { interp.instances[$0].running } }
        // Its graph never ends, or has begun a step that never ends (an `if` taking a `repeat forever`).
        if running().contains(where: { interp.endlessNode(ofInstance: Int32($0)) != nil }) {
            fail("the previous entry never ends, so 'then' cannot start after it")
            return false
        }
        do {
            // An error stops only its own graph (and is reported).
            try session.play(until: .graphsEnd(lastEntryGraphs), errors: .stopsItsGraph, neverEnds: "", interrupt: checkInterrupt)
        } catch {
            if error.isEndless {
                fail("the previous entry never ends, so 'then' cannot start after it")
                return false
            }
            say(interruptedLine())
            return false
        }
        let end = graphs.compactMap { interp.instances[$0].end }.max() ?? session.now
        guard ReplSession.play(session, to: max(session.now, end)) != .interrupted else { say(interruptedLine()); return false }
        return true
    }

    // MARK: - The clock

    /// After entries: with `:auto on`, play until every graph that can end has ended; graphs
    /// that never end play `runLimit` past the time the clock started at. Prints the time when
    /// it moved (a `wait` in an entry moves it too). With `:auto off` the clock stays, but what
    /// is due now happens (a `print` prints, a `set` sets).
    func settleClock() -> Outcome {
        guard clockPending else { return .ok }
        clockPending = false
        guard auto else { return runClockBy(.zero) }
        let failuresBefore = failureCount
        let outcome = runClock(limit: session.now + runLimit)
        if session.now != pendingSince || session.interpreter.runningCount > 0 { say(timeLine()) }
        return failureCount > failuresBefore ? .failed : outcome
    }

    /// Plays events in order until none is left, or until `limit` once only graphs that never
    /// end are running, then moves `now` there. A run-time error stops only its own graph.
    func runClock(limit: Time) -> Outcome {
        let played: Session.PlayOutcome
        do {
            played = try session.play(until: .settled(limit: limit), errors: .stopsItsGraph, interrupt: checkInterrupt)
        } catch {
            // After Ctrl-C the clock stays where it stopped.
            say(interruptedLine())
            return .failed
        }
        // Graphs that never end have played to the limit.
        let target = session.interpreter.isIdle ? max(session.now, played.last) : max(limit, played.last)
        var failed = played.failed
        do { try session.moveNow(to: target) } catch { failed = true }
        return failed ? .failed : .ok
    }

    /// `interrupted at 1.500s`: what Ctrl-C during a run shows.
    func interruptedLine() -> String { "interrupted at \(session.now.eventStamp)s\n" }

    /// `time 1.500s`, with the graphs still running.
    func timeLine() -> String {
        let running = session.interpreter.runningCount
        return "time \(session.now.eventStamp)s" + (running > 0 ? ", \(running) graph\(running == 1 ? "" : "s") running" : "") + "\n"
    }

    // MARK: - Expressions

    /// A bare expression prints its value (`square.center` → `= (90, 120)`); nil if the entry
    /// is not an expression.
    func evaluateExpression(_ text: String) -> Outcome? {
        guard ReplSession.isExpression(text) else { return nil }
        let start = session.now
        guard let result = ReplSession.evaluate(text, in: session) else { return .failed }
        // Reading values changes nothing, but drawing a random number moves the generator:
        // such an expression is an entry that `:seek` must replay.
        if ReplSession.drawsRandomNumbers(text) {
            record(Entry(kind: .expression, name: "<repl>", text: text, time: start, end: start))
        }
        guard case .success(let v) = result else { return .failed }
        say("= \(v)\n")
        return .ok
    }

    /// Whether an expression calls `random`.
    static func drawsRandomNumbers(_ text: String) -> Bool {
        let file = SourceFile(id: .max, name: "<repl>", text: text)
        return Lexer.tokenize(file).tokens.contains { $0.kind == .identifier && file.text(of: $0.span) == Builtin.random.rawValue }
    }

    /// Whether the text parses as one expression and nothing else (`Parser.parseExpression`).
    static func isExpression(_ text: String) -> Bool {
        let parsed = Parser.parseExpression(SourceFile(id: .max, name: "<repl>", text: text))
        return parsed.expression != nil && parsed.trailing == nil && parsed.diagnostics.all.isEmpty
    }

    /// Checks and evaluates an expression in a session: nil if it does not check (reported),
    /// a failure if evaluating it raised a run-time error (reported), else its printed value.
    static func evaluate(_ text: String, in session: Session) -> Result<String, RuntimeError>? {
        let file = session.sources.add(name: "<repl>", text: text)
        let parsed = Parser.parseExpression(file)
        guard let expr = parsed.expression else { return nil }
        var c = Checker(tree: parsed.tree, environment: session.environment)
        c.makesGlyphs = false  // no statement runs to make them
        let typed = c.check(expr)
        session.report(c.diagnostics)
        guard let t = typed, !c.diagnostics.hasErrors else { return nil }
        do throws(RuntimeError) {
            let v = try session.interpreter.evaluate(t)
            return .success(v.kind == .string ? quote(session.interpreter.describe(v)) : session.interpreter.describe(v))
        } catch {
            session.reportRuntime(error)
            return .failure(error)
        }
    }

    func say(_ s: String) { relay.standardOutput(s) }
    func fail(_ s: String) { relay.standardError("error: \(s)\n") }
}

/// Forwards a session's output to the REPL's, or drops it while muted (silent replays).
final class RelayOutput: SessionOutput {
    let target: SessionOutput
    var muted = false
    init(_ target: SessionOutput) { self.target = target }
    func standardOutput(_ text: String) { if !muted { target.standardOutput(text) } }
    func standardError(_ text: String) { if !muted { target.standardError(text) } }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
