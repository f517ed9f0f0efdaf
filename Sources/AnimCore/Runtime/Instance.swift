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
    func localTime(_ i: Int32, at t: Time? = nil) -> Time {
        var chain: [Int32] = []
        var x = i
        while x >= 0 { chain.append(x); x = instances[Int(x)].parent }
        var clock = t ?? time
        for y in chain.reversed() { clock = instances[Int(y)].local(clock) }
        return clock
    }

    /// The global time at which an instance's clock shows `local`; nil if a clock on the way is stopped.
    func globalTime(_ i: Int32, _ local: Time) -> Time? {
        var clock = local
        var x = i
        while x >= 0 {
            guard let c = instances[Int(x)].parentClock(clock) else { return nil }
            clock = c
            x = instances[Int(x)].parent
        }
        return clock
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
            var x = e.key.instance
            while x >= 0 {
                if instances[Int(x)].replay != nil { return true }
                x = instances[Int(x)].parent
            }
            return false
        }
    }
}
