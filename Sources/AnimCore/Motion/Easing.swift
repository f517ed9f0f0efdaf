// Easing: maps a tween's directed progress p to eased progress. The cases are the CSS Easing
// Level 1 functions (linear, cubic-bezier, steps; CubicBezier.swift, StepEasing.swift) and the
// Penner families (PennerEasing.swift). Invariant: every easing maps 0 to 0 and 1 to 1 exactly,
// except `steps` with jump-start or jump-both, which CSS defines to have jumped already at p = 0.
// Names and parameters are parsed in Easing+Resolve.swift.

/// An easing function.
public enum Easing: Hashable, Sendable {
    /// p ↦ p
    case linear
    /// CSS `cubic-bezier(x1, y1, x2, y2)`; x1 and x2 in [0, 1].
    case cubicBezier(Double, Double, Double, Double)
    /// CSS `steps(n, position)`; n ≥ 1, and n ≥ 2 for `jump-none`.
    case steps(Int, StepPosition)
    /// A Penner family in one mode: `quad-in`, `back-out(2)`, `elastic-in-out(1, 0.45)`.
    /// The family holds every parameter explicitly (defaults are filled in by `resolve`).
    case penner(PennerFamily, EasingMode)
    /// CSS Easing Level 2 `linear(0, 0.25 25%, 1)`: piecewise linear through its points.
    case piecewiseLinear(LinearEasing)

    /// CSS `ease`.
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`.
    public static let easeIn = Easing.cubicBezier(0.42, 0, 1, 1)
    /// CSS `ease-out`.
    public static let easeOut = Easing.cubicBezier(0, 0, 0.58, 1)
    /// CSS `ease-in-out`, the default (UIKit's default curve).
    public static let easeInOut = Easing.cubicBezier(0.42, 0, 0.58, 1)
    /// CSS `step-start`, that is `steps(1, jump-start)`.
    public static let stepStart = Easing.steps(1, .jumpStart)
    /// CSS `step-end`, that is `steps(1, jump-end)`.
    public static let stepEnd = Easing.steps(1, .jumpEnd)

    /// The eased progress at linear progress `p`, with the before flag clear.
    @inline(__always)
    public func callAsFunction(_ p: Double) -> Double {
        self(p, beforeFlag: false)
    }

    /// The eased progress at `p`. The before flag (CSS Easing Level 1, "Step easing functions";
    /// Web Animations Level 1, "Calculating the transformed progress") only matters to `steps`:
    /// a tween sets it only outside its active interval, in its before phase with the current
    /// iteration running forwards or in its after phase with it running backwards (see
    /// `TweenTiming.Sample.beforeFlag`), and passes it on to its keyframes' easings.
    @inline(__always)
    public func callAsFunction(_ p: Double, beforeFlag: Bool) -> Double {
        switch self {
        case .linear:
            return p
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return CubicBezier(x1, y1, x2, y2).solve(p)
        case .steps(let n, let position):
            return StepEasing.output(p, steps: n, position: position, beforeFlag: beforeFlag)
        case .penner(let family, let mode):
            return mode.apply(family.adjusted(for: mode), to: p)
        case .piecewiseLinear(let f):
            return f(p)
        }
    }

    /// Eases every progress in `values` in place, the before flag clear: the same results as
    /// `self(p)` on each, with the choice of curve made once for the batch (the sampler's inner
    /// loop). Keep the cases in step with `callAsFunction(_:beforeFlag:)`.
    @inline(__always)
    public func ease(_ values: UnsafeMutablePointer<Double>, count: Int) {
        switch self {
        case .linear:
            return
        case .cubicBezier(let x1, let y1, let x2, let y2):
            let curve = CubicBezier(x1, y1, x2, y2)
            for i in 0..<count { values[i] = curve.solve(values[i]) }
        case .steps(let n, let position):
            for i in 0..<count { values[i] = StepEasing.output(values[i], steps: n, position: position, beforeFlag: false) }
        case .penner(let family, let mode):
            let adjusted = family.adjusted(for: mode)
            // One loop per family and mode, each with its curve known, so nothing is chosen per sample.
            @inline(__always) func each(_ easeIn: (Double) -> Double) {
                switch mode {
                case .in: for i in 0..<count { values[i] = EasingMode.in.apply(to: values[i], easeIn) }
                case .out: for i in 0..<count { values[i] = EasingMode.out.apply(to: values[i], easeIn) }
                case .inOut: for i in 0..<count { values[i] = EasingMode.inOut.apply(to: values[i], easeIn) }
                }
            }
            switch adjusted {
            case .sine: each { PennerFamily.sine.easeIn($0) }
            case .quad: each { PennerFamily.quad.easeIn($0) }
            case .cubic: each { PennerFamily.cubic.easeIn($0) }
            case .quart: each { PennerFamily.quart.easeIn($0) }
            case .quint: each { PennerFamily.quint.easeIn($0) }
            case .expo: each { PennerFamily.expo.easeIn($0) }
            case .circ: each { PennerFamily.circ.easeIn($0) }
            case .back, .elastic: each { adjusted.easeIn($0) }
            case .bounce: each { PennerFamily.bounce.easeIn($0) }
            }
        case .piecewiseLinear(let f):
            for i in 0..<count { values[i] = f(values[i]) }
        }
    }

    // MARK: - Names

    /// The CSS keyword names, which take no parameters.
    public static let keywordNames = ["linear", "ease", "ease-in", "ease-out", "ease-in-out", "step-start", "step-end"]

    /// The CSS function names, which take parameters in parentheses (`linear` is also a keyword).
    public static let functionNames = ["cubic-bezier", "steps"]

    /// GSAP's power names, which anim reads as GSAP defines them (GSAP 3 `gsap-core.js`, the
    /// `Linear,Quad,Cubic,Quart,Quint` eases: powerN is p^(N+1)): `power0` (linear) and
    /// `power0-in` … `power4-in-out`.
    public static let powerNames: [String] = ["power0"] + (0...4).flatMap { n in
        EasingMode.allCases.map { "power\(n)-\($0.rawValue)" }
    }

    /// The Penner names, family then mode: `sine-in`, `sine-out`, `sine-in-out`, `quad-in`, ...
    public static let pennerNames: [String] = PennerFamily.names.flatMap { f in
        EasingMode.allCases.map { "\(f)-\($0.rawValue)" }
    }

    /// Every easing name the language accepts, for did-you-mean and completion.
    public static let allNames: [String] = keywordNames + functionNames + pennerNames + powerNames
}

extension Easing: CustomStringConvertible {
    /// The easing as it would be written, with every parameter explicit
    /// (`cubic-bezier(0.42, 0, 0.58, 1)`, `steps(4, jump-end)`, `back-out(1.70158)`).
    public var description: String {
        switch self {
        case .linear:
            return "linear"
        case .cubicBezier(let a, let b, let c, let d):
            return "cubic-bezier(\([a, b, c, d].map(formatNumber).joined(separator: ", ")))"
        case .steps(let n, let position):
            return "steps(\(n), \(position.rawValue))"
        case .penner(let family, let mode):
            let name = "\(family.name)-\(mode.rawValue)"
            switch family {
            case .back(let s): return "\(name)(\(formatNumber(s)))"
            case .elastic(let a, let p): return "\(name)(\(formatNumber(a)), \(formatNumber(p)))"
            default: return name
            }
        case .piecewiseLinear(let f):
            return f.description
        }
    }
}
