// Instance: one started graph (or a child graph: a `play`, a named nested chain, a yoyo pass)
// and its clock. An instance's local time is an affine map of its parent's clock — the global
// clock for top-level graphs — so pausing, speeding or reversing a parent carries its children.

/// A graph in play.
struct Instance {
    var graph: SequencerGraph
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
    var end: Time?
    /// Clock: local = anchorLocal + (parentClock − anchorParent) × rate.
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
    /// What it has played, kept for instances that can be reversed or sought.
    var recording: Recording?
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

    /// Local time for a parent clock value.
    func local(_ parentClock: Time) -> Time {
        let r = rate
        let d = parentClock - anchorParent
        if r == 1 { return anchorLocal + d }
        if r == 0 { return anchorLocal }
        if r == -1 { return anchorLocal - d }
        return anchorLocal + Time(ticks: Int64((Double(d.ticks) * r).rounded(.toNearestOrAwayFromZero)))
    }

    /// Parent clock value for a local time; nil if the clock is stopped.
    func parentClock(_ local: Time) -> Time? {
        let r = rate
        let d = local - anchorLocal
        if r == 1 { return anchorParent + d }
        if r == 0 { return nil }
        if r == -1 { return anchorParent - d }
        let x = (Double(d.ticks) / r).rounded(.toNearestOrAwayFromZero)
        guard x.isFinite, abs(x) < 9e18 else { return nil }
        return anchorParent + Time(ticks: Int64(x))
    }
}

extension Interpreter {
    /// An instance's local time at global time `t` (default: now).
    @inline(__always)
    func localTime(_ i: Int32, at t: Time? = nil) -> Time {
        instances[Int(i)].clock(t ?? time)
    }

    /// The global time at which an instance's clock shows `local`; nil if its clock is stopped.
    func globalTime(_ i: Int32, _ local: Time) -> Time? {
        let c = instances[Int(i)].clock
        let d = local - c.local
        if c.rate == 1 { return c.global.adding(d) }
        if c.rate == 0 { return nil }
        if c.rate == -1 { return c.global.adding(Time(ticks: 0) - d) }
        let x = (Double(d.ticks) / c.rate).rounded(.toNearestOrAwayFromZero)
        guard x.isFinite, abs(x) < 9e18 else { return nil }
        return c.global.adding(Time(ticks: Int64(x)))
    }

    /// Recomposes the clocks of an instance and its descendants after its own clock changed.
    func refreshClocks(_ i: Int32) {
        var stack = [i]
        while let x = stack.popLast() {
            let inst = instances[Int(x)]
            if inst.parent < 0 {
                instances[Int(x)].clock = ClockMap(global: inst.anchorParent, local: inst.anchorLocal, rate: inst.rate)
                instances[Int(x)].replayingChain = inst.replay != nil
            } else {
                let parent = instances[Int(inst.parent)]
                let p = parent.clock
                instances[Int(x)].clock = ClockMap(global: p.global, local: inst.local(p.local), rate: p.rate * inst.rate)
                instances[Int(x)].replayingChain = inst.replay != nil || parent.replayingChain
            }
            stack.append(contentsOf: instances[Int(x)].children)
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
    /// clock change: events of stopped clocks are parked, the rest requeued.
    func retime(_ i: Int32) {
        let sub = subtree(i)
        markClockChange(sub)
        var moving = queue.extract { sub.contains($0.key.instance) }
        var keep: [QueuedEvent] = []
        for e in parked { if sub.contains(e.key.instance) { moving.append(e) } else { keep.append(e) } }
        parked = keep
        for e in moving {
            if isReplayParked(e) { parked.append(e); continue }
            if !isParked(e.key.instance), let g = globalTime(e.key.instance, e.local) {
                queue.reinsert(e, at: max(g, time))
            } else {
                parked.append(e)
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
