// CubicBezier: the CSS cubic Bézier easing (CSS Easing Level 1, "Cubic Bézier easing
// functions"). For p in [0, 1], x(t) = p is solved for t (Newton's method, bisection fallback)
// and y(t) is returned; y may leave [0, 1]. Outside [0, 1] the curve continues along the tangent
// at the nearer end point, following browsers and web-platform-tests where they differ from the
// spec's prose (see `startSlope`).

/// A CSS timing curve through (0,0), (x1,y1), (x2,y2), (1,1).
public struct CubicBezier: Sendable {
    /// Polynomial coefficients of x(t) and y(t) (see `init`).
    let ax, bx, cx, ay, by, cy: Double
    /// The control points as written.
    let x1, y1, x2, y2: Double

    /// Creates the curve; per axis B(t) = ((a t + b) t + c) t, the Bernstein form expanded
    /// with P0 = 0 and P3 = 1: c = 3 P1, b = 3 (P2 − P1) − c, a = 1 − c − b.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    /// x(t), in Horner form.
    @inline(__always) func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// y(t), in Horner form.
    @inline(__always) func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    /// x′(t).
    @inline(__always) func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t in [0, 1] with x(t) = `x0`, to within 1e-14.
    /// x is monotone on [0, 1] because x1 and x2 are in [0, 1], so the root is unique.
    func parameter(forX x0: Double) -> Double {
        var t = x0
        for _ in 0..<8 {
            let err = x(t) - x0
            if abs(err) < 1e-14 { return t }
            let d = dx(t)
            if abs(d) < 1e-9 { break }
            t -= err / d
            if !(t >= 0 && t <= 1) { break }   // left the unit interval: fall back
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 {
            t = (lo + hi) / 2
            let v = x(t)
            if abs(v - x0) < 1e-14 || hi - lo < 1e-16 { return t }
            if v < x0 { lo = t } else { hi = t }
        }
        return t
    }

    /// The gradient used for p < 0. CSS Easing Level 1 extends the curve along the tangent at P0:
    /// the line through P1 if x1 > 0, else through P2. Where that tangent is really vertical
    /// (x1 = 0, y1 ≠ 0) web-platform-tests (css/css-easing/cubic-bezier-timing-functions-output,
    /// "tangent on the lower boundary is infinity") expect a flat 0, as Blink's UnitBezier does and
    /// csswg-drafts issue 4046 proposes; we follow the tests. When P1 = P2 = P0 the curve is the
    /// straight line y = x, so the gradient is 1.
    var startSlope: Double {
        if x1 > 0 { return y1 / x1 }
        if y1 == 0 && x2 > 0 { return y2 / x2 }
        if y1 == 0 && y2 == 0 { return 1 }
        return 0
    }

    /// The gradient used for p > 1, mirroring `startSlope` at P3 = (1, 1).
    var endSlope: Double {
        if x2 < 1 { return (y2 - 1) / (x2 - 1) }
        if y2 == 1 && x1 < 1 { return (y1 - 1) / (x1 - 1) }
        if y2 == 1 && y1 == 1 { return 1 }
        return 0
    }

    /// The eased value for progress `p`; exact at 0 and 1, tangent lines outside [0, 1].
    public func solve(_ p: Double) -> Double {
        if p == 0 { return 0 }
        if p == 1 { return 1 }
        if p < 0 { return startSlope * p }
        if p > 1 { return 1 + endSlope * (p - 1) }
        return y(parameter(forX: p))
    }
}
