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

/// The timeline strip's labels measured in headless Chromium, with its own fonts: no two
/// labels may overlap, and each must fit the box it was laid out in (the width estimate is an
/// upper bound, so nothing is cut by the clip that guards it).
@Suite("Timeline strip labels in headless Chromium", .serialized)
struct StripLabelTests {
    /// Crowded prints: close together, wide letters, one that must read leftwards at the end
    /// (the reverse makes the run 3 s long).
    static let script = """
        rect a center (0, 0)
        rect b center (0, 0)
        animate 1 < a.center = (100, 0) > then animate 0.5 < b.center = (50, 50); b.alpha = 0.5 > as go
        at 0.1 < print "the first message is rather long" >
        at 0.12 < print "second one" >
        at 0.13 < print "third" >
        at 0.14 < print "fourth" >
        at 0.5 < print "WWWWWWWWWWWWWWWW" >
        at 0.8 < print "MMMM right after" >
        at 2.5 < print "near the end of the run, a long one" >
        at 3 < print "the very end, read leftwards" >
        at 3 < print "and one more" >
        at 1.5 < reverse go >
        """

    /// Every label's visible box: its text's box cut to the viewport that clips it.
    static let measure = """
        JSON.stringify(Array.prototype.map.call(document.querySelectorAll('g.messages text, g.lane text'), function (t) {
          var b = t.getBoundingClientRect(), v = t.parentNode.tagName === 'svg' ? t.parentNode.getBoundingClientRect() : b;
          return { text: t.textContent, x0: Math.max(b.left, v.left), x1: Math.min(b.right, v.right), y0: Math.max(b.top, v.top),
                   y1: Math.min(b.bottom, v.bottom), cut: b.width - v.width };
        }))
        """

    @Test("no two labels overlap, and none is cut", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")),
          arguments: [("timeline", 760), ("html", 640)])
    func labels(_ output: String, _ width: Int) throws {
        let dir = try ScratchDirectory("strip-labels")
        defer { dir.remove() }
        let source = dir.path("crowd.anim")
        try Self.script.write(toFile: source, atomically: true, encoding: .utf8)
        let file = dir.path(output == "html" ? "crowd.html" : "crowd.svg")
        let r = try runAnim(output == "html" ? ["render", source, "-o", file] : ["timeline", source, "-o", file])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(file)\(output == "html" ? "#t=0" : "")")
        let json = try browser.string(Self.measure)
        let boxes = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(boxes.count >= 10, "labels found: \(boxes.count)")
        func d(_ b: [String: Any], _ k: String) -> Double { b[k] as? Double ?? Double(b[k] as? Int ?? 0) }
        for b in boxes where d(b, "cut") > 0.5 {
            Issue.record("'\(b["text"] ?? "")' is cut by \(d(b, "cut")) px: the width estimate was too small")
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                let w = min(d(a, "x1"), d(b, "x1")) - max(d(a, "x0"), d(b, "x0"))
                let h = min(d(a, "y1"), d(b, "y1")) - max(d(a, "y0"), d(b, "y0"))
                if w > 0.5 && h > 0.5 { Issue.record("'\(a["text"] ?? "")' and '\(b["text"] ?? "")' overlap by \(w) × \(h) px") }
            }
        }
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}
