// Morphs between paths of several contours of different structure (Tests/Pictures/
// morph-contours.anim: a ring to two squares, a square with a hole to a circle, one rectangle to
// three dots), drawn contour by contour: anim's PNG mid-morph has the holes and pieces where
// they belong (no bridges, no filled hole), and the HTML player, the animated SVG (Chromium),
// lottie-web and rlottie draw the same at the project's tolerance.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Multi-contour morphs in every output", .serialized)
struct MorphContourTests {
    static var scene: String { PictureFixtures.directory.appendingPathComponent("morph-contours.anim").path }
    static let times = ["0", "0.5", "1", "1.5", "2"]

    /// anim's PNG at `t`.
    static func frame(_ t: String, in dir: ScratchDirectory) throws -> String {
        let frame = dir.path("frame-\(t).png")
        let f = try runAnim(["render", scene, "-o", frame, "--at", t])
        try #require(f.exitCode == 0, Comment(rawValue: f.stderr))
        return frame
    }

    @Test("mid-morph, the hole stays a hole and every piece is where it goes (no bridge, no lost contour)")
    func pixels() throws {
        let dir = try ScratchDirectory("morph-contours-pixels")
        defer { dir.remove() }
        let image = try PNGFile.read(try Self.frame("1", in: dir))
        func rgb(_ x: Int, _ y: Int) -> [UInt8] {
            let k = (y * image.width + x) * 4
            return image.pixels[k..<(k + 3)].map { UInt8(($0 * 255).rounded()) }
        }
        // The square's hole shrinks in place: its centre is the stage's white.
        #expect(rgb(170, 70) == [255, 255, 255], "the hole of the square is filled: \(rgb(170, 70))")
        // The rectangle shrinks to the middle dot; the outer dots grow in place.
        #expect(rgb(160, 180) == [255, 165, 0], "the rectangle's middle is empty: \(rgb(160, 180))")
        #expect(rgb(80, 180) == [255, 165, 0] && rgb(240, 180) == [255, 165, 0], "a dot is missing")
        #expect(rgb(120, 180) == [255, 255, 255], "a bridge between the dots")
        // The ring's outline goes to the left square, its hole to the right one.
        #expect(rgb(35, 70) == [0, 128, 128] && rgb(85, 70) == [0, 128, 128], "a square of the ring is missing")
    }

    static func compare(_ shot: String, at t: String, in dir: ScratchDirectory, _ what: String) throws {
        let browser = try PNGFile.read(shot), anim = try PNGFile.read(try frame(t, in: dir))
        let d = try #require(ImageDifference.between(browser, anim, threshold: 24),
                             "sizes differ: \(browser.width)x\(browser.height) vs \(anim.width)x\(anim.height)")
        print("Chromium \(what) vs anim PNG (multi-contour morphs) at \(t)s: \(d)")
        #expect(d.overFraction <= 0.005, "\(what) at \(t)s: \(d)")
        #expect(d.mean < 1.0, "\(what) at \(t)s: \(d)")
    }

    @Test("the HTML player draws multi-contour morphs as anim's PNG frames do",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func player() throws {
        let dir = try ScratchDirectory("morph-contours-html")
        defer { dir.remove() }
        let html = dir.path("morph.html")
        let r = try runAnim(["render", Self.scene, "-o", html, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        for t in Self.times {
            let shot = dir.path("shot-\(t).png")
            let s = try RenderChromiumTests.screenshot("file://\(html)#t=\(t)&shot", to: shot, width: 320, height: 240)
            #expect(FileManager.default.fileExists(atPath: shot), Comment(rawValue: s.stderr))
            try Self.compare(shot, at: t, in: dir, "player")
        }
    }

    @Test("the animated SVG draws multi-contour morphs as anim's PNG frames do",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svg() throws {
        let dir = try ScratchDirectory("morph-contours-svg")
        defer { dir.remove() }
        let svg = dir.path("morph.svg")
        let r = try runAnim(["render", Self.scene, "-o", svg, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        // 1 ms past each frame instant: the SVG's keyTimes are written to 6 digits (0.166667 of
        // 3 s is 0.500001 s), so at the instant itself Chromium still shows the frame before.
        for t in Self.times {
            let shot = dir.path("svg-\(t).png"), page = dir.path("svg-\(t).html")
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(text)<script>var s = document.querySelector('svg'); "
                + "s.pauseAnimations(); s.setCurrentTime(\(t) + 0.001);</script></body></html>"
            try html.write(toFile: page, atomically: true, encoding: .utf8)
            _ = try RenderChromiumTests.screenshot("file://\(page)", to: shot, width: 320, height: 240)
            try Self.compare(shot, at: t, in: dir, "SVG")
        }
    }
}

extension LottiePlayerTests {
    @Test("lottie-web's SVG renderer and rlottie draw multi-contour morphs like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil && Consumers.rlottie, lottieWebNote))
    func contourMorphs() throws {
        let dir = try ScratchDirectory("lottie-contour-morphs")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: MorphContourTests.scene, frames: Self.pathFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.pathFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, contour morphs", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.pathFrames)
        _ = try RLottie.render(document: json, frames: Self.pathFrames.map(\.0), in: dir)
        try Self.compare("rlottie, contour morphs", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.pathFrames)
    }
}
