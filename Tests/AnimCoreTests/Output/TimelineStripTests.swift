// The strip's message layout: however crowded the prints, no two labels' boxes (measured with
// TextWidth's upper estimate) overlap, they stay inside the strip, and they take at most
// `maxMessageRows` rows. (The Chromium suite measures the same with real fonts.)
@testable import AnimCore
import Testing

@Suite("Timeline strip message layout")
struct TimelineStripTests {
    /// Prints at pseudo-random instants (a fixed LCG), some at one instant, of varied lengths.
    static func prints(count: Int, seed: UInt64) -> [(time: Time, text: String)] {
        var x = seed
        func next() -> UInt64 { x = x &* 6364136223846793005 &+ 1442695040888963407; return x >> 33 }
        let words = ["go", "WWWWWW", "a longer message than most", "mid", "iiii", "日本語", "done at last", "M"]
        var t = 0.0
        return (0..<count).map { _ in
            if next() % 4 != 0 { t += Double(next() % 400) / 1000 }
            return (Time(seconds: t)!, words[Int(next() % UInt64(words.count))] + String(next() % 100))
        }
    }

    @Test("no two labels overlap", arguments: [(5, 1), (20, 2), (60, 3), (200, 4)] as [(Int, UInt64)])
    func noOverlap(_ count: Int, _ seed: UInt64) {
        let ps = Self.prints(count: count, seed: seed)
        let g = TimelineStrip.Geometry(width: 640, end: ps.last!.time.seconds + 0.5)
        let ms = TimelineStrip.layoutMessages(ps, g)
        #expect(ms.map(\.row).allSatisfy { $0 >= 0 && $0 < TimelineStrip.maxMessageRows })
        let boxes = ms.filter { !$0.text.isEmpty }.map { m in (m.row, m.box(TextWidth.of(m.text, size: TimelineStrip.fontSize)), m.text) }
        for b in boxes { #expect(b.1.0 >= 0 && b.1.1 <= g.width, "'\(b.2)' leaves the strip: \(b.1)") }
        for i in boxes.indices {
            for j in boxes.indices where j > i && boxes[i].0 == boxes[j].0 {
                let (a, b) = (boxes[i].1, boxes[j].1)
                #expect(min(a.1, b.1) <= max(a.0, b.0), "'\(boxes[i].2)' and '\(boxes[j].2)' overlap in row \(boxes[i].0)")
            }
        }
    }

    @Test("a few messages far apart are shown whole, in one row")
    func roomy() {
        let ps: [(time: Time, text: String)] = [(Time(seconds: 0.1)!, "start"), (Time(seconds: 1)!, "middle"), (Time(seconds: 2)!, "end")]
        let ms = TimelineStrip.layoutMessages(ps, TimelineStrip.Geometry(width: 640, end: 2))
        #expect(ms.map(\.text) == ["start", "middle", "end"])
        #expect(ms.map(\.row) == [0, 0, 0])
        #expect(ms.last?.leftward == true, "the last one reads leftwards from the right edge")
    }

    @Test("the width estimate clips with an ellipsis")
    func clip() {
        #expect(TextWidth.clip("short", width: 100, size: 10) == "short")
        let cut = TextWidth.clip("a label much too long for its box", width: 60, size: 10)
        #expect(cut.hasSuffix("…") && TextWidth.of(cut, size: 10) <= 60)
        #expect(TextWidth.clip("WWW", width: 5, size: 10) == "")
    }
}
