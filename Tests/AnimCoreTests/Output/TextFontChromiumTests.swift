// Text fonts in every renderer against headless Chromium: text in other families, weights and
// alignments (`font-family`, `weight`, `align`), rotated and scaled about their pivots, with an
// alignment, a weight and a family that switch during the run, drawn by Canvas (PNG frames,
// sheets, GIF, MP4) at several times and by Chromium from the HTML player (`#t=T&shot`) and
// from the animated SVG (its SMIL clock paused at T), within the project's tolerance (≤ 0.5 %
// of pixels off by more than 24/255, mean under 1 level). The reference is Chromium at 8
// device pixels per CSS pixel averaged down: Blink rounds a font's ascent and descent to whole
// device pixels and, where the descent rounds down, moves one pixel from the ascent to the
// descent (FontMetrics' ascent/descent adjustment under subpixel positioning), which moves
// `dominant-baseline: central` text by up to one device pixel — a quarter of a CSS pixel at
// 4×, over the tolerance for a stage this full of text (1.0–1.3 % of pixels at 4×; 0.26–0.45 %
// at 8×, where the rounding is an eighth). The rasterizer keeps the font's own metrics, as
// StageText explains. Chromium finds the same font files through the
// same fontconfig: the families are written as `'FAMILY', Helvetica, Arial, sans-serif`, so a
// family that is not installed falls back in Chromium as in the rasterizer.
@testable import AnimCore
import Foundation
import Testing

@Suite("Text fonts against Chromium", .serialized)
struct TextFontChromiumTests {
    static let scene = """
        stage 400 x 240 color white
        rect guide center (200, 120) size (1, 240) color #cc000044
        text left center (200, 24) text "Left from here" font 22 align left
        text bold center (200, 60) text "Bold, centred" font 26 weight bold color #203080
        text light center (200, 96) text "Right, light" font 22 weight 200 align right
        text serif center (200, 136) text "Serif Type" font 28 font-family "DejaVu Serif" weight 700 rotation -8
        text mono center (200, 176) text "mono 0123" font 20 font-family "DejaVu Sans Mono" align left scale (1.4, 1)
        text gone center (200, 214) text "No such family" font 20 font-family "No Such Family" weight 600 align right
        animate 2 ease linear < serif.rotation = 8; mono.font = 26 > as grow
        with grow < wait 1 then set left.align = right then set bold.weight = normal then set gone.font-family = "DejaVu Serif" >
        """

    static let times = [0.0, 0.5, 1.2, 2.0]

    /// The stage drawn by Canvas at `seconds`.
    static func drawnFrame(_ t: Timeline, _ seconds: Double) -> Canvas {
        let frame = t.frame(at: Time(seconds: seconds)!)
        var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
        c.draw(frame)
        return c
    }

    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-fonts-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("families, weights and alignments match the HTML player at several times",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesPlayer() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        try HTMLPlayer.render(t, fps: 30).write(to: page, atomically: true, encoding: .utf8)
        for s in Self.times {
            let shot = try Chromium.screenshot(url: page.absoluteString + "#t=\(s)&shot", width: 400, height: 240, scale: 8)
            let ours = Self.drawnFrame(t, s)
            dump(shot, "fonts-player-chromium-\(s)")
            dump(ours, "fonts-anim-\(s)")
            let d = PixelDifference.between(shot, ours)
            print("text fonts vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("families, weights and alignments match the animated SVG at several times",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesSVG() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = AnimatedSVG.render(t, fps: 30)
        for s in Self.times {
            let page = dir.appendingPathComponent("svg-\(s).html")
            let set = "var s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(s));"
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(svg)<script>\(set) "
                + "addEventListener('load', function () { \(set) });</script></body></html>"
            try html.write(to: page, atomically: true, encoding: .utf8)
            let shot = try Chromium.screenshot(url: page.absoluteString, width: 400, height: 240, scale: 8)
            let ours = Self.drawnFrame(t, s)
            dump(shot, "fonts-svg-chromium-\(s)")
            let d = PixelDifference.between(shot, ours)
            print("text fonts vs Chromium SVG at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    /// The ink's columns of a one-text stage: the first and last with a dark pixel.
    static func inkColumns(_ line: String) throws -> (Int, Int) {
        let t = try #require(timeline("stage 300 x 60 color white\n" + line, fps: 30))
        let c = drawnFrame(t, 0)
        var lo = Int.max, hi = Int.min
        for y in 0..<60 { for x in 0..<300 where c.pixel(x, y).r < 128 { lo = min(lo, x); hi = max(hi, x) } }
        return (lo, hi)
    }

    @Test("align puts the line's start, middle or end on the pivot; weight and family change the face")
    func alignAndFaces() throws {
        let left = try Self.inkColumns("text t center (150, 30) text \"Hello\" font 24 align left")
        let right = try Self.inkColumns("text t center (150, 30) text \"Hello\" font 24 align right")
        let center = try Self.inkColumns("text t center (150, 30) text \"Hello\" font 24")
        #expect(left.0 >= 150 && left.0 <= 153, "left: the line starts at the pivot, \(left)")
        #expect(right.1 <= 150 && right.1 >= 146, "right: the line ends at the pivot, \(right)")
        #expect(abs((center.0 + center.1) / 2 - 150) <= 2, "center: \(center)")
        let normal = try #require(StageText.face(family: "", weight: 400)), bold = try #require(StageText.face(family: "", weight: 700))
        #expect(normal.style != bold.style, "bold is its own face: \(normal.style), \(bold.style)")
        let serif = try #require(StageText.face(family: "DejaVu Serif", weight: 400))
        #expect(serif.family == "DejaVu Serif")
        // A family that is not installed is the stage's font.
        #expect(StageText.face(family: "No Such Family", weight: 400)?.path == normal.path)
        #expect(!StageText.isInstalled("No Such Family") && StageText.isInstalled("DejaVu Serif"))
    }

    @Test("the Lottie export draws each string in its own face, aligned")
    func lottieFaces() throws {
        let script = """
            stage 200 x 100
            text t center (100, 50) text "Hi" font 20 align left
            wait 0.5
            set t.weight = bold
            set t.align = right
            """
        let t = try #require(timeline(script, fps: 30))
        let json = LottieExporter.export(t, fps: 30)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let layers = try #require(object["layers"] as? [[String: Any]])
        let shapes = try #require(layers.first?["shapes"] as? [[String: Any]])
        let groups = try #require((shapes.first?["it"] as? [[String: Any]])?.filter { ($0["ty"] as? String) == "gr" })
        #expect(groups.count == 2, "one group per string and font")
        func xs(_ g: [String: Any]) -> [Double] {
            ((g["it"] as? [[String: Any]]) ?? []).compactMap { item -> [Double]? in
                guard let ks = item["ks"] as? [String: Any], let k = ks["k"] as? [String: Any], let v = k["v"] as? [[Double]] else { return nil }
                return v.map { $0[0] }
            }.flatMap { $0 }
        }
        let first = xs(groups[0]), second = xs(groups[1])
        #expect(!first.isEmpty && first.min()! >= -1, "align left: the outlines start at x = 0")
        #expect(!second.isEmpty && second.max()! <= 1, "align right: they end there")
    }
}
