// Interpreter+Tweens: a tween's or spring's life. At `begin` (after its delay) it reads its
// start values, resolves relative targets and keyframes, and takes its properties over from
// whatever writes them (Interpreter+Owners). While it runs, reads of those properties sample
// it. At `end` it lands exactly on its final values and lets the properties go. The Web
// Animations timing beyond the plain one (fill, end delay, negative delay) is
// Interpreter+TimedTweens.

extension Interpreter {
    /// A tween or spring begins: read start values, compute targets, take the properties.
    func begin(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        let now = localTime(inst)
        if !tweenRuns.isEmpty, let run = tweenRuns[f],
           case .tween(let spec) = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frame.node)].kind {
            try beginTimed(f, spec, at: now, origin: run.origin, fillsBackwards: false)
            return
        }
        let s: Int32
        let active: Time?
        var isTween = true
        if let ref = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frame.node)].plan {
            // Constant timing: nothing to evaluate, and the end is known now. The plan is read
            // in place (a copy of it is a copy of its easing).
            let g = Int(instances[Int(inst)].graph)
            active = graphs[g].plans[Int(ref.plan)].activeDuration
            // No end because it never ends, or because its end is past the clock's range.
            if active == nil && graphs[g].plans[Int(ref.plan)].timing.iterations.isFinite { throw beyondTheClock(frame) }
            s = try plannedSegment(f, ref, now: now)
        } else {
            switch graphs[Int(instances[Int(inst)].graph)].nodes[Int(frame.node)].kind {
            case .tween(let spec):
                let timing = try tweenTiming(spec, env: frame.env)
                active = timing.activeDuration
                if active == nil && timing.iterations.isFinite { throw beyondTheClock(frame) }
                s = pool.takeSegment(instance: inst, frame: f, room: spec.trackCount)
                do {
                    try tweenTracks(spec, segment: s, begin: now, timing: pool.tables.intern(.tween(timing, spec.easing)), ending: nil)
                } catch {
                    freeSegment(s)
                    throw error
                }
            case .spring(let spec):
                isTween = false
                s = pool.takeSegment(instance: inst, frame: f, room: spec.writes.count)
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
        for k in pool.segments[Int(s)].tracks {
            let key = pool.tracks[k].key
            recordWrite(track: k)
            if overwrites != nil, isTween { noteOverwrite(key, by: f) }
            if recorder.activityLog != nil { logTake(key, frame: f) }
            take(key, for: Owner(segment: s, track: Int32(k)), by: inst)
        }
        guard let length = active else { return }  // forever: no end
        if length.ticks == 0 {
            endSegment(f)
            endActivity(frame: f)
            finish(f)
        } else {
            let span = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frame.node)].span
            let end = try checkedEnd(inst, now, length, span: span, what: isTween ? "tween" : "spring")
            schedule(inst, local: end, node: frame.node, .end(f))
        }
    }

    /// The segment of a tween with a plan: its tracks start from the properties' values now
    /// and go to the plan's targets, or to its writes evaluated now when they are not constants.
    func plannedSegment(_ f: Int32, _ ref: PlanRef, now: Time) throws(RuntimeError) -> Int32 {
        let inst = frames[Int(f)].instance
        let g = Int(instances[Int(inst)].graph)
        let slot = Int(planTimingStarts[g]) + Int(ref.plan)
        var timing = planTimings[slot]
        if timing < 0 {
            let plan = graphs[g].plans[Int(ref.plan)]
            timing = pool.tables.intern(.tween(plan.timing, plan.easing))
            planTimings[slot] = timing
        }
        var ending: Track.Ending?
        if let d = graphs[g].plans[Int(ref.plan)].activeDuration, let end = now.adding(d) {
            ending = Track.Ending(time: end, progress: graphs[g].plans[Int(ref.plan)].endProgress)
        }
        if ref.targetCount >= 0 {
            let targets = ref.targets..<ref.targets + ref.targetCount
            let s = pool.takeSegment(instance: inst, frame: f, room: targets.count)
            if plannedTracks(targets, segment: s, begin: now, timing: timing, ending: ending) { return s }
            freeSegment(s)  // a shape lacks the property: the writes evaluated as usual report it
        }
        guard case .tween(let spec) = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frames[Int(f)].node)].kind else {
            preconditionFailure("a plan belongs to a tween")
        }
        let s = pool.takeSegment(instance: inst, frame: f, room: spec.trackCount)
        do {
            try tweenTracks(spec, segment: s, begin: now, timing: timing, ending: ending)
        } catch {
            freeSegment(s)
            throw error
        }
        return s
    }

    /// Gives a segment slot back.
    func freeSegment(_ s: Int32) {
        pool.free(segment: s, keepsCurves: recorder.isOn)
    }

    /// The tracks of a tween whose targets are constants: each starts from the property's
    /// value now. False (and no tracks) if a shape lacks its property, which the general path
    /// then reports.
    func plannedTracks(_ targets: Range<Int32>, segment s: Int32, begin: Time, timing: Int32, ending: Track.Ending?) -> Bool {
        let inst = pool.segments[Int(s)].instance
        for k in targets {
            let t = graphs[Int(instances[Int(inst)].graph)].targets[Int(k)]
            guard let from = currentNumeric(PropertyKey(t.shape, t.property)) else {
                pool.segments[Int(s)].count = 0
                return false
            }
            pool.add(Track(instance: inst, key: PropertyKey(t.shape, t.property), begin: begin, timing: timing, curve: .straight,
                           from: from, to: t.value, ending: ending), to: s)
        }
        return true
    }

    /// The tracks of a tween, its writes evaluated now.
    func tweenTracks(_ spec: TweenSpec, segment s: Int32, begin: Time, timing: Int32, ending: Track.Ending?) throws(RuntimeError) {
        let inst = pool.segments[Int(s)].instance
        let env = frames[Int(pool.segments[Int(s)].frame)].env
        for (k, w) in spec.writes.enumerated() {
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
            var start = current
            if let froms = spec.from { start = try eval(froms[k], env: env) }
            // A fill or a stroke may be a gradient at either end: its target is evaluated once,
            // here, to know.
            var paintTarget: Value?
            if w.keyframes == nil && (w.property == BuiltinProperty.color.id || w.property == BuiltinProperty.stroke.id) { paintTarget = try targetValue(w, start: start, env: env) }
            if NumericValue(start) == nil || paintTarget.map({ NumericValue($0) == nil }) == true, w.keyframes == nil,
               let morph = try morphTrack(start, w, shape, target: paintTarget, env: env) {
                // `points` and `d`, and gradients: the track runs 0 → 1 through the morph (Morph.swift).
                pool.add(Track(instance: inst, key: PropertyKey(shape, w.property), begin: begin, timing: timing,
                               curve: .morph(pool.tables.add(morph: morph)), from: NumericValue(.number(0))!,
                               to: NumericValue(.number(1))!, ending: ending), to: s)
                continue
            }
            let from = try numeric(start, shape, w)
            var tr = Track(instance: inst, key: PropertyKey(shape, w.property), begin: begin, timing: timing, curve: .straight,
                           from: from, to: from, ending: ending)
            if let frames = w.keyframes {
                try buildKeyframes(&tr, frames, isPath: w.isPath, shape: shape, write: w, env: env)
            } else {
                let target: Value
                if let p = paintTarget { target = p } else { target = try targetValue(w, start: start, env: env) }
                tr.to = try numeric(target, shape, w)
            }
            pool.add(tr, to: s)
            if let o = w.orient, case .path(let k) = tr.curve {
                // `orient [A]`: the rotation is the path's tangent angle plus A, on the same timing.
                let rotation = BuiltinProperty.rotation.id
                guard currentValue(shape, rotation) != nil else { throw missingProperty(shape, w) }
                let offset = try numeric(try eval(o, env: env), shape, w)
                pool.add(Track(instance: inst, key: PropertyKey(shape, rotation), begin: begin, timing: timing, curve: .pathTangent(k),
                               from: offset, to: offset, ending: ending), to: s)
            }
        }
    }

    /// The morph of a tween of a point list or path data from `start` to its target (nil: the
    /// value is of another kind). A polygon's points morph as a closed ring.
    /// The morph of a tween of a point list, path data or a gradient from `start` to its target
    /// (`target` when already evaluated; nil: the value is of another kind). A polygon's points
    /// morph as a closed ring. Gradients of different functions or stop counts are an error.
    func morphTrack(_ start: Value, _ w: PropertyWrite, _ shape: ShapeID, target given: Value? = nil,
                    env: Int32) throws(RuntimeError) -> Morph? {
        let target: Value
        if let g = given { target = g } else { target = try targetValue(w, start: start, env: env) }
        if let why = Morph.gradientMismatch(start, target) {
            throw RuntimeError("'\(scene.shapes[Int(shape.index)].name).\(propertyName(w.property))': \(why)", at: w.span,
                               help: "write both ends with the same gradient function and stop count (repeat a colour to add a stop)")
        }
        let closed = scene.shapes[Int(shape.index)].kind == .polygon
        guard let m = Morph(from: start, to: target, closed: closed) else { return nil }
        return m
    }

    /// A value a track can move through: a number, time, angle, point or color (the checker
    /// lets only those be animated).
    func numeric(_ v: Value, _ shape: ShapeID, _ w: PropertyWrite) throws(RuntimeError) -> NumericValue {
        guard let n = NumericValue(v) else {
            if case .gradient = v {
                throw RuntimeError("cannot animate '\(scene.shapes[Int(shape.index)].name).\(propertyName(w.property))' so: "
                                   + "a gradient fill animates in a tween to one target, not by keyframes or a spring", at: w.span,
                                   help: "chain tweens with 'then' to go through several gradients")
            }
            throw RuntimeError("cannot animate '\(scene.shapes[Int(shape.index)].name).\(propertyName(w.property))': "
                               + "\(v.kind.withArticle) does not interpolate", at: w.span)
        }
        return n
    }

    /// The tracks of a spring: one closed-form motion per component of each property. Returns
    /// its settling time.
    func springTracks(_ spec: SpringSpec, segment s: Int32, begin: Time) throws(RuntimeError) -> Time {
        let inst = pool.segments[Int(s)].instance
        let env = frames[Int(pool.segments[Int(s)].frame)].env
        let params = try springParameters(spec.form, span: spec.span, env: env)
        var epsilon = 0.001
        if let e = spec.epsilon {
            epsilon = try number(e, env: env)
            guard epsilon > 0, epsilon < 1 else {
                throw RuntimeError("a spring's epsilon must be between 0 and 1, not \(formatNumber(epsilon))", at: e.span)
            }
        }
        let velocityValue = try spec.velocity.map { e throws(RuntimeError) in try eval(e, env: env) }
        let first = pool.tables.springs.count
        var made: [Track] = []
        for w in spec.writes {
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
            let from = try numeric(current, shape, w)
            let to = try numeric(try targetValue(w, start: current, env: env), shape, w)
            let n = from.layout.components
            // Retargeting keeps the velocity the property has now; `velocity V` sets it otherwise.
            var v0 = [Double](repeating: 0, count: n)
            if let given = velocityValue, let g = NumericValue(given) {
                for c in 0..<n { v0[c] = g.layout.components == 1 ? g.arithmetic(0) : c < g.layout.components ? g.arithmetic(c) : 0 }
            } else if pool.owners[PropertyKey(shape, w.property)] != nil || w.property.isComponent, let v = velocity(shape, w.property).flatMap(NumericValue.init) {
                for c in 0..<min(n, v.layout.components) { v0[c] = v.arithmetic(c) }
            }
            let curve = TrackCurve.springs(Int32(pool.tables.springs.count))
            for c in 0..<n {
                _ = pool.tables.add(spring: SpringMotion(parameters: params, from: from.arithmetic(c), to: to.arithmetic(c), velocity: v0[c]))
            }
            // The settling time is known once every component's motion is: set below.
            made.append(Track(instance: inst, key: PropertyKey(shape, w.property), begin: begin, timing: 0, curve: curve,
                              from: from, to: to, ending: nil))
        }
        guard let settle = SpringMotion.settlingDuration(of: Array(pool.tables.springs[first...]), epsilon: epsilon) else {
            throw RuntimeError("this spring would not settle within the clock's range", at: spec.span)
        }
        let timing = pool.tables.intern(.spring(duration: settle))
        for var tr in made {
            tr.timing = timing
            pool.add(tr, to: s)
        }
        return settle
    }

    func tweenTiming(_ spec: TweenSpec, env: Int32) throws(RuntimeError) -> TweenTiming {
        switch spec.timing {
        case .constant(let timing, _):
            return timing
        case .computed(let c):
            let d = try eval(c.duration, env: env)
            let n = c.forever ? nil : try c.iterations.map { e throws(RuntimeError) in try number(e, env: env) } ?? 1
            let r = try c.speed.map { e throws(RuntimeError) in try number(e, env: env) } ?? 1
            let f = try c.iterationStart.map { e throws(RuntimeError) in try number(e, env: env) } ?? 0
            var pause = Time.zero
            if let e = c.repeatDelay, case .time(let x) = try eval(e, env: env) { pause = x }
            do throws(TimingError) {
                guard case .time(let t) = d else {
                    return try TweenTiming.validated(duration: .zero, iterations: n, alternate: c.yoyo, rate: r, direction: c.direction,
                                                     iterationStart: f, repeatDelay: pause)
                }
                return try TweenTiming.validated(duration: t, iterations: n, alternate: c.yoyo, rate: r, direction: c.direction,
                                                 iterationStart: f, repeatDelay: pause)
            } catch {
                let at: Span = switch error.part {
                case .duration: c.duration.span
                case .iterations: c.iterations?.span ?? spec.span
                case .speed: c.speed?.span ?? spec.span
                case .iterationStart: c.iterationStart?.span ?? spec.span
                case .repeatDelay: c.repeatDelay?.span ?? spec.span
                case .delay, .whole: spec.span
                }
                throw RuntimeError(error.message, at: at)
            }
        }
    }

    /// A tween's delay, evaluated now (negative: it starts part-way).
    func tweenDelay(_ spec: TweenSpec, env: Int32) throws(RuntimeError) -> Time {
        switch spec.timing {
        case .constant(_, let delay): return delay ?? .zero
        case .computed(let c):
            guard let e = c.delay else { return .zero }
            guard case .time(let t) = try eval(e, env: env) else { return .zero }
            return t
        }
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
    func buildKeyframes(_ track: inout Track, _ frames: [CheckedKeyframe], isPath: Bool, shape: ShapeID, write w: PropertyWrite,
                        env: Int32) throws(RuntimeError) {
        // Every array is made at its final size up front: grown one append at a time, the four
        // of them reallocated twice each for a three-keyframe track (callgrind, lsp-5000: 3.69 M
        // instructions for 449 tracks before, most of it in growForAppend and release).
        var values: [NumericValue] = []
        values.reserveCapacity(frames.count)
        for k in frames { values.append(try numeric(try eval(k.value, env: env), shape, w)) }
        if isPath {
            var pts: [Point] = []
            pts.reserveCapacity(values.count + 1)
            if track.from.layout == .point, let p = track.from.point { pts.append(p) }
            for v in values where v.layout == .point { pts.append(v.point!) }
            track.curve = .path(pool.tables.add(path: PathTrack(points: pts)))
            track.to = values.last!
            return
        }
        // `v at 0` replaces the start value; the other keyframes follow it.
        let start = frames.first?.offset == 0 ? 1 : 0
        let room = frames.count - start + 2
        var vs: [NumericValue] = [], easings: [Easing?] = [], given: [Double?] = []
        vs.reserveCapacity(room)
        easings.reserveCapacity(room)
        given.reserveCapacity(room)
        vs.append(start == 1 ? values[0] : track.from)
        easings.append(nil)
        given.append(0)
        for i in start..<frames.count {
            vs.append(values[i])
            easings.append(frames[i].easing)
            given.append(frames[i].offset)
        }
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
        var offsets: [Double] = []
        offsets.reserveCapacity(given.count)
        for g in given { offsets.append(g!) }
        track.from = vs[0]
        track.curve = .keyframes(pool.tables.add(keyframes: KeyframeTrack(offsets: offsets, values: vs, easings: easings)))
        track.to = vs.last!
    }

    /// Lands the segment's owned properties on their final values and frees it. A property
    /// that lands needs no new piece in the history when its track's piece, seen through its
    /// instance's clock as it is now, shows the final value from the track's end on; a clock
    /// that jumped without the history seeing it (a seek's fast-forward) needs one.
    func endSegment(_ f: Int32) {
        let s = frames[Int(f)].segment
        guard s >= 0 else { return }
        let seg = pool.segments[Int(s)]
        let clock = instances[Int(seg.instance)].clock
        let t = clock(time)
        for k in seg.tracks where pool.owned[k] {
            let key = pool.tracks[k].key
            if pool.split.isEmpty && pool.tracks[k].curve.isNumeric {
                // The usual landing: numbers into the scene's numbers (`Scene.setNumericBase`).
                let n = pool.tables.finalValue(pool.tracks[k], at: t)
                if !scene.setNumericBase(key, n) { scene.setBase(key.shape, key.property, n.value) }
            } else {
                let landed = pool.tables.finalPropertyValue(pool.tracks[k], at: t)
                scene.setBase(key.shape, key.property, pool.split.isEmpty ? landed : landingValue(key, landed))
            }
            writes &+= 1
            if pool.owners.removeValue(forKey: key, if: { $0.segment == s }) {
                if !pool.split.isEmpty { tidySplit(key) }
                if notesReleases { releasedKeys.append(key) }
                if recorder.isOn { recorder.landed(key, clock: clock) }
            } else if pool.owners[key] == nil {
                noteChange(key)
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
        if let c = p.componentIndex { return propertyName(p.whole) + (c == 0 ? ".x" : ".y") }
        return propertyNames.indices.contains(Int(p.raw)) ? propertyNames[Int(p.raw)] : "#\(p.raw)"
    }

    /// `start + length` in an instance's local time, if the end is still on the global clock.
    func checkedEnd(_ i: Int32, _ start: Time, _ length: Time, span: Span, what: String) throws(RuntimeError) -> Time {
        guard let end = start.adding(length), let g = globalTime(i, end), g < .max, g >= time || length.ticks == 0 else {
            throw RuntimeError("this \(what) would end beyond the clock's range (about 292 years)", at: span)
        }
        return end
    }
}
