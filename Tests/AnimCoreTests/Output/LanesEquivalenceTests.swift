// The fast timeline layout and lanes/bars JSON (issue 14: the studio's save path) give what the
// code before them gave (ReferenceLanes.swift keeps it), on every golden script and example:
// the same lanes and bars field by field, and the same bytes in the player's data.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Timeline layout and lanes JSON match the reference")
struct LanesEquivalenceTests {
    /// The scripts compared; the per-axis ones write components of points, which the reference
    /// (older than them) cannot name — `componentBars` checks those.
    static let files = (TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples))
        .filter { !$0.contains("/axis/") }

    /// A bar as text, every field.
    static func describe(_ b: TimelineLanes.Bar) -> String {
        "\(b.lane) \(b.kind) \(b.begin.ticks)–\(b.end.ticks) \(b.delayedFrom?.ticks ?? -1) r\(b.reversed) x\(b.retargets) "
            + "\(b.label.debugDescription) \(b.properties)"
    }

    @Test("every script's lanes, bars and their JSON are the reference's")
    func allScripts() throws {
        var compared = 0
        for path in Self.files {
            let url = TestPaths.packageRoot.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            let expect = ScriptExpectations(text: text)
            var options = (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions()
            options.baseNamesOnly = true
            let session = Session(options: options, output: CapturedOutput())
            guard let t = session.timeline(name: path, bytes: Array(text.utf8)) else { continue }
            compared += 1
            let reference = ReferenceLanes.layout(t)
            let fast = TimelineLanes(t)
            #expect(fast.lanes.map(\.label) == reference.lanes.map(\.label), "\(path): lane labels")
            let a = fast.bars.map(Self.describe), b = reference.bars.map(Self.describe)
            if a != b {
                let k = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                Issue.record("\(path): bar \(k) of \(a.count)/\(b.count)\n  fast:      \(k < a.count ? a[k] : "<end>")\n  reference: \(k < b.count ? b[k] : "<end>")")
                continue
            }
            let shapes = BakedFrames(t, fps: min(options.fps, 10)).shapes
            var writer = ByteWriter(), theirs: [UInt8] = []
            HTMLPlayer.lanes(fast, shapes: shapes, to: &writer)
            let mine = writer.bytes
            ReferenceLanes.json(reference, shapes: shapes, to: &theirs)
            #expect(String(decoding: mine, as: UTF8.self) == String(decoding: theirs, as: UTF8.self), "\(path): lanes JSON")
        }
        // Most golden scripts run (the error scripts do not).
        #expect(compared > 150, "only \(compared) scripts ran")
    }

    @Test("a large stagger and chain script matches too")
    func large() throws {
        // Many shapes, chains, a stagger that packs overlapping members into lanes, a block's
        // branches, waits, prints and a replay.
        var s = "stage 400 x 400\nrect cells[40] size (4, 4)\n"
        for i in 0..<60 { s += "rect o\(i) center (\(i), \(i))\n" }
        for i in 0..<60 {
            s += "animate 0.5 < o\(i).center = (\(i + 10), 5) > then animate 0.25 ease cubic-in-out < o\(i).alpha = 0.5; o\(i).rotation = 30deg >\n"
        }
        s += "stagger 0.01 for c in cells < animate 0.3 < c.center = (100, 100) > >\n"
        s += "< animate 0.2 < o1.size = (8, 8) >; wait 0.1 then print \"x\" > as walk\nwait walk\nreverse walk\n"
        let t = try #require(timeline(s, fps: 10))
        let reference = ReferenceLanes.layout(t)
        let fast = TimelineLanes(t)
        #expect(fast.bars.count > 150)
        #expect(fast.lanes.map(\.label) == reference.lanes.map(\.label))
        #expect(fast.bars.map(Self.describe) == reference.bars.map(Self.describe))
        let shapes = BakedFrames(t, fps: 10).shapes
        var writer = ByteWriter(), theirs: [UInt8] = []
        HTMLPlayer.lanes(fast, shapes: shapes, to: &writer)
        let mine = writer.bytes
        ReferenceLanes.json(reference, shapes: shapes, to: &theirs)
        #expect(mine == theirs)
    }

    @Test("a component's bar sits in its shape's lane, names the axis and moves that track")
    func componentBars() throws {
        let s = "rect sq\nanimate 1 < sq.center.x = 300 > then animate 1 < sq.size.y = 40 >\n"
        let t = try #require(timeline(s, fps: 10))
        let lanes = TimelineLanes(t)
        #expect(lanes.lanes.map(\.label) == ["sq"])
        #expect(lanes.bars.map(\.label) == ["center.x", "size.y"])
        #expect(lanes.bars.map(\.properties) == [["sq.center.x"], ["sq.size.y"]])
        var json = ByteWriter()
        HTMLPlayer.lanes(lanes, shapes: BakedFrames(t, fps: 10).shapes, to: &json)
        let text = json.string()
        #expect(text.contains("\"shapes\":[0]"), "\(text)")
        // Each bar's tracks as [shape, track…]: the x of sq's center, the height of its size.
        #expect(text.contains("\"center.x\",\"sq.center.x 0–1s\",0,[0,\"x\"]]"), "\(text)")
        #expect(text.contains("\"size.y\",\"sq.size.y 1–2s\",0,[0,\"h\"]]"), "\(text)")
    }
}
