// The Lottie export played by the players people ship: lottie-web (the player web apps use)
// with its SVG and its canvas renderer in headless Chromium, and rlottie (Telegram's player).
// Each draws frames of Tests/Pictures/scene.anim's export, which must match anim's own PNG of
// the same instant with the tolerance of the other consumer checks: at most 0.5% of pixels off
// by more than 24 levels (of 255) in a channel, and a mean difference under 1 level.
//
// What differs: edges — lottie-web's SVG and canvas renderers are both Chromium's Skia
// (analytic coverage; their pictures are identical), rlottie has its own scanline rasterizer,
// anim a signed distance; rounded corners — the players draw Lottie's Bézier approximation of
// the arc; blending — rlottie composites in 8-bit premultiplied colour with truncated opacity;
// and colour channels — both players truncate them where anim rounds, so the export writes each
// channel never below its level (a tweened colour is still drawn half a level darker on
// average), and the mean difference stays under 1 level.
// A wrong frame moves 40% of the pixels, which each test checks is caught.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Lottie export played by lottie-web and rlottie", .serialized)
struct LottiePlayerTests {
    /// The frames (at 30 fps) the `lottie` reader is checked at: 0 s, 0.5 s, 1.2 s (mid the
    /// Bézier tweens and the fitted spring), 2 s, and 2.4 s (after the z-order change).
    static let frames = ExportLottieTests.frames

    /// Why a lottie-web test is skipped.
    static let lottieWebNote: Comment = Consumers.chromium == nil
        ? Consumers.skipNote("chromium") : Consumers.skipNote("lottie-web (wagtail-lottie in .build/test-tools/venv)")

    /// Exports the scene at 30 fps and renders anim's PNG of each frame's instant
    /// (`anim-F.png`); the export's path.
    static func prepare(_ dir: ScratchDirectory, script: String = PictureFixtures.scene,
                        frames: [(Int, String)] = LottiePlayerTests.frames) throws -> String {
        let json = dir.path("scene.json")
        let r = try runAnim(["export", script, "-o", json, "--lottie", "--fps", "30"])
        try #require(r.exitCode == 0, Comment(rawValue: r.stderr))
        for (frame, time) in frames {
            let f = try runAnim(["render", script, "-o", dir.path("anim-\(frame).png"), "--at", time])
            try #require(f.exitCode == 0, Comment(rawValue: f.stderr))
        }
        return json
    }

    /// Compares a player's frames (`image(F)`) with anim's PNGs, printing each difference; and
    /// checks that the comparison catches a wrong frame (the player's 1.2 s against anim's 0.5 s).
    static func compare(_ player: String, _ image: (Int) -> String, in dir: ScratchDirectory,
                        frames: [(Int, String)] = LottiePlayerTests.frames) throws {
        var dark: [String] = []
        for (frame, time) in frames {
            let drawn = try PNGFile.read(image(frame)), anim = try PNGFile.read(dir.path("anim-\(frame).png"))
            let d = try #require(ImageDifference.between(drawn, anim, threshold: 24),
                                 "sizes differ: \(drawn.width)x\(drawn.height) vs \(anim.width)x\(anim.height)")
            print("\(player) vs anim PNG at frame \(frame) (\(time)s): \(d)")
            #expect(d.overFraction <= 0.005, "\(player) at \(time)s: \(d)")
            if d.mean >= 1.0 { dark.append("\(time)s (mean \(String(format: "%.3f", d.mean)))") }
        }
        #expect(dark.isEmpty, "\(player): a mean difference of 1 level or more at \(dark.joined(separator: ", "))")
        let wrong = try #require(ImageDifference.between(try PNGFile.read(image(36)), try PNGFile.read(dir.path("anim-15.png")),
                                                         threshold: 24))
        print("\(player) at 1.2s vs anim PNG at 0.5s (a wrong frame, must be caught): \(wrong)")
        #expect(wrong.overFraction > 0.005, "a wrong frame passes the tolerance: \(wrong)")
    }

    @Test("lottie-web's SVG renderer draws the export like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebSVG() throws {
        let dir = try ScratchDirectory("lottie-web-svg")
        defer { dir.remove() }
        let json = try Self.prepare(dir)
        let version = try LottieWebPage.render(document: json, frames: Self.frames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        print("lottie-web \(version), SVG renderer")
        #expect(version.hasPrefix("5."), "lottie-web \(version)")
        try Self.compare("lottie-web \(version) svg", { dir.path("lottie-web-svg-\($0).png") }, in: dir)
    }

    @Test("lottie-web's canvas renderer draws the export like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebCanvas() throws {
        let dir = try ScratchDirectory("lottie-web-canvas")
        defer { dir.remove() }
        let json = try Self.prepare(dir)
        let version = try LottieWebPage.render(document: json, frames: Self.frames.map(\.0), renderer: "canvas",
                                               width: 320, height: 240, in: dir)
        print("lottie-web \(version), canvas renderer")
        try Self.compare("lottie-web \(version) canvas", { dir.path("lottie-web-canvas-\($0).png") }, in: dir)
    }

    @Test("rlottie draws the export like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottie() throws {
        let dir = try ScratchDirectory("rlottie")
        defer { dir.remove() }
        let json = try Self.prepare(dir)
        let info = try RLottie.render(document: json, frames: Self.frames.map(\.0), in: dir)
        print("rlottie read: \(info)")
        #expect(info.hasPrefix("animation 320x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie", { dir.path("rlottie-\($0).png") }, in: dir)
    }

    // MARK: - Paths, exported as spatial keyframes

    /// Tests/Pictures/paths.anim: a rect following a path with orient, a circle on a path, a
    /// square through a keyframe list of points; the export's position keys carry spatial
    /// tangents (`to`/`ti`), which each player must follow by arc length as anim does.
    static var pathsScript: String { PictureFixtures.directory.appendingPathComponent("paths.anim").path }
    /// Its frames at 30 fps: the start, a quarter, mid (the wrong-frame check's 1.2 s is 36),
    /// three quarters, the end.
    static let pathFrames = [(0, "0"), (15, "0.5"), (30, "1"), (36, "1.2"), (45, "1.5"), (60, "2")]

    /// The export of paths.anim has spatial keyframes (else the tests below check nothing new).
    static func requireSpatialKeys(_ json: String) throws {
        let text = try String(contentsOfFile: json, encoding: .utf8)
        #expect(text.contains("\"to\":[") && text.contains("\"ti\":["), "no spatial keyframes in the export of paths.anim")
    }

    @Test("lottie-web's SVG renderer follows exported paths like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebPaths() throws {
        let dir = try ScratchDirectory("lottie-web-paths")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.pathsScript, frames: Self.pathFrames)
        try Self.requireSpatialKeys(json)
        let version = try LottieWebPage.render(document: json, frames: Self.pathFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, paths", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.pathFrames)
    }

    @Test("rlottie follows exported paths like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottiePaths() throws {
        let dir = try ScratchDirectory("rlottie-paths")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.pathsScript, frames: Self.pathFrames)
        try Self.requireSpatialKeys(json)
        let info = try RLottie.render(document: json, frames: Self.pathFrames.map(\.0), in: dir)
        #expect(info.hasPrefix("animation 320x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie, paths", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.pathFrames)
    }

    // MARK: - Text shapes, exported as glyph outlines

    /// Tests/Pictures/text.anim: text at several sizes, rotated, scaled, translucent, with a
    /// string that changes at 1 s and 1.6 s; its stage is white, which no player truncates.
    static var textScript: String { PictureFixtures.directory.appendingPathComponent("text.anim").path }
    /// Its frames at 30 fps: the start, mid the tween, after the first string change, the end.
    static let textFrames = [(0, "0"), (15, "0.5"), (36, "1.2"), (60, "2")]

    @Test("lottie-web's SVG renderer draws exported text like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebText() throws {
        let dir = try ScratchDirectory("lottie-web-text")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.textScript, frames: Self.textFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.textFrames.map(\.0), renderer: "svg",
                                               width: 400, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, text", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.textFrames)
    }

    @Test("rlottie draws exported text like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieText() throws {
        let dir = try ScratchDirectory("rlottie-text")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.textScript, frames: Self.textFrames)
        let info = try RLottie.render(document: json, frames: Self.textFrames.map(\.0), in: dir)
        #expect(info.hasPrefix("animation 400x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie, text", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.textFrames)
    }

    /// Tests/Pictures/text-fonts.anim: families, weights and alignments, switching at 1 s
    /// (each string in each face its own group of outlines).
    static var textFontsScript: String { PictureFixtures.directory.appendingPathComponent("text-fonts.anim").path }

    @Test("lottie-web's SVG renderer draws exported text in its fonts and alignments like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebTextFonts() throws {
        let dir = try ScratchDirectory("lottie-web-text-fonts")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.textFontsScript, frames: Self.textFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.textFrames.map(\.0), renderer: "svg",
                                               width: 400, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, text fonts", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.textFrames)
    }

    @Test("rlottie draws exported text in its fonts and alignments like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieTextFonts() throws {
        let dir = try ScratchDirectory("rlottie-text-fonts")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.textFontsScript, frames: Self.textFrames)
        _ = try RLottie.render(document: json, frames: Self.textFrames.map(\.0), in: dir)
        try Self.compare("rlottie, text fonts", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.textFrames)
    }

    // MARK: - Anchors, as the layers' anchor points

    /// Tests/Pictures/anchor.anim: rotation and scale about anchors, constant and tweened.
    static var anchorScript: String { PictureFixtures.directory.appendingPathComponent("anchor.anim").path }

    @Test("lottie-web's SVG renderer turns shapes about their anchors like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebAnchor() throws {
        let dir = try ScratchDirectory("lottie-web-anchor")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.anchorScript, frames: Self.textFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.textFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, anchors", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.textFrames)
    }

    @Test("rlottie turns shapes about their anchors like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieAnchor() throws {
        let dir = try ScratchDirectory("rlottie-anchor")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.anchorScript, frames: Self.textFrames)
        _ = try RLottie.render(document: json, frames: Self.textFrames.map(\.0), in: dir)
        try Self.compare("rlottie, anchors", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.textFrames)
    }

    // MARK: - Gradient fills

    /// Tests/Pictures/gradients.anim: linear gradient fills (`gf` type 1, along CSS's line)
    /// on a rect, an ellipse and a polygon, a radial one (type 2) on a circle, animated stop by
    /// stop and from a gradient to a colour.
    static var gradientsScript: String { PictureFixtures.directory.appendingPathComponent("gradients.anim").path }
    static let gradientFrames = [(0, "0"), (15, "0.5"), (30, "1"), (36, "1.2"), (60, "2")]

    @Test("lottie-web's SVG renderer draws gradient fills like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebGradients() throws {
        let dir = try ScratchDirectory("lottie-web-gradients")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.gradientsScript, frames: Self.gradientFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.gradientFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, gradients", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.gradientFrames)
    }

    @Test("rlottie draws gradient fills like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieGradients() throws {
        let dir = try ScratchDirectory("rlottie-gradients")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.gradientsScript, frames: Self.gradientFrames)
        _ = try RLottie.render(document: json, frames: Self.gradientFrames.map(\.0), in: dir)
        try Self.compare("rlottie, gradients", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.gradientFrames)
    }

    /// Gradient text and gradient strokes (Grammar.md §4.11): a text whose gradient fill (`gf`
    /// on its glyph group, over its layout box) animates stop by stop, a text whose gradient
    /// runs down its box (the box's height: ascender to descender), a rect's gradient stroke
    /// (`gs`) animated and a dashed path's stroke from a colour to a gradient. (Tests/Pictures/
    /// gradient-paint.anim also moves glyphs, which the Lottie export draws whole, and has a
    /// radial gradient over a wide text, which Lottie's circles cannot draw: the export warns.)
    static let gradientPaintScript = """
        stage 320 x 240 color #f4f4f4
        text title center (160, 40) text "Gradient" font 44 weight bold fill linear-gradient(90deg, #ff7a18, #af002d)
        text word center (160, 100) text "GLYPHS" font 40 weight bold fill linear-gradient(180deg, #ffe000, #1144cc at 0.9)
        rect card center (100, 180) size (140, 70) radius 10 fill none stroke linear-gradient(90deg, #1e90ff, #32cd32) stroke-width 8
        path wave d "M 190 150 C 220 120, 260 240, 300 190" fill none stroke #aa3300 stroke-width 6 dash (14, 6) line-cap round
        animate 2 < card.stroke = linear-gradient(180deg, #ff0000, #0000ff at 0.7); wave.stroke = linear-gradient(45deg, #ff00aa, #00ccff); title.fill = linear-gradient(90deg, #0044ff, #00dd88) >

        """

    @Test("lottie-web's SVG renderer and rlottie draw gradient text and gradient strokes like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil && Consumers.rlottie, lottieWebNote))
    func gradientPaint() throws {
        let dir = try ScratchDirectory("lottie-gradient-paint")
        defer { dir.remove() }
        let script = dir.path("gradient-paint.anim")
        try Self.gradientPaintScript.write(toFile: script, atomically: true, encoding: .utf8)
        let json = try Self.prepare(dir, script: script, frames: Self.gradientFrames)
        let document = try String(contentsOfFile: json, encoding: .utf8)
        #expect(document.contains("\"ty\":\"gs\"") && document.contains("\"ty\":\"gf\""), "no gradient stroke or fill in the export")
        let version = try LottieWebPage.render(document: json, frames: Self.gradientFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, gradient text and strokes", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.gradientFrames)
        _ = try RLottie.render(document: json, frames: Self.gradientFrames.map(\.0), in: dir)
        try Self.compare("rlottie, gradient text and strokes", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.gradientFrames)
    }

    // MARK: - Outline shapes and strokes

    /// Tests/Pictures/outlines.anim: a line drawn on by its trim, a dashed ellipse whose dash
    /// offset moves, a polygon and polyline (round and bevel joins, square caps), a path with
    /// both trims moving, a rect and a translucent rect with strokes changing width and colour,
    /// and a circle's stroke trimmed; as paths (`sh`), `rc`/`el`, `st`, `tm` and dashes.
    static var outlinesScript: String { PictureFixtures.directory.appendingPathComponent("outlines.anim").path }
    /// Its frames at 30 fps: the start, a quarter, mid (1 s), 1.2 s (the wrong-frame check's),
    /// three quarters and the end of its two tweens, which run together.
    static let outlineFrames = [(0, "0"), (15, "0.5"), (30, "1"), (36, "1.2"), (45, "1.5"), (60, "2")]

    @Test("lottie-web's SVG renderer draws outlines and strokes like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebOutlines() throws {
        let dir = try ScratchDirectory("lottie-web-outlines")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.outlinesScript, frames: Self.outlineFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.outlineFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, outlines", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.outlineFrames)
    }

    /// outlines.anim without what a player is known to draw otherwise, written to `dir`:
    /// `opaque` drops the translucent rect's alpha (rlottie and lottie-web's canvas renderer
    /// show a translucent shape's fill through its stroke, which the export warns of), and
    /// `undashed` the ellipse's dashes (rlottie's dasher skips what is left of a dash or gap
    /// under 1 px at each curve segment's end, so its dashes drift around an ellipse). Each
    /// replacement must apply, so the variant keeps every other shape and property.
    static func outlinesVariant(_ dir: ScratchDirectory, opaque: Bool, undashed: Bool) throws -> String {
        var text = try String(contentsOfFile: outlinesScript, encoding: .utf8)
        var cuts: [String] = []
        if opaque { cuts.append(" alpha 0.6") }
        if undashed { cuts += [" dash (12, 6)", " blob.dash-offset = 36;"] }
        for cut in cuts {
            try #require(text.contains(cut), "outlines.anim no longer has '\(cut)'")
            text = text.replacingOccurrences(of: cut, with: "")
        }
        let path = dir.path("outlines.anim")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("lottie-web's canvas renderer draws outlines and strokes like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebCanvasOutlines() throws {
        let dir = try ScratchDirectory("lottie-web-canvas-outlines")
        defer { dir.remove() }
        let script = try Self.outlinesVariant(dir, opaque: true, undashed: false)
        let json = try Self.prepare(dir, script: script, frames: Self.outlineFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.outlineFrames.map(\.0), renderer: "canvas",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) canvas, outlines", { dir.path("lottie-web-canvas-\($0).png") }, in: dir,
                         frames: Self.outlineFrames)
    }

    @Test("rlottie draws outlines and strokes like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieOutlines() throws {
        let dir = try ScratchDirectory("rlottie-outlines")
        defer { dir.remove() }
        let script = try Self.outlinesVariant(dir, opaque: true, undashed: true)
        let json = try Self.prepare(dir, script: script, frames: Self.outlineFrames)
        let info = try RLottie.render(document: json, frames: Self.outlineFrames.map(\.0), in: dir)
        #expect(info.hasPrefix("animation 320x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie, outlines", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.outlineFrames)
    }

    /// Morphs: a polygon's points tweened, a path morphed into one of another command structure
    /// (resampled; fitted path keys, the square it starts from padded) and a line's end moving.
    static let morphScript = """
        stage 320 x 240 color white
        polygon tri points [(40, 40), (120, 40), (80, 110)] fill orange stroke #aa2200 stroke-width 3
        path blob d "M 180 60 L 280 60 L 280 160 Z" fill teal
        line rule from (20, 200) to (120, 220) stroke black stroke-width 4 line-cap round
        animate 2 ease ease-in-out < tri.points = [(30, 120), (150, 100), (60, 200)]; rule.to = (300, 150) >
        animate 2 ease linear < blob.d = "M 230 60 C 300 60, 300 180, 230 180 C 160 180, 160 60, 230 60 Z" >

        """

    @Test("lottie-web's SVG renderer and rlottie morph exported paths like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil && Consumers.rlottie, lottieWebNote))
    func morphs() throws {
        let dir = try ScratchDirectory("lottie-morphs")
        defer { dir.remove() }
        let script = dir.path("morph.anim")
        try Self.morphScript.write(toFile: script, atomically: true, encoding: .utf8)
        let json = try Self.prepare(dir, script: script, frames: Self.pathFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.pathFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, morphs", { dir.path("lottie-web-svg-\($0).png") }, in: dir, frames: Self.pathFrames)
        _ = try RLottie.render(document: json, frames: Self.pathFrames.map(\.0), in: dir)
        try Self.compare("rlottie, morphs", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.pathFrames)
    }

    @Test("the Lottie export leaves drop shadows out and says so, naming the shapes")
    func shadowsWarned() throws {
        let dir = try ScratchDirectory("lottie-shadow-warning")
        defer { dir.remove() }
        let script = dir.path("s.anim")
        try "rect card shadow-blur 8\nrect plain\ncircle dot\nanimate 1 < dot.shadow-offset = (0, 3) >\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        let r = try runAnim(["export", script, "-o", dir.path("s.json"), "--lottie"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stderr.contains("leaves drop shadows out (of 'card', 'dot')"), Comment(rawValue: r.stderr))
        let quiet = dir.path("q.anim")
        try "rect card shadow-color red anchor (0, 0)\n".write(toFile: quiet, atomically: true, encoding: .utf8)
        let q = try runAnim(["export", quiet, "-o", dir.path("q.json"), "--lottie"])
        #expect(q.exitCode == 0 && q.stderr.isEmpty, Comment(rawValue: q.stderr))
    }
}

// MARK: - Images, exported as image assets

extension LottiePlayerTests {
    /// Tests/Pictures/image.anim: two image shapes (Tests/Pictures/icon.png) stretched, turned
    /// about an anchor, scaled and faded; the export's image assets are data URIs.
    static var imageScript: String { PictureFixtures.directory.appendingPathComponent("image.anim").path }
    static let imageFrames = [(0, "0"), (15, "0.5"), (36, "1.2"), (60, "2")]

    @Test("lottie-web's SVG renderer draws exported images like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebImages() throws {
        let dir = try ScratchDirectory("lottie-web-images")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.imageScript, frames: Self.imageFrames)
        #expect(try String(contentsOfFile: json, encoding: .utf8).contains("\"e\":1"), "no embedded image asset")
        let version = try LottieWebPage.render(document: json, frames: Self.imageFrames.map(\.0), renderer: "svg",
                                               width: 320, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, images", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.imageFrames)
    }

    @Test("rlottie draws exported images like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieImages() throws {
        let dir = try ScratchDirectory("rlottie-images")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.imageScript, frames: Self.imageFrames)
        let info = try RLottie.render(document: json, frames: Self.imageFrames.map(\.0), in: dir)
        #expect(info.hasPrefix("animation 320x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie, images", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.imageFrames)
    }
}

// MARK: - Animated glyphs, exported as glyph groups

extension LottiePlayerTests {
    /// Tests/Pictures/glyphs.anim: two texts whose glyphs are staggered in (offsets, rotations
    /// about their centres, scales, alphas, fills), one of them turned and stretched whole.
    static var glyphsScript: String { PictureFixtures.directory.appendingPathComponent("glyphs.anim").path }
    /// Its frames at 30 fps: the start (every title glyph hidden), mid both staggers (0.5 s,
    /// 1 s, 1.2 s), after them (2 s, mid the later tint and stretch) and the end of the fade.
    static let glyphFrames = [(0, "0"), (15, "0.5"), (30, "1"), (36, "1.2"), (60, "2"), (75, "2.5")]

    @Test("lottie-web's SVG renderer draws animated glyphs like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebGlyphs() throws {
        let dir = try ScratchDirectory("lottie-web-glyphs")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.glyphsScript, frames: Self.glyphFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.glyphFrames.map(\.0), renderer: "svg",
                                               width: 400, height: 240, in: dir)
        try Self.compare("lottie-web \(version) svg, glyphs", { dir.path("lottie-web-svg-\($0).png") }, in: dir,
                         frames: Self.glyphFrames)
    }

    @Test("lottie-web's canvas renderer draws animated glyphs like anim",
          .enabled(if: Consumers.chromium != nil && Consumers.lottieWeb != nil, lottieWebNote))
    func lottieWebCanvasGlyphs() throws {
        let dir = try ScratchDirectory("lottie-web-canvas-glyphs")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.glyphsScript, frames: Self.glyphFrames)
        let version = try LottieWebPage.render(document: json, frames: Self.glyphFrames.map(\.0), renderer: "canvas",
                                               width: 400, height: 240, in: dir)
        try Self.compare("lottie-web \(version) canvas, glyphs", { dir.path("lottie-web-canvas-\($0).png") }, in: dir,
                         frames: Self.glyphFrames)
    }

    @Test("rlottie draws animated glyphs like anim",
          .enabled(if: Consumers.rlottie, Consumers.skipNote("rlottie (librlottie-dev) or a C compiler")))
    func rlottieGlyphs() throws {
        let dir = try ScratchDirectory("rlottie-glyphs")
        defer { dir.remove() }
        let json = try Self.prepare(dir, script: Self.glyphsScript, frames: Self.glyphFrames)
        let info = try RLottie.render(document: json, frames: Self.glyphFrames.map(\.0), in: dir)
        #expect(info.hasPrefix("animation 400x240 fr=30"), Comment(rawValue: info))
        try Self.compare("rlottie, glyphs", { dir.path("rlottie-\($0).png") }, in: dir, frames: Self.glyphFrames)
    }

    @Test("the Lottie export draws animated glyphs without a warning")
    func glyphsNotWarned() throws {
        let dir = try ScratchDirectory("lottie-glyph-warning")
        defer { dir.remove() }
        for script in [Self.glyphsScript, TestPaths.packageRoot.appendingPathComponent("Examples/title-typed.anim").path] {
            let r = try runAnim(["export", script, "-o", dir.path("g.json"), "--lottie"])
            #expect(r.exitCode == 0 && r.stderr.isEmpty, Comment(rawValue: r.stderr))
        }
    }
}
