// ReplSession: the REPL's logic, without a terminal. It buffers lines until an entry is
// complete (an open block, an open bracket or a trailing `then` asks for more), runs entries in
// a Session, lets the clock run after each one (`:auto`), and carries out `:` commands, among
// them `:seek` in either direction by deterministic replay of the entry log. The front end
// only reads lines and prints.
//
// Text handed to `handle(line:)` may hold several lines (a paste, or lines typed ahead). They
// run as a file would: each entry starts at the current script time, a line that starts with
// `then` continues the entry before it, and the clock runs once, after the last of them.

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
    /// The graphs the last entry started (indices into the interpreter's instances), which a
    /// line starting with `then` follows.
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

    /// A session that keeps the history of what moved, so `:timeline` can draw it.
    static func makeSession(_ options: SessionOptions, _ output: SessionOutput) -> Session {
        let s = Session(options: options, output: output)
        s.interpreter.recordHistory(motionOnly: true)
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

    /// Handles input: one line, or several separated by newlines (a paste).
    @discardableResult
    public func handle(line text: String) -> Outcome {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { l in
            l.last == "\r" ? String(l.dropLast()) : String(l)
        }
        let errorsBefore = session.errorCount, failuresBefore = session.expectFailures
        var failed = false
        interruptedInput = false
        for (i, line) in lines.enumerated() {
            let continuesNext = ReplSession.startsWithThen(lines[(i + 1)...])
            switch feed(line, nextStartsWithThen: continuesNext) {
            case .quit: return .quit
            case .failed: failed = true
            case .ok, .incomplete: break
            }
            // Ctrl-C during a run drops the rest of a paste, and the clock stays put.
            if interruptedInput {
                buffer = []
                clockPending = false
                return .failed
            }
        }
        if buffer.isEmpty && settleClock() == .failed { failed = true }
        // `:reset` and `:seek` replace the session, whose counts then start afresh.
        if session.errorCount > errorsBefore || session.expectFailures > failuresBefore { failed = true }
        return !buffer.isEmpty ? .incomplete : failed ? .failed : .ok
    }

    /// One line: a command, or part of an entry. `nextStartsWithThen` says that the next line
    /// of the same input continues the chain, so a complete entry must wait for it.
    func feed(_ line: String, nextStartsWithThen: Bool) -> Outcome {
        if buffer.isEmpty {
            let t = line.trimmingSpaces
            if t.isEmpty { return .ok }
            if t.hasPrefix(":") {
                // Commands see the world as typed entries leave it: with the clock run.
                let settled = settleClock()
                if interruptedInput { return .failed }
                let o = command(t)
                return o == .ok && settled == .failed ? .failed : o
            }
        }
        buffer.append(line)
        var entry = buffer.joined(separator: "\n")
        guard ReplSession.isComplete(entry), !nextStartsWithThen else { return .incomplete }
        buffer = []
        // A leading `then` continues after the previous entry (typed earlier, so already run).
        if let rest = ReplSession.droppingLeadingThen(entry) {
            entry = rest
            guard followPreviousEntry() else { return .failed }
        }
        return run(entry: entry, name: "<repl>")
    }

    /// Whether an entry can run: every block and bracket closed, and no trailing `then`.
    public static func isComplete(_ text: String) -> Bool {
        let tokens = Lexer.tokenize(SourceFile(id: .max, name: "<repl>", text: text)).tokens
        var blocks = 0, brackets = 0
        var last: Token?
        for t in tokens {
            switch t.kind {
            case .lt: blocks += 1
            case .gt: blocks -= 1
            case .lparen, .lbracket: brackets += 1
            case .rparen, .rbracket: brackets -= 1
            case .newline, .eof: continue
            default: break
            }
            last = t
        }
        return blocks <= 0 && brackets <= 0 && !(last?.is(.then) ?? false)
    }

    /// The lexer's and parser's diagnostics for a source, in source order, as
    /// `Parser.parseProgram` reports them. Parsed here with the parser's own steps because
    /// `parseProgram` does not return when a statement stops at a `>` outside any block
    /// (`print 1 >`, or `animate 1 < print "x" >` once recovery skips to the `>`): the `>` is
    /// never consumed and the statement loop retries it for ever. This loop steps over it,
    /// reporting it unless it ends a statement that already failed. After a failed statement
    /// it also skips to the end of the blocks that statement left open, so the `>` closing
    /// them is not reported as a second error.
    static func syntaxErrors(in file: SourceFile) -> DiagnosticBag {
        let (tokens, lexDiagnostics) = Lexer.tokenize(file)
        var p = Parser(file: file, tokens: tokens)
        var extra = DiagnosticBag()
        p.skipSeparators()
        while !p.check(.eof) {
            let before = p.current
            let statement = p.parseStatementRecovering()
            if statement == nil {
                var open = tokens[before..<min(p.current, tokens.count)].reduce(0) { $0 + ($1.kind == .lt ? 1 : $1.kind == .gt ? -1 : 0) }
                while open > 0 && !p.check(.eof) {
                    let t = p.advance()
                    open += t.kind == .lt ? 1 : t.kind == .gt ? -1 : 0
                }
            }
            if p.check(.gt) || p.current == before {
                let t = p.advance()
                if statement != nil && t.kind == .gt { extra.error("unexpected '>': no block is open", at: t.span) }
            }
            p.skipSeparators()
        }
        var all = lexDiagnostics
        all.append(contentsOf: extra)
        all.append(contentsOf: p.diagnostics)
        var bag = DiagnosticBag()
        for d in all.all.enumerated().sorted(by: { a, b in
            a.element.span.start != b.element.span.start ? a.element.span.start < b.element.span.start : a.offset < b.offset
        }).map(\.element) { bag.report(d) }
        return bag
    }

    /// Whether the first line with code among `lines` starts with `then`.
    static func startsWithThen(_ lines: ArraySlice<String>) -> Bool {
        for l in lines {
            let tokens = Lexer.tokenize(SourceFile(id: .max, name: "<repl>", text: l)).tokens
            guard let first = tokens.first(where: { $0.kind != .newline }), first.kind != .eof else { continue }
            return first.is(.then)
        }
        return false
    }

    /// The entry without its leading `then`, or nil if it does not start with one.
    static func droppingLeadingThen(_ text: String) -> String? {
        let file = SourceFile(id: .max, name: "<repl>", text: text)
        guard let first = Lexer.tokenize(file).tokens.first(where: { $0.kind != .newline }), first.is(.then) else { return nil }
        return String(decoding: Array(text.utf8)[Int(first.span.end)...], as: UTF8.self)
    }

    /// Runs a complete entry: a bare expression prints its value; statements run at `now`.
    /// The clock runs later, once the input is used up (`settleClock`).
    func run(entry: String, name: String) -> Outcome {
        if let outcome = evaluateExpression(entry) { return outcome }
        let graphsBefore = session.interpreter.instances.count
        let errorsBefore = session.errorCount, failuresBefore = session.expectFailures
        let file = session.sources.add(name: name, text: entry)
        let syntax = ReplSession.syntaxErrors(in: file)
        guard !syntax.hasErrors else { session.report(syntax); return .failed }
        let start = session.now
        var failed = false, interrupted = false
        do {
            switch try session.runEntry(file) {
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
        lastEntryGraphs = graphsBefore..<session.interpreter.instances.count
        if !clockPending { pendingSince = start }
        clockPending = true
        return failed || session.errorCount > errorsBefore || session.expectFailures > failuresBefore ? .failed : .ok
    }

    /// Adds an entry to the log. After a seek back, a new entry replaces the future.
    func record(_ entry: Entry) {
        if let c = cut { log[c.index].cutAt = c.time; log[c.index].end = c.time }
        cut = nil
        log.removeSubrange(executed...)
        log.append(entry)
        executed = log.count
    }

    /// A line that starts with `then`: plays the clock until the graphs of the previous entry
    /// have finished, as `wait` would. False (and an error) if they never finish.
    func followPreviousEntry() -> Bool {
        let interp = session.interpreter!
        let graphs = lastEntryGraphs.filter { $0 < interp.instances.count }
        func running() -> [Int] { graphs.filter { interp.instances[$0].running } }
        if running().contains(where: { interp.instances[$0].graph.duration == .forever }) {
            fail("the previous entry never ends, so 'then' cannot start after it")
            return false
        }
        while !running().isEmpty, let next = interp.nextEventTime {
            if checkInterrupt() { say(interruptedLine()); return false }
            do { try session.advanceClock(to: next) } catch {
                // Any other error stops only its own graph (and is reported).
                if error.isInterruption { session.holdAfterInterruption(); say(interruptedLine()); return false }
            }
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
        let outcome = runClock(limit: session.now + runLimit)
        if session.now != pendingSince || session.interpreter.runningCount > 0 { say(timeLine()) }
        return outcome
    }

    /// Plays events in order until none is left, or until `limit` once only graphs that never
    /// end are running, then moves `now` there. A run-time error stops only its own graph.
    func runClock(limit: Time) -> Outcome {
        let interp = session.interpreter!
        var failed = false, interrupted = false
        var last = session.now
        while let next = interp.nextEventTime {
            if next > limit && !interp.instances.contains(where: { $0.running && $0.graph.duration != .forever }) { break }
            if checkInterrupt() {
                interrupted = true
                break
            }
            do { try session.advanceClock(to: next) } catch {
                if error.isInterruption { interrupted = true; break }
                failed = true
            }
            last = next
        }
        if interrupted {
            // After Ctrl-C the clock stays where it stopped.
            session.holdAfterInterruption()
            say(interruptedLine())
            return .failed
        }
        // Graphs that never end have played to the limit.
        let target = interp.isIdle ? max(session.now, last) : max(limit, last)
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

    /// Whether the text parses as one expression and nothing else.
    static func isExpression(_ text: String) -> Bool {
        let probe = SourceFile(id: .max, name: "<repl>", text: text)
        let (tokens, lexDiags) = Lexer.tokenize(probe)
        guard !lexDiags.hasErrors, let first = tokens.first(where: { $0.kind != .newline }) else { return false }
        switch first.kind {
        case .identifier, .number, .string, .color, .lparen, .lbracket, .minus: break
        case .keyword where first.is(.true) || first.is(.false): break
        default: return false
        }
        var p = Parser(file: probe, tokens: tokens.filter { $0.kind != .newline })
        guard (try? p.parseExpression()) != nil, p.check(.eof), p.diagnostics.all.isEmpty else { return false }
        return true
    }

    /// Checks and evaluates an expression in a session: nil if it does not check (reported),
    /// a failure if evaluating it raised a run-time error (reported), else its printed value.
    static func evaluate(_ text: String, in session: Session) -> Result<String, RuntimeError>? {
        let file = session.sources.add(name: "<repl>", text: text)
        var p = Parser(file: file, tokens: Lexer.tokenize(file).tokens.filter { $0.kind != .newline })
        guard let expr = try? p.parseExpression() else { return nil }
        var c = Checker(file: file, environment: session.environment)
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
