// Gradient fills (issue 15) checked in a real browser: Tests/Pictures/gradients.anim (linear
// gradients at CSS angles with positioned stops, a radial gradient, on a rect, circle,
// ellipse and polygon, animated stop by stop and from a gradient to a colour), rendered as
// anim's PNG frames (the vector layer's shader) and compared with headless Chromium's
// rendering of the HTML player and of the animated SVG at several times, at the project's tolerance
// (RenderChromiumTests): at most 0.5% of pixels more than 24 levels off, mean under 1 level.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Gradients in headless Chromium", .serialized)
struct GradientChromiumTests {
    static let times = ["0", "0.7", "1.5", "2"]
    static var scene: String { PictureFixtures.directory.appendingPathComponent("gradients.anim").path }

    @Test("the HTML player draws gradient fills as anim's PNG frames do", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func player() throws {
        let dir = try ScratchDirectory("gradients-html")
        defer { dir.remove() }
        let html = dir.path("gradients.html")
        let r = try runAnim(["render", Self.scene, "-o", html, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        for t in Self.times {
            let shot = dir.path("shot-\(t).png"), frame = dir.path("frame-\(t).png")
            let s = try RenderChromiumTests.screenshot("file://\(html)#t=\(t)&shot", to: shot, width: 320, height: 240)
            #expect(FileManager.default.fileExists(atPath: shot), Comment(rawValue: s.stderr))
            let f = try runAnim(["render", Self.scene, "-o", frame, "--at", t])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let browser = try PNGFile.read(shot), anim = try PNGFile.read(frame)
            let d = try #require(ImageDifference.between(browser, anim, threshold: 24),
                                 "sizes differ: \(browser.width)x\(browser.height) vs \(anim.width)x\(anim.height)")
            print("Chromium player vs anim PNG (gradients) at \(t)s: \(d)")
            #expect(d.overFraction <= 0.005, "player at \(t)s: \(d)")
            #expect(d.mean < 1.0, "player at \(t)s: \(d)")
        }
    }

    @Test("the animated SVG draws gradient fills as anim's PNG frames do", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svg() throws {
        let dir = try ScratchDirectory("gradients-svg")
        defer { dir.remove() }
        let svg = dir.path("gradients.svg")
        let r = try runAnim(["render", Self.scene, "-o", svg, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stderr.isEmpty, Comment(rawValue: r.stderr))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<linearGradient") && text.contains("<radialGradient"))
        for t in Self.times {
            let shot = dir.path("svg-\(t).png"), page = dir.path("svg-\(t).html"), frame = dir.path("frame-\(t).png")
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(text)<script>var s = document.querySelector('svg'); "
                + "s.pauseAnimations(); s.setCurrentTime(\(t));</script></body></html>"
            try html.write(toFile: page, atomically: true, encoding: .utf8)
            _ = try RenderChromiumTests.screenshot("file://\(page)", to: shot, width: 320, height: 240)
            let f = try runAnim(["render", Self.scene, "-o", frame, "--at", t])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let browser = try PNGFile.read(shot), anim = try PNGFile.read(frame)
            let d = try #require(ImageDifference.between(browser, anim, threshold: 24),
                                 "sizes differ: \(browser.width)x\(browser.height) vs \(anim.width)x\(anim.height)")
            print("Chromium SVG vs anim PNG (gradients) at \(t)s: \(d)")
            #expect(d.overFraction <= 0.005, "SVG at \(t)s: \(d)")
            #expect(d.mean < 1.0, "SVG at \(t)s: \(d)")
        }
    }

    @Test("the player's page has a linearGradient and a radialGradient, and no console errors",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func elements() throws {
        let dir = try ScratchDirectory("gradients-dom")
        defer { dir.remove() }
        let html = dir.path("gradients.html")
        let r = try runAnim(["render", Self.scene, "-o", html])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(html)#t=0")
        let counts = try browser.string("document.querySelectorAll('linearGradient').length + ' ' + document.querySelectorAll('radialGradient').length")
        #expect(counts == "3 1", "gradients: \(counts)")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}
