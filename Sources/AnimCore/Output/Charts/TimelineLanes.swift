// TimelineLanes: a run's leaf activities laid out for charts — one lane per branch of each
// graph (a block's second and later children open new lanes; `then` stays in its lane), each
// tween or spring a bar labelled with the properties it moved, waits as gaps, actions as
// ticks, and the printed messages at their instants. The HTML strip, the timeline SVG and the
// terminal chart all draw this one layout.

/// The lanes of a run.
public struct TimelineLanes: Sendable {
    /// What a bar stands for.
    public enum BarKind: String, Sendable {
        /// A tween: a bar.
        case tween
        /// A spring: a bar.
        case spring
        /// A wait: a shaded gap.
        case wait
        /// An instant action (print, set, expect, control): a tick.
        case action
    }

    /// One leaf activity.
    public struct Bar: Sendable {
        /// Tween, spring, wait or action.
        public var kind: BarKind
        /// `center`, `square.center, square.rotation`, `print "done"`, `wait 0.5`.
        public var label: String
        /// The properties moved (tweens and springs), as `shape.property`.
        public var properties: [String]
        /// When it began (global time).
        public var begin: Time
        /// When it ended (actions: at `begin`).
        public var end: Time
        /// The lane it is drawn in (index into `lanes`).
        public var lane: Int
    }

    /// One lane.
    public struct Lane: Sendable {
        /// The shapes its bars move (`square`, `card[0], card[1]`), or `(timing)` for lanes of
        /// waits and actions only.
        public var label: String
    }

    /// The lanes, top to bottom.
    public var lanes: [Lane] = []
    /// Every bar, in the order of the activities.
    public var bars: [Bar] = []
    /// The printed messages.
    public var prints: [(time: Time, text: String)] = []
    /// The end of the run.
    public var end: Time

    /// Lays out a timeline's activities.
    public init(_ timeline: Timeline) {
        end = timeline.end
        prints = timeline.prints
        let moved = Self.movedProperties(timeline)
        // Lanes of each instance's graph, then a global numbering of the lanes in use.
        var laneOfNode: [Int: [Int]] = [:]
        // Lanes of a branch (instance << 32 | local lane): steps of one branch that overlap in
        // time (a stagger's members) get a lane each, packed greedily.
        var branchLanes: [Int64: [(lane: Int, free: Time, last: Int)]] = [:]
        var previousOfNode: [Int: [Int: Int]] = [:]
        var consumed: [Int64: Int] = [:]
        var branchOrder: [Int64] = []
        var shapesInLane: [[String]] = []
        var printIndex = 0
        for a in timeline.activities where laneOfNode[a.instance] == nil {
            laneOfNode[a.instance] = Self.lanes(of: timeline.graphs[a.instance].graph)
            previousOfNode[a.instance] = Self.previousLeaves(of: timeline.graphs[a.instance].graph)
        }
        // In time order; at one instant, steps that continue a chain claim their lanes first.
        let ordered = timeline.activities.enumerated().sorted { x, y in
            if x.element.begin != y.element.begin { return x.element.begin < y.element.begin }
            let cx = previousOfNode[x.element.instance]![Int(x.element.node.index)] != nil
            let cy = previousOfNode[y.element.instance]![Int(y.element.node.index)] != nil
            return cx != cy ? cx : x.offset < y.offset
        }.map(\.element)
        for a in ordered {
            let run = timeline.graphs[a.instance]
            let end = a.end ?? timeline.end
            let node = run.graph[a.node]
            var bar: Bar
            switch node.kind {
            case .tween(let spec):
                let props = Self.names(spec.writes, Self.take(moved, &consumed, a, spec.writes), timeline)
                bar = Bar(kind: .tween, label: "", properties: props, begin: a.begin, end: end, lane: 0)
            case .spring(let spec):
                let props = Self.names(spec.writes, Self.take(moved, &consumed, a, spec.writes), timeline)
                bar = Bar(kind: .spring, label: "", properties: props, begin: a.begin, end: end, lane: 0)
            case .wait:
                bar = Bar(kind: .wait, label: "wait " + Self.seconds(end - a.begin), properties: [], begin: a.begin, end: end, lane: 0)
            case .action(let action):
                var label = Self.actionLabel(action, timeline)
                if case .print = action {
                    while printIndex < prints.count && prints[printIndex].time < a.begin { printIndex += 1 }
                    if printIndex < prints.count && prints[printIndex].time == a.begin {
                        label = "print \"\(prints[printIndex].text)\""
                        printIndex += 1
                    }
                }
                bar = Bar(kind: .action, label: label, properties: [], begin: a.begin, end: a.begin, lane: 0)
            default:
                continue
            }
            let shapes = bar.properties.map { String($0[..<($0.lastIndex(of: ".") ?? $0.endIndex)]) }
            // The lane: among the branch's lanes free at `begin`, prefer the one whose last step
            // comes just before this one in its chain, then one that already moves these shapes,
            // then one whose last step ends right now.
            let previous = previousOfNode[a.instance]![Int(a.node.index)]
            let key = Int64(a.instance) << 32 | Int64(laneOfNode[a.instance]![Int(a.node.index)])
            if branchLanes[key] == nil { branchOrder.append(key) }
            let candidates = branchLanes[key, default: []].indices.filter { branchLanes[key]![$0].free <= a.begin }
            func score(_ k: Int) -> Int {
                let l = branchLanes[key]![k]
                let same = !shapes.isEmpty && shapes.allSatisfy(shapesInLane[l.lane].contains)
                return (previous == l.last ? 4 : 0) + (same ? 2 : 0) + (l.free == a.begin ? 1 : 0)
            }
            if let k = candidates.max(by: { score($0) < score($1) || (score($0) == score($1) && $0 > $1) }) {
                bar.lane = branchLanes[key]![k].lane
                branchLanes[key]![k].free = max(end, a.begin)
                branchLanes[key]![k].last = Int(a.node.index)
            } else {
                bar.lane = lanes.count
                branchLanes[key, default: []].append((bar.lane, max(end, a.begin), Int(a.node.index)))
                lanes.append(Lane(label: ""))
                shapesInLane.append([])
            }
            for shape in shapes where !shapesInLane[bar.lane].contains(shape) { shapesInLane[bar.lane].append(shape) }
            bars.append(bar)
        }
        // Renumber so that a branch's lanes sit together, branches in order of first activity;
        // lanes that move nothing (prints, waits, control) share one lane, after the others.
        let order = branchOrder.flatMap { branchLanes[$0]!.map(\.lane) }
        let moving = order.filter { !shapesInLane[$0].isEmpty }, still = order.filter { shapesInLane[$0].isEmpty }
        var renumber = [Int](repeating: 0, count: lanes.count)
        for (new, old) in moving.enumerated() { renumber[old] = new }
        for old in still { renumber[old] = moving.count }
        lanes = moving.map { Lane(label: shapesInLane[$0].joined(separator: ", ")) }
        if !still.isEmpty { lanes.append(Lane(label: "(actions)")) }
        shapesInLane = moving.map { shapesInLane[$0] } + (still.isEmpty ? [] : [[]])
        for b in bars.indices { bars[b].lane = renumber[bars[b].lane] }
        // Within the shared lane, keep time order.
        bars = bars.enumerated().sorted { x, y in
            let (i, a) = x, (j, b) = y
            if a.lane != b.lane || a.lane < moving.count { return i < j }
            return a.begin != b.begin ? a.begin < b.begin : i < j
        }.map(\.element)
        // Bars name their shape only where the lane moves more than one.
        for b in bars.indices where bars[b].kind == .tween || bars[b].kind == .spring {
            let single = shapesInLane[bars[b].lane].count == 1
            let props = bars[b].properties.map { single ? String($0[$0.index(after: $0.lastIndex(of: ".") ?? $0.startIndex)...]) : $0 }
            bars[b].label = props.joined(separator: ", ")
        }
    }

    // MARK: - Lanes of one graph

    /// The lane of every node of a graph, numbered within the graph: a sequence's children
    /// share its lane, a block's first child keeps it and each later child opens a new one.
    static func lanes(of g: SequencerGraph) -> [Int] {
        var lane = [Int](repeating: 0, count: g.nodes.count)
        var next = 1
        for i in g.nodes.indices {  // pre-order: a parent is numbered before its children
            switch g.nodes[i].kind {
            case .sequence(let c):
                for k in g[c] { lane[Int(k.index)] = lane[i] }
            case .parallel(let c):
                for (n, k) in g[c].enumerated() {
                    if n == 0 { lane[Int(k.index)] = lane[i] } else { lane[Int(k.index)] = next; next += 1 }
                }
            case .repeat(_, _, let b), .stagger(_, let b), .relative(_, let b), .spawn(let b):
                lane[Int(b.index)] = lane[i]
            case .tween, .wait, .action, .spring, .play:
                break
            }
        }
        return lane
    }

    /// For each leaf, the leaf that runs just before it in its chain (`A then B`: the last
    /// leaf of A before the first of B; a repeat's body follows itself).
    static func previousLeaves(of g: SequencerGraph) -> [Int: Int] {
        func children(_ n: Int) -> [Int] {
            switch g.nodes[n].kind {
            case .sequence(let c), .parallel(let c): return g[c].map { Int($0.index) }
            case .repeat(_, _, let b), .stagger(_, let b), .relative(_, let b), .spawn(let b): return [Int(b.index)]
            case .tween, .wait, .action, .spring, .play: return []
            }
        }
        func first(_ n: Int) -> Int { children(n).first.map(first) ?? n }
        func last(_ n: Int) -> Int {
            if case .sequence = g.nodes[n].kind { return children(n).last.map(last) ?? n }
            return children(n).first.map(last) ?? n
        }
        var out: [Int: Int] = [:]
        for n in g.nodes.indices {
            switch g.nodes[n].kind {
            case .sequence(let list):
                let c = g[list]
                for (a, b) in zip(c, c.dropFirst()) { out[first(Int(b.index))] = last(Int(a.index)) }
            case .repeat(_, _, let b):
                if out[first(Int(b.index))] == nil { out[first(Int(b.index))] = last(Int(b.index)) }
            default: break
            }
        }
        return out
    }

    /// The (shape, property) pairs an activity moved: the next unclaimed ones among the
    /// segments that started with it (several members of a stagger can start together).
    static func take(_ moved: [Int64: [(ShapeID, PropertyID)]], _ consumed: inout [Int64: Int], _ a: Activity,
                     _ writes: [PropertyWrite]) -> [(ShapeID, PropertyID)]? {
        let k = key(a.instance, a.begin)
        guard let all = moved[k] else { return nil }
        let wanted = Set(writes.map(\.property))
        let mine = all.filter { wanted.contains($0.1) }
        let from = consumed[k, default: 0]
        guard from < mine.count else { return mine }
        // Group by shape: one activity takes every wanted property of one shape (or, for a
        // tween over several shapes, as many pairs as it writes).
        let n = max(1, writes.count)
        consumed[k] = from + n
        return Array(mine[from..<min(mine.count, from + n)])
    }

    // MARK: - Labels

    /// A key for an instance and a global time (segments and activities that started together).
    static func key(_ instance: Int, _ t: Time) -> Int64 { Int64(instance) &* 1_000_003 &+ t.ticks }

    /// The (shape, property) pairs of every segment, keyed by instance and global start time:
    /// what each tween or spring actually moved, even where the target was a parameter.
    static func movedProperties(_ timeline: Timeline) -> [Int64: [(ShapeID, PropertyID)]] {
        var out: [Int64: [(ShapeID, PropertyID)]] = [:]
        var seen = Set<Int64>()
        for key in timeline.history.keys {
            for piece in timeline.history.pieces[key] ?? [] {
                guard case .segment(let tr, _) = piece.source else { continue }
                let k = Self.key(Int(tr.instance), piece.start)
                let mark = k &* 31 &+ Int64(tr.shape.index) << 20 &+ Int64(tr.property.raw)
                guard !seen.contains(mark) else { continue }
                seen.insert(mark)
                out[k, default: []].append((tr.shape, tr.property))
            }
        }
        for k in out.keys { out[k]!.sort { ($0.0, $0.1) < ($1.0, $1.1) } }
        return out
    }

    /// `shape.property` for each write: from the segments that started with the activity
    /// when there are some, else from the writes as compiled.
    static func names(_ writes: [PropertyWrite], _ moved: [(ShapeID, PropertyID)]?, _ timeline: Timeline) -> [String] {
        let wanted = Set(writes.map(\.property))
        func prop(_ p: PropertyID) -> String { Int(p.raw) < timeline.propertyNames.count ? timeline.propertyNames[Int(p.raw)] : "?" }
        if let m = moved?.filter({ wanted.contains($0.1) }), !m.isEmpty {
            return m.map { timeline.name(of: $0.0) + "." + prop($0.1) }
        }
        return writes.map { w in
            let shape: String
            switch w.shape {
            case .fixed(let id): shape = timeline.name(of: id)
            case .element(_, _, _, let name): shape = name + "[]"
            case .dynamic: shape = "?"
            }
            return shape + "." + prop(w.property)
        }
    }

    /// `set square.color`, `expect`, `pause walk`.
    static func actionLabel(_ a: ActionSpec, _ timeline: Timeline) -> String {
        switch a {
        case .print: return "print"
        case .set(let w):
            // A shape chosen at run time (a parameter) is not known here: name the property only.
            let name = names([w], nil, timeline).joined()
            return "set " + (name.hasPrefix("?.") ? String(name.dropFirst(2)) : name)
        case .expect: return "expect"
        case .control(let c): return "\(c.verb.rawValue) \(c.nameText)"
        case .save: return "save"
        case .restore: return "restore"
        }
    }

    /// `1.3s`, with at most 3 decimals.
    static func seconds(_ t: Time) -> String { formatFixed(t.seconds, 3) + "s" }
}

/// A number with at most `decimals` decimals, trailing zeros dropped, never `-0`; fast enough
/// for the thousands of numbers a baked animation holds.
func formatFixed(_ x: Double, _ decimals: Int) -> String {
    guard x.isFinite else { return "0" }
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    let n = Int64((x * Double(scale)).rounded())
    if n == 0 { return "0" }
    let m = n.magnitude
    let whole = m / UInt64(scale)
    var frac = m % UInt64(scale)
    var digits = decimals
    while digits > 0 && frac % 10 == 0 { frac /= 10; digits -= 1 }
    var s = n < 0 ? "-" : ""
    s += String(whole)
    if digits > 0 {
        let f = String(frac)
        s += "." + String(repeating: "0", count: digits - f.count) + f
    }
    return s
}
