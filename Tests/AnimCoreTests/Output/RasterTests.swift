// The rasterizer: exact fills on the pixel grid, antialiased edges whose coverage adds up to
// the shape's area, alpha compositing, z-order, rotation and scale, and PNG round trips.
@testable import AnimCore
import Foundation
import Testing

/// Runs a script into a Timeline.
func timeline(_ script: String, fps: Int = 60) -> Timeline? {
    var options = SessionOptions()
    options.fps = fps
    return Session(options: options, output: CapturedOutput()).timeline(name: "t.anim", bytes: Array(script.utf8))
}

/// One frame of a script, drawn.
func drawn(_ script: String, at seconds: Double = 0) throws -> Canvas {
    let t = try #require(timeline(script))
    let frame = t.frame(at: Time(seconds: seconds)!)
    var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
    c.draw(frame)
    return c
}

@Suite("Rasterizer")
struct RasterTests {
    @Test("a rect on the pixel grid fills exactly its pixels")
    func gridRect() throws {
        let c = try drawn("stage 20 x 20 color white\nrect a center (10,10) size (8,6) color red")
        var red = 0
        for y in 0..<20 { for x in 0..<20 where c.pixel(x, y) == (255, 0, 0, 255) { red += 1 } }
        #expect(red == 48)
        #expect(c.pixel(6, 7) == (255, 0, 0, 255))
        #expect(c.pixel(5, 7) == (255, 255, 255, 255))
        #expect(c.pixel(13, 12) == (255, 0, 0, 255))
        #expect(c.pixel(14, 12) == (255, 255, 255, 255))
    }

    @Test("antialiased coverage adds up to the area: circle, rounded and rotated rects")
    func coverage() throws {
        func area(_ shape: String) throws -> Double {
            let c = try drawn("stage 100 x 100 color white\n" + shape)
            var sum = 0.0
            for y in 0..<100 { for x in 0..<100 { sum += 1 - Double(c.pixel(x, y).g) / 255 } }
            return sum
        }
        #expect(abs(try area("circle a center (50,50) radius 20 color black") - Double.pi * 400) < 4)
        // A rect with corners of radius 5 loses (4 − π)·25 of its 30 × 20.
        #expect(abs(try area("rect a center (50,50) size (30,20) radius 5 color black") - (600 - (4 - Double.pi) * 25)) < 3)
        #expect(abs(try area("rect a center (50,50) size (30,20) rotation 30deg color black") - 600) < 3)
        #expect(abs(try area("rect a center (50,50) size (30,20) scale (2, 0.5) color black") - 600) < 3)
    }

    @Test("rotation turns clockwise on screen and scale stretches about the center")
    func transforms() throws {
        // A 40×4 bar turned 90°: now tall and thin.
        let c = try drawn("stage 60 x 60 color white\nrect a center (30,30) size (40,4) rotation 90deg color black")
        #expect(c.pixel(30, 12).r == 0 && c.pixel(12, 30).r == 255)
        // 45° clockwise (y down): the bar's right end goes down-right.
        let d = try drawn("stage 60 x 60 color white\nrect a center (30,30) size (40,2) rotation 45deg color black")
        #expect(d.pixel(42, 42).r < 128 && d.pixel(42, 18).r == 255)
        let s = try drawn("stage 60 x 60 color white\nrect a center (30,30) size (10,10) scale (3,1) color black")
        #expect(s.pixel(16, 30).r == 0 && s.pixel(30, 37).r == 255)
    }

    @Test("alpha composites source-over; z orders the painting")
    func alphaAndZ() throws {
        let a = try drawn("stage 10 x 10 color white\nrect a center (5,5) size (10,10) color red alpha 0.5")
        #expect(a.pixel(5, 5) == (255, 128, 128, 255))
        let z = try drawn("stage 10 x 10 color white\nrect a center (5,5) size (10,10) color red z 2\nrect b center (5,5) size (10,10) color blue")
        #expect(z.pixel(5, 5) == (255, 0, 0, 255))
        let later = try drawn("stage 10 x 10 color white\nrect a center (5,5) size (10,10) color red\nrect b center (5,5) size (10,10) color blue")
        #expect(later.pixel(5, 5) == (0, 0, 255, 255))
    }

    @Test("frames follow the history: the demo's square mid-tween")
    func midTween() throws {
        let text = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Examples/demo.anim"), encoding: .utf8)
        let t = try #require(timeline(text))
        let f = t.frame(at: Time(seconds: 0.5)!)
        let v = try #require(t.value(ShapeID(0), BuiltinProperty.center.id, at: Time(seconds: 0.5)!))
        #expect(Value.point(f.shapes[0].center) == v)
        #expect(t.frameRange(on: FrameGrid(fps: 10)).count == 42)  // 0 ... 4.1 s
    }

    @Test("PNG round trip")
    func png() throws {
        var c = Canvas(width: 3, height: 2, fill: Color(r: 10, g: 20, b: 30))
        c.fillRect(x: 1, y: 1, width: 1, height: 1, color: Color(r: 255, g: 0, b: 0, a: 0.5))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.png").path
        try PNGFile.write(c, to: path)
        let back = try PNGFile.read(path)
        #expect(back.width == 3 && back.height == 2)
        #expect(back.rgba == c.rgba)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.png"])
        #expect(throws: PNGError.self) { try PNGFile.read(dir.appendingPathComponent("missing.png").path) }
    }
}
