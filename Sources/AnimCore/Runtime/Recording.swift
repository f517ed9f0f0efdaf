// Recording: what a controllable instance (a named step, a yoyo pass, a reversed play) has
// played, in its own local time — a PropertyLog of every property write (a copy of each track
// with the map from the recording's time to the track's, each `set` as a constant write) and
// the prints and expects it fired. Replaying renders properties from the log — at each
// instant the write that began last wins, as in live play — and fires the actions the playhead
// crosses.

/// The played history of an instance.
struct Recording: Sendable {
    /// The writes, in the instance's local time; each property's first piece (at the start of
    /// time) is its value before the instance first wrote it.
    var log = PropertyLog()
    /// The prints and expects.
    var actions: [Action] = []
    /// Counts the writes (the history keeps a recording again only when it changed).
    private(set) var version = 0

    /// A print or expect.
    struct Action: Sendable {
        var time: Time
        var spec: ActionSpec
        var env: [Value]
        var span: Span
        /// Its entry in the activity log (-1: none), which a replay shows again.
        var activity: Int = -1
    }

    /// The instant before every write: where a property's value before them sits.
    static let beforeAll = Time(ticks: .min)

    /// Records a track that began at local time `u`, seen through `clock` (this recording's
    /// time → the track's instance's local time).
    mutating func add(_ tr: Track, at u: Time, clock: ClockMap) {
        if log.row(of: tr.key) == nil { log.addConstant(tr.key, at: Recording.beforeAll, tr.from.value) }
        log.addTrack(tr.key, at: u, tr, clock: clock)
        version += 1
    }

    /// The value of `key` at local time `u` (nil if never written), the log indexed first if it
    /// grew. Mutating, so that the log is read in place.
    mutating func value(_ key: PropertyKey, at u: Time, backwards: Bool, tables: TrackTables) -> Value? {
        log.index()
        return log.value(key, at: u, backwards: backwards, tables: tables)
    }

    /// Records a `set` (or `restore`) at local time `u`.
    mutating func add(set key: PropertyKey, at u: Time, from: Value, to: Value) {
        if log.row(of: key) == nil { log.addConstant(key, at: Recording.beforeAll, from) }
        log.addWrite(key, at: u, from: from, to: to)
        version += 1
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
        guard instances[Int(i)].recording < 0 else { return }
        pool.keepsWriters = true
        instances[Int(i)].recording = Int32(recordings.count)
        recordings.append(Recording())
        instances[Int(i)].recorders.append(i)
    }

    /// Records a pool track in every recorder of its instance.
    func recordWrite(track k: Int) {
        let recs = instances[Int(pool.tracks[k].instance)].recorders
        guard !recs.isEmpty else { return }
        record(pool.tracks[k], in: recs)
    }

    /// Records a track in the recorders `recs` (outermost first) of its instance.
    func record(_ tr: Track, in recs: [Int32]) {
        let segClock = instances[Int(tr.instance)].clock
        let local = localTime(tr.instance)
        for x in recs {
            // ds/du: how fast the track's clock runs against the recorder's.
            let r = instances[Int(x)].clock.rate
            let scale = r == 0 || segClock.rate == 0 ? 1 : segClock.rate / r
            let u = localTime(x)
            recordings[Int(instances[Int(x)].recording)].add(tr, at: u, clock: ClockMap(global: u, local: local, rate: scale))
        }
    }

    /// Records an instant write (`set`, `restore`) in every recorder of instance `i`.
    func recordSet(_ key: PropertyKey, from: Value, to: Value, instance i: Int32) {
        for x in recorders(of: i) { recordings[Int(instances[Int(x)].recording)].add(set: key, at: localTime(x), from: from, to: to) }
    }

    /// Records a print or expect in every recorder of an instance.
    func recordAction(_ spec: ActionSpec, frame f: Int32, span: Span, activity: Int) {
        let i = frames[Int(f)].instance
        for r in recorders(of: i) {
            recordings[Int(instances[Int(r)].recording)].actions.append(
                Recording.Action(time: localTime(r), spec: spec, env: envs[Int(frames[Int(f)].env)], span: span, activity: activity))
        }
    }

    /// A property's value while instance `i` replays, at its local time `u`.
    func render(_ i: Int32, key: PropertyKey, at u: Time) -> Value {
        let r = Int(instances[Int(i)].recording)
        if r >= 0, let v = recordings[r].value(key, at: u, backwards: instances[Int(i)].clock.rate < 0, tables: pool.tables) {
            return v
        }
        return scene.read(key) ?? .number(0)
    }
}
