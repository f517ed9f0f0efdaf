// LottieFit: a stretch of a channel that is not one exact cubic-Bézier tween, as Lottie
// keyframes that a player interpolates to within a bound of anim's value at every instant, not
// only at frames.
//
// A Lottie keyframe's `o`/`i` handles are a time-remapping cubic per segment: between keys at
// frames f0 and f1 the value is s + (e − s)·B(u), u = (f − f0)/(f1 − f0), B the CSS-style
// cubic-bezier(o.x, o.y, i.x, i.y). The format allows a handle pair per component, which
// lottie-web and lottie-android read, but rlottie and lottie-ios read only the first, so the
// fit uses one pair for all the components of a value: exact in shape for a straight tween,
// whose components all follow the same eased progress, and for anything else (a path, a
// keyframe list through points off one line, centre and offset moving apart) a run ends where
// the shared curve leaves the bound. With x handles 1/3 and 2/3, B is the cubic polynomial with
// Bernstein coefficients 0, o.y, i.y, 1, so a segment is any cubic through its two end values.
//
// The fit samples anim's exact curve (the history's own `value(at:)`, so every easing, spring,
// repeat, keyframe list and replay is what the engine computes) at 1/64 frame (finer below 30
// fps: at most 1/1920 s apart) and grows each segment greedily: the longest run of samples
// whose least-squares cubic (with the ends as written, 4 decimals; fitted to at most about 128
// of the run's samples) is within 0.8 of the channel's bound at every sample, found by doubling
// and bisection; the fifth left over covers the instants between samples. A kink or the end of a tween thus
// lands on a key to the sample spacing. The keys of a segment's inside are on that grid, k/64
// frames, which the document writes exactly.
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
}

/// Fits keyframes to one channel's exact curve.
struct LottieFitter {
    let fps: Int
    let format: LottieChannelFormat
    let sample: (Time) -> [Double]

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

    /// Keys for [a, b): a segment from each, with its handles (the caller adds b's key).
    func fitted(_ a: Time, _ b: Time) -> [LottieKey] {
        let p = samples(a, b)
        guard p.count > 1 else { return [] }
        var keys: [LottieKey] = []
        var i = 0, run = 4
        while i < p.count - 1 {
            var good = i + 1
            var best = fit(p, i, good) ?? (.linear, false)
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
            keys.append(LottieKey(t: p.frames[i], digits: i == 0 ? 4 : gridDigits, v: v, h: best.0, hold: best.1))
            run = good - i
            i = good
        }
        return keys
    }

    /// The cubic from sample i to sample j with the ends as written, if it is within the
    /// bound at every sample between; `hold` when it is a constant.
    func fit(_ p: Samples, _ i: Int, _ j: Int) -> (LottieHandles, Bool)? {
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

    /// A handle as the document writes it (6 decimals).
    static func handle(_ y: Double) -> Double {
        guard y.isFinite, abs(y) < 1e12 else { return y.isFinite ? y : 0 }
        return (y * 1e6).rounded() / 1e6
    }

    // MARK: - Steps

    /// Hold keys for [a, b) of a run of held values: its value at a, then one key at each change.
    func stepped(_ a: Time, _ b: Time) -> [LottieKey] {
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
            if hi >= b.ticks { continue }  // the next stretch starts there
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
