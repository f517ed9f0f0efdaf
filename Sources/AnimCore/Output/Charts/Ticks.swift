// Ticks: the step between labelled ticks on a time axis, for the terminal chart and the SVG
// timeline strip alike.

enum Ticks {
    /// The smallest step of the form m × 10ⁿ (m from `multiples`, n ≥ −3, so a millisecond at
    /// least) that puts ticks at least `minimum` apart on an axis `length` units long showing
    /// `end` seconds. Any finite `end` gets one (a clock run of centuries gets steps of
    /// decades of seconds), so drawing the axis takes at most length ÷ minimum ticks.
    static func step(end: Double, length: Double, minimum: Double, multiples: [Double]) -> Double {
        guard end > 0, end.isFinite, length > 0 else { return 1 }
        var decade = 0.001
        while decade < .greatestFiniteMagnitude / 10 {
            for m in multiples where length * m * decade / end >= minimum { return m * decade }
            decade *= 10
        }
        return end
    }
}
