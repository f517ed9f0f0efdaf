// Affine: the 2-D affine maps of the vector drawing layer and the axis-aligned boxes it
// measures with. Coordinates are y down, as on the stage and in SVG, so a positive rotation
// turns clockwise on screen. The matrix is SVG's `matrix(a b c d e f)`: x' = a·x + c·y + e,
// y' = b·x + d·y + f.
#if canImport(Glibc)
import Glibc
#endif

/// An affine map of the plane (y down).
public struct Affine: Hashable, Sendable {
    /// The linear part, SVG's `a b c d`: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    public var a: Double, b: Double, c: Double, d: Double
    /// The translation, SVG's `e f`.
    public var tx: Double, ty: Double

    /// Creates a map from SVG's six numbers.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// The identity.
    public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (dx, dy).
    public static func translation(_ dx: Double, _ dy: Double) -> Affine { Affine(a: 1, b: 0, c: 0, d: 1, tx: dx, ty: dy) }

    /// A scale by (sx, sy) about the origin.
    public static func scale(_ sx: Double, _ sy: Double) -> Affine { Affine(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }

    /// A rotation by `degrees` about the origin: clockwise on screen (y down), as SVG's `rotate`.
    public static func rotation(degrees: Double) -> Affine {
        let t = degrees * Double.pi / 180
        let cs = cos(t), sn = sin(t)
        return Affine(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    /// Rotation and scale about `pivot`, then a translation: T(translation)·T(pivot)·R·S·T(−pivot).
    /// Scale applies first, as in SVG's `translate rotate scale` chain.
    public static func about(_ pivot: Point, rotation degrees: Double = 0, scale: Point = Point(1, 1),
                             translation: Point = .zero) -> Affine {
        .translation(pivot.x + translation.x, pivot.y + translation.y)
            * .rotation(degrees: degrees) * .scale(scale.x, scale.y) * .translation(-pivot.x, -pivot.y)
    }

    /// The map of a shape whose box has `center` and `size`: rotation and scale turn about the
    /// anchor (a fraction of the size: (0.5, 0.5) is the center, (0, 0) the top-left corner),
    /// then `offset` translates. The center stays the center of the box before transforms.
    public static func shape(center: Point, size: Point, anchor: Point = Point(0.5, 0.5), rotation degrees: Double = 0,
                             scale: Point = Point(1, 1), offset: Point = .zero) -> Affine {
        let pivot = Point(center.x + (anchor.x - 0.5) * size.x, center.y + (anchor.y - 0.5) * size.y)
        return about(pivot, rotation: degrees, scale: scale, translation: offset)
    }

    /// `lhs` after `rhs`: (lhs * rhs)(p) = lhs(rhs(p)).
    public static func * (lhs: Affine, rhs: Affine) -> Affine {
        Affine(a: lhs.a * rhs.a + lhs.c * rhs.b, b: lhs.b * rhs.a + lhs.d * rhs.b,
               c: lhs.a * rhs.c + lhs.c * rhs.d, d: lhs.b * rhs.c + lhs.d * rhs.d,
               tx: lhs.a * rhs.tx + lhs.c * rhs.ty + lhs.tx, ty: lhs.b * rhs.tx + lhs.d * rhs.ty + lhs.ty)
    }

    /// The image of a point.
    @inline(__always)
    public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }

    /// The image of a vector (the linear part only).
    @inline(__always)
    public func applyLinear(_ v: Point) -> Point { Point(a * v.x + c * v.y, b * v.x + d * v.y) }

    /// The determinant of the linear part.
    public var determinant: Double { a * d - b * c }

    /// The inverse map, or nil when the map is singular (a zero scale) or not finite.
    public var inverted: Affine? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        let inv = Affine(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
        return inv.isFinite ? inv : nil
    }

    /// Whether all six numbers are finite.
    public var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite }

    /// The largest and smallest stretch of the linear part (its singular values).
    /// Source: the closed form for 2×2 matrices, σ = √((E ± √(E² − 4·det²)) / 2) with E the
    /// sum of the squared entries.
    public var stretch: (max: Double, min: Double) {
        let e = a * a + b * b + c * c + d * d
        let det = determinant
        let root = max(0, e * e - 4 * det * det).squareRoot()
        return ((max(0, (e + root) / 2)).squareRoot(), (max(0, (e - root) / 2)).squareRoot())
    }
}

/// An axis-aligned rectangle: its top-left corner and its size (both may be fractional).
public struct Box: Hashable, Sendable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// Width (≥ 0 for a non-empty box).
    public var width: Double
    /// Height.
    public var height: Double

    /// Creates a box from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A box of `size` centered on `center`.
    public init(center: Point, size: Point) {
        self.init(x: center.x - size.x / 2, y: center.y - size.y / 2, width: size.x, height: size.y)
    }

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The center.
    public var center: Point { Point(x + width / 2, y + height / 2) }

    /// The smallest box holding both.
    public func union(_ o: Box) -> Box {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return Box(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
    }

    /// The box grown by `dx` left and right and `dy` above and below.
    public func expanded(_ dx: Double, _ dy: Double) -> Box {
        Box(x: x - dx, y: y - dy, width: width + 2 * dx, height: height + 2 * dy)
    }

    /// The bounding box of the image of this box under `m`.
    public func transformed(by m: Affine) -> Box {
        let ps = [Point(x, y), Point(maxX, y), Point(x, maxY), Point(maxX, maxY)].map(m.apply)
        var b = Box(x: ps[0].x, y: ps[0].y, width: 0, height: 0)
        for p in ps.dropFirst() { b = b.union(Box(x: p.x, y: p.y, width: 0, height: 0)) }
        return b
    }
}
