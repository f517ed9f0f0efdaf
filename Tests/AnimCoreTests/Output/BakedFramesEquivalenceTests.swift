// The player's data sampled in place, shape by shape (ShapeSampling, issue 14: the studio's save
// path), is the data sampled through the StageFrames every other output draws — the way it was
// made before — byte for byte, on every golden script and example and on a large workload.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The player's data sampled in place matches the StageFrames path")
struct BakedFramesEquivalenceTests {
    /// The page JSON of a timeline both ways, and where they first differ (nil: the same).
    static func difference(_ t: Timeline, fps: Int, stepNames: [String] = []) -> String? {
        let a = HTMLPlayer.data(BakedFrames(t, fps: fps, source: .shapes), timeline: t, stepNames: stepNames)
        let b = HTMLPlayer.data(BakedFrames(t, fps: fps, source: .frames), timeline: t, stepNames: stepNames)
        guard a != b else { return nil }
        let x = Array(a.utf8), y = Array(b.utf8)
        let k = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        func around(_ s: [UInt8]) -> String { String(decoding: s[max(0, k - 60)..<min(s.count, k + 60)], as: UTF8.self) }
        return "differ at byte \(k) of \(x.count)/\(y.count)\n  in place: …\(around(x))…\n  frames:   …\(around(y))…"
    }

    @Test("every golden script and example")
    func allScripts() throws {
        var compared = 0
        for path in ScriptSuiteTests.files {
            let url = TestPaths.packageRoot.appendingPathComponent(path)
            let bytes = try [UInt8](Data(contentsOf: url))
            let expect = ScriptExpectations(text: String(decoding: bytes, as: UTF8.self))
            let options = (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions()
            let session = Session(options: options, output: CapturedOutput())
            guard let t = session.timeline(name: path, bytes: bytes) else { continue }
            compared += 1
            if let d = Self.difference(t, fps: options.fps, stepNames: session.environment.stepNames) { Issue.record("\(path): \(d)") }
        }
        // Most golden scripts run (the error scripts do not).
        #expect(compared > 150, "only \(compared) scripts ran")
    }

    @Test("a large workload: shapes created late, z changes, text, glyphs, outlines")
    func large() throws {
        var s = "stage 400 x 400\ntext title text \"Hello\" center (200, 50)\n"
        for i in 0..<40 { s += "rect o\(i) center (\(i * 9), \(i * 7)) size (8, 8)\n" }
        for i in 0..<40 {
            s += "animate 0.3 < o\(i).center = (\(400 - i * 9), 5) > then animate 0.2 ease cubic-in-out < o\(i).z = \(40 - i); o\(i).alpha = 0.5 >\n"
        }
        s += "stagger 0.05 for g in title.glyphs < animate 0.1 < g.offset = (0, -10) > >\nwait 0.2\ncircle late center (10, 10) radius 4 stroke #ff0000\n"
        s += "animate 0.5 < late.radius = 30 >\nset title.text = \"Bye\"\npolygon p points [(0, 0), (20, 0), (10, 15)]\nanimate 0.4 < p.rotation = 90deg >\n"
        let output = CapturedOutput()
        let session = Session(options: SessionOptions(), output: output)
        guard let t = session.timeline(name: "large.anim", bytes: Array(s.utf8)) else {
            Issue.record("the script did not run: \(output.error)")
            return
        }
        #expect(t.shapes.count > 40)
        for fps in [10, 30, 60] { #expect(Self.difference(t, fps: fps) == nil) }
    }
}
