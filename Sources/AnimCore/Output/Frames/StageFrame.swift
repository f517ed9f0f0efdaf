// StageFrame: what the stage shows at one instant, read from a Timeline's history — every shape
// that exists then, with its drawing properties resolved to plain numbers, in paint order.
// Every renderer (PNG, SVG, HTML, Lottie) draws from these, so they all agree with the
// interpreter by construction: the values are `Timeline.value`, which a test checks against
// the interpreter at every frame.

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

extension Timeline {
    /// The stage at global time `t`.
    public func frame(at t: Time) -> StageFrame {
        var out: [ShapeSnapshot] = []
        for info in shapes {
            if let s = snapshot(info, at: t) { out.append(s) }
        }
        out.sort { $0.z != $1.z ? $0.z < $1.z : $0.id < $1.id }
        return StageFrame(time: t, size: stageSize, background: stageColor, shapes: out)
    }

    /// One shape at `t`, or nil if it is not declared yet.
    func snapshot(_ info: ShapeInfo, at t: Time) -> ShapeSnapshot? {
        func v(_ p: BuiltinProperty) -> Value? { value(info.id, p.id, at: t) }
        guard let center = v(.center) else { return nil }
        let kind = info.kind
        return ShapeSnapshot(
            id: info.id, kind: kind,
            center: center.framePoint ?? .zero,
            size: v(.size)?.framePoint ?? .zero,
            rotation: v(.rotation)?.frameNumber ?? 0,
            scale: v(.scale)?.framePoint ?? Point(1, 1),
            offset: v(.offset)?.framePoint ?? .zero,
            alpha: v(.alpha)?.frameNumber ?? 1,
            color: v(.color)?.frameColor ?? Color(r: 0, g: 0, b: 0),
            radius: v(.radius)?.frameNumber ?? 0,
            z: v(.z)?.frameNumber ?? 0,
            text: v(.text)?.frameString ?? "",
            font: v(.font)?.frameNumber ?? 16)
    }

    /// The frames that show the run on `grid`: 0 through the first frame at or after its end,
    /// so the last frame shows the final state.
    public func frameRange(on grid: FrameGrid) -> ClosedRange<Int64> {
        0...grid.firstFrame(atOrAfter: end)
    }

    /// The stage at each frame of `range` on `grid`, in order: what every frame-by-frame output
    /// draws.
    public func frames(on grid: FrameGrid, _ range: ClosedRange<Int64>) -> StageFrames {
        StageFrames(timeline: self, grid: grid, range: range)
    }

    /// The name of a shape.
    public func name(of id: ShapeID) -> String {
        Int(id.index) < shapes.count ? shapes[Int(id.index)].name : "?"
    }
}

// MARK: - Reading values as plain numbers

extension Value {
    /// A point (a number n reads as (n, n), as `scale 2` does).
    var framePoint: Point? {
        switch self {
        case .point(let p): p
        case .number(let n): Point(n, n)
        default: nil
        }
    }

    /// A number (angles in degrees, times in seconds).
    var frameNumber: Double? {
        switch self {
        case .number(let n): n
        case .angle(let a): a.degrees
        case .time(let t): t.seconds
        default: nil
        }
    }

    /// A color.
    var frameColor: Color? {
        if case .color(let c) = self { return c }
        return nil
    }

    /// A string.
    var frameString: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// The stage at consecutive frames of a grid (`Timeline.frames(on:_:)`).
public struct StageFrames: Sequence, Sendable {
    let timeline: Timeline
    /// The grid the frames are on.
    public let grid: FrameGrid
    /// The frames.
    public let range: ClosedRange<Int64>

    public struct Iterator: IteratorProtocol {
        let frames: StageFrames
        var frame: Int64

        public mutating func next() -> StageFrame? {
            guard frame <= frames.range.upperBound else { return nil }
            defer { frame += 1 }
            return frames.timeline.frame(at: frames.grid.time(ofFrame: frame))
        }
    }

    public func makeIterator() -> Iterator { Iterator(frames: self, frame: range.lowerBound) }
}
