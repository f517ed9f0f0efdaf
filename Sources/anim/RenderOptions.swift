// RenderOptions: the arguments of `anim render`, `anim export`, `anim graph` and `anim timeline`
// — one parser for all four, each command saying which flags it takes — and loading the
// script's Timeline. Usage errors exit 2; a script that fails to run exits 1.
@preconcurrency import Glibc
import AnimCore

/// Parsed arguments of the picture commands.
struct RenderOptions {
    /// The script path (`-` for standard input).
    var file = ""
    /// `-o PATH`.
    var output: String?
    /// `--fps N` (frames, HTML samples, Lottie frame rate).
    var fps: Int?
    /// `--sheet N`: a contact sheet of N frames.
    var sheet: Int?
    /// `--columns N` for the sheet.
    var columns: Int?
    /// `--at T`: one PNG frame at this time.
    var at: Time?
    /// `--scale S`: pixels per stage unit for PNG frames, sheets, GIF and MP4.
    var scale: Double?
    /// `--lottie` (export format).
    var lottie = false
    /// `--width N` for the terminal chart.
    var width: Int?
    /// `--color` / `--no-color` for the terminal chart (nil: colour on a TTY).
    var color: Bool?
    /// Run flags passed on to the session (`--until`, `--seed`).
    var runFlags: [String] = []

    /// The flags each command accepts.
    static let accepted: [String: Set<String>] = [
        "render": ["-o", "--output", "--fps", "--sheet", "--columns", "--at", "--scale", "--until", "--seed"],
        "export": ["-o", "--output", "--fps", "--lottie", "--until", "--seed"],
        "graph": ["-o", "--output", "--until", "--seed"],
        "timeline": ["-o", "--output", "--width", "--color", "--no-color", "--until", "--seed"],
    ]

    /// Parses a command's arguments or exits with a usage error.
    static func parse(_ args: [String], command: String) -> RenderOptions {
        var o = RenderOptions()
        let accepted = Self.accepted[command] ?? []
        // `--fps=30` is `--fps 30`.
        let args = args.flatMap { a -> [String] in
            guard a.hasPrefix("--"), let eq = a.firstIndex(of: "=") else { return [a] }
            return [String(a[..<eq]), String(a[a.index(after: eq)...])]
        }
        var positionals: [String] = []
        var i = 0
        func value(_ flag: String) -> String {
            i += 1
            guard i < args.count else { usageError("'\(flag)' needs a value", command: command) }
            return args[i]
        }
        func whole(_ flag: String, _ range: ClosedRange<Int>) -> Int {
            let v = value(flag)
            guard let n = Int(v), range.contains(n) else {
                usageError("'\(flag)' takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(v)'", command: command)
            }
            return n
        }
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("-") && a != "-" {
                guard accepted.contains(a) else {
                    let known = accepted.sorted()
                    usageError("unknown option '\(a)' for \(command)" + DidYouMean.suffix(a, from: known), command: command)
                }
                switch a {
                case "-o", "--output": o.output = value(a)
                case "--fps": o.fps = whole(a, 1...240)
                case "--sheet": o.sheet = whole(a, 1...400)
                case "--columns": o.columns = whole(a, 1...100)
                case "--width": o.width = whole(a, 40...1000)
                case "--color": o.color = true
                case "--no-color": o.color = false
                case "--lottie": o.lottie = true
                case "--at":
                    let v = value(a)
                    guard let t = SessionOptions.parseTime(v), t >= .zero else {
                        usageError("'--at' takes a time such as 1.5, 1.5s or 300ms, not '\(v)'", command: command)
                    }
                    o.at = t
                case "--scale":
                    let v = value(a)
                    guard let s = Double(v), s > 0, s <= 8 else {
                        usageError("'--scale' takes a number above 0 and at most 8, not '\(v)'", command: command)
                    }
                    o.scale = s
                default:  // --until, --seed: checked by the session's own parser
                    o.runFlags += [a, value(a)]
                }
            } else {
                positionals.append(a)
            }
            i += 1
        }
        if case .failure(let e) = SessionOptions.parse(runFlags: o.runFlags) { usageError(e.message, command: command) }
        guard let f = positionals.first else { usageError("missing the script to \(command)", command: command) }
        if positionals.count > 1 { usageError("unexpected argument '\(positionals[1])' (one script at a time)", command: command) }
        o.file = f
        return o
    }

    /// Runs the script to its end keeping its history; exits 1 if it fails (diagnostics are
    /// already on standard error).
    func timeline(command: String) -> (Timeline, Session) {
        guard case .success(var options) = SessionOptions.parse(runFlags: runFlags) else { finish(.usage) }
        options.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
        if let f = fps { options.fps = f }
        let bytes = Commands.read(file)
        let session = Session(options: options, output: streams)
        guard let t = session.timeline(name: file == "-" ? "<stdin>" : file, bytes: bytes) else { finish(.failure) }
        return (t, session)
    }
}

/// Checks on output paths, made before any work so a bad path is a usage error.
enum OutputPath {
    /// The lower-cased extension of a path (`html`), or "" for none.
    static func fileExtension(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return "" }
        return base[base.index(after: dot)...].lowercased()
    }

    /// The directory that will hold `path`.
    static func parent(_ path: String) -> String {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        guard let slash = p.lastIndex(of: "/") else { return "." }
        return slash == p.startIndex ? "/" : String(p[..<slash])
    }

    /// Exits with a usage error unless a file can be created at `path`.
    static func requireWritable(_ path: String, command: String) {
        let dir = parent(path)
        guard FileAccess.isDirectory(dir) else {
            usageError("cannot write '\(path)': no such directory '\(dir)'", command: command)
        }
        guard access(dir, W_OK) == 0 else {
            usageError("cannot write '\(path)': \(FileAccess.errorText())", command: command)
        }
        if FileAccess.isDirectory(path) && !path.hasSuffix("/") && fileExtension(path) != "" {
            usageError("cannot write '\(path)': it is a directory", command: command)
        }
    }
}
