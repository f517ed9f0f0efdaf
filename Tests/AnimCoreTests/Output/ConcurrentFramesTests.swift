// Timeline.frames(on:_:) read from several threads at once, as `anim render -j N` reads it:
// chunks of a run's frames iterated concurrently, each with its own sequence, give the same
// stages as one sequence over every frame (and a thread sanitizer run, Scripts/sanitize, sees
// no race: Timeline and StageFrames are values nobody mutates).
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Frames read concurrently")
struct ConcurrentFramesTests {
    /// The pictures' scripts and the examples.
    static let scripts = TestPaths.scripts(under: TestPaths.packageRoot.appendingPathComponent("Tests/Pictures"))
        + TestPaths.scripts(under: TestPaths.examples)

    @Test("chunks read on several threads equal one sequence", arguments: scripts)
    func chunks(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)))
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput()).timeline(name: path, bytes: bytes))
        let grid = FrameGrid(fps: 30)
        let all = t.frameRange(on: grid)
        let whole = Array(t.frames(on: grid, all))
        #expect(whole.count == all.count)
        // Uneven chunks, one thread each.
        let n = Int64(all.count)
        let cuts: [Int64] = [0, n / 7, n / 3, n / 2, n - 1, n].map { min(n, max(0, $0)) }
        let ranges = zip(cuts, cuts.dropFirst()).compactMap { a, b in a < b ? (all.lowerBound + a)...(all.lowerBound + b - 1) : nil }
        final class Results: @unchecked Sendable { var frames: [[StageFrame]] = [] }
        let results = Results()
        results.frames = Array(repeating: [], count: ranges.count)
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: ranges.count) { k in
            let frames = Array(t.frames(on: grid, ranges[k]))
            lock.lock()
            results.frames[k] = frames
            lock.unlock()
        }
        let joined = results.frames.flatMap { $0 }
        #expect(joined.count == whole.count)
        for (a, b) in zip(joined, whole) {
            #expect(a.time == b.time && a.size == b.size && a.background == b.background && a.shapes == b.shapes,
                    "\(path): frame at \(a.time.exactSeconds)s")
        }
    }
}
