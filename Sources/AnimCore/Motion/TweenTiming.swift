// TweenTiming: the Web Animations timing model for one tween (Web Animations Level 1, §4.8
// "Core animation model calculations"): active duration, overall progress, simple iteration
// progress (1.0 at the end of the active interval), current iteration, and the alternate
// direction used by `yoyo`. Local time 0 is the start of the active interval (after delay).

/// Iteration timing of a tween.
public struct TweenTiming: Hashable, Sendable {
    /// The duration of one iteration.
    public var iterationDuration: Time
    /// How many iterations (may be fractional or infinite).
    public var iterations: Double
    /// `yoyo`: odd iterations run backward.
    public var alternate: Bool
    /// The playback rate (`speed`), greater than zero.
    public var rate: Double

    /// Creates a timing.
    public init(iterationDuration: Time, iterations: Double = 1, alternate: Bool = false, rate: Double = 1) {
        self.iterationDuration = iterationDuration
        self.iterations = iterations
        self.alternate = alternate
        self.rate = rate
    }

    /// The active duration `d × n ÷ rate`, rounded once to the tick grid; nil if infinite or out of range.
    public static func activeDuration(iteration d: Time, iterations n: Double, rate r: Double) -> Time? {
        if n == 1 && r == 1 { return d }
        if d.ticks == 0 || n == 0 { return .zero }
        guard n.isFinite else { return nil }
        return d.scaled(by: n / r)
    }

    /// The active duration; nil when infinite.
    public var activeDuration: Time? {
        TweenTiming.activeDuration(iteration: iterationDuration, iterations: iterations, rate: rate)
    }

    /// The overall progress (iterations completed, fractional) and the directed progress of the
    /// current iteration at local time `t`, clamped to the active interval.
    public func progress(at t: Time) -> (iteration: Double, directed: Double) {
        let active = activeDuration
        let atEnd = active.map { t >= $0 } ?? false
        var overall: Double
        if iterationDuration.ticks == 0 || atEnd {
            overall = t.ticks <= 0 && !atEnd ? 0 : iterations
        } else {
            let local = max(Time.zero, t)
            overall = local.seconds * rate / iterationDuration.seconds
        }
        if !overall.isFinite { overall = 0 }
        var simple = overall - overall.rounded(.down)
        var iteration = overall.rounded(.down)
        // Progress is 1.0, not 0.0, at the end of the active interval (§4.8.3.3).
        if simple == 0 && atEnd && iterations != 0 {
            simple = 1
            iteration -= 1
        }
        let reverse = alternate && iteration.truncatingRemainder(dividingBy: 2) != 0
        return (iteration, reverse ? 1 - simple : simple)
    }
}
