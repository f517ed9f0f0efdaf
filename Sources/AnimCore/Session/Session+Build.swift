// Session+Build: checked statements into built ones, each chain and observer body with its
// sequencer graph (GraphBuilder), after the graphs of the defines they may play.

extension Session {
    /// Builds the sequencer graph of every chain and observer body (GraphBuilder), after the
    /// graphs of the instantiations they may play.
    public func build(_ statements: [CheckedStmt]) -> [BuiltStatement] {
        buildInstantiations()
        return statements.map(built)
    }

    /// Builds checked statements as `build` does, letting each go once it is built (the built
    /// statement holds what it needs). Leaves `statements` empty.
    func build(consuming statements: inout [CheckedStmt]) -> [BuiltStatement] {
        defer { statements = [] }
        buildInstantiations()
        var out: [BuiltStatement] = []
        out.reserveCapacity(statements.count)
        for i in statements.indices {
            var s = CheckedStmt.declaration(.none)
            swap(&s, &statements[i])
            out.append(built(s))
        }
        return out
    }

    /// Builds the graphs of the defines the environment has and the session not yet.
    func buildInstantiations() {
        if instantiations.count < environment.instantiations.count {
            GraphBuilder.buildInstantiations(environment.instantiations, onto: &instantiations)
            interpreter.instantiations = instantiations
        }
    }

    /// One checked statement with its graph built (`buildInstantiations` done before).
    func built(_ s: CheckedStmt) -> BuiltStatement { Session.built(s, instantiations: instantiations) }

    /// One checked statement with its graph built against the graphs of `instantiations`
    /// (every one its chain may play).
    /// The statement is moved into the built one (a copy would retain all it holds).
    static func built(_ s: consuming CheckedStmt, instantiations: [Instantiation]) -> BuiltStatement {
        let graph: SequencerGraph? = switch s {
        case .observe(_, let body, let localCount, _): GraphBuilder.build(body, localCount: localCount, instantiations: instantiations)
        case .start(let chain, _, let localCount, _): GraphBuilder.build(chain, localCount: localCount, instantiations: instantiations)
        case .stage, .shapes, .bind, .seed, .wait, .declaration: nil
        }
        return BuiltStatement(statement: s, graph: graph)
    }
}
