// Interpreter+LoopReach: whether a `repeat while` body can ever change what its condition
// reads. The still-pass rule (Interpreter.stillLoops) judges a loop whose latest pass wrote
// nothing; a body that writes every pass is judged here instead, by what it may write at all:
// when no property its steps (and the defines they play) may write is one the condition reads,
// and the condition draws no `random()`, only something outside the loop could make the
// condition false. Anything the walk cannot bound (a control statement, a `restore`, a
// computed orientation, an `on change` observer that a write may wake) says "may reach".

extension Interpreter {
    /// Whether the body of the `repeat while` at `node` of graph `g` surely cannot change its
    /// condition: the property ids the condition reads and those the body may write are
    /// disjoint (points and their components count as one), and the condition draws nothing.
    func bodyCannotReachCondition(_ g: SequencerGraph, node: NodeID, condition: TypedExpr, body: NodeID) -> Bool {
        // An observer may write anything when a property the body moves changes.
        guard !notesReleases else { return false }
        var reads = Set<PropertyID>()
        guard Interpreter.propertiesRead(condition, into: &reads), !reads.isEmpty else { return false }
        var written = Set<PropertyID>()
        var plays = Set<Int>()
        guard propertiesWritten(g, body, into: &written, plays: &plays) else { return false }
        return reads.isDisjoint(with: written)
    }

    /// Adds the (whole) property ids an expression reads; false if it draws `random()`.
    static func propertiesRead(_ e: TypedExpr, into out: inout Set<PropertyID>) -> Bool {
        switch e.node {
        case .constant, .variable: return true
        case .property(let ref, let p):
            out.insert(p.whole)
            return shapeRead(ref, into: &out)
        case .shape(let ref): return shapeRead(ref, into: &out)
        case .call(let f, let args):
            if f == .random { return false }
            for a in args where !propertiesRead(a, into: &out) { return false }
            return true
        case .negate(let a), .not(let a), .component(let a, _), .convert(let a, _):
            return propertiesRead(a, into: &out)
        case .binary(_, let a, let b), .compare(_, let a, let b), .logical(_, let a, let b), .pair(let a, let b), .index(let a, let b):
            return propertiesRead(a, into: &out) && propertiesRead(b, into: &out)
        case .list(let xs):
            for x in xs where !propertiesRead(x, into: &out) { return false }
            return true
        case .interpolation(let parts):
            for case .value(let v) in parts where !propertiesRead(v, into: &out) { return false }
            return true
        }
    }

    /// What picking a shape reads (an array index computed from properties).
    private static func shapeRead(_ ref: ShapeRef, into out: inout Set<PropertyID>) -> Bool {
        switch ref {
        case .fixed: return true
        case .element(_, _, let index, _): return propertiesRead(index, into: &out)
        case .dynamic(let e): return propertiesRead(e, into: &out)
        }
    }

    /// Adds the (whole) property ids the steps under `n` may write; false if that cannot be
    /// bounded. `plays`: the instantiations already walked.
    func propertiesWritten(_ g: SequencerGraph, _ n: NodeID, into out: inout Set<PropertyID>, plays: inout Set<Int>) -> Bool {
        func add(_ writes: [PropertyWrite]) -> Bool {
            for w in writes {
                if w.orient != nil { return false }  // it also turns the shape
                out.insert(w.property.whole)
            }
            return true
        }
        switch g[n].kind {
        case .tween(let spec): return add(spec.writes)
        case .spring(let spec): return add(spec.writes)
        case .wait: return true
        case .action(let a):
            switch a {
            case .print, .expect, .save: return true
            case .set(let w): return add([w])
            // An interrupt holds each value where it is: it writes no new value.
            case .interruptShapes: return true
            // A restore writes every saved property; a control replays or moves other runs.
            case .restore, .control: return false
            }
        case .play(let spec):
            guard spec.instantiation < instantiations.count, let body = instantiations[spec.instantiation].graph else { return false }
            guard plays.insert(spec.instantiation).inserted else { return true }
            return propertiesWritten(body, body.root, into: &out, plays: &plays)
        case .sequence, .parallel, .repeat, .stagger, .relative, .spawn, .conditional, .select:
            for c in g.children(of: n) where !propertiesWritten(g, c, into: &out, plays: &plays) { return false }
            return true
        }
    }
}

extension Interpreter {
    /// Whether the condition of the `repeat while` frame `f` holds now. A loop whose body cannot
    /// reach its condition is judged endless only while it does: something outside may have
    /// made it false since the pass began (at the same instant, later in graph order).
    func loopConditionHolds(_ f: Int32) -> Bool {
        let g = graphs[Int(instances[Int(frames[Int(f)].instance)].graph)]
        guard let c = g.nodes[Int(frames[Int(f)].node)].repeatLoop?.condition,
              case .bool(let holds)? = try? eval(c, env: frames[Int(f)].env) else { return false }
        return holds
    }
}
