// History: every property's life during a run as a list of pieces in global time — a constant,
// a live segment seen through its instance's clock, or a replaying instance's recording. It is
// what renderers and the sampling engine read: sampling it at any time gives exactly what the
// interpreter would have given, without running the interpreter again.

/// An instance clock frozen as an affine map from global time to local time.
public struct ClockMap: Sendable {
    /// Global time at the anchor.
    public var global: Time
    /// Local time at the anchor.
    public var local: Time
    /// Local seconds per global second.
    public var rate: Double

    /// The local time at global time `t`.
    @inline(__always)
    public func callAsFunction(_ t: Time) -> Time {
        let d = t - global
        if rate == 1 { return local + d }
        if rate == 0 { return local }
        if rate == -1 { return local - d }
        return local + Time(ticks: Int64((Double(d.ticks) * rate).rounded(.toNearestOrAwayFromZero)))
    }
}

/// The pieces of every property's value over a run.
public struct PropertyHistory: Sendable {
    /// One stretch of a property's life, from `start` until the next piece.
    public struct Piece: Sendable {
        /// When it starts (global time).
        public var start: Time
        /// What gives the value.
        public var source: Source
    }

    /// What gives a property's value during a piece. The segment and recording cases are
    /// boxed, so a piece is small and a constant costs no allocation.
    public enum Source: Sendable {
        /// A fixed value.
        case constant(Value)
        /// A tween's or spring's track, at local time `clock(t)`.
        indirect case segment(TrackMotion, clock: ClockMap)
        /// A replaying instance's recording, at local time `clock(t)`.
        indirect case render(Recording, key: PropertyKey, fallback: Value, clock: ClockMap)
    }

    /// Pieces by property key, in time order.
    public internal(set) var pieces: [PropertyKey: [Piece]] = [:]

    /// The keys in a stable order.
    public var keys: [PropertyKey] { pieces.keys.sorted() }

    /// The value of a property at global time `t`, or nil before it exists.
    public func value(_ key: PropertyKey, at t: Time) -> Value? {
        guard let list = pieces[key], !list.isEmpty, list[0].start <= t else { return nil }
        var lo = 0, hi = list.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if list[mid].start <= t { lo = mid } else { hi = mid - 1 }
        }
        return Self.evaluate(list[lo].source, at: t)
    }

    /// Evaluates a piece's source at global time `t`.
    public static func evaluate(_ s: Source, at t: Time) -> Value {
        switch s {
        case .constant(let v): return v
        case .segment(let m, let clock): return m.value(at: clock(t))
        case .render(let rec, let key, let fallback, let clock): return rec.render(key, at: clock(t), backwards: clock.rate < 0) ?? fallback
        }
    }

    /// Adds a piece; one that starts with the key's last piece replaces it (`value(_:at:)`
    /// would never show the earlier one: a tween ending as the next begins leaves one piece).
    mutating func append(_ key: PropertyKey, _ piece: Piece) {
        pieces[key, default: []].appendReplacingSameStart(piece)
    }
}

extension Array where Element == PropertyHistory.Piece {
    fileprivate mutating func appendReplacingSameStart(_ piece: Element) {
        if let last = self.last, last.start == piece.start { self[count - 1] = piece } else { append(piece) }
    }
}

extension Interpreter {
    /// Sets who writes a property, noting the change for the history.
    @inline(__always)
    func setOwner(_ key: PropertyKey, _ owner: Owner?) {
        owners[key] = owner
        if history != nil { dirty.insert(key) }
        if owner == nil, notesReleases { releasedKeys.append(key) }
    }

    /// Sets a property's base value, noting the change for the history.
    @inline(__always)
    func setBase(_ key: PropertyKey, _ v: Value) {
        scene.setBase(key.shape, key.property, v)
        if history != nil { dirty.insert(key) }
    }

    /// Marks every property written by an instance's subtree (its clock changed), and the
    /// subtree's replays for the activity log.
    func markClockChange(_ sub: Set<Int32>) {
        if activityLog != nil { for x in sub { noteReplayChange(x) } }
        guard history != nil else { return }
        for (key, o) in owners {
            if let r = o.renderingInstance { if sub.contains(r) { dirty.insert(key) } } else if sub.contains(segments[Int(o.segment)].instance) {
                dirty.insert(key)
            }
        }
    }

    /// Appends a piece for every property changed since the last flush (and brings the
    /// activity log's replays up to date).
    func flushHistory() {
        if activityLog != nil { updateReplays() }
        guard history != nil, !dirty.isEmpty else { return }
        for key in dirty {
            let source: PropertyHistory.Source
            if let o = owners[key] {
                if let r = o.renderingInstance {
                    source = .render(instances[Int(r)].recording ?? Recording(), key: key,
                                     fallback: scene.base(key) ?? .number(0),
                                     clock: clockMap(r))
                } else {
                    let m = trackMotion(Int(o.track))
                    source = .segment(m, clock: clockMap(m.instance))
                }
            } else if historyOfMotionOnly {
                continue
            } else if let v = scene.base(key) {
                source = .constant(v)
            } else {
                continue
            }
            history!.append(key, .init(start: time, source: source))
        }
        dirty.removeAll(keepingCapacity: true)
    }

    /// An instance's clock now, frozen as an affine map.
    func clockMap(_ i: Int32) -> ClockMap { instances[Int(i)].clock }

    /// Starts recording the history of every property (for renderers and the sampler).
    /// `motionOnly`: only what moves a property (tweens, springs, replays) is recorded, not
    /// the constant values shapes are created with or `set` to — enough for timeline charts
    /// (the REPL's `:timeline`), without a piece per property of every shape.
    public func recordHistory(motionOnly: Bool = false) {
        historyOfMotionOnly = motionOnly
        history = PropertyHistory()
        activities = []
        for (s, shape) in scene.shapes.enumerated() {
            for (p, v) in shape.values.enumerated() where v != nil { dirty.insert(PropertyKey(ShapeID(s), PropertyID(p))) }
        }
        flushHistory()
    }
}
