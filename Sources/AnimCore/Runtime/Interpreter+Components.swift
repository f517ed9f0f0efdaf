// Interpreter+Components: one component of a point property written apart (`sq.center.x = 300`
// in a tween, a spring, a `set`). A component has its own property id (PropertyID.component)
// and its own owner, so a tween of `center.x` and one of `center.y` both run (GSAP's x and y,
// CSS's individual transforms). Taking a component takes it away from the point's own owner,
// which goes on moving the other component (`TrackPool.split` keeps which components it no
// longer writes); taking the whole point takes both components over and lets their owners go.
// Reads combine the point's owner with its components' owners; while nothing is split they take
// the usual fast path. The history shows a split point as a composed piece in the point's row
// whose value is its component rows' (PropertyLog.Kind.composed), so every output reads the
// combined value from the point's row.

extension Interpreter {
    /// The bit of component `c` in `TrackPool.split`.
    @inline(__always)
    static func componentBit(_ c: Int) -> UInt8 { UInt8(1) << UInt8(c) }

    /// `key`'s point property (the key itself when it is a whole property).
    @inline(__always)
    func wholeKey(_ key: PropertyKey) -> PropertyKey { PropertyKey(key.shape, key.property.whole) }

    /// `currentValue` while some point is split, or for a component.
    @inline(never)
    func composedValue(_ key: PropertyKey) -> Value? {
        let p = key.property
        if let c = p.componentIndex {
            let w = wholeKey(key)
            if (pool.split[w] ?? 0) & Interpreter.componentBit(c) != 0 { return ownValue(key) }
            guard case .point(let pt)? = ownValue(w) else { return nil }
            return .number(c == 0 ? pt.x : pt.y)
        }
        guard let v = ownValue(key) else { return nil }
        guard let bits = pool.split[key], bits != 0, case .point(var pt) = v else { return v }
        for c in 0..<2 where bits & Interpreter.componentBit(c) != 0 {
            guard case .number(let x)? = ownValue(PropertyKey(key.shape, p.component(c))) else { continue }
            if c == 0 { pt.x = x } else { pt.y = x }
        }
        return .point(pt)
    }

    /// `velocity` while some point is split, or for a component (`now` its value).
    @inline(never)
    func composedVelocity(_ key: PropertyKey, _ now: NumericValue) -> Value {
        let p = key.property
        if let c = p.componentIndex {
            let w = wholeKey(key)
            if (pool.split[w] ?? 0) & Interpreter.componentBit(c) != 0 { return ownVelocity(key, now) }
            guard let whole = currentValue(w).flatMap(NumericValue.init), whole.layout == .point,
                  let v = NumericValue(ownVelocity(w, whole)) else { return .number(0) }
            return .number(v.arithmetic(c))
        }
        let own = ownVelocity(key, now)
        guard let bits = pool.split[key], bits != 0, var v = NumericValue(own), v.layout == .point else { return own }
        for c in 0..<2 where bits & Interpreter.componentBit(c) != 0 {
            let k = PropertyKey(key.shape, p.component(c))
            guard let x = currentValue(k).flatMap(NumericValue.init), let d = NumericValue(ownVelocity(k, x)) else { continue }
            v.setArithmetic(c, d.arithmetic(0))
        }
        return v.value
    }

    /// Ownership of `key` changes hands (a tween or spring takes it, a `set` writes it): a
    /// component is taken from its point's own owner; the whole point takes its components
    /// from their owners.
    func splitOwnership(_ key: PropertyKey) {
        if let c = key.property.componentIndex {
            let w = wholeKey(key)
            let bits = pool.split[w] ?? 0
            guard bits & Interpreter.componentBit(c) == 0 else { return }
            pool.split[w] = bits | Interpreter.componentBit(c)
            noteChange(w)
            return
        }
        guard let bits = pool.split[key] else { return }
        for c in 0..<2 where bits & Interpreter.componentBit(c) != 0 {
            let k = PropertyKey(key.shape, key.property.component(c))
            guard let o = pool.owners.removeValue(forKey: k) else { continue }
            if o.segment >= 0 { pool.owned[Int(o.track)] = false }
            if recorder.activityLog != nil { logRelease(k) }
            if notesReleases { releasedKeys.append(k) }
        }
        pool.split.removeValue(forKey: key)
        noteChange(key)
    }

    /// The value a point's own track lands on: its final value in the components it still
    /// writes, the base value in those written apart.
    func landingValue(_ key: PropertyKey, _ landed: Value) -> Value {
        guard !key.property.isComponent, let bits = pool.split[key], bits != 0, case .point(var pt) = landed,
              case .point(let base)? = scene.read(key) else { return landed }
        if bits & 1 != 0 { pt.x = base.x }
        if bits & 2 != 0 { pt.y = base.y }
        return .point(pt)
    }

    /// Forgets that a point is split once neither it nor its components have an owner.
    func tidySplit(_ key: PropertyKey) {
        let w = wholeKey(key)
        guard pool.split[w] != nil, pool.owners[w] == nil, pool.owners[PropertyKey(w.shape, w.property.component(0))] == nil,
              pool.owners[PropertyKey(w.shape, w.property.component(1))] == nil else { return }
        pool.split.removeValue(forKey: w)
        noteChange(w)
    }

    /// Adds the history's pieces for a split point `key`: a composed piece in its row, and in
    /// each component's row what shows that component now — its own owner's track or replay, the
    /// point's owner's track seen through that component, or its base value.
    func flushComposed(_ key: PropertyKey, split bits: UInt8) {
        recorder.hasComponentRows = true
        recorder.log.addComposed(key, at: time, fallback: scene.read(key) ?? .point(.zero))
        for c in 0..<2 {
            let k = PropertyKey(key.shape, key.property.component(c))
            let from = bits & Interpreter.componentBit(c) != 0 ? k : key
            if let o = pool.owners[from] {
                if let r = o.renderingInstance {
                    recorder.log.addReplay(k, at: time, recording: keptRecording(r), fallback: scene.read(k) ?? .number(0),
                                           clock: instances[Int(r)].clock)
                } else {
                    let tr = pool.tracks[Int(o.track)]
                    recorder.log.addTrack(k, at: time, tr, clock: instances[Int(tr.instance)].clock, component: from == k ? -1 : Int8(c))
                }
            } else if let v = scene.read(k) {
                recorder.log.addConstant(k, at: time, v)
            }
        }
    }

    /// Ends the component rows of a point no longer split (the point's row shows it whole).
    func flushWhole(_ key: PropertyKey) {
        for c in 0..<2 { recorder.log.addIdle(PropertyKey(key.shape, key.property.component(c)), at: time) }
    }
}
