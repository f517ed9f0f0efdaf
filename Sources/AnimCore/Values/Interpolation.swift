// Interpolation: the one rule per kind for values between two endpoints (brief §4):
// numbers, times and angles numerically (0 to 360deg is a full turn), points and sizes per
// component, colors per sRGB component with alpha. p == 1 returns the target exactly.

extension Value {
    /// The value a fraction `p` of the way from `a` to `b` (p may leave [0, 1] for overshooting
    /// easings). Returns `b` unchanged when p == 1 and `a` when p == 0, so tweens land exactly.
    public static func interpolate(_ a: Value, _ b: Value, _ p: Double) -> Value {
        if p == 1 { return b }
        if p == 0 { return a }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return .number(lerp(x, y, p))
        case (.angle(let x), .angle(let y)):
            return .angle(Angle(degrees: lerp(x.degrees, y.degrees, p)))
        case (.point(let x), .point(let y)):
            return .point(Point(lerp(x.x, y.x, p), lerp(x.y, y.y, p)))
        case (.color(let x), .color(let y)):
            return .color(Color(r: lerp(x.r, y.r, p), g: lerp(x.g, y.g, p), b: lerp(x.b, y.b, p),
                                a: lerp(x.a, y.a, p)))
        case (.time(let x), .time(let y)):
            return .time(Time(seconds: lerp(x.seconds, y.seconds, p)) ?? y)
        default:
            // Kinds that do not interpolate switch at the end (the checker forbids tweening them).
            return p < 1 ? a : b
        }
    }
}

/// `a + (b - a) * p`, written so that p == 1 gives b exactly.
@inline(__always)
public func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double {
    p == 1 ? b : a + (b - a) * p
}
