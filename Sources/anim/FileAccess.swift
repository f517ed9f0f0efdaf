// FileAccess: reading scripts (files or standard input) with errors that say what went wrong
// in the words of the system (`No such file or directory`). The file-system work itself is
// AnimStudio's FileSystem, shared with `anim watch` and `anim serve`.
@preconcurrency import Glibc
import AnimCore
import AnimStudio

enum FileAccess {
    /// The bytes of a file, or `-` for standard input.
    static func read(_ path: String) -> Result<[UInt8], UsageError> {
        guard path == "-" else { return FileSystem.readScript(path) }
        let bytes = readAll(fd: 0, limit: SourceFile.maxSize + 1)
        return bytes.count <= SourceFile.maxSize ? .success(bytes) : .failure(FileSystem.tooLarge("standard input"))
    }

    /// Reads a descriptor to its end, or until at least `limit` bytes are read (a read error
    /// ends it early, like a closed stream).
    static func readAll(fd: Int32, limit: Int = .max) -> [UInt8] { FileSystem.readAll(fd: fd, limit: limit) }

    /// Whether a path is a directory.
    static func isDirectory(_ path: String) -> Bool { FileSystem.isDirectory(path) }

    /// Whether a path exists.
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// The names in a directory (not `.` and `..`); none if it cannot be read.
    static func names(in path: String) -> [String] { FileSystem.names(in: path) }

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
