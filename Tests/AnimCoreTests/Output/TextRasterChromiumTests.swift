// Text shapes in the rasterizer (PNG frames, sheets, GIF, MP4) against the HTML player in
// headless Chromium: a scene of text at several sizes, rotated, scaled, translucent, under and
// over other shapes, with a string that changes over time, drawn by Canvas at several times and
// by the player paused at the same times (`#t=T&shot`), must be within the project's tolerance
// (≤ 0.5 % of pixels off by more than 24/255, mean under 1 level). The reference is Chromium at
// 4 device pixels per CSS pixel averaged down, as in VectorChromiumTests: at 1× Chromium itself
// rounds glyph coverage and baselines and is not within tolerance of its own 4× rendering.
@testable import AnimCore
import Foundation
import Testing

@Suite("Text in the rasterizer against Chromium", .serialized)
struct TextRasterChromiumTests {
    static let scene = """
        stage 400 x 240 color white
        rect band center (200, 120) size (400, 60) color #ddeeff
        text title center (200, 36) text "Hello, anim" font 24 color black
        text big center (150, 120) text "Typo! AVA" font 40 color #aa0000 rotation 12
        text ghost center (300, 200) text "translucent" font 18 color blue alpha 0.5 scale (1.5, 1)
        text clock center (90, 200) text "t = 0" font 30 color #226622
        rect lid center (330, 36) size (60, 40) color orange alpha 0.6 z 1
        animate 2 ease linear < big.rotation = -20; big.font = 28; ghost.alpha = 1 > as grow
        with grow < wait 1 then set clock.text = "t = 1 s" then wait 0.6 then set clock.text = "done!" >
        """

    static let times = [0.0, 0.5, 1.2, 2.0]

    /// The stage drawn by Canvas at `seconds`.
    static func drawnFrame(_ t: Timeline, _ seconds: Double) -> Canvas {
        let frame = t.frame(at: Time(seconds: seconds)!)
        var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
        c.draw(frame)
        return c
    }

    @Test("text shapes match the HTML player at several times",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func textMatchesPlayer() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-text-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        try HTMLPlayer.render(t, fps: 30).write(to: page, atomically: true, encoding: .utf8)
        for s in Self.times {
            let shot = try Chromium.screenshot(url: page.absoluteString + "#t=\(s)&shot", width: 400, height: 240, scale: 4)
            let ours = Self.drawnFrame(t, s)
            dump(shot, "text-chromium-\(s)")
            dump(ours, "text-anim-\(s)")
            let d = PixelDifference.between(shot, ours)
            print("text raster vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("the text is drawn: ink where each string is, none without the text shapes")
    func textIsDrawn() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let with = Self.drawnFrame(t, 0)
        let without = try #require(timeline(Self.scene.split(separator: "\n").filter { !$0.hasPrefix("text") && !$0.contains("clock") && !$0.contains("big") }
            .joined(separator: "\n"), fps: 30))
        let plain = Self.drawnFrame(without, 0)
        let d = PixelDifference.between(with, plain)
        #expect(d.over > 1000, "the text shapes should change many pixels: \(d)")
    }
}
