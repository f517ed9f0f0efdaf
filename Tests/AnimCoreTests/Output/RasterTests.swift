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

    /// The fill as it was before spans: the distance at every pixel of the shape's bounding
    /// box (grown by a pixel). The spans must give exactly these pixels.
    static func fillEverywhere(_ c: inout Canvas, _ s: ShapeSnapshot, scale: Double) {
        let opacity = Float(s.opacity), half = s.halfExtents, sx = s.scale.x, sy = s.scale.y
        guard opacity > 0, half.x > 0, half.y > 0, abs(sx) > 1e-12, abs(sy) > 1e-12 else { return }
        let r = s.cornerRadius, theta = s.rotation * Double.pi / 180, cosT = cos(theta), sinT = sin(theta)
        let cx = s.position.x * scale, cy = s.position.y * scale, toPixels = min(abs(sx), abs(sy)) * scale
        let color: (Float, Float, Float) = (Float(s.color.r / 255), Float(s.color.g / 255), Float(s.color.b / 255))
        let ex = (abs(half.x * sx * cosT) + abs(half.y * sy * sinT)) * scale
        let ey = (abs(half.x * sx * sinT) + abs(half.y * sy * cosT)) * scale
        let x0 = max(0, Int((cx - ex).rounded(.down)) - 1), x1 = min(c.width, Int((cx + ex).rounded(.up)) + 1)
        let y0 = max(0, Int((cy - ey).rounded(.down)) - 1), y1 = min(c.height, Int((cy + ey).rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return }
        let width = c.width
        c.pixels.withUnsafeMutableBufferPointer { buf in
            for py in y0..<y1 {
                let dy = (Double(py) + 0.5 - cy) * (1 / scale)
                for px in x0..<x1 {
                    let dx = (Double(px) + 0.5 - cx) * (1 / scale)
                    let lx = (dx * cosT + dy * sinT) / sx, ly = (-dx * sinT + dy * cosT) / sy
                    let d = Canvas.roundedBoxDistance(lx, ly, half.x, half.y, r) * toPixels
                    let coverage = Float(max(0, min(1, 0.5 - d)))
                    if coverage > 0 { Canvas.blend(buf, (py * width + px) * 4, color, coverage * opacity) }
                }
            }
        }
    }

    @Test("the fill's spans give exactly the pixels of the distance at every pixel")
    func spans() {
        var random = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &random)
        // A fixed list first (circles, squares with full radius, thin bars, mirror scales,
        // sub-pixel shapes, quarter turns), then random ones; the seed is in any failure.
        var shapes: [(ShapeKind, Point, Point, Double, Point, Double, Double)] = [
            (.circle, Point(40, 30), Point(0, 0), 0, Point(1, 1), 17.3, 1),
            (.circle, Point(40.5, 30.5), Point(0, 0), 30, Point(2.5, 0.4), 9, 0.6),
            (.rect, Point(40, 30), Point(20, 20), 0, Point(1, 1), 10, 1),
            (.rect, Point(40, 30), Point(60, 1.2), 33, Point(1, 1), 0, 1),
            (.rect, Point(41.25, 29.75), Point(30, 18), 90, Point(-1, 1), 4, 0.8),
            (.rect, Point(40, 30), Point(0.3, 0.4), 12, Point(1, 1), 0, 1),
            (.rect, Point(10, 10), Point(200, 3), 45, Point(1, -2), 1, 1),
            (.circle, Point(40, 30), Point(0, 0), 0, Point(1, 1), -6, 1),
        ]
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let start = seed
        for _ in 0..<300 {
            shapes.append((next() < 0.4 ? .circle : .rect, Point(next() * 100 - 10, next() * 80 - 10),
                           Point(next() * 70, next() * 50), next() * 720 - 360,
                           Point((next() * 3 - 1.5), (next() * 3 - 1.5)), next() * 30 - 2, next() < 0.3 ? 1 : next()))
        }
        for (n, (kind, center, size, rotation, scale, radius, alpha)) in shapes.enumerated() {
            let s = ShapeSnapshot(id: ShapeID(0), kind: kind, center: center, size: size, rotation: rotation, scale: scale,
                                  offset: .zero, alpha: alpha, color: Color(r: 200, g: 80, b: 20), radius: radius,
                                  z: 0, text: "", font: 16)
            for canvasScale in [1.0, 1.7] {
                var fast = Canvas(width: 90, height: 70, fill: Color(r: 10, g: 20, b: 30, a: 0.5))
                var slow = fast
                fast.fill(s, originX: 0, originY: 0, scale: canvasScale, clip: (0, 0, 90, 70))
                Self.fillEverywhere(&slow, s, scale: canvasScale)
                if fast.pixels != slow.pixels {
                    let k = zip(fast.pixels, slow.pixels).enumerated().first { $0.element.0 != $0.element.1 }!.offset
                    Issue.record("shape \(n) (seed \(start)) at scale \(canvasScale): \(s) differs at pixel \(k / 4 % 90), \(k / 4 / 90)")
                    return
                }
            }
        }
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

    @Test("an opaque image is written as RGB, one with transparency as RGBA; both read back as drawn", arguments: [false, true])
    func pngColorType(_ fast: Bool) throws {
        var opaque = Canvas(width: 4, height: 3, fill: Color(r: 10, g: 20, b: 30))
        opaque.fillRect(x: 1, y: 1, width: 2, height: 1, color: Color(r: 255, g: 0, b: 0, a: 0.5))
        var clear = opaque
        clear.pixels[3] = 0.25  // one pixel not opaque
        clear.pixels[0] = 0.1
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var encoder = PNGEncoder(compression: fast ? .fast : .small)
        for (canvas, colorType) in [(opaque, 2), (clear, 6)] as [(Canvas, UInt8)] {
            let bytes = Array(try encoder.encode(canvas))
            // IHDR's colour type: byte 25 of the file (signature 8, length 4, "IHDR" 4, 9 more).
            #expect(bytes[25] == colorType)
            let path = dir.appendingPathComponent("c\(colorType).png").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try PNGFile.read(path).rgba == canvas.rgba)
        }
    }
}
