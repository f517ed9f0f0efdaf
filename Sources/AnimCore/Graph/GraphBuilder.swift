// GraphBuilder: checked chain → SequencerGraph. Flattens steps into pre-ordered nodes, drops
// needless wrappers (a one-step chain is its step; a one-chain block is its chain) and computes
// each node's static duration.

/// Builds sequencer graphs.
public struct GraphBuilder {
    private var nodes: [GraphNode] = []

    /// Builds the graph of a chain.
    public static func build(_ chain: CheckedChain, localCount: Int) -> SequencerGraph {
        var b = GraphBuilder()
        _ = b.add(chain)
        return SequencerGraph(nodes: b.nodes, localCount: localCount)
    }

    /// Reserves a slot so the parent precedes its children in pre-order.
    private mutating func reserve(_ span: Span) -> Int {
        nodes.append(GraphNode(kind: .parallel([]), span: span, name: nil, duration: .exact(.zero)))
        return nodes.count - 1
    }

    private mutating func add(_ chain: CheckedChain) -> NodeID {
        if chain.steps.count == 1 {
            let id = add(chain.steps[0])
            if let n = chain.name { nodes[Int(id.index)].name = n }
            return id
        }
        let at = reserve(chain.span)
        var children: [NodeID] = []
        var d = StaticDuration.exact(.zero)
        for s in chain.steps {
            let c = add(s)
            children.append(c)
            d = d + nodes[Int(c.index)].duration
        }
        nodes[at] = GraphNode(kind: .sequence(children), span: chain.span, name: chain.name, duration: d)
        return NodeID(at)
    }

    private mutating func add(_ step: CheckedStep) -> NodeID {
        switch step {
        case .tween(let t):
            let at = reserve(t.span)
            nodes[at] = GraphNode(kind: .tween(t), span: t.span, name: nil, duration: GraphBuilder.duration(of: t))
            return NodeID(at)
        case .wait(let e, let span):
            let at = reserve(span)
            let d: StaticDuration = if case .constant(.time(let t)) = e.node { .exact(t) } else { .dynamic }
            nodes[at] = GraphNode(kind: .wait(e), span: span, name: nil, duration: d)
            return NodeID(at)
        case .action(let a, let span):
            let at = reserve(span)
            nodes[at] = GraphNode(kind: .action(a), span: span, name: nil, duration: .exact(.zero))
            return NodeID(at)
        case .parallel(let chains, let span):
            if chains.count == 1 { return add(chains[0]) }
            let at = reserve(span)
            var children: [NodeID] = []
            var d = StaticDuration.exact(.zero)
            for c in chains {
                let id = add(c)
                children.append(id)
                d = StaticDuration.longest(d, nodes[Int(id.index)].duration)
            }
            nodes[at] = GraphNode(kind: .parallel(children), span: span, name: nil, duration: d)
            return NodeID(at)
        case .repeat(let count, let body, let span):
            let at = reserve(span)
            let b = add(.parallel(body, span))
            let bodyDuration = nodes[Int(b.index)].duration
            var d: StaticDuration = .dynamic
            if count == nil {
                d = .forever
            } else if case .constant(.number(let n))? = count?.node, case .exact(let t) = bodyDuration,
                      n >= 0, n == n.rounded(), let total = t.scaled(by: n) {
                d = .exact(total)
            } else if case .forever = bodyDuration { d = .forever }
            nodes[at] = GraphNode(kind: .repeat(count: count, body: b), span: span, name: nil, duration: d)
            return NodeID(at)
        }
    }

    /// A tween's static duration: delay + duration × iterations ÷ speed, when all are constants.
    static func duration(of t: TweenSpec) -> StaticDuration {
        if t.forever { return .forever }
        guard case .constant(.time(let d)) = t.duration.node else { return .dynamic }
        var delay = Time.zero
        if let e = t.delay {
            guard case .constant(.time(let x)) = e.node else { return .dynamic }
            delay = x
        }
        var n = 1.0, r = 1.0
        if let e = t.iterations {
            guard case .constant(.number(let x)) = e.node else { return .dynamic }
            n = x
        }
        if let e = t.speed {
            guard case .constant(.number(let x)) = e.node else { return .dynamic }
            r = x
        }
        guard r > 0, n >= 0, let active = TweenTiming.activeDuration(iteration: d, iterations: n, rate: r) else { return .dynamic }
        return (delay.adding(active)).map { .exact($0) } ?? .dynamic
    }
}
