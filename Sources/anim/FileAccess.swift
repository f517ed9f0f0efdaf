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

    static func errorText() -> String { String(cString: strerror(errno)) }
}
