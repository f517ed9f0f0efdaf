// Interpreter+Owners: who writes a property while tweens and springs run. Reads of a property
// sample its owner (else its base value), velocities are read from the owner's track, and a
// tween or spring takes its properties over from whatever writes them (GSAP `overwrite:
// "auto"`; a spring taking over a spring keeps its velocity) and lets them go when it ends;
// takeovers of a running writer are noted for `anim check` (Overwrite).

extension Interpreter {
    /// The value of a property now: its owner's sample, else the base value.
    public func currentValue(_ s: ShapeID, _ p: PropertyID) -> Value? { currentValue(PropertyKey(s, p)) }

    func currentValue(_ key: PropertyKey) -> Value? {
        guard pool.split.isEmpty, !key.property.isComponent else { return composedValue(key) }
        return ownValue(key)
    }

    /// The value of a property's own owner now, else its base value (components aside).
    func ownValue(_ key: PropertyKey) -> Value? {
        if let o = pool.owners[key] {
            if let r = o.renderingInstance { return render(r, key: key, at: localTime(r)) }
            let tr = pool.tracks[Int(o.track)]
            return pool.tables.propertyValue(tr, at: localTime(tr.instance))
        }
        return scene.read(key)
    }

    /// The value of a property now as numbers, or nil if it has none or it is not numbers.
    @inline(__always)
    func currentNumeric(_ key: PropertyKey) -> NumericValue? {
        if pool.owners[key] == nil, pool.split.isEmpty, let n = baseNumeric(key) { return n }
        return currentNumericSlow(key)
    }

    /// A built-in's base value as numbers (`Scene.numericBase`).
    @inline(__always)
    func baseNumeric(_ key: PropertyKey) -> NumericValue? { scene.numericBase(key) }

    /// `currentNumeric` off its fast path (kept apart so the fast one reads the scene in place).
    @inline(never)
    func currentNumericSlow(_ key: PropertyKey) -> NumericValue? {
        currentValue(key).flatMap(NumericValue.init)
    }

    /// The rate of change of a property per second of global time (zero when nothing moves it).
    func velocity(_ s: ShapeID, _ p: PropertyID) -> Value? {
        let key = PropertyKey(s, p)
        guard let current = currentValue(key) else { return nil }
        guard let now = NumericValue(current) else { return current }
        if !pool.split.isEmpty || p.isComponent { return composedVelocity(key, now) }
        return ownVelocity(key, now)
    }

    /// The rate of change of a property's own owner (components aside), `now` its value.
    func ownVelocity(_ key: PropertyKey, _ now: NumericValue) -> Value {
        guard let o = pool.owners[key] else { return NumericValue(zero: now.layout).value }
        var out = NumericValue(zero: now.layout)
        if let r = o.renderingInstance {
            // Replaying: a central difference over 1 ms of global time.
            let h = Time(ticks: 1_000_000)
            guard let a = NumericValue(render(r, key: key, at: localTime(r, at: time - h))),
                  let b = NumericValue(render(r, key: key, at: localTime(r, at: time + h))) else { return out.value }
            for c in 0..<min(a.layout.components, b.layout.components, now.layout.components) {
                out.setArithmetic(c, (b.arithmetic(c) - a.arithmetic(c)) / (2 * h.seconds))
            }
            return out.value
        }
        let tr = pool.tracks[Int(o.track)]
        let v = pool.tables.velocity(tr, at: localTime(tr.instance))
        let scale = clockRate(tr.instance)
        out = v
        for c in 0..<v.layout.components { out.setArithmetic(c, v.arithmetic(c) * scale) }
        return out.value
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
        if key.property.isComponent || !pool.split.isEmpty { splitOwnership(key) }
        if recorder.activityLog != nil { logRelease(key) }
        if let o = pool.owners[key] {
            if o.segment >= 0 { pool.owned[Int(o.track)] = false }
            setOwner(key, nil)
            if o.segment >= 0 { springTakenOver(o.segment) }
        }
        if pool.keepsWriters { pool.lastWriter[key] = instance }
    }

    /// Hands a property to a new owner, detaching the old one (`release`, then `setOwner`).
    func take(_ key: PropertyKey, for owner: Owner, by instance: Int32) {
        if key.property.isComponent || !pool.split.isEmpty { splitOwnership(key) }
        if let old = pool.owners.updateValue(owner, forKey: key), old.segment >= 0 {
            pool.owned[Int(old.track)] = false
            if old.segment != owner.segment { springTakenOver(old.segment) }
        }
        if pool.keepsWriters { pool.lastWriter[key] = instance }
        noteChange(key)
    }

    /// A track of segment `s` lost its property. A spring's length is only the time it takes to
    /// settle what it moves: once it moves nothing (every property taken over, set or
    /// interrupted), its step ends now instead of at the settle it will not reach. A tween
    /// still ends on time (GSAP's overwrite).
    func springTakenOver(_ s: Int32) {
        let seg = pool.segments[Int(s)]
        let f = seg.frame
        guard seg.count > 0, f >= 0, frames[Int(f)].segment == s, frames[Int(f)].instance == seg.instance,
              case .spring = graphs[Int(instances[Int(seg.instance)].graph)].nodes[Int(frames[Int(f)].node)].kind,
              !seg.tracks.contains(where: { pool.owned[$0] }) else { return }
        func isEnd(_ e: QueuedEvent) -> Bool {
            if case .end(let x) = e.action { return x == f && e.key.instance == seg.instance }
            return false
        }
        guard !(scheduler.queue.extract(where: isEnd) + takeParked(isEnd)).isEmpty else { return }
        schedule(seg.instance, local: localTime(seg.instance), node: frames[Int(f)].node, .end(f))
    }

    /// The error of a tween whose end is past the clock's range (about 292 years).
    func beyondTheClock(_ frame: Frame) -> RuntimeError {
        RuntimeError("this tween would end beyond the clock's range (about 292 years)",
                     at: graphs[Int(instances[Int(frame.instance)].graph)].nodes[Int(frame.node)].span)
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
        if key.property.isComponent || !pool.split.isEmpty {
            // A component is taken from its point's tween unless it was taken from it already; a
            // whole point from its components' tweens as well as its own.
            let w = wholeKey(key), bits = pool.split[w] ?? 0
            if let c = key.property.componentIndex {
                if pool.owners[key] == nil, bits & Interpreter.componentBit(c) == 0 { noteOverwrite(key, from: w, by: f) }
            } else {
                for c in 0..<2 where bits & Interpreter.componentBit(c) != 0 {
                    noteOverwrite(key, from: PropertyKey(key.shape, key.property.component(c)), by: f)
                }
            }
        }
        noteOverwrite(key, from: key, by: f)
    }

    /// Notes a takeover of `key` from the running writer of `owned` (the key itself, or its
    /// point or a component of it).
    private func noteOverwrite(_ key: PropertyKey, from owned: PropertyKey, by f: Int32) {
        guard let o = pool.owners[owned], o.segment >= 0 else { return }
        let oldFrame = frames[Int(pool.segments[Int(o.segment)].frame)]
        let newFrame = frames[Int(f)]
        let oldNode = graphs[Int(instances[Int(oldFrame.instance)].graph)].nodes[Int(oldFrame.node)]
        let newNode = graphs[Int(instances[Int(newFrame.instance)].graph)].nodes[Int(newFrame.node)]
        guard oldNode.span != newNode.span else { return }
        overwrites!.append(Overwrite(key: key, time: time, previous: oldNode.span, next: newNode.span))
    }
}
