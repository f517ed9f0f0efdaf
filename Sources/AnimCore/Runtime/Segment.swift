// Segment: a running tween or spring — when it began (local time of its instance), how it moves
// (timing and easing, or one closed-form spring per component), and one track per property with
// its endpoints. Sampling is a pure function of local time, which is what lets instances pause,
// reverse and seek.

/// How a segment moves.
public enum SegmentMotion: Sendable {
    /// Web Animations timing and an easing.
    case tween(TweenTiming, Easing)
    /// A spring that settles after `duration`.
    case spring(duration: Time)
}

/// Keyframes of one track: values at offsets with the easing of the segment arriving at each.
public struct KeyframeTrack: Sendable {
    public internal(set) var offsets: [Double]
    public internal(set) var values: [Value]
    public internal(set) var easings: [Easing?]

    /// The value at overall progress `p` (clamped to [0, 1]).
    public func value(_ p: Double) -> Value {
        let q = min(1, max(0, p))
        // After the last keyframe (an offset below 1) the value holds.
        if q >= offsets[offsets.count - 1] { return values[values.count - 1] }
        var k = 0
        while k + 1 < offsets.count - 1 && offsets[k + 1] <= q { k += 1 }
        let a = offsets[k], b = offsets[k + 1]
        let local = b > a ? (q - a) / (b - a) : 1
        let eased = easings[k + 1].map { $0(local) } ?? local
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

/// A running tween or spring.
public struct Segment: Sendable {
    /// One property the segment writes.
    public struct Track: Sendable {
        public internal(set) var shape: ShapeID
        public internal(set) var property: PropertyID
        public internal(set) var from: Value
        public internal(set) var to: Value
        /// False once a newer tween or a `set` took the property over.
        public internal(set) var owned: Bool
        public internal(set) var keyframes: KeyframeTrack?
        public internal(set) var path: PathTrack?
        /// For springs: one closed-form motion per component of the value.
        public internal(set) var springs: [SpringMotion] = []
    }
    public internal(set) var instance: Int32
    public internal(set) var frame: Int32
    /// The start of the active interval, in the instance's local time.
    public internal(set) var begin: Time
    public internal(set) var motion: SegmentMotion
    public internal(set) var tracks: [Track]

    /// The value of track `k` at local time `t` (clamped to the active interval).
    /// `backwards`: the playhead moves backward (step easings then use the before flag).
    public func value(track k: Int, at t: Time, backwards: Bool = false) -> Value {
        let tr = tracks[k]
        switch motion {
        case .tween(let timing, let easing):
            let e = timing.transformedProgress(at: t - begin, easing: easing, backwards: backwards)
            if let kf = tr.keyframes { return kf.value(e) }
            if let path = tr.path { return path.value(e) }
            return Value.interpolate(tr.from, tr.to, e)
        case .spring(let duration):
            let u = t - begin
            if u >= duration { return tr.to }
            let s = max(0, u.seconds)
            return Components.assemble(tr.to, tr.springs.map { $0.position(at: s) })
        }
    }

    /// The rate of change of track `k` per second of local time.
    public func velocity(track k: Int, at t: Time) -> Value {
        let tr = tracks[k]
        switch motion {
        case .spring(let duration):
            let u = t - begin
            if u >= duration || u.ticks < 0 { return Components.zero(like: tr.to) }
            return Components.assemble(tr.to, tr.springs.map { $0.velocity(at: u.seconds) })
        case .tween(let timing, _):
            // A central difference over 1 ms, kept inside the active interval.
            let h = Time(ticks: 1_000_000)
            let active = timing.activeDuration ?? .max
            let lo = max(begin, t - h), hi = min(begin + active, t + h)
            guard hi > lo else { return Components.zero(like: tr.to) }
            let a = Components.split(value(track: k, at: lo)), b = Components.split(value(track: k, at: hi))
            let dt = (hi - lo).seconds
            return Components.assemble(tr.to, zip(a, b).map { ($1 - $0) / dt })
        }
    }
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
