// TrackPool: the running tweens and springs. Each is a segment — a slot holding its frame and a
// run of the pool's tracks, one per property it moves — and every property has at most one
// owner: the track that writes it now, or a replaying instance. Slots keep their runs of tracks
// for the next occupant, so a chain of tweens allocates nothing; the tables of timings and
// curves the tracks index into live here too.

/// A running tween or spring: its frame, and its tracks — a run of the pool's tracks that the
/// slot keeps for its next occupant.
struct Segment {
    var instance: Int32
    var frame: Int32
    /// Its tracks: `count` pool entries from `first` (0 once it has ended).
    var first: Int32
    var count: Int32
    /// How many pool entries from `first` belong to this slot.
    var capacity: Int32

    /// The pool indices of its tracks.
    var tracks: Range<Int> { Int(first)..<Int(first + count) }
}

/// Who writes a property: a live track, or a replaying instance (`segment < 0`).
struct Owner {
    var segment: Int32
    /// The track's index in the pool.
    var track: Int32
    static func render(_ instance: Int32) -> Owner { Owner(segment: -1 - instance, track: 0) }
    var renderingInstance: Int32? { segment < 0 ? -1 - segment : nil }
}

/// The running tracks and who writes each property.
struct TrackPool {
    var segments: [Segment] = []
    var freeSegments: [Int32] = []
    /// The tracks of every segment slot (see `Segment`).
    var tracks: [Track] = []
    /// Whether each track still writes its property (false once a newer tween or a `set` took
    /// it over).
    var owned: [Bool] = []
    /// Which track (or replaying instance) writes each property.
    var owners = KeyMap<Owner>()
    /// For each point property with a component written apart (`sq.center.x`): the components
    /// (bit 0: x, bit 1: y) its own owner no longer writes, each shown by its component's
    /// owner or base instead (Interpreter+Components.swift). Empty: every read takes the
    /// fast path.
    var split = KeyMap<UInt8>()
    /// The instance that last wrote each property (for GSAP-style overwrite on replay). Kept
    /// only once some instance records what it plays: a replay asks only about properties
    /// written since (its own).
    var lastWriter = KeyMap<Int32>()
    /// Whether some instance records what it plays, so `lastWriter` is kept.
    var keepsWriters = false
    /// The timings and curves the tracks refer to.
    var tables = TrackTables()
    /// Running tracks with a curve in the tables (keyframes, a path, springs).
    private var curved = 0

    /// Takes a free segment slot for a frame, with room for `room` tracks (none added yet).
    mutating func takeSegment(instance: Int32, frame: Int32, room: Int) -> Int32 {
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
            let placeholder = Track.placeholder
            for _ in 0..<room {
                tracks.append(placeholder)
                owned.append(false)
            }
        }
        segments[Int(s)] = seg
        return s
    }

    /// Adds a track to a segment being built (it has room).
    mutating func add(_ t: Track, to s: Int32) {
        let k = Int(segments[Int(s)].first + segments[Int(s)].count)
        tracks[k] = t
        owned[k] = true
        segments[Int(s)].count += 1
        if t.curve != .straight { curved += 1 }
    }

    /// Gives a segment slot back: its tracks stay in the pool for the next occupant. When no
    /// running track has a curve and no log keeps tracks (`keepsCurves` false), the curves go.
    mutating func free(segment s: Int32, keepsCurves: Bool) {
        for k in segments[Int(s)].tracks where tracks[k].curve != .straight { curved -= 1 }
        segments[Int(s)].count = 0
        freeSegments.append(s)
        // Recordings (kept once `keepsWriters` is set) and the history refer to curves too.
        if curved == 0 && !keepsCurves && !keepsWriters && tables.hasCurves { tables.dropCurves() }
    }

    /// Pool track `k`'s value at its instance's local time `t`.
    @inline(__always)
    func value(_ k: Int, at t: Time) -> NumericValue { tables.value(tracks[k], at: t) }
}
