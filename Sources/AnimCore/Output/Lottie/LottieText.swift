// LottieText: a text shape in the Lottie export as glyph outlines — shape paths from the
// vector layer's FreeType outlines of the font the rasterizer draws (StageText), so every
// player draws the same letters with no font asset, and none substitutes its own font. The
// layout is made at a reference size of 100 px, centred, its central baseline at y = 0 as the
// HTML player and the rasterizer place it; it is linear in the size, so the font size is the
// scale of the group (100 % at 100 px: the scale keyframes are the `font` channel's). Each
// string the shape shows is one group, shown (opacity 100, hold keyframes) at the frames where
// the shape's text is that string.

extension ChannelBuilder {
    /// The layout's reference size, in pixels.
    static let textReferenceSize = 100.0

    /// The groups of a text shape's strings, each with its paths, its fill and its transform.
    func textGroups(face: FontFace, fill: String) -> String {
        let grid = FrameGrid(fps: fps)
        let start = firstTime()
        let texts: [String] = timeline.frameRange(on: grid).map { k in
            value(.text, max(start, grid.time(ofFrame: k)))?.frameString ?? ""
        }
        var strings: [String] = []
        for s in texts where !s.isEmpty && !strings.contains(s) { strings.append(s) }
        let size = channel(.font, Self.pixels) { v in let f = max(0, v.frameNumber ?? 16); return [f, f] }
        var groups: [String] = []
        for (n, s) in strings.enumerated() {
            var text = s
            if text.unicodeScalars.count > TextLayout.maxGlyphs {
                text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(TextLayout.maxGlyphs)))
            }
            let r = Self.textReferenceSize
            guard let layout = try? TextLayout(text, font: face, size: r, align: .center) else { continue }
            let outline = layout.outline.transformed(by: .translation(0, StageText.centralShift(face, size: r)))
            let paths = outline.contours.compactMap(Self.path).joined(separator: ",")
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
            groups.append("{\"ty\":\"gr\",\"nm\":\(jsonString("text \(n)")),\"it\":[\(paths.isEmpty ? "" : paths + ",")\(fill),\(transform)]}")
        }
        return groups.joined(separator: ",")
    }

    /// A contour as a Lottie path (`sh`): vertices with in and out tangents relative to them,
    /// quadratic segments raised to cubics (c₁ = p₀ + ⅔(q − p₀), c₂ = p₁ + ⅔(q − p₁)), closed.
    /// Nil for a contour with no segments.
    static func path(_ c: Outline.Contour) -> String? {
        guard !c.segments.isEmpty else { return nil }
        var v: [Point] = [c.start], ins: [Point] = [.zero], outs: [Point] = []
        var p = c.start
        for (k, s) in c.segments.enumerated() {
            let c1: Point, c2: Point, end: Point
            switch s {
            case .line(let e): (c1, c2, end) = (p, e, e)
            case .quadratic(let q, let e):
                c1 = Point(p.x + 2 / 3 * (q.x - p.x), p.y + 2 / 3 * (q.y - p.y))
                c2 = Point(e.x + 2 / 3 * (q.x - e.x), e.y + 2 / 3 * (q.y - e.y))
                end = e
            case .cubic(let a, let b, let e): (c1, c2, end) = (a, b, e)
            }
            outs.append(Point(c1.x - p.x, c1.y - p.y))
            let closing = k == c.segments.count - 1 && end == c.start
            if closing {
                ins[0] = Point(c2.x - end.x, c2.y - end.y)
            } else {
                v.append(end)
                ins.append(Point(c2.x - end.x, c2.y - end.y))
            }
            p = end
        }
        // A contour that does not end at its start closes with a straight line.
        if outs.count < v.count { outs.append(.zero) }
        func list(_ ps: [Point]) -> String { "[" + ps.map { "[\(formatFixed($0.x, 3)),\(formatFixed($0.y, 3))]" }.joined(separator: ",") + "]" }
        return "{\"ty\":\"sh\",\"ks\":{\"a\":0,\"k\":{\"i\":\(list(ins)),\"o\":\(list(outs)),\"v\":\(list(v)),\"c\":true}}}"
    }
}
