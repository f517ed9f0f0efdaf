// The HTML player checked in a real browser: headless Chromium opens the page at several
// times (`#t=T&shot` shows the stage alone, paused at T) and its screenshot must match the PNG
// frame that anim renders for the same time; the page must run without console errors.
//
// Tolerance: both are antialiased by coverage, Chromium (Skia) analytically and anim by a
// signed distance, so edge pixels differ by a few levels and rotated corners by more; colours
// inside shapes agree to rounding. We allow at most 0.5% of pixels to differ by more than 24
// levels (of 255) in any channel and a mean difference under 1 level. Measured on scene.anim
// at 0, 0.5, 1.2 and 2.4 s: see the test log (`swift test --filter Chromium`).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("HTML player in headless Chromium", .serialized)
struct RenderChromiumTests {
    static let times = ["0", "0.5", "1.2", "2.4"]

    /// Opens a page in headless Chromium and takes a screenshot of the window.
    static func screenshot(_ url: String, to path: String, width: Int, height: Int) throws -> ToolResult {
        try Consumers.run(Consumers.chromium!, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--default-background-color=ffffffff", "--window-size=\(width),\(height)", "--screenshot=\(path)", url,
        ])
    }

    @Test("the stage matches anim's PNG frames", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func stageMatchesFrames() throws {
        let dir = try ScratchDirectory("chromium")
        defer { dir.remove() }
        let html = dir.path("scene.html")
        let r = try runAnim(["render", PictureFixtures.scene, "-o", html, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        for t in Self.times {
            let shot = dir.path("shot-\(t).png"), frame = dir.path("frame-\(t).png")
            let s = try Self.screenshot("file://\(html)#t=\(t)&shot", to: shot, width: 320, height: 240)
            #expect(FileManager.default.fileExists(atPath: shot), Comment(rawValue: s.stderr))
            let f = try runAnim(["render", PictureFixtures.scene, "-o", frame, "--at", t])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let browser = try PNGFile.read(shot), anim = try PNGFile.read(frame)
            let d = try #require(ImageDifference.between(browser, anim, threshold: 24),
                                 "sizes differ: \(browser.width)x\(browser.height) vs \(anim.width)x\(anim.height)")
            print("Chromium vs anim PNG at \(t)s: \(d)")
            #expect(d.overFraction <= 0.005, "at \(t)s: \(d)")
            #expect(d.mean < 1.0, "at \(t)s: \(d)")
        }
    }

    @Test("the page runs without console errors", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func noConsoleErrors() throws {
        let dir = try ScratchDirectory("chromium-console")
        defer { dir.remove() }
        let html = dir.path("demo.html")
        let r = try runAnim(["render", "Examples/demo.anim", "-o", html])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!page.contains("http://") || !page.contains("src=\"http"), "the page must not load anything from the network")
        for fragment in ["", "#t=1.3", "#t=99&shot"] {
            let dom = try Consumers.run(Consumers.chromium!, [
                "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=1500", "--dump-dom", "file://\(html)\(fragment)",
            ])
            let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
            #expect(console.isEmpty, "console output for \(fragment): \(console.joined(separator: "\n"))")
            #expect(dom.stdout.contains("data-ready="), "the player script did not finish for '\(fragment)'")
            #expect(!dom.stdout.contains("data-errors="), "errors for '\(fragment)': \(dom.stdout.prefix(300))")
        }
    }

    @Test("the animated SVG plays on its own", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svgPlays() throws {
        let dir = try ScratchDirectory("chromium-svg")
        defer { dir.remove() }
        let svg = dir.path("scene.svg")
        let r = try runAnim(["render", PictureFixtures.scene, "-o", svg, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        // The SVG inlined in a page that pauses its SMIL clock at T (SVGSVGElement.setCurrentTime).
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        for t in ["0.5", "1.2", "2.4"] {
            let shot = dir.path("svg-\(t).png"), frame = dir.path("frame-\(t).png"), page = dir.path("svg-\(t).html")
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(text)<script>var s = document.querySelector('svg'); "
                + "s.pauseAnimations(); s.setCurrentTime(\(t));</script></body></html>"
            try html.write(toFile: page, atomically: true, encoding: .utf8)
            _ = try Self.screenshot("file://\(page)", to: shot, width: 320, height: 240)
            #expect(try runAnim(["render", PictureFixtures.scene, "-o", frame, "--at", t]).exitCode == 0)
            let d = try #require(ImageDifference.between(try PNGFile.read(shot), try PNGFile.read(frame), threshold: 24))
            print("Chromium SVG vs anim PNG at \(t)s: \(d)")
            #expect(d.overFraction <= 0.005, "at \(t)s: \(d)")
            #expect(d.mean < 1.0, "at \(t)s: \(d)")
        }
    }
}
