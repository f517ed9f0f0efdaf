// Interpreter+Tweens: a tween's or spring's life. At `begin` (after its delay) it reads its
// start values, resolves relative targets and keyframes, and takes its properties over from
// whatever writes them (GSAP `overwrite: "auto"`; a spring taking over a spring keeps its
// velocity). While it runs, reads of those properties sample it. At `end` it lands exactly on
// its final values and lets the properties go.

extension Interpreter {
    /// The value of a property now: its owner's sample, else the base value.
    public func currentValue(_ s: ShapeID, _ p: PropertyID) -> Value? { currentValue(PropertyKey(s, p)) }

    func currentValue(_ key: PropertyKey) -> Value? {
        if let o = owners[key] {
            if let r = o.renderingInstance { return render(r, key: key, at: localTime(r)) }
            return trackValue(Int(o.track), at: localTime(tracks[Int(o.track)].instance))
        }
        return scene.base(key)
    }

    /// The rate of change of a property per second of global time (zero when nothing moves it).
    func velocity(_ s: ShapeID, _ p: PropertyID) -> Value? {
        let key = PropertyKey(s, p)
        guard let current = currentValue(key) else { return nil }
        guard let o = owners[key] else { return Components.zero(like: current) }
        if let r = o.renderingInstance {
            // Replaying: a central difference over 1 ms of global time.
            let h = Time(ticks: 1_000_000)
            let a = Components.split(render(r, key: key, at: localTime(r, at: time - h)))
            let b = Components.split(render(r, key: key, at: localTime(r, at: time + h)))
            return Components.assemble(current, zip(a, b).map { ($1 - $0) / (2 * h.seconds) })
        }
        let m = trackMotion(Int(o.track))
        let v = m.velocity(at: localTime(m.instance))
        let scale = clockRate(m.instance)
        return Components.assemble(v, Components.split(v).map { $0 * scale })
    }

    /// How fast an instance's clock runs against global time.
    func clockRate(_ i: Int32) -> Double { instances[Int(i)].clock.rate }

    /// Makes `v` the property's value now (a `set`), taking it from whatever writes it.
    func writeProperty(_ s: ShapeID, _ p: PropertyID, _ v: Value, by instance: Int32) {
        let key = PropertyKey(s, p)
        release(key, by: instance)
        setBase(key, v)
    }

    /// Detaches a property from its writer, and remembers who writes it now.
    func release(_ key: PropertyKey, by instance: Int32) {
        if activityLog != nil { logRelease(key) }
        if let o = owners[key] {
            if o.segment >= 0 { trackOwned[Int(o.track)] = false }
            setOwner(key, nil)
        }
        if keepsWriters { lastWriter[key] = instance }
    }

    /// Hands a property to a new owner, detaching the old one (`release`, then `setOwner`).
    func take(_ key: PropertyKey, for owner: Owner, by instance: Int32) {
        if let old = owners.updateValue(owner, forKey: key), old.segment >= 0 { trackOwned[Int(old.track)] = false }
        if keepsWriters { lastWriter[key] = instance }
        if history != nil { dirty.insert(key) }
    }

    /// The error of a tween whose end is past the clock's range (about 292 years).
    func beyondTheClock(_ frame: Frame) -> RuntimeError {
        RuntimeError("this tween would end beyond the clock's range (about 292 years)",
                     at: instances[Int(frame.instance)].graph.nodes[Int(frame.node)].span)
    }

    /// A tween or spring begins: read start values, compute targets, take the properties.
    func begin(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        let now = localTime(inst)
        let s: Int32
        let active: Time?
        var isTween = true
        if let ref = instances[Int(inst)].graph.nodes[Int(frame.node)].plan {
            // Constant timing: nothing to evaluate, and the end is known now.
            let plan = instances[Int(inst)].graph.plans[Int(ref.plan)]
            active = plan.activeDuration
            // No end because it never ends, or because its end is past the clock's range.
            if active == nil && plan.timing.iterations.isFinite { throw beyondTheClock(frame) }
            s = try plannedSegment(f, plan, ref, now: now)
        } else {
            switch instances[Int(inst)].graph.nodes[Int(frame.node)].kind {
            case .tween(let spec):
                let timing = try tweenTiming(spec, env: frame.env)
                active = timing.activeDuration
                if active == nil && timing.iterations.isFinite { throw beyondTheClock(frame) }
                s = takeSegment(instance: inst, frame: f, room: spec.writes.count)
                do {
                    try tweenTracks(spec, segment: s, begin: now, motion: .tween(timing, spec.easing), ending: nil)
                } catch {
                    freeSegment(s)
                    throw error
                }
            case .spring(let spec):
                isTween = false
                s = takeSegment(instance: inst, frame: f, room: spec.writes.count)
                do {
                    active = try springTracks(spec, segment: s, begin: now)
                } catch {
                    freeSegment(s)
                    throw error
                }
            default:
                return
            }
        }
        frames[Int(f)].segment = s
        beginActivity(frame: f)
        for k in segments[Int(s)].tracks {
            let key = PropertyKey(tracks[k].shape, tracks[k].property)
            recordWrite(track: Int32(k), key: key)
            if overwrites != nil, isTween { noteOverwrite(key, by: f) }
            if activityLog != nil { logTake(key, frame: f) }
            take(key, for: Owner(segment: s, track: Int32(k)), by: inst)
        }
        guard let length = active else { return }  // forever: no end
        if length.ticks == 0 {
            endSegment(f)
            endActivity(frame: f)
            finish(f)
        } else {
            let span = instances[Int(inst)].graph.nodes[Int(frame.node)].span
            let end = try checkedEnd(inst, now, length, span: span, what: isTween ? "tween" : "spring")
            schedule(inst, local: end, node: frame.node, .end(f))
        }
    }

    /// The segment of a tween with a plan: its tracks start from the properties' values now
    /// and go to the plan's targets, or to its writes evaluated now when they are not constants.
    func plannedSegment(_ f: Int32, _ plan: TweenPlan, _ ref: PlanRef, now: Time) throws(RuntimeError) -> Int32 {
        let inst = frames[Int(f)].instance
        let motion = SegmentMotion.tween(plan.timing, plan.easing)
        var ending: TrackMotion.Ending?
        if let d = plan.activeDuration, let end = now.adding(d) { ending = TrackMotion.Ending(time: end, progress: plan.endProgress) }
        if ref.targetCount >= 0 {
            let targets = ref.targets..<ref.targets + ref.targetCount
            let s = takeSegment(instance: inst, frame: f, room: targets.count)
            if plannedTracks(targets, segment: s, begin: now, motion: motion, ending: ending) { return s }
            freeSegment(s)  // a shape lacks the property: the writes evaluated as usual report it
        }
        guard case .tween(let spec) = instances[Int(inst)].graph.nodes[Int(frames[Int(f)].node)].kind else {
            preconditionFailure("a plan belongs to a tween")
        }
        let s = takeSegment(instance: inst, frame: f, room: spec.writes.count)
        do {
            try tweenTracks(spec, segment: s, begin: now, motion: motion, ending: ending)
        } catch {
            freeSegment(s)
            throw error
        }
        return s
    }

    /// Takes a free segment slot for a frame, with room for `room` tracks (none added yet).
    func takeSegment(instance: Int32, frame: Int32, room: Int) -> Int32 {
        let s: Int32
        if let free = freeSegments.popLast() { s = free } else {
            segments.append(Segment(instance: -1, frame: -1, first: Int32(tracks.count), count: 0, capacity: 0))
            s = Int32(segments.count - 1)
        }
        var seg = segments[Int(s)]
        seg.instance = instance
        seg.frame = frame
        seg.count = 0
        if Int(seg.capacity) < room {
            // Outgrown (or new): a fresh run at the end of the pool; the old run is not reused.
            seg.first = Int32(tracks.count)
            seg.capacity = Int32(room)
            tracks.append(contentsOf: repeatElement(LiveTrack.placeholder, count: room))
            trackOwned.append(contentsOf: repeatElement(false, count: room))
        }
        segments[Int(s)] = seg
        return s
    }

    /// Adds a track to a segment being built (it has room).
    func addTrack(_ m: LiveTrack, to s: Int32) {
        let k = Int(segments[Int(s)].first + segments[Int(s)].count)
        // A boxed motion left by the slot's last occupant goes with it.
        if tracks[k].isBoxed && !m.isBoxed { boxedTracks[k] = nil }
        tracks[k] = m
        trackOwned[k] = true
        segments[Int(s)].count += 1
    }

    /// Adds any track: as plain data if it can be, else boxed.
    func addTrack(_ m: TrackMotion, to s: Int32) {
        if let live = LiveTrack(m) { return addTrack(live, to: s) }
        let k = Int(segments[Int(s)].first + segments[Int(s)].count)
        boxedTracks[k] = m
        addTrack(LiveTrack(boxing: m), to: s)
    }

    /// Pool track `k` as a TrackMotion.
    func trackMotion(_ k: Int) -> TrackMotion {
        tracks[k].isBoxed ? boxedTracks[k]! : tracks[k].trackMotion
    }

    /// The value of pool track `k` at local time `t`.
    func trackValue(_ k: Int, at t: Time) -> Value {
        tracks[k].isBoxed ? boxedTracks[k]!.value(at: t) : tracks[k].value(at: t)
    }

    /// The value of pool track `k` ending at local time `t`.
    func trackFinalValue(_ k: Int, at t: Time) -> Value {
        tracks[k].isBoxed ? boxedTracks[k]!.finalValue(at: t) : tracks[k].finalValue(at: t)
    }

    /// Gives a segment slot back: its tracks stay in the pool for the next occupant.
    func freeSegment(_ s: Int32) {
        segments[Int(s)].count = 0
        freeSegments.append(s)
    }

    /// The tracks of a tween whose targets are constants: each starts from the property's
    /// value now. False (and no tracks) if a shape lacks its property, which the general path
    /// then reports.
    func plannedTracks(_ targets: Range<Int32>, segment s: Int32, begin: Time, motion: SegmentMotion,
                       ending: TrackMotion.Ending?) -> Bool {
        let inst = segments[Int(s)].instance
        for k in targets {
            let t = instances[Int(inst)].graph.targets[Int(k)]
            guard let current = currentValue(t.shape, t.property) else {
                segments[Int(s)].count = 0
                return false
            }
            if let from = NumericValue(current) {
                addTrack(LiveTrack(instance: inst, shape: t.shape, property: t.property, begin: begin, motion: motion,
                                   ending: ending, from: from, to: t.value), to: s)
            } else {
                addTrack(TrackMotion(instance: inst, begin: begin, motion: motion, shape: t.shape, property: t.property,
                                     from: current, to: t.value.value, ending: ending), to: s)
            }
        }
        return true
    }

    /// The tracks of a tween, its writes evaluated now.
    func tweenTracks(_ spec: TweenSpec, segment s: Int32, begin: Time, motion: SegmentMotion,
                     ending: TrackMotion.Ending?) throws(RuntimeError) {
        let inst = segments[Int(s)].instance
        let env = frames[Int(segments[Int(s)].frame)].env
        for (k, w) in spec.writes.enumerated() {
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
            var start = current
            if let froms = spec.from { start = try eval(froms[k], env: env) }
            var m = TrackMotion(instance: inst, begin: begin, motion: motion, shape: shape, property: w.property,
                                from: start, to: start, ending: ending)
            if let frames = w.keyframes {
                try buildKeyframes(&m, frames, isPath: w.isPath, env: env, span: w.span)
            } else {
                m.to = try targetValue(w, start: start, env: env)
            }
            addTrack(m, to: s)
        }
    }

    /// The tracks of a spring: one closed-form motion per component of each property. Returns
    /// its settling time.
    func springTracks(_ spec: SpringSpec, segment s: Int32, begin: Time) throws(RuntimeError) -> Time {
        let inst = segments[Int(s)].instance
        let env = frames[Int(segments[Int(s)].frame)].env
        let params = try springParameters(spec.form, span: spec.span, env: env)
        var epsilon = 0.001
        if let e = spec.epsilon {
            epsilon = try number(e, env: env)
            guard epsilon > 0, epsilon < 1 else {
                throw RuntimeError("a spring's epsilon must be between 0 and 1, not \(formatNumber(epsilon))", at: e.span)
            }
        }
        let velocityValue = try spec.velocity.map { e throws(RuntimeError) in try eval(e, env: env) }
        var all: [SpringMotion] = []
        var made: [TrackMotion] = []
        for w in spec.writes {
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
            let target = try targetValue(w, start: current, env: env)
            let from = Components.split(current), to = Components.split(target)
            // Retargeting keeps the velocity the property has now; `velocity V` sets it otherwise.
            var v0 = [Double](repeating: 0, count: from.count)
            if let given = velocityValue {
                let g = Components.split(given)
                v0 = g.count == 1 ? [Double](repeating: g[0], count: from.count) : g
            } else if owners[PropertyKey(shape, w.property)] != nil, let v = velocity(shape, w.property) {
                v0 = Components.split(v)
            }
            // The settling time is known once every component's motion is: set below.
            var m = TrackMotion(instance: inst, begin: begin, motion: .spring(duration: .zero), shape: shape,
                                property: w.property, from: current, to: target)
            m.springs = (0..<from.count).map { SpringMotion(parameters: params, from: from[$0], to: to[$0], velocity: v0[$0]) }
            all += m.springs
            made.append(m)
        }
        guard let settle = SpringMotion.settlingDuration(of: all, epsilon: epsilon) else {
            throw RuntimeError("this spring would not settle within the clock's range", at: spec.span)
        }
        for var m in made {
            m.motion = .spring(duration: settle)
            addTrack(m, to: s)
        }
        return settle
    }

    func tweenTiming(_ spec: TweenSpec, env: Int32) throws(RuntimeError) -> TweenTiming {
        let d = try duration(spec.duration, env: env, what: "a tween")
        var iterations = 1.0
        if spec.forever { iterations = .infinity } else if let e = spec.iterations {
            iterations = try number(e, env: env)
            guard iterations >= 0, iterations.isFinite else {
                throw RuntimeError("a repeat count must be 0 or more, not \(formatNumber(iterations))", at: e.span)
            }
        }
        var rate = 1.0
        if let e = spec.speed {
            rate = try number(e, env: env)
            guard rate > 0, rate.isFinite else {
                throw RuntimeError("speed must be greater than 0, not \(formatNumber(rate))", at: e.span)
            }
        }
        return TweenTiming(iterationDuration: d, iterations: iterations, alternate: spec.yoyo, rate: rate)
    }

    func springParameters(_ form: SpringForm, span: Span, env: Int32) throws(RuntimeError) -> SpringParameters {
        func num(_ e: TypedExpr?, _ fallback: Double) throws(RuntimeError) -> Double {
            guard let e else { return fallback }
            return try number(e, env: env)
        }
        func secs(_ e: TypedExpr) throws(RuntimeError) -> Double { try duration(e, env: env, what: "a spring").seconds }
        let result: Result<SpringParameters, SpringError>
        switch form {
        case .standard:
            return .standard
        case .physical(let k, let c, let m):
            let (kk, cc, mm) = (try num(k, 0), try num(c, 0), try num(m, 1))
            result = Result { () throws(SpringError) in try SpringParameters(stiffness: kk, damping: cc, mass: mm) }
        case .duration(let d, let b):
            let (dd, bb) = (try secs(d), try num(b, 0))
            result = Result { () throws(SpringError) in try SpringParameters(duration: dd, bounce: bb) }
        case .response(let r, let z):
            // SwiftUI's `spring(response:dampingFraction:)` defaults the fraction to 0.825.
            let (rr, zz) = (try secs(r), try num(z, 0.825))
            result = Result { () throws(SpringError) in try SpringParameters(response: rr, dampingRatio: zz) }
        }
        switch result {
        case .success(let p): return p
        case .failure(let e): throw RuntimeError(e.message, at: span)
        }
    }

    /// Fills a track's keyframes (offsets default to even spacing after the start value).
    func buildKeyframes(_ track: inout TrackMotion, _ frames: [CheckedKeyframe], isPath: Bool, env: Int32, span: Span) throws(RuntimeError) {
        var values: [Value] = []
        for k in frames { values.append(try eval(k.value, env: env)) }
        if isPath {
            var pts: [Point] = []
            if case .point(let p) = track.from { pts.append(p) }
            for v in values { if case .point(let p) = v { pts.append(p) } }
            track.path = PathTrack(points: pts)
            track.to = values.last!
            return
        }
        var vs: [Value] = [track.from], easings: [Easing?] = [nil]
        var start = 0
        if frames.first?.offset == 0 {
            // `v at 0` replaces the start value.
            vs[0] = values[0]
            start = 1
        }
        let rest = Array(frames.indices.dropFirst(start))
        var given: [Double?] = [0] + rest.map { frames[$0].offset }
        for i in rest { vs.append(values[i]); easings.append(frames[i].easing) }
        let n = given.count - 1
        if n == 0 { given.append(1); vs.append(vs[0]); easings.append(nil) } else if given[n] == nil { given[n] = 1 }
        // Offsets left out are spread evenly between the given ones (as CSS does).
        var i = 1
        while i < given.count {
            if given[i] == nil {
                var j = i
                while given[j] == nil { j += 1 }
                let lo = given[i - 1]!, hi = given[j]!
                for k in i..<j { given[k] = lo + (hi - lo) * Double(k - i + 1) / Double(j - i + 1) }
                i = j
            }
            i += 1
        }
        let offsets = given.map { $0! }
        track.from = vs[0]
        track.keyframes = KeyframeTrack(offsets: offsets, values: vs, easings: easings)
        track.to = vs.last!
    }

    /// Lands the segment's owned properties on their final values and frees it.
    func endSegment(_ f: Int32) {
        let s = frames[Int(f)].segment
        guard s >= 0 else { return }
        let seg = segments[Int(s)]
        let t = localTime(seg.instance)
        for k in seg.tracks where trackOwned[k] {
            let key = PropertyKey(tracks[k].shape, tracks[k].property)
            setBase(key, trackFinalValue(k, at: t))
            if owners.removeValue(forKey: key, if: { $0.segment == s }) {
                if history != nil { dirty.insert(key) }
                if notesReleases { releasedKeys.append(key) }
            }
        }
        freeSegment(s)
        frames[Int(f)].segment = -1
    }

    /// The target of a write: absolute, or relative to the start value.
    func targetValue(_ w: PropertyWrite, start: Value, env: Int32) throws(RuntimeError) -> Value {
        let v = try eval(w.value, env: env)
        switch w.op {
        case .assign: return v
        case .add:
            do { return try ValueOps.binary(.add, start, v, span: w.span) } catch { throw RuntimeError(error) }
        case .subtract:
            do { return try ValueOps.binary(.subtract, start, v, span: w.span) } catch { throw RuntimeError(error) }
        }
    }

    func missingProperty(_ shape: ShapeID, _ w: PropertyWrite) -> RuntimeError {
        let s = scene.shapes[Int(shape.index)]
        return RuntimeError("\(s.kind.rawValue) '\(s.name)' has no property '\(propertyName(w.property))'", at: w.span)
    }

    /// A property's name (built-in or custom), for messages.
    func propertyName(_ p: PropertyID) -> String {
        propertyNames.indices.contains(Int(p.raw)) ? propertyNames[Int(p.raw)] : "#\(p.raw)"
    }
}

/// A tween taking a property over from a tween or spring still running (for `anim check`).
public struct Overwrite: Sendable {
    /// The property.
    public var key: PropertyKey
    /// When it happened.
    public var time: Time
    /// The step that was writing it.
    public var previous: Span
    /// The step that takes it over.
    public var next: Span
}

extension Interpreter {
    /// Notes a takeover of a running writer by another step (not a step retargeting itself).
    func noteOverwrite(_ key: PropertyKey, by f: Int32) {
        guard let o = owners[key], o.segment >= 0 else { return }
        let oldFrame = frames[Int(segments[Int(o.segment)].frame)]
        let newFrame = frames[Int(f)]
        let oldNode = instances[Int(oldFrame.instance)].graph.nodes[Int(oldFrame.node)]
        let newNode = instances[Int(newFrame.instance)].graph.nodes[Int(newFrame.node)]
        guard oldNode.span != newNode.span else { return }
        overwrites!.append(Overwrite(key: key, time: time, previous: oldNode.span, next: newNode.span))
    }
}

extension Interpreter {
    /// `start + length` in an instance's local time, if the end is still on the global clock.
    func checkedEnd(_ i: Int32, _ start: Time, _ length: Time, span: Span, what: String) throws(RuntimeError) -> Time {
        guard let end = start.adding(length), let g = globalTime(i, end), g < .max, g >= time || length.ticks == 0 else {
            throw RuntimeError("this \(what) would end beyond the clock's range (about 292 years)", at: span)
        }
        return end
    }
}
