// Anchors and drop shadows in every renderer against headless Chromium: a scene with rotation
// and scale about anchors on a rect, a circle and text, and shadows whose offset, blur and
// colour animate, drawn by Canvas (PNG frames, sheets, GIF, MP4) at several times and by
// Chromium from the HTML player (`#t=T&shot`) and from the animated SVG (its SMIL clock paused
// at T) must be within the project's tolerance (≤ 0.5 % of pixels off by more than 24/255,
// mean under 1 level). The reference is Chromium at 4 device pixels per CSS pixel averaged
// down, as in TextRasterChromiumTests (the scene has text; at 1× Chromium rounds glyphs).
@testable import AnimCore
import Foundation
import Testing

@Suite("Anchors and shadows against Chromium", .serialized)
struct PaintChromiumTests {
    static let scene = """
        stage 320 x 240 color #f4f1ea
        rect card center (110, 110) size (120, 70) radius 12 color #ffffff anchor (0.5, 1) shadow-offset (0, 4) shadow-blur 12 shadow-color #00000055
        rect hinge center (240, 60) size (80, 24) color #3366ff anchor (0, 0.5)
        circle dot center (250, 170) radius 24 color orange anchor (0, 0) shadow-offset (-4, 6) shadow-blur 3 shadow-color #0000ffcc
        text label center (110, 200) text "Shadow" font 22 color #203040 shadow-offset (2, 2) shadow-blur 2 shadow-color #ff000099
        rect ghost center (60, 40) size (50, 30) color #22aa66 alpha 0.6 anchor (1, 1) shadow-offset (3, 3) shadow-blur 4
        animate 2 ease linear < card.rotation = -20deg; card.shadow-offset = (8, 14); card.shadow-blur = 20 >
        animate 2 < hinge.rotation = 135deg; hinge.scale = (1.2, 1.5) >
        animate 1.5 ease ease-out < dot.scale = 0.6; dot.shadow-color = #00000080; dot.alpha = 0.7 >
        animate 2 < label.rotation = 10deg; label.shadow-blur = 6; ghost.rotation = 45deg; ghost.anchor = (0, 0) >
        """

    static let times = [0.0, 0.7, 1.5, 2.0]

    /// The stage drawn by Canvas at `seconds`.
    static func drawnFrame(_ t: Timeline, _ seconds: Double) -> Canvas {
        let frame = t.frame(at: Time(seconds: seconds)!)
        var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
        c.draw(frame)
        return c
    }

    /// Chromium's screenshot of `url` compared with `ours`. On a loaded machine headless
    /// Chromium now and then shoots before its filters are drawn (a shape's shadow, or the
    /// shape, missing); a shot out of tolerance is taken once more, and the second must pass.
    static func compare(_ url: String, _ ours: Canvas, _ name: String) throws -> PixelDifference {
        var shot = try Chromium.screenshot(url: url, width: 320, height: 240, scale: 4)
        var d = PixelDifference.between(shot, ours)
        if !d.withinTolerance {
            print("\(name): first shot out of tolerance (\(d)), shooting again")
            shot = try Chromium.screenshot(url: url, width: 320, height: 240, scale: 4)
            d = PixelDifference.between(shot, ours)
        }
        dump(shot, "\(name)-chromium")
        dump(ours, "\(name)-anim")
        return d
    }

    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-paint-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("anchored, shadowed shapes match the HTML player at several times",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesPlayer() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        try HTMLPlayer.render(t, fps: 30).write(to: page, atomically: true, encoding: .utf8)
        for s in Self.times {
            let d = try Self.compare(page.absoluteString + "#t=\(s)&shot", Self.drawnFrame(t, s), "paint-player-\(s)")
            print("anchors and shadows vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("anchored, shadowed shapes match the animated SVG at several times",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesSVG() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = AnimatedSVG.render(t, fps: 30)
        for s in Self.times {
            let page = dir.appendingPathComponent("svg-\(s).html")
            // The clock is paused and set at once and again once the page has loaded (the
            // document timeline starts at load, which a loaded machine may reach after the script).
            let set = "var s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(s));"
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(svg)<script>\(set) "
                + "addEventListener('load', function () { \(set) });</script></body></html>"
            try html.write(to: page, atomically: true, encoding: .utf8)
            let d = try Self.compare(page.absoluteString, Self.drawnFrame(t, s), "paint-svg-\(s)")
            print("anchors and shadows vs Chromium SVG at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("the anchor moves the picture and the shadow darkens pixels beside the shape")
    func anchorAndShadowAreDrawn() throws {
        let plain = try #require(timeline("stage 100 x 100 color white\nrect a center (50, 50) size (40, 20) color black rotation 90deg", fps: 30))
        let anchored = try #require(timeline("stage 100 x 100 color white\nrect a center (50, 50) size (40, 20) color black rotation 90deg anchor (0, 0)", fps: 30))
        let p = Self.drawnFrame(plain, 0), a = Self.drawnFrame(anchored, 0)
        // Turned about its center the box spans x 40…60, y 30…70; about its top-left corner
        // (30, 40) it spans x 10…30, y 40…80.
        #expect(p.pixel(50, 35).r == 0 && p.pixel(20, 60).r == 255)
        #expect(a.pixel(20, 60).r == 0 && a.pixel(50, 35).r == 255)
        let shadowed = try #require(timeline("stage 100 x 100 color white\nrect a center (50, 50) size (40, 20) color white shadow-offset (0, 10) shadow-blur 4 shadow-color #000000", fps: 30))
        let s = Self.drawnFrame(shadowed, 0)
        #expect(s.pixel(50, 50).r == 255, "the shape is drawn over its shadow")
        #expect(s.pixel(50, 67).r < 100, "the shadow shows below the shape")
        #expect(s.pixel(50, 30).r == 255, "nothing above it")
    }
}
