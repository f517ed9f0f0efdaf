// Descriptions: what an editor says about an easing, a spring, a built-in function or a
// define, and the words it offers — computed by the same code the passes use (the easing
// resolver, the spring's closed form), so a hover never disagrees with a run.

/// The language's words, for completion.
public enum Vocabulary {
    /// Every keyword.
    public static var keywords: [String] { Keyword.allCases.map(\.rawValue) }
    /// The CSS colour names a name may be (`red`, `rebeccapurple`, `transparent`).
    public static let colorNames: [String] = CSSColors.table.keys.sorted()
    /// The same, for lookups.
    public static let colorNameSet: Set<String> = Set(CSSColors.table.keys)
    /// A spring's parameters.
    public static var springParameters: [String] { Checker.springParameters }
    /// SwiftUI's spring presets (`spring smooth`, …).
    public static var springPresets: [String] { ParseMessage.springPresets }
    /// The options a tween takes before its `<`.
    public static var tweenOptions: [String] { ParseMessage.optionWords }
    /// The easing names with their parameters as LSP snippet text (none for a keyword).
    public static let easingSnippets: [(name: String, snippet: String?)] =
        Easing.keywordNames.map { ($0, nil) }
        + [("cubic-bezier", "cubic-bezier(${1:0.25}, ${2:0.1}, ${3:0.25}, ${4:1})"), ("steps", "steps(${1:4}, ${2:jump-end})"),
           ("linear()", "linear(${1:0}, ${2:0.25 25%}, ${3:1})")]
        + Easing.pennerNames.map { n in
            n.hasPrefix("back-") ? (n, "\(n)(${1:1.70158})") : n.hasPrefix("elastic-") ? (n, "\(n)(${1:1}, ${2:0.3})") : (n, nil)
        }
        + Easing.powerNames.map { ($0, nil) }
}

/// A built-in function's signature, as Grammar.md §3.5 gives it.
public struct FunctionSignature: Sendable {
    public var name: String
    /// The parameters as shown.
    public var parameters: [String]
    /// The result, and notes.
    public var summary: String

    /// `name(a, b)`.
    public var label: String { "\(name)(\(parameters.joined(separator: ", ")))" }

    /// Every built-in function (Grammar.md §3.5), in the reference's order. `min` and `max`
    /// take two or more; `random` zero to two.
    public static let all: [FunctionSignature] = [
        .init(name: "min", parameters: ["a", "b", "…"], summary: "the least of numbers, times or angles of one kind"),
        .init(name: "max", parameters: ["a", "b", "…"], summary: "the greatest of numbers, times or angles of one kind"),
        .init(name: "abs", parameters: ["x"], summary: "the magnitude of a number, time or angle"),
        .init(name: "sqrt", parameters: ["x"], summary: "the square root of a number (a negative one is an error)"),
        .init(name: "floor", parameters: ["x"], summary: "a number rounded down"),
        .init(name: "ceil", parameters: ["x"], summary: "a number rounded up"),
        .init(name: "round", parameters: ["x"], summary: "a number rounded half away from zero"),
        .init(name: "mod", parameters: ["a", "b"], summary: "a modulo b, with the sign of b (b = 0 is an error)"),
        .init(name: "sin", parameters: ["angle"], summary: "the sine of an angle (a bare number is degrees)"),
        .init(name: "cos", parameters: ["angle"], summary: "the cosine of an angle (a bare number is degrees)"),
        .init(name: "lerp", parameters: ["a", "b", "t"], summary: "a + (b − a)·t for numbers, times, angles, points or colours"),
        .init(name: "clamp", parameters: ["x", "lo", "hi"], summary: "x held between lo and hi (lo > hi is an error)"),
        .init(name: "random", parameters: ["lo", "hi"], summary: "a seeded draw: random() in [0, 1), random(hi), random(lo, hi)"),
        .init(name: "rgb", parameters: ["r", "g", "b"], summary: "a colour from channels 0–255"),
        .init(name: "rgba", parameters: ["r", "g", "b", "a"], summary: "a colour from channels 0–255 and alpha 0–1"),
        .init(name: "hsl", parameters: ["h", "s", "l"], summary: "a colour from hue (angle), saturation and lightness (0–100)"),
        .init(name: "hsla", parameters: ["h", "s", "l", "a"], summary: "hsl with alpha 0–1"),
        .init(name: "velocity", parameters: ["property"], summary: "a number, point or angle property's rate of change, per second"),
        .init(name: "pow", parameters: ["x", "y"], summary: "x to the power y (a result that is not a finite number is an error)"),
        .init(name: "exp", parameters: ["x"], summary: "e to the power x"),
        .init(name: "log", parameters: ["x"], summary: "the natural logarithm of a number (x ≤ 0 is an error)"),
        .init(name: "tan", parameters: ["angle"], summary: "the tangent of an angle (a bare number is degrees)"),
        .init(name: "atan2", parameters: ["y", "x"], summary: "the angle of the vector (x, y), in (−180°, 180°]"),
        .init(name: "hypot", parameters: ["a", "b"], summary: "√(a² + b²) for numbers, times or angles of one kind"),
        .init(name: "sign", parameters: ["x"], summary: "−1, 0 or 1 by the sign of a number, time or angle"),
        .init(name: "linear-gradient", parameters: ["angle", "c1", "c2", "…"],
              summary: "a gradient fill along a CSS angle (90deg: left to right); stops 'colour [at 0.3 or 30%]'"),
        .init(name: "radial-gradient", parameters: ["c1", "c2", "…"],
              summary: "a gradient fill from the centre out (CSS's farthest-corner ellipse); stops 'colour [at 0.3 or 30%]'"),
    ]

    /// The signature of a built-in function.
    public static func named(_ name: String) -> FunctionSignature? { all.first { $0.name == name } }
}

extension SyntaxTree {
    /// An easing as written, resolved as the checker resolves it.
    public func resolvedEasing(_ e: EasingID) -> Result<Easing, EasingError> {
        let syntax = self[e]
        let args: [EasingArgument]? = syntax.arguments.map { easingArguments($0).map(\.argument) }
        return Easing.resolve(name: text(syntax.nameSpan), arguments: args)
    }

    /// What an easing is, in a sentence or two (or what is wrong with it).
    public func describeEasing(_ e: EasingID) -> String {
        switch resolvedEasing(e) {
        case .failure(let err): return err.message
        case .success(let easing):
            var what: String
            switch easing {
            case .linear: what = "constant speed"
            case .cubicBezier(let a, let b, let c, let d):
                what = "a CSS cubic Bézier curve through (0, 0), (\(formatNumber(a)), \(formatNumber(b))), (\(formatNumber(c)), \(formatNumber(d))), (1, 1)"
            case .steps(let n, let p): what = "\(n) jump\(n == 1 ? "" : "s") (\(p.rawValue)): the value holds between jumps"
            case .piecewiseLinear(let l):
                what = "CSS's piecewise-linear easing through \(l.inputs.count) points, straight between them"
            case .penner(let family, let mode):
                let m = mode == .in ? "slow start" : mode == .out ? "slow end" : "slow start and end"
                what = "Penner's \(family.name) easing, \(m)"
                switch family {
                case .back(let s): what += ", overshooting by \(formatNumber(s))"
                case .elastic(let a, let p): what += ", amplitude \(formatNumber(a)), period \(formatNumber(p))"
                default: break
                }
            }
            return "`\(easing)`: \(what); at the middle of the tween it is \(formatNumber((easing(0.5) * 1000).rounded() / 1000)) of the way"
        }
    }

    /// A spring step's parameters as written (literal numbers only), resolved as the checker
    /// does: nil when a value is not a plain literal or the form is incomplete.
    public func springParameters(_ s: StepID) -> SpringParameters? {
        guard case .spring(let sp) = self[s] else { return nil }
        var given: [String: Double] = [:]
        for p in self[sp.parameters] {
            let pi = self[p]
            guard let n = plainNumber(pi.value) else { return nil }
            var v = Double(n.mantissa) * pow10(n.exponent)
            if n.unit == .ms { v /= 1000 }
            given[text(pi.name.span)] = n.negative ? -v : v
        }
        if let k = given["stiffness"], let c = given["damping"] { return try? SpringParameters(stiffness: k, damping: c, mass: given["mass"] ?? 1) }
        if let d = given["duration"] { return try? SpringParameters(duration: d, bounce: given["bounce"] ?? 0) }
        if let r = given["response"] { return try? SpringParameters(response: r, dampingRatio: given["damping-ratio"] ?? 1) }
        if given.keys.allSatisfy({ $0 == "velocity" || $0 == "epsilon" }) { return .standard }
        return nil
    }

    /// What a spring is: its parameters in every form, and its settling time for a move of
    /// one unit from rest (to within 0.001, the default epsilon).
    public func describeSpring(_ s: StepID) -> String {
        guard let p = springParameters(s) else { return "a spring (its parameters are computed: the run times it)" }
        let motion = SpringMotion(parameters: p, from: 0, to: 1, velocity: 0)
        let settle = motion.settlingTime()
        let z = p.dampingRatio
        let regime = z < 1 ? "under-damped (it overshoots)" : z == 1 ? "critically damped" : "over-damped"
        return "a spring: stiffness \(formatNumber(round3(p.stiffness))), damping \(formatNumber(round3(p.damping))), mass \(formatNumber(p.mass)); "
            + "damping ratio \(formatNumber(round3(z))), \(regime); response \(formatNumber(round3(p.response)))s; "
            + "settles in \(formatNumber(round3(settle)))s (a move of 1 from rest, to within 0.001)"
    }
}

private func pow10(_ e: Int) -> Double {
    var r = 1.0
    for _ in 0..<abs(e) { r *= 10 }
    return e < 0 ? 1 / r : r
}

private func round3(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
