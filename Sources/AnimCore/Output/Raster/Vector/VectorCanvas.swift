// VectorCanvas: the drawing API over the vector layer — fill and stroke outlines with a paint,
// draw images and text, and draw groups with an opacity and a drop shadow — into the same
// pixels as Canvas (premultiplied float RGBA, row-major), with Canvas's compositing rule
// exactly: source-over in sRGB, each pixel's colour weighted by its coverage times its alpha
// (Canvas.blend). A group (a shape with fill, stroke and shadow, or any drawing under one
// opacity) is drawn into a layer first and composited once, as SVG's `opacity` on a `<g>`
// does, so a translucent shape's stroke does not show its fill through it twice. Everything
// takes a transform from the drawing's local space to the canvas's pixels.

/// How one glyph of a text differs from the rest (for per-glyph animation).
public struct GlyphStyle: Sendable {
    /// A transform applied to the glyph in layout coordinates (before the text's own), e.g.
    /// `Affine.about(glyph.box.center, rotation: 20)`.
    public var transform: Affine
    /// The glyph's own opacity, times the text's.
    public var opacity: Double
    /// Its own paint, or nil for the text's.
    public var paint: Paint?

    /// A glyph style (the defaults change nothing).
    public init(transform: Affine = .identity, opacity: Double = 1, paint: Paint? = nil) {
        self.transform = transform
        self.opacity = opacity
        self.paint = paint
    }
}

/// A stroke and its paint.
public struct StrokePaint: Sendable {
    /// Width, caps, joins, dash, trim.
    public var style: StrokeStyle
    /// The paint.
    public var paint: Paint

    /// Creates a stroke paint.
    public init(_ style: StrokeStyle, _ paint: Paint) {
        self.style = style
        self.paint = paint
    }
}

/// An outline with its fill, stroke, shadow, opacity and transform: one scene shape.
public struct VectorShape: Sendable {
    /// The outline, in local coordinates.
    public var outline: Outline
    /// The fill, or nil for none.
    public var fill: Paint?
    /// The fill rule.
    public var fillRule: FillRule
    /// The stroke, or nil for none.
    public var stroke: StrokePaint?
    /// The drop shadow, or nil.
    public var shadow: Shadow?
    /// Local → canvas pixels.
    public var transform: Affine
    /// The group opacity, 0…1.
    public var opacity: Double
    /// The box gradients span (nil: the outline's bounds, as SVG's objectBoundingBox).
    public var paintBox: Box?

    /// Creates a shape.
    public init(_ outline: Outline, fill: Paint? = nil, fillRule: FillRule = .nonZero, stroke: StrokePaint? = nil,
                shadow: Shadow? = nil, transform: Affine = .identity, opacity: Double = 1, paintBox: Box? = nil) {
        self.outline = outline
        self.fill = fill
        self.fillRule = fillRule
        self.stroke = stroke
        self.shadow = shadow
        self.transform = transform
        self.opacity = opacity
        self.paintBox = paintBox
    }
}

/// A canvas that draws outlines, strokes, images and text.
public struct VectorCanvas: Sendable {
    /// The pixels drawn into.
    public var canvas: Canvas
    /// The canvas pixel (0, 0) in device pixels (a layer's position on its parent).
    var originX = 0, originY = 0

    /// Draws into an existing canvas.
    public init(_ canvas: Canvas) { self.canvas = canvas }

    /// A new canvas filled with `background` (default: transparent).
    public init(width: Int, height: Int, background: Color = Color(r: 0, g: 0, b: 0, a: 0)) {
        canvas = Canvas(width: width, height: height, fill: background)
    }

    /// The device pixels this canvas holds (never beyond FreeType's span range).
    var region: PixelRect {
        let m = OutlineRasterizer.maxSide
        return PixelRect(x0: originX, y0: originY, x1: originX + canvas.width, y1: originY + canvas.height)
            .intersection(PixelRect(x0: -m, y0: -m, x1: m, y1: m))
    }

    // MARK: - Outlines

    /// Fills `outline` with `paint`; the paint spans `paintBox` (default: the outline's bounds).
    /// Throws when the outline has more points than FreeType holds.
    public mutating func fill(_ outline: Outline, paint: Paint, transform: Affine = .identity, rule: FillRule = .nonZero,
                              opacity: Double = 1, paintBox: Box? = nil) throws(VectorError) {
        let op = Float(max(0, min(1, opacity)))
        guard op > 0, transform.isFinite, outline.isFinite, transform.inverted != nil,
              let box = paintBox ?? outline.bounds else { return }
        guard var d = OutlineRasterizer.fillOutline(outline, transform, region: region) else {
            throw .tooManyPoints(count: outline.pointCount, limit: OutlineRasterizer.maxPoints)
        }
        blend(&d, rule: rule, shader: Shader(paint, box: box, transform), opacity: op)
    }

    /// Strokes `outline`: dashes and trim first, then FreeType's stroker, then `paint` over the
    /// result (spanning `paintBox`, default the outline's bounds). Throws when the dash pattern
    /// cuts too many dashes.
    public mutating func stroke(_ outline: Outline, style: StrokeStyle, paint: Paint, transform: Affine = .identity,
                                opacity: Double = 1, paintBox: Box? = nil) throws(VectorError) {
        let op = Float(max(0, min(1, opacity)))
        guard op > 0, let box = paintBox ?? outline.bounds else { return }
        var batches = try OutlineRasterizer.strokeOutlines(outline, style, transform, region: region)
        let shader = Shader(paint, box: box, transform)
        if batches.count == 1 {
            blend(&batches[0], rule: .nonZero, shader: shader, opacity: op)
        } else if batches.count > 1 {
            blendUnion(&batches, shader: shader, opacity: op)
        }
    }

    /// Draws a shape: its shadow, fill and stroke under one opacity.
    public mutating func draw(_ shape: VectorShape) throws(VectorError) {
        guard let local = shape.outline.controlBounds else { return }
        let box = shape.paintBox ?? shape.outline.bounds ?? local
        var reach = 0.0
        if let s = shape.stroke { reach = s.style.width / 2 * max(s.style.miterLimit, 2.squareRoot()) }
        let bounds = local.expanded(reach, reach).transformed(by: shape.transform).expanded(1, 1)
        let both = shape.fill != nil && shape.stroke != nil
        if shape.shadow != nil || (both && shape.opacity < 1) {
            try group(bounds: bounds, opacity: shape.opacity, shadow: shape.shadow, transform: shape.transform) { (layer: inout VectorCanvas) throws(VectorError) in
                if let f = shape.fill { try layer.fill(shape.outline, paint: f, transform: shape.transform, rule: shape.fillRule, paintBox: box) }
                if let s = shape.stroke { try layer.stroke(shape.outline, style: s.style, paint: s.paint, transform: shape.transform, paintBox: box) }
            }
        } else {
            if let f = shape.fill {
                try fill(shape.outline, paint: f, transform: shape.transform, rule: shape.fillRule, opacity: shape.opacity, paintBox: box)
            }
            if let s = shape.stroke {
                try stroke(shape.outline, style: s.style, paint: s.paint, transform: shape.transform, opacity: shape.opacity, paintBox: box)
            }
        }
    }

    // MARK: - Images and text

    /// Draws `image` scaled into `box` (local coordinates), bilinear from the image level
    /// nearest below the drawn size (so a large image drawn small averages its pixels), with
    /// antialiased edges, under `opacity`.
    public mutating func draw(image: RasterImage, in box: Box, transform: Affine = .identity, opacity: Double = 1) {
        let op = Float(max(0, min(1, opacity)))
        guard op > 0, box.width != 0, box.height != 0, box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite,
              transform.isFinite, let inv = transform.inverted,
              var d = OutlineRasterizer.fillOutline(.rect(box), transform, region: region) else { return }
        let w = Double(image.width), h = Double(image.height)
        // Device pixel center → image pixel coordinates.
        let u = Affine.scale(w / box.width, h / box.height) * .translation(-box.x, -box.y) * inv
        let footprint = max((u.a * u.a + u.b * u.b).squareRoot(), (u.c * u.c + u.d * u.d).squareRoot())
        var level = 0
        if footprint > 1 {
            var f = footprint
            while f >= 2 && level < image.levels.count - 1 { f /= 2; level += 1 }
        }
        let k = 1 / Double(1 << level)
        let ox = originX, oy = originY, width = canvas.width
        let clip = region
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            OutlineRasterizer.render(&d, rule: .nonZero, clip: clip) { y, spans in
                let row = (y - oy) * width
                for s in spans {
                    let cov = OutlineRasterizer.coverage(s.coverage) * op
                    for x in Int(s.x)..<(Int(s.x) + Int(s.len)) {
                        let p = u.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
                        let c = image.sample(level: level, p.x * k, p.y * k)
                        let i = (row + x - ox) * 4
                        let keep = 1 - c.3 * cov
                        buf[i] = c.0 * cov + buf[i] * keep
                        buf[i + 1] = c.1 * cov + buf[i + 1] * keep
                        buf[i + 2] = c.2 * cov + buf[i + 2] * keep
                        buf[i + 3] = c.3 * cov + buf[i + 3] * keep
                    }
                }
            }
        }
    }

    /// Draws laid-out text with `paint` (spanning the text's box), each glyph as an outline;
    /// `glyphs`, when given, styles the glyphs one by one (in order; glyphs beyond it are plain).
    public mutating func draw(text: TextLayout, paint: Paint, transform: Affine = .identity, opacity: Double = 1,
                              glyphs: [GlyphStyle]? = nil) throws(VectorError) {
        guard let styles = glyphs else {
            try fill(text.outline, paint: paint, transform: transform, opacity: opacity, paintBox: text.box)
            return
        }
        for (n, g) in text.glyphs.enumerated() {
            let style = n < styles.count ? styles[n] : GlyphStyle()
            let placed = g.outline.transformed(by: .translation(g.origin.x, g.origin.y))
            try fill(placed, paint: style.paint ?? paint, transform: transform * style.transform,
                     opacity: opacity * max(0, min(1, style.opacity)), paintBox: text.box)
        }
    }

    // MARK: - Groups and shadows

    /// Draws `body` into a layer covering `bounds` (device pixels: everything the body draws
    /// must lie inside), then composites the layer once under `opacity`, with `shadow` (in the
    /// local space of `transform`) drawn beneath it from the layer's alpha.
    public mutating func group(bounds: Box, opacity: Double = 1, shadow: Shadow? = nil, transform: Affine = .identity,
                               _ body: (inout VectorCanvas) throws(VectorError) -> Void) throws(VectorError) {
        let op = Float(max(0, min(1, opacity)))
        guard op > 0 else { return }
        let ds = shadow.map { $0.device(transform) }
        if op >= 1 && ds == nil {
            try body(&self)
            return
        }
        let own = region
        // The layer: what is drawn, where it shows or casts a shadow that shows.
        var needed = own
        if let ds {
            let r = ds.reach
            let dx = Int(ds.dx.rounded(.down)), dy = Int(ds.dy.rounded(.down))
            let cast = PixelRect(x0: own.x0 - dx - r.x - 1, y0: own.y0 - dy - r.y - 1, x1: own.x1 - dx + r.x + 2, y1: own.y1 - dy + r.y + 2)
            needed = PixelRect(x0: min(own.x0, cast.x0), y0: min(own.y0, cast.y0), x1: max(own.x1, cast.x1), y1: max(own.y1, cast.y1))
        }
        let rect = PixelRect(covering: bounds).intersection(needed)
        guard !rect.isEmpty else { return }
        var layer = VectorCanvas(width: rect.width, height: rect.height)
        layer.originX = rect.x0
        layer.originY = rect.y0
        try body(&layer)
        composite(layer, opacity: op, shadow: ds)
    }

    /// Source-over of a layer (premultiplied), with its shadow under it, times `opacity`.
    mutating func composite(_ layer: VectorCanvas, opacity op: Float, shadow ds: DeviceShadow?) {
        let lr = layer.region
        var out = lr.intersection(region)
        // The blurred alpha of the layer, on a grid padded by the blur's reach.
        var blurred: [Float] = []
        var pad = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        if let ds {
            let r = ds.reach
            pad = PixelRect(x0: lr.x0 - r.x, y0: lr.y0 - r.y, x1: lr.x1 + r.x, y1: lr.y1 + r.y)
            blurred = [Float](repeating: 0, count: pad.width * pad.height)
            for y in 0..<lr.height {
                for x in 0..<lr.width { blurred[(y + r.y) * pad.width + x + r.x] = layer.canvas.pixels[(y * lr.width + x) * 4 + 3] }
            }
            Blur.blur(&blurred, width: pad.width, height: pad.height, sigmaX: ds.sigmaX, sigmaY: ds.sigmaY)
            let dx = Int(ds.dx.rounded(.down)), dy = Int(ds.dy.rounded(.down))
            let cast = PixelRect(x0: pad.x0 + dx, y0: pad.y0 + dy, x1: pad.x1 + dx + 1, y1: pad.y1 + dy + 1)
            let u = PixelRect(x0: min(lr.x0, cast.x0), y0: min(lr.y0, cast.y0), x1: max(lr.x1, cast.x1), y1: max(lr.y1, cast.y1))
            out = u.intersection(region)
        }
        guard !out.isEmpty else { return }
        let ox = originX, oy = originY, width = canvas.width
        let pw = pad.width, ph = pad.height
        layer.canvas.pixels.withUnsafeBufferPointer { src in
            canvas.pixels.withUnsafeMutableBufferPointer { dst in
                for y in out.y0..<out.y1 {
                    for x in out.x0..<out.x1 {
                        var lc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        if x >= lr.x0 && x < lr.x1 && y >= lr.y0 && y < lr.y1 {
                            let i = ((y - lr.y0) * lr.width + (x - lr.x0)) * 4
                            lc = (src[i], src[i + 1], src[i + 2], src[i + 3])
                        }
                        if let ds {
                            // The shadow at this pixel: the blurred alpha at (x, y) − offset, bilinear.
                            let fx = Double(x) - ds.dx - Double(pad.x0), fy = Double(y) - ds.dy - Double(pad.y0)
                            let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                            let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
                            func at(_ a: Int, _ b: Int) -> Float {
                                a >= 0 && a < pw && b >= 0 && b < ph ? blurred[b * pw + a] : 0
                            }
                            let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * tx
                            let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * tx
                            let sa = min(1, top + (bottom - top) * ty) * ds.color.3
                            let k = 1 - lc.3
                            lc = (lc.0 + ds.color.0 * sa * k, lc.1 + ds.color.1 * sa * k, lc.2 + ds.color.2 * sa * k, lc.3 + sa * k)
                        }
                        guard lc.3 > 0 else { continue }
                        let i = ((y - oy) * width + (x - ox)) * 4
                        let keep = 1 - lc.3 * op
                        dst[i] = lc.0 * op + dst[i] * keep
                        dst[i + 1] = lc.1 * op + dst[i + 1] * keep
                        dst[i + 2] = lc.2 * op + dst[i + 2] * keep
                        dst[i + 3] = lc.3 * op + dst[i + 3] * keep
                    }
                }
            }
        }
    }

    // MARK: - Painting spans

    /// Renders a device outline and blends `shader` through its coverage (Canvas.blend).
    mutating func blend(_ d: inout DeviceOutline, rule: FillRule, shader: Shader, opacity: Float) {
        let ox = originX, oy = originY, width = canvas.width
        let clip = region
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            OutlineRasterizer.render(&d, rule: rule, clip: clip) { y, spans in
                let row = (y - oy) * width - ox
                if case .solid(let c) = shader.kind {
                    let rgb = (c.0, c.1, c.2)
                    for s in spans {
                        let a = c.3 * OutlineRasterizer.coverage(s.coverage) * opacity
                        guard a > 0 else { continue }
                        var i = (row + Int(s.x)) * 4
                        for _ in 0..<Int(s.len) {
                            Canvas.blend(buf, i, rgb, a)
                            i += 4
                        }
                    }
                } else {
                    for s in spans {
                        let cov = OutlineRasterizer.coverage(s.coverage) * opacity
                        for x in Int(s.x)..<(Int(s.x) + Int(s.len)) {
                            let c = shader.color(x, y)
                            Canvas.blend(buf, (row + x) * 4, (c.0, c.1, c.2), c.3 * cov)
                        }
                    }
                }
            }
        }
    }

    /// Blends `shader` through the union of several outlines' coverage (the larger coverage at
    /// each pixel): the stroke of an outline too large for one FreeType outline.
    mutating func blendUnion(_ batches: inout [DeviceOutline], shader: Shader, opacity: Float) {
        let clip = region
        guard !clip.isEmpty else { return }
        var mask = [Float](repeating: 0, count: clip.width * clip.height)
        let mw = clip.width
        mask.withUnsafeMutableBufferPointer { m in
            for k in batches.indices {
                OutlineRasterizer.render(&batches[k], rule: .nonZero, clip: clip) { y, spans in
                    let row = (y - clip.y0) * mw - clip.x0
                    for s in spans {
                        let c = OutlineRasterizer.coverage(s.coverage)
                        for x in Int(s.x)..<(Int(s.x) + Int(s.len)) where m[row + x] < c { m[row + x] = c }
                    }
                }
            }
        }
        let ox = originX, oy = originY, width = canvas.width
        canvas.pixels.withUnsafeMutableBufferPointer { buf in
            for y in clip.y0..<clip.y1 {
                for x in clip.x0..<clip.x1 {
                    let cov = mask[(y - clip.y0) * mw + (x - clip.x0)] * opacity
                    guard cov > 0 else { continue }
                    let c = shader.color(x, y)
                    Canvas.blend(buf, ((y - oy) * width + (x - ox)) * 4, (c.0, c.1, c.2), c.3 * cov)
                }
            }
        }
    }
}
