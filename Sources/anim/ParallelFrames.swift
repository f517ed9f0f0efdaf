// ParallelFrames: drawing a run's frames on several threads (`anim render -j N`). The frames
// are cut into chunks of consecutive frames; each thread takes the next chunk, iterates its
// own `Timeline.frames(on:_:)` over it (one sampler per sequence, each reading the shared
// Timeline, which is a value nobody mutates), and draws and encodes every frame on its own
// canvas and PNG encoder. A frame's bytes depend only on the frame, never on the thread or
// the chunk, so any -j gives the same files.
import Synchronization
@preconcurrency import Glibc
import AnimCore

enum ParallelFrames {
    /// The processors this process may use, at least 1: those it may run on
    /// (`Cpus_allowed_list` in /proc/self/status, which `taskset`, cpusets and container
    /// runtimes narrow), or fewer when a CPU quota allows fewer (cgroup v2 `cpu.max`, v1
    /// `cpu.cfs_quota_us` ÷ `cpu.cfs_period_us`: a Kubernetes CPU limit), rounded up.
    static func availableCores() -> Int {
        var n = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let status = text("/proc/self/status"),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) {
            let list = line.dropFirst("Cpus_allowed_list:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            var count = 0
            for part in list.split(separator: ",") {
                let ends = part.split(separator: "-").compactMap { Int($0) }
                if ends.count == 1 { count += 1 } else if ends.count == 2, ends[1] >= ends[0] { count += ends[1] - ends[0] + 1 }
            }
            if count > 0 { n = count }
        }
        var quota: (Double, Double)?
        if let max = text("/sys/fs/cgroup/cpu.max")?.split(separator: " "), max.count == 2,
           let q = Double(max[0]), let p = Double(max[1].filter { !$0.isWhitespace }) {
            quota = (q, p)
        } else if let q = text("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap({ Double($0.filter { !$0.isWhitespace }) }),
                  let p = text("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap({ Double($0.filter { !$0.isWhitespace }) }) {
            quota = (q, p)
        }
        if let (q, p) = quota, q > 0, p > 0 { n = min(n, max(1, Int((q / p).rounded(.up)))) }
        return n
    }

    /// A small file's text, or nil.
    static func text(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return String(decoding: FileAccess.readAll(fd: fd, limit: 1 << 16), as: UTF8.self)
    }

    /// `range` cut into consecutive chunks for `jobs` threads: one chunk for one thread, and
    /// otherwise about four per thread (so a thread whose frames are cheap takes more of them),
    /// but never fewer than 4 frames in a chunk, since each chunk starts a sampler afresh.
    static func chunks(_ range: ClosedRange<Int64>, jobs: Int) -> [ClosedRange<Int64>] {
        let total = Int64(range.count)
        let count = jobs <= 1 ? 1 : max(1, min(Int64(jobs) * 4, total / 4))
        return (0..<count).compactMap { c in
            let lo = range.lowerBound + total * c / count, hi = range.lowerBound + total * (c + 1) / count - 1
            return lo <= hi ? lo...hi : nil
        }
    }

    /// Draws every frame of `range` on `grid` at `scale`, encodes it as PNG with
    /// `compression`, and hands the bytes to `write` with the frame's number — on `jobs`
    /// threads (the calling one among them), in no particular order. The first failure stops
    /// the other threads after their current frame and is thrown.
    static func render(_ timeline: Timeline, grid: FrameGrid, range: ClosedRange<Int64>, scale: Double, jobs: Int,
                       compression: PNGEncoder.Compression,
                       write: @escaping @Sendable (Int64, ArraySlice<UInt8>) throws(FileError) -> Void) throws(FileError) {
        let chunks = Self.chunks(range, jobs: jobs)
        let shared = Shared()
        let work: @Sendable () -> Void = {
            var canvas = Canvas(width: 0, height: 0)
            var encoder = PNGEncoder(compression: compression)
            while !shared.failed.load(ordering: .relaxed) {
                let c = shared.next.add(1, ordering: .relaxed).oldValue
                guard c < chunks.count else { return }
                var number = chunks[c].lowerBound
                for frame in timeline.frames(on: grid, chunks[c]) {
                    do throws(FileError) {
                        let w = Int((frame.size.x * scale).rounded()), h = Int((frame.size.y * scale).rounded())
                        if canvas.width != w || canvas.height != h { canvas = Canvas(width: w, height: h) }
                        canvas.draw(frame, scale: scale)
                        let png: ArraySlice<UInt8>
                        do throws(PNGError) { png = try encoder.encode(canvas) } catch { throw FileError(message: error.message) }
                        try write(number, png)
                    } catch {
                        shared.fail(error)
                        return
                    }
                    if shared.failed.load(ordering: .relaxed) { return }
                    number += 1
                }
            }
        }
        let threads = (1..<max(1, min(jobs, chunks.count))).compactMap { _ in Thread.start(work) }
        work()
        for t in threads { t.join() }
        if let e = shared.failure.withLock({ $0 }) { throw e }
    }

    /// What the threads share: the next chunk to take and the first failure.
    final class Shared: Sendable {
        let next = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        let failure = Mutex<FileError?>(nil)

        func fail(_ e: FileError) {
            failure.withLock { if $0 == nil { $0 = e } }
            failed.store(true, ordering: .relaxed)
        }
    }

    /// A POSIX thread running one closure.
    struct Thread {
        let id: pthread_t

        /// Starts a thread (nil if the system refuses one: the caller's own thread then does
        /// its share of the work).
        static func start(_ body: @escaping @Sendable () -> Void) -> Thread? {
            final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
            let box = Unmanaged.passRetained(Box(body)).toOpaque()
            var id = pthread_t()
            let started = pthread_create(&id, nil, { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
            guard started == 0 else {
                Unmanaged<Box>.fromOpaque(box).release()
                return nil
            }
            return Thread(id: id)
        }

        func join() { pthread_join(id, nil) }
    }
}
