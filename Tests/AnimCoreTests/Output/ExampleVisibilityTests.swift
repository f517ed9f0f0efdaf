// Every rect and circle of every bundled example shows on the stage at some point: drawing a
// frame without it changes some pixel. (union-dependencies.anim once declared its sun before
// the full-stage sky with the same z, so the sky hid it in every output.)
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The examples' shapes are seen")
struct ExampleVisibilityTests {
    @Test("every rect and circle shows in some frame", arguments: TestPaths.scripts(under: TestPaths.examples))
    func shapesShow(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)))
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput()).timeline(name: path, bytes: bytes))
        let frames = (0...12).map { t.frame(at: Time(seconds: t.end.seconds * Double($0) / 12)!) }
        func draw(_ f: StageFrame, without id: ShapeID? = nil) -> [Float] {
            var frame = f
            frame.shapes.removeAll { $0.id == id }
            var c = Canvas(width: Int(frame.size.x), height: Int(frame.size.y))
            c.draw(frame)
            return c.pixels
        }
        var whole: [Int: [Float]] = [:]
        for shape in t.shapes where shape.kind != .text && shape.kind != .glyph {  // a glyph is drawn with its text
            let seen = frames.indices.contains { k in
                if whole[k] == nil { whole[k] = draw(frames[k]) }
                return zip(draw(frames[k], without: shape.id), whole[k]!).contains { abs($0 - $1) > 1.0 / 255 }
            }
            #expect(seen, "\(path): '\(shape.name)' is hidden in every frame")
        }
    }
}
