// Morph: how a polygon's `points` and a path's `d` move from one value to another — the one
// interpolation story of the outline values, with no keyword: animating `points` or `d` to a
// new value is the morph.
//
// - Point lists of equal length move point by point; paths of the same command structure
//   (the same letters after normalization, PathValue) move command by command, each point
//   straight to its counterpart.
// - Otherwise the outlines morph contour by contour (MorphContours.swift): the contours
//   (subpaths) of both pair by the assignment that moves least, the extras of the side with
//   more grow from or shrink to their own centroid, and each pair is resampled to a common
//   number of points spaced evenly by arc length, the target's walked the start's way round
//   from the start point that minimises the total squared travel (GSAP MorphSVG's approach:
//   match point counts, then pick the start that moves least); the in-between values are
//   then paths of one polyline per pair. The endpoints are exact: p = 0 gives the start value
//   and p = 1 the target as written.

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
        /// A path of polylines through the points, one per piece, in order.
        case contours([Piece])
        /// A gradient of this form: its numbers move one by one (angle, each stop's colour and
        /// position).
        case gradient(GradientValue.Form)
    }

    /// One polyline of a contour-by-contour morph: how many of the points it takes, and
    /// whether it closes.
    struct Piece: Hashable, Sendable {
        var count: Int
        var closed: Bool
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
                (from, to) = Morph.resampledPair(Contour(p, closed: closed), Contour(q, closed: closed),
                                                 count: max(Morph.minimumSamples, min(Morph.maximumSamples, max(p.count, q.count))))
                form = .points
            }
        case (.path(let x), .path(let y)):
            if x.structure == y.structure {
                from = x.commands.flatMap(\.points); to = y.commands.flatMap(\.points); form = .commands(y.commands)
            } else {
                let p = Morph.contours(x), q = Morph.contours(y)
                guard !p.isEmpty, !q.isEmpty else { return nil }
                let (f, t, pieces) = Morph.paired(p, q)
                from = f; to = t; form = .contours(pieces)
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
        case .contours(let pieces):
            var cs: [PathValue.Command] = []
            cs.reserveCapacity(pts.count + pieces.count)
            var i = 0
            for piece in pieces where piece.count > 0 {
                cs.append(.move(pts[i]))
                for k in (i + 1)..<(i + piece.count) { cs.append(.line(pts[k])) }
                if piece.closed { cs.append(.close) }
                i += piece.count
            }
            return .path(PathValue(cs))
        }
    }

    // MARK: - Resampling

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
