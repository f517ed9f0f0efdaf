// PollingMonitor: `--poll`, for file systems without change notification (network mounts,
// some containers). Every interval it compares each watched file's and directory's stat fields
// (device, inode, size, mode, modification and change times) with the last poll's. Timestamps
// are only as fine as the kernel's clock tick, so a file modified less than two seconds ago
// also has its bytes hashed into its signature: two saves within one tick that keep the size
// (and reuse the inode) are then still told apart. This is Git's "racy clean" rule
// (Documentation/technical/racy-git.txt): a timestamp too close to the check proves nothing.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class PollingMonitor: ChangeMonitor {
    private let loop: EventLoop
    private let interval: Int64
    private let noted: (String, String?) -> Void
    private var files: [String: Snapshot?] = [:]
    private var directories: [String: FileSystem.Signature?] = [:]
    private var timer: EventLoop.Token?

    /// How recent a modification must be for the bytes to be hashed too.
    static let racyWindow: Int64 = 2_000_000_000

    struct Snapshot: Equatable {
        var signature: FileSystem.Signature
        /// FNV-1a of the bytes, while the file is racily recent.
        var hash: UInt64?

        /// Equal stat fields, and equal hashes where both have one.
        func same(as other: Snapshot) -> Bool {
            signature == other.signature && (hash == nil || other.hash == nil || hash == other.hash)
        }
    }

    init(loop: EventLoop, interval: Int64, noted: @escaping (String, String?) -> Void) {
        self.loop = loop
        self.interval = interval
        self.noted = noted
    }

    deinit { close() }

    func close() {
        if let t = timer { loop.cancel(t); timer = nil }
    }

    func watch(directories dirs: Set<String>, files paths: Set<String>) {
        var f: [String: Snapshot?] = [:]
        for p in paths { f[p] = files[p] ?? PollingMonitor.snapshot(p) }
        files = f
        var d: [String: FileSystem.Signature?] = [:]
        for p in dirs { d[p] = directories[p] ?? FileSystem.signature(p) }
        directories = d
        if timer == nil { schedule() }
    }

    private func schedule() {
        timer = loop.after(interval) { [unowned self] in
            poll()
            schedule()
        }
    }

    private func poll() {
        for (path, old) in files {
            let now = PollingMonitor.snapshot(path)
            let same: Bool
            switch (old, now) {
            case (nil, nil): same = true
            case (let a?, let b?): same = a.same(as: b)
            default: same = false
            }
            files[path] = now
            if !same { noted(FileSystem.directory(of: path), FileSystem.baseName(of: path)) }
        }
        for (path, old) in directories {
            let now = FileSystem.signature(path)
            directories[path] = now
            // A name came or went (the directory's times changed): anything in it may have.
            if now != old { noted(path, nil) }
        }
    }

    static func snapshot(_ path: String) -> Snapshot? {
        guard let sig = FileSystem.signature(path) else { return nil }
        let recent = FileSystem.wallClock() - max(sig.modified, sig.changed) < racyWindow
        return Snapshot(signature: sig, hash: recent ? FileSystem.contents(path).map(fnv1a) : nil)
    }

    /// FNV-1a, 64 bits (Fowler, Noll and Vo; the offset basis and prime of the reference).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}
