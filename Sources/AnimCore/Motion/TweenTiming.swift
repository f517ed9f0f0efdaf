// TweenTiming: the Web Animations Level 1 timing model for one tween ("Core animation effect
// calculations": phases, active time, overall progress, simple iteration progress, current
// iteration, directed progress, and the before flag of the transformed progress). Local time t
// is clock time since the start of the active interval (the delay is the graph's business), and
// fill is `both`: before the interval the tween shows its start, after it its end. Invariant:
// at the end of the active interval the simple iteration progress is 1.0, not 0.0.

/// Which way successive iterations run (Web Animations `PlaybackDirection`).
public enum PlaybackDirection: String, Hashable, Sendable, CaseIterable {
    /// Every iteration forwards.
    case normal
    /// Every iteration backwards.
    case reverse
    /// Even iterations forwards, odd ones backwards (`yoyo`).
    case alternate
    /// Even iterations backwards, odd ones forwards.
    case alternateReverse = "alternate-reverse"
}

/// What a tween shows outside its active interval (Web Animations `FillMode`): `backwards`
/// its before-phase value during the delay, `forwards` its end after it, `both` both, `none`
/// neither (the value beneath comes back).
public enum FillMode: String, Hashable, Sendable, CaseIterable {
    case none, forwards, backwards, both

    /// Whether it shows the before-phase value during the delay.
    public var fillsBackwards: Bool { self == .backwards || self == .both }
    /// Whether it keeps its end value after the active interval.
    public var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Iteration timing of a tween.
public struct TweenTiming: Hashable, Sendable {
    /// The duration of one iteration, in effect time (before `rate` is applied).
    public var iterationDuration: Time
    /// How many iterations (0 or more; may be fractional or infinite).
    public var iterations: Double
    /// Where in the iterations the tween starts (Web Animations `iterationStart`, 0 or more).
    public var iterationStart: Double
    /// The direction of each iteration.
    public var direction: PlaybackDirection
    /// The playback rate (`speed`), greater than zero: effect time = clock time × rate.
    public var rate: Double
    /// GSAP's `repeatDelay`: effect time between iterations, during which the tween holds the
    /// end of the iteration just done. Zero (the Web Animations model) unless `repeat-delay`.
    public var repeatDelay: Time = .zero

    /// `yoyo`: odd iterations run backward.
    public var alternate: Bool {
        get { direction == .alternate }
        set { direction = newValue ? .alternate : .normal }
    }

    /// Creates a timing with `yoyo` as a flag.
    public init(iterationDuration: Time, iterations: Double = 1, alternate: Bool = false, rate: Double = 1) {
        self.init(iterationDuration: iterationDuration, iterations: iterations, iterationStart: 0,
                  direction: alternate ? .alternate : .normal, rate: rate)
    }

    /// Creates a timing with every Web Animations parameter.
    public init(iterationDuration: Time, iterations: Double = 1, iterationStart: Double = 0,
                direction: PlaybackDirection, rate: Double = 1, repeatDelay: Time = .zero) {
        self.iterationDuration = iterationDuration
        self.iterations = iterations
        self.iterationStart = iterationStart
        self.direction = direction
        self.rate = rate
        self.repeatDelay = repeatDelay
    }

    /// The active duration in clock time, `d × n ÷ rate`, rounded once to the tick grid; zero if
    /// d or n is zero (even when the other is infinite); nil if infinite or out of range.
    public static func activeDuration(iteration d: Time, iterations n: Double, rate r: Double) -> Time? {
        if n == 1 && r == 1 { return d }
        if d.ticks == 0 || n == 0 { return .zero }
        guard n.isFinite, r > 0, r.isFinite else { return nil }
        return d.scaled(by: n / r)
    }

    /// The active duration in clock time; nil when infinite. With a repeat delay R it is
    /// (d × n + R × (⌈n⌉ − 1)) ÷ rate, each part rounded once to the tick grid (GSAP's
    /// `totalDuration()`); a zero duration or count still makes it zero.
    public var activeDuration: Time? {
        let plain = TweenTiming.activeDuration(iteration: iterationDuration, iterations: iterations, rate: rate)
        guard repeatDelay.ticks > 0, iterationDuration.ticks > 0, iterations > 0 else { return plain }
        guard let plain else { return nil }
        let gaps = iterations.rounded(.up) - 1
        guard gaps > 0 else { return plain }
        guard let pauses = repeatDelay.scaled(by: gaps / rate) else { return nil }
        return plain.adding(pauses)
    }

    /// Web Animations' "end time" of a tween whose delay is `delay` and end delay `endDelay`,
    /// from the start of its step: max(delay + active duration + end delay, 0); nil when the
    /// tween never ends or its end is out of range.
    public func endTime(delay: Time, endDelay: Time) -> Time? {
        guard let active = activeDuration, let end = delay.adding(active)?.adding(endDelay) else { return nil }
        return max(end, .zero)
    }

    /// The local time (from the start of the active interval) whose value the tween holds after
    /// its end: the end of the active interval, or earlier when the end time comes first (a
    /// negative end delay; before the active interval when it is larger than the active
    /// duration and the delay together, where the before phase's value holds).
    public func landingTime(delay: Time, endDelay: Time) -> Time? {
        guard let active = activeDuration, let end = endTime(delay: delay, endDelay: endDelay) else { return nil }
        return min(active, end - delay)
    }

    // MARK: - Validation

    /// The timing of a tween from its parts, checked: the duration and every iteration count
    /// and rate anim can play, and an active duration inside the clock's range. `iterations`
    /// nil is `repeat forever`. The one place these rules live: the checker calls it for
    /// constant parts, the interpreter for parts computed when a tween begins.
    public static func validated(duration d: Time, iterations n: Double?, alternate: Bool, rate r: Double,
                                 direction: PlaybackDirection? = nil, iterationStart: Double = 0,
                                 repeatDelay: Time = .zero) throws(TimingError) -> TweenTiming {
        var count = Double.infinity
        if let n { count = try validated(iterations: n) }
        guard repeatDelay.ticks >= 0 else { throw .negativeRepeatDelay(repeatDelay) }
        let timing = TweenTiming(iterationDuration: try validated(duration: d), iterations: count,
                                 iterationStart: try validated(iterationStart: iterationStart),
                                 direction: direction ?? (alternate ? .alternate : .normal), rate: try validated(rate: r),
                                 repeatDelay: repeatDelay)
        // No end because its end is past the clock's range (an endless tween has none either).
        if timing.activeDuration == nil && timing.iterations.isFinite { throw .beyondTheClock }
        return timing
    }

    /// A tween's duration: not negative.
    public static func validated(duration d: Time) throws(TimingError) -> Time {
        guard d.ticks >= 0 else { throw .negativeDuration(d) }
        return d
    }

    /// A tween's delay: not negative.
    public static func validated(delay d: Time) throws(TimingError) -> Time {
        guard d.ticks >= 0 else { throw .negativeDelay(d) }
        return d
    }

    /// A tween's iteration start (`iteration-start F`): 0 or more, and finite.
    public static func validated(iterationStart f: Double) throws(TimingError) -> Double {
        guard f >= 0, f.isFinite else { throw .iterationStart(f) }
        return f
    }

    /// A tween's iteration count (`repeat N`): 0 or more, and finite.
    public static func validated(iterations n: Double) throws(TimingError) -> Double {
        guard n >= 0, n.isFinite else { throw .repeatCount(n) }
        return n
    }

    /// A playback rate (`speed R`): greater than 0, and finite.
    public static func validated(rate r: Double) throws(TimingError) -> Double {
        guard r > 0, r.isFinite else { throw .speed(r) }
        return r
    }

    // MARK: - Phases

    /// The phase of the tween at a local time (Web Animations "animation effect phases").
    public enum Phase: Hashable, Sendable {
        /// Before the active interval (t < 0): the tween shows its start.
        case before
        /// Inside the active interval.
        case active
        /// After the active interval: the tween shows its end.
        case after
    }

    /// The phase at local time `t`. `backwards` is the playback direction of whatever plays the
    /// tween (a reversed animation): it decides which phase owns the two boundary instants.
    /// Forwards, t = 0 is active and t = end is after; backwards, t = 0 is before and t = end active.
    public func phase(at t: Time, backwards: Bool = false) -> Phase {
        if t.ticks < 0 || (backwards && t.ticks == 0) { return .before }
        if let end = activeDuration, t > end || (!backwards && t == end) { return .after }
        return .active
    }

    // MARK: - Core calculations

    /// Everything the timing model says about one instant.
    public struct Sample: Hashable, Sendable {
        /// The phase.
        public var phase: Phase
        /// Iterations done, fractional, counted from 0 and shifted by `iterationStart`.
        public var overallProgress: Double
        /// Progress within the current iteration, in [0, 1]; 1.0 at the end of the active interval.
        public var simpleIterationProgress: Double
        /// The current iteration, 0-based (infinite after an endless zero-length tween).
        public var currentIteration: Double
        /// True when the current iteration runs forwards.
        public var isForwards: Bool
        /// The simple iteration progress turned by the current direction: the easing's input.
        public var directedProgress: Double
        /// The before flag for the easing (set in the before phase going forwards, or in the
        /// after phase going backwards).
        public var beforeFlag: Bool
    }

    /// The timing model at local time `t` (fill `both`).
    public func sample(at t: Time, backwards: Bool = false) -> Sample {
        let phase = phase(at: t, backwards: backwards)
        let n = iterations
        // At the end of the active interval the active time equals the active duration: in the
        // after phase (fill forwards), or in the active phase at t = end when playing backwards.
        let atEnd = phase == .after || (phase == .active && activeDuration.map { t == $0 } ?? false)

        // Overall progress: active time ÷ iteration duration, + iteration start.
        var overall: Double
        var holding = false
        if phase == .before {
            overall = 0                                  // active time is 0 in the before phase
        } else if iterationDuration.ticks == 0 || atEnd {
            overall = n                                  // d = 0: the iteration count; at the end: d·n ÷ d
        } else if repeatDelay.ticks > 0 {
            // GSAP's repeatDelay: iterations of d then a pause of R, holding where the iteration ended.
            let effect = Double(t.ticks) * rate, d = Double(iterationDuration.ticks)
            let k = (effect / (d + Double(repeatDelay.ticks))).rounded(.down)
            let within = effect - k * (d + Double(repeatDelay.ticks))
            holding = within >= d
            overall = min(holding ? k + 1 : k + within / d, n)
        } else {
            overall = min(Double(t.ticks) * rate / Double(iterationDuration.ticks), n)
        }
        overall += iterationStart

        // Simple iteration progress.
        var simple: Double
        if overall.isInfinite {
            simple = iterationStart - iterationStart.rounded(.down)
        } else {
            simple = overall - overall.rounded(.down)
        }
        if simple == 0 && (atEnd || holding) && n != 0 { simple = 1 }

        // Current iteration.
        let iteration: Double
        if phase == .after && n.isInfinite {
            iteration = .infinity
        } else if simple == 1 {
            iteration = overall.rounded(.down) - 1
        } else {
            iteration = overall.rounded(.down)
        }

        // Directed progress.
        let forwards: Bool
        switch direction {
        case .normal: forwards = true
        case .reverse: forwards = false
        case .alternate, .alternateReverse:
            let d = direction == .alternate ? iteration : iteration + 1
            forwards = d.isInfinite || d.truncatingRemainder(dividingBy: 2) == 0
        }
        let directed = forwards ? simple : 1 - simple
        let beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)
        return Sample(phase: phase, overallProgress: overall, simpleIterationProgress: simple,
                      currentIteration: iteration, isForwards: forwards, directedProgress: directed,
                      beforeFlag: beforeFlag)
    }

    /// The current iteration and the directed progress at local time `t`, playing forwards.
    public func progress(at t: Time) -> (iteration: Double, directed: Double) {
        let s = sample(at: t)
        return (s.currentIteration, s.directedProgress)
    }

    /// The eased progress at local time `t` (Web Animations "transformed progress"): the
    /// directed progress through `easing`, with the before flag for `steps`.
    public func transformedProgress(at t: Time, easing: Easing, backwards: Bool = false) -> Double {
        let s = sample(at: t, backwards: backwards)
        return easing(s.directedProgress, beforeFlag: s.beforeFlag)
    }
}

/// Why a tween's timing cannot be played, with the one wording of each reason.
public enum TimingError: Error, Hashable, Sendable {
    /// A duration below zero.
    case negativeDuration(Time)
    /// A delay below zero.
    case negativeDelay(Time)
    /// An iteration count below zero (or not a number).
    case repeatCount(Double)
    /// A rate of zero or less (or not a number).
    case speed(Double)
    /// An active duration past the clock's range (about 292 years).
    case beyondTheClock
    /// An iteration start below zero (or not finite).
    case iterationStart(Double)
    /// A repeat delay below zero.
    case negativeRepeatDelay(Time)

    /// The part of the tween the error is about.
    public enum Part: Hashable, Sendable {
        case duration, delay, iterations, speed, whole, iterationStart, repeatDelay
    }

    /// Which part is at fault: its expression is where the error points.
    public var part: Part {
        switch self {
        case .negativeDuration: .duration
        case .negativeDelay: .delay
        case .repeatCount: .iterations
        case .speed: .speed
        case .beyondTheClock: .whole
        case .iterationStart: .iterationStart
        case .negativeRepeatDelay: .repeatDelay
        }
    }

    /// The message.
    public var message: String {
        switch self {
        case .negativeDuration(let t): "a tween cannot last a negative time (\(t))"
        case .negativeDelay(let t): "a delay cannot last a negative time (\(t))"
        case .repeatCount(let n): "a repeat count must be 0 or more, not \(formatNumber(n))"
        case .speed(let r): "speed must be greater than 0, not \(formatNumber(r))"
        case .beyondTheClock: "this tween would end beyond the clock's range (about 292 years)"
        case .iterationStart(let f): "an iteration start must be 0 or more, not \(formatNumber(f))"
        case .negativeRepeatDelay(let t): "a repeat delay cannot last a negative time (\(t))"
        }
    }
}
