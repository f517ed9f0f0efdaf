// SequencerGraph: the immutable data a checked chain compiles to. Nodes sit in one array in
// pre-order (a parent before its children, children in source order), so a node's index is its
// graph order: events at the same instant fire in that order. Per-run state never lives here;
// the interpreter keeps it in its own arrays indexed by NodeID.

/// Identifies a node: its index in pre-order.
public struct NodeID: Hashable, Comparable, Sendable {
    /// The pre-order index.
    public var index: Int32
    /// Creates an id.
    public init(_ index: Int) { self.index = Int32(index) }
    public static func < (a: NodeID, b: NodeID) -> Bool { a.index < b.index }
}

/// How long a node lasts, as far as is known before running.
public enum StaticDuration: Hashable, Sendable, CustomStringConvertible {
    /// Exactly this long.
    case exact(Time)
    /// Known only when it runs (expressions read at run time).
    case dynamic
    /// Never ends (`repeat forever`).
    case forever

    public var description: String {
        switch self {
        case .exact(let t): t.description
        case .dynamic: "dynamic"
        case .forever: "forever"
        }
    }

    /// Sequence: durations add.
    static func + (a: StaticDuration, b: StaticDuration) -> StaticDuration {
        switch (a, b) {
        case (.forever, _), (_, .forever): .forever
        case (.exact(let x), .exact(let y)): x.adding(y).map { .exact($0) } ?? .dynamic
        default: .dynamic
        }
    }

    /// Parallel: the longest.
    static func longest(_ a: StaticDuration, _ b: StaticDuration) -> StaticDuration {
        switch (a, b) {
        case (.forever, _), (_, .forever): .forever
        case (.exact(let x), .exact(let y)): .exact(max(x, y))
        default: .dynamic
        }
    }
}

/// The children of a sequence or parallel: a run of the graph's `children`, so that reading
/// a node copies no array.
public struct NodeList: Hashable, Sendable {
    /// Where the run starts in `SequencerGraph.children`.
    public var start: Int32
    /// How many children.
    public var count: Int32
}

/// What a node does. Large payloads are boxed (or shared, as tween and spring specs are), so
/// a node is a few words and reading one costs a retain, not a copy.
public enum NodeKind: Hashable, Sendable {
    /// `A then B`: each child starts when the one before ends.
    case sequence(NodeList)
    /// A block: every child starts together; it ends when all have.
    case parallel(NodeList)
    /// A tween of some properties.
    case tween(TweenSpec)
    /// A delay.
    indirect case wait(TypedExpr)
    /// An instant action.
    indirect case action(ActionSpec)
    /// `count` passes of `body` (nil: forever), each starting when the last ends; with
    /// `yoyo`, odd passes play the body backward.
    indirect case `repeat`(count: TypedExpr?, yoyo: Bool, body: NodeID)
    /// A spring.
    case spring(SpringSpec)
    /// `body` once per member, each started at its rank × interval.
    indirect case stagger(StaggerSpec, body: NodeID)
    /// A define instantiation, played as a child instance.
    indirect case play(PlaySpec)
    /// `body` started relative to a named step's end or start.
    indirect case relative(RelativeSpec, body: NodeID)
    /// A named chain nested in a graph: `body` runs as its own instance, so it can be controlled.
    case spawn(body: NodeID)
    /// `if`: branch k runs when condition k is the first that holds as the step begins; a
    /// branch past the conditions is the `else`. None runs (the step ends at once) otherwise.
    indirect case conditional(conditions: [TypedExpr], branches: NodeList)
    /// `any`: every chain starts; the node ends when the first ends, the others go on.
    /// `choose`: one chain, ⌊u·n⌋ for one draw u of the seeded generator, runs.
    case select(SelectStep.Mode, chains: NodeList)
}

/// One node with its metadata.
public struct GraphNode: Hashable, Sendable {
    /// What it does.
    public var kind: NodeKind
    /// Where it was written.
    public var span: Span
    /// The name given with `as`, if any.
    public var name: StepNameID?
    /// Its duration as far as known statically.
    public var duration: StaticDuration
    /// For a tween whose timing is constant, its plan: the interpreter reads it without
    /// touching the tween's spec.
    public var plan: PlanRef?
    /// For a `repeat` block, its `repeat-delay` (a time): the pause between passes.
    public var repeatDelay: TypedExpr? = nil
    /// For `repeat N for k` / `repeat while COND`: the pass index's slot and the condition
    /// read before each pass (a `repeat` with no count and a condition is not `forever`).
    public var repeatLoop: RepeatLoop? = nil

    /// Whether it is a `repeat forever` (no count, no condition).
    var repeatsForever: Bool {
        if case .repeat(nil, _, _) = kind { return repeatLoop?.condition == nil }
        return false
    }
}

/// A compiled chain: nodes in pre-order, the root first.
public struct SequencerGraph: Hashable, Sendable {
    /// The nodes; `nodes[0]` is the root.
    public var nodes: [GraphNode]
    /// Local slots the graph's expressions use.
    public var localCount: Int
    /// The children of every sequence and parallel, each node's in a run (`NodeList`).
    public var children: [NodeID] = []
    /// The tweens' plans, each distinct one once (`GraphNode.plan`).
    public var plans: [TweenPlan] = []
    /// The tweens' constant targets (`GraphNode.plan`).
    public var targets: [TweenPlan.Target] = []

    /// The root node.
    public var root: NodeID { NodeID(0) }

    /// The node with an id.
    public subscript(id: NodeID) -> GraphNode { nodes[Int(id.index)] }

    /// The children in a list.
    public subscript(list: NodeList) -> ArraySlice<NodeID> {
        children[Int(list.start)..<Int(list.start + list.count)]
    }

    /// The children of a node, in order: a sequence's or a block's list, or the one body of a
    /// repeat, stagger, `after`/`with` or named chain; none for a leaf. Every walk of a graph's
    /// shape goes through here.
    public func children(of id: NodeID) -> [NodeID] {
        switch nodes[Int(id.index)].kind {
        case .sequence(let c), .parallel(let c), .conditional(_, let c), .select(_, let c): Array(self[c])
        case .repeat(_, _, let b), .stagger(_, let b), .relative(_, let b), .spawn(let b): [b]
        case .tween, .wait, .action, .spring, .play: []
        }
    }

    /// The `k`th child in a list.
    public func child(_ k: Int, of list: NodeList) -> NodeID { children[Int(list.start) + k] }

    /// The whole graph's static duration.
    public var duration: StaticDuration { nodes[0].duration }

    /// The first node that never ends, if any (for the "never ends" error).
    /// The first node that never ends at or below `root`, in pre-order.
    public func firstForeverNode(under root: NodeID) -> GraphNode? {
        var stack = [root]
        while let n = stack.popLast() {
            let node = nodes[Int(n.index)]
            if node.repeatsForever { return node }
            if case .tween = node.kind, case .forever = node.duration { return node }
            stack.append(contentsOf: children(of: n).reversed())
        }
        return nil
    }

    /// The node that never ends inside an `any` at or below `root` that goes on after the
    /// `any` has ended (a chain of it that never ends), when every step on the way is sure to
    /// run (an `if` or `choose` branch is not).
    public func foreverChainOfAny(under root: NodeID) -> GraphNode? {
        var stack = [root]
        while let n = stack.popLast() {
            switch nodes[Int(n.index)].kind {
            case .conditional, .select(.choose, _): continue
            case .select(.any, let chains):
                for c in self[chains] where nodes[Int(c.index)].duration == .forever {
                    return firstForeverNode(under: c) ?? nodes[Int(c.index)]
                }
            default: break
            }
            stack.append(contentsOf: children(of: n))
        }
        return nil
    }

    public var firstForeverNode: GraphNode? {
        nodes.first { node in
            if node.repeatsForever { return true }
            if case .tween = node.kind, case .forever = node.duration { return true }
            return false
        }
    }
}
