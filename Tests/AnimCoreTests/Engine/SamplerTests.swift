// The compiled sampling engine must agree with the interpreter, sample for sample, at every
// frame of every golden script and example: exactly with the recorded history it is compiled
// from, and within 1e-9 with the live interpreter (as HistoryTests holds the history to).
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The sampling engine agrees with the interpreter")
struct SamplerTests {
    @Test("every animated property at every frame", arguments: ScriptSuiteTests.files)
    func agrees(_ path: String) throws {
        _ = try compare(path)
    }

    @Test("the golden scripts exercise every kind of piece")
    func coverage() throws {
        var kinds: Set<PieceKind> = []
        for path in ScriptSuiteTests.files { kinds.formUnion(try compare(path, quiet: true)) }
        #expect(kinds == [.constant, .tween, .timedTween, .spring, .baked])
    }

    /// Runs a script, compares the engine with the history and the interpreter at every frame
    /// (recording an issue unless `quiet`), and returns the kinds of piece its tables hold.
    func compare(_ path: String, quiet: Bool = false) throws -> Set<PieceKind> {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let expect = ScriptExpectations(text: String(decoding: bytes, as: UTF8.self))
        var options = (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions()
        options.fps = 30
        let grid = FrameGrid(fps: 30)
        let session = Session(options: options, output: CapturedOutput())
        session.interpreter.recordHistory()
        // The interpreter's own value of every property at every frame, read as it plays.
        var live: [[PropertyKey: Value]] = []
        var times: [Time] = []
        session.frameHook = { t in
            let interp = session.interpreter!
            var values: [PropertyKey: Value] = [:]
            for (s, shape) in interp.scene.shapes.enumerated() {
                for p in shape.values.indices where shape.values[p] != nil {
                    let id = ShapeID(s), prop = PropertyID(p)
                    values[PropertyKey(id, prop)] = interp.currentValue(id, prop)
                }
            }
            live.append(values)
            times.append(t)
        }
        session.run(name: path, bytes: bytes)
        let history = try #require(session.interpreter.history)
        guard let lastTime = times.last else { return [] }
        // The session skips frames while nothing moves: sample the frames it showed.
        let frames = times.map { grid.firstFrame(atOrAfter: $0) }
        for (f, t) in zip(frames, times) { #expect(t == grid.time(ofFrame: f), "frame \(f) is at the grid's time") }

        let sampler = Sampler(history: history, grid: grid, frames: 0...grid.lastFrame(atOrBefore: lastTime))
        var mismatches: [String] = []
        var samples = 0
        for (i, f) in frames.enumerated() {
            sampler.sample(frame: f)
            let t = grid.time(ofFrame: f)
            for q in sampler.keys.indices {
                let key = sampler.keys[q]
                let engine = sampler.value(ofProperty: q)
                let recorded = history.value(key, at: t)
                let interpreted = live[i][key]
                samples += 1
                var ok = engine == recorded
                if ok, let a = engine, let b = interpreted { ok = Interpreter.approximatelyEqual(a, b, tolerance: 1e-9) }
                if !ok && mismatches.count < 5 {
                    let name = session.interpreter.scene.shapes[Int(key.shape.index)].name
                    let prop = session.interpreter.propertyName(key.property)
                    mismatches.append("\(name).\(prop) at \(t.eventStamp): engine \(String(describing: engine)), "
                                      + "history \(String(describing: recorded)), interpreter \(String(describing: interpreted))")
                }
            }
        }
        if !quiet {
            #expect(mismatches.isEmpty, Comment(rawValue: path + " (\(samples) samples)\n" + mismatches.joined(separator: "\n")))
        }
        return Set(sampler.pieceKindCounts.keys)
    }

    /// A history piece may start before its tween's active interval; there the tween is in its
    /// before phase, where a step easing sees the before flag (steps(2, jump-start) gives 0, not
    /// ½). The engine must give what the history gives there too, on the fast path and off it.
    @Test("tweens sampled in their before phase: the before flag, as the history has it")
    func beforePhase() {
        let second = Time(seconds: 1)
        let clock = ClockMap(global: .zero, local: .zero, rate: 1)
        var history = PropertyHistory()
        let timings = [TweenTiming(iterationDuration: second),                          // fast
                       TweenTiming(iterationDuration: second, iterations: 2, alternate: true)]   // timed
        for (i, timing) in timings.enumerated() {
            let m = TrackMotion(instance: 0, begin: second, motion: .tween(timing, .steps(2, .jumpStart)),
                                shape: ShapeID(i), property: PropertyID(0), from: .number(0), to: .number(100))
            history.append(PropertyKey(ShapeID(i), PropertyID(0)), .init(start: .zero, source: .segment(m, clock: clock)))
        }
        let grid = FrameGrid(fps: 4)
        let sampler = Sampler(history: history, grid: grid, frames: 0...12)
        for f in Int64(0)...12 {
            sampler.sample(frame: f)
            for q in sampler.keys.indices {
                #expect(sampler.value(ofProperty: q) == history.value(sampler.keys[q], at: grid.time(ofFrame: f)),
                        "property \(q) at frame \(f)")
            }
        }
        #expect(history.value(PropertyKey(ShapeID(0), PropertyID(0)), at: .zero) == .number(0))
    }

    @Test("W(N, K): the checksum after the last frame is Σ (X(i,K) + Y(i,K))")
    func referenceWorkload() throws {
        // The workload of Scripts/bench-gen.py, small.
        func x(_ i: Int, _ j: Int) -> Int { (7 * i + 13 * j) % 1000 + 10 * j }
        func y(_ i: Int, _ j: Int) -> Int { (11 * i + 17 * j) % 1000 + 5 * j }
        let n = 20, k = 3
        var text = "stage 1000 x 1000\n"
        for i in 0..<n { text += "rect o\(i) center (\(x(i, 0)),\(y(i, 0)))\n" }
        for i in 0..<n {
            text += (1...k).map { "animate 0.5 ease cubic-in-out < o\(i).center = (\(x(i, $0)),\(y(i, $0))) >" }.joined(separator: " then ") + "\n"
        }
        let session = Session(output: CapturedOutput())
        let report = try #require(session.bench(name: "w.anim", bytes: Array(text.utf8)))
        #expect(report.frames == 1...Int64(30 * k))
        #expect(report.properties == n)
        #expect(report.samples == n * 2 * 30 * k)
        #expect(report.checksum == Double((0..<n).map { x($0, k) + y($0, k) }.reduce(0, +)))
    }
}
