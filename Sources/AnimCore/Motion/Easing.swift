// Easing: maps linear progress p in [0, 1] to eased progress. Cubic Béziers follow the CSS
// Easing Functions spec (Level 1, §2.3 "cubic Bézier easing functions"): x(t) is solved for t by
// Newton's method with a bisection fallback, then y(t) is returned; outside [0, 1] the curve
// continues along the tangent at its end points, as browsers do.

/// An easing function.
public enum Easing: Hashable, Sendable {
    /// p ↦ p
    case linear
    /// CSS `cubic-bezier(x1, y1, x2, y2)`; x1 and x2 in [0, 1].
    case cubicBezier(Double, Double, Double, Double)

    /// CSS `ease`.
    public static let ease = Easing.cubicBezier(0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`.
    public static let easeIn = Easing.cubicBezier(0.42, 0, 1, 1)
    /// CSS `ease-out`.
    public static let easeOut = Easing.cubicBezier(0, 0, 0.58, 1)
    /// CSS `ease-in-out`, the default (UIKit's default curve).
    public static let easeInOut = Easing.cubicBezier(0.42, 0, 0.58, 1)

    /// The eased progress at linear progress `p`.
    public func callAsFunction(_ p: Double) -> Double {
        switch self {
        case .linear: return p
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return CubicBezier(x1, y1, x2, y2).solve(p)
        }
    }

    /// The keyword names, for messages and completion.
    public static let keywordNames = ["linear", "ease", "ease-in", "ease-out", "ease-in-out"]

    /// Every easing name the language accepts.
    public static var allNames: [String] { keywordNames + ["cubic-bezier"] }

    /// Resolves an easing by name and arguments, or explains what is wrong.
    public static func resolve(name: String, arguments: [Double]?) -> Result<Easing, EasingError> {
        switch name {
        case "linear", "ease", "ease-in", "ease-out", "ease-in-out":
            if arguments != nil { return .failure(.takesNoArguments(name)) }
            switch name {
            case "linear": return .success(.linear)
            case "ease": return .success(.ease)
            case "ease-in": return .success(.easeIn)
            case "ease-out": return .success(.easeOut)
            default: return .success(.easeInOut)
            }
        case "cubic-bezier":
            guard let a = arguments, a.count == 4 else {
                return .failure(.wrongArgumentCount(name, expected: "4", got: arguments?.count ?? 0))
            }
            guard (0...1).contains(a[0]), (0...1).contains(a[2]) else {
                return .failure(.outOfRange(name, "x1 and x2 must be between 0 and 1"))
            }
            return .success(.cubicBezier(a[0], a[1], a[2], a[3]))
        default:
            return .failure(.unknown(name, suggestion: DidYouMean.suggest(name, from: allNames)))
        }
    }
}

/// Why an easing could not be resolved.
public enum EasingError: Error, Hashable, Sendable {
    case unknown(String, suggestion: String?)
    case takesNoArguments(String)
    case wrongArgumentCount(String, expected: String, got: Int)
    case outOfRange(String, String)
    case expectedWord(String, String)

    /// The message for the diagnostic.
    public var message: String {
        switch self {
        case .unknown(let n, let s): "unknown easing '\(n)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .takesNoArguments(let n): "easing '\(n)' takes no parameters"
        case .wrongArgumentCount(let n, let e, let g): "easing '\(n)' takes \(e) parameters, not \(g)"
        case .outOfRange(let n, let why): "bad parameters for '\(n)': \(why)"
        case .expectedWord(let n, let why): "bad parameters for '\(n)': \(why)"
        }
    }
}

/// A CSS cubic Bézier timing curve through (0,0), (x1,y1), (x2,y2), (1,1).
public struct CubicBezier: Sendable {
    let ax, bx, cx, ay, by, cy: Double
    let x1, y1, x2, y2: Double

    /// Creates the curve; polynomial coefficients per axis: B(t) = ((a t + b) t + c) t.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1; bx = 3 * (x2 - x1) - cx; ax = 1 - cx - bx
        cy = 3 * y1; by = 3 * (y2 - y1) - cy; ay = 1 - cy - by
    }

    @inline(__always) func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @inline(__always) func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inline(__always) func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve's t for a given x in [0, 1].
    func parameter(forX x0: Double) -> Double {
        var t = x0
        for _ in 0..<8 {
            let err = x(t) - x0
            if abs(err) < 1e-12 { return t }
            let d = dx(t)
            if abs(d) < 1e-9 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x0
        for _ in 0..<64 {
            let v = x(t)
            if abs(v - x0) < 1e-12 { return t }
            if v < x0 { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    /// The eased value for progress `p`; outside [0, 1] the end tangents are extended
    /// (CSS Easing Level 1, §2.3: "the tangent ... at the start/end points").
    public func solve(_ p: Double) -> Double {
        if p == 0 { return 0 }
        if p == 1 { return 1 }
        if p < 0 {
            let slope = x1 > 0 ? y1 / x1 : (y1 == 0 && x2 > 0 ? y2 / x2 : 0)
            return slope * p
        }
        if p > 1 {
            let slope = x2 < 1 ? (y2 - 1) / (x2 - 1) : (y2 == 1 && x1 < 1 ? (y1 - 1) / (x1 - 1) : 0)
            return 1 + slope * (p - 1)
        }
        return y(parameter(forX: p))
    }
}
