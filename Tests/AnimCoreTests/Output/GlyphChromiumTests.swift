// A text's glyphs (`title.glyphs`, Grammar.md §4.12) in the web outputs against the PNG frames:
// the HTML player (`#t=T&shot`) and the animated SVG (its SMIL clock paused at T) drawn by
// headless Chromium at several times, each glyph moved, turned, scaled, faded and tinted on its
// own, against Canvas within the project's tolerance (≤ 0.5 % of pixels off by more than 24/255,
// mean under 1 level), at 8 device pixels per CSS pixel averaged down as TextFontChromiumTests
// explains. The web outputs draw each glyph's outline where TextLayout placed it, so a glyph
// drawn whole as a `<text>` (or not moved at all) is off by far more than the tolerance.
@testable import AnimCore
import Foundation
import Testing

@Suite("Text glyphs against Chromium", .serialized)
struct GlyphChromiumTests {
    static let scene = """
        stage 400 x 200 color white
        text title center (200, 70) text "Glyphs, moved" font 36 weight bold color #203080 rotation -6
        text typed center (40, 150) text "typed in" font 30 align left scale (1.2, 1)
        stagger 0 for g in typed.glyphs < set g.alpha = 0; set g.offset = (0, 18) >
        animate 2 ease linear <
          title.glyphs[0].rotation = 40; title.glyphs[1].offset = (0, -24); title.glyphs[2].scale = 1.8
          title.glyphs[3].alpha = 0.25; title.glyphs[4].color = #e04020; title.glyphs[5].color = #20a04080
          title.glyphs[8].scale = (1, -1); title.glyphs[11].rotation = -90
        >
        stagger 0.15 for g in typed.glyphs < animate 0.3 ease linear < g.alpha = 1; g.offset = (0, 0) > >
        """

    static let times = [0.0, 0.9, 2.0]

    @Test("glyphs match the HTML player at several times", .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesPlayer() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try TextFontChromiumTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        let html = HTMLPlayer.render(t, fps: 30)
        #expect(!html.contains("\"kind\":\"glyph\""), "glyph shapes are not entries of the data")
        try html.write(to: page, atomically: true, encoding: .utf8)
        for s in Self.times {
            let shot = try Chromium.screenshot(url: page.absoluteString + "#t=\(s)&shot", width: 400, height: 200, scale: 8)
            let ours = TextFontChromiumTests.drawnFrame(t, s)
            dump(shot, "glyphs-player-chromium-\(s)")
            dump(ours, "glyphs-anim-\(s)")
            let d = PixelDifference.between(shot, ours)
            print("glyphs vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("glyphs match the animated SVG at several times", .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesSVG() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try TextFontChromiumTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = AnimatedSVG.render(t, fps: 30)
        #expect(!svg.contains("glyphs["), "glyph shapes are not groups of their own")
        for s in Self.times {
            let page = dir.appendingPathComponent("svg-\(s).html")
            let set = "var s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(s));"
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(svg)<script>\(set) "
                + "addEventListener('load', function () { \(set) });</script></body></html>"
            try html.write(to: page, atomically: true, encoding: .utf8)
            let shot = try Chromium.screenshot(url: page.absoluteString, width: 400, height: 200, scale: 8)
            let ours = TextFontChromiumTests.drawnFrame(t, s)
            dump(shot, "glyphs-svg-chromium-\(s)")
            let d = PixelDifference.between(shot, ours)
            print("glyphs vs Chromium SVG at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }
}
