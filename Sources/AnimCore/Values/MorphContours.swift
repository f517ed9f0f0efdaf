// MorphContours: the morph between outlines of different structure, contour by contour (as
// GSAP's MorphSVG and flubber do), so that a path of several subpaths (a ring, an icon with a
// hole, letters) morphs without bridges between its contours and its holes stay holes.
//
// - Each outline is split into contours (a path's subpaths; a point list is one), each flattened
//   into a run of points (curves cut into chords), with its signed area, its length-weighted
//   centroid and whether it closes.
// - Pairing. The contours of the start pair with those of the target by the assignment that
//   minimises the summed cost (Hungarian method, Kuhn–Munkres, O(n³)) over every contour of
//   either side: a pair costs the squared distance of the centroids plus the squared
//   difference of the sizes (√|area|); a contour left unpaired grows from (or shrinks to) a
//   point, its own centroid, in place, and costs its size squared — so the small ones and the
//   far ones are left over, and when the counts differ the extras of the side with more are.
//   A hole (wound against the largest contour of its outline) never pairs with a solid
//   contour; unpaired, it shrinks to (or grows from) where the contour around it goes (that
//   contour's partner's centroid, or its own centroid), so it moves with it and stays a hole. Past
//   `maxPairedContours` on a side, contours pair in order (the k-th with the k-th), the rest
//   unpaired.
// - Each pair is resampled to a common count by arc length, max(64, the larger point count of
//   the two) — with more points in all than `Morph.maximumSamples`, every count is scaled down,
//   to 4 at least. For two closed contours the target's is walked in the direction of the
//   start's (so every contour keeps its winding mid-morph and, under the nonzero rule every
//   output fills with, a hole stays a hole), and its start point is rotated to the one that
//   minimises the summed squared travel; for open (or flat) ones the direction is the one that
//   moves least.
// - The in-between value is a path of one polyline per pair: the start's contours in their
//   order, then the target's unpaired ones in theirs; a pair closes when both of its contours do.

extension Morph {
    /// One contour, flattened.
    struct Contour {
        var points: [Point]
        var closed: Bool
        /// The shoelace area (positive clockwise on screen, y down); 0 when open.
        var area: Double
        /// The length-weighted centroid of its segments (its point when it has one).
        var centroid: Point

        init(_ points: [Point], closed: Bool) {
            self.points = points; self.closed = closed
            var a = 0.0
            if closed, points.count > 2 {
                for k in points.indices {
                    let p = points[k], q = points[(k + 1) % points.count]
                    a += p.x * q.y - q.x * p.y
                }
            }
            area = a / 2
            var sx = 0.0, sy = 0.0, total = 0.0
            let run = closed && points.count > 1 ? points + [points[0]] : points
            for k in run.indices.dropFirst() {
                let p = run[k - 1], q = run[k]
                let l = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                sx += (p.x + q.x) / 2 * l; sy += (p.y + q.y) / 2 * l; total += l
            }
            centroid = total > 0 ? Point(sx / total, sy / total) : (points.first ?? .zero)
        }

        /// √|area|, its size for pairing (half its length for an open one).
        var size: Double {
            if closed, area != 0 { return abs(area).squareRoot() }
            var l = 0.0
            for k in points.indices.dropFirst() {
                let p = points[k - 1], q = points[k]
                l += ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
            }
            return l / 2
        }
    }

    /// The most contours on one side that pair by the optimal assignment (Grammar.md §11).
    public static let maxPairedContours = 256

    /// Path data split into contours (subpaths) and flattened. A contour closed by `Z` does
    /// not repeat its first point; a command after `Z` with no `M` starts a new contour at the
    /// closed one's start, as in SVG. A lone `M` is dropped unless nothing else is there.
    static func contours(_ path: PathValue) -> [Contour] {
        var out: [Contour] = []
        var run: [Point] = [], closed = false
        var current = Point.zero, subpathStart = Point.zero
        func dist(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        func finish() {
            guard !run.isEmpty else { return }
            if closed, run.count > 1, run.first == run.last { run.removeLast() }
            out.append(Contour(run, closed: closed))
            run = []; closed = false
        }
        func begin() {
            // A drawing command after `Z` (or first) starts a contour at the current point.
            if closed { finish() }
            if run.isEmpty { run = [current]; subpathStart = current }
        }
        for c in path.commands {
            switch c {
            case .move(let p):
                finish()
                run = [p]; current = p; subpathStart = p
            case .line(let p):
                begin()
                run.append(p); current = p
            case .quadratic(let c1, let p):
                begin()
                let n = max(2, min(64, Int(dist(current, c1) + dist(c1, p)) / 2))
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    run.append(Point(u * u * current.x + 2 * u * t * c1.x + t * t * p.x, u * u * current.y + 2 * u * t * c1.y + t * t * p.y))
                }
                current = p
            case .cubic(let c1, let c2, let p):
                begin()
                let n = max(2, min(64, Int(dist(current, c1) + dist(c1, c2) + dist(c2, p)) / 2))
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, d = 3 * u * t * t, e = t * t * t
                    run.append(Point(a * current.x + b * c1.x + d * c2.x + e * p.x, a * current.y + b * c1.y + d * c2.y + e * p.y))
                }
                current = p
            case .close:
                guard !run.isEmpty, !closed else { current = subpathStart; continue }
                if current != subpathStart { run.append(subpathStart) }
                closed = true
                current = subpathStart
            }
        }
        finish()
        let drawn = out.filter { $0.points.count > 1 }
        return drawn.isEmpty ? Array(out.prefix(1)) : drawn
    }

    /// The moving points of a contour-by-contour morph and the contours they make.
    static func paired(_ a: [Contour], _ b: [Contour]) -> (from: [Point], to: [Point], pieces: [Piece]) {
        let pairs = pairing(a, b)
        // Each piece's count: max(64, the larger point count), at most maximumSamples; scaled
        // down (to 4 at least) when the pieces hold more than maximumSamples in all.
        func wanted(_ x: Contour?, _ y: Contour?) -> Int {
            max(minimumSamples, min(maximumSamples, max(x?.points.count ?? 0, y?.points.count ?? 0)))
        }
        var counts = pairs.map { wanted($0.0.map { a[$0] }, $0.1.map { b[$0] }) }
        let total = counts.reduce(0, +)
        if pairs.count > 1, total > maximumSamples {
            let scale = Double(maximumSamples) / Double(total)
            counts = counts.map { max(4, Int(Double($0) * scale)) }
        }
        // Where an unpaired contour grows from or shrinks to: a hole, where the contour around
        // it goes (its partner's centroid, or its own when it too is unpaired), so that it
        // stays inside; any other contour, its own centroid.
        let partnerOfA = Dictionary(pairs.compactMap { p in p.0.flatMap { i in p.1.map { (i, $0) } } }, uniquingKeysWith: { x, _ in x })
        let partnerOfB = Dictionary(partnerOfA.map { ($1, $0) }, uniquingKeysWith: { x, _ in x })
        func point(of k: Int, in cs: [Contour], partners: [Int: Int], other: [Contour]) -> Point {
            guard let e = enclosing(k, in: cs) else { return cs[k].centroid }
            return partners[e].map { other[$0].centroid } ?? cs[e].centroid
        }
        var from: [Point] = [], to: [Point] = [], pieces: [Piece] = []
        for ((i, j), n) in zip(pairs, counts) {
            switch (i.map { a[$0] }, j.map { b[$0] }) {
            case (let x?, let y?):
                let (p, q) = resampledPair(x, y, count: n)
                from += p; to += q
                pieces.append(Piece(count: n, closed: x.closed && y.closed))
            case (let x?, nil):
                from += resample(x.points, closed: x.closed, count: n)
                to += Array(repeating: point(of: i!, in: a, partners: partnerOfA, other: b), count: n)
                pieces.append(Piece(count: n, closed: x.closed))
            case (nil, let y?):
                from += Array(repeating: point(of: j!, in: b, partners: partnerOfB, other: a), count: n)
                to += resample(y.points, closed: y.closed, count: n)
                pieces.append(Piece(count: n, closed: y.closed))
            case (nil, nil):
                continue
            }
        }
        return (from, to, pieces)
    }

    /// The pairs (index in `a`, index in `b`; nil for a contour that grows or shrinks in place):
    /// the start's contours in order, then the target's unpaired ones in order.
    static func pairing(_ a: [Contour], _ b: [Contour]) -> [(Int?, Int?)] {
        var partner = [Int?](repeating: nil, count: a.count)
        if a.count > maxPairedContours || b.count > maxPairedContours {
            for k in 0..<min(a.count, b.count) { partner[k] = k }
        } else {
            // The square cost matrix of every contour of either side: row i < a.count is a's
            // contour i, the others stand for "a target contour grows in place"; likewise the
            // columns. A contour left unpaired costs its size squared; a hole and a solid
            // contour cost more together than apart, so they never pair.
            func role(_ cs: [Contour]) -> [Bool] {
                let sign = cs.max { abs($0.area) < abs($1.area) }.map { $0.area < 0 } ?? false
                return cs.map { $0.area != 0 && ($0.area < 0) != sign }
            }
            let holeA = role(a), holeB = role(b)
            let n = a.count + b.count
            var cost = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
            for i in 0..<n {
                for j in 0..<n {
                    switch (i < a.count, j < b.count) {
                    case (true, true):
                        let x = a[i], y = b[j]
                        if holeA[i] != holeB[j] {
                            cost[i][j] = x.size * x.size + y.size * y.size + 1
                        } else {
                            let dx = x.centroid.x - y.centroid.x, dy = x.centroid.y - y.centroid.y, ds = x.size - y.size
                            cost[i][j] = dx * dx + dy * dy + ds * ds
                        }
                    case (true, false): cost[i][j] = a[i].size * a[i].size
                    case (false, true): cost[i][j] = b[j].size * b[j].size
                    case (false, false): cost[i][j] = 0
                    }
                }
            }
            let assigned = assignment(cost)
            for i in 0..<a.count where assigned[i] < b.count {
                if holeA[i] == holeB[assigned[i]] { partner[i] = assigned[i] }
            }
        }
        var out: [(Int?, Int?)] = partner.enumerated().map { ($0.offset, $0.element) }
        let taken = Set(partner.compactMap { $0 })
        for j in 0..<b.count where !taken.contains(j) { out.append((nil, j)) }
        return out
    }

    /// The contour around hole `k`: the smallest closed contour wound the other way whose
    /// outline holds the hole's centroid (nil when `k` is no hole or nothing holds it).
    static func enclosing(_ k: Int, in cs: [Contour]) -> Int? {
        let hole = cs[k]
        guard hole.area != 0, let largest = cs.max(by: { abs($0.area) < abs($1.area) }), (hole.area < 0) != (largest.area < 0) else {
            return nil
        }
        let q = hole.centroid
        var best: Int?
        for (e, c) in cs.enumerated() where e != k && c.closed && c.area != 0 && (c.area < 0) != (hole.area < 0) {
            // Even-odd crossing test of the centroid against the contour's polygon.
            var inside = false
            for m in c.points.indices {
                let p1 = c.points[m], p2 = c.points[(m + 1) % c.points.count]
                if (p1.y > q.y) != (p2.y > q.y), q.x < p1.x + (q.y - p1.y) / (p2.y - p1.y) * (p2.x - p1.x) { inside.toggle() }
            }
            if inside, best.map({ abs(c.area) < abs(cs[$0].area) }) ?? true { best = e }
        }
        return best
    }

    /// The assignment of rows to columns of a square cost matrix with the least total cost
    /// (the Hungarian method with potentials, O(n³); after Kuhn 1955 and Munkres 1957):
    /// `result[row]` is its column.
    static func assignment(_ cost: [[Double]]) -> [Int] {
        let n = cost.count
        guard n > 0 else { return [] }
        // 1-based arrays: column 0 is the virtual start of each augmenting path.
        var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: n + 1)
        var rowOf = [Int](repeating: 0, count: n + 1), way = [Int](repeating: 0, count: n + 1)
        for row in 1...n {
            rowOf[0] = row
            var col0 = 0
            var minv = [Double](repeating: .infinity, count: n + 1), used = [Bool](repeating: false, count: n + 1)
            repeat {
                used[col0] = true
                let r = rowOf[col0]
                var delta = Double.infinity, col1 = 0
                for c in 1...n where !used[c] {
                    let cur = cost[r - 1][c - 1] - u[r] - v[c]
                    if cur < minv[c] { minv[c] = cur; way[c] = col0 }
                    if minv[c] < delta { delta = minv[c]; col1 = c }
                }
                for c in 0...n {
                    if used[c] { u[rowOf[c]] += delta; v[c] -= delta } else { minv[c] -= delta }
                }
                col0 = col1
            } while rowOf[col0] != 0
            repeat {
                let c = way[col0]
                rowOf[col0] = rowOf[c]
                col0 = c
            } while col0 != 0
        }
        var result = [Int](repeating: 0, count: n)
        for c in 1...n where rowOf[c] > 0 { result[rowOf[c] - 1] = c - 1 }
        return result
    }

    /// Two contours resampled to `count` points by arc length; the target's walked in the
    /// start's direction and rotated to move least when both close, else the direction that
    /// moves least.
    static func resampledPair(_ a: Contour, _ b: Contour, count n: Int) -> ([Point], [Point]) {
        let pa = resample(a.points, closed: a.closed, count: n)
        let pb = resample(b.points, closed: b.closed, count: n)
        func travel(_ q: [Point], bound: Double) -> Double {
            var cost = 0.0
            for k in 0..<n {
                cost += (pa[k].x - q[k].x) * (pa[k].x - q[k].x) + (pa[k].y - q[k].y) * (pa[k].y - q[k].y)
                if cost >= bound { break }
            }
            return cost
        }
        guard a.closed && b.closed else {
            let reversed = Array(pb.reversed()), forward = travel(pb, bound: .infinity)
            return travel(reversed, bound: forward) < forward ? (pa, reversed) : (pa, pb)
        }
        // Walk the target the start's way round (both flat: try both ways).
        var candidates = [pb]
        let back = [pb[0]] + pb.dropFirst().reversed()
        if a.area == 0 || b.area == 0 { candidates.append(back) } else if (a.area < 0) != (b.area < 0) { candidates = [back] }
        var best = (ring: 0, shift: 0), bestCost = Double.infinity
        for (r, ring) in candidates.enumerated() {
            for shift in 0..<n {
                var cost = 0.0
                for k in 0..<n {
                    let q = ring[(k + shift) % n]
                    cost += (pa[k].x - q.x) * (pa[k].x - q.x) + (pa[k].y - q.y) * (pa[k].y - q.y)
                    if cost >= bestCost { break }
                }
                if cost < bestCost { bestCost = cost; best = (r, shift) }
            }
        }
        let ring = candidates[best.ring]
        return (pa, (0..<n).map { ring[($0 + best.shift) % n] })
    }
}
