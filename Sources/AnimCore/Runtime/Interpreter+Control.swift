// Interpreter+Control: pause, resume, seek, reverse and interrupt of named steps, and the
// replay that reversing and seeking back need. The one rule (Grammar.md, "Control"): playing,
// forward or reversed, fires every action whose instant the playhead crosses, exactly once;
// seeking jumps without firing actions, and the state after a seek equals the state reached by
// playing there. An instance replays from its recording until the playhead is back at the
// frontier of live play, where live play takes over again.

extension Interpreter {
    /// Carries out `pause`, `resume`, `seek`, `reverse` or `interrupt` on the latest run of a name.
    func control(_ c: ControlSpec, env: Int32) throws(RuntimeError) {
        try controlClock(c, env: env)
        // A run's clock may have changed: `after NAME - D` blocks placed ahead of its end move.
        if !steps.early.isEmpty || !steps.waiters.isEmpty { replaceRelativeWaits() }
    }

    /// The statement's effect on the run's clock (`control`).
    private func controlClock(_ c: ControlSpec, env: Int32) throws(RuntimeError) {
        if c.verb == .seek, c.time == nil { try seekToStart(of: c); return }
        guard let run = steps.runs[c.name] else {
            let what = c.verb == .speed ? "change the speed of" : c.verb.rawValue
            throw RuntimeError("cannot \(what) '\(c.nameText)': it has not started", at: c.span,
                               help: "start it first, or use 'after \(c.nameText) < ... >' / 'with \(c.nameText) < ... >'")
        }
        let i = run.instance
        switch c.verb {
        case .pause:
            guard !instances[Int(i)].paused else { return }
            if !pinAtRest(i) { reanchor(i) }
            instances[Int(i)].paused = true
            refreshClocks(i)
            retime(i)
        case .resume:
            guard instances[Int(i)].paused else { return }
            if !pinAtRest(i) { reanchor(i) }
            instances[Int(i)].paused = false
            refreshClocks(i)
            retime(i)
        case .interrupt:
            let wasRunning = instances[Int(i)].running
            cancel(instance: Int(i))
            // It counts as ended now for the chain, play or repeat holding it too, which goes on
            // (it would otherwise wait for good, and a later `reverse` back to the start would
            // set it going then).
            let pf = instances[Int(i)].parentFrame, p = instances[Int(i)].parent
            if wasRunning, pf >= 0, p >= 0, instances[Int(p)].running { childInstanceEnded(i, frame: pf) }
        case .reverse:
            reverse(i)
        case .seek:
            guard let e = c.time, case .time(let t) = try eval(e, env: env) else { return }
            if t.ticks < 0 { throw RuntimeError("cannot seek to a negative time (\(t))", at: e.span) }
            try seek(i, to: t)
        case .speed:
            guard let e = c.time else { return }
            let r = try number(e, env: env)
            guard r > 0, r.isFinite else {
                throw RuntimeError("speed must be greater than 0, not \(formatNumber(r))", at: e.span)
            }
            setSpeed(i, r)
        case .save, .restore:
            break
        }
    }

    // MARK: - Seeking to a step

    /// `seek NAME` with no time (GSAP's `tl.seek("label")`): moves the playhead of the run
    /// holding the step NAME to the step's start, in that run's local time. A step that has run
    /// gives the start of its latest run; one that has not started yet, the start its graph gives
    /// it before the run (the durations before it must be known, §5.6). A named top-level graph
    /// holds itself: it is sought to 0.
    func seekToStart(of c: ControlSpec) throws(RuntimeError) {
        if let run = steps.runs[c.name] {
            let i = run.instance, p = instances[Int(i)].parent
            if p < 0 { try seek(i, to: .zero) } else { try seek(p, to: instances[Int(i)].startInParent) }
            return
        }
        for i in stride(from: Int32(instances.count - 1), through: 0, by: -1) where instances[Int(i)].start <= time {
            let g = graphs[Int(instances[Int(i)].graph)]
            guard let found = stepStart(c.name, in: g, node: NodeID(Int(instances[Int(i)].root)), at: .zero) else { continue }
            guard let t = found else {
                throw RuntimeError("cannot seek to '\(c.nameText)': it has not started, and where it starts is known only when it runs",
                                   at: c.span, help: "seek to it once it has started, or give the time: 'seek NAME T'")
            }
            try seek(i, to: t)
            return
        }
        throw RuntimeError("cannot seek to '\(c.nameText)': it has not started", at: c.span,
                           help: "start the chain that holds it first, or use 'after \(c.nameText) < ... >' / 'with \(c.nameText) < ... >'")
    }

    /// Where the named step `name` starts below `node` of graph `g`, in the local time of the
    /// instance running `node`, given that `node` starts at `start`: nil when the step is not
    /// there (or inside another named step, which is an instance of its own); `.some(nil)`
    /// when it is there but its start is not known before the run (a duration before it is
    /// dynamic, or it is inside a repeat, a stagger, an `after`/`with`, an `if` or a `choose`).
    func stepStart(_ name: StepNameID, in g: SequencerGraph, node: NodeID, at start: Time?) -> Time?? {
        let n = g[node]
        switch n.kind {
        case .spawn:
            return n.name == name ? .some(start) : nil
        case .sequence(let list):
            var t = start
            for c in g[list] {
                if let found = stepStart(name, in: g, node: c, at: t) { return found }
                if case .exact(let d) = g[c].duration, let u = t { t = u.adding(d) } else { t = nil }
            }
            return nil
        case .parallel(let list), .select(.any, chains: let list):
            // `any` starts every chain at once, as a parallel block does.
            for c in g[list] { if let found = stepStart(name, in: g, node: c, at: start) { return found } }
            return nil
        case .repeat, .stagger, .relative, .conditional, .select(.choose, chains: _):
            for c in g.children(of: node) where stepStart(name, in: g, node: c, at: nil) != nil { return .some(nil) }
            return nil
        case .tween, .wait, .action, .spring, .play:
            return nil
        }
    }

    /// Lets an instance whose graph holds named steps below its root be sought back (`seek
    /// NAME` jumps it to one of them): it records what it plays, as named instances do.
    func recordIfHoldingNamedSteps(_ i: Int32) {
        guard instances[Int(i)].recording < 0, instances[Int(i)].root == 0 else { return }
        let g = graphs[Int(instances[Int(i)].graph)]
        if g.nodes.dropFirst().contains(where: { if case .spawn = $0.kind { true } else { false } }) { enableRecording(i) }
    }

    /// `speed NAME R`: the run's own rate is R from now on (GSAP `timeScale(R)`, Web Animations
    /// `updatePlaybackRate`): its clock is re-anchored at now, so local time so far is kept and
    /// runs at R × its parent's clock from here, with its children's and its events' times
    /// recomputed. A paused run keeps the rate for its resume; a reversed one keeps running
    /// backward at R.
    func setSpeed(_ i: Int32, _ r: Double) {
        guard instances[Int(i)].speed != r else { return }
        if !pinAtRest(i) { reanchor(i) }
        instances[Int(i)].speed = r
        refreshClocks(i)
        retime(i)
    }

    /// Pins the clock of a run that has ended (finished or interrupted) and does not replay at
    /// the instant it ended, where its playhead rests (`enterReplay` reads it there), and says
    /// whether it did. A pause, resume or speed change of an ended run then changes its rate
    /// without moving that rest point: re-anchoring at now would carry the playhead on past
    /// where the run stopped by the time elapsed since (or, paused, hold it there).
    func pinAtRest(_ i: Int32) -> Bool {
        let inst = instances[Int(i)]
        guard !inst.running, inst.replay == nil, let end = inst.end else { return false }
        instances[Int(i)].anchorLocal = localTime(i, at: end)
        instances[Int(i)].anchorParent = inst.parent >= 0 ? localTime(inst.parent, at: end) : end
        refreshClocks(i)
        return true
    }

    /// Plays an instance in the other direction from where it is.
    func reverse(_ i: Int32) {
        if instances[Int(i)].replay == nil { enterReplay(i) }
        reanchor(i)
        instances[Int(i)].direction = -instances[Int(i)].direction
        refreshClocks(i)
        markClockChange(subtree(i))  // the history and activity log see the new direction
        restartRun(i)
        scheduleReplay(i)
    }

    /// Marks a finished instance as running again (it replays), so `wait NAME` waits for it.
    func restartRun(_ i: Int32) {
        guard !instances[Int(i)].running else { return }
        if instances[Int(i)].replay != nil { claim(i) }
        instances[Int(i)].running = true
        instances[Int(i)].end = nil
        if let name = instances[Int(i)].name, steps.runs[name]?.instance == i { steps.runs[name]?.end = nil }
        let p = instances[Int(i)].parent
        if p >= 0, !instances[Int(p)].children.contains(i) { instances[Int(p)].children.append(i) }
    }

    /// Moves an instance's playhead to local time `t` without firing actions.
    func seek(_ i: Int32, to t: Time) throws(RuntimeError) {
        let inst = instances[Int(i)]
        if inst.replay == nil {
            // A run that has ended rests where it ended, however long ago: even a seek ahead of
            // its clock now starts from there (its recording), and one at or past that point
            // finishes it there again.
            if inst.running || inst.recording < 0 {
                let now = localTime(i)
                if t >= now { try fastForward(i, to: t); return }
            }
            enterReplay(i)
        }
        if t > instances[Int(i)].frontier && !(instances[Int(i)].replay?.liveFinished ?? false) {
            // Past the frontier: catch up with live play, then run live to t.
            setLocal(i, instances[Int(i)].frontier)
            exitReplay(i)
            try fastForward(i, to: t)
            return
        }
        let end = instances[Int(i)].frontier
        setLocal(i, min(t, end))
        restartRun(i)
        scheduleReplay(i)
    }

    /// Re-anchors so the instance's clock shows `t` now.
    func setLocal(_ i: Int32, _ t: Time) {
        instances[Int(i)].anchorLocal = t
        instances[Int(i)].anchorParent = parentClockNow(i)
        refreshClocks(i)
        retime(i)
    }

    // MARK: - Replay

    /// Switches an instance from live play to its recording: live events wait, and the
    /// properties it wrote are rendered from the recording.
    func enterReplay(_ i: Int32) {
        let inst = instances[Int(i)]
        guard inst.replay == nil, inst.recording >= 0 else { return }
        // A finished run's playhead rests at its end, however long ago that was.
        var frontier = localTime(i)
        if !inst.running, let end = inst.end {
            frontier = localTime(i, at: end)
            instances[Int(i)].anchorLocal = frontier
            instances[Int(i)].anchorParent = parentClockNow(i)
        }
        // A run interrupted while it replayed rests where it was stopped, but live play had
        // reached its old frontier: replaying forward goes on to there. (Otherwise the old
        // frontier is at most where live play is now.)
        instances[Int(i)].frontier = max(frontier, inst.frontier)
        instances[Int(i)].replay = ReplayState(liveFinished: !inst.running)
        refreshClocks(i)
        retime(i)  // parks the live events of the subtree
        suspendActivities(i)
        claim(i)
    }

    /// A replaying instance renders the properties it wrote, except those someone outside has
    /// taken over since (GSAP's overwrite).
    func claim(_ i: Int32) {
        let r = instances[Int(i)].recording
        for key in r >= 0 ? recordings[Int(r)].log.keys : [] {
            if let w = pool.lastWriter[key], !isDescendant(w, of: i) { continue }
            setOwner(key, .render(i))
        }
    }

    /// Switches back to live play at the frontier.
    func exitReplay(_ i: Int32) {
        guard instances[Int(i)].replay != nil else { return }
        let frontier = instances[Int(i)].frontier
        let sub = subtree(i)
        for (key, o) in pool.owners where o.renderingInstance == i {
            setOwner(key, nil)
            setBase(key, render(i, key: key, at: frontier))
        }
        instances[Int(i)].replay = nil
        refreshClocks(i)
        resumeActivities(i)
        // Live tracks still running take their properties back.
        for (s, seg) in pool.segments.enumerated() where seg.count > 0 && sub.contains(seg.instance) {
            for k in seg.tracks where pool.owned[k] {
                let key = pool.tracks[k].key
                if let w = pool.lastWriter[key], !isDescendant(w, of: i) { continue }
                setOwner(key, Owner(segment: Int32(s), track: Int32(k)))
            }
        }
        _ = scheduler.queue.extract { e in
            if case .replayAction(let x, _) = e.action { return x == i }
            if case .replayLimit(let x) = e.action { return x == i }
            return false
        }
        retime(i)
    }

    /// Queues the recorded actions the playhead will cross from here, and where replay stops.
    /// `inclusive`: an action at the playhead's own instant fires too (a fresh reversed play starts
    /// at its end, where its last actions are).
    func scheduleReplay(_ i: Int32, inclusive: Bool = false) {
        noteReplayChange(i)
        _ = scheduler.queue.extract { e in
            if case .replayAction(let x, _) = e.action { return x == i }
            if case .replayLimit(let x) = e.action { return x == i }
            return false
        }
        scheduler.parked.removeAll { e in
            if case .replayAction(let x, _) = e.action { return x == i }
            if case .replayLimit(let x) = e.action { return x == i }
            return false
        }
        guard instances[Int(i)].recording >= 0 else { return }
        let actions = recordings[Int(instances[Int(i)].recording)].actions
        let now = localTime(i)
        let frontier = instances[Int(i)].frontier
        if instances[Int(i)].direction < 0 {
            for k in actions.indices.reversed() where (actions[k].time < now || inclusive && actions[k].time == now)
                && actions[k].time >= .zero {
                schedule(i, local: actions[k].time, node: 0, .replayAction(i, Int32(k)))
            }
            schedule(i, local: .zero, node: 0, .replayLimit(i))
        } else {
            for k in actions.indices where actions[k].time > now && actions[k].time <= frontier {
                schedule(i, local: actions[k].time, node: 0, .replayAction(i, Int32(k)))
            }
            schedule(i, local: frontier, node: 0, .replayLimit(i))
        }
    }

    /// A replaying instance crosses a recorded print or expect: it fires again.
    func replayAction(_ i: Int32, _ k: Int) throws(RuntimeError) {
        guard instances[Int(i)].recording >= 0 else { return }
        let a = recordings[Int(instances[Int(i)].recording)].actions[k]
        let env = newEnv(a.env)
        defer { freeEnvs.append(env) }
        logReplayedAction(i, activity: a.activity)
        switch a.spec {
        case .print(let e):
            let v = try eval(e, env: env)
            if !silent { sink.emit(.print(time: time, text: describe(v))) }
        case .expect(let x):
            if !silent { try check(x, env: env) }
        default:
            break
        }
    }

    /// Replay reached its start (reversed) or the frontier (forward).
    func replayLimit(_ i: Int32) {
        let inst = instances[Int(i)]
        if inst.direction < 0 {
            // Back at the start: the properties hold their start values, and the run is over.
            for (key, o) in pool.owners where o.renderingInstance == i {
                setOwner(key, nil)
                setBase(key, render(i, key: key, at: .zero))
            }
            instances[Int(i)].running = false
            instances[Int(i)].end = time
            noteEnd(i)
            endInParent(i)
            return
        }
        if inst.replay?.liveFinished == true {
            // Forward to the end of a run that had finished: it finishes again.
            for (key, o) in pool.owners where o.renderingInstance == i {
                setOwner(key, nil)
                setBase(key, render(i, key: key, at: inst.frontier))
            }
            instances[Int(i)].running = false
            instances[Int(i)].end = time
            noteEnd(i)
            endInParent(i)
            return
        }
        exitReplay(i)
    }

    /// A replaying instance ended: the frame of its parent waiting for it goes on, if that
    /// parent still runs. One interrupted (or ended) since keeps its frames as they were, so
    /// the chain it held stays stopped: reversing or seeking a step of an interrupted run does
    /// not set the rest of that run going again.
    func endInParent(_ i: Int32) {
        let inst = instances[Int(i)]
        guard inst.parentFrame >= 0, inst.parent >= 0, instances[Int(inst.parent)].running else { return }
        childInstanceEnded(i, frame: inst.parentFrame)
    }

    /// The next pass of a yoyo repeat: the recorded pass again, in the other direction.
    func restartYoyo(_ child: Int32, pass: Int, inclusive: Bool = false) {
        if instances[Int(child)].replay == nil { enterReplay(child) }
        reanchor(child)
        instances[Int(child)].direction = pass % 2 == 1 ? -1 : 1
        refreshClocks(child)
        restartRun(child)
        scheduleReplay(child, inclusive: inclusive)
    }

    /// `play NAME(...) reversed`: play the child silently to its end now, then replay it backward.
    func playReversed(_ child: Int32) throws(RuntimeError) {
        let inst = instances[Int(child)]
        if case .forever = graphs[Int(inst.graph)].nodes[Int(inst.root)].duration {
            throw RuntimeError("cannot play a sequence that never ends reversed", at: graphs[Int(inst.graph)].nodes[Int(inst.root)].span)
        }
        try fastForward(child, to: .max)
        if instances[Int(child)].running {
            throw RuntimeError("cannot play this sequence reversed: it waits for a step outside it",
                               at: graphs[Int(inst.graph)].nodes[Int(inst.root)].span)
        }
        restartYoyo(child, pass: 1, inclusive: true)
    }

    /// Plays an instance's own events up to its local time `t` at once, without printing or
    /// checking (its actions are still recorded), then holds its clock at `t`.
    func fastForward(_ i: Int32, to t: Time) throws(RuntimeError) {
        let wasSilent = silent
        silent = true
        defer { silent = wasSilent }
        recorder.activityLog?.jumping += 1
        defer { recorder.activityLog?.jumping -= 1 }
        while true {
            var pending = scheduler.queue.extract { self.isDescendant($0.key.instance, of: i) }
                + takeParked { self.isDescendant($0.key.instance, of: i) }
            guard !pending.isEmpty else { break }
            var best = 0
            var bestLocal = ancestorLocal(pending[0].key.instance, pending[0].local, ancestor: i)
            for k in 1..<pending.count {
                let l = ancestorLocal(pending[k].key.instance, pending[k].local, ancestor: i)
                if l < bestLocal || (l == bestLocal && pending[k].key < pending[best].key) { best = k; bestLocal = l }
            }
            let e = pending.remove(at: best)
            scheduler.parked.append(contentsOf: pending)
            if bestLocal > t { scheduler.parked.append(e); break }
            instances[Int(i)].anchorLocal = bestLocal
            instances[Int(i)].anchorParent = parentClockNow(i)
            refreshClocks(i)
            try handle(e)
        }
        let target = t == .max ? localTime(i) : t
        instances[Int(i)].anchorLocal = target
        instances[Int(i)].anchorParent = parentClockNow(i)
        refreshClocks(i)
        retime(i)
    }

    func takeParked(_ take: (QueuedEvent) -> Bool) -> [QueuedEvent] {
        var taken: [QueuedEvent] = [], kept: [QueuedEvent] = []
        for e in scheduler.parked { if take(e) { taken.append(e) } else { kept.append(e) } }
        scheduler.parked = kept
        return taken
    }

    func isDescendant(_ x: Int32, of i: Int32) -> Bool {
        var y = x
        while y >= 0 { if y == i { return true }; y = instances[Int(y)].parent }
        return false
    }

    /// Converts a descendant's local time to an ancestor's local time.
    func ancestorLocal(_ x: Int32, _ local: Time, ancestor: Int32) -> Time {
        var clock = local
        var y = x
        while y != ancestor && y >= 0 {
            clock = instances[Int(y)].parentClock(clock) ?? clock
            y = instances[Int(y)].parent
        }
        return clock
    }
}

