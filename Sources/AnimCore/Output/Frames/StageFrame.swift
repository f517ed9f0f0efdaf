// StageFrame: what the stage shows at one instant — every shape that exists then, with its
// drawing properties resolved to plain numbers, in paint order. Every renderer (PNG, SVG,
// HTML, Lottie) draws from these; they are sampled from a Timeline's history in
// FrameSampling.swift, through the same Sampler and lookups a test checks against the
// interpreter at every frame.

/// One shape at one instant, ready to draw.
public struct ShapeSnapshot: Hashable, Sendable {
    /// The shape's id (declaration order).
    public var id: ShapeID
    /// Rect, circle or text.
    public var kind: ShapeKind
    /// Its center in stage coordinates (y down), before `offset`.
    public var center: Point
    /// Width and height (rects; text has none).
    public var size: Point
    /// Clockwise rotation in degrees about the center.
    public var rotation: Double
    /// Scale about the center, per axis.
    public var scale: Point
    /// Translation applied after layout.
    public var offset: Point
    /// Opacity, 0...1 (the color's own alpha is separate).
    public var alpha: Double
    /// Fill color (for a gradient fill: its first stop's colour, opaque; the stops hold alpha).
    public var color: Color
    /// Circle radius, or rect corner radius.
    public var radius: Double
    /// Stacking order: higher paints later.
    public var z: Double
    /// Text shapes: the string and the font size in pixels.
    public var text: String
    /// Font size of text shapes.
    public var font: Double
    /// The transform origin as a fraction of the box ((0.5, 0.5): the center).
    public var anchor: Point = Point(0.5, 0.5)
    /// The drop shadow's offset, in the shape's local units.
    public var shadowOffset: Point = .zero
    /// The drop shadow's blur: CSS's blur radius (a Gaussian of standard deviation half of it).
    public var shadowBlur: Double = 0
    /// The drop shadow's colour.
    public var shadowColor: Color = Color(r: 0, g: 0, b: 0, a: 0.5)
    /// A line's end points, in stage coordinates.
    public var from = Point.zero, to = Point.zero
    /// A polygon's or polyline's points, in stage coordinates.
    public var points: [Point] = []
    /// A path's data, in stage coordinates.
    public var path = PathValue()
    /// The stroke's colour (alpha 0: no stroke).
    public var stroke = Color(r: 0, g: 0, b: 0, a: 0)
    /// The stroke's width.
    public var strokeWidth = 1.0
    /// The dash pattern (on, off); (0, 0) or any negative length: solid.
    public var dash = Point.zero
    /// How far into the dash pattern each contour starts.
    public var dashOffset = 0.0
    /// Caps of open ends, and joins of corners.
    public var lineCap = LineCap.butt, lineJoin = LineJoin.miter
    /// The part of the outline's length the stroke draws, as fractions (0…1).
    public var trimStart = 0.0, trimEnd = 1.0
    /// The fill when it is a gradient (nil: `color` fills).
    public var gradient: GradientValue?
    /// The stroke when it is a gradient (nil: `stroke` paints it), over the same box as a
    /// gradient fill.
    public var strokeGradient: GradientValue?
    /// An image shape's PNG file, as written (relative to `StageFrame.imageDirectory`).
    public var file = ""
    /// A text shape's font family ("": the stage's, StageText.families), its CSS weight
    /// (100 … 900) and where its line sits on the pivot (left: it starts there).
    public var fontFamily = "", fontWeight = 400, align = TextLayout.Alignment.center
    /// A text shape's glyphs (`title.glyphs`, Grammar.md §4.12), character by character: their
    /// values folded in here, so the outputs never see glyph shapes. Empty: none declared.
    public var glyphs: [GlyphSnapshot] = []

    /// Whether any glyph moves, turns, scales, fades or is tinted away from the plain text.
    public var hasGlyphChanges: Bool { glyphs.contains { !$0.isIdentity } }

    /// Where the box's center lands after `offset` (before rotation and scale about the anchor).
    public var position: Point {
        let c = boxCenter
        return Point(c.x + offset.x, c.y + offset.y)
    }

    /// The centre of the shape's box in stage coordinates before `offset`: `center` for a box
    /// shape, and for a line, polygon or path the centre of the box around its points (control
    /// points included), so that a shape placed by points turns in place.
    public var boxCenter: Point {
        guard kind.isPointBased else { return center }
        guard let b = pointsBox else { return .zero }
        return Point((b.lo.x + b.hi.x) / 2, (b.lo.y + b.hi.y) / 2)
    }

    /// The box around a point shape's points (control points included); nil for a box shape or
    /// one with no points.
    public var pointsBox: (lo: Point, hi: Point)? {
        guard kind.isPointBased else { return nil }
        var lo = Point(Double.infinity, Double.infinity), hi = Point(-Double.infinity, -Double.infinity)
        func add(_ p: Point) {
            lo = Point(min(lo.x, p.x), min(lo.y, p.y))
            hi = Point(max(hi.x, p.x), max(hi.y, p.y))
        }
        switch kind {
        case .line: add(from); add(to)
        case .polygon, .polyline: points.forEach(add)
        default: for c in path.commands { c.points.forEach(add) }
        }
        guard lo.x <= hi.x, lo.y <= hi.y else { return nil }
        return (lo, hi)
    }

    /// Whether the shape has a stroke to draw: a visible colour, a positive width, and some
    /// of its length between the trims.
    public var hasStroke: Bool {
        stroke.a > 0 && strokeWidth > 0 && strokeWidth.isFinite && trimmedLength > 0
    }

    /// The fraction of the length the trims keep: both clamped to 0…1, and swapped when
    /// trim-start is past trim-end, as Lottie's trim paths (and the vector layer) do.
    public var trimmedLength: Double {
        let a = max(0, min(1, trimStart)), b = max(0, min(1, trimEnd))
        return abs(b - a)
    }

    /// Whether the stroke is trimmed at all.
    public var isTrimmed: Bool { trimStart > 0 || trimEnd < 1 }

    /// Whether the dash pattern draws dashes (both lengths finite, not negative, not both 0).
    public var isDashed: Bool {
        dash.x >= 0 && dash.y >= 0 && dash.x.isFinite && dash.y.isFinite && dash.x + dash.y > 0 && dash.y > 0
    }

    /// The size of the box the anchor is a fraction of: a rect's size, a circle's 2r × 2r,
    /// an ellipse's and a text shape's `size` (a text's is zero unless given: then the anchor is
    /// its center), and the box around a line's, polygon's or path's points.
    public var anchorBox: Point {
        switch kind {
        case .circle: return Point(2 * abs(radius), 2 * abs(radius))
        case .rect, .ellipse, .text, .image: return Point(abs(size.x), abs(size.y))
        case .glyph: return .zero
        case .line, .polygon, .polyline, .path:
            guard let b = pointsBox else { return .zero }
            return Point(b.hi.x - b.lo.x, b.hi.y - b.lo.y)
        }
    }

    /// The box's center relative to the pivot, before rotation and scale: (0.5 − anchor) × box.
    public var anchorShift: Point {
        let b = anchorBox
        let x = (0.5 - anchor.x) * b.x, y = (0.5 - anchor.y) * b.y
        return Point(x.isFinite ? x : 0, y.isFinite ? y : 0)
    }

    /// The point rotation and scale turn about, after `offset`: the anchor's place in the box.
    public var pivot: Point {
        let p = position, d = anchorShift
        return Point(p.x - d.x, p.y - d.y)
    }

    /// Where the box's center is drawn once rotated and scaled about the pivot: the center
    /// of the same box turned and scaled about its own center (so the renderers that place a
    /// shape by its center draw an anchored one there).
    public var drawnCenter: Point {
        let d = anchorShift
        guard d.x != 0 || d.y != 0 else { return position }
        let t = rotation * Double.pi / 180
        let sx = d.x * scale.x, sy = d.y * scale.y
        let pv = pivot
        return Point(pv.x + sx * cos(t) - sy * sin(t), pv.y + sx * sin(t) + sy * cos(t))
    }

    /// Whether the shape casts a shadow: a colour with alpha and an offset or a blur.
    public var hasShadow: Bool {
        shadowColor.a > 0 && (shadowOffset.x != 0 || shadowOffset.y != 0 || shadowBlur > 0)
    }

    /// Opacity including the color's alpha, clamped to 0...1.
    public var opacity: Double { max(0, min(1, alpha)) * max(0, min(1, color.a)) }

    /// The half extents of the shape's box in its own coordinates (circle: the radius).
    public var halfExtents: Point {
        switch kind {
        case .circle: Point(abs(radius), abs(radius))
        case .rect, .ellipse, .image: Point(abs(size.x) / 2, abs(size.y) / 2)
        case .text, .line, .polygon, .polyline, .path, .glyph: Point(0, 0)
        }
    }

    /// The corner radius actually drawn: a rect's radius clamped to half its shorter side;
    /// a circle's is its radius.
    public var cornerRadius: Double {
        let h = halfExtents
        return max(0, min(radius, min(h.x, h.y)))
    }
}

/// One glyph of a text shape at one instant: its own transform, opacity and colour, about the
/// centre of its advance box.
public struct GlyphSnapshot: Hashable, Sendable {
    /// Added to the glyph's laid-out position.
    public var offset = Point.zero
    /// Clockwise degrees about the centre of its advance box.
    public var rotation = 0.0
    /// Scale about that centre.
    public var scale = Point(1, 1)
    /// Multiplies the text's opacity.
    public var alpha = 1.0
    /// Laid over the text's colour by its own alpha (transparent, the default: the text's colour).
    public var color = Color(r: 0, g: 0, b: 0, a: 0)

    public init() {}

    /// Whether it draws as the plain text does.
    public var isIdentity: Bool {
        offset == .zero && rotation == 0 && scale == Point(1, 1) && alpha == 1 && color.a == 0
    }

    /// The colour this glyph is drawn in over the text's `base`: the glyph's colour mixed in by
    /// its alpha, keeping the text's own alpha.
    public func fill(over base: Color) -> Color {
        let a = max(0, min(1, color.a))
        guard a > 0 else { return base }
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * a }
        return Color(r: mix(base.r, color.r), g: mix(base.g, color.g), b: mix(base.b, color.b), a: base.a)
    }

    /// Sets one of a glyph's properties from its value as numbers.
    mutating func set(_ p: BuiltinProperty, _ n: NumericValue?) {
        switch p {
        case .offset: offset = n?.point ?? .zero
        case .rotation: rotation = n?.number ?? 0
        case .scale: scale = n?.point ?? Point(1, 1)
        case .alpha: alpha = n?.number ?? 1
        case .color: color = n?.color ?? Color(r: 0, g: 0, b: 0, a: 0)
        default: break
        }
    }

    /// The glyph's values in a shape snapshot sampled as a glyph.
    init(_ s: ShapeSnapshot) {
        offset = s.offset; rotation = s.rotation; scale = s.scale; alpha = s.alpha; color = s.color
    }
}

/// The whole stage at one instant.
public struct StageFrame: Sendable {
    /// The instant.
    public var time: Time
    /// The stage's size in pixels.
    public var size: Point
    /// The stage's background.
    public var background: Color
    /// The shapes that exist at `time`, in paint order: by `z`, then declaration order.
    public var shapes: [ShapeSnapshot]
    /// The directory image shapes' files are relative to (the script's; empty: the current one).
    public var imageDirectory = ""

    /// Where an image shape's file is (Timeline.imagePath).
    public func imagePath(_ file: String) -> String {
        guard !file.isEmpty, !file.hasPrefix("/"), !imageDirectory.isEmpty else { return file }
        return imageDirectory.hasSuffix("/") ? imageDirectory + file : imageDirectory + "/" + file
    }
}

#if canImport(Glibc)
import Glibc
#endif
