// The player's data sampled on several threads, each a range of shapes (issue 14: the studio's
// save path uses both cores), is the data sampled on one, byte for byte: on every golden script
// and example, the reference workload W(100, 10) and a workload with glyphs, late shapes and
// outlines, split into 2, 3 and 7 ranges.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The player's data sampled by shape ranges at once matches one pass")
struct BakedFramesParallelTests {
    /// Where the page JSON sampled in `workers` ranges first differs from one pass's (nil: the same).
    static func difference(_ t: Timeline, fps: Int, workers: Int, stepNames: [String] = []) -> String? {
        let serial = HTMLPlayer.data(BakedFrames(t, fps: fps, workers: 1), timeline: t, stepNames: stepNames)
        let split = HTMLPlayer.data(BakedFrames(t, fps: fps, workers: workers), timeline: t, stepNames: stepNames)
        guard serial != split else { return nil }
        let x = Array(serial.utf8), y = Array(split.utf8)
        let k = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        return "\(workers) ranges differ from one pass at byte \(k) of \(x.count)/\(y.count)"
    }

    static func timeline(_ source: String) -> Timeline? {
        Session(options: SessionOptions(), output: CapturedOutput()).timeline(name: "t.anim", bytes: Array(source.utf8))
    }

    @Test("every golden script and example, in 2 and 3 ranges")
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
            for workers in [2, 3] {
                if let d = Self.difference(t, fps: options.fps, workers: workers, stepNames: session.environment.stepNames) {
                    Issue.record("\(path): \(d)")
                }
            }
        }
        #expect(compared > 150, "only \(compared) scripts ran")
    }

    @Test("the reference workload W(100, 10) (Scripts/bench-gen.py), in 2, 3 and 7 ranges")
    func workload() throws {
        // bench-gen's formulas: shape i's tween j goes to (X(i, j), Y(i, j)).
        func x(_ i: Int, _ j: Int) -> Int { (7 * i + 13 * j) % 1000 + 10 * j }
        func y(_ i: Int, _ j: Int) -> Int { (11 * i + 17 * j) % 1000 + 5 * j }
        var s = "stage 1000 x 1000\n"
        for i in 0..<100 { s += "rect o\(i) center (\(x(i, 0)),\(y(i, 0)))\n" }
        for i in 0..<100 {
            s += (1...10).map { j in "animate 0.5 ease cubic-in-out < o\(i).center = (\(x(i, j)),\(y(i, j))) >" }.joined(separator: " then ") + "\n"
        }
        let t = try #require(Self.timeline(s))
        #expect(BakedFrames.shapeRanges(t, parts: 7).count == 7)
        for workers in [2, 3, 7] { #expect(Self.difference(t, fps: 30, workers: workers) == nil) }
    }

    @Test("glyphs, shapes created late, z changes, outlines; no range separates a text from its glyphs")
    func glyphs() throws {
        var s = "stage 400 x 400\n"
        // Each text's glyphs come right after it, so the shapes can be split between texts.
        for i in 0..<12 {
            s += "rect r\(i) center (\(i * 30), 20) size (8, 8)\ntext t\(i) text \"Hi \(i)\" center (\(i * 30), 200)\n"
            s += "stagger 0.02 for g in t\(i).glyphs < animate 0.1 < g.offset = (0, -\(i + 1)) > >\n"
            s += "animate 0.2 < r\(i).center = (\(400 - i * 30), 300); r\(i).z = \(12 - i) >\n"
        }
        s += "circle late center (10, 10) radius 4 stroke #ff0000\nanimate 0.3 < late.radius = 30 >\n"
        let t = try #require(Self.timeline(s))
        let owners = t.glyphOwners
        #expect(owners.contains { $0 >= 0 })
        #expect(BakedFrames.shapeRanges(t, parts: 3).count == 3)
        for parts in [2, 3, 5, 7, 20] {
            for r in BakedFrames.shapeRanges(t, parts: parts) {
                for j in r where owners[j] >= 0 { #expect(r.contains(owners[j]), "glyph \(j) apart from its text \(owners[j])") }
            }
        }
        for workers in [2, 3, 7] { #expect(Self.difference(t, fps: 30, workers: workers) == nil) }
    }
}
