// Segment: a running tween or spring — when it began (local time of its instance), how it moves
// (timing and easing, or one closed-form spring per component), and one TrackMotion per property
// with its endpoints. Sampling is a pure function of local time, which is what lets instances
// pause, reverse and seek.

/// How a segment moves.
public enum SegmentMotion: Sendable {
    /// Web Animations timing and an easing.
    case tween(TweenTiming, Easing)
    /// A spring that settles after `duration`.
    case spring(duration: Time)
}

/// Keyframes of one track: values at offsets with the easing of the segment arriving at each.
/// Invariant: at least two keyframes, the first at offset 0, offsets in [0, 1] and not
/// decreasing (the checker and `Interpreter.buildKeyframes` see to it).
public struct KeyframeTrack: Sendable {
    public internal(set) var offsets: [Double]
    public internal(set) var values: [Value]
    public internal(set) var easings: [Easing?]

    /// The value at iteration progress `p`, which an overshooting tween easing may take outside
    /// [0, 1]. Web Animations Level 1, "The effect value of a keyframe effect": the interval is
    /// chosen by the last keyframe at or before `p` with an offset below 1 (the first keyframe
    /// when `p` < 0), and its local progress (p − a) ÷ (b − a), which then leaves [0, 1] in the
    /// first or last interval, goes through the interval's easing as it is: the motion
    /// extrapolates (CSS Easing extends each easing beyond [0, 1]). With several keyframes at
    /// offset 0, below 0 the first of them holds; with several at 1, from 1 on the last holds.
    /// One rule of our own: after a last keyframe below offset 1 its value holds (in Web Animations
    /// the implicit keyframe at 1 would bring the underlying value back).
    /// `beforeFlag`: the tween's before flag, which a step easing of a segment sees as well
    /// (browsers pass it on; wpt css/css-animations/jump-start-animation-before-phase).
    public func value(_ p: Double, beforeFlag: Bool = false) -> Value {
        let last = offsets.count - 1
        if p < 0 && offsets[1] == 0 { return values[0] }
        if p >= 1 && offsets[last - 1] == 1 { return values[last] }
        if offsets[last] < 1 && p >= offsets[last] { return values[last] }
        var k = 0
        while k + 1 < last && offsets[k + 1] <= p { k += 1 }
        // a < b: p < 0 starts at the single keyframe at 0, p in [0, 1) ends where an offset
        // exceeds p, and p ≥ 1 ends at the single keyframe at 1.
        let a = offsets[k], b = offsets[k + 1]
        let local = (p - a) / (b - a)
        let eased = easings[k + 1].map { $0(local, beforeFlag: beforeFlag) } ?? local
        return Value.interpolate(values[k], values[k + 1], eased)
    }
}

/// A smooth path through points: a uniform Catmull-Rom spline (tension 1/2) through them,
/// travelled at constant speed by an arc-length table. Sources: Catmull & Rom, "A class of
/// local interpolating splines" (1974); the end tangents repeat the end points.
public struct PathTrack: Sendable {
    public internal(set) var points: [Point]
    /// Cumulative arc length at each sample: `samplesPerSegment` per segment.
    public internal(set) var lengths: [Double]
    static let samplesPerSegment = 32

    init(points: [Point]) {
        self.points = points
        var ls: [Double] = [0]
        var prev = points[0]
        let n = points.count - 1
        for s in 0..<n {
            for k in 1...PathTrack.samplesPerSegment {
                let p = PathTrack.point(points, s, Double(k) / Double(PathTrack.samplesPerSegment))
                ls.append(ls.last! + ((p.x - prev.x) * (p.x - prev.x) + (p.y - prev.y) * (p.y - prev.y)).squareRoot())
                prev = p
            }
        }
        lengths = ls
    }

    /// The point on segment `s` (from points[s] to points[s+1]) at parameter t.
    static func point(_ pts: [Point], _ s: Int, _ t: Double) -> Point {
        let p1 = pts[s], p2 = pts[s + 1]
        let p0 = s > 0 ? pts[s - 1] : p1
        let p3 = s + 2 < pts.count ? pts[s + 2] : p2
        let t2 = t * t, t3 = t2 * t
        func c(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
            0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
        }
        return Point(c(p0.x, p1.x, p2.x, p3.x), c(p0.y, p1.y, p2.y, p3.y))
    }

    /// The point at overall progress p (clamped to [0, 1]); exact at both ends.
    public func value(_ p: Double) -> Value {
        let q = min(1, max(0, p))
        if q <= 0 { return .point(points[0]) }
        if q >= 1 { return .point(points[points.count - 1]) }
        let total = lengths[lengths.count - 1]
        guard total > 0 else { return .point(points[points.count - 1]) }
        let target = q * total
        var lo = 0, hi = lengths.count - 1
        while lo + 1 < hi {
            let mid = (lo + hi) / 2
            if lengths[mid] <= target { lo = mid } else { hi = mid }
        }
        let span = lengths[hi] - lengths[lo]
        let f = span > 0 ? (target - lengths[lo]) / span : 0
        let sample = Double(lo) + f
        let n = PathTrack.samplesPerSegment
        let s = min(points.count - 2, Int(sample) / n)
        let t = (sample - Double(s * n)) / Double(n)
        return .point(PathTrack.point(points, s, min(1, max(0, t))))
    }
}

/// One property moved by a tween or spring: the segment's timing with the property's
/// endpoints. It is self-contained — the history and recordings keep copies after the segment
/// is over — and its value is a pure function of its instance's local time.
public struct TrackMotion: Sendable {
    /// The instance whose clock it runs on.
    public internal(set) var instance: Int32
    /// The start of the active interval, in the instance's local time.
    public internal(set) var begin: Time
    /// The timing and easing, or the spring's settling time.
    public internal(set) var motion: SegmentMotion
    /// The shape moved.
    public internal(set) var shape: ShapeID
    /// The property moved.
    public internal(set) var property: PropertyID
    /// The value at the start.
    public internal(set) var from: Value
    /// The value at the end.
    public internal(set) var to: Value
    /// For a tween with a plan: its end in local time and the eased progress there, so that
    /// landing on its final value needs no timing model (nil: work it out when it ends).
    var ending: Ending?
    /// Keyframes, a path or springs, boxed: most tracks have none, and a track is copied into
    /// the history and recordings, so it stays cheap to copy.
    private var extras: Extras?

    /// Where a planned tween ends and how far its easing has taken it there.
    struct Ending: Sendable {
        var time: Time
        var progress: Double
    }

    /// What only some tracks have. Never changed once made: a setter makes a new box.
    private final class Extras: Sendable {
        let keyframes: KeyframeTrack?
        let path: PathTrack?
        let springs: [SpringMotion]
        init(keyframes: KeyframeTrack?, path: PathTrack?, springs: [SpringMotion]) {
            self.keyframes = keyframes
            self.path = path
            self.springs = springs
        }
    }

    init(instance: Int32, begin: Time, motion: SegmentMotion, shape: ShapeID, property: PropertyID, from: Value, to: Value,
         ending: Ending? = nil) {
        self.instance = instance
        self.begin = begin
        self.motion = motion
        self.shape = shape
        self.property = property
        self.from = from
        self.to = to
        self.ending = ending
    }

    /// Keyframes followed instead of going straight from `from` to `to`.
    public internal(set) var keyframes: KeyframeTrack? {
        get { extras?.keyframes }
        set { extras = Extras(keyframes: newValue, path: path, springs: springs) }
    }
    /// A smooth path followed instead.
    public internal(set) var path: PathTrack? {
        get { extras?.path }
        set { extras = Extras(keyframes: keyframes, path: newValue, springs: springs) }
    }
    /// For springs: one closed-form motion per component of the value.
    public internal(set) var springs: [SpringMotion] {
        get { extras?.springs ?? [] }
        set { extras = Extras(keyframes: keyframes, path: path, springs: newValue) }
    }

    /// Whether it goes straight from `from` to `to` (no keyframes, path or springs).
    var isStraight: Bool { extras == nil }

    /// The value at local time `t` (clamped to the active interval).
    /// `backwards`: the playhead moves backward, which decides the phase of the two boundary
    /// instants: the start of the active interval is then in the before phase and the end in the
    /// active one (`TweenTiming.phase`). The before flag of step easings follows the phase; it is
    /// never set inside the active interval.
    public func value(at t: Time, backwards: Bool = false) -> Value {
        switch motion {
        case .tween(let timing, let easing):
            // TweenTiming.transformedProgress, keeping the before flag for the keyframes.
            let s = timing.sample(at: t - begin, backwards: backwards)
            let e = easing(s.directedProgress, beforeFlag: s.beforeFlag)
            guard let x = extras else { return Value.interpolate(from, to, e) }
            if let kf = x.keyframes { return kf.value(e, beforeFlag: s.beforeFlag) }
            if let path = x.path { return path.value(e) }
            return Value.interpolate(from, to, e)
        case .spring(let duration):
            let u = t - begin
            if u >= duration { return to }
            let s = max(0, u.seconds)
            return Components.assemble(to, springs.map { $0.position(at: s) })
        }
    }

    /// The value at local time `t` when the motion ends there: the same as `value(at:)`,
    /// without the timing model when the plan worked out the end already.
    func finalValue(at t: Time) -> Value {
        if let e = ending, e.time == t, extras == nil { return Value.interpolate(from, to, e.progress) }
        return value(at: t)
    }

    /// The rate of change per second of local time.
    public func velocity(at t: Time) -> Value {
        switch motion {
        case .spring(let duration):
            let u = t - begin
            if u >= duration || u.ticks < 0 { return Components.zero(like: to) }
            return Components.assemble(to, springs.map { $0.velocity(at: u.seconds) })
        case .tween(let timing, _):
            // A central difference over 1 ms, kept inside the active interval.
            let h = Time(ticks: 1_000_000)
            let active = timing.activeDuration ?? .max
            let lo = max(begin, t - h), hi = min(begin + active, t + h)
            guard hi > lo else { return Components.zero(like: to) }
            let a = Components.split(value(at: lo)), b = Components.split(value(at: hi))
            let dt = (hi - lo).seconds
            return Components.assemble(to, zip(a, b).map { ($1 - $0) / dt })
        }
    }
}

/// A track as the interpreter keeps it while its segment runs: plain data, so writing one into
/// the pool copies bytes and retains nothing. A straight tween between two numeric values —
/// nearly every track — is all here; any other track (keyframes, a path, springs) keeps its
/// whole TrackMotion in the interpreter's `boxedTracks` and answers through it.
struct LiveTrack: Sendable {
    var instance: Int32
    var shape: ShapeID
    var property: PropertyID
    var begin: Time
    var motion: SegmentMotion
    var ending: TrackMotion.Ending?
    var from: NumericValue
    var to: NumericValue
    /// Whether the track's TrackMotion is in `boxedTracks` (at the same index).
    var isBoxed = false

    /// A straight tween from `from` to `to`.
    init(instance: Int32, shape: ShapeID, property: PropertyID, begin: Time, motion: SegmentMotion,
         ending: TrackMotion.Ending?, from: NumericValue, to: NumericValue) {
        self.instance = instance
        self.shape = shape
        self.property = property
        self.begin = begin
        self.motion = motion
        self.ending = ending
        self.from = from
        self.to = to
    }

    /// A track as plain data, or nil when it must be boxed.
    init?(_ m: TrackMotion) {
        guard m.isStraight, case .tween = m.motion, let a = NumericValue(m.from), let b = NumericValue(m.to) else { return nil }
        self.init(instance: m.instance, shape: m.shape, property: m.property, begin: m.begin, motion: m.motion,
                  ending: m.ending, from: a, to: b)
    }

    /// The stand-in for a boxed TrackMotion (its identity; values come from the box).
    init(boxing m: TrackMotion) {
        self.init(instance: m.instance, shape: m.shape, property: m.property, begin: m.begin, motion: m.motion,
                  ending: m.ending, from: .zero, to: .zero)
        isBoxed = true
    }

    /// A pool entry no segment uses yet.
    static let placeholder = LiveTrack(instance: -1, shape: ShapeID(0), property: PropertyID(0), begin: .zero,
                                       motion: .spring(duration: .zero), ending: nil, from: .zero, to: .zero)

    /// The track as a TrackMotion (not boxed).
    var trackMotion: TrackMotion {
        TrackMotion(instance: instance, begin: begin, motion: motion, shape: shape, property: property,
                    from: from.value, to: to.value, ending: ending)
    }

    /// The value at local time `t` (not boxed): what `TrackMotion.value(at:)` gives.
    func value(at t: Time) -> Value {
        guard case .tween(let timing, let easing) = motion else { return trackMotion.value(at: t) }
        return Value.interpolate(from.value, to.value, timing.transformedProgress(at: t - begin, easing: easing))
    }

    /// The value at local time `t` when the track ends there (not boxed): what
    /// `TrackMotion.finalValue(at:)` gives.
    func finalValue(at t: Time) -> Value {
        if let e = ending, e.time == t { return Value.interpolate(from.value, to.value, e.progress) }
        return value(at: t)
    }
}

/// A running tween or spring: its frame, and its tracks — a run of the interpreter's track
/// pool that the segment slot keeps for its next occupant, so a chain of tweens allocates
/// nothing.
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

/// Values as lists of numbers (for springs and velocities, which work per component).
enum Components {
    /// The numeric components: 1 for numbers, angles and times, 2 for points, 4 for colors.
    static func split(_ v: Value) -> [Double] {
        switch v {
        case .number(let n): [n]
        case .angle(let a): [a.degrees]
        case .time(let t): [t.seconds]
        case .point(let p): [p.x, p.y]
        case .color(let c): [c.r, c.g, c.b, c.a]
        default: []
        }
    }

    /// A value of the same kind as `like` built from components.
    static func assemble(_ like: Value, _ c: [Double]) -> Value {
        switch like {
        case .number: .number(c[0])
        case .angle: .angle(Angle(degrees: c[0]))
        case .time: .time(Time(seconds: c[0]) ?? .zero)
        case .point: .point(Point(c[0], c[1]))
        case .color: .color(Color(r: c[0], g: c[1], b: c[2], a: c[3]))
        default: like
        }
    }

    /// Zero of a value's kind.
    static func zero(like v: Value) -> Value { assemble(v, [Double](repeating: 0, count: max(1, split(v).count))) }
}
