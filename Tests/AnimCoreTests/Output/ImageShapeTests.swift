// Image shapes outside the browser: `anim check` reads the file as `anim run` does (a located
// error, exit 1), a file is relative to the script's directory, the PNG drawn scaled and
// under a shadow, the HTML player embedding it once, and the Lottie export naming it left out.
@testable import AnimCore
import Foundation
import Testing

@Suite("Image shapes")
struct ImageShapeTests {
    static let pictures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Pictures").standardizedFileURL.path

    @Test("anim check reads the image: a missing file is an error at its string")
    func checkReadsTheFile() {
        let output = CapturedOutput()
        let script = "image icon file \"no-such.png\" size (10, 10)\n"
        let report = Session(options: SessionOptions(), output: output).check(name: Self.pictures + "/t.anim", bytes: Array(script.utf8))
        #expect(report.exitCode == .failure)
        #expect(output.error.contains("t.anim:1:17: error: cannot read image 'no-such.png'"), "\(output.error)")
    }

    @Test("the file is found beside the script, and drawn into the box")
    func relativeToTheScript() throws {
        let script = "stage 40 x 40 color white\nimage icon file \"icon.png\" center (20, 20) size (16, 16)\n"
        let output = CapturedOutput()
        let t = try #require(Session(options: SessionOptions(), output: output).timeline(name: Self.pictures + "/t.anim", bytes: Array(script.utf8)),
                             "\(output.error)")
        let frame = t.frame(at: .zero)
        var c = Canvas(width: 40, height: 40)
        c.draw(frame)
        // Drawn at half size: the top-left pixel averages the fixture's 2 × 2 corner ((0..8, 0..8, 160)).
        let p = c.pixel(12, 12)
        #expect(p.b == 160 && p.r < 12 && p.g < 12 && p.a == 255, "\(p)")
        #expect(c.pixel(11, 11) == (255, 255, 255, 255), "outside the box the stage shows")
        // The Lottie export draws it as an image asset (a data URI) and an image layer under a
        // null parent; the player embeds it once.
        #expect(LottieExporter.leftOutImages(t, fps: 10).isEmpty)
        #expect(LottieExporter.leftOut(t).isEmpty && LottieExporter.translucentStrokes(t).isEmpty, "an image has no stroke to warn about")
        let lottie = LottieExporter.export(t, fps: 10)
        #expect(lottie.contains("\"e\":1") && lottie.contains("\"p\":\"data:image/png;base64,iVBOR"))
        #expect(lottie.contains("\"ty\":2,\"nm\":\"icon\",\"refId\":\"image_0\",\"parent\":2"), "\(lottie.prefix(600))")
        let html = HTMLPlayer.render(t, fps: 10)
        #expect(html.components(separatedBy: "data:image/png;base64,iVBOR").count == 2)
    }

    @Test("the Lottie export leaves images out, by name, where some shape's z changes")
    func lottieLeavesOutImagesWhenZChanges() throws {
        let script = "image icon file \"icon.png\" size (16, 16)\nrect r\nanimate 1 < r.z = 2 >\n"
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput()).timeline(name: Self.pictures + "/t.anim", bytes: Array(script.utf8)))
        #expect(LottieExporter.leftOutImages(t, fps: 10) == ["icon"])
        #expect(!LottieExporter.export(t, fps: 10).contains("\"ty\":2"))
    }

    @Test("an image's shadow darkens the stage beside it")
    func shadow() throws {
        let script = "stage 60 x 60 color white\nimage icon file \"icon.png\" center (30, 30) size (20, 20) shadow-offset (0, 10) shadow-color #000000\n"
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput()).timeline(name: Self.pictures + "/t.anim", bytes: Array(script.utf8)))
        var c = Canvas(width: 60, height: 60)
        c.draw(t.frame(at: .zero))
        #expect(c.pixel(30, 45).r < 60, "the shadow shows below the picture: \(c.pixel(30, 45))")
        #expect(c.pixel(30, 15).r == 255, "nothing above it")
    }

    @Test("base64 of the data URI is RFC 4648's")
    func base64() {
        #expect(StageImages.base64(Array("".utf8)) == "")
        #expect(StageImages.base64(Array("f".utf8)) == "Zg==")
        #expect(StageImages.base64(Array("fo".utf8)) == "Zm8=")
        #expect(StageImages.base64(Array("foobar".utf8)) == "Zm9vYmFy")
    }
}
