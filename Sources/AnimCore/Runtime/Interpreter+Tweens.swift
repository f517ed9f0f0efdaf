// Interpreter+Tweens: a tween's or spring's life. At `begin` (after its delay) it reads its
// start values, resolves relative targets and keyframes, and takes its properties over from
// whatever writes them (GSAP `overwrite: "auto"`; a spring taking over a spring keeps its
// velocity). While it runs, reads of those properties sample it. At `end` it lands exactly on
// its final values and lets the properties go.

extension Interpreter {
    @inline(__always) func ownerKey(_ s: ShapeID, _ p: PropertyID) -> Int64 { Int64(s.index) << 32 | Int64(p.raw) }

    /// The value of a property now: its owner's sample, else the base value.
    public func currentValue(_ s: ShapeID, _ p: PropertyID) -> Value? { currentValue(ownerKey(s, p)) }

    func currentValue(_ key: Int64) -> Value? {
        if let o = owners[key] {
            if let r = o.renderingInstance { return render(r, key: key, at: localTime(r)) }
            let seg = segments[Int(o.segment)]
            return seg.value(track: Int(o.track), at: localTime(seg.instance))
        }
        return scene.base(ShapeID(Int(key >> 32)), PropertyID(Int(key & 0xFFFF_FFFF)))
    }

    /// The rate of change of a property per second of global time (zero when nothing moves it).
    func velocity(_ s: ShapeID, _ p: PropertyID) -> Value? {
        let key = ownerKey(s, p)
        guard let current = currentValue(key) else { return nil }
        guard let o = owners[key] else { return Components.zero(like: current) }
        if let r = o.renderingInstance {
            // Replaying: a central difference over 1 ms of global time.
            let h = Time(ticks: 1_000_000)
            let a = Components.split(render(r, key: key, at: localTime(r, at: time - h)))
            let b = Components.split(render(r, key: key, at: localTime(r, at: time + h)))
            return Components.assemble(current, zip(a, b).map { ($1 - $0) / (2 * h.seconds) })
        }
        let seg = segments[Int(o.segment)]
        let v = seg.velocity(track: Int(o.track), at: localTime(seg.instance))
        let scale = clockRate(seg.instance)
        return Components.assemble(v, Components.split(v).map { $0 * scale })
    }

    /// How fast an instance's clock runs against global time.
    func clockRate(_ i: Int32) -> Double { instances[Int(i)].clock.rate }

    /// Makes `v` the property's value now (a `set`), taking it from whatever writes it.
    func writeProperty(_ s: ShapeID, _ p: PropertyID, _ v: Value, by instance: Int32) {
        let key = ownerKey(s, p)
        release(key, by: instance)
        setBase(key, v)
    }

    /// Detaches a property from its writer, and remembers who writes it now.
    func release(_ key: Int64, by instance: Int32) {
        if let o = owners[key] {
            if o.segment >= 0 { segments[Int(o.segment)].tracks[Int(o.track)].owned = false }
            setOwner(key, nil)
        }
        lastWriter[key] = instance
    }

    /// A tween or spring begins: read start values, compute targets, take the properties.
    func begin(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        let node = instances[Int(inst)].graph.nodes[Int(frame.node)]
        let env = frame.env
        let now = localTime(inst)
        // Reuse the track storage of the segment slot this tween will take, if one is free
        // (unless a history still shares it): a chain of tweens then allocates no arrays.
        var tracks: [Segment.Track] = []
        if let free = freeSegments.last { swap(&tracks, &segments[Int(free)].tracks) }
        let motion: SegmentMotion
        switch node.kind {
        case .tween(let spec):
            let timing = try tweenTiming(spec, env: env)
            for (k, w) in spec.writes.enumerated() {
                let shape = try resolve(w.shape, env: env)
                guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
                var start = current
                if let froms = spec.from { start = try eval(froms[k], env: env) }
                var track = Segment.Track(shape: shape, property: w.property, from: start, to: start, owned: true)
                if let frames = w.keyframes {
                    try buildKeyframes(&track, frames, isPath: w.isPath, env: env, span: w.span)
                } else {
                    track.to = try targetValue(w, start: start, env: env)
                }
                tracks.append(track)
            }
            motion = .tween(timing, spec.easing)
        case .spring(let spec):
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
                } else if owners[ownerKey(shape, w.property)] != nil, let v = velocity(shape, w.property) {
                    v0 = Components.split(v)
                }
                var track = Segment.Track(shape: shape, property: w.property, from: current, to: target, owned: true)
                track.springs = (0..<from.count).map { SpringMotion(parameters: params, from: from[$0], to: to[$0], velocity: v0[$0]) }
                all += track.springs
                tracks.append(track)
            }
            guard let settle = SpringMotion.settlingDuration(of: all, epsilon: epsilon) else {
                throw RuntimeError("this spring would not settle within the clock's range", at: spec.span)
            }
            motion = .spring(duration: settle)
        default:
            return
        }
        let seg = Segment(instance: inst, frame: f, begin: now, motion: motion, tracks: tracks)
        let s: Int32
        if let free = freeSegments.popLast() { segments[Int(free)] = seg; s = free } else {
            segments.append(seg); s = Int32(segments.count - 1)
        }
        frames[Int(f)].segment = s
        beginActivity(frame: f)
        for (k, tr) in tracks.enumerated() {
            let key = ownerKey(tr.shape, tr.property)
            recordWrite(segment: s, track: k, key: key)
            if overwrites != nil, case .tween = motion { noteOverwrite(key, by: f) }
            release(key, by: inst)
            setOwner(key, Owner(segment: s, track: Int32(k)))
        }
        let active: Time?
        switch motion {
        case .tween(let timing, _):
            active = timing.activeDuration
            // No end because it never ends, or because its end is past the clock's range.
            if active == nil && timing.iterations.isFinite {
                throw RuntimeError("this tween would end beyond the clock's range (about 292 years)", at: node.span)
            }
        case .spring(let d): active = d
        }
        guard let length = active else { return }  // forever: no end
        if length.ticks == 0 {
            endSegment(f)
            endActivity(frame: f)
            finish(f)
        } else {
            let end = try checkedEnd(inst, now, length, span: node.span, what: node.kind.isSpring ? "spring" : "tween")
            schedule(inst, local: end, node: frame.node, .end(f))
        }
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
    func buildKeyframes(_ track: inout Segment.Track, _ frames: [CheckedKeyframe], isPath: Bool, env: Int32, span: Span) throws(RuntimeError) {
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
        for (k, tr) in seg.tracks.enumerated() where tr.owned {
            let key = ownerKey(tr.shape, tr.property)
            setBase(key, seg.value(track: k, at: t))
            if let o = owners[key], o.segment == s { setOwner(key, nil) }
        }
        segments[Int(s)].tracks.removeAll(keepingCapacity: true)
        freeSegments.append(s)
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
    /// The property (`shape << 32 | property`).
    public var key: Int64
    /// When it happened.
    public var time: Time
    /// The step that was writing it.
    public var previous: Span
    /// The step that takes it over.
    public var next: Span
}

extension Interpreter {
    /// Notes a takeover of a running writer by another step (not a step retargeting itself).
    func noteOverwrite(_ key: Int64, by f: Int32) {
        guard let o = owners[key], o.segment >= 0 else { return }
        let old = segments[Int(o.segment)]
        let oldFrame = frames[Int(old.frame)]
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

extension NodeKind {
    var isSpring: Bool { if case .spring = self { return true } else { return false } }
}
