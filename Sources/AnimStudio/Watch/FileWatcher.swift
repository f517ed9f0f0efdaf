// FileWatcher: tells when watched files change — by watching their DIRECTORIES, because editors
// save by writing a temporary file and renaming it over the old one, which a watch on the old
// file (its inode) would never see. A monitor (inotify on Linux, kqueue on macOS, or polling)
// says which names in which directories may have changed; the watcher waits until the files
// have been quiet for the debounce interval, reads them, and reports those whose bytes differ
// from the bytes it last reported.
//
// "Exactly once", precisely: a change is reported when a file's bytes, read once it has been
// quiet for the debounce interval, differ from the bytes last reported for it (a file that is
// missing has "no bytes", so a deletion is a change and so is the file coming back). So:
// - no doubles: two reports in a row never carry the same bytes for a file, and a save that
//   does not change the bytes reports nothing;
// - none missed: once saves stop, the bytes then in the file are always reported (or were
//   already the last reported), at most the debounce interval (plus a read) after the last save;
// - saves closer together than the interval are one change, carrying the last save's bytes;
//   a stream of saves that never pauses is still reported at least every `maxLatency`.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Says which paths may have changed; the watcher reads them to know.
protocol ChangeMonitor: AnyObject {
    /// Watches these directories, and (for polling) these files; replaces the previous set.
    func watch(directories: Set<String>, files: Set<String>)
    /// Stops watching everything.
    func close()
}

/// Watches files and trees of files for changes of their bytes.
public final class FileWatcher {
    /// How changes are noticed.
    public enum Mode: String, Sendable {
        /// inotify (Linux) or kqueue (macOS).
        case native
        /// Comparing each file's stat fields every `pollInterval` (`--poll`).
        case polling
    }

    /// A file whose bytes changed: its path as given, and its bytes now (nil: missing or unreadable).
    public struct Change: Hashable, Sendable {
        /// The path, as given to `watch` (or found below a watched tree).
        public var path: String
        /// The file's bytes now; nil when it does not exist or cannot be read.
        public var contents: [UInt8]?
    }

    /// The default debounce: 50 ms. An editor's save (temporary file, write, rename, attribute
    /// changes) comes as a burst of events within a millisecond or two; 50 ms takes in a whole
    /// burst, and "save all" across files, with room to spare, and is still well under what a
    /// person notices between pressing save and seeing the result.
    public static let defaultDebounce: Int64 = 50_000_000
    /// The default interval of `--poll`: 100 ms.
    public static let defaultPollInterval: Int64 = 100_000_000

    /// Nanoseconds of quiet before changes are read and reported.
    public let debounce: Int64
    /// Nanoseconds at most between the first unreported event and its report, while events keep
    /// coming closer together than `debounce`.
    public let maxLatency: Int64
    /// The mode in use (polling where there is no native monitor).
    public private(set) var mode = Mode.native

    private let loop: EventLoop
    private let onChange: ([Change]) -> Void
    private var monitor: ChangeMonitor!
    private var entries: [String: Entry] = [:]
    private var trees: [(absolute: String, given: String)] = []
    private var suffix = ".anim"
    private var dirty: Set<String> = []
    private var rescan = false
    private var firstPending: Int64?
    private var timer: EventLoop.Token?

    private struct Entry {
        var given: String
        var contents: [UInt8]?
        /// Found below a tree (dropped once it is gone and reported), not named on its own.
        var fromTree: Bool
    }

    /// A watcher on `loop`; `onChange` gets every batch of changes, on the loop.
    /// `debounce` and `pollInterval` are nanoseconds.
    public init(loop: EventLoop, debounce: Int64 = FileWatcher.defaultDebounce, mode: Mode = .native,
                pollInterval: Int64 = FileWatcher.defaultPollInterval,
                onChange: @escaping ([Change]) -> Void) throws(SystemError) {
        self.loop = loop
        self.debounce = max(0, debounce)
        maxLatency = max(10 * self.debounce, 1_000_000_000)
        self.onChange = onChange
        var chosen = mode
        if mode == .native {
            #if os(Linux)
            monitor = try InotifyMonitor(loop: loop, noted: { [unowned self] in self.noted($0, $1) },
                                         overflowed: { [unowned self] in self.overflowed() })
            #elseif os(macOS)
            monitor = try KqueueMonitor(loop: loop, noted: { [unowned self] in self.noted($0, $1) })
            #else
            chosen = .polling
            #endif
        }
        if chosen == .polling {
            monitor = PollingMonitor(loop: loop, interval: max(1_000_000, pollInterval),
                                     noted: { [unowned self] in self.noted($0, $1) })
        }
        self.mode = chosen
    }

    deinit { close() }

    /// Stops watching.
    public func close() {
        monitor?.close()
        if let t = timer { loop.cancel(t); timer = nil }
    }

    // MARK: - What is watched

    /// Watches these files, and every file ending in `suffix` at or below these directories;
    /// replaces what was watched before. Files new to the watcher are read now: their bytes
    /// are the baseline (no change is reported for them).
    public func watch(files: [String], trees: [String] = [], suffix: String = ".anim") {
        self.suffix = suffix
        self.trees = trees.map { (FileSystem.absolute($0), $0) }
        var wanted: [String: String] = [:]
        for f in files { wanted[FileSystem.absolute(f)] = f }
        for (abs, given) in treeFiles() where wanted[abs] == nil { wanted[abs] = given }
        for key in entries.keys where wanted[key] == nil { entries[key] = nil }
        // Watch first, then read: a save in between is then seen as a change, not lost.
        monitor.watch(directories: directoriesToWatch(files: Set(wanted.keys)), files: Set(wanted.keys))
        for (abs, given) in wanted where entries[abs] == nil {
            entries[abs] = Entry(given: given, contents: FileSystem.contents(abs), fromTree: !files.contains(given))
        }
    }

    /// The bytes last read of a watched file (nil if it was missing, or is not watched).
    public func contents(of path: String) -> [UInt8]? {
        entries[FileSystem.absolute(path)]?.contents ?? nil
    }

    /// The watched files as given, sorted.
    public var files: [String] { entries.values.map(\.given).sorted() }

    /// The files below the trees: (absolute path, path as the user would write it).
    private func treeFiles() -> [(String, String)] {
        trees.flatMap { root in
            FileSystem.scripts(under: root.given).filter { $0.hasSuffix(suffix) && !FileSystem.isDirectory($0) }.map { (FileSystem.absolute($0), $0) }
        }
    }

    private func directoriesToWatch(files: Set<String>) -> Set<String> {
        var dirs = Set(files.map(FileSystem.directory(of:)))
        for root in trees {
            // A tree that does not exist yet is watched from its parent, so it is seen arriving.
            let found = FileSystem.directories(under: root.absolute)
            if found.isEmpty { dirs.insert(FileSystem.directory(of: root.absolute)) } else { dirs.formUnion(found) }
        }
        return dirs
    }

    private func isInTree(_ dir: String) -> Bool {
        trees.contains { dir == $0.absolute || dir.hasPrefix($0.absolute == "/" ? "/" : $0.absolute + "/")
            || $0.absolute.hasPrefix(dir == "/" ? "/" : dir + "/") }
    }

    // MARK: - Events

    /// A monitor says `name` in `directory` may have changed (nil: anything in it).
    private func noted(_ directory: String, _ name: String?) {
        if let name {
            let full = FileSystem.join(directory, name)
            if entries[full] != nil { dirty.insert(full) }
            // A script or a directory came or went below a tree (a directory that went says so
            // itself, through its own watch).
            if isInTree(directory) && (name.hasSuffix(suffix) || FileSystem.isDirectory(full)) { rescan = true }
        } else {
            for key in entries.keys where FileSystem.directory(of: key) == directory { dirty.insert(key) }
            if isInTree(directory) { rescan = true }
        }
        guard !dirty.isEmpty || rescan else { return }
        schedule()
    }

    /// The monitor lost events (its queue overflowed): read everything again.
    private func overflowed() {
        dirty.formUnion(entries.keys)
        rescan = !trees.isEmpty
        schedule()
    }

    private func schedule() {
        let now = MonotonicClock.now()
        if firstPending == nil { firstPending = now }
        let deadline = min(now + debounce, firstPending! + maxLatency)
        if let t = timer { loop.cancel(t) }
        timer = loop.at(deadline) { [unowned self] in
            timer = nil
            settle()
        }
    }

    /// The files have been quiet: read the suspects, report what differs.
    private func settle() {
        firstPending = nil
        if rescan {
            rescan = false
            var present = Set<String>()
            for (abs, given) in treeFiles() {
                present.insert(abs)
                if entries[abs] == nil {
                    entries[abs] = Entry(given: given, contents: nil, fromTree: true)
                    dirty.insert(abs)
                }
            }
            for (key, e) in entries where e.fromTree && !present.contains(key) { dirty.insert(key) }
            monitor.watch(directories: directoriesToWatch(files: Set(entries.keys)), files: Set(entries.keys))
        }
        var changes: [Change] = []
        for key in dirty.sorted() {
            guard var e = entries[key] else { continue }
            let now = FileSystem.contents(key)
            if now != e.contents {
                changes.append(Change(path: e.given, contents: now))
                e.contents = now
            }
            entries[key] = (e.fromTree && now == nil) ? nil : e
        }
        dirty = []
        if !changes.isEmpty { onChange(changes) }
    }
}
