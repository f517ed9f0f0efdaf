// GraphBuilder: checked chain → SequencerGraph. Flattens steps into pre-ordered nodes, drops
// needless wrappers (a one-step chain is its step; a one-chain block is its chain) and computes
// each node's static duration. The graphs of define instantiations are built here too, from the
// checked bodies, each before the graphs that play it (a `play` needs its graph's duration).

/// The graph of one instantiation of a define: what a `play` node starts.
public struct Instantiation: Hashable, Sendable {
    /// The define's name.
    public var name: String
    /// The graph of its body (nil only while it is being built, for a define that plays itself).
    public var graph: SequencerGraph?
}

/// Builds sequencer graphs.
public struct GraphBuilder {
    private var nodes: [GraphNode] = []
    private var children: [NodeID] = []
    private var plans: [TweenPlan] = []
    private var targets: [TweenPlan.Target] = []
    /// How many targets to make room for at the first tween with a plan (the root chain's
    /// step count, as `build` used to reserve for every graph).
    private var targetsHint = 0
    /// The define instantiations `play` nodes refer to (for their durations).
    private let instantiations: InstantiationTable

    private init(instantiations: InstantiationTable) { self.instantiations = instantiations }

    /// The instantiations while their graphs are built: each is built the first time a graph
    /// plays it, and marked while it is being built, so that a define that plays itself (whose
    /// graph has no end) is seen as such.
    private final class InstantiationTable {
        let checked: [CheckedInstantiation]
        var built: [Instantiation]
        var building: Set<Int> = []

        init(checked: [CheckedInstantiation], built: [Instantiation]) {
            self.checked = checked
            self.built = built
        }

        /// The graph of instantiation `k`, built now if need be; nil while it is being built.
        func graph(_ k: Int) -> SequencerGraph? {
            if k < built.count, built[k].graph != nil || building.contains(k) { return built[k].graph }
            guard k < checked.count, let body = checked[k].body else { return nil }
            while built.count <= k { built.append(Instantiation(name: checked[built.count].name, graph: nil)) }
            building.insert(k)
            let g = GraphBuilder.build(body, localCount: checked[k].localCount, table: self)
            building.remove(k)
            built[k].graph = g
            return g
        }
    }

    /// Builds the graphs of the instantiations in `checked` that `built` does not have yet
    /// (every one, the first time), appending them to `built` in order.
    public static func buildInstantiations(_ checked: [CheckedInstantiation], onto built: inout [Instantiation]) {
        guard built.count < checked.count else { return }
        let table = InstantiationTable(checked: checked, built: built)
        for k in built.count..<checked.count { _ = table.graph(k) }
        // One whose body did not check has no graph (no `play` refers to it).
        while table.built.count < checked.count { table.built.append(Instantiation(name: checked[table.built.count].name, graph: nil)) }
        built = table.built
    }

    /// Builds the graph of a chain. A name on the chain itself stays on the root node (the
    /// instance is named); names on nested chains become `spawn` nodes (child instances).
    /// A block of one chain is that chain, so `< X as n >` and `at T < X as n >` name the
    /// graph just as `X as n` does.
    public static func build(_ chain: CheckedChain, localCount: Int, instantiations: [Instantiation] = []) -> SequencerGraph {
        build(chain, localCount: localCount, table: InstantiationTable(checked: [], built: instantiations))
    }

    private static func build(_ chain: CheckedChain, localCount: Int, table: InstantiationTable) -> SequencerGraph {
        var b = GraphBuilder(instantiations: table)
        // A chain of steps: a sequence and its steps (nested steps grow the arrays further).
        // `children` only when the root is a sequence, and `targets` only at the first tween
        // with a plan (`add(_:)`): most graphs are one step, and a print, spring or play has no
        // targets, so reserving both for every graph allocated two arrays a graph that stayed
        // empty (callgrind, lsp-5000: about 300 instructions each, for some 4,000 graphs).
        b.nodes.reserveCapacity(chain.steps.count + 1)
        if chain.steps.count > 1 { b.children.reserveCapacity(chain.steps.count) }
        b.targetsHint = chain.steps.count
        var top = chain
        while top.name == nil, top.steps.count == 1, case .parallel(let chains, _) = top.steps[0], chains.count == 1 {
            top = chains[0]
        }
        let name = top.name
        top.name = nil
        if name != nil, GraphBuilder.collapsesToNamed(top) {
            // `< X as inner > as outer`: the root names the graph, so the child instance
            // `inner` needs a node of its own below it.
            let at = b.reserve(top.span)
            let body = b.add(top)
            b.nodes[at] = GraphNode(kind: .sequence(b.list([body])), span: top.span, name: name, duration: b.nodes[Int(body.index)].duration)
        } else {
            let root = b.add(top)
            b.nodes[Int(root.index)].name = name
        }
        return SequencerGraph(nodes: b.nodes, localCount: localCount, children: b.children, plans: b.plans, targets: b.targets)
    }

    /// Whether an unnamed chain's node would be a named chain's `spawn` (the needless wrappers
    /// around it dropped).
    private static func collapsesToNamed(_ chain: CheckedChain) -> Bool {
        var c = chain
        while c.steps.count == 1, case .parallel(let chains, _) = c.steps[0], chains.count == 1 {
            if chains[0].name != nil { return true }
            c = chains[0]
        }
        return false
    }

    /// Reserves a slot so the parent precedes its children in pre-order.
    private mutating func reserve(_ span: Span) -> Int {
        nodes.append(GraphNode(kind: .parallel(NodeList(start: 0, count: 0)), span: span, name: nil, duration: .exact(.zero)))
        return nodes.count - 1
    }

    private mutating func add(_ chain: CheckedChain) -> NodeID {
        if let name = chain.name {
            // A named nested chain runs as its own instance, so control statements can reach it.
            let at = reserve(chain.span)
            var unnamed = chain
            unnamed.name = nil
            let body = add(unnamed)
            nodes[at] = GraphNode(kind: .spawn(body: body), span: chain.span, name: name, duration: nodes[Int(body.index)].duration)
            return NodeID(at)
        }
        if chain.steps.count == 1 { return add(chain.steps[0]) }
        let at = reserve(chain.span)
        let list = reserveList(chain.steps.count)
        var d = StaticDuration.exact(.zero)
        for (k, s) in chain.steps.enumerated() {
            let c = add(s)
            children[Int(list.start) + k] = c
            d = d + nodes[Int(c.index)].duration
        }
        nodes[at] = GraphNode(kind: .sequence(list), span: chain.span, name: nil, duration: d)
        return NodeID(at)
    }

    /// Reserves a run of `count` children, filled in as they are built (a child's own children
    /// come after the run).
    private mutating func reserveList(_ count: Int) -> NodeList {
        let start = Int32(children.count)
        children.append(contentsOf: repeatElement(NodeID(0), count: count))
        return NodeList(start: start, count: Int32(count))
    }

    /// Appends a node that has no children.
    private mutating func leaf(_ node: GraphNode) -> NodeID {
        nodes.append(node)
        return NodeID(nodes.count - 1)
    }

    private mutating func add(_ step: CheckedStep) -> NodeID {
        switch step {
        case .tween(let t):
            var node = GraphNode(kind: .tween(t), span: t.span, name: nil, duration: GraphBuilder.duration(of: t))
            if case .constant(let timing, let delay) = t.timing, !t.hasTimingExtras {
                // A graph has few distinct plans: the same timing, easing and delay share one.
                let d = delay ?? .zero
                let k = plans.firstIndex { $0.timing == timing && $0.delay == d && $0.easing == t.easing } ?? plans.count
                if k == plans.count { plans.append(TweenPlan(t)!) }
                if targets.capacity == 0 { targets.reserveCapacity(max(targetsHint, t.writes.count)) }
                let first = targets.count
                let count = TweenPlan.appendTargets(of: t, to: &targets)
                node.plan = PlanRef(plan: Int32(k), targets: Int32(first), targetCount: Int32(count ?? -1))
            }
            return leaf(node)
        case .wait(let e, let span):
            let d: StaticDuration = if case .constant(.time(let t)) = e.node { .exact(t) } else { .dynamic }
            return leaf(GraphNode(kind: .wait(e), span: span, name: nil, duration: d))
        case .action(let a, let span):
            return leaf(GraphNode(kind: .action(a), span: span, name: nil, duration: .exact(.zero)))
        case .parallel(let chains, let span):
            if chains.count == 1 { return add(chains[0]) }
            let at = reserve(span)
            let list = reserveList(chains.count)
            var d = StaticDuration.exact(.zero)
            for (k, c) in chains.enumerated() {
                let id = add(c)
                children[Int(list.start) + k] = id
                d = StaticDuration.longest(d, nodes[Int(id.index)].duration)
            }
            nodes[at] = GraphNode(kind: .parallel(list), span: span, name: nil, duration: d)
            return NodeID(at)
        case .spring(let sp):
            return leaf(GraphNode(kind: .spring(sp), span: sp.span, name: nil, duration: .dynamic))
        case .select(let mode, let chains, let span):
            let at = reserve(span)
            let list = reserveList(chains.count)
            var durations: [StaticDuration] = []
            for (k, c) in chains.enumerated() {
                let id = add(c)
                children[Int(list.start) + k] = id
                durations.append(nodes[Int(id.index)].duration)
            }
            let d = mode == .any ? GraphBuilder.duration(ofAny: durations) : GraphBuilder.duration(ofChoice: durations)
            nodes[at] = GraphNode(kind: .select(mode, chains: list), span: span, name: nil, duration: d)
            return NodeID(at)
        case .conditional(let branches, let span):
            let at = reserve(span)
            let list = reserveList(branches.count)
            var durations: [StaticDuration] = []
            for (k, b) in branches.enumerated() {
                let id = add(.parallel(b.body, span))
                children[Int(list.start) + k] = id
                durations.append(nodes[Int(id.index)].duration)
            }
            let conditions = branches.compactMap(\.condition)
            nodes[at] = GraphNode(kind: .conditional(conditions: conditions, branches: list), span: span, name: nil,
                                  duration: GraphBuilder.duration(ofBranches: branches.map(\.condition), durations))
            return NodeID(at)
        case .stagger(let spec, let body):
            let at = reserve(spec.span)
            let b = add(.parallel(body, spec.span))
            var d = StaticDuration.dynamic
            if case .constant(.list(let members)) = spec.members.node, members.isEmpty {
                d = .exact(.zero)  // no branch runs
            } else if case .constant(.list(let members)) = spec.members.node, case .constant(.time(let step)) = spec.interval.node,
                      case .exact(let bodyTime) = nodes[Int(b.index)].duration {
                // A random order shuffles the ranks or distances, so its largest start is known too.
                if let last = GraphBuilder.largestStart(spec, count: members.count), let offset = step.scaled(by: last) {
                    d = .exact(offset) + .exact(bodyTime)
                }
            } else if case .forever = nodes[Int(b.index)].duration { d = .forever }
            nodes[at] = GraphNode(kind: .stagger(spec, body: b), span: spec.span, name: nil, duration: d)
            return NodeID(at)
        case .play(let p):
            let at = reserve(p.span)
            var d = StaticDuration.dynamic
            if let g = instantiations.graph(p.instantiation) {
                if case .exact(let t) = g.duration {
                    if p.speed == nil { d = .exact(t) } else if case .constant(.number(let r))? = p.speed?.node, r > 0,
                                                                    let scaled = t.scaled(by: 1 / r) { d = .exact(scaled) }
                } else { d = g.duration }
            } else if p.instantiation < max(instantiations.built.count, instantiations.checked.count) {
                // Playing a define from inside its own body: with no conditionals, it never ends.
                d = .forever
            }
            nodes[at] = GraphNode(kind: .play(p), span: p.span, name: nil, duration: d)
            return NodeID(at)
        case .relative(let spec, let body):
            let at = reserve(spec.span)
            let b = add(.parallel(body, spec.span))
            // When it starts is known only then; a body that never ends never ends after it either.
            let d: StaticDuration = if case .forever = nodes[Int(b.index)].duration { .forever } else { .dynamic }
            nodes[at] = GraphNode(kind: .relative(spec, body: b), span: spec.span, name: nil, duration: d)
            return NodeID(at)
        case .repeat(let count, let yoyo, let body, let span, let delay, let loop):
            let at = reserve(span)
            let b = add(.parallel(body, span))
            let bodyDuration = nodes[Int(b.index)].duration
            // The pause between passes (`repeat-delay`): N passes have N − 1 of them.
            var pause: Time? = .zero
            if let delay { if case .constant(.time(let t)) = delay.node { pause = t } else { pause = nil } }
            var d: StaticDuration = .dynamic
            if let c = loop?.condition {
                // `repeat while`: no pass when the condition is false; never ends when it is a
                // constant true; otherwise known only as it runs.
                if c.constantValue == .bool(false) { d = .exact(.zero) } else if c.constantValue == .bool(true) { d = .forever }
            } else if count == nil {
                d = .forever
            } else if case .constant(.number(let n))? = count?.node, case .exact(let t) = bodyDuration,
                      n >= 0, n == n.rounded(), let total = t.scaled(by: n), let pause,
                      let pauses = pause.scaled(by: max(n - 1, 0)), let all = total.adding(pauses) {
                d = .exact(all)
            } else if case .forever = bodyDuration { d = .forever }
            nodes[at] = GraphNode(kind: .repeat(count: count, yoyo: yoyo, body: b), span: span, name: nil, duration: d, repeatDelay: delay,
                                  repeatLoop: loop)
            return NodeID(at)
        }
    }

    /// An `if`'s static duration: the branches it may take (constant conditions decide; no
    /// branch at all takes no time) all have it.
    static func duration(ofBranches conditions: [TypedExpr?], _ durations: [StaticDuration]) -> StaticDuration {
        var possible: [StaticDuration] = []
        var decided = false
        for (c, d) in zip(conditions, durations) {
            if case .constant(.bool(false))? = c?.node { continue }
            possible.append(d)
            if c == nil { decided = true; break }
            if case .constant(.bool(true))? = c?.node { decided = true; break }
        }
        if !decided { possible.append(.exact(.zero)) }
        guard let first = possible.first else { return .exact(.zero) }
        return possible.allSatisfy { $0 == first } && first != .dynamic ? first : .dynamic
    }

    /// `any`'s static duration: the shortest chain's, known when every chain's is (a chain that
    /// never ends does not count; none that ends: it never ends; no chain: no time).
    static func duration(ofAny durations: [StaticDuration]) -> StaticDuration {
        if durations.isEmpty { return .exact(.zero) }
        var shortest: Time?
        for d in durations {
            switch d {
            case .dynamic: return .dynamic
            case .forever: continue
            case .exact(let t): shortest = min(shortest ?? t, t)
            }
        }
        return shortest.map { .exact($0) } ?? .forever
    }

    /// `choose`'s static duration: known only when every chain has the same (the draw is made
    /// as it runs); no chain takes no time.
    static func duration(ofChoice durations: [StaticDuration]) -> StaticDuration {
        guard let first = durations.first else { return .exact(.zero) }
        return durations.allSatisfy { $0 == first } && first != .dynamic ? first : .dynamic
    }

    /// Stores a node's children in one run of `children`.
    private mutating func list(_ ids: [NodeID]) -> NodeList {
        let start = Int32(children.count)
        children += ids
        return NodeList(start: start, count: Int32(ids.count))
    }

    /// A tween's static duration: delay + duration × iterations ÷ speed, when all are constants.
    /// The active duration is 0 when the duration is, even with `repeat forever` (Grammar.md §6.1).
    static func duration(of t: TweenSpec) -> StaticDuration {
        switch t.timing {
        case .constant(let timing, let delay):
            if timing.iterations.isInfinite && timing.iterationDuration.ticks != 0 { return .forever }
            guard let active = timing.activeDuration else { return .dynamic }
            // Web Animations' end time: max(delay + active + end delay, 0).
            var endDelay = Time.zero
            if let e = t.endDelay {
                guard case .constant(.time(let x)) = e.node else { return .dynamic }
                endDelay = x
            }
            return (delay ?? .zero).adding(active)?.adding(endDelay).map { .exact(max($0, .zero)) } ?? .dynamic
        case .computed(let c):
            // A computed duration is taken as endless when it repeats forever: it is, unless it
            // turns out to be 0. Any other computed part makes the duration known only then.
            guard case .constant(.time(let d)) = c.duration.node else { return c.forever ? .forever : .dynamic }
            return c.forever && d.ticks != 0 ? .forever : .dynamic
        }
    }
}

extension GraphBuilder {
    /// The largest start of a stagger's members, as a multiple of its interval, when its layout
    /// is constant and valid (else it is known only when it runs).
    static func largestStart(_ spec: StaggerSpec, count n: Int) -> Double? {
        func whole(_ e: TypedExpr) -> Int? {
            guard case .constant(.number(let x)) = e.node, x.rounded() == x, abs(x) < Stagger.maxLayout else { return nil }
            return Int(x)
        }
        var origin = Stagger.Origin.order(spec.order)
        if let e = spec.fromIndex { guard let k = whole(e) else { return nil }; origin = .index(k) }
        var grid: Stagger.Grid?
        if let g = spec.grid {
            guard let rows = whole(g.rows), let columns = whole(g.columns) else { return nil }
            grid = Stagger.Grid(rows: rows, columns: columns, axis: g.axis)
        }
        guard Stagger.problem(count: n, origin: origin, grid: grid) == nil else { return nil }
        return Stagger.multiples(count: n, origin: origin, amount: spec.amount, grid: grid, easing: spec.easing).max() ?? 0
    }
}

/// Stagger ranks: which multiple of the interval each member starts at.
public enum Stagger {
    /// Dense ranks for `count` members in an order (members at equal distance share a rank);
    /// `random` needs a generator and is ranked by the interpreter.
    public static func ranks(count n: Int, order: StaggerOrder) -> [Int] {
        guard n > 0 else { return [] }
        switch order {
        case .start, .random: return Array(0..<n)
        case .end: return (0..<n).map { n - 1 - $0 }
        case .center:
            // Distance from the middle, doubled to stay whole: 2|i - (n-1)/2| = |2i - (n-1)|.
            let d = (0..<n).map { abs(2 * $0 - (n - 1)) }
            return denseRanks(d)
        case .edges:
            return denseRanks((0..<n).map { min($0, n - 1 - $0) })
        }
    }

    /// Replaces each value by its rank among the distinct values.
    static func denseRanks(_ values: [Int]) -> [Int] {
        let distinct = Array(Set(values)).sorted()
        var rank: [Int: Int] = [:]
        for (i, v) in distinct.enumerated() { rank[v] = i }
        return values.map { rank[$0]! }
    }
}
