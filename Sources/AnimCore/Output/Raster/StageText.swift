// StageText: how the rasterizer draws a text shape — as the HTML player and the animated SVG
// do, so that every output shows the same title. They draw a text shape as an SVG `<text>` with
// `text-anchor="middle"` and `dominant-baseline="central"` at the shape's centre, in the stage's
// `font-family="Helvetica, Arial, sans-serif"`, at `font` pixels, under the shape's
// translate · rotate · scale and opacity. Here the family list is resolved as CSS does (the
// first installed family, else the generic `sans-serif`, fontconfig's default: DejaVu Sans on
// this project's machines, as in Chromium), and the string is laid out by the vector layer
// (TextLayout: unhinted outlines, kerning) and filled by its rasterizer.
//
// The central baseline is half of the font's ascent − descent (its hhea metrics, as FreeType
// and Skia read them) below the centre, unrounded. Blink rounds the ascent and descent to
// whole device pixels and snaps baselines to them; against Chromium at 4× averaged down (the
// project's reference for text) the font's own metrics are within a fifth of a pixel, where
// rounding at the stage's 1× scale is up to three quarters off
// (Tests/AnimCoreTests/Output/TextRasterChromiumTests.swift).
//
// A text's `font-family`, `weight` and `align` choose the face and where the line sits on the
// pivot: the family when fontconfig has it, else the stage's list (the web outputs write
// `font-family="'FAMILY', Helvetica, Arial, sans-serif"`, so Chromium falls back the same way),
// the weight as fontconfig matches it (DejaVu Sans: 100–300 ExtraLight, 400–500 Book, 600–900
// Bold, as CSS's font matching picks among those faces), and `left`/`right` starting or ending
// the line at the pivot as text-anchor start/end do.

import Synchronization

/// The text shapes' font and layout, shared by every frame and thread (the font's glyphs are
/// cached behind its lock; a layout depends only on the string, the face, the size and the
/// alignment, so frames come out the same bytes on any thread).
public enum StageText {
    /// The families the HTML player and the animated SVG name for the stage
    /// (`font-family="Helvetica, Arial, sans-serif"`), in order.
    public static let families = ["Helvetica", "Arial", "sans-serif"]

    /// The system's fonts, opened once.
    static let fonts = FontCollection()

    /// The face text shapes are drawn in: the first of `families` that is installed (nil when
    /// fontconfig finds no font at all: then text cannot be drawn).
    public static let face: FontFace? = {
        for family in families {
            if case .success(let m) = fonts.match(family: family), m.warning == nil { return m.face }
        }
        return nil
    }()

    /// The faces of the families and weights text shapes asked for, by "weight:family".
    private static let chosen = Mutex<[String: FontFace?]>([:])

    /// The face a text shape of `family` ("": the stage's) at CSS `weight` is drawn in:
    /// the family when it is installed, else the stage's first installed family (as a
    /// browser falls back along `font-family="FAMILY, Helvetica, Arial, sans-serif"`, the
    /// list the web outputs write), at the weight fontconfig matches nearest. Nil when no
    /// font is installed at all.
    public static func face(family: String, weight: Int) -> FontFace? {
        let key = "\(weight):\(family)"
        if let f = chosen.withLock({ $0[key] }) { return f }
        var found: FontFace?
        for name in (family.isEmpty ? [] : [family]) + families {
            if case .success(let m) = fonts.match(family: name, weight: weight), m.warning == nil { found = m.face; break }
        }
        chosen.withLock { $0[key] = found }
        return found
    }

    /// The face a text snapshot is drawn in.
    static func face(for s: ShapeSnapshot) -> FontFace? {
        s.fontFamily.isEmpty && s.fontWeight == 400 ? face : face(family: s.fontFamily, weight: s.fontWeight)
    }

    /// Whether `family` is installed (fontconfig knows a font of that name, or it is one of
    /// CSS's generic families); a family that is not falls back to the stage's (`face(family:weight:)`).
    public static func isInstalled(_ family: String) -> Bool {
        guard case .success(let m) = fonts.match(family: family) else { return false }
        return m.warning == nil
    }

    /// The CSS `font-family` list the web outputs write for a text shape of `family`: the
    /// family quoted, then the stage's list, so that a browser falls back as the rasterizer does.
    public static func cssFamilies(_ family: String) -> String {
        var quoted = "'"
        for c in family {
            if c == "'" || c == "\\" { quoted.append("\\") }
            quoted.append(c)
        }
        quoted.append("'")
        return ([quoted] + families).joined(separator: ", ")
    }

    /// How far below the centre the alphabetic baseline lies for `dominant-baseline:
    /// central` at `size` pixels: half of ascent − descent (see the header).
    static func centralShift(_ face: FontFace, size: Double) -> Double {
        (face.ascender + face.descender) / face.unitsPerEm * size / 2
    }

    /// The shape's string laid out centred on x = 0 with its central baseline on y = 0 (nil:
    /// nothing to draw). A string longer than TextLayout.maxGlyphs is cut there.
    static func layout(_ s: ShapeSnapshot, face: FontFace) -> TextLayout? {
        guard !s.text.isEmpty, s.font.isFinite, s.font > 0 else { return nil }
        var text = s.text
        if text.unicodeScalars.count > TextLayout.maxGlyphs {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(TextLayout.maxGlyphs)))
        }
        return try? TextLayout(text, font: face, size: s.font, align: s.align)
    }

    /// Which glyph of `text` (`title.glyphs[k]`: its k-th character) each laid-out glyph belongs
    /// to, as TextLayout lays scalars out (control characters but tabs and line breaks skipped).
    static func characterIndices(_ text: String) -> [Int] {
        var out: [Int] = []
        for (k, ch) in text.enumerated() {
            for u in ch.unicodeScalars {
                switch u.value {
                case 0x09, 0x0A, 0x0D: out.append(k)
                case 0..<0x20, 0x7F: continue
                default: out.append(k)
                }
            }
        }
        return out
    }

    /// The styles of a text's laid-out glyphs from its glyph shapes' values (nil: none of them
    /// changes anything, so the text is drawn whole). Each turns and scales about the centre of
    /// its advance box and is moved by its offset, in the text's own (layout) coordinates; its
    /// alpha multiplies the text's and its colour is laid over the text's by its own alpha.
    /// Characters past the glyph shapes (a longer `text` set later) are drawn plain.
    static func glyphStyles(_ s: ShapeSnapshot, layout: TextLayout) -> [GlyphStyle]? {
        guard s.hasGlyphChanges else { return nil }
        let owner = characterIndices(s.text)
        return layout.glyphs.indices.map { n in
            guard n < owner.count, owner[n] < s.glyphs.count else { return GlyphStyle() }
            let g = s.glyphs[owner[n]], box = layout.glyphs[n].box
            let c = g.fill(over: s.color)
            return GlyphStyle(transform: .about(box.center, rotation: g.rotation, scale: g.scale, translation: g.offset),
                              opacity: g.alpha, paint: g.color.a > 0 ? .solid(Color(r: c.r, g: c.g, b: c.b)) : nil)
        }
    }

    /// The transform from a text shape's layout to canvas pixels: the stage's placement
    /// (`origin`, `scale`), then the shape's translate · rotate · scale about its pivot (the anchor),
    /// then the baseline.
    static func transform(_ s: ShapeSnapshot, face: FontFace, originX: Double, originY: Double, scale: Double) -> Affine {
        .translation(originX + s.pivot.x * scale, originY + s.pivot.y * scale) * .scale(scale, scale)
            * .rotation(degrees: s.rotation) * .scale(s.scale.x, s.scale.y)
            * .translation(s.anchorShift.x, s.anchorShift.y + centralShift(face, size: s.font))
    }
}

extension VectorCanvas {
    /// Draws a text shape (see StageText).
    mutating func drawText(_ s: ShapeSnapshot, face: FontFace, originX: Double, originY: Double, scale: Double) {
        let opacity = s.opacity
        guard opacity > 0, let layout = StageText.layout(s, face: face) else { return }
        let m = StageText.transform(s, face: face, originX: originX, originY: originY, scale: scale)
        // A gradient spans the text's layout box (TextLayout.box: its advance width, from the
        // ascender to the descender line), as a gradient fill of the player and the SVG does.
        let paint = s.gradient != nil ? s.fillPaint : Paint.solid(Color(r: s.color.r, g: s.color.g, b: s.color.b))
        if let styles = StageText.glyphStyles(s, layout: layout) {
            // Glyph by glyph (`title.glyphs`), each composited under its own opacity, as the
            // player and the SVG draw a glyph per element; a shadow is cast by the moved glyphs.
            if let shadow = s.vectorShadow {
                var bounds: Box?
                for (g, st) in zip(layout.glyphs, styles) {
                    guard let b = g.outline.transformed(by: .translation(g.origin.x, g.origin.y)).controlBounds else { continue }
                    let d = b.transformed(by: m * st.transform)
                    bounds = bounds.map { $0.union(d) } ?? d
                }
                guard let bounds else { return }
                try? group(bounds: bounds.expanded(1, 1), opacity: opacity, shadow: shadow, transform: m) {
                    (layer: inout VectorCanvas) throws(VectorError) in
                    try layer.draw(text: layout, paint: paint, transform: m, glyphs: styles)
                }
                return
            }
            try? draw(text: layout, paint: paint, transform: m, opacity: opacity, glyphs: styles)
            return
        }
        if let shadow = s.vectorShadow, let local = layout.outline.controlBounds {
            // The glyphs into one layer, with the shadow of their alpha beneath (StageShapes).
            try? group(bounds: local.transformed(by: m).expanded(1, 1), opacity: opacity, shadow: shadow, transform: m) {
                (layer: inout VectorCanvas) throws(VectorError) in
                try layer.draw(text: layout, paint: paint, transform: m, glyphs: [])
            }
            return
        }
        do {
            try draw(text: layout, paint: paint, transform: m, opacity: opacity)
        } catch {
            // More points than FreeType takes in one outline: glyph by glyph into one layer,
            // composited once under the opacity (so overlapping glyphs do not add up).
            guard let local = layout.outline.controlBounds else { return }
            let bounds = local.transformed(by: m).expanded(1, 1)
            try? group(bounds: bounds, opacity: opacity) { (layer: inout VectorCanvas) throws(VectorError) in
                try layer.draw(text: layout, paint: paint, transform: m, glyphs: [])
            }
        }
    }
}
