// `title.glyphs` (Grammar.md §4.12): the glyphs' values are folded into their text's snapshot,
// in frames sampled either way, and the rasterizer draws each glyph with its own alpha,
// colour and offset.
@testable import AnimCore
import Testing

@Suite("Glyphs")
struct GlyphRasterTests {
    /// The ink (darkness, 0…1 per pixel summed) and the red pixels in a column range.
    static func ink(_ c: Canvas, x: Range<Int>, y: Range<Int>) -> (dark: Double, red: Int) {
        var dark = 0.0, red = 0
        for yy in y { for xx in x {
            let p = c.pixel(xx, yy)
            dark += 1 - Double(p.g) / 255
            if p.r > 200 && p.g < 80 { red += 1 }
        } }
        return (dark, red)
    }

    static let base = "stage 100 x 50 color white\ntext t center (50, 25) text \"HH\" font 30 color black\n"

    @Test("glyph values are folded into their text's snapshot; no glyph is a shape of its own in a frame")
    func folded() throws {
        let t = try #require(timeline(Self.base + "set t.glyphs[1].alpha = 0.25\nanimate 1 ease linear < t.glyphs[0].offset = (0, 10) >"))
        let at = t.frame(at: Time(seconds: 0.5)!)
        #expect(at.shapes.count == 1 && at.shapes[0].kind == .text)
        #expect(at.shapes[0].glyphs.count == 2)
        #expect(at.shapes[0].glyphs[0].offset == Point(0, 5))
        #expect(at.shapes[0].glyphs[1].alpha == 0.25)
        // The frame-by-frame sampler folds them the same way.
        let grid = FrameGrid(fps: 10)
        let frames = Array(t.frames(on: grid, 0...10))
        #expect(frames[5].shapes.count == 1 && frames[5].shapes[0].glyphs == at.shapes[0].glyphs)
        // A text whose glyphs are never named has none: its frames are as before.
        let plain = try #require(timeline(Self.base))
        #expect(plain.shapes.count == 1 && plain.frame(at: .zero).shapes[0].glyphs.isEmpty)
    }

    @Test("a glyph's alpha hides it, its colour tints it and its offset moves it, the others unchanged")
    func drawnPerGlyph() throws {
        try #require(StageText.face != nil)
        let plain = try drawn(Self.base)
        let left = 0..<50, right = 50..<100, all = 0..<50
        let l0 = Self.ink(plain, x: left, y: all).dark, r0 = Self.ink(plain, x: right, y: all).dark
        #expect(l0 > 20 && r0 > 20)
        let hidden = try drawn(Self.base + "set t.glyphs[1].alpha = 0")
        #expect(Self.ink(hidden, x: right, y: all).dark < 0.5)
        #expect(abs(Self.ink(hidden, x: left, y: all).dark - l0) < 0.01)
        let red = try drawn(Self.base + "set t.glyphs[0].color = red")
        #expect(Self.ink(red, x: left, y: all).red > 20 && Self.ink(red, x: right, y: all).red == 0)
        // `none` (the default) is the text's own colour.
        let none = try drawn(Self.base + "set t.glyphs[0].color = none")
        #expect(Self.ink(none, x: left, y: all).red == 0 && abs(Self.ink(none, x: left, y: all).dark - l0) < 0.01)
        // Moved down 15 px: its ink leaves the top rows of the left half.
        let moved = try drawn(Self.base + "set t.glyphs[0].offset = (0, 15)")
        let top = 0..<20
        #expect(Self.ink(moved, x: left, y: top).dark < Self.ink(plain, x: left, y: top).dark / 2)
        #expect(abs(Self.ink(moved, x: right, y: all).dark - r0) < 0.01)
        // Half the alpha: about half the ink.
        let faded = try drawn(Self.base + "set t.glyphs[1].alpha = 0.5")
        #expect(abs(Self.ink(faded, x: right, y: all).dark - r0 / 2) < r0 * 0.05)
    }

    @Test("a glyph turns about the centre of its advance box, not the text's")
    func turnsInPlace() throws {
        try #require(StageText.face != nil)
        /// The centre of the ink.
        func centroid(_ c: Canvas) -> Point {
            var sx = 0.0, sy = 0.0, sw = 0.0
            for y in 0..<50 { for x in 0..<100 { let w = 1 - Double(c.pixel(x, y).g) / 255; sx += w * Double(x); sy += w * Double(y); sw += w } }
            return Point(sx / sw, sy / sw)
        }
        // The first H alone, plain and turned 90°: about its own box centre its ink stays put
        // (within the few pixels between the ink's centre and the box's); about the text's
        // centre (50, 25) it would move some 11 px.
        let plain = try drawn(Self.base + "set t.glyphs[1].alpha = 0")
        let turned = try drawn(Self.base + "set t.glyphs[1].alpha = 0\nset t.glyphs[0].rotation = 90deg")
        let p = centroid(plain), q = centroid(turned)
        #expect(p.x < 45)
        #expect(abs(q.x - p.x) < 4 && abs(q.y - p.y) < 4)
        var changed = 0
        for y in 0..<50 { for x in 0..<100 where turned.pixel(x, y).g != plain.pixel(x, y).g { changed += 1 } }
        #expect(changed > 50)
    }
}
