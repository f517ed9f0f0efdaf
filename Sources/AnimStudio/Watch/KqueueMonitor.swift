// KqueueMonitor: macOS's kqueue(2). A directory's vnode reports NOTE_WRITE when a name in it
// is created, removed or renamed (an editor's rename-over), but not when a file in it is
// written in place, so each watched file is opened too (O_EVTONLY) and reopened after every
// event, since a rename-over replaces the file it had open. kqueue names no file in a
// directory event: the watcher then reads every watched file of that directory.
#if os(macOS)
import Darwin

final class KqueueMonitor: ChangeMonitor {
    private let kq: Int32
    private let loop: EventLoop
    private var token: EventLoop.Token?
    /// Open descriptors: path → fd, and fd → (path, is a directory).
    private var open: [String: Int32] = [:]
    private var byDescriptor: [Int32: (path: String, directory: Bool)] = [:]
    private var wantedDirectories: Set<String> = []
    private var wantedFiles: Set<String> = []
    private var retry: EventLoop.Token?
    private let noted: (String, String?) -> Void

    static let retryInterval: Int64 = 500_000_000

    init(loop: EventLoop, noted: @escaping (String, String?) -> Void) throws(SystemError) {
        kq = kqueue()
        guard kq >= 0 else { throw SystemError("cannot create a kqueue") }
        self.loop = loop
        self.noted = noted
        token = loop.add(fd: kq) { [unowned self] _ in drain() }
    }

    deinit { close() }

    func close() {
        guard let t = token else { return }  // closed already
        loop.remove(t)
        token = nil
        for fd in open.values { Darwin.close(fd) }
        open = [:]
        byDescriptor = [:]
        if let r = retry { loop.cancel(r); retry = nil }
        Darwin.close(kq)
    }

    func watch(directories: Set<String>, files: Set<String>) {
        wantedDirectories = directories
        wantedFiles = files
        for (path, fd) in open where !directories.contains(path) && !files.contains(path) { forget(path, fd) }
        for d in directories where open[d] == nil { add(d, directory: true) }
        for f in files where open[f] == nil { add(f, directory: false) }
        scheduleRetry()
    }

    @discardableResult
    private func add(_ path: String, directory: Bool) -> Bool {
        let fd = Darwin.open(path, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        var change = kevent(ident: UInt(fd), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR),
                            fflags: UInt32(NOTE_WRITE | NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE | NOTE_EXTEND | NOTE_ATTRIB),
                            data: 0, udata: nil)
        guard kevent(kq, &change, 1, nil, 0, nil) == 0 else { Darwin.close(fd); return false }
        open[path] = fd
        byDescriptor[fd] = (path, directory)
        return true
    }

    private func forget(_ path: String, _ fd: Int32) {
        Darwin.close(fd)  // closing removes its kevents
        open[path] = nil
        byDescriptor[fd] = nil
    }

    private func scheduleRetry() {
        let missing = wantedDirectories.union(wantedFiles).filter { open[$0] == nil }
        guard retry == nil, !missing.isEmpty else { return }
        retry = loop.after(KqueueMonitor.retryInterval) { [unowned self] in
            retry = nil
            for d in wantedDirectories.sorted() where open[d] == nil && add(d, directory: true) { noted(d, nil) }
            for f in wantedFiles.sorted() where open[f] == nil && add(f, directory: false) {
                noted(FileSystem.directory(of: f), FileSystem.baseName(of: f))
            }
            scheduleRetry()
        }
    }

    private func drain() {
        var events = [kevent](repeating: kevent(), count: 64)
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        while true {
            let n = kevent(kq, nil, 0, &events, Int32(events.count), &zero)
            if n <= 0 { break }
            for e in events[0..<Int(n)] {
                let fd = Int32(e.ident)
                guard let entry = byDescriptor[fd] else { continue }
                let (path, isDirectory) = (entry.path, entry.directory)
                let gone = e.fflags & UInt32(NOTE_DELETE | NOTE_RENAME | NOTE_REVOKE) != 0
                if isDirectory {
                    if gone { forget(path, fd) }
                    noted(path, nil)
                } else {
                    // The file open now may not be the one at the path any more: reopen.
                    forget(path, fd)
                    add(path, directory: false)
                    noted(FileSystem.directory(of: path), FileSystem.baseName(of: path))
                }
            }
        }
        scheduleRetry()
    }
}
#endif
