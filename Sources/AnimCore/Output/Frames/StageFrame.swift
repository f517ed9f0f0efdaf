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
    /// Fill color.
    public var color: Color
    /// Circle radius, or rect corner radius.
    public var radius: Double
    /// Stacking order: higher paints later.
    public var z: Double
    /// Text shapes: the string and the font size in pixels.
    public var text: String
    /// Font size of text shapes.
    public var font: Double
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

    /// Where the center (the pivot, for shapes placed by points) lands after `offset`.
    public var position: Point {
        let c = kind.isPointBased ? pivot : center
        return Point(c.x + offset.x, c.y + offset.y)
    }

    /// The point rotation and scale turn about, in stage coordinates before `offset`: the
    /// centre of a box shape, and for a line, polygon or path the centre of the box around its
    /// points (control points included), so that a shape placed by points turns in place.
    public var pivot: Point {
        guard kind.isPointBased else { return center }
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
        guard lo.x <= hi.x, lo.y <= hi.y else { return .zero }
        return Point((lo.x + hi.x) / 2, (lo.y + hi.y) / 2)
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

    /// Opacity including the color's alpha, clamped to 0...1.
    public var opacity: Double { max(0, min(1, alpha)) * max(0, min(1, color.a)) }

    /// The half extents of the shape's box in its own coordinates (circle: the radius).
    public var halfExtents: Point {
        switch kind {
        case .circle: Point(abs(radius), abs(radius))
        case .rect, .ellipse: Point(abs(size.x) / 2, abs(size.y) / 2)
        case .text, .line, .polygon, .polyline, .path: Point(0, 0)
        }
    }

    /// The corner radius actually drawn: a rect's radius clamped to half its shorter side;
    /// a circle's is its radius.
    public var cornerRadius: Double {
        let h = halfExtents
        return max(0, min(radius, min(h.x, h.y)))
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
}
