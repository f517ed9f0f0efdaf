// Paint: what fills an outline — a solid colour with alpha, a linear gradient by CSS's angle
// convention (CSS Images 3 §3.1: `0deg` points up, `90deg` runs left to right with the first
// stop on the left; the gradient line through the box's center is |w·sin θ| + |h·cos θ| long,
// so the corners get the end colours), or a radial gradient (CSS's default `ellipse
// farthest-corner at center`, or a center and radii given as fractions of the box). A paint
// lives in the shape's local space and spans a box there (the shape's box or bounds), so it
// turns and scales with the shape. Stops take CSS's fix-up (§3.4.3): a missing first or last
// position is 0 or 1, a position before an earlier one moves up to it, and runs without
// positions are spread evenly. Colours are interpolated in sRGB with straight alpha, as SVG's
// gradients and Lottie's separate colour and opacity stops are; beyond the ends they pad.
#if canImport(Glibc)
import Glibc
#endif

/// A colour stop: a colour and, optionally, where it sits (0 = the start, 1 = the end).
public struct GradientStop: Hashable, Sendable {
    /// The colour.
    public var color: Color
    /// Its position as a fraction of the gradient line, or nil to be placed by CSS's rules.
    public var position: Double?

    /// Creates a stop.
    public init(_ color: Color, at position: Double? = nil) {
        self.color = color
        self.position = position
    }
}

/// Validated colour stops with their positions resolved.
public struct Gradient: Hashable, Sendable {
    /// The stops as given.
    public let stops: [GradientStop]
    /// The resolved positions, non-decreasing.
    public let positions: [Double]

    /// Stops for a gradient: at least two, with finite positions and colours.
    public init(_ stops: [GradientStop]) throws(VectorError) {
        guard stops.count >= 2 else { throw .gradientNeedsTwoStops(found: stops.count) }
        for s in stops {
            guard s.color.r.isFinite, s.color.g.isFinite, s.color.b.isFinite, s.color.a.isFinite else {
                throw .notFinite("a gradient colour")
            }
            if let p = s.position, !p.isFinite { throw .notFinite("a gradient stop position") }
        }
        self.stops = stops
        self.positions = Gradient.resolve(stops.map(\.position))
    }

    /// CSS Images 3 §3.4.3 "Color stop fixup" (GradientValue.resolve, the one rule).
    static func resolve(_ given: [Double?]) -> [Double] { GradientValue.resolve(given) }

    /// The colour at `t` on the gradient line: straight r, g, b in 0…1 and alpha.
    @inline(__always)
    func color(at t: Double) -> (Float, Float, Float, Float) {
        let n = positions.count
        if !(t > positions[0]) { return Gradient.channels(stops[0].color) }
        if t >= positions[n - 1] { return Gradient.channels(stops[n - 1].color) }
        var k = 1
        while positions[k] < t { k += 1 }
        // positions[k-1] < t ≤ positions[k] (equal positions make a hard edge).
        let p0 = positions[k - 1], p1 = positions[k]
        let f = Float(p1 > p0 ? (t - p0) / (p1 - p0) : 1)
        let a = Gradient.channels(stops[k - 1].color), b = Gradient.channels(stops[k].color)
        return (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
    }

    @inline(__always)
    static func channels(_ c: Color) -> (Float, Float, Float, Float) {
        (Float(max(0, min(255, c.r)) / 255), Float(max(0, min(255, c.g)) / 255), Float(max(0, min(255, c.b)) / 255),
         Float(max(0, min(1, c.a))))
    }
}

/// A linear gradient at a CSS angle.
public struct LinearGradient: Hashable, Sendable {
    /// The direction in degrees, CSS's convention: 0 runs bottom to top, 90 left to right.
    public var angle: Double
    /// The stops.
    public var gradient: Gradient

    /// Creates a linear gradient.
    public init(angle: Double, _ gradient: Gradient) {
        self.angle = angle
        self.gradient = gradient
    }

    /// The gradient line's start and end points for a box (CSS Images 3 §3.1.1): through the
    /// center, long enough that the corners farthest along it get the end colours.
    public func line(in box: Box) -> (start: Point, end: Point) { LinearGradient.line(angle: angle, in: box) }

    /// The gradient line of a CSS angle (degrees) over a box: the one formula the rasterizer
    /// and the animated SVG use.
    public static func line(angle: Double, in box: Box) -> (start: Point, end: Point) {
        let t = angle * Double.pi / 180
        let dir = Point(sin(t), -cos(t))
        let half = (abs(box.width * dir.x) + abs(box.height * dir.y)) / 2
        let c = box.center
        return (Point(c.x - dir.x * half, c.y - dir.y * half), Point(c.x + dir.x * half, c.y + dir.y * half))
    }
}

/// A radial gradient: an ellipse around a center, t = 0 at the center and 1 on the ellipse.
public struct RadialGradient: Hashable, Sendable {
    /// The stops.
    public var gradient: Gradient
    /// The center as a fraction of the box ((0.5, 0.5): the middle).
    public var center: Point
    /// The radii as fractions of the box's width and height; nil is CSS's `farthest-corner`
    /// for an ellipse, which is (√2/2, √2/2) at the center (the closest-side ellipse's shape,
    /// grown to pass through the corners).
    public var radius: Point?

    /// Creates a radial gradient.
    public init(_ gradient: Gradient, center: Point = Point(0.5, 0.5), radius: Point? = nil) {
        self.gradient = gradient
        self.center = center
        self.radius = radius
    }

    /// The ellipse's center and radii for a box.
    public func ellipse(in box: Box) -> (center: Point, radii: Point) {
        let c = Point(box.x + center.x * box.width, box.y + center.y * box.height)
        if let r = radius { return (c, Point(abs(r.x * box.width), abs(r.y * box.height))) }
        // farthest-corner: the closest-side ellipse (its radii the distances to the nearer
        // sides) scaled to pass through the farthest corner (CSS Images 3 §3.2.2).
        let sx = min(abs(c.x - box.x), abs(box.maxX - c.x)), sy = min(abs(c.y - box.y), abs(box.maxY - c.y))
        let fx = max(abs(c.x - box.x), abs(box.maxX - c.x)), fy = max(abs(c.y - box.y), abs(box.maxY - c.y))
        guard sx > 0, sy > 0 else { return (c, Point(fx, fy)) }
        let k = ((fx / sx) * (fx / sx) + (fy / sy) * (fy / sy)).squareRoot()
        return (c, Point(sx * k, sy * k))
    }
}

/// What fills an outline.
public enum Paint: Hashable, Sendable {
    /// One colour (its alpha included).
    case solid(Color)
    /// A linear gradient.
    case linear(LinearGradient)
    /// A radial gradient.
    case radial(RadialGradient)
}

/// A paint resolved for one drawing: device pixel → straight colour, with the gradient's
/// parameter an affine function of the pixel center (linear), or the length of an affine
/// image of it (radial).
struct Shader {
    enum Kind {
        case solid((Float, Float, Float, Float))
        /// t = ax·x + ay·y + c.
        case linear(Gradient, Double, Double, Double)
        /// t = |U(x, y)|.
        case radial(Gradient, Affine)
    }

    let kind: Kind
    /// Whether every pixel gets the same colour (a span can be filled at once).
    var isUniform: Bool { if case .solid = kind { return true } else { return false } }

    /// `paint` in local space spanning `box`, drawn through `m` (local → device). A gradient
    /// whose line or radius has no length (a box of no width or height) paints its last colour.
    init(_ paint: Paint, box: Box, _ m: Affine) {
        switch paint {
        case .solid(let c):
            kind = .solid(Gradient.channels(c))
        case .linear(let g):
            let (s, e) = g.line(in: box)
            let d = Point(e.x - s.x, e.y - s.y)
            let len2 = d.x * d.x + d.y * d.y
            guard len2 > 0, let inv = m.inverted else {
                kind = .solid(Gradient.channels(g.gradient.stops[g.gradient.stops.count - 1].color))
                return
            }
            // t(q) = (q − s)·d / |d|², q = inv(p).
            let ux = d.x / len2, uy = d.y / len2
            kind = .linear(g.gradient, inv.a * ux + inv.b * uy, inv.c * ux + inv.d * uy,
                           (inv.tx - s.x) * ux + (inv.ty - s.y) * uy)
        case .radial(let g):
            let (c, r) = g.ellipse(in: box)
            guard r.x > 0, r.y > 0, let inv = m.inverted else {
                kind = .solid(Gradient.channels(g.gradient.stops[g.gradient.stops.count - 1].color))
                return
            }
            kind = .radial(g.gradient, Affine.scale(1 / r.x, 1 / r.y) * .translation(-c.x, -c.y) * inv)
        }
    }

    /// The colour at the center of device pixel (x, y).
    @inline(__always)
    func color(_ x: Int, _ y: Int) -> (Float, Float, Float, Float) {
        switch kind {
        case .solid(let c):
            return c
        case .linear(let g, let ax, let ay, let c):
            return g.color(at: ax * (Double(x) + 0.5) + ay * (Double(y) + 0.5) + c)
        case .radial(let g, let u):
            let p = u.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
            return g.color(at: (p.x * p.x + p.y * p.y).squareRoot())
        }
    }
}
