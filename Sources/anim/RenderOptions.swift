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
    /// `--lottie`: export's format, which it requires.
    var lottie = false
    /// `--format F` (render, timeline): the output's format, for an output whose name does not
    /// say it (a device such as /dev/stdout, a pipe, a name without an extension).
    var format: String?
    /// `--width N` for the terminal chart.
    var width: Int?
    /// `--color` / `--no-color` for the terminal chart (nil: colour on a TTY).
    var color: Bool?
    /// `-j N` / `--jobs N`: threads drawing frames (nil: every processor).
    var jobs: Int?
    /// `--frames A-B`: only these frames of the run (by number at --fps).
    var frames: FrameSelection.Frames?
    /// `--shard I/N` or `--shard auto/N`: the I-th of N equal parts of the frames.
    var shard: FrameSelection.Shard?
    /// Run flags passed on to the session (`--until`, `--seed`).
    var runFlags: [String] = []

    /// The flags each command accepts.
    static let accepted: [String: Set<String>] = [
        "render": ["-o", "--output", "--format", "--fps", "--sheet", "--columns", "--at", "--scale", "-j", "--jobs",
                   "--frames", "--shard", "--until", "--seed"],
        "export": ["-o", "--output", "--fps", "--lottie", "--until", "--seed"],
        "graph": ["-o", "--output", "--until", "--seed"],
        "timeline": ["-o", "--output", "--format", "--width", "--color", "--no-color", "--until", "--seed"],
    ]

    /// The formats `--format` names, per command, each with the extension of its files.
    static let formats: [String: [(name: String, ext: String)]] = [
        "render": [("html", "html"), ("svg", "svg"), ("png", "png"), ("gif", "gif"), ("mp4", "mp4")],
        "timeline": [("txt", "txt"), ("svg", "svg")],
        "export": [("lottie", "json")],
    ]

    /// `html, svg, png, gif or mp4`.
    static func formatList(_ command: String) -> String {
        let names = (formats[command] ?? []).map(\.name)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

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
                if command == "export", !accepted.contains(a), a.hasPrefix("--"),
                   ["html", "svg", "png", "gif", "mp4", "dot", "txt", "json"].contains(String(a.dropFirst(2))) {
                    usageError("'\(a)' is not an export format: export writes Lottie documents (--lottie); "
                               + "for pictures and charts, see 'anim render', 'anim graph' and 'anim timeline'", command: command)
                }
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
                case "--format":
                    let v = value(a)
                    guard (formats[command] ?? []).contains(where: { $0.name == v }) else {
                        usageError("'--format' takes \(formatList(command)), not '\(v)'", command: command)
                    }
                    o.format = v
                case "--at":
                    let v = value(a)
                    guard let t = SessionOptions.parseTime(v), t >= .zero else {
                        usageError("'--at' takes a time such as 1.5, 1.5s or 300ms, not '\(v)'", command: command)
                    }
                    o.at = t
                case "-j", "--jobs": o.jobs = whole(a, 1...1024)
                case "--frames":
                    let v = value(a)
                    guard let f = FrameSelection.Frames(v) else {
                        usageError("'--frames' takes frame numbers A-B (0-99), A- (from A to the end) or one frame A, not '\(v)'", command: command)
                    }
                    o.frames = f
                case "--shard":
                    let v = value(a)
                    switch FrameSelection.Shard.parse(v, environment: { getenv($0).map { String(cString: $0) } }) {
                    case .success(let s): o.shard = s
                    case .failure(let e): usageError(e.message, command: command)
                    }
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

/// Which of a run's frames to draw: `--frames A-B`, then `--shard I/N` of those. Frames are
/// numbered in the whole run (frame k at k/fps), so the shards of any N together are exactly
/// the frames one render draws, each once.
struct FrameSelection {
    /// `--frames A-B`, `A-` or `A`.
    struct Frames {
        var first: Int64
        /// nil: to the run's last frame.
        var last: Int64?

        init?(_ text: String) {
            let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let a = Int64(parts[0]), a >= 0, parts[0].allSatisfy(\.isNumber) else { return nil }
            first = a
            if parts.count == 1 {
                last = a
            } else if parts[1].isEmpty {
                last = nil
            } else {
                guard parts[1].allSatisfy(\.isNumber), let b = Int64(parts[1]), b >= a else { return nil }
                last = b
            }
        }
    }

    /// `--shard I/N`: part I (from 0) of N.
    struct Shard: CustomStringConvertible {
        var index: Int64
        var count: Int64
        /// The environment variable the index came from (`--shard auto/N`), if any.
        var source: String?

        var description: String { "\(index)/\(count)" }

        /// The environment variables `auto` reads, in order: Kubernetes Indexed Jobs, AWS
        /// Batch array jobs. Both number from 0.
        static let variables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]

        /// Parses `I/N` or `auto/N` (the index from `environment`).
        static func parse(_ text: String, environment: (String) -> String?) -> Result<Shard, UsageError> {
            let form = "'--shard' takes I/N, shard I of N counted from 0 (0/4 … 3/4), or auto/N, not '\(text)'"
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].allSatisfy(\.isNumber), let n = Int64(parts[1]), n >= 1, n <= 100_000 else {
                return .failure(UsageError(parts.count == 2 && Int64(parts[1]).map { $0 > 100_000 } == true
                                           ? "'--shard' takes at most 100000 shards, not \(parts[1])" : form))
            }
            if parts[0] == "auto" {
                // An empty variable counts as unset.
                let set = variables.compactMap { v in environment(v).flatMap { $0.isEmpty ? nil : (v, $0) } }
                guard let (name, value) = set.first else {
                    return .failure(UsageError("'--shard auto/\(n)' reads the shard index from JOB_COMPLETION_INDEX (Kubernetes "
                                               + "Indexed Jobs) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array jobs), and neither is set"))
                }
                if set.count > 1 && set[1].1 != value {
                    return .failure(UsageError("'--shard auto/\(n)': JOB_COMPLETION_INDEX is '\(value)' but AWS_BATCH_JOB_ARRAY_INDEX "
                                               + "is '\(set[1].1)'; give the shard as I/\(n)"))
                }
                guard value.allSatisfy(\.isNumber), let i = Int64(value), i < n else {
                    return .failure(UsageError("'--shard auto/\(n)': \(name) is '\(value)', not a shard index from 0 to \(n - 1)"))
                }
                return .success(Shard(index: i, count: n, source: name))
            }
            guard parts[0].allSatisfy(\.isNumber), let i = Int64(parts[0]) else { return .failure(UsageError(form)) }
            guard i < n else {
                return .failure(UsageError("'--shard \(text)': shards are counted from 0, so of \(n) the last is \(n - 1)/\(n)"))
            }
            return .success(Shard(index: i, count: n, source: nil))
        }
    }

    var frames: Frames?
    var shard: Shard?

    /// The frames to draw of a run whose frames are `all`: those of `--frames` the run has,
    /// then this shard's consecutive part of them (shard i of n takes frames
    /// ⌊F·i/n⌋ … ⌊F·(i+1)/n⌋ − 1 of the F selected). Nil when that is none.
    func range(of all: ClosedRange<Int64>) -> ClosedRange<Int64>? {
        var lo = all.lowerBound, hi = all.upperBound
        if let f = frames {
            lo = max(lo, f.first)
            hi = min(hi, f.last ?? hi)
        }
        guard lo <= hi else { return nil }
        if let s = shard {
            let total = hi - lo + 1
            let (a, b) = (lo + total * s.index / s.count, lo + total * (s.index + 1) / s.count - 1)
            guard a <= b else { return nil }
            (lo, hi) = (a, b)
        }
        return lo...hi
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

    /// Whether `path` names something that is not a file or directory: a device such as
    /// /dev/stdout, a pipe or a socket. It is written directly (AtomicFile), and its name says
    /// nothing about the format.
    static func isDevice(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        let type = st.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// The format of an output file: the one `flag` names (`--format`, export's `--lottie`),
    /// else the one its extension names. Exits with a usage error when they disagree or
    /// neither says (or, given `missing`, when the flag is absent: export). A device's name is
    /// not read for an extension.
    static func format(of path: String, flag: String?, command: String, missing: String? = nil) -> String {
        let formats = RenderOptions.formats[command] ?? []
        let device = isDevice(path)
        let ext = device ? "" : fileExtension(path)
        if let f = flag {
            let expected = formats.first { $0.name == f }?.ext ?? f
            if !ext.isEmpty && ext != expected {
                let named = command == "export" ? "--lottie" : "'--format \(f)'"
                usageError("'\(path)' ends in '.\(ext)', which does not match \(named): name it '.\(expected)'", command: command)
            }
            return f
        }
        if let missing { usageError("missing the format: add \(missing)", command: command) }
        let list = RenderOptions.formatList(command)
        if device { usageError("'\(path)' is not a file, so its name cannot tell the format: add --format \(list)", command: command) }
        let extensions = formats.map { "." + $0.ext }
        let choices = extensions.dropLast().joined(separator: ", ") + " or " + extensions.last!
            + (command == "render" ? ", or end a directory with '/' for PNG frames" : "")
        guard !ext.isEmpty else {
            usageError("'\(path)' has no extension; use \(choices), or name the format with --format \(list)", command: command)
        }
        guard let f = formats.first(where: { $0.ext == ext }) else {
            usageError("unknown output format '.\(ext)'; use \(choices)", command: command)
        }
        return f.name
    }

    /// Exits with a usage error unless a file can be created at `path` (or, for a device or
    /// pipe, written).
    static func requireWritable(_ path: String, command: String) {
        if isDevice(path) {
            guard access(path, W_OK) == 0 else { usageError("cannot write '\(path)': \(FileAccess.errorText())", command: command) }
            return
        }
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
