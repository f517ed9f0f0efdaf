// The sampling engine must agree with the interpreter, sample for sample, at every frame of
// every golden script and example, along the path users get: the Sampler reading the log the
// interpreter wrote, the history's binary search, and the StageFrames every renderer draws
// (`Timeline.frames(on:_:)`) and `Timeline.frame(at:)` — all bit for bit what the interpreter
// showed at that frame.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The sampling engine agrees with the interpreter")
struct SamplerTests {
    @Test("every property at every frame", arguments: ScriptSuiteTests.files)
    func agrees(_ path: String) throws {
        _ = try compare(path)
    }

    @Test("the golden scripts take every path through the sampler")
    func coverage() throws {
        var paths: Set<Sampler.Path> = []
        for path in ScriptSuiteTests.files { paths.formUnion(try compare(path, quiet: true)) }
        #expect(paths == Set(Sampler.Path.allCases))
    }

    /// Runs a script, compares the engine, the history and the frames with the interpreter at
    /// every frame it showed (recording an issue unless `quiet`), and returns the paths its
    /// pieces took through the sampler.
    func compare(_ path: String, quiet: Bool = false) throws -> Set<Sampler.Path> {
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
                for p in 0..<Int(shape.propertyCount) where interp.scene.base(ShapeID(s), PropertyID(p)) != nil {
                    let id = ShapeID(s), prop = PropertyID(p)
                    values[PropertyKey(id, prop)] = interp.currentValue(id, prop)
                }
            }
            live.append(values)
            times.append(t)
        }
        session.run(name: path, bytes: bytes)
        let history = try #require(session.interpreter.history)
        let timeline = session.currentTimeline()
        guard let lastTime = times.last else { return [] }
        // The session skips frames while nothing moves: compare at the frames it showed.
        let frames = times.map { grid.firstFrame(atOrAfter: $0) }
        for (f, t) in zip(frames, times) { #expect(t == grid.time(ofFrame: f), "frame \(f) is at the grid's time") }

        let interp = session.interpreter!
        func name(_ key: PropertyKey) -> String {
            "\(interp.scene.shapes[Int(key.shape.index)].name).\(interp.propertyName(key.property))"
        }
        let sampler = Sampler(history: history, grid: grid)
        sampler.countPaths()
        var mismatches: [String] = []
        var samples = 0
        for (i, f) in frames.enumerated() {
            sampler.sample(frame: f)
            let t = grid.time(ofFrame: f)
            for (key, interpreted) in live[i] {
                let engine = sampler.row(of: key).flatMap { sampler.value(ofRow: $0) } ?? history.declared(key)
                let recorded = history.value(key, at: t)
                samples += 1
                if engine == interpreted && recorded == interpreted { continue }
                if mismatches.count < 5 {
                    mismatches.append("\(name(key)) at \(t.eventStamp): engine \(String(describing: engine)), "
                                      + "history \(String(describing: recorded)), interpreter \(String(describing: interpreted))")
                }
            }
        }
        // The frames renderers draw, through their own Sampler, and one at a time.
        var drawn: [Int64: StageFrame] = [:]
        let wanted = Set(frames)
        for frame in timeline.frames(on: grid, 0...grid.lastFrame(atOrBefore: lastTime)) {
            let f = grid.firstFrame(atOrAfter: frame.time)
            if wanted.contains(f) { drawn[f] = frame }
        }
        for (i, f) in frames.enumerated() where mismatches.count < 5 {
            let t = grid.time(ofFrame: f)
            var expected: [ShapeSnapshot] = []
            // A glyph's values are its text's (`title.glyphs`, StageFrame's `glyphs`), in order.
            let owners = timeline.glyphOwners
            var placed: [Int: Int] = [:]
            for (s, shape) in interp.scene.shapes.enumerated() where live[i][PropertyKey(ShapeID(s), BuiltinProperty.alpha.id)] != nil {
                var snapshot = ShapeSnapshot(id: ShapeID(s), kind: shape.kind)
                for b in BuiltinProperty.allCases { snapshot.set(b, live[i][PropertyKey(ShapeID(s), b.id)]) }
                if shape.kind == .glyph {
                    if let j = placed[owners[s]] { expected[j].glyphs.append(GlyphSnapshot(snapshot)) }
                    continue
                }
                placed[s] = expected.count
                expected.append(snapshot)
            }
            expected = Timeline.paintOrder(expected)
            if drawn[f]?.shapes != expected { mismatches.append("frames(on:) at \(t.eventStamp) differ from the interpreter's stage") }
            if timeline.frame(at: t).shapes != expected { mismatches.append("frame(at:) at \(t.eventStamp) differs from the interpreter's stage") }
        }
        if !quiet {
            #expect(mismatches.isEmpty, Comment(rawValue: path + " (\(samples) samples)\n" + mismatches.joined(separator: "\n")))
        }
        return Set(sampler.pathCounts.keys)
    }

    /// A piece may start before its tween's active interval; there the tween is in its before
    /// phase, where a step easing sees the before flag (steps(2, jump-start) gives 0, not ½).
    /// The engine must give what the history gives there too, in a lane and off it.
    @Test("tweens sampled in their before phase: the before flag, as the history has it")
    func beforePhase() {
        let second = Time(seconds: 1)
        var tables = TrackTables()
        var log = PropertyLog()
        let timings = [TweenTiming(iterationDuration: second),                          // a lane
                       TweenTiming(iterationDuration: second, iterations: 2, alternate: true)]   // timed
        var shapes: [DeclaredShape] = []
        for (i, timing) in timings.enumerated() {
            let key = PropertyKey(ShapeID(i), PropertyID(0))
            let track = Track(instance: 0, key: key, begin: second, timing: tables.intern(.tween(timing, .steps(2, .jumpStart))),
                              curve: .straight, from: NumericValue(.number(0))!, to: NumericValue(.number(100))!, ending: nil)
            log.addTrack(key, at: .zero, track, clock: .identity)
            shapes.append(DeclaredShape(created: .zero, kind: .rect, first: 0, count: 0))
        }
        log.index()
        let history = RunHistory(log: log, tables: tables, shapes: shapes, declaredProperty: [], declaredValue: [])
        let grid = FrameGrid(fps: 4)
        let sampler = Sampler(history: history, grid: grid)
        sampler.countPaths()
        for f in Int64(0)...12 {
            sampler.sample(frame: f)
            for q in 0..<sampler.rowCount {
                #expect(sampler.value(ofRow: q) == history.value(sampler.key(ofRow: q), at: grid.time(ofFrame: f)),
                        "property \(q) at frame \(f)")
            }
        }
        // A lane has no before phase: a tween piece that starts before its active interval is
        // timed, whatever its timing.
        #expect(sampler.pathCounts == [.timedTween: 2])
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
        #expect(report.pieces == n * k)
        #expect(report.samples == n * 2 * 30 * k)
        #expect(report.checksum == Double((0..<n).map { x($0, k) + y($0, k) }.reduce(0, +)))
    }
}
