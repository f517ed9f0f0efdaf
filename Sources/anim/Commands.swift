// Commands: `anim run`, `anim check` and `anim test` — argument handling and file reading
// around the Session API.
@preconcurrency import Glibc
import AnimCore
import AnimStudio

enum Commands {
    /// Splits `<file> [flags]` (the file may come anywhere), or exits with a usage error.
    /// Flags are validated first, so a misspelt flag is named rather than its value.
    static func fileAndFlags(_ args: [String], command: String) -> (String, [String]) {
        var positionals: [String] = []
        var flags: [String] = []
        var i = 0
        let takesValue: Set<String> = ["--until", "--seed", "--fps", "--trace"]
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("--") {
                flags.append(a)
                if takesValue.contains(a), i + 1 < args.count { flags.append(args[i + 1]); i += 1 }
            } else if a.hasPrefix("-") && a != "-" {
                usageError("unknown option '\(a)'", command: command)
            } else {
                positionals.append(a)
            }
            i += 1
        }
        if case .failure(let e) = SessionOptions.parse(runFlags: flags) { usageError(e.message, command: command) }
        guard let f = positionals.first else { usageError("missing the script to \(command)", command: command) }
        if positionals.count > 1 { usageError("unexpected argument '\(positionals[1])' (one script at a time)", command: command) }
        return (f, flags)
    }

    static func options(_ flags: [String], command: String) -> SessionOptions {
        switch SessionOptions.parse(runFlags: flags) {
        case .success(var o):
            o.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
            return o
        case .failure(let e): usageError(e.message, command: command)
        }
    }

    static func read(_ path: String) -> [UInt8] {
        switch FileAccess.read(path) {
        case .success(let b): return b
        case .failure(let e): usageError(e.message)
        }
    }

    /// `anim run FILE [flags]`: runs the script and ends the process.
    static func run(_ args: [String]) -> Never {
        let (file, flags) = fileAndFlags(args, command: "run")
        let options = options(flags, command: "run")
        let bytes = read(file)
        let session = Session(options: options, output: streams)
        let code = session.run(name: file == "-" ? "<stdin>" : file, bytes: bytes)
        // Exit with the session alive: the system takes its memory back at once, where freeing
        // a large script's graphs and history object by object would take longer than running it.
        finish(code)
    }

    /// `anim check FILE [--until T] [--dump tokens|ast|graph]`.
    static func check(_ args: [String]) -> ExitCode {
        var args = args
        var dump: DumpKind?
        if let i = args.firstIndex(where: { $0 == "--dump" || $0.hasPrefix("--dump=") }) {
            let value: String
            if args[i] == "--dump" {
                guard i + 1 < args.count else { usageError("'--dump' takes tokens, ast or graph", command: "check") }
                value = args[i + 1]
                args.removeSubrange(i...(i + 1))
            } else {
                value = String(args[i].dropFirst(7))
                args.remove(at: i)
            }
            guard let k = DumpKind(rawValue: value) else {
                usageError("'--dump' takes tokens, ast or graph, not '\(value)'", command: "check")
            }
            dump = k
        }
        let (file, flags) = fileAndFlags(args, command: "check")
        for f in flags where f.hasPrefix("--") && f != "--until" && !f.hasPrefix("--until=") {
            usageError("unknown option '\(f)' for check", command: "check")
        }
        let options = options(flags, command: "check")
        let session = Session(options: options, output: streams)
        let name = file == "-" ? "<stdin>" : file
        if let k = dump {
            let (text, code) = session.dump(k, name: name, bytes: read(file))
            streams.standardOutput(text)
            return code
        }
        // The process exits right after: the session (a long script's tree, statements, graphs
        // and timing run) is left for the exit to reclaim, not freed piece by piece (15 M
        // instructions on a 5,000-line script, callgrind).
        _ = Unmanaged.passRetained(session)
        return CheckSummary.check(name: name, bytes: read(file), session: session, output: streams)
    }

    /// `anim test PATH... [--verbose]`.
    static func test(_ args: [String]) -> ExitCode {
        var verbose = false
        var paths: [String] = []
        for a in args {
            if a == "--verbose" || a == "-v" { verbose = true } else if a.hasPrefix("-") {
                usageError("unknown option '\(a)'", command: "test")
            } else { paths.append(a) }
        }
        guard !paths.isEmpty else { usageError("missing the tests to run (files or directories)", command: "test") }
        for p in paths where !FileAccess.exists(p) {
            usageError("cannot read '\(p)': \(String(cString: strerror(ENOENT)))")
        }
        return ScriptSuite.run(paths: paths, verbose: verbose, output: streams)
    }
}
