// TimelineLanes: a run's leaf activities laid out for charts — one lane per branch of each
// graph (a block's second and later children open new lanes; `then` stays in its lane), each
// tween or spring a bar labelled with the properties it moved, waits as gaps, actions as
// ticks, and the printed messages at their instants. The HTML strip, the timeline SVG and the
// terminal chart all draw this one layout.
//
// Everything comes from the activity log (ActivityLog.swift): the properties a bar names are
// the ones its segment took; a replay (`reverse NAME`, `play … reversed`, a yoyo's later
// passes, a seek back) is drawn in the lane of the steps it replays, marked when it runs
// backward; steps a seek jumped over are not drawn; and a step that retargets an earlier run
// of itself (an observer restarting its spring every frame) continues that run's bar.

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

    /// One leaf activity (or a run of retargets drawn as one).
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
        /// Whether it plays backward (a replay in reverse).
        public var reversed = false
        /// How many later runs of its step retargeted it (0: none); the bar spans them all.
        public var retargets = 0
        /// When its node started, for a tween or spring that waited out a delay before `begin`
        /// (nil: no delay).
        public var delayedFrom: Time? = nil
        /// Where its properties' refs start in `TimelineLanes.propertyRefs` (−1: none kept).
        var firstRef: Int32 = -1
    }

    /// One lane.
    public struct Lane: Sendable {
        /// The shapes its bars move (`square`, `card[0], card[1]`), or `(actions)` for the lane
        /// of waits and actions only.
        public var label: String
    }

    /// The lanes, top to bottom.
    public var lanes: [Lane] = []
    /// Every bar, lane by lane in time order.
    public var bars: [Bar] = []
    /// The printed messages.
    public var prints: [(time: Time, text: String)] = []
    /// The end of the run.
    public var end: Time

    /// The indices of each lane's bars, lane by lane, in `bars` order: one pass over the bars
    /// (a chart that drew each lane by scanning every bar was quadratic in a script with
    /// thousands of lanes).
    public var barsByLane: [[Int]] {
        var out = [[Int]](repeating: [], count: lanes.count)
        for (k, b) in bars.enumerated() where b.lane >= 0 && b.lane < out.count { out[b.lane].append(k) }
        return out
    }

    /// One bar to place: the activity it starts from, and for a run of retargets the others.
    struct Seed {
        var first: Int
        var members: [Int]
    }

    /// What each of a bar's `properties` names, for readers that need its shape and property
    /// without parsing the text (the player's data): `properties[k]` of bar `b` is
    /// `propertyRefs[b.firstRef + k]`.
    struct PropertyRef: Sendable {
        /// The shape (ShapeID's index) when the text is `name(of: shape) + "." + property`,
        /// else −1 (an element write `card[].x`, a shape chosen at run time).
        var shape: Int32
        /// The property (PropertyID's raw value).
        var property: Int32
    }

    /// The refs of every bar's properties (see `PropertyRef`).
    var propertyRefs: [PropertyRef] = []
    /// Whether no property name holds a `.`, so that a property's text splits at its last `.`
    /// into the shape's name and the property's (what the refs' fast paths rely on).
    var propertyNamesDotFree = true

    /// Lays out a timeline's activities.
    ///
    /// Kept to a few words of work per bar (the studio lays out a script of 10,000 steps on
    /// every save): shapes are compared as numbers (each name interned once), each lane's
    /// shapes are a short list (a set beside it once it grows), the per-node, per-branch and
    /// per-activity tables are flat arrays of numbers (no array per instance, branch or bar,
    /// no dictionary), a bar's property names are built once per shape and property and then
    /// shared, and the bars are put lane by lane with a counting sort.
    public init(_ timeline: Timeline) {
        end = timeline.end
        prints = timeline.prints
        let acts = timeline.activities
        let propertyNames = timeline.propertyNames
        let dotFree = propertyNames.allSatisfy { !$0.utf8.contains(UInt8(ascii: ".")) }
        propertyNamesDotFree = dotFree
        // Lanes and chain predecessors of each instance's graph, in flat tables: instance `i`'s
        // node `n` is entry `nodeBase[i] + n`, and its local lane `l` is branch key
        // `branchBase[i] + l` (arrays by instance: a script of thousands of statements has as
        // many instances).
        var nodeBase = [Int](repeating: -1, count: timeline.graphs.count)
        var branchBase = [Int](repeating: 0, count: timeline.graphs.count)
        var laneOfNode: [Int32] = [], previousOfNode: [Int32] = []
        var branchKeys = 0
        for k in acts.indices where nodeBase[acts[k].instance] < 0 {
            let i = acts[k].instance
            let g = timeline.graphs[i].graph
            nodeBase[i] = laneOfNode.count
            branchBase[i] = branchKeys
            var most = 0
            for l in Self.lanes(of: g) { laneOfNode.append(Int32(l)); most = max(most, l) }
            branchKeys += most + 1
            for p in Self.previousLeaves(of: g) { previousOfNode.append(Int32(p)) }
        }
        // The bars to draw (see `seeds`), without an array per bar: each seed's first activity,
        // and for a run of retargets its other members as a list through `nextMember`.
        var seedFirst: [Int32] = [], seedLast: [Int32] = [], seedCount: [Int32] = []
        seedFirst.reserveCapacity(acts.count)
        var nextMember = [Int32](repeating: -1, count: acts.count)
        do {
            var head = [Int32](repeating: -1, count: acts.count)
            var seedOfHead = [Int32](repeating: -1, count: acts.count)
            for k in acts.indices where acts[k].pass != .skipped {
                if let r = acts[k].retargets, r < k, r >= 0, acts[r].pass != .skipped, seedOfHead[Int(head[r])] >= 0 {
                    let s = Int(seedOfHead[Int(head[r])])
                    head[k] = head[r]
                    nextMember[Int(seedLast[s])] = Int32(k)
                    seedLast[s] = Int32(k)
                    seedCount[s] += 1
                    continue
                }
                head[k] = Int32(k)
                seedOfHead[k] = Int32(seedFirst.count)
                seedFirst.append(Int32(k))
                seedLast.append(Int32(k))
                seedCount.append(1)
            }
        }
        // The shapes bars move, as numbers: each distinct text (what a property's text holds
        // before its last `.`) interned once; a shape's number is found through its ShapeID.
        var shapeNames: [String] = []
        var tokenOfName: [String: Int32] = [:]
        var tokenOfShape = [Int32](repeating: -1, count: timeline.shapes.count)
        func token(_ name: String) -> Int32 {
            if let t = tokenOfName[name] { return t }
            let t = Int32(shapeNames.count)
            shapeNames.append(name)
            tokenOfName[name] = t
            return t
        }
        func token(of property: String, _ ref: PropertyRef) -> Int32 {
            if dotFree, ref.shape >= 0, Int(ref.shape) < tokenOfShape.count {
                if tokenOfShape[Int(ref.shape)] < 0 { tokenOfShape[Int(ref.shape)] = token(timeline.name(of: ShapeID(Int(ref.shape)))) }
                return tokenOfShape[Int(ref.shape)]
            }
            return token(String(property[..<(property.lastIndex(of: ".") ?? property.endIndex)]))
        }
        // The `properties` of a bar that moved one property, by shape and property: built once
        // and then shared while the shape's steps go on moving that property (each shape's
        // last one is kept, in arrays by shape).
        var propertyOfShape = [Int32](repeating: -1, count: timeline.shapes.count)
        var namesOfShape = [[String]](repeating: [], count: timeline.shapes.count)
        // Lanes of a branch (by branch key): steps of one branch that overlap in time (a
        // stagger's members) get a lane each, packed greedily. A branch's lanes are slots
        // listed through `slotNext`, in the order they opened.
        var branchOfKey = [Int32](repeating: -1, count: branchKeys)
        var branchHead: [Int32] = [], branchTail: [Int32] = []
        var slotLane: [Int] = [], slotFree: [Time] = [], slotLast: [Int] = [], slotNext: [Int32] = []
        // Each lane's shapes in order, and beside a long list the same as a set.
        var shapesInLane: [[Int32]] = []
        var shapeSetInLane: [Set<Int32>] = []
        let setThreshold = 8
        func laneHas(_ lane: Int, _ shape: Int32) -> Bool {
            shapesInLane[lane].count <= setThreshold ? shapesInLane[lane].contains(shape) : shapeSetInLane[lane].contains(shape)
        }
        // The slot of each live step (by activity), which its replays and resumptions use too.
        var slotOfOriginal = [Int32](repeating: -1, count: acts.count)
        var printIndex = 0
        // In time order; at one instant, steps that continue a chain claim their lanes first.
        var begins = [Int64](), continues = [Bool]()
        begins.reserveCapacity(seedFirst.count)
        continues.reserveCapacity(seedFirst.count)
        for f in seedFirst {
            let i = Int(f)
            begins.append(acts[i].begin.ticks)
            continues.append(previousOfNode[nodeBase[acts[i].instance] + Int(acts[i].node.index)] >= 0)
        }
        let ordered = seedFirst.indices.sorted { x, y in
            let a = begins[x], b = begins[y]
            if a != b { return a < b }
            return continues[x] != continues[y] ? continues[x] : x < y
        }
        bars.reserveCapacity(seedFirst.count)
        propertyRefs.reserveCapacity(seedFirst.count)
        var shapes: [Int32] = []
        for s in ordered {
            let first = Int(seedFirst[s])
            let instance = acts[first].instance, nodeIndex = Int(acts[first].node.index)
            let begin = acts[first].begin
            let node = nodeBase[instance] + nodeIndex
            var end = acts[first].end ?? timeline.end
            let merged = seedCount[s] > 1
            var keys = merged ? acts[first].keys : ActivityKeys()
            if merged {
                // A run of retargets: from the first begin to where the last one let go.
                end = min(end, acts[first].takenOver ?? .max)
                var m = Int(nextMember[first])
                while m >= 0 {
                    end = max(end, min(acts[m].end ?? timeline.end, acts[m].takenOver ?? .max))
                    for k in acts[m].keys where !keys.contains(k) { keys.append(k) }
                    m = Int(nextMember[m])
                }
            }
            /// A tween's or spring's properties: one moved property from the shared names.
            func properties(_ writes: [PropertyWrite]) -> [String] {
                if !merged, acts[first].keys.count == 1 {
                    let k = acts[first].keys[0]
                    propertyRefs.append(PropertyRef(shape: Int32(k.shape.index), property: Int32(k.property.raw)))
                    let shape = Int(k.shape.index), property = Int32(k.property.raw)
                    let kept = shape >= 0 && shape < propertyOfShape.count
                    if kept, propertyOfShape[shape] == property { return namesOfShape[shape] }
                    var refs: [PropertyRef] = []
                    let made = Self.names(acts[first].keys, writes, timeline, refs: &refs)
                    if kept { (propertyOfShape[shape], namesOfShape[shape]) = (property, made) }
                    return made
                }
                return Self.names(merged ? keys : acts[first].keys, writes, timeline, refs: &propertyRefs)
            }
            var bar: Bar
            let firstRef = propertyRefs.count
            // (The kind read through the nodes' buffer: subscripting copies the whole node.)
            let kind = timeline.graphs[instance].graph.nodes.withUnsafeBufferPointer { $0[nodeIndex].kind }
            switch kind {
            case .tween(let spec):
                bar = Bar(kind: .tween, label: "", properties: properties(spec.writes), begin: begin, end: end, lane: 0)
            case .spring(let spec):
                bar = Bar(kind: .spring, label: "", properties: properties(spec.writes), begin: begin, end: end, lane: 0)
            case .wait:
                bar = Bar(kind: .wait, label: "wait " + Self.seconds(end - begin), properties: [], begin: begin, end: end, lane: 0)
            case .action(let action):
                var label = Self.actionLabel(action, keys: merged ? keys : acts[first].keys, timeline)
                if case .print = action {
                    while printIndex < prints.count && prints[printIndex].time < begin { printIndex += 1 }
                    if printIndex < prints.count && prints[printIndex].time == begin {
                        label = "print \"\(prints[printIndex].text)\""
                        printIndex += 1
                    }
                }
                bar = Bar(kind: .action, label: label, properties: [], begin: begin, end: begin, lane: 0)
            default:
                continue
            }
            bar.firstRef = Int32(firstRef)
            let pass = acts[first].pass
            if case .replay(_, let back) = pass { bar.reversed = back }
            if bar.kind == .tween || bar.kind == .spring, acts[first].start < begin { bar.delayedFrom = acts[first].start }
            bar.retargets = Int(seedCount[s]) - 1
            // Overwritten in place (emptying the array each time costs more than the rest).
            for (k, p) in bar.properties.enumerated() {
                let t = token(of: p, propertyRefs[firstRef + k])
                if k < shapes.count { shapes[k] = t } else { shapes.append(t) }
            }
            if shapes.count > bar.properties.count { shapes.removeSubrange(bar.properties.count...) }
            let original: Int
            switch pass {
            case .replay(let o, _), .resumed(let o): original = o
            case .live, .skipped: original = first
            }
            if original < slotOfOriginal.count, slotOfOriginal[original] >= 0 {
                // A replay or resumption of a step already drawn: in that step's lane.
                let home = Int(slotOfOriginal[original])
                bar.lane = slotLane[home]
                slotFree[home] = max(slotFree[home], end, begin)
            } else {
                // The lane: among the branch's lanes free at `begin`, prefer the one whose last
                // step comes just before this one in its chain, then one that already moves
                // these shapes, then one whose last step ends right now.
                let previous = Int(previousOfNode[node])
                let key = branchBase[instance] + Int(laneOfNode[node])
                if branchOfKey[key] < 0 {
                    branchOfKey[key] = Int32(branchHead.count)
                    branchHead.append(-1)
                    branchTail.append(-1)
                }
                let b = Int(branchOfKey[key])
                // One pass over the branch's lanes, each scored once (the first best wins).
                var best = -1, bestScore = 0
                var k = Int(branchHead[b])
                while k >= 0 {
                    if slotFree[k] <= begin {
                        let lane = slotLane[k]
                        var same = !shapes.isEmpty
                        if same { for t in shapes where !laneHas(lane, t) { same = false; break } }
                        let score = (previous >= 0 && previous == slotLast[k] ? 4 : 0) + (same ? 2 : 0) + (slotFree[k] == begin ? 1 : 0)
                        if best < 0 || score > bestScore { (best, bestScore) = (k, score) }
                    }
                    k = Int(slotNext[k])
                }
                let slot: Int
                if best >= 0 {
                    slot = best
                    slotFree[slot] = max(end, begin)
                    slotLast[slot] = nodeIndex
                } else {
                    slot = slotLane.count
                    slotLane.append(lanes.count)
                    slotFree.append(max(end, begin))
                    slotLast.append(nodeIndex)
                    slotNext.append(-1)
                    if branchTail[b] >= 0 { slotNext[Int(branchTail[b])] = Int32(slot) } else { branchHead[b] = Int32(slot) }
                    branchTail[b] = Int32(slot)
                    lanes.append(Lane(label: ""))
                    shapesInLane.append([])
                    shapeSetInLane.append([])
                }
                bar.lane = slotLane[slot]
                if original < slotOfOriginal.count { slotOfOriginal[original] = Int32(slot) }
            }
            for t in shapes where !laneHas(bar.lane, t) {
                shapesInLane[bar.lane].append(t)
                if shapesInLane[bar.lane].count == setThreshold + 1 {
                    shapeSetInLane[bar.lane] = Set(shapesInLane[bar.lane])
                } else if shapesInLane[bar.lane].count > setThreshold + 1 {
                    shapeSetInLane[bar.lane].insert(t)
                }
            }
            bars.append(consume bar)  // (moved: a copy would retain its strings)
        }
        // Renumber so that a branch's lanes sit together, branches in order of first activity;
        // lanes that move nothing (prints, waits, control) share one lane, after the others.
        var order: [Int] = []
        order.reserveCapacity(lanes.count)
        for h in branchHead {
            var k = Int(h)
            while k >= 0 { order.append(slotLane[k]); k = Int(slotNext[k]) }
        }
        let moving = order.filter { !shapesInLane[$0].isEmpty }, still = order.filter { shapesInLane[$0].isEmpty }
        var renumber = [Int](repeating: 0, count: lanes.count)
        for (new, old) in moving.enumerated() { renumber[old] = new }
        for old in still { renumber[old] = moving.count }
        lanes = moving.map { l in
            Lane(label: shapesInLane[l].count == 1 ? shapeNames[Int(shapesInLane[l][0])] : shapesInLane[l].map { shapeNames[Int($0)] }.joined(separator: ", "))
        }
        if !still.isEmpty { lanes.append(Lane(label: "(actions)")) }
        let shapeCount = moving.map { shapesInLane[$0].count } + (still.isEmpty ? [] : [0])
        var laneOfBar = [Int](repeating: 0, count: bars.count)
        bars.withUnsafeMutableBufferPointer { bars in  // (a whole bar is copied by subscripting the array)
            for b in bars.indices {
                bars[b].lane = renumber[bars[b].lane]
                laneOfBar[b] = bars[b].lane
            }
        }
        // Lane by lane, in time order (a replay comes after what it replays). The bars were
        // made in time order, so a stable counting sort by lane puts them in that order; the
        // comparison sort is kept for a lane that is not (it never is, by construction).
        if bars.count > 1 {
            var start = [Int](repeating: 0, count: lanes.count + 1)
            for l in laneOfBar { start[l + 1] += 1 }
            for l in lanes.indices { start[l + 1] += start[l] }
            // `place[i]`: where bar `i` goes.
            var place = [Int](repeating: 0, count: bars.count)
            for i in bars.indices { place[i] = start[laneOfBar[i]]; start[laneOfBar[i]] += 1 }
            // Moved in place along the permutation's cycles, with the buffer's swaps (they move a
            // bar; the array's copy it).
            var done = [Bool](repeating: false, count: bars.count)
            bars.withUnsafeMutableBufferPointer { bars in
                for i in bars.indices where !done[i] {
                    done[i] = true
                    var j = place[i]
                    while j != i {
                        bars.swapAt(i, j)  // the bar that belongs at j goes there; bar i now holds j's
                        done[j] = true
                        j = place[j]
                    }
                }
            }
            func before(_ i: Int, _ j: Int) -> Bool {
                let a = bars[i], b = bars[j]
                if a.lane != b.lane { return a.lane < b.lane }
                return a.begin != b.begin ? a.begin < b.begin : i < j
            }
            let inOrder = bars.withUnsafeBufferPointer { p in
                (1..<p.count).allSatisfy { p[$0 - 1].lane != p[$0].lane || p[$0 - 1].begin <= p[$0].begin }
            }
            if !inOrder {
                let sorted = bars.indices.sorted(by: before)
                bars = sorted.map { bars[$0] }
            }
        }
        // Bars name their shape only where the lane moves more than one.
        // (Through the bars' buffer: subscripting the array copies a whole bar.)
        let refs = propertyRefs
        bars.withUnsafeMutableBufferPointer { bars in
            for b in bars.indices where bars[b].kind == .tween || bars[b].kind == .spring {
                let single = shapeCount[bars[b].lane] == 1
                let first = Int(bars[b].firstRef)
                func label(_ k: Int) -> String {
                    let p = bars[b].properties[k]
                    guard single else { return p }
                    let ref = refs[first + k]
                    if dotFree, ref.shape >= 0, ref.property >= 0 {
                        // One component of a point (`center.x`): its point's name and the axis.
                        let id = PropertyID(Int(ref.property))
                        if let c = id.componentIndex, Int(id.whole.raw) < propertyNames.count { return propertyNames[Int(id.whole.raw)] + (c == 0 ? ".x" : ".y") }
                        if Int(ref.property) < propertyNames.count { return propertyNames[Int(ref.property)] }
                    }
                    return Self.withoutShape(p, named: ref.shape >= 0 || p.contains("[]."))
                }
                let n = bars[b].properties.count
                bars[b].label = n == 1 ? label(0) : (0..<n).map(label).joined(separator: ", ")
            }
        }
    }

    /// A bar's property name (`names`) without the shape in front of it: `sq.center.x` →
    /// `center.x`, `cards[].alpha` → `alpha`; one `named` false (a tween on a shape decided
    /// as it runs, named from its write: `center`, `center.x`) has none and stays whole.
    static func withoutShape(_ p: String, named: Bool) -> String {
        guard named, let dot = p.firstIndex(of: ".") else { return p }
        return String(p[p.index(after: dot)...])
    }

    /// The bars to draw, each from the activity it starts with: every activity that showed
    /// (not one a seek jumped over), a run of retargets gathered into its first one.
    static func seeds(_ timeline: Timeline) -> [Seed] {
        let acts = timeline.activities
        var head = [Int](acts.indices)
        var seeds: [Seed] = []
        seeds.reserveCapacity(acts.count)
        var seedOfHead = [Int](repeating: -1, count: acts.count)
        for (k, a) in acts.enumerated() where a.pass != .skipped {
            if let r = a.retargets, r < k, r >= 0, acts[r].pass != .skipped, seedOfHead[head[r]] >= 0 {
                let s = seedOfHead[head[r]]
                head[k] = head[r]
                seeds[s].members.append(k)
                continue
            }
            seedOfHead[k] = seeds.count
            seeds.append(Seed(first: k, members: [k]))
        }
        return seeds
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
            case .select(_, let c):
                for k in g[c] { lane[Int(k.index)] = lane[i] }
            case .conditional(_, let c):
                for k in g[c] { lane[Int(k.index)] = lane[i] }  // one branch runs
            case .tween, .wait, .action, .spring, .play:
                break
            }
        }
        return lane
    }

    /// For each leaf, the leaf that runs just before it in its chain (`A then B`: the last
    /// leaf of A before the first of B; a repeat's body follows itself).
    static func previousLeaves(of g: SequencerGraph) -> [Int] {
        // Walked down without building child arrays (`children(of:)`): a node's first child,
        // and for a sequence its last.
        func firstChild(_ n: Int) -> Int? {
            switch g.nodes[n].kind {
            case .sequence(let c), .parallel(let c), .conditional(_, let c), .select(_, let c):
                return c.count > 0 ? Int(g.child(0, of: c).index) : nil
            case .repeat(_, _, let b), .stagger(_, let b), .relative(_, let b), .spawn(let b):
                return Int(b.index)
            case .tween, .wait, .action, .spring, .play:
                return nil
            }
        }
        func first(_ n: Int) -> Int {
            var n = n
            while let c = firstChild(n) { n = c }
            return n
        }
        func last(_ n: Int) -> Int {
            var n = n
            while true {
                if case .sequence(let c) = g.nodes[n].kind {
                    guard c.count > 0 else { return n }
                    n = Int(g.child(Int(c.count) - 1, of: c).index)
                } else if let c = firstChild(n) {
                    n = c
                } else {
                    return n
                }
            }
        }
        var out = [Int](repeating: -1, count: g.nodes.count)  // −1: none
        for n in g.nodes.indices {
            switch g.nodes[n].kind {
            case .sequence(let list):
                let c = g[list]
                for (a, b) in zip(c, c.dropFirst()) { out[first(Int(b.index))] = last(Int(a.index)) }
            case .repeat(_, _, let b):
                if out[first(Int(b.index))] < 0 { out[first(Int(b.index))] = last(Int(b.index)) }
            default: break
            }
        }
        return out
    }


    // MARK: - Labels

    /// `shape.property` of each property moved, from the keys its segment took; a step that
    /// moved nothing (it failed as it began) is named from its writes, a shape chosen at run
    /// time by its property alone.
    static func names(_ keys: ActivityKeys, _ writes: [PropertyWrite], _ timeline: Timeline) -> [String] {
        var refs: [PropertyRef] = []
        return names(keys, writes, timeline, refs: &refs)
    }

    /// The same, appending what each names to `refs`.
    static func names(_ keys: ActivityKeys, _ writes: [PropertyWrite], _ timeline: Timeline, refs: inout [PropertyRef]) -> [String] {
        func prop(_ p: PropertyID) -> String {
            if let c = p.componentIndex { return prop(p.whole) + (c == 0 ? ".x" : ".y") }
            return Int(p.raw) < timeline.propertyNames.count ? timeline.propertyNames[Int(p.raw)] : "#\(p.raw)" }
        func named(_ id: ShapeID, _ p: PropertyID) -> String {
            refs.append(PropertyRef(shape: Int32(id.index), property: Int32(p.raw)))
            var s = timeline.name(of: id)
            s += "."
            s += prop(p)
            return s
        }
        if !keys.isEmpty {
            return keys.map { named($0.shape, $0.property) }
        }
        return writes.map { w in
            switch w.shape {
            case .fixed(let id): return named(id, w.property)
            case .element(_, _, _, let name):
                refs.append(PropertyRef(shape: -1, property: Int32(w.property.raw)))
                return name + "[]." + prop(w.property)
            case .dynamic:
                refs.append(PropertyRef(shape: -1, property: Int32(w.property.raw)))
                return prop(w.property)
            }
        }
    }

    /// `set square.color`, `expect`, `pause walk`.
    static func actionLabel(_ a: ActionSpec, keys: ActivityKeys, _ timeline: Timeline) -> String {
        switch a {
        case .print: return "print"
        case .set(let w): return "set " + names(keys, [w], timeline).joined()
        case .expect: return "expect"
        case .control(let c): return "\(c.verb.rawValue) \(c.nameText)"
        case .save: return "save"
        case .restore: return "restore"
        case .interruptShapes(let x): return "interrupt \(x.text)"
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
    // Beyond Int64's range (a shape at 1e300): Swift's shortest form, `1e+300`, which SVG and
    // JSON read as a number.
    guard abs(x * Double(scale)) < 0x1p63 else { return String(x) }
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
