// PennerEasing: Robert Penner's easing families. Each family defines only its `-in` curve on
// [0, 1]; `-out` is its reversal and `-in-out` its mirror (EasingMode.apply, as Popmotion's
// reverseEasing/mirrorEasing and GSAP's _insertEase do). Where implementations differ we state
// which one we follow next to the formula: back-in-out scales the overshoot ×1.525 (Penner,
// easings.net; GSAP does not); elastic follows GSAP 3 (`-in` is the reversal of `-out`).

/// A Penner easing family with its parameters.
public enum PennerFamily: Hashable, Sendable {
    /// `sine`: a quarter cosine.
    case sine
    /// `quad`: p².
    case quad
    /// `cubic`: p³.
    case cubic
    /// `quart`: p⁴.
    case quart
    /// `quint`: p⁵.
    case quint
    /// `expo`: 2^(10(p−1)).
    case expo
    /// `circ`: a quarter circle.
    case circ
    /// `back`, with Penner's overshoot `s` (default 1.70158: a 10% overshoot).
    case back(overshoot: Double)
    /// `elastic`, GSAP 3's amplitude (default 1) and period in units of the whole curve
    /// (default 0.3 for `-in` and `-out`, 0.45 for `-in-out`).
    case elastic(amplitude: Double, period: Double)
    /// `bounce`: Penner's four parabolic bounces.
    case bounce

    /// The family names, in the order of the language reference.
    public static let names = ["sine", "quad", "cubic", "quart", "quint", "expo", "circ", "back", "elastic", "bounce"]

    /// Penner's back overshoot: 1.70158 makes `back-in` dip 10% below 0.
    public static let defaultOvershoot = 1.70158
    /// Penner's scale for the overshoot of `back-in-out`: each half is squeezed into half the
    /// time, so s × 1.525 keeps the dip at 10% (of the whole change).
    public static let inOutOvershootScale = 1.525
    /// GSAP 3's default elastic amplitude.
    public static let defaultAmplitude = 1.0

    /// GSAP 3's default elastic period for a mode: 0.3, or 0.45 (= 0.3 × 1.5) for `-in-out`,
    /// as in GSAP's `_configElastic` and Penner's `easeInOutElastic` (`p = d * (.3 * 1.5)`).
    public static func defaultPeriod(for mode: EasingMode) -> Double {
        mode == .inOut ? 0.45 : 0.3
    }

    /// The family's name in easing names (`back` in `back-out`).
    public var name: String {
        switch self {
        case .sine: "sine"
        case .quad: "quad"
        case .cubic: "cubic"
        case .quart: "quart"
        case .quint: "quint"
        case .expo: "expo"
        case .circ: "circ"
        case .back: "back"
        case .elastic: "elastic"
        case .bounce: "bounce"
        }
    }

    /// The family as used in `mode`: Penner's back-in-out scales the overshoot by 1.525.
    @inline(__always)
    func adjusted(for mode: EasingMode) -> PennerFamily {
        if mode == .inOut, case .back(let s) = self { return .back(overshoot: s * PennerFamily.inOutOvershootScale) }
        return self
    }

    /// The `-in` curve. Exactly 0 at 0 and 1 at 1, so the derived `-out` and `-in-out` are too.
    @inline(__always)
    public func easeIn(_ p: Double) -> Double {
        if p == 0 { return 0 }
        if p == 1 { return 1 }
        switch self {
        case .sine:
            return 1 - cosRadians(p * Double.pi / 2)              // Penner easeInSine
        case .quad:
            return p * p                                          // Penner easeInQuad
        case .cubic:
            return p * p * p
        case .quart:
            return p * p * p * p
        case .quint:
            return p * p * p * p * p
        case .expo:
            return powDouble(2, 10 * (p - 1))                     // Penner easeInExpo: 2^(10(t−1)), 0 at t = 0
        case .circ:
            return 1 - max(0, 1 - p * p).squareRoot()             // Penner easeInCirc (guarded outside [−1, 1])
        case .back(let s):
            return p * p * ((s + 1) * p - s)                      // Penner easeInBack: t²((s+1)t − s)
        case .elastic(let a, let period):
            return 1 - PennerFamily.elasticOut(1 - p, amplitude: a, period: period)
        case .bounce:
            return 1 - PennerFamily.bounceOut(1 - p)              // Penner easeInBounce = 1 − easeOutBounce(1 − t)
        }
    }

    /// GSAP 3 `_configElastic` easeOut: a'·2^(−10p)·sin((p − s)·2π/P) + 1 with a' = max(a, 1),
    /// P = period ÷ min(a, 1) (GSAP lengthens the period instead of shrinking the amplitude
    /// below 1) and s = P/(2π)·asin(1/a'). With a ≤ 1 this is also Penner's easeOutElastic; with
    /// a > 1 Penner's easeIn is not the exact reversal of his easeOut, and we follow GSAP.
    static func elasticOut(_ p: Double, amplitude a: Double, period: Double) -> Double {
        if p == 1 { return 1 }
        let a1 = max(a, 1)
        let span = period / min(a, 1)
        let s = span / (2 * Double.pi) * asinDouble(1 / a1)
        return a1 * powDouble(2, -10 * p) * sinRadians((p - s) * 2 * Double.pi / span) + 1
    }

    /// Penner's easeOutBounce: four parabolas of height 1, 1/4, 1/16, 1/64 below 1
    /// (7.5625 = 2.75², so the first arc reaches 1 at p = 1/2.75).
    static func bounceOut(_ p: Double) -> Double {
        let n = 7.5625, d = 2.75
        if p < 1 / d { return n * p * p }
        if p < 2 / d { let q = p - 1.5 / d; return n * q * q + 0.75 }
        if p < 2.5 / d { let q = p - 2.25 / d; return n * q * q + 0.9375 }
        let q = p - 2.625 / d
        return n * q * q + 0.984375
    }
}

/// Which part of a family's curve an easing uses.
public enum EasingMode: String, Hashable, Sendable, CaseIterable {
    /// The curve as defined: starts slowly.
    case `in` = "in"
    /// The reversal: out(p) = 1 − in(1 − p).
    case out = "out"
    /// The mirror: in(2p)/2 on the first half, 1 − in(2 − 2p)/2 on the second.
    case inOut = "in-out"

    /// Applies the mode to a family's `-in` curve (Popmotion `reverseEasing`, `mirrorEasing`).
    @inline(__always)
    func apply(_ family: PennerFamily, to p: Double) -> Double {
        apply(to: p) { family.easeIn($0) }
    }

    /// Applies the mode to an `-in` curve: out(p) = 1 − in(1 − p), and in-out is in(2p)/2 on
    /// the first half and 1 − in(2 − 2p)/2 on the second.
    @inline(__always)
    func apply(to p: Double, _ easeIn: (Double) -> Double) -> Double {
        switch self {
        case .in: return easeIn(p)
        case .out: return 1 - easeIn(1 - p)
        case .inOut: return p < 0.5 ? easeIn(2 * p) / 2 : 1 - easeIn(2 - 2 * p) / 2
        }
    }
}
