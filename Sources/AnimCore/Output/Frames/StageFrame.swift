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

    /// Where the center lands after `offset`.
    public var position: Point { Point(center.x + offset.x, center.y + offset.y) }

    /// Opacity including the color's alpha, clamped to 0...1.
    public var opacity: Double { max(0, min(1, alpha)) * max(0, min(1, color.a)) }

    /// The half extents of the shape's box in its own coordinates (circle: the radius).
    public var halfExtents: Point {
        switch kind {
        case .circle: Point(abs(radius), abs(radius))
        case .rect: Point(abs(size.x) / 2, abs(size.y) / 2)
        case .text: Point(0, 0)
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
