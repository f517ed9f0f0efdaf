// The player's data built quickly (issue 14) stays exact: the tracks BakedFrames holds as one
// value until they change give every frame's value of the stage as sampled on its own, the
// JSON strings written byte by byte are `jsonString`'s, and each lane's bars taken in one pass
// are the bars in that lane.
@testable import AnimCore
import Testing

@Suite("Player data")
struct PlayerDataTests {
    static let script = """
    stage 200 x 100
    rect a center (20,50) size (20,20) color red
    circle b center (180,50) radius 10 color blue
    text c center (100,20) text "hi"
    animate 1 ease ease-in-out < a.center = (100,50) >
    then spring < a.rotation = 90deg >
    animate 0.5 ease bounce-out < b.alpha = 0.2; b.radius = 20 >
    animate 0.3 < a.color = blue > then animate 0.3 < c.alpha = 0.5 >
    """

    @Test("every sample is the stage's value at that time")
    func samples() throws {
        let t = try #require(timeline(Self.script))
        let baked = BakedFrames(t, fps: 30)
        for (k, time) in baked.times.enumerated() {
            let frame = t.frame(at: time)
            for s in frame.shapes {
                let i = Int(s.id.index)
                var row = [Double](repeating: .nan, count: BakedFrames.Attribute.allCases.count)
                row.withUnsafeMutableBufferPointer { BakedFrames.write(s, to: $0, at: 0) }
                for a in BakedFrames.Attribute.allCases {
                    #expect(baked.value(i, a, k) == row[a.rawValue], "shape \(i) \(a.key) at sample \(k)")
                }
            }
        }
        // Tracks that never change are one value; the moving ones have every sample.
        #expect(baked.shapes[0].tracks[BakedFrames.Attribute.w.rawValue].count == 1)
        #expect(baked.shapes[0].tracks[BakedFrames.Attribute.x.rawValue].count == baked.times.count)
    }

    @Test("JSON strings written into bytes are jsonString's", arguments: [
        "", "plain", "quote \" and \\ backslash", "line\nbreak\r\ttab", "</script><b>&amp;", "\u{1}\u{1f}",
        "日本語 ✓ 😀", "sep\u{2028}para\u{2029}end", "\u{e2}", "é\u{301}",
    ])
    func strings(_ s: String) {
        var o = ByteWriter(capacity: 0)
        o.put("[")
        o.putJSONString(s)
        o.putJSONEscaped(s)
        o.put("]")
        #expect(String(decoding: o.bytes, as: UTF8.self) == "[" + jsonString(s) + jsonString(s).dropFirst().dropLast() + "]")
        #expect(o.string() == "[" + jsonString(s) + jsonString(s).dropFirst().dropLast() + "]")
    }

    @Test("each lane's bars are the bars drawn in it, in order")
    func barsByLane() throws {
        let lanes = TimelineLanes(try #require(timeline(Self.script)))
        #expect(lanes.lanes.count > 1)
        let grouped = lanes.barsByLane
        #expect(grouped.count == lanes.lanes.count)
        for l in lanes.lanes.indices {
            #expect(grouped[l] == lanes.bars.indices.filter { lanes.bars[$0].lane == l })
        }
    }
}
