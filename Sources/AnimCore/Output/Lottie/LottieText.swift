// LottieText: a text shape in the Lottie export as glyph outlines — shape paths from the
// vector layer's FreeType outlines of the font the rasterizer draws (StageText), so every
// player draws the same letters with no font asset, and none substitutes its own font. The
// layout is made at a reference size of 100 px, centred, its central baseline at y = 0 as the
// HTML player and the rasterizer place it; it is linear in the size, so the font size is the
// scale of the group (100 % at 100 px: the scale keyframes are the `font` channel's). Each
// string the shape shows in each font (family, weight, align) is one group of that face's
// outlines, aligned as `align` says, shown (opacity 100, hold keyframes) at the frames where
// the shape's text is that string in that font.

extension ChannelBuilder {
    /// The layout's reference size, in pixels.
    static let textReferenceSize = 100.0

    /// A string in a font: what one group draws.
    struct TextKey: Hashable {
        var text: String, family: String, weight: Int, align: TextLayout.Alignment
    }

    /// The groups of a text shape's strings, each with its paths, its fill and its transform.
    /// `fillOpacity` is the text's fill opacity channel (its colour's alpha), which the glyph
    /// groups' own fills share.
    func textGroups(fill: String, fillOpacity: String) -> String {
        let glyphs = animatedGlyphShapes()
        let grid = FrameGrid(fps: fps)
        let start = firstTime()
        let texts: [TextKey] = timeline.frameRange(on: grid).map { k in
            let t = max(start, grid.time(ofFrame: k))
            return TextKey(text: value(.text, t)?.frameString ?? "", family: value(.fontFamily, t)?.frameString ?? "",
                           weight: BuiltinProperty.weightValue(value(.weight, t)?.frameString ?? "normal"),
                           align: value(.align, t)?.frameString.flatMap(TextLayout.Alignment.init(word:)) ?? .center)
        }
        var strings: [TextKey] = []
        for s in texts where !s.text.isEmpty && !strings.contains(s) { strings.append(s) }
        let size = channel(.font, Self.pixels) { v in let f = max(0, v.frameNumber ?? 16); return [f, f] }
        var groups: [String] = []
        for (n, s) in strings.enumerated() {
            guard let face = StageText.face(family: s.family, weight: s.weight) else { continue }
            var text = s.text
            if text.unicodeScalars.count > TextLayout.maxGlyphs {
                text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(TextLayout.maxGlyphs)))
            }
            let r = Self.textReferenceSize
            guard let layout = try? TextLayout(text, font: face, size: r, align: s.align) else { continue }
            let central = StageText.centralShift(face, size: r)
            let b = layout.box, groupFill = glyphGroupFill(box: Box(x: b.x, y: b.y + central, width: b.width, height: b.height), else: fill)
            let paths: String
            if let glyphs {
                paths = glyphGroups(layout, text: text, central: central, glyphs: glyphs, fill: groupFill, fillOpacity: fillOpacity,
                                    textGradient: groupFill == fill ? nil : groupFill)
            } else {
                let outline = layout.outline.transformed(by: .translation(0, central))
                paths = outline.contours.compactMap(Self.path).joined(separator: ",")
            }
            let visible = texts.map { $0 == s }
            let opacity: String
            if Set(visible).count > 1 {
                var keys: [String] = []
                for k in visible.indices where k == 0 || visible[k] != visible[k - 1] {
                    keys.append("{\"t\":\(k),\"s\":[\(visible[k] ? 100 : 0)],\"h\":1}")
                }
                opacity = "{\"a\":1,\"k\":[\(keys.joined(separator: ","))]}"
            } else {
                opacity = "{\"a\":0,\"k\":100}"
            }
            let transform = "{\"ty\":\"tr\",\"p\":{\"a\":0,\"k\":[0,0]},\"a\":{\"a\":0,\"k\":[0,0]},\"s\":\(size),\"r\":{\"a\":0,\"k\":0},\"o\":\(opacity)}"
            // Glyph groups carry their own fills (a fill here would paint them too).
            let own = glyphs == nil ? groupFill + "," : ""
            groups.append("{\"ty\":\"gr\",\"nm\":\(jsonString("text \(n)")),\"it\":[\(paths.isEmpty ? "" : paths + ",")\(own)\(transform)]}")
        }
        return groups.joined(separator: ",")
    }

    /// A glyph's contour as a Lottie path (`sh`, always closed: glyph outlines are), through
    /// the vertices the outline shapes use (PathVertices). Nil for a contour with no segments.
    static func path(_ c: Outline.Contour) -> String? {
        guard !c.segments.isEmpty else { return nil }
        var vertices = PathVertices(c)
        vertices.closed = true
        return "{\"ty\":\"sh\",\"ks\":{\"a\":0,\"k\":\(vertices.json)}}"
    }
}
