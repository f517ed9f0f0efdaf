// StageShapes: what the rasterizer's vector drawing of a shape (StageOutline) shares — the map
// from a shape's own coordinates (centred on its box's center) to pixels, by the same
// translate · rotate · scale about its pivot (the anchor) as the HTML player and the animated
// SVG place it; its drop shadow (VectorCanvas.group: the shape's alpha offset, blurred with
// CSS's blur radius — a Gaussian of deviation blur / 2, as three box blurs — and tinted, in the
// shape's local units, so it turns and scales with the shape, as SVG's feDropShadow on the
// shape's element does); and drawing on a vector canvas over part of a canvas. A rect or circle
// without a stroke or a shadow keeps Canvas's distance fill, so the pictures of every script
// written before outlines and shadows stay the same bytes.

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
