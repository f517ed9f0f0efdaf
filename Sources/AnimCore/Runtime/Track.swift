// Track: one property moved by a running tween or spring — the one running-track type. It is
// plain data (its endpoints are NumericValues, its timing and curve are indices into the
// interpreter's TrackTables), so writing one into the pool or the log copies bytes and retains
// nothing. Its value is a pure function of its instance's local time, which is what lets
// instances pause, reverse and seek, and what lets the log keep it after it is over.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a track's progress runs.
enum TrackTiming: Hashable, Sendable {
    /// Web Animations timing and an easing.
    case tween(TweenTiming, Easing)
    /// A spring that settles after `duration`.
    case spring(duration: Time)
}

/// The path a track's value follows from its start to its end: an index into TrackTables.
enum TrackCurve: Hashable, Sendable {
    /// Straight from `from` to `to` (`NumericValue.interpolate`).
    case straight
    /// Through keyframes (`TrackTables.keyframes`).
    case keyframes(Int32)
    /// Along a smooth path (`TrackTables.paths`).
    case path(Int32)
    /// One closed-form spring per component (`TrackTables.springs`, from this index).
    case springs(Int32)
    /// The angle of a path's tangent (`TrackTables.paths`), plus the track's `from` angle:
    /// the rotation of `path [...] orient` (MotionPathPlugin `autoRotate`).
    case pathTangent(Int32)
    /// A morph of a point list or path data (`TrackTables.morphs`): the track's numbers run
    /// from 0 to 1 (its eased progress), and the property's value is the morph there.
    case morph(Int32)
}

extension TrackCurve {
    /// Whether the track's numbers are the property's value (all but a morph's).
    var isNumeric: Bool {
        if case .morph = self { return false }
        return true
    }
}

/// One property moved by a tween or spring.
struct Track: Sendable {
    /// The instance whose clock it runs on.
    var instance: Int32
    /// The property moved.
    var key: PropertyKey
    /// The start of the active interval, in the instance's local time.
    var begin: Time
    /// Its timing, in `TrackTables.timings`.
    var timing: Int32
    /// What it follows between its endpoints.
    var curve: TrackCurve
    /// The value at the start, and at the end.
    var from: NumericValue
    var to: NumericValue
    /// For a tween with a plan: its end in local time and the eased progress there, so that
    /// landing on its final value needs no timing model (nil: work it out when it ends).
    var ending: Ending?

    /// Where a planned tween ends and how far its easing has taken it there.
    struct Ending: Sendable {
        var time: Time
        var progress: Double
    }

    /// A pool entry no segment uses yet.
    static var placeholder: Track { Track(instance: -1, key: PropertyKey(ShapeID(0), PropertyID(0)), begin: .zero, timing: 0,
                                   curve: .straight, from: .zero, to: .zero, ending: nil) }
}

/// Keyframes of one track: values at offsets with the easing of the segment arriving at each.
/// Invariant: at least two keyframes, the first at offset 0, offsets in [0, 1] and not
/// decreasing (the checker and `Interpreter.buildKeyframes` see to it).
struct KeyframeTrack: Sendable {
    var offsets: [Double]
    var values: [NumericValue]
    var easings: [Easing?]

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
    func value(_ p: Double, beforeFlag: Bool = false) -> NumericValue {
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
        return NumericValue.interpolate(values[k], values[k + 1], eased)
    }
}

/// A smooth path through points: a uniform Catmull-Rom spline (tension 1/2) through them,
/// travelled at constant speed by an arc-length table. Sources: Catmull & Rom, "A class of
/// local interpolating splines" (1974); the end tangents repeat the end points.
struct PathTrack: Sendable {
    var points: [Point]
    /// Cumulative arc length at each sample: `samplesPerSegment` per segment.
    var lengths: [Double]
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
    func value(_ p: Double) -> NumericValue {
        NumericValue(.point(location(p)))!
    }

    /// The tangent's angle at overall progress p (clamped to [0, 1]), in degrees: atan2(dy, dx)
    /// of the spline's derivative there, in stage coordinates (y down); 0 where the path does
    /// not move.
    func tangentDegrees(_ p: Double) -> Double {
        let (s, t) = parameter(p)
        let pts = points
        let p1 = pts[s], p2 = pts[s + 1]
        let p0 = s > 0 ? pts[s - 1] : p1
        let p3 = s + 2 < pts.count ? pts[s + 2] : p2
        func d(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
            0.5 * ((-a + c) + 2 * (2 * a - 5 * b + 4 * c - d) * t + 3 * (-a + 3 * b - 3 * c + d) * t * t)
        }
        let dx = d(p0.x, p1.x, p2.x, p3.x), dy = d(p0.y, p1.y, p2.y, p3.y)
        guard dx != 0 || dy != 0 else { return 0 }
        return atan2(dy, dx) * 180 / Double.pi
    }

    /// The segment and its parameter at overall progress p (clamped to [0, 1]), by arc length.
    private func parameter(_ p: Double) -> (Int, Double) {
        let q = min(1, max(0, p))
        let last = points.count - 2
        if q <= 0 { return (0, 0) }
        let total = lengths[lengths.count - 1]
        if q >= 1 || !(total > 0) { return (last, 1) }
        return segment(at: q * total)
    }

    /// The segment and its parameter (0…1) at arc length `target`, strictly inside the path.
    private func segment(at target: Double) -> (Int, Double) {
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
        return (s, min(1, max(0, (sample - Double(s * n)) / Double(n))))
    }

    /// The point at overall progress p (clamped to [0, 1]), by arc length.
    private func location(_ p: Double) -> Point {
        let q = min(1, max(0, p))
        if q <= 0 { return points[0] }
        if q >= 1 { return points[points.count - 1] }
        let total = lengths[lengths.count - 1]
        guard total > 0 else { return points[points.count - 1] }
        let (s, t) = segment(at: q * total)
        return PathTrack.point(points, s, t)
    }
}

/// The timings and curves tracks refer to by index. The interpreter owns them; every log of
/// tracks (the run's history, the recordings) is read through them, and a Timeline keeps them.
/// Timings are kept once each, so a thousand tweens of one step share one entry. The arrays sit
/// in one copy-on-write box, so copying the tables (into a history, or for a call) is a retain.
struct TrackTables: Sendable {
    /// The arrays. Written only while uniquely referenced (`unique()`), as an Array's storage
    /// is, so sharing one between threads is safe.
    private final class Storage: @unchecked Sendable {
        var timings: [TrackTiming] = []
        var timingEasing: [Int32] = []
        var plainTicks: [Int64] = []
        var easings: [Easing] = []
        var keyframes: [KeyframeTrack] = []
        var paths: [PathTrack] = []
        var springs: [SpringMotion] = []
        var morphs: [Morph] = []
        var timingIndex: [TrackTiming: Int32] = [:]
        var easingIndex: [Easing: Int32] = [:]
        /// The index of the timing interned last, which the next tween most often shares (−1:
        /// none). An index, compared in place in `timings`, rather than a copy of the timing:
        /// copying one out and destroying it (an enum with an easing inside) cost more than
        /// the comparison (callgrind, lsp-5000: 0.44 M instructions of 4,042 interns).
        var last: Int32 = -1

        func copy() -> Storage {
            let c = Storage()
            c.timings = timings; c.timingEasing = timingEasing; c.plainTicks = plainTicks; c.easings = easings
            c.keyframes = keyframes; c.paths = paths; c.springs = springs; c.morphs = morphs
            c.timingIndex = timingIndex; c.easingIndex = easingIndex; c.last = last
            return c
        }
    }

    private var s = Storage()

    private mutating func unique() {
        if !isKnownUniquelyReferenced(&s) { s = s.copy() }
    }

    /// Distinct timings.
    var timings: [TrackTiming] { s.timings }
    /// For each timing: its easing in `easings` (−1 for a spring).
    var timingEasing: [Int32] { s.timingEasing }
    /// For each timing: the iteration duration in ticks when it is one plain iteration — once,
    /// forwards, at rate 1, 0 < d < 2⁵³ — which the sampler's lanes take (0 otherwise).
    var plainTicks: [Int64] { s.plainTicks }
    /// Distinct easings.
    var easings: [Easing] { s.easings }
    /// Keyframes, paths and springs, by the index in a track's curve.
    var keyframes: [KeyframeTrack] { s.keyframes }
    var paths: [PathTrack] { s.paths }
    var springs: [SpringMotion] { s.springs }

    /// Largest tick count of a plain iteration: below 2⁵³ every tick count is an exact Double,
    /// so u ÷ d < 1 whenever u < d and the progress needs no `rounded(.down)`.
    static let maxPlainTicks: Int64 = 1 << 53

    /// Up to how many distinct timings `intern` compares them one by one rather than hashing.
    static let timingsSearchedInOrder = 16

    /// The index of a timing, added if new.
    mutating func intern(_ timing: TrackTiming) -> Int32 {
        if s.last >= 0 && s.timings[Int(s.last)] == timing { return s.last }
        unique()
        // A script has a handful of distinct timings: comparing them in order beats hashing
        // a timing and its easing (callgrind: 1,600 instructions an intern, 5,000 tweens).
        if s.timings.count <= TrackTables.timingsSearchedInOrder {
            if let k = s.timings.firstIndex(of: timing) {
                s.last = Int32(k)
                return s.last
            }
        } else {
            // The index holds the first `timingIndex.count` timings: it is made, and caught up,
            // only once the timings outgrow the search in order, so a script with few of them
            // never hashes one (nor pays for the dictionary's first use, 0.4 M instructions of
            // metadata on lsp-5000).
            var k = s.timingIndex.count
            while k < s.timings.count { s.timingIndex[s.timings[k]] = Int32(k); k += 1 }
            if let i = s.timingIndex[timing] {
                s.last = i
                return i
            }
        }
        let i = Int32(s.timings.count)
        s.timings.append(timing)
        switch timing {
        case .tween(let t, let e):
            s.timingEasing.append(intern(e))
            let d = t.iterationDuration.ticks
            let plain = t.iterations == 1 && t.iterationStart == 0 && t.rate == 1 && t.direction == .normal && t.repeatDelay.ticks == 0
                && d > 0 && d < TrackTables.maxPlainTicks
            s.plainTicks.append(plain ? d : 0)
        case .spring:
            s.timingEasing.append(-1)
            s.plainTicks.append(0)
        }
        s.last = i
        return i
    }

    private mutating func intern(_ e: Easing) -> Int32 {
        // As for timings: in order while there are few, then by an index made on first need.
        if s.easings.count <= TrackTables.timingsSearchedInOrder {
            if let k = s.easings.firstIndex(of: e) { return Int32(k) }
        } else {
            var k = s.easingIndex.count
            while k < s.easings.count { s.easingIndex[s.easings[k]] = Int32(k); k += 1 }
            if let i = s.easingIndex[e] { return i }
        }
        s.easings.append(e)
        return Int32(s.easings.count - 1)
    }

    /// Adds keyframes; returns their index.
    mutating func add(keyframes k: KeyframeTrack) -> Int32 {
        unique()
        s.keyframes.append(k)
        return Int32(s.keyframes.count - 1)
    }

    /// Adds a path; returns its index.
    mutating func add(path p: PathTrack) -> Int32 {
        unique()
        s.paths.append(p)
        return Int32(s.paths.count - 1)
    }

    /// Adds one spring motion; returns its index.
    mutating func add(spring m: SpringMotion) -> Int32 {
        unique()
        s.springs.append(m)
        return Int32(s.springs.count - 1)
    }

    /// Whether any curve is kept.
    var hasCurves: Bool { !(s.keyframes.isEmpty && s.paths.isEmpty && s.springs.isEmpty && s.morphs.isEmpty) }

    /// Forgets every curve (keyframes, paths, springs) while keeping the timings: when no
    /// track and no log refers to one any more.
    mutating func dropCurves() {
        unique()
        s.keyframes.removeAll(keepingCapacity: true)
        s.paths.removeAll(keepingCapacity: true)
        s.springs.removeAll(keepingCapacity: true)
        s.morphs.removeAll(keepingCapacity: true)
    }

    /// Keeps a morph; returns its index for `TrackCurve.morph`.
    mutating func add(morph: Morph) -> Int32 {
        unique()
        s.morphs.append(morph)
        return Int32(s.morphs.count - 1)
    }

    /// A track's value as the property's: its numbers, or for a morph the morph at them.
    func propertyValue(_ tr: Track, at t: Time, backwards: Bool = false) -> Value {
        let n = value(tr, at: t, backwards: backwards)
        if case .morph(let k) = tr.curve { return s.morphs[Int(k)].value(n.arithmetic(0)) }
        return n.value
    }

    /// `finalValue` as the property's value (see `propertyValue`).
    func finalPropertyValue(_ tr: Track, at t: Time) -> Value {
        let n = finalValue(tr, at: t)
        if case .morph(let k) = tr.curve { return s.morphs[Int(k)].value(n.arithmetic(0)) }
        return n.value
    }

    // MARK: - Values

    /// A track's value at its instance's local time `t`. `backwards`: the playhead moves
    /// backward, which decides the phase of the two boundary instants: the start of the active
    /// interval is then in the before phase and the end in the active one (`TweenTiming.phase`).
    /// The before flag of step easings follows the phase; it is never set inside the active
    /// interval.
    func value(_ tr: Track, at t: Time, backwards: Bool = false) -> NumericValue {
        switch s.timings[Int(tr.timing)] {
        case .tween(let timing, let easing):
            // TweenTiming.transformedProgress, keeping the before flag for the keyframes.
            let sample = timing.sample(at: t - tr.begin, backwards: backwards)
            let e = easing(sample.directedProgress, beforeFlag: sample.beforeFlag)
            switch tr.curve {
            case .straight, .springs, .morph: return NumericValue.interpolate(tr.from, tr.to, e)
            case .keyframes(let k): return s.keyframes[Int(k)].value(e, beforeFlag: sample.beforeFlag)
            case .path(let k): return s.paths[Int(k)].value(e)
            case .pathTangent(let k):
                var out = tr.from
                out.setArithmetic(0, tr.from.arithmetic(0) + s.paths[Int(k)].tangentDegrees(e))
                return out
            }
        case .spring(let duration):
            let u = t - tr.begin
            guard u < duration, case .springs(let first) = tr.curve else { return tr.to }
            let seconds = max(0, u.seconds)
            var out = NumericValue(zero: tr.to.layout)
            for c in 0..<tr.to.layout.components { out.setArithmetic(c, s.springs[Int(first) + c].position(at: seconds)) }
            return out
        }
    }

    /// The value of a track that ends at local time `t`: its value there, without the timing
    /// model when its plan worked out the end already.
    func finalValue(_ tr: Track, at t: Time) -> NumericValue {
        if let e = tr.ending, e.time == t {
            switch tr.curve {
            case .straight, .morph: return NumericValue.interpolate(tr.from, tr.to, e.progress)
            default: break
            }
        }
        return value(tr, at: t)
    }

    /// A track's rate of change per second of its instance's local time at `t`.
    func velocity(_ tr: Track, at t: Time) -> NumericValue {
        let zero = NumericValue(zero: tr.to.layout)
        let n = tr.to.layout.components
        switch s.timings[Int(tr.timing)] {
        case .spring(let duration):
            let u = t - tr.begin
            guard u < duration, u.ticks >= 0, case .springs(let first) = tr.curve else { return zero }
            var out = zero
            for c in 0..<n { out.setArithmetic(c, s.springs[Int(first) + c].velocity(at: u.seconds)) }
            return out
        case .tween(let timing, _):
            // A central difference over 1 ms, kept inside the active interval.
            let h = Time(ticks: 1_000_000)
            let active = timing.activeDuration ?? .max
            let lo = max(tr.begin, t - h), hi = min(tr.begin + active, t + h)
            guard hi > lo else { return zero }
            let a = value(tr, at: lo), b = value(tr, at: hi)
            let dt = (hi - lo).seconds
            var out = zero
            for c in 0..<n { out.setArithmetic(c, (b.arithmetic(c) - a.arithmetic(c)) / dt) }
            return out
        }
    }
}
