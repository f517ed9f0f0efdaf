// TextWidth: how wide a label drawn in the charts' font may be, to lay labels out so that they
// never overlap. Advances are Helvetica's (Adobe's Helvetica AFM, in thousandths of an em),
// which Arial and the Liberation and Nimbus Sans fonts match; a wider stand-in font (DejaVu Sans
// runs about 12% wider) is allowed for by a margin, and characters beyond Latin count a full em
// (CJK, emoji). The SVG that draws a label also clips it to the box it was given, so a font
// wider still cuts the label short rather than running into its neighbour.

enum TextWidth {
    /// Helvetica's advance widths of the printable ASCII characters, space (32) to tilde (126).
    static let ascii: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // space to /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 0 to ?
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // @ to O
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // P to _
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // ` to o
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,  // p to ~
    ]

    /// The margin for a stand-in font wider than Helvetica.
    static let margin = 1.15

    /// The width in pixels of `text` at `size` pixels (an upper estimate).
    static func of(_ text: String, size: Double) -> Double {
        var units = 0
        for scalar in text.unicodeScalars {
            let v = Int(scalar.value)
            if v >= 32 && v <= 126 { units += ascii[v - 32] } else if v < 0x300 { units += 778 } else { units += 1000 }
        }
        return Double(units) / 1000 * size * margin
    }

    /// `text` cut (with an ellipsis) to fit `width` pixels at `size`; "" if not even one
    /// character and the ellipsis fit.
    static func clip(_ text: String, width: Double, size: Double) -> String {
        if of(text, size: size) <= width { return text }
        let room = width - of("…", size: size)
        var cut = "", used = 0.0
        for ch in text {
            let w = of(String(ch), size: size)
            if used + w > room { break }
            used += w
            cut.append(ch)
        }
        return cut.isEmpty ? "" : cut + "…"
    }
}
