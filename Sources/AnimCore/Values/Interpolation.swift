// Interpolation: the one rule per kind for values between two endpoints (brief §4):
// numbers, times and angles numerically (0 to 360deg is a full turn), points and sizes per
// component, colors per sRGB component with alpha. p == 1 returns the target exactly. The
// arithmetic is NumericValue.interpolate's, which tracks and the sampler use directly.

extension Value {
    /// The value a fraction `p` of the way from `a` to `b` (p may leave [0, 1] for overshooting
    /// easings). Returns `b` unchanged when p == 1 and `a` when p == 0, so tweens land exactly.
    public static func interpolate(_ a: Value, _ b: Value, _ p: Double) -> Value {
        if p == 1 { return b }
        if p == 0 { return a }
        if let x = NumericValue(a), let y = NumericValue(b), x.layout == y.layout {
            return NumericValue.interpolate(x, y, p).value
        }
        // Point lists and paths morph (Morph.swift).
        if let m = Morph(from: a, to: b) { return m.value(p) }
        // Kinds that do not interpolate switch at the end (the checker forbids tweening them).
        return p < 1 ? a : b
    }
}

/// `a + (b - a) * p`, written so that p == 1 gives b exactly.
@inline(__always)
public func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double {
    p == 1 ? b : a + (b - a) * p
}
