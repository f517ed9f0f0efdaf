// StageOutline: how the rasterizer draws a shape with a stroke, and the shapes placed by
// points (line, polygon, polyline, path) and ellipses — through the vector layer, as the HTML
// player and the animated SVG draw them: the shape's outline in its own coordinates (a box
// shape's centred on 0, a point shape's relative to the centre of its points' box),
// under translate · rotate · scale about its anchor (StageShapes.localTransform), with its drop
// shadow beneath; the fill (none for a line, which has no
// area; SVG closes a polyline's fill) and the stroke under the shape's alpha as one group, so
// a translucent shape's stroke does not show its fill through. The stroke is SVG's: width,
// caps, joins (miter limit 4), dashes laid from each contour's start, and the trims as
// fractions of the whole outline's length (OutlineMeasure), swapped when start > end.
//
// Rects and circles without a stroke keep the distance-field fill of Canvas.fill: the
// pictures drawn before outlines existed stay the same bytes.

extension ShapeSnapshot {
    /// The outline in the shape's own coordinates (see the header); nil for text.
    public var localOutline: Outline? {
        let p = boxCenter
        func local(_ q: Point) -> Point { Point(q.x - p.x, q.y - p.y) }
        switch kind {
        case .rect:
            let h = halfExtents, r = cornerRadius
            return .roundedRect(Box(x: -h.x, y: -h.y, width: 2 * h.x, height: 2 * h.y), rx: r, ry: r)
        case .circle: return .circle(center: .zero, radius: abs(radius))
        case .ellipse: return .ellipse(center: .zero, radii: halfExtents)
        case .line: return .polyline([local(from), local(to)])
        case .polygon: return .polygon(points.map(local))
        case .polyline: return .polyline(points.map(local))
        case .path: return Outline(path).transformed(by: .translation(-p.x, -p.y))
        case .text, .image: return nil
        // Folded into its text's snapshot: never drawn as a shape.
        case .glyph: return nil
        }
    }

    /// Whether the shape has an area to fill with its colour.
    var fillsArea: Bool { kind != .line && kind != .text && color.a > 0 }

    /// The stroke style, when the shape has a stroke to draw.
    var strokeStyle: StrokeStyle? {
        guard hasStroke else { return nil }
        let dash = isDashed ? try? Dash([dash.x, dash.y], offset: dashOffset) : nil
        return try? StrokeStyle(width: min(strokeWidth, StrokeStyle.maxWidth), cap: lineCap, join: lineJoin, dash: dash,
                                trimStart: trimStart, trimEnd: trimEnd)
    }

    /// Whether Canvas.fill draws it (a rect or circle without a stroke, a shadow or a
    /// gradient: a gradient fills through the vector layer's shader).
    var isPlainFill: Bool { (kind == .rect || kind == .circle) && !hasStroke && !hasShadow && gradient == nil }

    /// The fill as the vector layer paints it: the colour, or the gradient over the shape's box
    /// in its own coordinates (CSS's gradient box is the element's border box: a rect's or
    /// ellipse's box, an outline's bounds).
    var fillPaint: Paint { ShapeSnapshot.paint(gradient, else: color) }

    /// The stroke as the vector layer paints it: its colour, or its gradient over the same box
    /// as the fill's (SVG's objectBoundingBox of a stroke is the fill's geometry, not the
    /// stroke's).
    var strokePaint: Paint { ShapeSnapshot.paint(strokeGradient, else: stroke) }

    /// A gradient value as a vector paint (nil, or stops the vector layer refuses: `color`).
    static func paint(_ gradient: GradientValue?, else color: Color) -> Paint {
        guard let g = gradient else { return .solid(color) }
        let stops = g.stops.map { GradientStop($0.color, at: $0.position) }
        guard let resolved = try? Gradient(stops) else { return .solid(color) }
        switch g.form {
        case .linear: return .linear(LinearGradient(angle: g.angle, resolved))
        case .radial: return .radial(RadialGradient(resolved))
        }
    }

    /// The shape as the vector layer draws it, placed on a canvas at `origin` scaled by `scale`.
    func vectorShape(originX: Double, originY: Double, scale: Double) -> VectorShape? {
        guard let outline = localOutline else { return nil }
        let m = localTransform(originX: originX, originY: originY, scale: scale)
        guard m.isFinite, m.inverted != nil else { return nil }
        let fill = fillsArea ? fillPaint : nil
        let stroke = strokeStyle.map { StrokePaint($0, strokePaint) }
        guard fill != nil || stroke != nil else { return nil }
        return VectorShape(outline, fill: fill, stroke: stroke, shadow: vectorShadow, transform: m, opacity: max(0, min(1, alpha)))
    }
}

extension Canvas {
    /// Draws a shape through the vector layer (StageOutline), clipped to `clip`.
    mutating func drawOutline(_ s: ShapeSnapshot, originX: Double, originY: Double, scale: Double,
                              clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard s.alpha > 0, let shape = s.vectorShape(originX: originX, originY: originY, scale: scale) else { return }
        withVector(clip: clip) { try? $0.draw(shape) }
    }
}
