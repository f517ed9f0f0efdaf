// Image shapes in every renderer against headless Chromium: the fixture PNG
// (Tests/Pictures/icon.png: a smooth gradient with a half-transparent disc) drawn at its own
// size, stretched, turned about an anchor, faded and shadowed, by Canvas (PNG frames, sheets,
// GIF, MP4) at several times and by Chromium from the HTML player (`#t=T&shot`) and from the
// animated SVG (both embed the PNG as a data URI), within the project's tolerance (≤ 0.5 % of
// pixels off by more than 24/255, mean under 1 level), the reference at 4 device pixels per
// CSS pixel averaged down as in PaintChromiumTests.
@testable import AnimCore
import Foundation
import Testing

@Suite("Images against Chromium", .serialized)
struct ImageChromiumTests {
    /// The fixture, by absolute path (the tests' working directory is not the script's).
    static let icon = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Pictures/icon.png").standardizedFileURL.path

    static var scene: String {
        """
        stage 320 x 240 color #f4f1ea
        image plain file "\(icon)" center (40, 40) size (32, 32)
        image wide file "\(icon)" center (130, 60) size (96, 48) anchor (0, 1) shadow-offset (3, 4) shadow-blur 6 shadow-color #00000066
        image turned file "\(icon)" center (230, 150) size (64, 64) alpha 0.8
        animate 2 ease linear < turned.rotation = 30deg; turned.scale = (1.25, 0.75); wide.rotation = -15deg; plain.alpha = 0.4; plain.size = (48, 40) >
        """
    }

    static let times = [0.0, 0.9, 2.0]

    @Test("image shapes match the HTML player at several times", .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesPlayer() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try PaintChromiumTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("scene.html")
        try HTMLPlayer.render(t, fps: 30).write(to: page, atomically: true, encoding: .utf8)
        for s in Self.times {
            let d = try PaintChromiumTests.compare(page.absoluteString + "#t=\(s)&shot", PaintChromiumTests.drawnFrame(t, s), "image-player-\(s)")
            print("images vs Chromium player at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("image shapes match the animated SVG at several times", .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func matchesSVG() throws {
        let t = try #require(timeline(Self.scene, fps: 30))
        let dir = try PaintChromiumTests.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = AnimatedSVG.render(t, fps: 30)
        #expect(svg.components(separatedBy: "data:image/png;base64,").count == 4, "each image embeds its PNG once")
        for s in Self.times {
            let page = dir.appendingPathComponent("svg-\(s).html")
            let set = "var s = document.querySelector('svg'); s.pauseAnimations(); s.setCurrentTime(\(s));"
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(svg)<script>\(set) "
                + "addEventListener('load', function () { \(set) });</script></body></html>"
            try html.write(to: page, atomically: true, encoding: .utf8)
            let d = try PaintChromiumTests.compare(page.absoluteString, PaintChromiumTests.drawnFrame(t, s), "image-svg-\(s)")
            print("images vs Chromium SVG at \(s)s: \(d)")
            #expect(d.withinTolerance, "at \(s)s: \(d)")
        }
    }

    @Test("an image is drawn into its box: its corner pixels are the PNG's, outside is the stage")
    func drawnIntoBox() throws {
        let c = try drawn("stage 64 x 64 color white\nimage i file \"\(Self.icon)\" center (32, 32) size (32, 32)")
        // The fixture's pixel (x, y) is (8x, 8y, 160) opaque away from its centre; drawn 1:1 at (16, 16).
        let p = c.pixel(16 + 2, 16 + 3)
        #expect(p.r == 16 && p.g == 24 && p.b == 160 && p.a == 255, "\(p)")
        #expect(c.pixel(10, 10) == (255, 255, 255, 255))
        #expect(c.pixel(50, 50) == (255, 255, 255, 255))
    }
}
