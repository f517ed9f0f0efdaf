// The Lottie export checked by an independent reader: the `lottie` package from PyPI (in the
// virtual environment Scripts/install-picture-tools makes) must load the document without
// errors or warnings, and its own rendering of a few frames (its SVG exporter, rasterized by
// cairosvg) must match anim's PNG frames for the same times.
//
// Tolerance: at most 0.5% of pixels may differ by more than 24 levels (of 255) in any channel,
// and the mean difference must stay under 1 level. The values agree closely — cubic-Bézier
// tweens are exported with their own handles, steps as hold keys, and everything else as cubic
// keys within 0.25 px (0.1°, 0.001 alpha) of the interpreter at every instant — but cairo
// antialiases edges with its own coverage rules and Lottie's rounded rectangle is drawn with
// Bézier arcs, not circular ones, so corners and edges differ by a few levels.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Lottie export read by the lottie package", .serialized)
struct ExportLottieTests {
    /// Frames at 30 fps: 0 s, 0.5 s, 1.2 s (mid Bézier tweens and the fitted spring), 2 s, and
    /// 2.4 s (after the z-order change, mid the cubic-bezier alpha tween).
    static let frames = [(0, "0"), (15, "0.5"), (36, "1.2"), (60, "2"), (72, "2.4")]

    @Test("the reader accepts the export and renders it like anim", .enabled(if: Consumers.lottiePython != nil, Consumers.skipNote("the lottie reader (.build/test-tools/venv)")))
    func readerMatchesFrames() throws {
        let dir = try ScratchDirectory("lottie")
        defer { dir.remove() }
        let json = dir.path("scene.json")
        let r = try runAnim(["export", PictureFixtures.scene, "-o", json, "--lottie", "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let script = PictureFixtures.directory.appendingPathComponent("lottie_render.py").path
        let read = try Consumers.run(Consumers.lottiePython!, [script, json, dir.url.path] + Self.frames.map { String($0.0) })
        try #require(read.exitCode == 0, "the lottie reader rejected the export:\n\(read.stderr)")
        #expect(read.stdout.contains("layer back ShapeLayer"), Comment(rawValue: read.stdout))
        #expect(read.stdout.contains("fr=30"), Comment(rawValue: read.stdout))
        for (frame, time) in Self.frames {
            let png = dir.path("anim-\(frame).png")
            let f = try runAnim(["render", PictureFixtures.scene, "-o", png, "--at", time])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let reader = try PNGFile.read(dir.path("lottie-\(frame).png")), anim = try PNGFile.read(png)
            let d = try #require(ImageDifference.between(reader, anim, threshold: 24),
                                 "sizes differ: \(reader.width)x\(reader.height) vs \(anim.width)x\(anim.height)")
            print("lottie reader vs anim PNG at frame \(frame) (\(time)s): \(d)")
            #expect(d.overFraction <= 0.005, "at \(time)s: \(d)")
            #expect(d.mean < 1.0, "at \(time)s: \(d)")
        }
    }

    @Test("the reader accepts the outline export and renders it like anim (but for dashes, which it does not draw)",
          .enabled(if: Consumers.lottiePython != nil, Consumers.skipNote("the lottie reader (.build/test-tools/venv)")))
    func readerMatchesOutlines() throws {
        let dir = try ScratchDirectory("lottie-outlines-reader")
        defer { dir.remove() }
        // The lottie package's SVG exporter (0.7.2) leaves a stroke's dashes out.
        let script = try LottiePlayerTests.outlinesVariant(dir, opaque: false, undashed: true)
        let json = dir.path("outlines.json")
        let r = try runAnim(["export", script, "-o", json, "--lottie", "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let frames = [(0, "0"), (15, "0.5"), (36, "1.2"), (60, "2")]
        let render = PictureFixtures.directory.appendingPathComponent("lottie_render.py").path
        let read = try Consumers.run(Consumers.lottiePython!, [render, json, dir.url.path] + frames.map { String($0.0) })
        try #require(read.exitCode == 0, "the lottie reader rejected the export:\n\(read.stderr)")
        #expect(read.stdout.contains("layer wave ShapeLayer"), Comment(rawValue: read.stdout))
        for (frame, time) in frames {
            let png = dir.path("anim-\(frame).png")
            let f = try runAnim(["render", script, "-o", png, "--at", time])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let reader = try PNGFile.read(dir.path("lottie-\(frame).png")), anim = try PNGFile.read(png)
            let d = try #require(ImageDifference.between(reader, anim, threshold: 24))
            print("lottie reader vs anim PNG, outlines, at frame \(frame) (\(time)s): \(d)")
            #expect(d.overFraction <= 0.005, "at \(time)s: \(d)")
            #expect(d.mean < 1.0, "at \(time)s: \(d)")
        }
    }

    @Test("the reader accepts the export of animated glyphs and renders it like anim",
          .enabled(if: Consumers.lottiePython != nil, Consumers.skipNote("the lottie reader (.build/test-tools/venv)")))
    func readerMatchesGlyphs() throws {
        let dir = try ScratchDirectory("lottie-glyphs-reader")
        defer { dir.remove() }
        let script = LottiePlayerTests.glyphsScript
        let json = dir.path("glyphs.json")
        let r = try runAnim(["export", script, "-o", json, "--lottie", "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let frames = LottiePlayerTests.glyphFrames
        let render = PictureFixtures.directory.appendingPathComponent("lottie_render.py").path
        let read = try Consumers.run(Consumers.lottiePython!, [render, json, dir.url.path] + frames.map { String($0.0) })
        try #require(read.exitCode == 0, "the lottie reader rejected the export:\n\(read.stderr)")
        #expect(read.stdout.contains("layer title ShapeLayer"), Comment(rawValue: read.stdout))
        for (frame, time) in frames {
            let png = dir.path("anim-\(frame).png")
            let f = try runAnim(["render", script, "-o", png, "--at", time])
            #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
            let reader = try PNGFile.read(dir.path("lottie-\(frame).png")), anim = try PNGFile.read(png)
            let d = try #require(ImageDifference.between(reader, anim, threshold: 24))
            print("lottie reader vs anim PNG, glyphs, at frame \(frame) (\(time)s): \(d)")
            #expect(d.overFraction <= 0.005, "at \(time)s: \(d)")
            #expect(d.mean < 1.0, "at \(time)s: \(d)")
        }
    }
}
