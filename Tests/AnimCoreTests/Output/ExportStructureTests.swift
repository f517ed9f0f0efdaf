// The structure of the web and interchange outputs: the HTML player carries the interpreter's
// own values at every frame, the Lottie export keeps cubic-Bézier easings as handles and bakes
// the rest, and the terminal chart (the REPL's `:timeline`) lays out lanes.
@testable import AnimCore
import Foundation
import Testing

@Suite("Export structure")
struct ExportStructureTests {
    static let script = """
    stage 200 x 100
    rect a center (20,50) size (20,20) color red
    circle b center (180,50) radius 10 color blue
    animate 1 ease ease-in-out < a.center = (100,50) >
    then spring < a.rotation = 90deg >
    animate 0.5 ease bounce-out < b.alpha = 0.2 >
    """

    /// The JSON object embedded in an HTML page.
    func playerData(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"anim-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the HTML player holds the interpreter's value at every frame")
    func playerValues() throws {
        let t = try #require(timeline(Self.script))
        let html = HTMLPlayer.render(t, fps: 30)
        #expect(!html.contains("src=\"http"), "self-contained")
        let data = try playerData(html)
        let times = try #require(data["times"] as? [Double])
        let shapes = try #require(data["shapes"] as? [[String: Any]])
        let tracks = try #require(shapes[0]["t"] as? [String: [Double]])
        let xs = try #require(tracks["x"]), rots = try #require(tracks["rot"])
        let grid = FrameGrid(fps: 30)
        let frameTimes = t.frameRange(on: grid).map { grid.time(ofFrame: $0) }
        #expect(times.count == frameTimes.count)
        for (k, ft) in frameTimes.enumerated() {
            let center = t.value(ShapeID(0), BuiltinProperty.center.id, at: ft)?.framePoint?.x ?? .nan
            let rotation = t.value(ShapeID(0), BuiltinProperty.rotation.id, at: ft)?.frameNumber ?? .nan
            #expect(abs(xs[k] - center) <= 0.0005, "x at frame \(k)")
            #expect(abs(rots[k] - rotation) <= 0.0005, "rotation at frame \(k)")
        }
    }

    @Test("Lottie: Bézier easings become handles, springs and bounce are baked")
    func lottie() throws {
        let t = try #require(timeline(Self.script))
        let json = LottieExporter.export(t, fps: 30)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let layers = try #require(doc["layers"] as? [[String: Any]])
        #expect(layers.map { $0["nm"] as? String } == ["b", "a", "stage"])
        let a = try #require(layers[1]["ks"] as? [String: Any])
        // Position: one ease-in-out tween → two keyframes with CSS ease-in-out's handles.
        let p = try #require((a["p"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(p.count == 2)
        #expect((p[0]["o"] as? [String: [Double]])?["x"] == [0.42])
        #expect((p[0]["i"] as? [String: [Double]])?["x"] == [0.58])
        #expect(p[0]["s"] as? [Double] == [20, 50, 0] && p[1]["s"] as? [Double] == [100, 50, 0])
        #expect(p[1]["t"] as? Double == 30)
        // Rotation: the spring is baked, one keyframe per frame while it moves.
        let r = try #require((a["r"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(r.count > 10)
        // Opacity of b: bounce-out baked at 30 fps over 0.5 s.
        let b = try #require(layers[0]["ks"] as? [String: Any])
        let o = try #require((b["o"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(o.count >= 15)
        #expect((o.last?["s"] as? [Double])?.first.map { abs($0 - 20) < 1e-9 } == true)
    }

    @Test("Lottie: a Bézier tween after a still stretch keeps its start key and handles")
    func lottieAfterHold() throws {
        let t = try #require(timeline("rect a center (10,10) color red\nwait 1\nanimate 1 ease ease-in < a.alpha = 0 >"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(LottieExporter.export(t, fps: 30).utf8)) as? [String: Any])
        let a = try #require((doc["layers"] as? [[String: Any]])?.first?["ks"] as? [String: Any])
        let o = try #require((a["o"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(o.map { $0["t"] as? Double } == [0, 30, 60])
        #expect(o.map { $0["s"] as? [Double] } == [[100], [100], [0]])
        #expect(o[0]["h"] as? Int == 1)
        #expect((o[1]["o"] as? [String: [Double]])?["x"] == [0.42])
    }

    @Test("the terminal chart: lanes, bars, ticks, colour only when asked")
    func chart() throws {
        let t = try #require(timeline(Self.script + "\nthen < print \"done\" >"))
        let plain = TimelineChart.render(t, width: 80, color: false)
        #expect(plain.contains("── lane 1: a"))
        #expect(plain.contains("center"))
        #expect(plain.contains("◆"))
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let colored = TimelineChart.render(t, width: 80, color: true)
        #expect(colored.contains("\u{1B}[36m"))
        let empty = TimelineChart.render(try #require(timeline("rect a center (0,0)")), width: 80, color: false)
        #expect(empty.contains("(nothing is animated)"))
    }
}
