// StageShapes: how the rasterizer draws a rect or circle that Canvas's distance fill cannot —
// one with a drop shadow — through the vector layer: the shape's outline in its own
// coordinates (centred on its box's center), placed by the same translate · rotate · scale
// about its pivot (the anchor) as the HTML player and the animated SVG place it, filled with
// its colour under its opacity, with its shadow beneath it (VectorCanvas.group: the shape's
// alpha offset, blurred with CSS's blur radius — a Gaussian of deviation blur / 2, as three
// box blurs — and tinted, in the shape's local units, so it turns and scales with the shape,
// as SVG's feDropShadow on the shape's element does). A shape without a shadow keeps Canvas's
// distance fill, so the pictures of every existing script stay the same bytes.

extension ShapeSnapshot {
    /// The map from the shape's local coordinates (its box centred on 0) to canvas pixels:
    /// the stage's placement (`origin`, `scale`), then translate to the pivot, rotate, scale,
    /// and back by the anchor's shift.
    func localTransform(originX: Double, originY: Double, scale: Double) -> Affine {
        let pv = pivot, d = anchorShift
        return .translation(originX + pv.x * scale, originY + pv.y * scale) * .scale(scale, scale)
            * .rotation(degrees: rotation) * .scale(self.scale.x, self.scale.y) * .translation(d.x, d.y)
    }

    /// The shadow in the vector layer's terms (nil: none, or values it cannot draw).
    var vectorShadow: Shadow? {
        guard hasShadow else { return nil }
        return try? Shadow(offset: shadowOffset, blur: max(0, min(Shadow.maxBlur, shadowBlur)), color: shadowColor)
    }

    /// A rect's or circle's outline in local coordinates (nil: nothing to draw).
    var localOutline: Outline? {
        let h = halfExtents
        guard h.x > 0, h.y > 0, h.x.isFinite, h.y.isFinite else { return nil }
        switch kind {
        case .circle: return .circle(center: .zero, radius: h.x)
        case .rect:
            let r = cornerRadius
            return .roundedRect(Box(x: -h.x, y: -h.y, width: 2 * h.x, height: 2 * h.y), rx: r, ry: r)
        case .text: return nil
        }
    }
}

extension VectorCanvas {
    /// Draws a rect or circle with its shadow (see StageShapes).
    mutating func drawShape(_ s: ShapeSnapshot, originX: Double, originY: Double, scale: Double) {
        guard s.opacity > 0, let outline = s.localOutline else { return }
        let m = s.localTransform(originX: originX, originY: originY, scale: scale)
        guard m.isFinite, m.inverted != nil else { return }
        let paint = Paint.solid(Color(r: s.color.r, g: s.color.g, b: s.color.b))
        try? draw(VectorShape(outline, fill: paint, shadow: s.vectorShadow, transform: m, opacity: s.opacity))
    }
}

extension Canvas {
    /// Runs `body` on a vector canvas over these pixels, clipped to `clip` (a contact sheet's
    /// cell): in place when the clip is the whole canvas, else in a layer over the clip alone,
    /// composited once.
    mutating func withVector(clip: (x0: Int, y0: Int, x1: Int, y1: Int), _ body: (inout VectorCanvas) -> Void) {
        if clip.x0 <= 0 && clip.y0 <= 0 && clip.x1 >= width && clip.y1 >= height {
            // The vector canvas takes the pixels (no copy) and gives them back.
            var v = VectorCanvas(self)
            pixels = []
            body(&v)
            self = v.canvas
            return
        }
        let x0 = max(0, clip.x0), y0 = max(0, clip.y0), x1 = min(width, clip.x1), y1 = min(height, clip.y1)
        guard x0 < x1, y0 < y1 else { return }
        var layer = VectorCanvas(width: x1 - x0, height: y1 - y0)
        layer.originX = x0
        layer.originY = y0
        body(&layer)
        var v = VectorCanvas(self)
        pixels = []
        v.composite(layer, opacity: 1, shadow: nil)
        self = v.canvas
    }
}
