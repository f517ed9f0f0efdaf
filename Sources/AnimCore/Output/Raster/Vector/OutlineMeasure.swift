// OutlineMeasure: arc length along an outline, and the pieces between two lengths — what trim
// (start/end as fractions of the whole outline's length) and dashes (on/off lengths from each
// contour's start, shifted by an offset) need before a stroke. Lengths come from flattening
// each segment into chords (Wang's bound on the chord count), but the pieces cut out are
// exact Bézier sub-curves (de Casteljau at the parameter found from the length), so a dashed
// curve stays a curve. Dashing follows Skia (SkDashPath), which Chromium draws SVG with: the
// pattern restarts at each contour, and on a closed contour the dash running through the
// starting point is one dash, joined, not two capped ones.

/// Arc-length tables for the contours of an outline.
struct OutlineMeasure {
    /// One segment's table: parameters and the length of the curve up to each.
    struct SegmentTable {
        var segment: Outline.Segment
        var start: Point
        var ts: [Double]
        var lengths: [Double]
        var length: Double { lengths[lengths.count - 1] }
    }

    /// One contour's tables; a closed contour gets its closing line as a last segment.
    struct ContourTable {
        var contour: Outline.Contour
        var segments: [SegmentTable]
        /// Length up to the start of each segment.
        var offsets: [Double]
        var length: Double
    }

    var contours: [ContourTable]
    /// The length of the whole outline.
    var length: Double

    /// The most chords one segment is cut into.
    static let maxChords = 1024

    /// Measures `outline`, flattening to within `tolerance` (in the outline's units).
    init(_ outline: Outline, tolerance: Double) {
        let tol = max(tolerance, 1e-9)
        var total = 0.0
        contours = outline.contours.map { c in
            var segs: [SegmentTable] = []
            var offsets: [Double] = []
            var p0 = c.start
            var length = 0.0
            var all = c.segments
            if c.isClosed && c.end != c.start { all.append(.line(c.start)) }
            for s in all {
                let t = OutlineMeasure.table(s, from: p0, tolerance: tol)
                offsets.append(length)
                length += t.length
                segs.append(t)
                p0 = s.end
            }
            total += length
            return ContourTable(contour: c, segments: segs, offsets: offsets, length: length)
        }
        length = total
    }

    /// The chord table of one segment.
    static func table(_ s: Outline.Segment, from p0: Point, tolerance tol: Double) -> SegmentTable {
        func dist(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let n: Int
        switch s {
        case .line(let p):
            return SegmentTable(segment: s, start: p0, ts: [0, 1], lengths: [0, dist(p0, p)])
        case .quadratic(let p1, let p2):
            // Wang's formula for degree 2: n = ⌈√(2·1/8 · |p0 − 2p1 + p2| / tol)⌉.
            let m = dist(Point(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y), .zero)
            n = Int(min(Double(maxChords), max(1, (0.25 * m / tol).squareRoot().rounded(.up))))
        case .cubic(let p1, let p2, let p3):
            // Degree 3: n = ⌈√(3·2/8 · max|p_i − 2p_{i+1} + p_{i+2}| / tol)⌉.
            let m = max(dist(Point(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y), .zero),
                        dist(Point(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y), .zero))
            n = Int(min(Double(maxChords), max(1, (0.75 * m / tol).squareRoot().rounded(.up))))
        }
        var ts = [0.0], lengths = [0.0]
        var prev = p0
        for k in 1...n {
            let t = Double(k) / Double(n)
            let p = OutlineMeasure.point(s, from: p0, at: t)
            lengths.append(lengths[lengths.count - 1] + dist(prev, p))
            ts.append(t)
            prev = p
        }
        return SegmentTable(segment: s, start: p0, ts: ts, lengths: lengths)
    }

    /// A segment's point at parameter t.
    static func point(_ s: Outline.Segment, from p0: Point, at t: Double) -> Point {
        switch s {
        case .line(let p): Point(p0.x + (p.x - p0.x) * t, p0.y + (p.y - p0.y) * t)
        case .quadratic(let p1, let p2): Outline.quadraticPoint(p0, p1, p2, t)
        case .cubic(let p1, let p2, let p3): Outline.cubicPoint(p0, p1, p2, p3, t)
        }
    }

    /// The parameter at length `s` along a segment (0…length), by its chord table.
    static func parameter(_ table: SegmentTable, at s: Double) -> Double {
        let ls = table.lengths
        if s <= 0 { return 0 }
        if s >= table.length { return 1 }
        var lo = 0, hi = ls.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if ls[mid] < s { lo = mid } else { hi = mid }
        }
        let span = ls[hi] - ls[lo]
        let f = span > 0 ? (s - ls[lo]) / span : 0
        return table.ts[lo] + (table.ts[hi] - table.ts[lo]) * f
    }

    /// The part of a segment between parameters t0 < t1, exactly (de Casteljau).
    static func subsegment(_ s: Outline.Segment, from p0: Point, _ t0: Double, _ t1: Double) -> (start: Point, segment: Outline.Segment) {
        func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
        switch s {
        case .line(let p):
            return (lerp(p0, p, t0), .line(lerp(p0, p, t1)))
        case .quadratic(let p1, let p2):
            // Keep [0, t1], then the part of that from t0/t1.
            let a = lerp(p0, p1, t1), b = lerp(p1, p2, t1), e = lerp(a, b, t1)
            let u = t1 > 0 ? t0 / t1 : 0
            let q0 = p0, q1 = a, q2 = e
            let c = lerp(q0, q1, u), d = lerp(q1, q2, u), f = lerp(c, d, u)
            return (f, .quadratic(d, q2))
        case .cubic(let p1, let p2, let p3):
            let a = lerp(p0, p1, t1), b = lerp(p1, p2, t1), c = lerp(p2, p3, t1)
            let d = lerp(a, b, t1), e = lerp(b, c, t1), f = lerp(d, e, t1)
            let q0 = p0, q1 = a, q2 = d, q3 = f
            let u = t1 > 0 ? t0 / t1 : 0
            let g = lerp(q0, q1, u), h = lerp(q1, q2, u), k = lerp(q2, q3, u)
            let l = lerp(g, h, u), m = lerp(h, k, u), n = lerp(l, m, u)
            return (n, .cubic(m, k, q3))
        }
    }

    /// The piece of contour `k` between lengths s0 ≤ s1 (measured from its start), as an open
    /// contour. A piece of zero length (a dot of a dash pattern) becomes a line a billionth of
    /// its distance from the origin long, in the direction of the curve there, so that the
    /// stroker can still cap it the way the curve runs.
    func piece(_ k: Int, from s0: Double, to s1: Double) -> Outline.Contour {
        let c = contours[k]
        let a = max(0, min(s0, c.length)), b = max(a, min(s1, c.length))
        let last = c.segments.count - 1
        var out: Outline.Contour?
        for (j, seg) in c.segments.enumerated() {
            let lo = c.offsets[j], hi = lo + seg.length
            if hi < a || (hi == a && j < last && (a < b || c.segments[j + 1].length > 0)) { continue }
            if lo > b || (out != nil && lo == b) { break }
            let t0 = OutlineMeasure.parameter(seg, at: a - lo)
            let t1 = max(t0, OutlineMeasure.parameter(seg, at: b - lo))
            if a == b {
                let p = OutlineMeasure.point(seg.segment, from: seg.start, at: t0)
                let d = OutlineMeasure.direction(seg.segment, from: seg.start, at: t0)
                let eps = 1e-9 * max(1, abs(p.x) + abs(p.y))
                return Outline.Contour(start: p, segments: [.line(Point(p.x + d.x * eps, p.y + d.y * eps))])
            }
            let part = OutlineMeasure.subsegment(seg.segment, from: seg.start, t0, t1)
            if out == nil { out = Outline.Contour(start: part.start) }
            out!.segments.append(part.segment)
            if hi >= b { break }
        }
        return out ?? Outline.Contour(start: c.contour.start)
    }

    /// The unit tangent of a segment at t (the chord's direction where the derivative vanishes,
    /// (1, 0) for a segment of no length).
    static func direction(_ s: Outline.Segment, from p0: Point, at t: Double) -> Point {
        let h = 1e-6
        let a = point(s, from: p0, at: max(0, t - h)), b = point(s, from: p0, at: min(1, t + h))
        var v = Point(b.x - a.x, b.y - a.y)
        if v.x == 0 && v.y == 0 { v = Point(s.end.x - p0.x, s.end.y - p0.y) }
        let n = (v.x * v.x + v.y * v.y).squareRoot()
        return n > 0 ? Point(v.x / n, v.y / n) : Point(1, 0)
    }

    /// The outline between fractions `start` and `end` of its whole length (each clamped to
    /// 0…1, swapped when start > end as Lottie's trim does). A closed contour kept whole stays
    /// closed; every other piece is open.
    func trimmed(start: Double, end: Double) -> Outline {
        var s = max(0, min(1, start)), e = max(0, min(1, end))
        if s > e { swap(&s, &e) }
        if s == 0 && e == 1 { return Outline(contours.map(\.contour)) }
        let a = s * length, b = e * length
        var out = Outline()
        guard b > a else { return out }
        var offset = 0.0
        for (k, c) in contours.enumerated() {
            defer { offset += c.length }
            let lo = max(a, offset), hi = min(b, offset + c.length)
            guard hi > lo else { continue }
            if lo <= offset && hi >= offset + c.length {
                out.contours.append(c.contour)
            } else {
                out.contours.append(piece(k, from: lo - offset, to: hi - offset))
            }
        }
        return out
    }

    /// The dashes of the outline: the pattern (on, off, on, off, … in the outline's units; an
    /// odd count is repeated once, as SVG says) laid from each contour's start shifted by
    /// `offset`, within the lengths [from, to] of the whole outline. Nil when the dashes would be
    /// more than `limit`.
    func dashed(_ pattern: [Double], offset: Double, from: Double, to: Double, limit: Int) -> Outline? {
        let lengths = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = lengths.reduce(0, +)
        guard period > 0 else { return trimmedLengths(from: from, to: to) }
        // A bound on the count before cutting anything.
        let onCount = Double(lengths.count / 2)
        var estimate = 0.0
        for c in contours { estimate += ((c.length / period).rounded(.up) + 1) * onCount }
        guard estimate <= Double(limit) else { return nil }
        var out = Outline()
        var base = 0.0
        for (k, c) in contours.enumerated() {
            defer { base += c.length }
            let lo = max(0, from - base), hi = min(c.length, to - base)
            guard hi >= lo, c.length > 0 else { continue }
            // Where the pattern stands at the contour's start.
            var phase = offset.truncatingRemainder(dividingBy: period)
            if phase < 0 { phase += period }
            var index = 0
            while phase > 0 && phase >= lengths[index] {
                phase -= lengths[index]
                index = (index + 1) % lengths.count
            }
            var pos = -phase
            var pieces: [(Double, Double)] = []
            // A dash starts before the contour's end (Skia's rule: none starts exactly at the end).
            while pos < c.length {
                let len = lengths[index]
                if index % 2 == 0 {
                    let s0 = max(pos, lo), s1 = min(pos + len, hi)
                    if s1 > s0 || (len == 0 && pos >= lo && pos <= hi) { pieces.append((s0, max(s0, s1))) }
                }
                pos += len
                index = (index + 1) % lengths.count
            }
            // A closed contour kept whole: the dash through the start is one dash.
            if c.contour.isClosed && lo == 0 && hi == c.length && pieces.count > 1,
               let first = pieces.first, let last = pieces.last, first.0 == 0, last.1 >= c.length, first.1 > 0 {
                pieces.removeFirst()
                pieces.removeLast()
                var joined = piece(k, from: last.0, to: c.length)
                let head = piece(k, from: 0, to: first.1)
                joined.segments += head.segments
                out.contours.append(joined)
            } else if c.contour.isClosed && lo == 0 && hi == c.length && pieces.count == 1 && pieces[0].0 == 0 && pieces[0].1 >= c.length {
                out.contours.append(c.contour)
                pieces.removeAll()
            }
            for p in pieces { out.contours.append(piece(k, from: p.0, to: p.1)) }
        }
        return out
    }

    /// The outline between lengths [from, to] of the whole.
    func trimmedLengths(from: Double, to: Double) -> Outline {
        guard length > 0 else { return Outline(contours.map(\.contour)) }
        return trimmed(start: from / length, end: to / length)
    }
}
