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

    @Test("numbers written into bytes are formatFixed's and String's")
    func numbers() {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 0.0005, -0.0005, 0.00049999999999999, 1.25, 2.675, 1e-10, -1e-10,
                                123_456.789_012_345, 0x1p52 + 1, 0x1p62, 9.2e18, -9.2e18, 1e300, -1e300, .infinity, .nan]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let k = Double(Int.random(in: -10_000_000...10_000_000, using: &rng))
            values += [k / 1000 + 0.0005, k / 1000 - 0.0005, k / 10_000, Double.random(in: -1e6...1e6, using: &rng)]
        }
        for decimals in [0, 1, 3, 4, 9] {
            var o = ByteWriter(capacity: 0)
            var expected = ""
            for x in values {
                o.putFixed(x, decimals)
                o.put(",")
                expected += formatFixed(x, decimals) + ","
            }
            #expect(o.string() == expected, "decimals \(decimals)")
        }
        var o = ByteWriter(capacity: 0)
        let ints = [0, 7, 9, 10, -1, -10, 12_345, Int.max, Int.min]
        for v in ints { o.putInt(v); o.put(",") }
        #expect(o.string() == ints.map { String($0) + "," }.joined())
    }

    @Test("every attribute has a key of its own in the player's data")
    func keys() {
        let keys = BakedFrames.Attribute.allCases.map(\.key)
        #expect(Set(keys).count == keys.count && !keys.contains(""), "\(keys)")
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
