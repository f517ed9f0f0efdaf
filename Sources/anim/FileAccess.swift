// FileAccess: reading scripts (files, directories of tests, standard input) with errors that
// say what went wrong in the words of the system (`No such file or directory`).
@preconcurrency import Glibc
import AnimCore

enum FileAccess {
    /// The bytes of a file, or `-` for standard input.
    static func read(_ path: String) -> Result<[UInt8], UsageError> {
        if path == "-" { return limited(readAll(fd: 0, limit: SourceFile.maxSize + 1), "standard input") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(UsageError("cannot read '\(path)': \(errorText())")) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            return .failure(UsageError("cannot read '\(path)': it is a directory"))
        }
        if fstat(fd, &st) == 0, Int(st.st_size) > SourceFile.maxSize { return limited(nil, path) }
        return limited(readAll(fd: fd, limit: SourceFile.maxSize + 1), path)
    }

    /// A script within `SourceFile.maxSize`, or the error that says it is too large.
    private static func limited(_ bytes: [UInt8]?, _ path: String) -> Result<[UInt8], UsageError> {
        if let bytes, bytes.count <= SourceFile.maxSize { return .success(bytes) }
        let what = path == "standard input" ? path : "'\(path)'"
        return .failure(UsageError("cannot read \(what): a script may be at most \(SourceFile.maxSize >> 20) MiB"))
    }

    /// Reads a descriptor to its end, or until at least `limit` bytes are read (a read error
    /// ends it early, like a closed stream).
    static func readAll(fd: Int32, limit: Int = .max) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// Whether a path is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether a path exists.
    static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// Every `.anim` file at or below `path`, sorted.
    static func scripts(under path: String) -> [String] {
        guard isDirectory(path) else { return [path] }
        var out: [String] = []
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasPrefix(".") { continue }
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if isDirectory(full) { out += scripts(under: full) } else if name.hasSuffix(".anim") { out.append(full) }
        }
        return out.sorted()
    }

    /// The names in a directory (not `.` and `..`); none if it cannot be read.
    static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// Creates a file that must not exist yet and writes `bytes` to it, synced to the disk;
    /// the system's words for a failure, or nil. Safe from any thread.
    static func writeNew(_ bytes: ArraySlice<UInt8>, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errorText() }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                let e = n == 0 ? "nothing was written" : errorText()
                close(fd)
                return e
            }
            offset += n
        }
        guard fsync(fd) == 0 || errno == EINVAL else {
            let e = errorText()
            close(fd)
            return e
        }
        return close(fd) == 0 ? nil : errorText()
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
