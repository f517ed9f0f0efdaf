// ChromiumPixels: the one body of the pixel tests in headless Chromium (RenderChromiumTests,
// GradientChromiumTests, OutlineChromiumTests, MorphContourTests): render a script as the HTML
// player or the animated SVG, open it in Chromium at a time T (the player at `#t=T&shot`, which
// shows the stage alone, paused at T; the SVG inlined in a page that pauses its SMIL clock at T),
// take a screenshot, and compare its pixels with the PNG frame anim renders at T.
//
// Tolerance: both are antialiased by coverage, Chromium (Skia) analytically and anim by a
// signed distance, so edge pixels differ by a few levels and rotated corners by more; colours
// inside shapes agree to rounding. We allow at most 0.5% of pixels to differ by more than 24
// levels (of 255) in any channel and a mean difference under 1 level. The measured differences
// are printed (`swift test --filter Chromium`).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

enum ChromiumPixels {
    /// Levels (of 255) a channel may differ by before its pixel counts as different.
    static let threshold = 24
    /// The largest fraction of pixels that may differ by more than `threshold`.
    static let maxOverFraction = 0.005
    /// The mean difference, in levels, must stay under this.
    static let maxMean = 1.0

    /// Opens a page in headless Chromium and takes a screenshot of the window.
    static func screenshot(_ url: String, to path: String, width: Int = 320, height: Int = 240) throws -> ToolResult {
        try Consumers.run(Consumers.chromium!, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--default-background-color=ffffffff", "--window-size=\(width),\(height)", "--screenshot=\(path)", url,
        ])
    }

    /// anim's PNG frame of `scene` at `t` (seconds, as written), rendered into `dir`.
    static func frame(of scene: String, at t: String, in dir: ScratchDirectory,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let frame = dir.path("frame-\(t).png")
        let f = try runAnim(["render", scene, "-o", frame, "--at", t])
        #expect(f.exitCode == 0, Comment(rawValue: f.stderr), sourceLocation: sourceLocation)
        return frame
    }

    /// Records an issue unless the screenshot `shot` and anim's `frame` (PNG files) agree at the
    /// tolerance; `what` names the comparison in the log and in the issue.
    static func expectSame(_ shot: String, _ frame: String, _ what: String,
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let browser = try PNGFile.read(shot), anim = try PNGFile.read(frame)
        let d = try #require(ImageDifference.between(browser, anim, threshold: threshold),
                             "\(what): sizes differ: \(browser.width)x\(browser.height) vs \(anim.width)x\(anim.height)",
                             sourceLocation: sourceLocation)
        print("Chromium \(what): \(d)")
        #expect(d.overFraction <= maxOverFraction, "\(what): \(d)", sourceLocation: sourceLocation)
        #expect(d.mean < maxMean, "\(what): \(d)", sourceLocation: sourceLocation)
    }

    /// The HTML player of `scene` (rendered at 30 fps as `name`.html in a scratch directory of
    /// that name) against anim's PNG frames at `times`.
    static func expectPlayerMatchesFrames(_ scene: String, times: [String], name: String, scratch: String,
                                          sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let dir = try ScratchDirectory(scratch)
        defer { dir.remove() }
        let html = dir.path("\(name).html")
        let r = try runAnim(["render", scene, "-o", html, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr), sourceLocation: sourceLocation)
        for t in times {
            let shot = dir.path("shot-\(t).png")
            let s = try screenshot("file://\(html)#t=\(t)&shot", to: shot)
            #expect(FileManager.default.fileExists(atPath: shot), Comment(rawValue: s.stderr), sourceLocation: sourceLocation)
            try expectSame(shot, try frame(of: scene, at: t, in: dir, sourceLocation: sourceLocation),
                           "player vs anim PNG (\(name)) at \(t)s", sourceLocation: sourceLocation)
        }
    }

    /// The animated SVG of `scene` (rendered at 30 fps as `name`.svg in a scratch directory of
    /// that name) against anim's PNG frames at `times`; `clock` gives the SMIL time the page is
    /// paused at for a time, as a JavaScript expression. Returns the SVG and the render's result.
    @discardableResult
    static func expectSVGMatchesFrames(_ scene: String, times: [String], name: String, scratch: String,
                                       clock: (String) -> String = { $0 },
                                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (svg: String, render: RunResult) {
        let dir = try ScratchDirectory(scratch)
        defer { dir.remove() }
        let svg = dir.path("\(name).svg")
        let r = try runAnim(["render", scene, "-o", svg, "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr), sourceLocation: sourceLocation)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        for t in times {
            let shot = dir.path("svg-\(t).png"), page = dir.path("svg-\(t).html")
            let html = "<!DOCTYPE html><html><body style=\"margin:0\">\(text)<script>var s = document.querySelector('svg'); "
                + "s.pauseAnimations(); s.setCurrentTime(\(clock(t)));</script></body></html>"
            try html.write(toFile: page, atomically: true, encoding: .utf8)
            _ = try screenshot("file://\(page)", to: shot)
            try expectSame(shot, try frame(of: scene, at: t, in: dir, sourceLocation: sourceLocation),
                           "SVG vs anim PNG (\(name)) at \(t)s", sourceLocation: sourceLocation)
        }
        return (text, r)
    }
}
