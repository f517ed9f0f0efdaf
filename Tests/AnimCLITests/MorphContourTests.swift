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

    @Test("the HTML player draws multi-contour morphs as anim's PNG frames do",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func player() throws {
        try ChromiumPixels.expectPlayerMatchesFrames(Self.scene, times: Self.times, name: "morph", scratch: "morph-contours-html")
    }

    @Test("the animated SVG draws multi-contour morphs as anim's PNG frames do",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svg() throws {
        // 1 ms past each frame instant: the SVG's keyTimes are written to 6 digits (0.166667 of
        // 3 s is 0.500001 s), so at the instant itself Chromium still shows the frame before.
        try ChromiumPixels.expectSVGMatchesFrames(Self.scene, times: Self.times, name: "morph", scratch: "morph-contours-svg",
                                                  clock: { "\($0) + 0.001" })
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
