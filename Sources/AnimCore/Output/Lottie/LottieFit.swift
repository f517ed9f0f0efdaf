// LottieFit: a stretch of a channel that is not one exact cubic-Bézier tween, as Lottie
// keyframes that a player interpolates to within a bound of anim's value at every instant, not
// only at frames.
//
// A Lottie keyframe's `o`/`i` handles are a time-remapping cubic per segment: between keys at
// frames f0 and f1 the value is s + (e − s)·B(u), u = (f − f0)/(f1 − f0), B the CSS-style
// cubic-bezier(o.x, o.y, i.x, i.y). The format allows a handle pair per component, which
// lottie-web and lottie-android read, but rlottie and lottie-ios read only the first, so the
// fit uses one pair for all the components of a value: exact in shape for a straight tween,
// whose components all follow the same eased progress. With x handles 1/3 and 2/3, B is the
// cubic polynomial with Bernstein coefficients 0, o.y, i.y, 1, so a segment is any cubic
// through its two end values. Where a position curves (a path, centre and offset moving apart)
// and that cubic leaves the bound, the segment is spatial: a Bézier path (`to`/`ti`) that
// players travel by arc length, at the pace the handles ease (`path(_:_:_:)`).
//
// The fit samples anim's exact curve (the history's own `value(at:)`, so every easing, spring,
// repeat, keyframe list and replay is what the engine computes) at 1/64 frame (finer below 30
// fps: at most 1/1920 s apart) and grows each segment greedily: the longest run of samples
// whose least-squares cubic (with the ends as written, 4 decimals; fitted to at most about 128
// of the run's samples) is within 0.8 of the channel's bound at every sample, found by doubling
// and bisection; the fifth left over covers the instants between samples. A kink or the end of
// a tween thus lands on a key to the sample spacing. The keys of a segment's inside are on that
// grid, k/64 frames, which the document writes exactly.
//
// A `steps()` tween is a run of held values: one hold key per change, at the nanosecond the
// value changes (found by bisection), written as the shortest decimal frame from which on a
// player's frame is that nanosecond or later.

/// How a channel's numbers are written, and how far a player's value may be from anim's.
struct LottieChannelFormat {
    /// Decimals of the values.
    var decimals = 4
    /// Never written below the exact value by more than rounding noise: a player that
    /// truncates (lottie-web's and rlottie's colour channels, c × 255) then lands on it.
    var roundsUp = false
    /// The largest distance between the player's value and anim's, Euclidean over the
    /// components, in the channel's Lottie units.
    var tolerance: Double

    /// The value as written.
    func quantized(_ x: Double) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard x.isFinite, abs(x * scale) < 0x1p62 else { return x }
        var n = (x * scale).rounded()
        if roundsUp && n / scale < x - 1e-12 { n += 1 }
        return n / scale
    }

    /// `0.956863`.
    func string(_ x: Double) -> String { formatFixed(quantized(x), decimals) }
}

/// The ease of one keyframe: Lottie's out (`o`) and in (`i`) handles, cubic-bezier(x1, y1,
/// x2, y2), one pair for every component.
struct LottieHandles: Equatable {
    var x1: Double, y1: Double, x2: Double, y2: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// A polynomial cubic (x handles 1/3 and 2/3) with these y handles.
    init(polynomial y1: Double, _ y2: Double) { self.init(1.0 / 3, y1, 2.0 / 3, y2) }

    static let linear = LottieHandles(0, 0, 1, 1)
}

/// One keyframe: its frame (written with `digits` decimals), value, ease and whether it holds.
struct LottieKey {
    var t: Double
    var digits: Int
    var v: [Double]
    var h: LottieHandles?
    var hold: Bool
    /// A position's spatial tangents to the next key: its path is the cubic Bézier v, v + to,
    /// next + ti, next, travelled by arc length at the pace `h` eases.
    var tangents: (to: [Double], ti: [Double])? = nil
}

/// Fits keyframes to one channel's exact curve.
struct LottieFitter {
    let fps: Int
    let format: LottieChannelFormat
    let sample: (Time) -> [Double]
    /// A position (x, y, 0): a run the value's own cubic cannot follow may be a spatial
    /// Bézier segment (`to`/`ti`) instead.
    var spatial = false

    /// Instants per frame of the sampling grid: 64, doubled until they are at most 1/1920 s apart.
    var perFrame: Int {
        var s = 64
        while fps * s < 1920 { s *= 2 }
        return s
    }

    /// The decimals that write k / perFrame exactly.
    var gridDigits: Int {
        var d = 0, s = 1
        while s < perFrame { s *= 2; d += 1 }
        return d
    }

    /// The stretch's samples: its start, the grid's instants strictly inside, its end.
    struct Samples {
        var frames: [Double] = []
        var times: [Time] = []
        var values: [[Double]] = []
        var count: Int { frames.count }
    }

    /// `a`'s frame as the document writes a piece's start (4 decimals).
    func startFrame(_ a: Time) -> Double { LottieChannelFormat(tolerance: 0).quantized(a.seconds * Double(fps)) }

    func samples(_ a: Time, _ b: Time) -> Samples {
        var s = Samples()
        func add(_ f: Double, _ t: Time) { s.frames.append(f); s.times.append(t); s.values.append(sample(t)) }
        let first = startFrame(a), last = startFrame(b)
        add(first, a)
        let grid = FrameGrid(fps: fps * perFrame)
        var k = grid.lastFrame(atOrBefore: a) + 1
        while true {
            let t = grid.time(ofFrame: k), f = Double(k) / Double(perFrame)
            if t >= b || f >= last { break }
            if t > a && f > first { add(f, t) }
            k += 1
        }
        if b > a { add(startFrame(b), b) }
        return s
    }

    // MARK: - Cubic fits

    /// A long stretch is fitted a chunk of about 65,536 samples at a time (1,024 frames at 30
    /// fps or more), with a key at each chunk's start, a whole frame, so that the samples held
    /// at once stay bounded however long the run.
    func chunks(_ a: Time, _ b: Time) -> [(Time, Time)] {
        let grid = FrameGrid(fps: fps), size = Int64(max(1, 65536 / perFrame))
        var out: [(Time, Time)] = [], start = a
        var k = (grid.lastFrame(atOrBefore: a) / size + 1) * size
        while true {
            let t = grid.time(ofFrame: k)
            if t >= b { break }
            if t > start { out.append((start, t)); start = t }
            k += size
        }
        out.append((start, b))
        return out
    }

    /// Keys for [a, b): a segment from each, with its handles (the caller adds b's key).
    func fitted(_ a: Time, _ b: Time) -> [LottieKey] {
        chunks(a, b).flatMap { fittedChunk($0.0, $0.1) }
    }

    func fittedChunk(_ a: Time, _ b: Time) -> [LottieKey] {
        let p = samples(a, b)
        guard p.count > 1 else { return [] }
        var keys: [LottieKey] = []
        var i = 0, run = 4
        while i < p.count - 1 {
            var good = i + 1
            var best: Segment = fit(p, i, good) ?? (.linear, false, nil)
            var bad = p.count, step = max(1, run)
            while true {
                let j = min(i + step, p.count - 1)
                if j <= good { break }
                if let f = fit(p, i, j) {
                    good = j; best = f
                    if j == p.count - 1 { break }
                    step *= 2
                } else {
                    bad = j
                    break
                }
            }
            while bad - good > 1 {
                let mid = (good + bad) / 2
                if let f = fit(p, i, mid) { good = mid; best = f } else { bad = mid }
            }
            let v = p.values[i].map(format.quantized)
            keys.append(LottieKey(t: p.frames[i], digits: i == 0 ? 4 : gridDigits, v: v, h: best.0, hold: best.1, tangents: best.2))
            run = good - i
            i = good
        }
        return keys
    }

    /// A fitted segment: its ease, whether it holds, and a position's spatial tangents.
    typealias Segment = (LottieHandles, Bool, (to: [Double], ti: [Double])?)

    /// The segment from sample i to sample j: the value's own cubic, or for a position a
    /// spatial one, if it is within the bound at every sample between.
    func fit(_ p: Samples, _ i: Int, _ j: Int) -> Segment? {
        if let f = cubic(p, i, j) { return (f.0, f.1, nil) }
        guard spatial, let f = path(p, i, j) else { return nil }
        return (f.0, false, f.1)
    }

    /// The cubic from sample i to sample j with the ends as written, if it is within the
    /// bound at every sample between; `hold` when it is a constant.
    func cubic(_ p: Samples, _ i: Int, _ j: Int) -> (LottieHandles, Bool)? {
        let v0 = p.values[i].map(format.quantized), v1 = p.values[j].map(format.quantized)
        let dims = v0.count
        let f0 = p.frames[i], span = p.frames[j] - f0
        guard span > 0, dims > 0 else { return nil }
        let limit = format.tolerance * 0.8  // a margin for the instants between samples
        let bound2 = limit * limit
        let delta = (0..<dims).map { v1[$0] - v0[$0] }
        // A long run is fitted to, and first checked at, about 128 of its samples: most runs
        // that fail, fail there.
        let inside = (i + 1)..<j
        let few = stride(from: i + 1, to: j, by: max(1, (j - i) / 128))
        if delta.allSatisfy({ $0 == 0 }) {
            for k in inside {
                var e2 = 0.0
                for d in 0..<dims { let e = p.values[k][d] - v0[d]; e2 += e * e }
                if e2 > bound2 { return nil }
            }
            return (LottieHandles(polynomial: 1.0 / 3, 2.0 / 3), true)
        }
        // Least squares for the two y handles, shared by the components (weighted by their
        // change), pulled very slightly towards the straight line so that a short run is well
        // posed.
        var s11 = 0.0, s12 = 0.0, s22 = 0.0, c1 = 0.0, c2 = 0.0
        for k in few {
            let u = (p.frames[k] - f0) / span, w = 1 - u
            let b1 = 3 * u * w * w, b2 = 3 * u * u * w, b3 = u * u * u
            s11 += b1 * b1; s12 += b1 * b2; s22 += b2 * b2
            for d in 0..<dims where delta[d] != 0 {
                let r = (p.values[k][d] - v0[d] - delta[d] * b3) * delta[d]
                c1 += b1 * r; c2 += b2 * r
            }
        }
        let weight = delta.map { $0 * $0 }.reduce(0, +)
        let lambda = 1e-9 + 1e-7 * (s11 + s22)
        let a11 = (s11 + lambda) * weight, a12 = s12 * weight, a22 = (s22 + lambda) * weight
        c1 += lambda * weight / 3; c2 += lambda * weight * 2 / 3
        let det = a11 * a22 - a12 * a12
        guard det > 0, det.isFinite else { return nil }
        // The handles as written (6 decimals).
        let y1 = Self.handle((c1 * a22 - a12 * c2) / det), y2 = Self.handle((a11 * c2 - a12 * c1) / det)
        func within<S: Sequence<Int>>(_ ks: S) -> Bool {
            for k in ks {
                let u = (p.frames[k] - f0) / span, w = 1 - u
                let eased = 3 * u * w * w * y1 + 3 * u * u * w * y2 + u * u * u
                var e2 = 0.0
                for d in 0..<dims {
                    let e = v0[d] + delta[d] * eased - p.values[k][d]
                    e2 += e * e
                }
                if e2 > bound2 { return false }
            }
            return true
        }
        guard within(few), within(inside) else { return nil }
        return (LottieHandles(polynomial: y1, y2), false)
    }

    // MARK: - Spatial segments

    /// Chords of a spatial segment's arc-length table (lottie-web walks 150 or more; rlottie
    /// solves for the length).
    static let chords = 100

    /// Sample i to sample j of a position as a spatial Bézier segment: its control points are
    /// the least-squares cubic through the run's points (parameterised by chord length), its
    /// ease the least-squares cubic of the arc-length fraction at each sample's nearest point;
    /// checked as a player computes it: the point at the eased fraction of the arc length.
    func path(_ p: Samples, _ i: Int, _ j: Int) -> (LottieHandles, (to: [Double], ti: [Double]))? {
        let v0 = p.values[i].map(format.quantized), v1 = p.values[j].map(format.quantized)
        guard v0.count == 3, j - i >= 4 else { return nil }
        let f0 = p.frames[i], span = p.frames[j] - f0
        guard span > 0 else { return nil }
        let bound2 = format.tolerance * 0.8 * format.tolerance * 0.8
        let few = Array(stride(from: i + 1, to: j, by: max(1, (j - i) / 128)))
        // Chord-length parameters of the run's points.
        var lengths = [0.0]
        var last = (v0[0], v0[1])
        for k in few + [j] {
            let q = k == j ? (v1[0], v1[1]) : (p.values[k][0], p.values[k][1])
            lengths.append(lengths[lengths.count - 1] + ((q.0 - last.0) * (q.0 - last.0) + (q.1 - last.1) * (q.1 - last.1)).squareRoot())
            last = q
        }
        let travelled = lengths[lengths.count - 1]
        guard travelled > 0 else { return nil }
        // Least squares for the two inner control points, pulled very slightly towards the
        // straight line.
        var s11 = 0.0, s12 = 0.0, s22 = 0.0, rx1 = 0.0, rx2 = 0.0, ry1 = 0.0, ry2 = 0.0
        for (n, k) in few.enumerated() {
            let t = lengths[n + 1] / travelled, w = 1 - t
            let b0 = w * w * w, b1 = 3 * t * w * w, b2 = 3 * t * t * w, b3 = t * t * t
            let rx = p.values[k][0] - v0[0] * b0 - v1[0] * b3, ry = p.values[k][1] - v0[1] * b0 - v1[1] * b3
            s11 += b1 * b1; s12 += b1 * b2; s22 += b2 * b2
            rx1 += b1 * rx; rx2 += b2 * rx; ry1 += b1 * ry; ry2 += b2 * ry
        }
        let lambda = 1e-9 + 1e-7 * (s11 + s22)
        let a11 = s11 + lambda, a22 = s22 + lambda, det = a11 * a22 - s12 * s12
        guard det > 0, det.isFinite else { return nil }
        let dx = v1[0] - v0[0], dy = v1[1] - v0[1]
        rx1 += lambda * (v0[0] + dx / 3); rx2 += lambda * (v0[0] + 2 * dx / 3)
        ry1 += lambda * (v0[1] + dy / 3); ry2 += lambda * (v0[1] + 2 * dy / 3)
        // The tangents as written (the value's decimals), and the control points they give.
        let to = [format.quantized((rx1 * a22 - s12 * rx2) / det - v0[0]), format.quantized((ry1 * a22 - s12 * ry2) / det - v0[1]), 0]
        let ti = [format.quantized((a11 * rx2 - s12 * rx1) / det - v1[0]), format.quantized((a11 * ry2 - s12 * ry1) / det - v1[1]), 0]
        let c1 = (v0[0] + to[0], v0[1] + to[1]), c2 = (v1[0] + ti[0], v1[1] + ti[1])
        // lottie-web draws a segment whose tangents lie on the line between its ends as a
        // straight one (bez.pointOnLine2D, |det| < 0.001): such a segment is the plain cubic's.
        func onLine(_ x: Double, _ y: Double) -> Bool {
            let d = v0[0] * v1[1] + v0[1] * x + v1[0] * y - x * v1[1] - y * v0[0] - v1[0] * v0[1]
            return abs(d) < 0.01
        }
        if onLine(c1.0, c1.1) && onLine(c2.0, c2.1) { return nil }
        // The arc-length table.
        let n = Self.chords
        var points: [(Double, Double)] = [], arc = [0.0]
        for m in 0...n {
            let t = Double(m) / Double(n), w = 1 - t
            let b0 = w * w * w, b1 = 3 * t * w * w, b2 = 3 * t * t * w, b3 = t * t * t
            let q = (v0[0] * b0 + c1.0 * b1 + c2.0 * b2 + v1[0] * b3, v0[1] * b0 + c1.1 * b1 + c2.1 * b2 + v1[1] * b3)
            if let r = points.last { arc.append(arc[arc.count - 1] + ((q.0 - r.0) * (q.0 - r.0) + (q.1 - r.1) * (q.1 - r.1)).squareRoot()) }
            points.append(q)
        }
        let total = arc[n]
        guard total > 0 else { return nil }
        // Each sample's arc-length fraction: its nearest point on the table's chords.
        func fraction(_ x: Double, _ y: Double) -> Double {
            var best = Double.infinity, at = 0.0
            for m in 0..<n {
                let (ax, ay) = points[m], ex = points[m + 1].0 - ax, ey = points[m + 1].1 - ay
                let l2 = ex * ex + ey * ey
                let t = l2 > 0 ? max(0, min(1, ((x - ax) * ex + (y - ay) * ey) / l2)) : 0
                let qx = ax + t * ex - x, qy = ay + t * ey - y, d = qx * qx + qy * qy
                if d < best { best = d; at = arc[m] + t * (arc[m + 1] - arc[m]) }
            }
            return at / total
        }
        var t11 = 0.0, t12 = 0.0, t22 = 0.0, c1s = 0.0, c2s = 0.0
        for k in few {
            let u = (p.frames[k] - f0) / span, w = 1 - u
            let b1 = 3 * u * w * w, b2 = 3 * u * u * w, r = fraction(p.values[k][0], p.values[k][1]) - u * u * u
            t11 += b1 * b1; t12 += b1 * b2; t22 += b2 * b2; c1s += b1 * r; c2s += b2 * r
        }
        let mu = 1e-9 + 1e-7 * (t11 + t22)
        let e11 = t11 + mu, e22 = t22 + mu, tdet = e11 * e22 - t12 * t12
        c1s += mu / 3; c2s += mu * 2 / 3
        guard tdet > 0, tdet.isFinite else { return nil }
        let y1 = Self.handle((c1s * e22 - t12 * c2s) / tdet), y2 = Self.handle((e11 * c2s - t12 * c1s) / tdet)
        // The point at a fraction of the arc length, as the table gives it.
        func point(_ f: Double) -> (Double, Double) {
            let d = f * total
            var lo = 0, hi = n
            while hi - lo > 1 { let mid = (lo + hi) / 2; if arc[mid] <= d { lo = mid } else { hi = mid } }
            let piece = arc[hi] - arc[lo], t = piece > 0 ? (d - arc[lo]) / piece : 0
            return (points[lo].0 + t * (points[hi].0 - points[lo].0), points[lo].1 + t * (points[hi].1 - points[lo].1))
        }
        func within<S: Sequence<Int>>(_ ks: S) -> Bool {
            for k in ks {
                let u = (p.frames[k] - f0) / span, w = 1 - u
                let eased = 3 * u * w * w * y1 + 3 * u * u * w * y2 + u * u * u
                // Outside 0...1 players stop at an end (lottie-web jumps to the far one
                // below 0), so the pace must stay on the segment.
                guard eased >= 0, eased <= 1 else { return false }
                let q = point(eased), ex = q.0 - p.values[k][0], ey = q.1 - p.values[k][1], ez = p.values[k][2]
                if ex * ex + ey * ey + ez * ez > bound2 { return false }
            }
            return true
        }
        guard within(few), within((i + 1)..<j) else { return nil }
        return (LottieHandles(polynomial: y1, y2), (to, ti))
    }

    /// A handle as the document writes it (6 decimals).
    static func handle(_ y: Double) -> Double {
        guard y.isFinite, abs(y) < 1e12 else { return y.isFinite ? y : 0 }
        return (y * 1e6).rounded() / 1e6
    }

    // MARK: - Steps

    /// Hold keys for [a, b) of a run of held values: its value at a, then one key at each change.
    func stepped(_ a: Time, _ b: Time) -> [LottieKey] {
        chunks(a, b).flatMap { steppedChunk($0.0, $0.1, end: b) }
    }

    func steppedChunk(_ a: Time, _ b: Time, end: Time) -> [LottieKey] {
        let p = samples(a, b)
        guard p.count > 0 else { return [] }
        var keys = [LottieKey(t: p.frames[0], digits: 4, v: p.values[0].map(format.quantized), h: nil, hold: true)]
        let perNanosecond = Double(fps) / Double(Time.ticksPerSecond)
        for k in 0..<(p.count - 1) {
            let old = p.values[k].map(format.quantized)
            guard p.values[k + 1].map(format.quantized) != old else { continue }
            // The first nanosecond with the new value.
            var lo = p.times[k].ticks, hi = p.times[k + 1].ticks
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2
                if sample(Time(ticks: mid)).map(format.quantized) == old { lo = mid } else { hi = mid }
            }
            if hi >= end.ticks { continue }  // the next stretch starts there
            // A player's frame f is anim's instant f / fps rounded to the nanosecond (half up, as
            // FrameGrid does), which is at E or later from f = (E − ½ ns) × fps on.
            let e = Double(hi)
            let (frame, digits) = Self.shortestDecimal(from: (e - 0.5) * perNanosecond, below: (e + 0.5) * perNanosecond)
            keys.append(LottieKey(t: frame, digits: digits, v: sample(Time(ticks: hi)).map(format.quantized), h: nil, hold: true))
        }
        return keys
    }

    /// The decimal with the fewest digits in [lo, hi), and its digits: no frame written with
    /// as few digits falls between lo and it.
    static func shortestDecimal(from lo: Double, below hi: Double) -> (Double, Int) {
        var m = 1.0
        for d in 0...12 {
            let x = (lo * m).rounded(.up) / m
            if x >= lo && x < hi { return (x, d) }
            m *= 10
        }
        return (lo, 12)
    }
}
