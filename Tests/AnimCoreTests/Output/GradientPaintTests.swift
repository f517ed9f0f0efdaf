// Gradient text and gradient strokes (Grammar.md §4.11): the rasterizer fills a text's
// gradient over its layout box (so its two ends show the two end colours, not the first colour
// everywhere), a moved glyph takes its part of the gradient with it, a glyph's own colour
// replaces it, and a stroke is painted by its gradient; the SVG, the player's data and the
// Lottie export name the gradient for the text and the stroke. (The pictures are compared with
// Chromium and the Lottie players in GradientChromiumTests and LottiePlayerTests.)
@testable import AnimCore
import Foundation
import Testing

@Suite("Gradient text and strokes")
struct GradientPaintTests {
    static let text = "stage 200 x 50 color white\ntext t center (100, 25) text \"IIIIIIII\" font 40 weight bold "
        + "fill linear-gradient(90deg, #ff0000, #0000ff)\n"

    /// The mean red and blue of the inked (not white) pixels in columns `x`.
    static func inkColour(_ c: Canvas, x: Range<Int>) -> (red: Double, blue: Double, count: Int) {
        var r = 0.0, b = 0.0, n = 0
        for yy in 0..<c.height { for xx in x {
            let p = c.pixel(xx, yy)
            guard Int(p.r) + Int(p.g) + Int(p.b) < 600, p.g < 120 else { continue }
            r += Double(p.r); b += Double(p.b); n += 1
        } }
        return n > 0 ? (r / Double(n), b / Double(n), n) : (0, 0, 0)
    }

    /// The leftmost and rightmost inked columns.
    static func inkedColumns(_ c: Canvas) -> Range<Int> {
        var lo = c.width, hi = 0
        for yy in 0..<c.height { for xx in 0..<c.width {
            let p = c.pixel(xx, yy)
            if Int(p.r) + Int(p.g) + Int(p.b) < 600 { lo = min(lo, xx); hi = max(hi, xx + 1) }
        } }
        return lo..<max(lo, hi)
    }

    @Test("a gradient text runs from the first colour at its left to the last at its right")
    func textEnds() throws {
        try #require(StageText.face != nil)
        let c = try drawn(Self.text)
        let ink = Self.inkedColumns(c)
        try #require(ink.count > 60)
        let left = Self.inkColour(c, x: ink.lowerBound..<(ink.lowerBound + 8)), right = Self.inkColour(c, x: (ink.upperBound - 8)..<ink.upperBound)
        #expect(left.count > 0 && right.count > 0)
        #expect(left.red > 180 && left.blue < 90, "left: \(left)")
        #expect(right.blue > 180 && right.red < 90, "right: \(right)")
    }

    @Test("a moved glyph takes its part of the gradient with it; a glyph's own colour replaces it")
    func glyphs() throws {
        try #require(StageText.face != nil)
        // The first glyph (red end) moved 60 px right and 50 px down, below the line, under the
        // gradient's middle: still red (CSS's background-clip: text would show it purple).
        let moved = try drawn(Self.text.replacingOccurrences(of: "200 x 50", with: "200 x 100") + "set t.glyphs[0].offset = (60, 50)")
        var r = 0.0, b = 0.0, n = 0
        for yy in 55..<100 { for xx in 0..<200 {
            let p = moved.pixel(xx, yy)
            guard Int(p.r) + Int(p.g) + Int(p.b) < 450 else { continue }
            r += Double(p.r); b += Double(p.b); n += 1
        } }
        #expect(n > 20 && r / Double(max(n, 1)) > 200 && b / Double(max(n, 1)) < 60, "moved glyph: \(n) pixels, red \(r / Double(max(n, 1))), blue \(b / Double(max(n, 1)))")
        // The last glyph in its own green.
        let green = try drawn(Self.text + "set t.glyphs[7].color = #00ff00")
        let ink = Self.inkedColumns(green)
        var greens = 0
        for yy in 0..<green.height { for xx in (ink.upperBound - 6)..<ink.upperBound where green.pixel(xx, yy).g > 200 && green.pixel(xx, yy).r < 80 { greens += 1 } }
        #expect(greens > 20)
    }

    @Test("a gradient stroke is painted by its gradient, not its first colour")
    func stroke() throws {
        let c = try drawn("stage 200 x 60 color white\nrect r center (100, 30) size (180, 40) fill none stroke linear-gradient(90deg, #ff0000, #0000ff) stroke-width 6")
        let left = c.pixel(10, 30), right = c.pixel(190, 30)
        #expect(left.r > 200 && left.b < 60, "left: \(left)")
        #expect(right.b > 200 && right.r < 60, "right: \(right)")
    }

    @Test("the SVG, the player's data and the Lottie export paint the text and the stroke with their gradients")
    func outputs() throws {
        try #require(StageText.face != nil)
        let script = Self.text + "rect r center (100, 30) size (180, 40) fill none stroke linear-gradient(90deg, #ff0000, #0000ff) stroke-width 6\n"
            + "animate 1 < r.stroke = linear-gradient(180deg, #00ff00, #0000ff) >"
        let t = try #require(timeline(script))
        let svg = AnimatedSVG.render(t, fps: 10)
        #expect(svg.contains("<text") && svg.contains("id=\"t-gradient-0\""), "no text gradient")
        #expect(svg.contains("stroke=\"url(#r-stroke-gradient-0)\""), "no gradient stroke")
        // The text's gradient spans its layout box: CSS's line for 90deg runs across its width.
        let baked = BakedFrames(t, fps: 10)
        let text = try #require(baked.shapes.first { $0.name == "t" })
        let gr = text.geometry[BakedFrames.Geometry.gr.rawValue][0]
        let box = try #require(gr.split(separator: "|").last).split(separator: " ").compactMap { Double($0) }
        let frame = t.frame(at: .zero).shapes.first { $0.kind == .text }!
        let face = try #require(StageText.face(for: frame)), layout = try #require(StageText.layout(frame, face: face))
        #expect(box.count == 4 && abs(box[2] * 2 - layout.box.width) < 0.01 && abs(box[3] * 2 - layout.box.height) < 0.01, "\(gr)")
        let lottie = LottieExporter.export(t, fps: 10)
        #expect(lottie.contains("\"ty\":\"gf\""), "no gradient fill on the text's glyphs")
        #expect(lottie.contains("\"ty\":\"gs\""), "no gradient stroke")
    }

    // MARK: - Against Chromium

    /// Tests/Pictures/gradient-paint.anim: gradient text (whole, and glyph by glyph with a glyph
    /// moved and turned and one in its own colour) and gradient strokes (animated, dashed).
    static let paintScene = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Pictures/gradient-paint.anim").standardizedFileURL.path
    static let paintTimes = [0.0, 0.6, 1.3, 2.0]

    static func paintTimeline() throws -> Timeline {
        try #require(timeline(try String(contentsOfFile: paintScene, encoding: .utf8), fps: 30))
    }

    /// The stage drawn by Canvas at `seconds`.
    static func drawnFrame(_ t: Timeline, _ seconds: Double) -> Canvas {
        let frame = t.frame(at: Time(seconds: seconds)!)
        var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
        c.draw(frame)
        return c
    }

    /// Chromium at 4 device pixels per CSS pixel averaged down, the reference for text (see
    /// TextRasterChromiumTests: at 1× Chromium rounds glyph coverage and baselines itself).
    @Test("the HTML player draws gradient text and gradient strokes as the PNG frames do",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func paintPlayer() throws {
        let t = try Self.paintTimeline()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-gradient-paint-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        try HTMLPlayer.render(t, fps: 30).write(to: page, atomically: true, encoding: .utf8)
        for s in Self.paintTimes {
            let shot = try Chromium.screenshot(url: page.absoluteString + "#t=\(s)&shot", width: 320, height: 240, scale: 4)
            let d = PixelDifference.between(shot, Self.drawnFrame(t, s))
            print("gradient paint: PNG vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "player at \(s)s: \(d)")
        }
    }

    @Test("the animated SVG draws gradient text and gradient strokes as the PNG frames do",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func paintSVG() throws {
        let t = try Self.paintTimeline()
        let svg = AnimatedSVG.render(t, fps: 30)
        #expect(svg.contains("stroke=\"url(#"), "no gradient stroke in the SVG")
        for s in Self.paintTimes {
            // Paused and set at once and again at load (a loaded machine may start the document
            // timeline after the script), as PaintChromiumTests does.
            let set = "var s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(s));"
            let body = svg + "<script>\(set) addEventListener('load', function () { \(set) });</script>"
            let shot = try Chromium.screenshot(body, width: 320, height: 240, scale: 4)
            let d = PixelDifference.between(shot, Self.drawnFrame(t, s))
            print("gradient paint: PNG vs Chromium SVG at \(s)s: \(d)")
            #expect(d.withinTolerance, "SVG at \(s)s: \(d)")
        }
    }
}
