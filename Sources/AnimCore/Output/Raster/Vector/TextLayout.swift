// TextLayout: one line of text laid out horizontally in one font — each character's glyph
// placed at the pen position, the pen moved by the glyph's advance plus the kerning between it
// and the next (FT_Get_Kerning, the font's `kern` table), all at the exact fractional
// positions of the unhinted font scaled to the size (no rounding to pixels). The line is then
// aligned left, center or right of x = 0, with y = 0 on the alphabetic baseline or halfway
// between the ascender and descender lines (SVG's `dominant-baseline: central`). Each glyph
// keeps its own outline and position, so a caller can move, turn, scale or fade glyphs one by
// one (`text.glyphs`) and draw them through the same rasterizer as every shape.

/// A line of text, laid out.
public struct TextLayout: Sendable {
    /// Where x = 0 is on the line.
    public enum Alignment: Hashable, Sendable {
        /// The line starts at x = 0.
        case left
        /// The line is centered on x = 0.
        case center
        /// The line ends at x = 0.
        case right

        /// The alignment `align` names (`left`, `center`, `right`).
        public init?(word: String) {
            switch word {
            case "left": self = .left
            case "center": self = .center
            case "right": self = .right
            default: return nil
            }
        }

        /// SVG's `text-anchor` for it (`start`, `middle`, `end`).
        public var textAnchor: String {
            switch self {
            case .left: "start"
            case .center: "middle"
            case .right: "end"
            }
        }
    }

    /// Where y = 0 is.
    public enum Baseline: Hashable, Sendable {
        /// On the alphabetic baseline.
        case alphabetic
        /// Halfway between the ascender and descender lines (SVG's `central`).
        case middle
    }

    /// One glyph in place.
    public struct PlacedGlyph: Sendable {
        /// The character it draws.
        public let scalar: Unicode.Scalar
        /// Its index in the font (0: the font's missing-glyph box).
        public let index: UInt32
        /// The pen position on the baseline, in layout coordinates.
        public let origin: Point
        /// The advance width at this size.
        public let advance: Double
        /// The outline at this size, relative to `origin` (y down).
        public let outline: Outline
        /// The glyph's box: its advance wide, from the ascender to the descender line.
        public let box: Box
    }

    /// The glyphs, in order.
    public let glyphs: [PlacedGlyph]
    /// The font size in pixels (the em).
    public let size: Double
    /// The width: the sum of advances and kerning.
    public let width: Double
    /// The ascender and descender distances at this size (both ≥ 0 for ordinary fonts).
    public let ascent: Double, descent: Double
    /// The line's box: `width` wide, from the ascender to the descender line.
    public let box: Box
    /// Characters the font lacks, if any.
    public let warnings: [VectorWarning]

    /// The most glyphs one text may have.
    public static let maxGlyphs = 10_000

    /// Lays out `text` in `font` at `size` pixels. Line breaks and tabs become spaces (as SVG
    /// text shows them); other control characters are skipped.
    public init(_ text: String, font: FontFace, size: Double, align: Alignment = .left,
                baseline: Baseline = .alphabetic) throws(VectorError) {
        guard size.isFinite else { throw .notFinite("the font size") }
        let size = max(0, size)
        var scalars: [Unicode.Scalar] = []
        for u in text.unicodeScalars {
            switch u.value {
            case 0x09, 0x0A, 0x0D: scalars.append(" ")
            case 0..<0x20, 0x7F: continue
            default: scalars.append(u)
            }
        }
        guard scalars.count <= TextLayout.maxGlyphs else { throw .tooManyGlyphs(count: scalars.count, limit: TextLayout.maxGlyphs) }
        let k = size / font.unitsPerEm
        let ascent = font.ascender * k, descent = -font.descender * k
        let indices = scalars.map(font.glyphIndex)
        // Pen positions before alignment.
        var pens: [Double] = []
        var x = 0.0
        for (n, index) in indices.enumerated() {
            if n > 0 { x += font.kerning(indices[n - 1], index) * k }
            pens.append(x)
            x += font.glyph(index).advance * k
        }
        let width = x
        let shiftX: Double = switch align {
        case .left: 0
        case .center: -width / 2
        case .right: -width
        }
        let baselineY: Double = baseline == .alphabetic ? 0 : (ascent - descent) / 2
        var glyphs: [PlacedGlyph] = []
        var missing = ""
        for (n, index) in indices.enumerated() {
            let g = font.glyph(index)
            let origin = Point(pens[n] + shiftX, baselineY)
            glyphs.append(PlacedGlyph(scalar: scalars[n], index: index, origin: origin, advance: g.advance * k,
                                      outline: g.outline.transformed(by: .scale(k, k)),
                                      box: Box(x: origin.x, y: baselineY - ascent, width: g.advance * k, height: ascent + descent)))
            if index == 0 && !missing.unicodeScalars.contains(scalars[n]) { missing.unicodeScalars.append(scalars[n]) }
        }
        self.glyphs = glyphs
        self.size = size
        self.width = width
        self.ascent = ascent
        self.descent = descent
        self.box = Box(x: shiftX, y: baselineY - ascent, width: width, height: ascent + descent)
        self.warnings = missing.isEmpty ? [] : [.missingGlyphs(family: font.family, characters: missing)]
    }

    /// Every glyph's outline in place, as one outline in layout coordinates.
    public var outline: Outline {
        var out = Outline()
        for g in glyphs { out.contours += g.outline.transformed(by: .translation(g.origin.x, g.origin.y)).contours }
        return out
    }
}
