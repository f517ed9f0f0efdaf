// End-to-end tests of the REPL in a real terminal: the built `anim` runs inside tmux, keys are
// sent with `send-keys` and the screen is read with `capture-pane`. Each test has its own tmux
// server (`-S`, a socket in its own temporary directory), so parallel runs cannot collide, and
// kills it and removes the directory at the end.
// Screens are polled until a deadline instead of sleeping a fixed time. Without tmux the tmux
// tests are skipped, with a message saying so; the tests of piped standard input always run.
import AnimTestSupport
import Foundation
import Testing

/// A tmux server with one pane running `anim`.
final class Terminal {
    let directory: URL
    /// The history file the REPL uses (`ANIM_HISTORY`).
    let history: URL
    /// How long a wait may take on a slow, shared machine.
    static let deadline: TimeInterval = 20

    /// Whether tmux can be run.
    static let tmuxPath: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(dir)/tmux") {
            return "\(dir)/tmux"
        }
        return nil
    }()

    /// True when tmux is installed; prints why the terminal tests are skipped when it is not.
    static let available: Bool = {
        if tmuxPath == nil { print("ReplTerminalTests: skipping the terminal tests: tmux is not installed (not found in PATH)") }
        return tmuxPath != nil
    }()

    /// Starts `anim` (with `arguments`) in a 100x30 pane. `history` is the history file to use
    /// (default: a new one in a fresh directory).
    /// `program` replaces `anim` as the pane's program (a shell, to run `anim` as a job).
    init(arguments: [String] = [], history: URL? = nil, environment: [String: String] = [:], program: [String]? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("anim-test-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.history = history ?? directory.appendingPathComponent("history")
        var env = ["ANIM_HISTORY": self.history.path, "HOME": directory.path, "INPUTRC": "/dev/null", "NO_COLOR": "1"]
        env.merge(environment) { $1 }
        // The shell in the pane runs `anim`; remain-on-exit keeps the pane so its exit status
        // can be read.
        let command = (program ?? [TestPaths.animBinary.path] + arguments).map(Terminal.shellQuoted).joined(separator: " ")
        var args = ["-f", "/dev/null", "new-session", "-d", "-s", "repl", "-x", "100", "-y", "30", "-c", TestPaths.packageRoot.path]
        for (k, v) in env.sorted(by: { $0.key < $1.key }) { args += ["-e", "\(k)=\(v)"] }
        args += [command, ";", "set-option", "-g", "remain-on-exit", "on"]
        try tmux(args)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    static func shellQuoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs a tmux command on this test's server; returns its standard output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try Terminal.spawn([Terminal.tmuxPath!, "-S", directory.appendingPathComponent("tmux.sock").path] + arguments)
    }

    struct SpawnError: Error { var message: String }

    /// Runs a program and returns its standard output. Unlike Foundation's Process, it starts
    /// the child with no signal blocked and default signal actions: the test runner's threads
    /// block SIGINT, SIGTERM and more, and tmux, its server and the REPL would inherit that
    /// mask (Ctrl-C would do nothing, kill-server would not end the server).
    static func spawn(_ argv: [String]) throws -> String {
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attr, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, sig)
        }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(message: "pipe failed") }
        // Other tests spawn processes at the same time: neither end may leak into them.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nor may anything the test process has open leak into tmux: its server outlives the
        // command, and would hold another test's pipe open for ever.
        closeDescriptors(from: 3, in: &actions)

        let args = argv.map { strdup($0) } + [nil]
        let env = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (args + env).forEach { free($0) } }
        var pid = pid_t()
        let rc = posix_spawn(&pid, argv[0], &actions, &attr, args, env)
        close(fds[1])
        defer { close(fds[0]) }
        guard rc == 0 else { throw SpawnError(message: "cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
        // The server that `new-session` starts keeps no descriptor of ours, so this ends.
        var out = [UInt8]()
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += buf[0..<n]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: out, as: UTF8.self)
    }

    /// Types text literally.
    func type(_ text: String) throws { try tmux(["send-keys", "-t", "repl", "-l", "--", text]) }

    /// Sends keys by name: `Enter`, `Tab`, `Up`, `C-c`, `C-d`.
    func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "repl"] + keys) }

    /// Types a line and presses Enter.
    func enter(_ line: String) throws {
        try type(line)
        try press("Enter")
    }

    /// Types a line, presses Enter and waits until it has been handled: the line is on the
    /// screen after a prompt, and a prompt (`anim>` or `...>`) is shown again below it.
    /// Waiting matters: lines typed before the REPL reads them are one input (a paste).
    @discardableResult
    func run(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let before = try screen().split(separator: "\n", omittingEmptySubsequences: false).count
        try enter(line)
        return try waitFor("'\(line)' to be handled", sourceLocation: sourceLocation) { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let echo = lines.lastIndex(where: { $0 == "anim> " + line || $0 == "...> " + line }),
                  echo >= before - 1 || lines.count == 30, echo < lines.count - 1 else { return false }
            return lines.last == "anim>" || lines.last == "...>"
        }
    }

    /// Pastes text the way a terminal does (bracketed, if the program asked for it).
    func paste(_ text: String) throws {
        let file = directory.appendingPathComponent("paste.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        try tmux(["load-buffer", "-b", "paste", file.path])
        try tmux(["paste-buffer", "-p", "-d", "-b", "paste", "-t", "repl"])
    }

    /// The screen as plain text, wrapped lines joined, without trailing blanks.
    func screen() throws -> String {
        var lines = try tmux(["capture-pane", "-p", "-J", "-t", "repl"]).split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Polls the screen until `condition` holds; records an issue with the screen if the
    /// deadline passes first. Returns the last screen.
    @discardableResult
    func waitFor(_ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: (String) -> Bool) throws -> String {
        let end = Date().addingTimeInterval(Terminal.deadline)
        var s = try screen()
        while !condition(s) {
            if Date() > end {
                Issue.record("timed out waiting for \(what); the screen was:\n\(s)", sourceLocation: sourceLocation)
                return s
            }
            Thread.sleep(forTimeInterval: 0.05)
            s = try screen()
        }
        return s
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("'\(text)'", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Waits until the last line of the screen is exactly `line` (a prompt, say).
    @discardableResult
    func waitForLastLine(_ line: String, _ why: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("the last line to be '\(line)' \(why)", sourceLocation: sourceLocation) {
            $0.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) == line
        }
    }

    /// Waits for the first prompt.
    func started(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitForLastLine("anim>", sourceLocation: sourceLocation)
    }

    /// The row the cursor is on (0 is the top).
    func cursorRow() throws -> Int? {
        Int(try tmux(["display-message", "-p", "-t", "repl", "#{cursor_y}"]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits until `line` has been entered: it is the last line and the cursor is below it.
    func waitForAccepted(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let end = Date().addingTimeInterval(Terminal.deadline)
        while Date() < end {
            let lines = try screen().split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last.map(String.init) == line, try cursorRow() == lines.count { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for '\(line)' to be entered; the screen was:\n\(try screen())", sourceLocation: sourceLocation)
    }

    /// Whether the pane's process has ended, and its exit status (128 + N if signal N ended
    /// it). `closed` is set when the pane's terminal has closed but tmux has no status yet.
    func exitStatus(closed: inout Bool) throws -> Int32? {
        let fields = try tmux(["display-message", "-p", "-t", "repl", "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"])
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0] == "1" else { return nil }
        if let status = Int32(fields[1]) { return status }
        if let signal = Int32(fields[2]), signal > 0 { return 128 + signal }
        closed = true
        return nil
    }

    /// Whether the pane's process has ended, and its exit status.
    func exitStatus() throws -> Int32? {
        var closed = false
        return try exitStatus(closed: &closed)
    }

    /// Waits for the process to end; its exit status, or nil (and an issue) at the deadline.
    func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32? {
        let end = Date().addingTimeInterval(Terminal.deadline)
        var closedSince: Date?
        while Date() < end {
            var closed = false
            if let s = try exitStatus(closed: &closed) { return s }
            // tmux 3.3 can miss the SIGCHLD of a pane's process that exits while libutempter's
            // own SIGCHLD handler is installed (tmux/tmux#311): the process stays a zombie and
            // the pane has no status. Another SIGCHLD makes the server reap it.
            if closed {
                if let since = closedSince, Date().timeIntervalSince(since) > 0.3 {
                    if let server = Int32(try tmux(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) {
                        kill(server, SIGCHLD)
                    }
                    closedSince = Date()
                } else if closedSince == nil {
                    closedSince = Date()
                }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let state = try tmux(["display-message", "-p", "-t", "repl", "#{pane_pid} #{pane_dead} #{pane_dead_status} #{pane_dead_signal}"])
        Issue.record("timed out waiting for the REPL to exit (pid, dead, status, signal: \(state)); the screen was:\n\(try screen())",
                     sourceLocation: sourceLocation)
        return nil
    }

    /// How many times `text` occurs on the screen.
    func count(_ text: String) throws -> Int { try screen().components(separatedBy: text).count - 1 }
}

@Suite("REPL in a terminal (tmux)", .enabled(if: Terminal.available, "tmux is not installed"))
struct ReplTerminalTests {
    @Test func aStatementShowsItsEventLine() throws {
        let t = try Terminal()
        try t.started()
        try t.run("rect sq center (0,0)")
        try t.run("animate 1 < sq.center = (10,0) > then < print \"moved {sq.center}\" >")
        #expect(try t.screen().hasSuffix("""
            anim> animate 1 < sq.center = (10,0) > then < print "moved {sq.center}" >
            [1.000] moved (10, 0)
            time 1.000s
            anim>
            """))
        try t.run("sq.center")
        #expect(try t.screen().hasSuffix("anim> sq.center\n= (10, 0)\nanim>"))
    }

    @Test func aBlockContinuesOnTheNextLineWithTheContinuationPrompt() throws {
        let t = try Terminal()
        try t.started()
        try t.run("rect sq center (0,0)")
        try t.run("animate 1 <")
        try t.waitForLastLine("...>")
        try t.run("sq.center = (5,0)")
        try t.waitForLastLine("...>")
        try t.run("> then")
        try t.waitForLastLine("...>")
        try t.run("< print \"done {sq.center}\" >")
        #expect(try t.screen().hasSuffix("""
            anim> animate 1 <
            ...> sq.center = (5,0)
            ...> > then
            ...> < print "done {sq.center}" >
            [1.000] done (5, 0)
            time 1.000s
            anim>
            """))
    }

    @Test func tabCompletesAPropertyAndACommand() throws {
        let t = try Terminal()
        try t.started()
        try t.run("rect square center (90,120)")
        try t.type("square.ce")
        try t.waitForLastLine("anim> square.ce")
        try t.press("Tab")
        try t.waitForLastLine("anim> square.center")
        try t.press("Enter")
        try t.waitFor("the value") { $0.hasSuffix("anim> square.center\n= (90, 120)\nanim>") }
        try t.type(":insp")
        try t.waitForLastLine("anim> :insp")
        try t.press("Tab")
        try t.waitForLastLine("anim> :inspect")  // and a space, which the screen capture trims
        try t.type("squ")
        try t.waitForLastLine("anim> :inspect squ", "the space after ':inspect'")
        try t.press("Tab")
        try t.waitForLastLine("anim> :inspect square")
        try t.press("Enter")
        try t.waitFor("the shape") { $0.contains("rect square\n  center = (90, 120)\n") && $0.hasSuffix("anim>") }
        // Two matches: the first Tab adds their common part, the second lists them.
        try t.type(":ti")
        try t.waitForLastLine("anim> :ti")
        try t.press("Tab")
        try t.waitForLastLine("anim> :time")
        try t.press("Tab")
        try t.waitFor("the list of matches") { $0.contains(":time") && $0.contains(":timeline") && $0.hasSuffix("anim> :time") }
    }

    @Test func tabCompletesFileNamesOnlyAfterLoad() throws {
        let t = try Terminal()
        try t.started()
        // The pane's directory is the package root, which holds Sources and Examples.
        try t.type("print Sou")
        try t.waitForLastLine("anim> print Sou")
        try t.press("Tab")
        try t.press("Tab")
        try t.type("X")
        let s = try t.waitForLastLine("anim> print SouX")
        #expect(!s.contains("Sources"))
        try t.press("C-u")
        try t.type(":load Examples/de")
        try t.waitForLastLine("anim> :load Examples/de")
        try t.press("Tab")
        try t.waitForLastLine("anim> :load Examples/demo.anim")
        try t.press("Enter")
        try t.waitFor("the demo's events") { $0.hasSuffix("[4.100] Animation complete\ntime 4.100s\nanim>") }
    }

    @Test func historyIsRecalledInTheNextSession() throws {
        let first = try Terminal()
        try first.started()
        try first.run("let answer = 42")
        try first.run("animate 0.5 <")
        try first.run("nope.alpha = 1")  // an error once the block closes; still history
        try first.run(">")
        try first.run("print \"hello {answer}\"")
        try first.press("C-d")
        #expect(try first.waitForExit() == 0)

        // The file was written entry by entry; the next session reads it.
        let second = try Terminal(history: first.history)
        try second.started()
        try second.press("Up")
        try second.waitForLastLine("anim> print \"hello {answer}\"")
        try second.press("Up")
        try second.waitFor("the three lines of the block") { $0.hasSuffix("anim> animate 0.5 <\nnope.alpha = 1\n>") }
        try second.press("Up")
        try second.waitForLastLine("anim> let answer = 42")
        try second.press("Enter")
        try second.waitFor("the entry to run") { $0.hasSuffix("anim> let answer = 42\nanim>") }
        try second.run("answer")
        #expect(try second.screen().hasSuffix("anim> answer\n= 42\nanim>"))
        let file = try String(contentsOf: first.history, encoding: .utf8)
        #expect(file.contains("\nlet answer = 42\n"))
        #expect(file.contains("\nanimate 0.5 <\nnope.alpha = 1\n>\n"))
    }

    @Test func historySurvivesAKilledSession() throws {
        let t = try Terminal()
        try t.started()
        try t.run("let kept = 7")
        try t.run("print \"kept {kept}\"")
        // SIGKILL: no exit path runs, so what was typed must already be in the file.
        let pid = try t.tmux(["display-message", "-p", "-t", "repl", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(kill(pid_t(pid) ?? 0, SIGKILL) == 0, "pane pid '\(pid)'")
        _ = try t.waitForExit()
        let file = try String(contentsOf: t.history, encoding: .utf8)
        #expect(file.contains("\nlet kept = 7\n"), Comment(rawValue: file))
        #expect(file.contains("\nprint \"kept {kept}\"\n"), Comment(rawValue: file))
    }

    @Test func withoutANIM_HISTORYTheHistoryIsInHome() throws {
        let t = try Terminal(program: ["/usr/bin/env", "-u", "ANIM_HISTORY", TestPaths.animBinary.path])
        try t.started()
        try t.run("print \"home\"")
        try t.press("C-d")
        #expect(try t.waitForExit() == 0)
        let file = t.directory.appendingPathComponent(".anim_history")  // HOME is the test's folder
        #expect(try String(contentsOf: file, encoding: .utf8).hasSuffix("\nprint \"home\"\n"))
        #expect(!FileManager.default.fileExists(atPath: t.history.path))
        // An empty ANIM_HISTORY keeps no file at all.
        let u = try Terminal(environment: ["ANIM_HISTORY": ""])
        try u.started()
        try u.run("print \"nowhere\"")
        try u.press("C-d")
        #expect(try u.waitForExit() == 0)
        #expect(try u.count("warning") == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: u.directory.path).filter { $0.contains("history") }.isEmpty)
    }

    @Test func ctrlCDropsAHalfTypedEntryAndResetsThePrompt() throws {
        let t = try Terminal()
        try t.started()
        try t.run("rect sq center (0,0)")
        try t.run("animate 1 <")
        try t.type("sq.center = (1,0)")
        try t.waitForLastLine("...> sq.center = (1,0)")
        try t.press("C-c")
        try t.waitFor("the ^C and a fresh prompt") { $0.hasSuffix("...> sq.center = (1,0)^C\nanim>") }
        // The line being typed is dropped too.
        try t.type("print \"half")
        try t.waitForLastLine("anim> print \"half")
        try t.press("C-c")
        try t.waitFor("a fresh prompt") { $0.hasSuffix("anim> print \"half^C\nanim>") }
        try t.run("print \"after {sq.center}\"")
        #expect(try t.screen().hasSuffix("[0.000] after (0, 0)\nanim>"))
        #expect(try t.exitStatus() == nil, "Ctrl-C does not end the REPL")
    }

    @Test func ctrlCStopsALongClockRun() throws {
        let t = try Terminal()
        try t.started()
        try t.run(":until 1000000")
        try t.enter("repeat forever < wait 0.001 >")  // a million seconds of millisecond events
        try t.waitForAccepted("anim> repeat forever < wait 0.001 >")
        try t.press("C-c")
        try t.waitFor("interrupted")
        try t.waitForLastLine("anim>")
        #expect(try t.exitStatus() == nil)
    }

    @Test func ctrlDOnAnEmptyLineExitsWithStatusZero() throws {
        let t = try Terminal()
        try t.started()
        try t.run("print \"bye\"")
        try t.type("x")
        try t.waitForLastLine("anim> x")
        try t.press("C-d")  // not on an empty line: deletes nothing, does not exit
        try t.press("C-u")
        try t.waitForLastLine("anim>")
        #expect(try t.exitStatus() == nil)
        try t.press("C-d")
        #expect(try t.waitForExit() == 0)
        #expect(try String(contentsOf: t.history, encoding: .utf8).contains("\nprint \"bye\"\n"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash for job control"))
    func ctrlZAndFgBringTheLineBack() throws {
        let t = try Terminal(program: ["/bin/bash", "--norc", "--noprofile", "-i"])
        func shellPrompt(_ s: String) -> Bool { s.hasSuffix("$") || s.hasSuffix("#") }
        try t.waitFor("the shell prompt", shellPrompt)
        try t.enter(Terminal.shellQuoted(TestPaths.animBinary.path))
        try t.started()
        try t.type("print \"half")
        try t.waitForLastLine("anim> print \"half")
        try t.press("C-z")
        try t.waitFor("the shell prompt") { $0.contains("Stopped") && shellPrompt($0) }
        try t.enter("fg")
        // The line comes back, and the terminal is the REPL's again: keys are not echoed twice.
        try t.waitForLastLine("anim> print \"half")
        try t.type("way\"")
        try t.waitForLastLine("anim> print \"halfway\"")
        try t.press("Enter")
        try t.waitFor("[0.000] halfway")
        try t.enter(":quit")
        try t.waitFor("the shell prompt again") { $0.contains("halfway") && shellPrompt($0) }
    }

    @Test func quitExitsWithStatusZero() throws {
        let t = try Terminal(arguments: ["repl"])
        try t.started()
        try t.enter(":quit")
        #expect(try t.waitForExit() == 0)
    }

    @Test func errorsDoNotEndTheSession() throws {
        let t = try Terminal()
        try t.started()
        try t.run("rect sq center (0,0)")
        try t.run("animate 1 < sq.centre = (1,0) >")
        #expect(try t.screen().contains("error: unknown property 'centre' of rect 'sq'; did you mean 'center'?"))
        try t.run(":bogus")
        #expect(try t.screen().contains("error: unknown command ':bogus'"))
        try t.run("print 1/0")
        #expect(try t.screen().contains("division by zero"))
        try t.run("print \"still here\"")
        #expect(try t.screen().hasSuffix("[0.000] still here\nanim>"))
        #expect(try t.exitStatus() == nil)
    }

    @Test func aPastedScriptRunsAsTheFile() throws {
        let t = try Terminal()
        try t.started()
        let demo = try String(contentsOf: TestPaths.examples.appendingPathComponent("demo.anim"), encoding: .utf8)
        try t.paste(demo)
        try t.waitFor("the pasted text") { $0.contains("then < print \"Animation complete\" >") }
        try t.press("Enter")  // a bracketed paste waits for Enter
        try t.waitFor("the events of the file") { $0.hasSuffix("[1.300] First corner\n[4.100] Animation complete\ntime 4.100s\nanim>") }
        // Lines typed ahead in one burst are one input as well: the two tweens start together.
        try t.type("rect b center (0,0)\nanimate 1 < b.center = (1,0) >\nanimate 2 < b.alpha = 0 >\nthen < print \"{b.center} {b.alpha}\" >\n")
        try t.waitFor("[6.100] (1, 0) 0")
    }

    @Test func aPastedDefineWithItsBodyOnTheNextLineRunsAsTheFile() throws {
        let t = try Terminal()
        try t.started()
        try t.paste("""
            rect sq center (0,0)
            define hop(s, h) =
                animate 0.5 < s.offset = (0, -h) > then animate 0.5 < s.offset = (0, 0) >
            play hop(sq, 10) then < print "landed {sq.offset}" >
            """)
        try t.waitFor("the pasted text") { $0.contains("play hop(sq, 10) then") }
        try t.press("Enter")
        try t.waitFor("the events of the file") { $0.hasSuffix("[1.000] landed (0, 0)\ntime 1.000s\nanim>") }
        #expect(!(try t.screen().contains("error")))
        // Typed line by line, the define waits for its body.
        try t.run("define lift(s) =")
        try t.waitForLastLine("...>")
        try t.run("  animate 1 < s.offset = (0, -20) >")
        try t.run("play lift(sq) then < print \"lifted {sq.offset}\" >")
        try t.waitFor("[2.000] lifted (0, -20)")
    }

    @Test func errorsInAPasteHaveTheFilesLineNumbers() throws {
        let t = try Terminal()
        try t.started()
        try t.paste("rect b center (0,0)\n\n# line 3\nanimate 1 < b.centre = (1,0) >\n")
        try t.waitFor("the pasted text") { $0.contains("b.centre = (1,0) >") }
        try t.press("Enter")
        try t.waitFor("<repl>:4:15: error: unknown property 'centre' of rect 'b'")
        #expect(try t.screen().contains("  4 | animate 1 < b.centre = (1,0) >"))
        try t.run("b.center")  // nothing of the paste ran, as its file would not have
        try t.waitFor("unknown name 'b'")
    }

    @Test func anUnusableHistoryFileWarnsOnceAndTheREPLGoesOn() throws {
        // A directory is not a history file.
        let t = try Terminal(history: FileManager.default.temporaryDirectory)
        try t.started()
        #expect(try t.screen().contains("warning: cannot use history file"))
        try t.run("print \"one\"")
        try t.run("print \"two\"")
        #expect(try t.count("warning") == 1)
        // A file in a folder that does not exist: the warning comes with the first entry.
        let u = try Terminal(history: URL(fileURLWithPath: "/nonexistent-anim-dir/history"))
        try u.started()
        try u.run("print \"one\"")
        try u.run("print \"two\"")
        #expect(try u.count("warning: cannot use history file '/nonexistent-anim-dir/history': No such file or directory") == 1)
    }

    @Test func aCorruptHistoryFileIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-hist-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("history")
        var bytes: [UInt8] = Array("#12\n".utf8) + [0xFF, 0xFE, 0x00, 0x41, 0x0A] + Array("#\n#99x\nprint \"kept\"\n".utf8)
        bytes += Array(repeating: 0x61, count: 100_000)
        try Data(bytes).write(to: file)
        let t = try Terminal(history: file)
        try t.started()
        #expect(try t.count("warning") == 0)
        try t.run("print \"new\"")
        try t.press("Up")
        try t.waitForLastLine("anim> print \"new\"")
    }

    @Test func theHistoryFileIsCutToItsLimit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-hist-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("history")
        try (0..<1500).map { "#1\nprint \($0)\nprint \($0)\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        let t = try Terminal(history: file)
        try t.started()
        try t.run(":time")
        try t.press("C-d")
        let status = try t.waitForExit()
        let screen = try t.screen()
        #expect(status == 0, "\(screen)")
        let text = try String(contentsOf: file, encoding: .utf8)
        let entries = text.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.count
        #expect(entries == 1000)
        #expect(text.hasSuffix("\n:time\n"))
        #expect(text.contains("\nprint 501\nprint 501\n"), "entries are kept whole")
        #expect(!text.contains("\nprint 500\n"))
    }
}

@Suite("anim with piped standard input")
struct ReplPipedInputTests {
    static let demo = """
        stage 400 x 700
        rect square center (90,120) size (100,100) color red radius 7
        animate 1.0 < square.center = (310,120) >
        then < print "First corner" >

        """

    @Test func withoutATerminalAnimReadsAScriptFromStandardInput() throws {
        let piped = try runAnim([], stdin: ReplPipedInputTests.demo)
        let file = try runAnim(["run", "-"], stdin: ReplPipedInputTests.demo)
        #expect(piped.stdout == "[1.000] First corner\n")
        #expect(piped.stdout == file.stdout)
        #expect(piped.stderr == "")
        #expect(piped.exitCode == 0)
    }

    @Test func replWithoutATerminalReadsAScriptToo() throws {
        let r = try runAnim(["repl"], stdin: ReplPipedInputTests.demo)
        #expect(r.stdout == "[1.000] First corner\n")
        #expect(r.exitCode == 0)
    }

    @Test func aPipedScriptWithAnErrorFailsAsAFileWould() throws {
        let r = try runAnim([], stdin: "rect a center (0,0)\nanimate 1 < a.centre = (1,0) >\n")
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("error: unknown property 'centre'"))
    }
}
