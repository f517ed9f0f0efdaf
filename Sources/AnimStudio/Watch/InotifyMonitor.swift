// InotifyMonitor: Linux's inotify(7) on directories. Every create, write, close-after-write,
// rename in or out, delete and attribute change of a name in a watched directory is noted;
// the watcher filters the names it cares about. A directory that disappears (or is renamed
// away) loses its watch; it is tried again every half second and, once back, everything in it
// is noted. A queue overflow (IN_Q_OVERFLOW: events were lost) makes the watcher read all.
#if os(Linux)
@preconcurrency import Glibc

final class InotifyMonitor: ChangeMonitor {
    private let fd: Int32
    private let loop: EventLoop
    private var token: EventLoop.Token?
    private var byDescriptor: [Int32: String] = [:]
    private var byDirectory: [String: Int32] = [:]
    /// Directories asked for that could not be watched yet (missing).
    private var missing: Set<String> = []
    private var retry: EventLoop.Token?
    private let noted: (String, String?) -> Void
    private let overflowed: () -> Void

    /// How often a missing directory is tried again.
    static let retryInterval: Int64 = 500_000_000

    static let mask: UInt32 = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK)

    init(loop: EventLoop, noted: @escaping (String, String?) -> Void, overflowed: @escaping () -> Void) throws(SystemError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("cannot start inotify") }
        self.fd = fd
        self.loop = loop
        self.noted = noted
        self.overflowed = overflowed
        token = loop.add(fd: fd) { [unowned self] _ in drain() }
    }

    deinit { close() }

    func close() {
        if let t = token { loop.remove(t); token = nil; Glibc.close(fd) }
        if let r = retry { loop.cancel(r); retry = nil }
    }

    func watch(directories: Set<String>, files: Set<String>) {
        for (dir, wd) in byDirectory where !directories.contains(dir) {
            inotify_rm_watch(fd, wd)
            byDirectory[dir] = nil
            byDescriptor[wd] = nil
        }
        missing = missing.intersection(directories)
        for dir in directories where byDirectory[dir] == nil { add(dir) }
        scheduleRetry()
    }

    /// Watches a directory; true if it could be.
    @discardableResult
    private func add(_ dir: String) -> Bool {
        let wd = inotify_add_watch(fd, dir, InotifyMonitor.mask)
        guard wd >= 0 else { missing.insert(dir); return false }
        missing.remove(dir)
        byDirectory[dir] = wd
        byDescriptor[wd] = dir
        return true
    }

    private func scheduleRetry() {
        guard retry == nil, !missing.isEmpty else { return }
        retry = loop.after(InotifyMonitor.retryInterval) { [unowned self] in
            retry = nil
            for dir in missing.sorted() where add(dir) { noted(dir, nil) }
            scheduleRetry()
        }
    }

    /// Reads every queued event.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed(); continue }
                guard let dir = byDescriptor[wd] else { continue }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    // The directory itself went: its files are gone with it, and it is tried again.
                    if mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(fd, wd) }
                    byDescriptor[wd] = nil
                    byDirectory[dir] = nil
                    missing.insert(dir)
                    noted(dir, nil)
                    continue
                }
                noted(dir, nameBytes.isEmpty ? nil : String(decoding: nameBytes, as: UTF8.self))
            }
        }
        scheduleRetry()
    }
}
#endif
