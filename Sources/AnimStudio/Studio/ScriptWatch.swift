// ScriptWatch: `anim watch FILE [--run | --check]` and `anim watch --test PATH...`, like
// `cargo watch`: on every change it clears the screen (on a terminal only), runs the script
// in-process through the Session API — as `anim run`, `anim check` or `anim test` would —
// and ends with a status line: the clock time, how it went and how long it took. Errors never
// end the watch; Ctrl-C (or SIGTERM) does, also in the middle of a run.
import AnimCore

/// The settings of `anim watch`.
public struct WatchOptions: Sendable {
    /// What each change runs.
    public enum Action: String, Sendable {
        /// `anim run FILE [flags]` (the default).
        case run
        /// `anim check FILE`.
        case check
        /// `anim test PATH...`.
        case test
    }

    /// What to do on a change.
    public var action = Action.run
    /// The script (run, check), or the files and directories of tests (test).
    public var paths: [String]
    /// The run's options (`--until`, `--seed`, `--fps`, `--trace`, `--no-time`, `--json`; colour).
    public var session = SessionOptions()
    /// `--verbose` for tests.
    public var verbose = false
    /// How files are watched.
    public var watchMode = FileWatcher.Mode.native
    /// Nanoseconds of quiet before a change is run.
    public var debounce: Int64 = FileWatcher.defaultDebounce

    /// Options for watching `paths`.
    public init(paths: [String]) { self.paths = paths }
}

/// The watch loop.
public final class ScriptWatch {
    private let options: WatchOptions
    private let console: StudioConsole
    private let loop: EventLoop
    private var watcher: FileWatcher!
    private var signals: SignalPipe?
    /// The signal count before the watch began (a run stops when it moves).
    private var signalsAtStart = 0

    /// Prepares the watch (nothing runs until `run()`).
    public init(options: WatchOptions, console: StudioConsole) throws(SystemError) {
        self.options = options
        self.console = console
        loop = try EventLoop()
        watcher = try FileWatcher(loop: loop, debounce: options.debounce, mode: options.watchMode) { [unowned self] _ in
            runOnce()
        }
        switch options.action {
        case .run, .check:
            watcher.watch(files: options.paths)
        case .test:
            let dirs = options.paths.filter(FileSystem.isDirectory)
            watcher.watch(files: options.paths.filter { !FileSystem.isDirectory($0) }, trees: dirs)
        }
    }

    /// Runs now, then after every change, until Ctrl-C or SIGTERM.
    public func run() -> ExitCode {
        do {
            signalsAtStart = SignalPipe.received
            signals = try SignalPipe(loop: loop) { [unowned self] _ in loop.stop() }
        } catch {
            console.standardError("anim: error: \(error.message)\n")
            return .usage
        }
        runOnce()
        loop.run()
        watcher.close()
        signals = nil
        console.standardError("\nanim watch: stopped\n")
        console.flush()
        return .success
    }

    /// One run, between a cleared screen and a status line.
    private func runOnce() {
        if SignalPipe.received != signalsAtStart { return }
        if console.isTerminal {
            // Home, clear the screen, clear the scrollback (xterm's E3), as cargo watch's -c does.
            console.standardOutput("\u{1B}[H\u{1B}[2J\u{1B}[3J")
        }
        console.flush()
        let start = MonotonicClock.now()
        let code = execute()
        let took = MonotonicClock.now() - start
        console.flush()
        status(code, took)
    }

    private func execute() -> ExitCode {
        switch options.action {
        case .test:
            return ScriptSuite.run(paths: options.paths, verbose: options.verbose, output: console)
        case .run, .check:
            let file = options.paths[0]
            guard let bytes = watcher.contents(of: file) else {
                let why: String
                if case .failure(let e) = FileSystem.readScript(file) { why = e.message } else { why = "cannot read '\(file)'" }
                console.standardError("anim: error: \(why)\n")
                return .usage
            }
            let session = Session(options: options.session, output: console)
            let base = signalsAtStart
            session.interpreter.shouldStop = { SignalPipe.received != base }
            let code: ExitCode
            if options.action == .run {
                code = session.run(name: file, bytes: bytes)
            } else {
                code = CheckSummary.check(name: file, bytes: bytes, session: session, output: console)
            }
            let loaded = SceneBuilder.loadedFiles(session, main: file)
            if Set(loaded) != Set(watcher.files) { watcher.watch(files: loaded) }
            return code
        }
    }

    /// `[14:03:12] ok in 12 ms; watching demo.anim (Ctrl-C stops)`.
    private func status(_ code: ExitCode, _ ns: Int64) {
        let what: String
        switch options.action {
        case .run, .check: what = options.paths[0]
        case .test:
            let n = watcher.files.count
            what = "\(n) script\(n == 1 ? "" : "s") below \(options.paths.joined(separator: ", "))"
        }
        if SignalPipe.received != signalsAtStart {
            console.standardError("[\(WallClock.timeOfDay())] interrupted after \(WallClock.duration(ns))\n")
            return
        }
        let ok = code == .success
        var verdict = ok ? "ok" : "failed (exit \(code.rawValue))"
        if options.session.color { verdict = (ok ? "\u{1B}[1;32m" : "\u{1B}[1;31m") + verdict + "\u{1B}[0m" }
        console.standardError("[\(WallClock.timeOfDay())] \(verdict) in \(WallClock.duration(ns)); watching \(what) (Ctrl-C stops)\n")
        console.flush()
    }
}
