// Gradient fills (issue 15) checked in a real browser: Tests/Pictures/gradients.anim (linear
// gradients at CSS angles with positioned stops, a radial gradient, on a rect, circle,
// ellipse and polygon, animated stop by stop and from a gradient to a colour), rendered as
// anim's PNG frames (the vector layer's shader) and compared with headless Chromium's
// rendering of the HTML player and of the animated SVG at several times, at the project's tolerance
// (ChromiumPixels): at most 0.5% of pixels more than 24 levels off, mean under 1 level.
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
        try ChromiumPixels.expectPlayerMatchesFrames(Self.scene, times: Self.times, name: "gradients", scratch: "gradients-html")
    }

    @Test("the animated SVG draws gradient fills as anim's PNG frames do", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svg() throws {
        let (text, render) = try ChromiumPixels.expectSVGMatchesFrames(Self.scene, times: Self.times, name: "gradients", scratch: "gradients-svg")
        #expect(render.stderr.isEmpty, Comment(rawValue: render.stderr))
        #expect(text.contains("<linearGradient") && text.contains("<radialGradient"))
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

/// Gradient fills in the Lottie export, by the document's structure (the pictures are checked
/// in LottiePlayerTests): the `gf` item, its type, stop count, stops and points, and the
/// warnings where Lottie cannot show what anim draws.
@Suite("Gradients in the Lottie export")
struct GradientLottieTests {
    static func fills(_ layer: [String: Any]?) -> [[String: Any]] {
        OutlineLottieTests.items(layer).filter { ["gf", "fl"].contains($0["ty"] as? String ?? "") }
    }

    @Test("a linear gradient is gf type 1 along CSS's line, colour stops then opacity stops")
    func linear() throws {
        let (r, layers) = try OutlineLottieTests.export("""
            rect card center (100, 50) size (200, 100) fill linear-gradient(90deg, #ff0000, #0000ff80 at 75%)
            """, "gradients-lottie-linear")
        #expect(r.stderr.isEmpty, Comment(rawValue: r.stderr))
        let gf = try #require(Self.fills(layers["card"]).first)
        #expect(gf["ty"] as? String == "gf" && gf["t"] as? Int == 1)
        let g = try #require(gf["g"] as? [String: Any])
        #expect(g["p"] as? Int == 2)
        let k = OutlineLottieTests.numbers((g["k"] as? [String: Any])?["k"])
        // (0, red), (0.75, blue), then opacities (0, 1), (0.75, 0.5).
        #expect(k.count == 12)
        #expect(k[0] == 0 && k[1] == 1 && k[2] == 0 && k[3] == 0, "\(k)")
        #expect(abs(k[4] - 0.75) < 1e-5 && k[5] == 0 && k[6] == 0 && k[7] == 1, "\(k)")
        #expect(k[8] == 0 && k[9] == 1 && abs(k[10] - 0.75) < 1e-5 && abs(k[11] - 128.0 / 255) < 1e-5, "\(k)")
        // 90deg: left to right through the box's centre (the layer's 0), the box's width long.
        #expect(OutlineLottieTests.numbers((gf["s"] as? [String: Any])?["k"]) == [-100, 0])
        #expect(OutlineLottieTests.numbers((gf["e"] as? [String: Any])?["k"]) == [100, 0])
    }

    @Test("a radial gradient is gf type 2; on a box that is not square the export warns")
    func radial() throws {
        let (square, a) = try OutlineLottieTests.export("circle dot center (50, 50) radius 40 fill radial-gradient(white, navy)",
                                                        "gradients-lottie-radial")
        #expect(square.stderr.isEmpty, Comment(rawValue: square.stderr))
        let gf = try #require(Self.fills(a["dot"]).first)
        #expect(gf["ty"] as? String == "gf" && gf["t"] as? Int == 2)
        // CSS's farthest-corner ellipse of an 80 × 80 box: radius 40·√2.
        let e = OutlineLottieTests.numbers((gf["e"] as? [String: Any])?["k"])
        #expect(e.count == 2 && abs(e[0] - 40 * 2.0.squareRoot()) < 0.01 && e[1] == 0, "\(e)")
        let (wide, _) = try OutlineLottieTests.export("rect card center (50, 50) size (100, 40) fill radial-gradient(white, navy)",
                                                      "gradients-lottie-wide")
        #expect(wide.stderr.contains("radial gradients are circles") && wide.stderr.contains("'card'"), Comment(rawValue: wide.stderr))
    }

    @Test("a fill that changes stop count is its first colour, with a warning")
    func stopCount() throws {
        let (r, layers) = try OutlineLottieTests.export("""
            rect card center (50, 50) size (100, 40) fill linear-gradient(90deg, red, blue)
            wait 0.5
            set card.fill = linear-gradient(90deg, red, white, blue)
            """, "gradients-lottie-count")
        #expect(r.stderr.contains("first colour") && r.stderr.contains("'card'"), Comment(rawValue: r.stderr))
        let fl = try #require(Self.fills(layers["card"]).first)
        #expect(fl["ty"] as? String == "fl")
        // Red, the first stop's colour, not black.
        let c = OutlineLottieTests.numbers((fl["c"] as? [String: Any])?["k"])
        #expect(c.first == 1, "\(fl["c"] ?? "")")
    }
}
