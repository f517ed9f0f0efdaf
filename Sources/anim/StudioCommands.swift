// StudioCommands: `anim serve` and `anim watch` — their arguments, turned into AnimStudio's
// ServeOptions and WatchOptions; the studio does the rest.
@preconcurrency import Glibc
import AnimCore
import AnimStudio

extension StandardStreams: StudioConsole {
    var isTerminal: Bool { isatty(1) != 0 }
}

enum StudioCommands {
    /// The port `anim serve` uses unless told otherwise.
    static let defaultPort: UInt16 = 7878

    /// `anim serve FILE [--port N] [--host H] [--open] [--poll] [--debounce MS] [--fps N] [--until T] [--seed N]`.
    static func serve(_ args: [String]) -> ExitCode {
        var p = ArgumentReader(args, command: "serve")
        var port = defaultPort
        var host: String?
        var open = false, poll = false
        var debounce = FileWatcher.defaultDebounce
        var fps = 60
        var runFlags: [String] = []
        var positionals: [String] = []
        while let a = p.next() {
            switch a {
            case "--port": port = UInt16(p.whole(a, 0...65535))
            case "--host":
                let h = p.value(a)
                guard !h.isEmpty else { usageError("'--host' needs an address, such as 127.0.0.1 or 0.0.0.0", command: "serve") }
                host = h
            case "--open": open = true
            case "--poll": poll = true
            case "--debounce": debounce = Int64(p.whole(a, 0...10_000)) * 1_000_000
            case "--fps": fps = p.whole(a, 1...240)
            case "--until", "--seed": runFlags += [a, p.value(a)]
            default:
                if a.hasPrefix("-") && a != "-" {
                    let known = ["--port", "--host", "--open", "--poll", "--debounce", "--fps", "--until", "--seed"]
                    usageError("unknown option '\(a)' for serve" + DidYouMean.suffix(a, from: known), command: "serve")
                }
                positionals.append(a)
            }
        }
        let file = singleFile(positionals, command: "serve")
        var options = ServeOptions(file: file)
        options.session = sessionOptions(runFlags, command: "serve")
        options.fps = fps
        options.server.port = port
        if let host { options.server.host = host }
        options.watchMode = poll ? .polling : .native
        options.debounce = debounce
        options.openBrowser = open
        signal(SIGPIPE, SIG_IGN)
        let studio: LiveStudio
        do {
            studio = try LiveStudio(options: options, console: streams)
        } catch {
            switch error {
            case .portInUse(let h, let n, let free):
                let suggestion = free.map { "choose another port: anim serve \(file) --port \($0)" } ?? "choose another port with '--port N'"
                streams.standardError("""
                    anim: error: cannot serve on \(h):\(n): the port is in use (by another 'anim serve', or another program)
                    help: \(suggestion)

                    """)
            case .badHost(let h, let reason):
                streams.standardError("anim: error: cannot serve on '\(h)': \(reason)\nhelp: give an address of this machine, such as 127.0.0.1 (the default) or 0.0.0.0 for every interface\n")
            case .system(let e):
                streams.standardError("anim: error: \(e.message)\n")
            }
            return .usage
        }
        return studio.run()
    }

    /// `anim watch FILE [--run | --check] [flags]` and `anim watch --test PATH...`.
    static func watch(_ args: [String]) -> ExitCode {
        var p = ArgumentReader(args, command: "watch")
        var actions: [WatchOptions.Action] = []
        var poll = false, verbose = false
        var debounce = FileWatcher.defaultDebounce
        var runFlags: [String] = []
        var positionals: [String] = []
        let runOnly = ["--seed", "--fps", "--trace", "--no-time", "--json"]
        while let a = p.next() {
            switch a {
            case "--run": actions.append(.run)
            case "--check": actions.append(.check)
            case "--test": actions.append(.test)
            case "--poll": poll = true
            case "--debounce": debounce = Int64(p.whole(a, 0...10_000)) * 1_000_000
            case "--verbose", "-v": verbose = true
            case "--until", "--seed", "--fps", "--trace": runFlags += [a, p.value(a)]
            case "--no-time", "--json": runFlags.append(a)
            default:
                if a.hasPrefix("-") && a != "-" {
                    let known = ["--run", "--check", "--test", "--poll", "--debounce", "--verbose", "--until"] + runOnly
                    usageError("unknown option '\(a)' for watch" + DidYouMean.suffix(a, from: known), command: "watch")
                }
                positionals.append(a)
            }
        }
        guard Set(actions).count <= 1 else { usageError("'--run', '--check' and '--test' cannot be combined", command: "watch") }
        let action = actions.first ?? .run
        var options: WatchOptions
        switch action {
        case .run, .check:
            options = WatchOptions(paths: [singleFile(positionals, command: "watch")])
            if action == .check, let f = runFlags.first(where: { runOnly.contains($0) }) {
                usageError("'\(f)' is a run flag; '--check' takes only '--until'", command: "watch")
            }
            if verbose { usageError("'--verbose' goes with '--test'", command: "watch") }
            options.session = sessionOptions(runFlags, command: "watch")
        case .test:
            guard !positionals.isEmpty else { usageError("missing the tests to watch (files or directories)", command: "watch") }
            if let f = runFlags.first { usageError("'\(f)' does not go with '--test' (a test file sets its own flags in '#:' lines)", command: "watch") }
            for path in positionals where !FileSystem.exists(path) {
                usageError("cannot read '\(path)': \(String(cString: strerror(ENOENT)))")
            }
            options = WatchOptions(paths: positionals)
            options.verbose = verbose
        }
        options.action = action
        options.watchMode = poll ? .polling : .native
        // On a terminal, what a run prints shows as it happens (a long run is watched live).
        streams.lineBuffered = isatty(1) != 0
        options.debounce = debounce
        do {
            return try ScriptWatch(options: options, console: streams).run()
        } catch {
            streams.standardError("anim: error: \(error.message)\n")
            return .usage
        }
    }

    // MARK: - Helpers

    /// The one script of a command, which must be a readable file (not standard input).
    static func singleFile(_ positionals: [String], command: String) -> String {
        guard let f = positionals.first else { usageError("missing the script to \(command)", command: command) }
        if positionals.count > 1 { usageError("unexpected argument '\(positionals[1])' (one script at a time)", command: command) }
        if f == "-" { usageError("'anim \(command)' watches a file, so it cannot read standard input", command: command) }
        if case .failure(let e) = FileSystem.readScript(f) { usageError(e.message) }
        return f
    }

    /// Run flags as session options, colour on when standard error is a terminal.
    static func sessionOptions(_ flags: [String], command: String) -> SessionOptions {
        switch SessionOptions.parse(runFlags: flags) {
        case .success(var o):
            o.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
            return o
        case .failure(let e): usageError(e.message, command: command)
        }
    }
}

/// Walks a command's arguments: `--flag=value` is `--flag value`.
struct ArgumentReader {
    private let args: [String]
    private var i = 0
    private let command: String

    init(_ raw: [String], command: String) {
        args = raw.flatMap { a -> [String] in
            guard a.hasPrefix("--"), let eq = a.firstIndex(of: "=") else { return [a] }
            return [String(a[..<eq]), String(a[a.index(after: eq)...])]
        }
        self.command = command
    }

    /// The next argument.
    mutating func next() -> String? {
        guard i < args.count else { return nil }
        defer { i += 1 }
        return args[i]
    }

    /// The value after a flag.
    mutating func value(_ flag: String) -> String {
        guard let v = next() else { usageError("'\(flag)' needs a value", command: command) }
        return v
    }

    /// A whole number after a flag, within a range.
    mutating func whole(_ flag: String, _ range: ClosedRange<Int>) -> Int {
        let v = value(flag)
        guard let n = Int(v), range.contains(n) else {
            usageError("'\(flag)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(v)'", command: command)
        }
        return n
    }
}
