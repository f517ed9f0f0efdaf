// Outline: the geometry every shape, stroke and glyph is drawn from — contours of line,
// quadratic and cubic Bézier segments in local coordinates (y down), with builders for rects
// (rounded), ellipses, polygons, polylines, lines and elliptical arcs. The builders start and
// turn as SVG's basic shapes do (SVG 2 §10: a rect from (x + rx, y) clockwise on screen, an
// ellipse from (cx + rx, cy) clockwise), so dashes and trims begin where a browser's do.
#if canImport(Glibc)
import Glibc
#endif

/// Contours of Bézier segments.
public struct Outline: Hashable, Sendable {
    /// One piece of a contour, from the end of the previous one (or the contour's start).
    public enum Segment: Hashable, Sendable {
        /// A straight line to a point.
        case line(Point)
        /// A quadratic Bézier: control point, end point.
        case quadratic(Point, Point)
        /// A cubic Bézier: first control point, second control point, end point.
        case cubic(Point, Point, Point)

        /// The segment's end point.
        public var end: Point {
            switch self {
            case .line(let p): p
            case .quadratic(_, let p): p
            case .cubic(_, _, let p): p
            }
        }
    }

    /// A connected run of segments.
    public struct Contour: Hashable, Sendable {
        /// Where the contour starts.
        public var start: Point
        /// Its segments, in order.
        public var segments: [Segment]
        /// Whether it closes back to `start` (SVG's `Z`). A fill closes every contour; a stroke
        /// joins a closed contour's ends and caps an open one's.
        public var isClosed: Bool

        /// Creates a contour.
        public init(start: Point, segments: [Segment] = [], isClosed: Bool = false) {
            self.start = start
            self.segments = segments
            self.isClosed = isClosed
        }

        /// The last point (the start when there are no segments).
        public var end: Point { segments.last?.end ?? start }
    }

    /// The contours, in drawing order.
    public var contours: [Contour]

    /// Creates an outline from contours (none: the empty outline).
    public init(_ contours: [Contour] = []) { self.contours = contours }

    /// Points that a renderer stores for this outline: one per contour start and line, two per
    /// quadratic, three per cubic (what FreeType's `FT_Outline` holds).
    public var pointCount: Int {
        var n = 0
        for c in contours {
            n += 1
            for s in c.segments {
                switch s {
                case .line: n += 1
                case .quadratic: n += 2
                case .cubic: n += 3
                }
            }
        }
        return n
    }

    /// Whether every coordinate is finite.
    public var isFinite: Bool {
        for c in contours {
            guard c.start.x.isFinite, c.start.y.isFinite else { return false }
            for s in c.segments {
                switch s {
                case .line(let p):
                    if !(p.x.isFinite && p.y.isFinite) { return false }
                case .quadratic(let p, let q):
                    if !(p.x.isFinite && p.y.isFinite && q.x.isFinite && q.y.isFinite) { return false }
                case .cubic(let p, let q, let r):
                    if !(p.x.isFinite && p.y.isFinite && q.x.isFinite && q.y.isFinite && r.x.isFinite && r.y.isFinite) { return false }
                }
            }
        }
        return true
    }

    // MARK: - Building

    /// Starts a new contour at `p`.
    public mutating func move(to p: Point) {
        contours.append(Contour(start: p))
    }

    /// The current point: the end of the last contour, or the origin.
    public var currentPoint: Point { contours.last?.end ?? .zero }

    /// Appends a segment to the last contour; after a `close()` (or with no contour yet) a new
    /// contour starts at the current point, as in SVG path data.
    public mutating func append(_ s: Segment) {
        if contours.isEmpty || contours[contours.count - 1].isClosed {
            let start = contours.last?.start ?? .zero
            contours.append(Contour(start: start))
        }
        contours[contours.count - 1].segments.append(s)
    }

    /// A line to `p`.
    public mutating func line(to p: Point) { append(.line(p)) }

    /// A quadratic Bézier to `p` with control point `c`.
    public mutating func quadratic(to p: Point, control c: Point) { append(.quadratic(c, p)) }

    /// A cubic Bézier to `p` with control points `c1`, `c2`.
    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) { append(.cubic(c1, c2, p)) }

    /// Closes the last contour.
    public mutating func close() {
        guard !contours.isEmpty else { return }
        contours[contours.count - 1].isClosed = true
    }

    /// Appends an elliptical arc around `center` with radii `radii` whose x axis is turned by
    /// `rotation` radians, from angle `start` through `sweep` radians (positive: clockwise on
    /// screen), as cubic Béziers of at most 45° each. `join` says how it begins: a new contour
    /// at its first point (`.move`), a line from the current point (`.line`), or straight from
    /// the current point, which is taken to be its first point (`.none`).
    /// Source: the control-point distance 4/3·tan(θ/4) of an arc of θ radians (Riškus,
    /// "Approximation of a cubic Bézier curve by circular arcs and vice versa", 2006); at 45°
    /// the radial error is under 5·10⁻⁶ of the radius.
    public mutating func arc(center: Point, radii: Point, rotation: Double = 0, start: Double, sweep: Double, join: ArcJoin) {
        let cr = cos(rotation), sr = sin(rotation)
        let first = Point(center.x + radii.x * cos(start) * cr - radii.y * sin(start) * sr,
                          center.y + radii.x * cos(start) * sr + radii.y * sin(start) * cr)
        switch join {
        case .move: move(to: first)
        case .line: line(to: first)
        case .none: break
        }
        PathValue.arcCubics(center: center, radii: radii, rotation: rotation, start: start, sweep: sweep) { c1, c2, p in
            cubic(to: p, control1: c1, control2: c2)
        }
    }

    /// How an arc begins (see `arc`).
    public enum ArcJoin: Sendable {
        /// A new contour at the arc's first point.
        case move
        /// A line from the current point to the arc's first point.
        case line
        /// Nothing: the current point is the arc's first point.
        case none
    }

    // MARK: - Basic shapes

    /// A rectangle, from its top-left corner clockwise on screen.
    public static func rect(_ box: Box) -> Outline {
        roundedRect(box, rx: 0, ry: 0)
    }

    /// A rectangle with elliptical corners of radii (rx, ry), each clamped to half the box's
    /// side (SVG 2 §10.2), starting at (x + rx, y) and running clockwise on screen.
    public static func roundedRect(_ box: Box, rx: Double, ry: Double) -> Outline {
        let w = abs(box.width), h = abs(box.height)
        let x = min(box.x, box.maxX), y = min(box.y, box.maxY)
        let rx = max(0, min(rx, w / 2)), ry = max(0, min(ry, h / 2))
        var o = Outline()
        o.move(to: Point(x + rx, y))
        o.line(to: Point(x + w - rx, y))
        let quarter = Double.pi / 2
        let rounded = rx > 0 && ry > 0
        if rounded { o.arc(center: Point(x + w - rx, y + ry), radii: Point(rx, ry), start: -quarter, sweep: quarter, join: .none) }
        o.line(to: Point(x + w, y + h - ry))
        if rounded { o.arc(center: Point(x + w - rx, y + h - ry), radii: Point(rx, ry), start: 0, sweep: quarter, join: .none) }
        o.line(to: Point(x + rx, y + h))
        if rounded { o.arc(center: Point(x + rx, y + h - ry), radii: Point(rx, ry), start: quarter, sweep: quarter, join: .none) }
        o.line(to: Point(x, y + ry))
        if rounded { o.arc(center: Point(x + rx, y + ry), radii: Point(rx, ry), start: 2 * quarter, sweep: quarter, join: .none) }
        o.close()
        return o.withoutEmptyLines()
    }

    /// An ellipse with radii (rx, ry), from (cx + rx, cy) clockwise on screen.
    public static func ellipse(center: Point, radii: Point) -> Outline {
        var o = Outline()
        o.arc(center: center, radii: Point(abs(radii.x), abs(radii.y)), start: 0, sweep: 2 * Double.pi, join: .move)
        o.close()
        return o
    }

    /// A circle.
    public static func circle(center: Point, radius: Double) -> Outline {
        ellipse(center: center, radii: Point(radius, radius))
    }

    /// A closed polygon through the points, in order.
    public static func polygon(_ points: [Point]) -> Outline {
        var o = polyline(points)
        o.close()
        return o
    }

    /// An open polyline through the points, in order.
    public static func polyline(_ points: [Point]) -> Outline {
        guard let first = points.first else { return Outline() }
        var o = Outline()
        o.move(to: first)
        for p in points.dropFirst() { o.line(to: p) }
        return o
    }

    /// A line segment.
    public static func line(from a: Point, to b: Point) -> Outline { polyline([a, b]) }

    /// The outline without lines of zero length (a rounded rect whose sides are all corner).
    func withoutEmptyLines() -> Outline {
        var out = self
        for k in out.contours.indices {
            var previous = out.contours[k].start
            out.contours[k].segments = out.contours[k].segments.filter { s in
                defer { previous = s.end }
                if case .line(let p) = s { return p != previous }
                return true
            }
        }
        return out
    }

    // MARK: - Transforms and measures

    /// The outline mapped by `m` (exact: affine maps take Bézier control points to Bézier
    /// control points).
    public func transformed(by m: Affine) -> Outline {
        Outline(contours.map { c in
            Contour(start: m.apply(c.start), segments: c.segments.map { s in
                switch s {
                case .line(let p): .line(m.apply(p))
                case .quadratic(let p, let q): .quadratic(m.apply(p), m.apply(q))
                case .cubic(let p, let q, let r): .cubic(m.apply(p), m.apply(q), m.apply(r))
                }
            }, isClosed: c.isClosed)
        })
    }

    /// The outline and another one after it.
    public func appending(_ other: Outline) -> Outline { Outline(contours + other.contours) }

    /// The tight bounding box of the curves (extrema where a derivative vanishes), or nil for
    /// an outline with no points.
    public var bounds: Box? {
        var lo = Point(Double.infinity, Double.infinity), hi = Point(-Double.infinity, -Double.infinity)
        func add(_ p: Point) {
            lo = Point(min(lo.x, p.x), min(lo.y, p.y))
            hi = Point(max(hi.x, p.x), max(hi.y, p.y))
        }
        for c in contours {
            add(c.start)
            var p0 = c.start
            for s in c.segments {
                switch s {
                case .line(let p):
                    add(p)
                case .quadratic(let p1, let p2):
                    add(p2)
                    for t in Outline.quadraticExtrema(p0, p1, p2) { add(Outline.quadraticPoint(p0, p1, p2, t)) }
                case .cubic(let p1, let p2, let p3):
                    add(p3)
                    for t in Outline.cubicExtrema(p0, p1, p2, p3) { add(Outline.cubicPoint(p0, p1, p2, p3, t)) }
                }
                p0 = s.end
            }
        }
        guard lo.x <= hi.x, lo.y <= hi.y else { return nil }
        return Box(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    /// The box of every point and control point (cheaper than `bounds`, and holds it).
    public var controlBounds: Box? {
        var lo = Point(Double.infinity, Double.infinity), hi = Point(-Double.infinity, -Double.infinity)
        func add(_ p: Point) {
            lo = Point(min(lo.x, p.x), min(lo.y, p.y))
            hi = Point(max(hi.x, p.x), max(hi.y, p.y))
        }
        for c in contours {
            add(c.start)
            for s in c.segments {
                switch s {
                case .line(let p): add(p)
                case .quadratic(let p, let q): add(p); add(q)
                case .cubic(let p, let q, let r): add(p); add(q); add(r)
                }
            }
        }
        guard lo.x <= hi.x, lo.y <= hi.y else { return nil }
        return Box(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    // MARK: - Bézier arithmetic

    /// B(t) of a quadratic.
    @inline(__always)
    static func quadraticPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ t: Double) -> Point {
        let u = 1 - t
        return Point(u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y)
    }

    /// B(t) of a cubic.
    @inline(__always)
    static func cubicPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// Parameters in (0, 1) where a quadratic's x or y derivative is zero.
    static func quadraticExtrema(_ p0: Point, _ p1: Point, _ p2: Point) -> [Double] {
        var ts: [Double] = []
        for (a, b, c) in [(p0.x, p1.x, p2.x), (p0.y, p1.y, p2.y)] {
            let den = a - 2 * b + c
            if den != 0 {
                let t = (a - b) / den
                if t > 0 && t < 1 { ts.append(t) }
            }
        }
        return ts
    }

    /// Parameters in (0, 1) where a cubic's x or y derivative is zero.
    static func cubicExtrema(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> [Double] {
        var ts: [Double] = []
        for (a, b, c, d) in [(p0.x, p1.x, p2.x, p3.x), (p0.y, p1.y, p2.y, p3.y)] {
            // B'(t)/3 = (b−a)(1−t)² + 2(c−b)(1−t)t + (d−c)t² = A t² + B t + C.
            let qa = (b - a) - 2 * (c - b) + (d - c), qb = 2 * ((c - b) - (b - a)), qc = b - a
            if abs(qa) < 1e-12 {
                if qb != 0 { let t = -qc / qb; if t > 0 && t < 1 { ts.append(t) } }
            } else {
                let disc = qb * qb - 4 * qa * qc
                if disc >= 0 {
                    let r = disc.squareRoot()
                    for t in [(-qb + r) / (2 * qa), (-qb - r) / (2 * qa)] where t > 0 && t < 1 { ts.append(t) }
                }
            }
        }
        return ts
    }
}
