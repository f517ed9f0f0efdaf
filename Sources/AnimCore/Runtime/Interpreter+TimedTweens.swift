// Interpreter+TimedTweens: tweens with the Web Animations timing beyond the plain one
// (`TweenSpec.fill`, `endDelay`, a negative delay): started with their timing evaluated when
// their step starts, begun at their delay (or at once when it is negative or they fill
// backwards), and landed at the earlier of their active end and their step's end.

extension Interpreter {

    /// Starts a tween with the Web Animations timing beyond the plain one (`TweenSpec.fill`,
    /// `endDelay`, a negative delay): its timing and end delay are evaluated when its step
    /// starts, so its end is known then. With `delay` D, active duration A and end delay E, the
    /// step ends at max(D + A + E, 0) after it starts (Web Animations "end time"); the tween
    /// lands at the earlier of D + A and that end, holding the value it has then; its active
    /// interval starts at D, before the step's start when D < 0. It begins (takes its
    /// properties) at D, or at once when D < 0 or it fills backwards, and shows its
    /// before-phase value until D.
    func startTimedTween(_ f: Int32, _ spec: TweenSpec, delay: Time, now: Time) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        let timing = try tweenTiming(spec, env: frame.env)
        let span = spec.span
        guard timing.activeDuration != nil else {
            if timing.iterations.isFinite { throw beyondTheClock(frame) }
            // Endless: no end, so the end delay does not matter.
            let origin = try timedOrigin(inst, now, delay, span: span)
            tweenRuns[f] = TweenRun(timing: timing, origin: origin, land: nil, end: nil, beneath: [])
            try beginTimed(f, spec, at: now, origin: origin, fillsBackwards: delay.ticks < 0 || spec.fill?.fillsBackwards == true)
            return
        }
        var endDelay = Time.zero
        if let e = spec.endDelay {
            guard case .time(let t) = try eval(e, env: frame.env) else { return }
            endDelay = t
        }
        guard let total = timing.endTime(delay: delay, endDelay: endDelay),
              let landing = timing.landingTime(delay: delay, endDelay: endDelay) else {
            throw RuntimeError("this tween would end beyond the clock's range (about 292 years)", at: span)
        }
        let origin = try timedOrigin(inst, now, delay, span: span)
        let end = try checkedEnd(inst, now, total, span: span, what: "tween")
        let land = origin + landing
        tweenRuns[f] = TweenRun(timing: timing, origin: origin, land: land, end: end, beneath: [])
        let backwards = delay.ticks < 0 || spec.fill?.fillsBackwards == true
        let beginsAt = backwards ? now : origin
        guard beginsAt <= end else {
            // It ends before it would begin: a negative end delay larger than the active duration
            // and a positive delay, without a backwards fill (the value stays as it is).
            beginActivity(frame: f)
            schedule(inst, local: end, node: frame.node, .end(f))
            return
        }
        if beginsAt > now {
            // `from V` shows V during the delay unless a `fill` says otherwise. A delay that
            // ends at the end (a zero duration, or an end delay that takes the active part
            // away) still begins there, before the end: its begin is queued first.
            if spec.from != nil, spec.fill == nil { try showFromValues(f, spec) }
            schedule(inst, local: beginsAt, node: frame.node, .begin(f))
            schedule(inst, local: end, node: frame.node, .end(f))
        } else {
            schedule(inst, local: end, node: frame.node, .end(f))
            try beginTimed(f, spec, at: now, origin: origin, fillsBackwards: backwards)
        }
    }

    /// A timed tween begins at `now`: its tracks' active interval starts at `origin`. It
    /// lands at once if its landing is now, else at its landing time (unless that is its end,
    /// when `.end` lands it).
    func beginTimed(_ f: Int32, _ spec: TweenSpec, at now: Time, origin: Time, fillsBackwards: Bool) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        guard let run = tweenRuns[f] else { return }
        let s = pool.takeSegment(instance: inst, frame: f, room: spec.trackCount)
        do {
            try tweenTracks(spec, segment: s, begin: origin, timing: pool.tables.intern(.tween(run.timing, spec.easing)), ending: nil)
        } catch {
            freeSegment(s)
            throw error
        }
        frames[Int(f)].segment = s
        beginActivity(frame: f)
        var beneath: [Value?] = []
        for k in pool.segments[Int(s)].tracks {
            let key = pool.tracks[k].key
            if spec.fill == FillMode.none || spec.fill == .backwards { beneath.append(currentValue(key)) }
            recordWrite(track: k)
            if overwrites != nil { noteOverwrite(key, by: f) }
            if recorder.activityLog != nil { logTake(key, frame: f) }
            take(key, for: Owner(segment: s, track: Int32(k)), by: inst)
        }
        tweenRuns[f]?.beneath = beneath
        guard let land = run.land, let end = run.end else { return }
        if land <= now {
            landTimed(f)
        } else if land < end {
            schedule(inst, local: land, node: frame.node, .land(f))
        }
    }

    /// Where a timed tween's active interval starts: `delay` after `now`, before it when the
    /// delay is negative.
    private func timedOrigin(_ inst: Int32, _ now: Time, _ delay: Time, span: Span) throws(RuntimeError) -> Time {
        if delay.ticks >= 0 { return try checkedEnd(inst, now, delay, span: span, what: "delay") }
        guard let origin = now.adding(delay) else {
            throw RuntimeError("this tween would start beyond the clock's range (about 292 years)", at: span)
        }
        return origin
    }

    /// A timed tween lands: each property takes the value it has now (its end value after its
    /// active interval, the value part-way with a negative end delay), or with `fill none` (and
    /// `backwards`) the value beneath, and the properties are let go.
    func landTimed(_ f: Int32) {
        let s = frames[Int(f)].segment
        guard s >= 0, let run = tweenRuns[f] else { return }
        let seg = pool.segments[Int(s)]
        let clock = instances[Int(seg.instance)].clock
        let t = clock(time)
        for (j, k) in seg.tracks.enumerated() where pool.owned[k] {
            let key = pool.tracks[k].key
            let landed: Value
            if !run.beneath.isEmpty, let b = run.beneath[j] { landed = b } else { landed = pool.tables.finalPropertyValue(pool.tracks[k], at: t) }
            let before = currentValue(key)
            scene.setBase(key.shape, key.property, pool.split.isEmpty ? landed : landingValue(key, landed))
            writes &+= 1
            if pool.owners.removeValue(forKey: key, if: { $0.segment == s }) {
                if !pool.split.isEmpty { tidySplit(key) }
                if notesReleases { releasedKeys.append(key) }
                // The log's track goes on past this instant: the landed value is a change.
                noteChange(key)
                if let before { recordSet(key, from: before, to: landed, instance: seg.instance) }
            } else if pool.owners[key] == nil {
                noteChange(key)
            }
        }
        freeSegment(s)
        frames[Int(f)].segment = -1
    }
}
