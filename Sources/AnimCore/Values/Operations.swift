// Operations: the operations on values that the checker resolves and the runtime applies —
// the arithmetic operators, the built-in functions and the implicit conversions. They live
// with the values (ValueOps carries them out), so that Values depends on nothing above it.

/// An infix arithmetic operator (its precedence is in `Parser.binaryOperator(_:)`).
public enum ArithmeticOperator: String, Hashable, Sendable { case add = "+", subtract = "-", multiply = "*", divide = "/" }

/// A comparison, in an expression (`a <= b`, giving a bool) or an `expect`.
public enum ComparisonOperator: String, Hashable, Sendable { case equal = "==", notEqual = "!=", lessEqual = "<=", greaterEqual = ">=" }

/// A built-in function.
public enum Builtin: String, Hashable, Sendable, CaseIterable {
    case min, max, abs, sqrt, sin, cos, floor, ceil, round, mod, lerp, clamp, random, rgb, rgba, hsl, hsla, velocity
    case pow, exp, log, tan, atan2, hypot, sign
    /// Gradient fills (GradientValue.swift); their arguments are laid out by the checker.
    case linearGradient = "linear-gradient", radialGradient = "radial-gradient"
}

/// How a value is converted to fit its slot.
public enum Conversion: Hashable, Sendable {
    /// A number of seconds becomes a time.
    case secondsToTime
    /// A number of degrees becomes an angle.
    case degreesToAngle
    /// A number n becomes the point (n, n) (for `scale`).
    case uniformPoint
    /// A CSS numeric weight (100, 200, … 900) becomes its word (`weight w`, `let w = 700`).
    case weightWord
}
