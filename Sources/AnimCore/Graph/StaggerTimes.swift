// StaggerTimes: when each member of a stagger starts (Grammar.md §6.10), as a multiple of the
// stagger's interval (of its amount, for `stagger amount A`). One function serves the graph's
// static duration and the interpreter, so `anim check` and the run agree.
//
// Without a grid, members are ranked (dense ranks, Stagger.ranks; `from N` ranks by |k − N|);
// member k starts at rank × D, or, with `ease E` or `amount A`, at S × E(rank ÷ largest rank),
// where S is A or D × the largest rank.
//
// With `grid (ROWS, COLUMNS)` the distances follow GSAP's `gsap.utils.distribute()` (GSAP 3,
// gsap-core.js, as documented at gsap.com/docs/v3/GSAP/UtilityMethods/distribute): member j
// sits in cell (j mod COLUMNS, ⌊j ÷ COLUMNS⌋); the origin is the cell of member N for `from N`,
// and for a named order a point of the grid box, ratio r along each side (start 0, center and
// edges ½, end 1, random 0): x₀ = min(COLUMNS, n)·r − ½ and y₀ = n·r ÷ COLUMNS − ½ (so `start`
// and `end` are the box's corners, half a cell outside the corner members' centres). Its
// distance is √(dx² + dy²), or |dx| (`axis x`) or |dy| (`axis y`); `random` shuffles the
// distances. Normalized, u = (d − min) ÷ (max − min) (0 when all are equal), `edges` takes
// 1 − u (GSAP's negated amount with the ease inverted comes to the same), and the member starts
// at S × E(u): S is A, or D × (max − min), so with D the farthest member starts at D × the
// largest distance from the nearest (GSAP scales `each` by the grid's longer side instead; the
// issue's decision, one D per cell of distance, is kept).

extension Stagger {
    /// Where a stagger starts from: a named order or a member's index.
    public enum Origin: Hashable, Sendable {
        case order(StaggerOrder)
        case index(Int)
    }

    /// The largest magnitude of `from N` and of a grid's sizes: whole numbers that an Int and a
    /// Double both hold exactly (the member count bounds them far below it anyway).
    public static let maxLayout = 1e15

    /// A grid's size in whole cells, and its axis.
    public struct Grid: Hashable, Sendable {
        public var rows: Int
        public var columns: Int
        public var axis: StaggerAxis?
        public init(rows: Int, columns: Int, axis: StaggerAxis?) {
            self.rows = rows
            self.columns = columns
            self.axis = axis
        }
    }

    /// Why a stagger's layout cannot be used with `n` members, or nil when it can.
    public static func problem(count n: Int, origin: Origin, grid: Grid?) -> String? {
        if case .index(let k) = origin, k < 0 || k >= max(n, 1) {
            return "'from \(k)' is not a member's index: the stagger has \(n) member\(n == 1 ? "" : "s") (0 … \(max(n - 1, 0)))"
        }
        if let g = grid {
            if g.rows < 1 || g.columns < 1 { return "a stagger grid needs at least one row and one column, not (\(g.rows), \(g.columns))" }
            let (cells, overflow) = g.rows.multipliedReportingOverflow(by: g.columns)
            if !overflow, cells < n { return "a grid of (\(g.rows), \(g.columns)) holds \(cells) members, not the stagger's \(n)" }
        }
        return nil
    }

    /// The start of each of `n` members as a multiple of the interval (or of the amount).
    /// `shuffle` permutes the ranks or distances for `from random` (the interpreter's seeded
    /// Fisher–Yates); without it they stay in order, which leaves the largest start unchanged
    /// (the graph's static duration). The layout must have no `problem`.
    public static func multiples(count n: Int, origin: Origin, amount: Bool, grid: Grid?, easing: Easing?,
                                 shuffle: ((inout [Double]) -> Void)? = nil) -> [Double] {
        guard n > 0 else { return [] }
        if let grid { return gridMultiples(count: n, origin: origin, amount: amount, grid: grid, easing: easing, shuffle: shuffle) }
        var ranks: [Double]
        switch origin {
        case .order(let o): ranks = Stagger.ranks(count: n, order: o).map(Double.init)
        case .index(let k): ranks = denseRanks((0..<n).map { abs($0 - k) }).map(Double.init)
        }
        if case .order(.random) = origin { shuffle?(&ranks) }
        guard amount || easing != nil else { return ranks }
        let largest = ranks.max() ?? 0
        let spread = amount ? 1 : largest
        return ranks.map { r in
            let u = largest > 0 ? r / largest : 0
            return spread * (easing.map { $0(u) } ?? u)
        }
    }

    private static func gridMultiples(count n: Int, origin: Origin, amount: Bool, grid: Grid, easing: Easing?,
                                      shuffle: ((inout [Double]) -> Void)?) -> [Double] {
        let columns = grid.columns
        let x0: Double, y0: Double
        var reversed = false
        switch origin {
        case .index(let k):
            x0 = Double(k % columns)
            y0 = Double(k / columns)
        case .order(let o):
            let ratio: Double
            switch o {
            case .start, .random: ratio = 0
            case .center: ratio = 0.5
            case .edges: ratio = 0.5; reversed = true
            case .end: ratio = 1
            }
            x0 = Double(min(columns, n)) * ratio - 0.5
            y0 = Double(n) * ratio / Double(columns) - 0.5
        }
        var distances = (0..<n).map { j -> Double in
            let dx = Double(j % columns) - x0, dy = y0 - Double(j / columns)
            switch grid.axis {
            case nil: return (dx * dx + dy * dy).squareRoot()
            case .x?: return abs(dx)
            case .y?: return abs(dy)
            }
        }
        if case .order(.random) = origin { shuffle?(&distances) }
        let nearest = distances.min() ?? 0, range = (distances.max() ?? 0) - nearest
        if !reversed, easing == nil, !amount { return distances.map { $0 - nearest } }
        return distances.map { d in
            var u = range > 0 ? (d - nearest) / range : 0
            if reversed { u = 1 - u }
            return (amount ? 1 : range) * (easing.map { $0(u) } ?? u)
        }
    }
}
