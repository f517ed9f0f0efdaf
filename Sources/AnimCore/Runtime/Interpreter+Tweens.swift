// Interpreter+Tweens: a tween's life. At `begin` (after its delay) it reads its start values,
// resolves relative targets, and takes its properties over from any tween writing them
// (GSAP `overwrite: "auto"`). While it runs, reads of those properties sample it. At `end` it
// lands exactly on its final values and lets the properties go.

/// A running tween: its timing and one track per property.
struct Segment {
    /// One property the tween writes.
    struct Track {
        var shape: ShapeID
        var property: PropertyID
        var from: Value
        var to: Value
        /// False once a newer tween or a `set` took the property over.
        var owned: Bool
    }
    var instance: Int32
    var frame: Int32
    /// The start of the active interval.
    var begin: Time
    var timing: TweenTiming
    var easing: Easing
    var tracks: [Track]

    /// The value of track `k` at time `t` (clamped to the active interval).
    func value(track k: Int, at t: Time) -> Value {
        let (_, p) = timing.progress(at: t - begin)
        let tr = tracks[k]
        return Value.interpolate(tr.from, tr.to, easing(p))
    }
}

extension Interpreter {
    @inline(__always) func ownerKey(_ s: ShapeID, _ p: PropertyID) -> Int64 { Int64(s.index) << 32 | Int64(p.raw) }

    /// The value of a property now: the owning tween's sample, else the base value.
    public func currentValue(_ s: ShapeID, _ p: PropertyID) -> Value? {
        if let o = owners[ownerKey(s, p)] { return segments[Int(o.segment)].value(track: Int(o.track), at: time) }
        return scene.base(s, p)
    }

    /// Makes `v` the property's value now, taking it from any tween that writes it.
    func writeProperty(_ s: ShapeID, _ p: PropertyID, _ v: Value) {
        release(s, p)
        scene.setBase(s, p, v)
    }

    /// Detaches a property from the tween that writes it, if any.
    func release(_ s: ShapeID, _ p: PropertyID) {
        let key = ownerKey(s, p)
        if let o = owners[key] {
            segments[Int(o.segment)].tracks[Int(o.track)].owned = false
            owners[key] = nil
        }
    }

    func beginTween(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = instances[Int(frame.instance)]
        let node = inst.graph.nodes[Int(frame.node)]
        guard case .tween(let spec) = node.kind else { return }
        let env = inst.env
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
        let timing = TweenTiming(iterationDuration: d, iterations: iterations, alternate: spec.yoyo, rate: rate)
        var tracks: [Segment.Track] = []
        tracks.reserveCapacity(spec.writes.count)
        for (k, w) in spec.writes.enumerated() {
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else {
                throw missingProperty(shape, w)
            }
            var start = current
            if let froms = spec.from { start = try eval(froms[k], env: env) }
            let target = try targetValue(w, start: start, env: env)
            tracks.append(.init(shape: shape, property: w.property, from: start, to: target, owned: true))
        }
        let seg = Segment(instance: frame.instance, frame: f, begin: time, timing: timing, easing: spec.easing, tracks: tracks)
        let s: Int32
        if let free = freeSegments.popLast() { segments[Int(free)] = seg; s = free } else {
            segments.append(seg); s = Int32(segments.count - 1)
        }
        frames[Int(f)].segment = s
        for (k, tr) in tracks.enumerated() {
            release(tr.shape, tr.property)
            owners[ownerKey(tr.shape, tr.property)] = Owner(segment: s, track: Int32(k))
        }
        guard let active = timing.activeDuration else { return }  // forever: no end
        if active.ticks == 0 {
            endTween(f)
            finish(f)
        } else {
            guard let end = time.adding(active) else {
                throw RuntimeError("this tween would end beyond the clock's range (about 292 years)", at: spec.span)
            }
            queue.push(end, instance: frame.instance, node: frame.node, .end(f))
        }
    }

    /// Lands the tween's owned properties on their final values and frees its segment.
    func endTween(_ f: Int32) {
        let s = frames[Int(f)].segment
        guard s >= 0 else { return }
        let seg = segments[Int(s)]
        for (k, tr) in seg.tracks.enumerated() where tr.owned {
            scene.setBase(tr.shape, tr.property, seg.value(track: k, at: time))
            owners[ownerKey(tr.shape, tr.property)] = nil
        }
        segments[Int(s)].tracks = []
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
        if let b = BuiltinProperty(rawValue: Int(p.raw)) { return b.name }
        return propertyNames.indices.contains(Int(p.raw)) ? propertyNames[Int(p.raw)] : "#\(p.raw)"
    }
}
