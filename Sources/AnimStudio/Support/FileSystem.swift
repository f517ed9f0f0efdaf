// FileSystem: what the studio reads from disk — a script's bytes (with the errors `anim run`
// gives, in the system's words), the `.anim` files below a directory, absolute paths, and the
// stat fields the polling watcher compares.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AnimCore

/// File-system helpers.
public enum FileSystem {
    /// The bytes of a script, within `SourceFile.maxSize`; errors read `cannot read 'x': ...`.
    public static func readScript(_ path: String) -> Result<[UInt8], UsageError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(UsageError("cannot read '\(path)': \(errorText())")) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            return .failure(UsageError("cannot read '\(path)': it is a directory"))
        }
        if fstat(fd, &st) == 0, Int(st.st_size) > SourceFile.maxSize { return .failure(tooLarge(path)) }
        let bytes = readAll(fd: fd, limit: SourceFile.maxSize + 1)
        return bytes.count <= SourceFile.maxSize ? .success(bytes) : .failure(tooLarge(path))
    }

    /// The error for a script over the size limit.
    public static func tooLarge(_ path: String) -> UsageError {
        let what = path == "standard input" ? path : "'\(path)'"
        return UsageError("cannot read \(what): a script may be at most \(SourceFile.maxSize >> 20) MiB")
    }

    /// The bytes of a regular file, or nil if it is missing, unreadable or not a file.
    public static func contents(_ path: String, limit: Int = SourceFile.maxSize + 1) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return readAll(fd: fd, limit: limit)
    }

    /// Reads a descriptor to its end, or until at least `limit` bytes are read (a read error
    /// ends it early, like a closed stream).
    public static func readAll(fd: Int32, limit: Int = .max) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while out.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    /// Whether a path is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether a path exists.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The names in a directory, without `.` and `..` (empty if it cannot be read).
    public static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { out.append(name) }
        }
        return out
    }

    /// Every `.anim` file at or below `path` (hidden names skipped), sorted; `path` itself if
    /// it is not a directory.
    public static func scripts(under path: String) -> [String] {
        guard isDirectory(path) else { return [path] }
        var out: [String] = []
        for name in names(in: path) where !name.hasPrefix(".") {
            let full = join(path, name)
            if isDirectory(full) { out += scripts(under: full) } else if name.hasSuffix(".anim") { out.append(full) }
        }
        return out.sorted()
    }

    /// `path` and every directory below it (hidden ones skipped).
    public static func directories(under path: String) -> [String] {
        guard isDirectory(path) else { return [] }
        var out = [path]
        for name in names(in: path) where !name.hasPrefix(".") {
            let full = join(path, name)
            if isDirectory(full) { out += directories(under: full) }
        }
        return out
    }

    /// `dir/name`, without doubling a slash.
    public static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    /// An absolute path with `.` and `..` parts and doubled slashes resolved by text (links
    /// are not followed: the watcher watches the path the user named).
    public static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) != nil ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : "/"
            full = join(cwd, path)
        }
        var parts: [Substring] = []
        for p in full.split(separator: "/") {
            if p == "." || p.isEmpty { continue }
            if p == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(p)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The directory part of an absolute path (`/a/b` → `/a`, `/a` → `/`).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last part of a path.
    public static func baseName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// What the polling watcher compares: identity, size and times (nil if missing).
    public struct Signature: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var mode: UInt32
        var modified: Int64
        var changed: Int64
    }

    /// The signature of a path (nil if it does not exist).
    public static func signature(_ path: String) -> Signature? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        #if canImport(Glibc)
        let m = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let c = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #else
        let m = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        let c = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #endif
        return Signature(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size), mode: UInt32(st.st_mode),
                         modified: m, changed: c)
    }

    /// The wall-clock time in nanoseconds since 1970 (to compare with file times).
    public static func wallClock() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
