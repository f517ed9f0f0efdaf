// Instance: one started graph (or a child graph: a `play`, a named nested chain, a yoyo pass)
// and its clock. An instance's local time is an affine map of its parent's clock — the global
// clock for top-level graphs — so pausing, speeding or reversing a parent carries its children.

/// A graph in play.
struct Instance {
    /// Its graph, in `Interpreter.graphs`.
    var graph: Int32
    /// The node the instance runs (0 for a whole graph, a subtree for a named nested chain).
    var root: Int32
    var rootFrame: Int32
    var env: Int32
    /// The parent instance, or -1.
    var parent: Int32
    /// The parent's frame waiting for this instance to end, or -1.
    var parentFrame: Int32
    /// The node of the parent's graph that started it (that frame's node), or -1.
    var parentNode: Int32 = -1
    /// Its `as` name.
    var name: StepNameID?
    var running: Bool
    /// Global start and end.
    var start: Time
    /// The parent's clock when it started (its start in the parent's local time): where
    /// `seek NAME` with no time puts the parent's playhead.
    var startInParent: Time = .zero
    var end: Time?
    /// Clock: local = anchorLocal + (parentClock − anchorParent) × rate (`anchor`).
    var anchorLocal: Time
    var anchorParent: Time
    /// Playback rate of its own (`speed`), > 0.
    var speed: Double
    /// +1 forward, −1 backward.
    var direction: Double
    var paused: Bool
    /// Nesting depth below its top-level instance.
    var depth: Int
    /// Running child instances.
    var children: [Int32] = []
    /// What it has played, for instances that can be reversed or sought: its index in
    /// `Interpreter.recordings` (−1: none).
    var recording: Int32 = -1
    /// Set while it plays from its recording instead of live.
    var replay: ReplayState?
    /// The local time live play has reached (valid while replaying).
    var frontier: Time = .zero
    /// The whole chain of clocks from global time to this one, composed (kept up to date by
    /// `refreshClocks`), so reading local time costs the same at any nesting depth.
    var clock = ClockMap(global: .zero, local: .zero, rate: 1)
    /// Whether it or an ancestor replays (its live events wait); kept by `refreshClocks`.
    var replayingChain = false
    /// The instances recording what it does: its recording ancestors and itself, outermost first.
    var recorders: [Int32] = []

    /// The rate of the local clock against the parent's clock.
    var rate: Double { paused ? 0 : speed * direction }

    /// The map from the parent's clock to the local one.
    var anchor: ClockMap { ClockMap(global: anchorParent, local: anchorLocal, rate: rate) }

    /// Parent clock value for a local time; nil if the clock is stopped.
    func parentClock(_ local: Time) -> Time? { anchor.inverse(local) }
}

extension Interpreter {
    /// An instance's local time at global time `t` (default: now).
    @inline(__always)
    func localTime(_ i: Int32, at t: Time? = nil) -> Time {
        instances[Int(i)].clock(t ?? time)
    }

    /// The global time at which an instance's clock shows `local`; nil if its clock is stopped.
    func globalTime(_ i: Int32, _ local: Time) -> Time? { instances[Int(i)].clock.inverse(local) }

    /// Recomposes the clocks of an instance and its descendants after its own clock changed:
    /// each composed clock is its parent's followed by its own anchor.
    func refreshClocks(_ i: Int32) {
        composeClock(i)
        guard !instances[Int(i)].children.isEmpty else { return }
        var stack = instances[Int(i)].children
        while let x = stack.popLast() {
            composeClock(x)
            stack.append(contentsOf: instances[Int(x)].children)
        }
    }

    /// Composes one instance's clock from its parent's.
    @inline(__always)
    private func composeClock(_ x: Int32) {
        let p = instances[Int(x)].parent
        let replaying = instances[Int(x)].replay != nil
        if p < 0 {
            instances[Int(x)].clock = instances[Int(x)].anchor
            instances[Int(x)].replayingChain = replaying
        } else {
            instances[Int(x)].clock = instances[Int(p)].clock.then(instances[Int(x)].anchor)
            instances[Int(x)].replayingChain = replaying || instances[Int(p)].replayingChain
        }
    }

    /// The parent clock of an instance now (global time for top-level instances).
    func parentClockNow(_ i: Int32) -> Time {
        let p = instances[Int(i)].parent
        return p >= 0 ? localTime(p) : time
    }

    /// Re-anchors an instance at now, so a change of rate takes effect from this instant.
    func reanchor(_ i: Int32) {
        let l = localTime(i)
        instances[Int(i)].anchorLocal = l
        instances[Int(i)].anchorParent = parentClockNow(i)
        refreshClocks(i)
    }

    /// Recomputes the global times of every event of an instance and its descendants after a
    /// clock change: events of stopped clocks are scheduler.parked, the rest requeued.
    func retime(_ i: Int32) {
        let sub = subtree(i)
        markClockChange(sub)
        var moving = scheduler.queue.extract { sub.contains($0.key.instance) }
        var keep: [QueuedEvent] = []
        for e in scheduler.parked { if sub.contains(e.key.instance) { moving.append(e) } else { keep.append(e) } }
        scheduler.parked = keep
        for e in moving {
            if isReplayParked(e) { scheduler.parked.append(e); continue }
            if !isParked(e.key.instance), let g = globalTime(e.key.instance, e.local) {
                scheduler.queue.reinsert(e, at: max(g, time))
            } else {
                scheduler.parked.append(e)
            }
        }
    }

    /// Whether an event belongs to live play of an instance that is replaying (it waits for the
    /// replay to come back to the frontier).
    func isReplayParked(_ e: QueuedEvent) -> Bool {
        switch e.action {
        case .replayAction, .replayLimit: return false
        default:
            return instances[Int(e.key.instance)].replayingChain
        }
    }
}
