// ReplSession: the REPL's logic, without a terminal. It buffers lines until an entry is
// complete (an open block or a trailing `then` asks for more), runs entries in a Session,
// lets the clock run after each one (`:auto`), and carries out `:` commands, including
// `:seek` back in time by deterministic replay. The front end only reads lines and prints.

/// The interactive session behind `anim repl`.
public final class ReplSession {
    /// The session entries run in (replaced by `:reset` and backward `:seek`).
    public internal(set) var session: Session
    let output: SessionOutput
    let baseOptions: SessionOptions
    /// Reads a file for `:load` (the front end does the I/O).
    let readFile: (String) -> Result<[UInt8], UsageError>
    var buffer: [String] = []
    /// Whether the clock runs after each entry.
    public internal(set) var auto = true
    /// How far the clock runs after an entry while a graph never ends (`:until`).
    public internal(set) var runLimit = Time(seconds: 10)
    /// Entries run so far, with the script time each started at (replayed by `:seek`).
    var log: [(time: Time, text: String)] = []

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
        self.output = output
        self.readFile = readFile
        self.session = Session(options: options, output: output)
    }

    /// `anim> `, or `...> ` while an entry continues.
    public var prompt: String { buffer.isEmpty ? "anim> " : "...> " }

    /// Drops a half-typed entry (Ctrl-C).
    public func cancelInput() { buffer = [] }

    /// Whether an entry is half typed.
    public var isContinuing: Bool { !buffer.isEmpty }

    /// Handles one line of input.
    @discardableResult
    public func handle(line: String) -> Outcome {
        if buffer.isEmpty {
            let t = line.trimmingSpaces
            if t.hasPrefix(":") { return command(t) }
            if t.isEmpty { return .ok }
        }
        buffer.append(line)
        let text = buffer.joined(separator: "\n")
        // A leading `then` continues after everything before it has run.
        var entry = text
        let trimmed = text.trimmingSpaces
        var afterAll = false
        if trimmed.hasPrefix("then "), buffer.count >= 1 {
            entry = String(trimmed.dropFirst(5))
            afterAll = true
        }
        let probe = SourceFile(id: .max, name: "<repl>", text: entry)
        let parsed = Parser.parseProgram(probe)
        if parsed.endedEarly { return .incomplete }
        buffer = []
        if afterAll { runWait() }
        return run(entry: entry)
    }

    /// Runs a complete entry and lets the clock run.
    func run(entry: String) -> Outcome {
        if let value = evaluateExpression(entry) { return value }
        log.append((session.now, entry))
        let errorsBefore = session.errorCount, failuresBefore = session.expectFailures
        let file = session.sources.add(name: "<repl>", text: entry)
        guard let statements = session.compile(file) else { log.removeLast(); return .failed }
        do {
            try session.execute(statements)
            if auto { try runClock() }
        } catch {
            return .failed
        }
        return session.errorCount > errorsBefore || session.expectFailures > failuresBefore ? .failed : .ok
    }

    /// After an entry: play until every graph has finished, or for `runLimit` at most.
    func runClock() throws(RuntimeError) {
        let limit = session.now + runLimit
        let last = try session.playUntilIdle(limit: limit)
        if session.interpreter.isIdle {
            try session.moveNow(to: max(session.now, last))
        } else {
            try session.moveNow(to: limit)
        }
    }

    /// `then ...` typed on its own line: wait for everything first.
    func runWait() {
        _ = try? session.moveNow(to: max(session.now, (try? session.playUntilIdle(limit: session.now + runLimit)) ?? session.now))
    }

    /// A bare expression prints its value (`square.center` → `= (90, 120)`).
    func evaluateExpression(_ text: String) -> Outcome? {
        let probe = SourceFile(id: .max, name: "<repl>", text: text)
        let (tokens, lexDiags) = Lexer.tokenize(probe)
        guard !lexDiags.hasErrors, let first = tokens.first(where: { $0.kind != .newline }) else { return nil }
        switch first.kind {
        case .identifier, .number, .string, .color, .lparen, .lbracket, .minus: break
        case .keyword where first.is(.true) || first.is(.false): break
        default: return nil
        }
        // Parse again against a registered source, so diagnostics can point into it.
        let file = session.sources.add(name: "<repl>", text: text)
        var p = Parser(file: file, tokens: Lexer.tokenize(file).tokens.filter { $0.kind != .newline })
        guard let expr = try? p.parseExpression(), p.check(.eof), p.diagnostics.all.isEmpty else { return nil }
        var c = Checker(file: file, environment: session.environment)
        let typed = c.check(expr)
        session.report(c.diagnostics)
        guard let t = typed, !c.diagnostics.hasErrors else { return .failed }
        do throws(RuntimeError) {
            let v = try session.interpreter.evaluate(t)
            output.standardOutput("= \(session.interpreter.describe(v))\n")
            return .ok
        } catch {
            session.reportRuntime(error)
            return .failed
        }
    }
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
