// Morph: how a polygon's `points` and a path's `d` move from one value to another — the one
// interpolation story of the outline values, with no keyword: animating `points` or `d` to a
// new value is the morph.
//
// - Point lists of equal length move point by point; paths of the same command structure
//   (the same letters after normalization, PathValue) move command by command, each point
//   straight to its counterpart.
// - Otherwise both outlines are flattened and resampled to a common number of points spaced
//   evenly by arc length, and, for closed outlines, the target's starting point is rotated to
//   the one that minimises the total squared travel (GSAP MorphSVG's approach: match point
//   counts, then pick the start that moves least); the in-between values are then polylines
//   (paths of L commands) through the moving points. A multi-contour path morphing to another
//   structure is resampled as one run of its contours joined. The endpoints are exact: p = 0
//   gives the start value and p = 1 the target as written.

/// The precomputed morph between two outline values (a point list or a path).
public struct Morph: Hashable, Sendable {
    /// Where the moving points start and end, in matching order.
    let from: [Point], to: [Point]
    /// How the moving points are put back into a value.
    let form: Form
    /// The endpoints as given (p == 0 and p == 1 return them exactly).
    let start: Value, end: Value
    /// A gradient's numbers at either end (GradientValue.numbers; empty for outlines).
    var fromNumbers: [Double] = [], toNumbers: [Double] = []

    enum Form: Hashable, Sendable {
        /// A list of points.
        case points
        /// Path data of this structure, the points in command order.
        case commands([PathValue.Command])
        /// A polyline path through the points, closed or open.
        case polyline(closed: Bool)
        /// A gradient of this form: its numbers move one by one (angle, each stop's colour and
        /// position).
        case gradient(GradientValue.Form)
    }

    /// How many points a resampled morph uses at least: enough for a smooth in-between of
    /// curves (Grammar.md §11).
    public static let minimumSamples = 64
    /// The most points a resampled morph uses.
    public static let maximumSamples = 4096

    /// The morph from `a` to `b` (both point lists or both paths), or nil for other values.
    /// `closed` says whether point lists are closed rings (a polygon's), for the start rotation.
    public init?(from a: Value, to b: Value, closed: Bool = false) {
        start = a; end = b
        switch (a, b) {
        case (.list(let xs), .list(let ys)):
            let p = xs.compactMap(\.framePointValue), q = ys.compactMap(\.framePointValue)
            guard p.count == xs.count, q.count == ys.count else { return nil }
            if p.count == q.count {
                from = p; to = q; form = .points
            } else {
                (from, to) = Morph.resampled(p, closedA: closed, q, closedB: closed)
                form = .points
            }
        case (.path(let x), .path(let y)):
            if x.structure == y.structure {
                from = x.commands.flatMap(\.points); to = y.commands.flatMap(\.points); form = .commands(y.commands)
            } else {
                let (p, ca) = Morph.flattened(x), (q, cb) = Morph.flattened(y)
                guard !p.isEmpty, !q.isEmpty else { return nil }
                (from, to) = Morph.resampled(p, closedA: ca, q, closedB: cb)
                form = .polyline(closed: ca && cb)
            }
        case (.gradient(let x), .gradient(let y)):
            guard x.form == y.form, x.stops.count == y.stops.count else { return nil }
            from = []; to = []; form = .gradient(y.form)
            fromNumbers = x.numbers; toNumbers = y.numbers
        case (.color(let c), .gradient(let y)):
            // A colour meets a gradient as the gradient of that colour at every stop.
            from = []; to = []; form = .gradient(y.form)
            fromNumbers = GradientValue(solid: c, like: y).numbers; toNumbers = y.numbers
        case (.gradient(let x), .color(let c)):
            from = []; to = []; form = .gradient(x.form)
            fromNumbers = x.numbers; toNumbers = GradientValue(solid: c, like: x).numbers
        default:
            return nil
        }
    }

    /// Why two paints do not morph, when both are gradients that differ in form or stop count
    /// (nil otherwise): the message of the error that animating between them is.
    public static func gradientMismatch(_ a: Value, _ b: Value) -> String? {
        guard case .gradient(let x) = a, case .gradient(let y) = b, x.form != y.form || x.stops.count != y.stops.count else {
            return nil
        }
        func what(_ g: GradientValue) -> String { "a \(g.form.name) of \(g.stops.count) stops" }
        return "cannot animate from \(what(x)) to \(what(y)): gradients animate stop by stop between the same function "
            + "with the same number of stops"
    }

    /// The value a fraction `p` of the way (p may leave [0, 1] for overshooting easings).
    public func value(_ p: Double) -> Value {
        if p == 0 { return start }
        if p == 1 { return end }
        if case .gradient(let f) = form {
            var ns = fromNumbers
            for k in ns.indices { ns[k] = lerp(fromNumbers[k], toNumbers[k], p) }
            return .gradient(GradientValue(f, numbers: ns))
        }
        var pts: [Point] = []
        pts.reserveCapacity(from.count)
        for k in from.indices { pts.append(Point(lerp(from[k].x, to[k].x, p), lerp(from[k].y, to[k].y, p))) }
        switch form {
        case .points: return .list(pts.map(Value.point))
        case .gradient: return end
        case .commands(let shape):
            var i = 0
            let cs = shape.map { c in c.mapPoints { _ in defer { i += 1 }; return pts[i] } }
            return .path(PathValue(cs))
        case .polyline(let closed):
            guard let first = pts.first else { return .path(PathValue()) }
            var cs: [PathValue.Command] = [.move(first)]
            for q in pts.dropFirst() { cs.append(.line(q)) }
            if closed { cs.append(.close) }
            return .path(PathValue(cs))
        }
    }

    // MARK: - Resampling

    /// Path data flattened into one run of points (curves cut into chords, contours joined),
    /// and whether its first contour is closed.
    static func flattened(_ path: PathValue) -> ([Point], Bool) {
        var out: [Point] = []
        var closed = false, contours = 0, current = Point.zero, subpathStart = Point.zero
        func dist(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        for c in path.commands {
            switch c {
            case .move(let p):
                contours += 1
                out.append(p); current = p; subpathStart = p
            case .line(let p):
                out.append(p); current = p
            case .quadratic(let c1, let p):
                let n = max(2, min(64, Int(dist(current, c1) + dist(c1, p)) / 2))
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    out.append(Point(u * u * current.x + 2 * u * t * c1.x + t * t * p.x, u * u * current.y + 2 * u * t * c1.y + t * t * p.y))
                }
                current = p
            case .cubic(let c1, let c2, let p):
                let n = max(2, min(64, Int(dist(current, c1) + dist(c1, c2) + dist(c2, p)) / 2))
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, d = 3 * u * t * t, e = t * t * t
                    out.append(Point(a * current.x + b * c1.x + d * c2.x + e * p.x, a * current.y + b * c1.y + d * c2.y + e * p.y))
                }
                current = p
            case .close:
                if contours == 1 { closed = true }
                if current != subpathStart { out.append(subpathStart) }
                current = subpathStart
            }
        }
        // A closed ring's last point repeats its first: drop it, the ring closes by itself.
        if closed, out.count > 1, out.first == out.last, contours == 1 { out.removeLast() }
        return (out, closed && contours == 1)
    }

    /// Both runs resampled to one count by arc length, the target's start rotated (closed
    /// rings) to minimise the summed squared travel.
    static func resampled(_ a: [Point], closedA: Bool, _ b: [Point], closedB: Bool) -> ([Point], [Point]) {
        let n = max(minimumSamples, min(maximumSamples, max(a.count, b.count)))
        let pa = resample(a, closed: closedA, count: n), pb = resample(b, closed: closedB, count: n)
        guard closedA && closedB else { return (pa, pb) }
        var best = 0, bestCost = Double.infinity
        for shift in 0..<n {
            var cost = 0.0
            for k in 0..<n {
                let q = pb[(k + shift) % n]
                cost += (pa[k].x - q.x) * (pa[k].x - q.x) + (pa[k].y - q.y) * (pa[k].y - q.y)
                if cost >= bestCost { break }
            }
            if cost < bestCost { bestCost = cost; best = shift }
        }
        return (pa, (0..<n).map { pb[($0 + best) % n] })
    }

    /// `count` points spaced evenly by arc length along a run (a closed ring returns to its
    /// first point; its points start there and stop one step short of it).
    static func resample(_ pts: [Point], closed: Bool, count: Int) -> [Point] {
        guard let first = pts.first else { return [] }
        let run = closed ? pts + [first] : pts
        var lengths = [0.0]
        for k in 1..<max(1, run.count) {
            let a = run[k - 1], b = run[k]
            lengths.append(lengths[k - 1] + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
        }
        let total = lengths[lengths.count - 1]
        guard total > 0, run.count > 1 else { return Array(repeating: first, count: count) }
        var out: [Point] = []
        out.reserveCapacity(count)
        var seg = 1
        let steps = closed ? count : count - 1
        for i in 0..<count {
            let s = total * Double(i) / Double(max(1, steps))
            while seg < run.count - 1 && lengths[seg] < s { seg += 1 }
            let l0 = lengths[seg - 1], l1 = lengths[seg]
            let t = l1 > l0 ? (s - l0) / (l1 - l0) : 0
            let a = run[seg - 1], b = run[seg]
            out.append(Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
        }
        return out
    }
}

extension Value {
    /// The point this value is, if it is one.
    var framePointValue: Point? {
        if case .point(let p) = self { return p }
        return nil
    }
}
