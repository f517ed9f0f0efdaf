// The timeline layout and the player's lanes/bars JSON as they were written before issue 14's
// speed-ups (commit 18952f4), kept verbatim as the reference the fast versions must match byte
// for byte on every golden script (LanesEquivalenceTests). Only renamed: the layout returns its
// lanes and bars instead of initialising a TimelineLanes.
@testable import AnimCore

enum ReferenceLanes {
    typealias Lane = TimelineLanes.Lane
    typealias Bar = TimelineLanes.Bar
    typealias BarKind = TimelineLanes.BarKind
    typealias Seed = TimelineLanes.Seed

    /// Lays out a timeline's activities.
    static func layout(_ timeline: Timeline) -> (lanes: [Lane], bars: [Bar]) {
        var lanes: [Lane] = [], bars: [Bar] = []
        let prints = timeline.prints
        let acts = timeline.activities
        // Lanes of each instance's graph, then a global numbering of the lanes in use.
        // (Arrays by instance: a script of thousands of statements has as many instances.)
        var laneOfNode = [[Int]?](repeating: nil, count: timeline.graphs.count)
        var previousOfNode = [[Int: Int]?](repeating: nil, count: timeline.graphs.count)
        for a in acts where laneOfNode[a.instance] == nil {
            laneOfNode[a.instance] = Self.lanes(of: timeline.graphs[a.instance].graph)
            previousOfNode[a.instance] = Self.previousLeaves(of: timeline.graphs[a.instance].graph)
        }
        let seeds = Self.seeds(timeline)
        // Lanes of a branch (instance << 32 | local lane): steps of one branch that overlap in
        // time (a stagger's members) get a lane each, packed greedily.
        var branchLanes: [Int64: [(lane: Int, free: Time, last: Int)]] = [:]
        var branchOrder: [Int64] = []
        var shapesInLane: [[String]] = []
        // The same as sets, for the membership tests (a lane can move thousands of shapes).
        var shapeSetInLane: [Set<String>] = []
        // The lane of each live step, which its replays and resumptions use too.
        var laneOfOriginal: [Int: (branch: Int64, slot: Int)] = [:]
        var printIndex = 0
        // In time order; at one instant, steps that continue a chain claim their lanes first.
        let continues = seeds.map { seed in
            let a = acts[seed.first]
            return previousOfNode[a.instance]![Int(a.node.index)] != nil
        }
        let ordered = seeds.indices.sorted { x, y in
            let a = acts[seeds[x].first].begin, b = acts[seeds[y].first].begin
            if a != b { return a < b }
            return continues[x] != continues[y] ? continues[x] : x < y
        }.map { seeds[$0] }
        for seed in ordered {
            let a = acts[seed.first]
            let run = timeline.graphs[a.instance]
            var end = a.end ?? timeline.end
            var keys = a.keys
            if seed.members.count > 1 {
                // A run of retargets: from the first begin to where the last one let go.
                end = seed.members.map { m in min(acts[m].end ?? timeline.end, acts[m].takenOver ?? .max) }.max()!
                for m in seed.members { for k in acts[m].keys where !keys.contains(k) { keys.append(k) } }
            }
            var bar: Bar
            switch run.graph[a.node].kind {
            case .tween(let spec):
                bar = Bar(kind: .tween, label: "", properties: Self.names(keys, spec.writes, timeline), begin: a.begin, end: end, lane: 0)
            case .spring(let spec):
                bar = Bar(kind: .spring, label: "", properties: Self.names(keys, spec.writes, timeline), begin: a.begin, end: end, lane: 0)
            case .wait:
                bar = Bar(kind: .wait, label: "wait " + TimelineLanes.seconds(end - a.begin), properties: [], begin: a.begin, end: end, lane: 0)
            case .action(let action):
                var label = Self.actionLabel(action, keys: keys, timeline)
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
            if case .replay(_, let back) = a.pass { bar.reversed = back }
            if bar.kind == .tween || bar.kind == .spring, a.start < a.begin { bar.delayedFrom = a.start }
            bar.retargets = seed.members.count - 1
            let shapes = bar.properties.map { String($0[..<($0.lastIndex(of: ".") ?? $0.endIndex)]) }
            let original = a.original(seed.first)
            if let home = laneOfOriginal[original] {
                // A replay or resumption of a step already drawn: in that step's lane.
                bar.lane = branchLanes[home.branch]![home.slot].lane
                branchLanes[home.branch]![home.slot].free = max(branchLanes[home.branch]![home.slot].free, end, a.begin)
            } else {
                // The lane: among the branch's lanes free at `begin`, prefer the one whose last
                // step comes just before this one in its chain, then one that already moves
                // these shapes, then one whose last step ends right now.
                let previous = previousOfNode[a.instance]![Int(a.node.index)]
                let key = Int64(a.instance) << 32 | Int64(laneOfNode[a.instance]![Int(a.node.index)])
                if branchLanes[key] == nil { branchOrder.append(key) }
                // One pass over the branch's lanes, each scored once (the first best wins).
                var best: (slot: Int, score: Int)?
                for (k, l) in branchLanes[key, default: []].enumerated() where l.free <= a.begin {
                    let same = !shapes.isEmpty && shapes.allSatisfy(shapeSetInLane[l.lane].contains)
                    let score = (previous == l.last ? 4 : 0) + (same ? 2 : 0) + (l.free == a.begin ? 1 : 0)
                    if best == nil || score > best!.score { best = (k, score) }
                }
                let slot: Int
                if let k = best?.slot {
                    slot = k
                    branchLanes[key]![k].free = max(end, a.begin)
                    branchLanes[key]![k].last = Int(a.node.index)
                } else {
                    slot = branchLanes[key, default: []].count
                    branchLanes[key, default: []].append((lanes.count, max(end, a.begin), Int(a.node.index)))
                    lanes.append(Lane(label: ""))
                    shapesInLane.append([])
                    shapeSetInLane.append([])
                }
                bar.lane = branchLanes[key]![slot].lane
                laneOfOriginal[original] = (key, slot)
            }
            for shape in shapes where shapeSetInLane[bar.lane].insert(shape).inserted { shapesInLane[bar.lane].append(shape) }
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
        // Lane by lane, in time order (a replay comes after what it replays).
        bars = bars.enumerated().sorted { x, y in
            let (i, a) = x, (j, b) = y
            if a.lane != b.lane { return a.lane < b.lane }
            return a.begin != b.begin ? a.begin < b.begin : i < j
        }.map(\.element)
        // Bars name their shape only where the lane moves more than one.
        for b in bars.indices where bars[b].kind == .tween || bars[b].kind == .spring {
            let single = shapesInLane[bars[b].lane].count == 1
            let props = bars[b].properties.map { single ? String($0[$0.index(after: $0.lastIndex(of: ".") ?? $0.startIndex)...]) : $0 }
            bars[b].label = props.joined(separator: ", ")
        }
        return (lanes, bars)
    }

    /// The bars to draw, each from the activity it starts with: every activity that showed
    /// (not one a seek jumped over), a run of retargets gathered into its first one.
    static func seeds(_ timeline: Timeline) -> [Seed] {
        let acts = timeline.activities
        var head = [Int](acts.indices)
        var seeds: [Seed] = []
        var seedOfHead: [Int: Int] = [:]
        for (k, a) in acts.enumerated() where a.pass != .skipped {
            if let r = a.retargets, r < k, acts[r].pass != .skipped, let s = seedOfHead[head[r]] {
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
    static func previousLeaves(of g: SequencerGraph) -> [Int: Int] {
        func children(_ n: Int) -> [Int] { g.children(of: NodeID(n)).map { Int($0.index) } }
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


    // MARK: - Labels

    /// `shape.property` of each property moved, from the keys its segment took; a step that
    /// moved nothing (it failed as it began) is named from its writes, a shape chosen at run
    /// time by its property alone.
    static func names(_ keys: ActivityKeys, _ writes: [PropertyWrite], _ timeline: Timeline) -> [String] {
        func prop(_ p: PropertyID) -> String { Int(p.raw) < timeline.propertyNames.count ? timeline.propertyNames[Int(p.raw)] : "#\(p.raw)" }
        if !keys.isEmpty {
            return keys.map { timeline.name(of: $0.shape) + "." + prop($0.property) }
        }
        return writes.map { w in
            switch w.shape {
            case .fixed(let id): return timeline.name(of: id) + "." + prop(w.property)
            case .element(_, _, _, let name): return name + "[]." + prop(w.property)
            case .dynamic: return prop(w.property)
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


    // MARK: - The lanes JSON

    static func json(_ lanes: (lanes: [Lane], bars: [Bar]), shapes: [BakedFrames.Shape], to o: inout [UInt8]) {
        func put(_ s: String) { o += s.utf8 }
        var index: [Substring: Int] = [:]
        index.reserveCapacity(shapes.count)
        for (i, s) in shapes.enumerated() where index[Substring(s.name)] == nil { index[Substring(s.name)] = i }
        // The tracks a property moves, by its name (custom properties draw no tracks).
        let attributes: [Substring: [BakedFrames.Attribute]] = [
            "center": [.x, .y], "offset": [.x, .y], "size": [.w, .h], "rotation": [.rot], "scale": [.sx, .sy],
            "alpha": [.op], "color": [.r, .g, .b], "radius": [.rad], "z": [.z], "font": [.font],
            "anchor": [.ax, .ay], "shadow-offset": [.shx, .shy], "shadow-blur": [.shblur],
            "shadow-color": [.shr, .shg, .shb, .sha],
            "fill": [.r, .g, .b], "stroke": [.sr, .sg, .sb], "stroke-width": [.sw],
        ]
        var laneShapes = [[Int]](repeating: [], count: lanes.lanes.count)
        var inLane = [Set<Int>](repeating: [], count: lanes.lanes.count)
        var barTracks: [[(Int, BakedFrames.Attribute)]] = []
        barTracks.reserveCapacity(lanes.bars.count)
        for b in lanes.bars {
            var tracks: [(Int, BakedFrames.Attribute)] = []
            for p in b.properties {
                guard let dot = p.utf8.lastIndex(of: UInt8(ascii: ".")), let shape = index[p[..<dot]] else { continue }
                if b.lane < laneShapes.count && inLane[b.lane].insert(shape).inserted { laneShapes[b.lane].append(shape) }
                for a in attributes[p[p.utf8.index(after: dot)...], default: []] { tracks.append((shape, a)) }
            }
            barTracks.append(tracks)
        }
        put("\"lanes\":[")
        for (l, lane) in lanes.lanes.enumerated() {
            if l > 0 { put(",") }
            put("{\"label\":")
            o += jsonString(lane.label).utf8
            put(",\"shapes\":[")
            for (k, s) in laneShapes[l].enumerated() {
                if k > 0 { put(",") }
                put(String(s))
            }
            put("]}")
        }
        put("],\"bars\":[")
        for (k, b) in lanes.bars.enumerated() {
            if k > 0 { put(",") }
            put("[\(b.lane),\"\(b.kind.rawValue)\",\(formatFixed(b.begin.seconds, 9)),\(formatFixed(b.end.seconds, 9)),")
            put(b.delayedFrom.map { formatFixed($0.seconds, 9) } ?? "null")
            put(",")
            o += jsonString(b.label).utf8
            put(",")
            // The tooltip: what it moves, how it ran, when.
            var tip = b.properties.isEmpty ? b.label : b.properties.joined(separator: ", ")
            tip += TimelineStrip.note(b)
            tip += " "
            tip += TimelineChart.range(b)
            o += jsonString(tip).utf8
            put(b.reversed ? ",1,[" : ",0,[")
            for (j, t) in barTracks[k].enumerated() {
                if j > 0 { put(",") }
                put(String(t.0))
                put(",\"")
                put(t.1.key)
                put("\"")
            }
            put("]]")
        }
        put("]")
    }

}
