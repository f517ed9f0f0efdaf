// TweenPlan: the parts of a tween that are known before it runs, worked out once per graph by
// the GraphBuilder instead of at every start — its timing, its delay, its easing, where the
// easing leaves it at the end, and its targets when they are constants. The interpreter takes
// a node's plan where it has one and evaluates the tween's expressions where it has not; both
// give the same values (a plan is made only for a timing the checker decided and validated).

/// The constant timing of a tween. Tweens of a graph that share one (a chain of tweens of
/// the same duration and easing) share one plan.
public struct TweenPlan: Hashable, Sendable {
    /// The timing: duration, iterations, direction and rate.
    public var timing: TweenTiming
    /// The easing.
    public var easing: Easing
    /// The delay before it begins.
    public var delay: Time
    /// The active duration (nil: forever).
    public var activeDuration: Time?
    /// The eased progress at the end of the active interval, playing forwards: where an
    /// ending tween leaves its properties (1 for every easing but some `steps`).
    public var endProgress: Double

    /// One write's constant target.
    public struct Target: Hashable, Sendable {
        /// The shape written.
        public var shape: ShapeID
        /// The property written.
        public var property: PropertyID
        /// Its value at the end.
        var value: NumericValue
    }

    /// The plan of a checked tween, if the checker decided its timing (every part a constant).
    init?(_ spec: TweenSpec) {
        guard case .constant(let timing, let delay) = spec.timing else { return nil }
        self.timing = timing
        easing = spec.easing
        self.delay = delay ?? .zero
        activeDuration = timing.activeDuration
        endProgress = activeDuration.map { timing.transformedProgress(at: $0, easing: spec.easing) } ?? 0
    }

    /// Appends the targets of a tween's writes, if every one is `fixed.property = constant` with
    /// no keyframes or path, and the tween has no `from`: how many, or nil (none appended).
    static func appendTargets(of spec: TweenSpec, to targets: inout [Target]) -> Int? {
        guard spec.from == nil else { return nil }
        let first = targets.count
        for w in spec.writes {
            guard case .fixed(let shape) = w.shape, w.op == .assign, w.keyframes == nil, !w.isPath,
                  case .constant(let v) = w.value.node, let value = NumericValue(v) else {
                targets.removeSubrange(first...)
                return nil
            }
            targets.append(Target(shape: shape, property: w.property, value: value))
        }
        return spec.writes.count
    }
}

/// A tween node's plan and its constant targets in the graph.
public struct PlanRef: Hashable, Sendable {
    /// The plan, in the graph's `plans`.
    public var plan: Int32
    /// Where its targets start in the graph's `targets`.
    public var targets: Int32
    /// How many targets (-1: its writes are evaluated when it begins).
    public var targetCount: Int32
}
