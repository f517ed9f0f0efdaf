// Spring: the parameters of a damped spring and the three ways the language writes them —
// `stiffness K damping C [mass M]`, SwiftUI's `duration D bounce B` and `response R
// damping-ratio Z`. Every form converts to stiffness, damping and mass; bad values are rejected
// in plain words. Invariant: a SpringParameters built by a throwing initializer comes to rest
// (positive stiffness, damping and mass). The motion itself is in SpringMotion.swift.

/// A damped spring: m·x″ + c·x′ + k·x = 0, with x the displacement from the target.
public struct SpringParameters: Hashable, Sendable {
    /// k, the restoring force per unit of displacement.
    public let stiffness: Double
    /// c, the drag per unit of velocity.
    public let damping: Double
    /// m, the moving mass.
    public let mass: Double

    /// `spring stiffness K damping C [mass M]`. Throws unless all three are finite and above 0
    /// (with no stiffness the spring never pulls, with no damping it never stops).
    public init(stiffness: Double, damping: Double, mass: Double = 1) throws(SpringError) {
        try SpringParameters.check("mass", mass)
        try SpringParameters.check("stiffness", stiffness)
        try SpringParameters.check("damping", damping)
        self.stiffness = stiffness
        self.damping = damping
        self.mass = mass
    }

    /// `spring response R damping-ratio Z` (SwiftUI `Spring(response:dampingRatio:)`).
    /// The response is the period of the undamped spring, 2π·√(m/k), so
    /// k = (2π ÷ R)²·m and c = 2·Z·√(k·m) = 4π·Z·m ÷ R.
    public init(response: Double, dampingRatio: Double, mass: Double = 1) throws(SpringError) {
        try SpringParameters.check("mass", mass)
        try SpringParameters.check("response", response)
        try SpringParameters.check("damping-ratio", dampingRatio)
        let omega = 2 * Double.pi / response
        try self.init(stiffness: omega * omega * mass, damping: 4 * Double.pi * dampingRatio * mass / response, mass: mass)
    }

    /// `spring duration D bounce B` (SwiftUI `Spring(duration:bounce:)`): the duration is the
    /// response, and the damping ratio is 1 − B for B ≥ 0 and 1 ÷ (1 + B) for B < 0. These are
    /// the conversions of Flutter's `SpringDescription.withDurationAndBounce` ("the same result as
    /// SwiftUI's spring(duration:bounce:)"); Apple's `Spring` page gives duration 0.5, bounce 0.3 →
    /// mass 1, stiffness 157.9, damping 17.6. B must lie strictly between −1 and 1: at 1 the
    /// spring never stops, at −1 it never arrives.
    public init(duration: Double, bounce: Double, mass: Double = 1) throws(SpringError) {
        try SpringParameters.check("mass", mass)
        try SpringParameters.check("duration", duration)
        guard bounce.isFinite, bounce > -1, bounce < 1 else { throw .bounceOutOfRange(bounce) }
        try self.init(response: duration, dampingRatio: SpringParameters.dampingRatio(bounce: bounce), mass: mass)
    }

    /// The default spring: SwiftUI's `spring(response: 0.5, dampingFraction: 0.825)`, mass 1
    /// (stiffness ≈ 157.91, damping ≈ 20.73).
    public static let standard = SpringParameters(checked: 4 * Double.pi * Double.pi / 0.25,
                                                  damping: 4 * Double.pi * 0.825 / 0.5, mass: 1)

    private init(checked stiffness: Double, damping: Double, mass: Double) {
        self.stiffness = stiffness
        self.damping = damping
        self.mass = mass
    }

    private static func check(_ name: String, _ value: Double) throws(SpringError) {
        guard value.isFinite, value > 0 else { throw .notPositive(name, value) }
    }

    /// SwiftUI's damping ratio for a bounce: 1 − B when B ≥ 0, 1 ÷ (1 + B) when B < 0.
    public static func dampingRatio(bounce b: Double) -> Double {
        b >= 0 ? 1 - b : 1 / (1 + b)
    }

    // MARK: - Derived quantities

    /// ω₀ = √(k/m), the undamped angular frequency in radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c ÷ (2·√(k·m)): below 1 the spring oscillates, at 1 it is critically damped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// SwiftUI's response: the undamped period 2π ÷ ω₀, in seconds.
    public var response: Double { 2 * Double.pi / naturalFrequency }

    /// SwiftUI's perceptual duration, which equals the response.
    public var duration: Double { response }

    /// SwiftUI's bounce, the inverse of `dampingRatio(bounce:)`: 1 − ζ for ζ ≤ 1, 1/ζ − 1 above.
    public var bounce: Double {
        let z = dampingRatio
        return z <= 1 ? 1 - z : 1 / z - 1
    }
}

/// Why spring parameters were rejected.
public enum SpringError: Error, Hashable, Sendable {
    /// A parameter that must be a finite number above 0 is not.
    case notPositive(String, Double)
    /// `bounce` outside (−1, 1).
    case bounceOutOfRange(Double)

    /// The message for the diagnostic.
    public var message: String {
        switch self {
        case .notPositive(let name, let v):
            "spring \(name) must be greater than 0, not \(formatNumber(v))"
        case .bounceOutOfRange(let v):
            "spring bounce must be greater than -1 and less than 1, not \(formatNumber(v))"
        }
    }
}
