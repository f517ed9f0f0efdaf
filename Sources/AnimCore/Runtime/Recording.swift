// Recording: what a controllable instance (a named step, a yoyo pass, a reversed play) has
// played, in its own local time: every property write with a copy of the segment that made it,
// and every print and expect. Replaying renders properties from it — at each instant the write
// that began last wins, as in live play — and fires the actions the playhead crosses.

/// The played history of an instance.
public struct Recording: Sendable {
    /// One property write.
    public struct Write: Sendable {
        var key: PropertyKey
        /// When it began, in the recording's local time.
        var begin: Time
        /// The property's track, copied.
        var motion: TrackMotion
        /// Recording-local time `u` maps to segment-local `segmentOrigin + (u − begin) × scale`.
        var segmentOrigin: Time
        var scale: Double

        func value(at u: Time, backwards: Bool) -> Value {
            let d = u - begin
            let local = scale == 1 ? segmentOrigin + d : segmentOrigin + Time(ticks: Int64((Double(d.ticks) * scale).rounded()))
            // A write whose clock ran backward against the recorder's is seen the other way round.
            return motion.value(at: local, backwards: backwards != (scale < 0))
        }
    }

    /// A print or expect.
    public struct Action: Sendable {
        var time: Time
        var spec: ActionSpec
        var env: [Value]
        var span: Span
        /// Its entry in the activity log (-1: none), which a replay shows again.
        var activity: Int = -1
    }

    var writes: [Write] = []
    var byKey: [PropertyKey: [Int]] = [:]
    var actions: [Action] = []
    /// Each property's value before the instance first wrote it.
    var firstValues: [PropertyKey: Value] = [:]

    /// The property's value at recording-local time `u`, or nil if never written.
    public func render(_ key: PropertyKey, at u: Time, backwards: Bool = false) -> Value? {
        guard let list = byKey[key] else { return nil }
        var best: Int?
        for i in list where writes[i].begin <= u {
            if best == nil || writes[i].begin >= writes[best!].begin { best = i }
        }
        if let b = best { return writes[b].value(at: u, backwards: backwards) }
        return firstValues[key]
    }
}

/// How a replaying instance is driven.
struct ReplayState {
    /// Whether it has finished live play (its frontier is its end).
    var liveFinished: Bool
}

extension Interpreter {
    /// The instances that record what `i` does: itself and its recording ancestors.
    func recorders(of i: Int32) -> [Int32] { instances[Int(i)].recorders }

    /// Makes an instance (created a moment ago, without children yet) record what it plays.
    func enableRecording(_ i: Int32) {
        guard instances[Int(i)].recording == nil else { return }
        keepsWriters = true
        instances[Int(i)].recording = Recording()
        instances[Int(i)].recorders.append(i)
    }

    /// Records a track (a pool entry) in every recorder of its instance.
    func recordWrite(track k: Int32, key: PropertyKey) {
        let recs = instances[Int(tracks[Int(k)].instance)].recorders
        guard !recs.isEmpty else { return }
        record(trackMotion(Int(k)), key: key, in: recs)
    }

    /// Records a track in the recorders `recs` (outermost first) of its instance.
    func record(_ m: TrackMotion, key: PropertyKey, in recs: [Int32]) {
        let segClock = instances[Int(m.instance)].clock
        for x in recs {
            // ds/du: how fast the segment's clock runs against the recorder's.
            let r = instances[Int(x)].clock.rate
            let scale = r == 0 || segClock.rate == 0 ? 1 : segClock.rate / r
            let w = Recording.Write(key: key, begin: localTime(x), motion: m, segmentOrigin: localTime(m.instance), scale: scale)
            let idx = instances[Int(x)].recording!.writes.count
            instances[Int(x)].recording!.writes.append(w)
            instances[Int(x)].recording!.byKey[key, default: []].append(idx)
            if instances[Int(x)].recording!.firstValues[key] == nil {
                instances[Int(x)].recording!.firstValues[key] = m.from
            }
        }
    }

    /// Records an instant write (`set`, `restore`) as a zero-length segment.
    func recordSet(_ key: PropertyKey, from: Value, to: Value, instance i: Int32) {
        let recs = recorders(of: i)
        guard !recs.isEmpty else { return }
        let m = TrackMotion(instance: i, begin: localTime(i), motion: .tween(TweenTiming(iterationDuration: .zero), .linear),
                            shape: key.shape, property: key.property, from: from, to: to)
        record(m, key: key, in: recs)
    }

    /// Records a print or expect in every recorder of an instance.
    func recordAction(_ spec: ActionSpec, frame f: Int32, span: Span, activity: Int) {
        let i = frames[Int(f)].instance
        for r in recorders(of: i) {
            instances[Int(r)].recording!.actions.append(
                Recording.Action(time: localTime(r), spec: spec, env: envs[Int(frames[Int(f)].env)], span: span, activity: activity))
        }
    }

    /// A property's value while instance `i` replays, at its local time `u`.
    func render(_ i: Int32, key: PropertyKey, at u: Time) -> Value {
        if let v = instances[Int(i)].recording?.render(key, at: u, backwards: instances[Int(i)].clock.rate < 0) { return v }
        return scene.base(key) ?? .number(0)
    }
}
