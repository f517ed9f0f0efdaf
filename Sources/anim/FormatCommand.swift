// FormatCommand: `anim fmt FILE... [--check] [-w]` — argument handling and file I/O around
// Session.format. A rewrite is atomic: the formatted bytes go to a temporary file in the same
// directory, with the original's permissions, which is then renamed over the original; any
// failure before the rename leaves the original as it was.
@preconcurrency import Glibc
import AnimCore

enum FormatCommand {
    enum Mode { case print, write, check }

    /// Formats each file; the exit code: 1 if a file has syntax errors or (`--check`) would
    /// change, 2 if one cannot be read or written.
    static func run(_ args: [String]) -> ExitCode {
        var mode = Mode.print
        var files: [String] = []
        for a in args {
            switch a {
            case "-w", "--write":
                guard mode != .check else { usageError("'--check' and '-w' cannot be combined", command: "fmt") }
                mode = .write
            case "--check":
                guard mode != .write else { usageError("'--check' and '-w' cannot be combined", command: "fmt") }
                mode = .check
            case "-": files.append(a)
            default:
                if a.hasPrefix("-") { usageError("unknown option '\(a)'", command: "fmt") }
                files.append(a)
            }
        }
        guard !files.isEmpty else { usageError("missing the scripts to format", command: "fmt") }
        if mode == .write, files.contains("-") { usageError("'-w' cannot write standard input back", command: "fmt") }
        var code = ExitCode.success
        var failedIO = false
        for path in files {
            let bytes: [UInt8]
            switch FileAccess.read(path) {
            case .success(let b): bytes = b
            case .failure(let e):
                streams.standardError("anim: error: \(e.message)\n")
                failedIO = true
                continue
            }
            var options = SessionOptions()
            options.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
            let session = Session(options: options, output: streams)
            guard let out = session.format(name: path == "-" ? "<stdin>" : path, bytes: bytes) else {
                code = .failure
                continue
            }
            switch mode {
            case .print:
                streams.standardOutput(String(decoding: out, as: UTF8.self))
            case .check:
                if out != bytes {
                    streams.standardOutput(path + "\n")
                    code = .failure
                }
            case .write:
                guard out != bytes else { continue }
                if let e = replace(path, with: out) {
                    streams.standardError("anim: error: cannot write '\(path)': \(e)\n")
                    failedIO = true
                }
            }
        }
        return failedIO ? .usage : code
    }

    /// Writes `bytes` over the file at `path` atomically, keeping its permissions; the
    /// system's words for a failure, or nil.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return FileAccess.errorText() }
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(dir).\(base).fmt-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return FileAccess.errorText() }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail() -> String {
            let e = FileAccess.errorText()
            close(fd)
            unlink(temp)
            return e
        }
        guard fchmod(fd, info.st_mode & 0o7777) == 0 else { return fail() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if n == 0 { errno = EIO }
                return fail()
            }
            offset += n
        }
        guard fsync(fd) == 0 || errno == EINVAL else { return fail() }
        guard close(fd) == 0 else { unlink(temp); return FileAccess.errorText() }
        guard rename(temp, path) == 0 else {
            let e = FileAccess.errorText()
            unlink(temp)
            return e
        }
        return nil
    }
}
