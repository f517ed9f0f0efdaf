// Session+Entry: running a source as one REPL entry. The entry is checked once, whole, against
// a copy of the environment (every error reported, nothing run if there is one); the copy is
// committed and its statements executed one at a time. When one fails at run time or is
// interrupted, the statements after it are neither run nor declared: the environment goes back
// to what the statements up to it declared (found by checking them again, which only a failure
// costs), so it never names a binding or a shape the interpreter has not made (reading one
// crashed the REPL; found by fuzzing). A `let` that fails leaves its name as it was.

extension Session {
    /// What `runEntry` did.
    public enum EntryOutcome: Equatable, Sendable {
        /// It did not check (the errors are reported); nothing ran.
        case rejected
        /// It holds no statement (only comments).
        case empty
        /// Every statement ran.
        case ran
    }

    /// Runs a source as one REPL entry at script time `now`. Throws the run-time error (already
    /// reported) or interruption that stopped it; the statements before it stay done.
    /// `beforeEachStatement` is called before each statement runs (the REPL notes which graphs
    /// the last one starts).
    public func runEntry(_ file: SourceFile, beforeEachStatement: () -> Void = {}) throws(RuntimeError) -> EntryOutcome {
        guard let tree = parse(file) else { return .rejected }
        let before = environment
        let checked = Checker.check(tree, environment: before)
        report(checked.diagnostics)
        guard !checked.diagnostics.hasErrors else { return .rejected }
        checkFonts(checked.fontFamilies)
        // Image files are read before the entry runs, as for a script (Session+Images).
        guard checkImages(checked.statements, source: file.name) else { return .rejected }
        guard !checked.statements.isEmpty else { return .empty }
        commit(checked.environment)
        // The statements of the tree up to checked statement k: glyph shapes made before a
        // statement (`title.glyphs` named first) are checked statements of their own.
        var glyphMakers = 0
        for (k, statement) in checked.statements.enumerated() {
            defer { if case .shapes(let c) = statement, c.kind == .glyph { glyphMakers += 1 } }
            do {
                // What is due now happens before the statement is declared (execute does it too).
                try advanceClock(to: now)
            } catch {
                commit(Session.environment(declaredBy: k - glyphMakers, of: tree, from: before))
                throw error
            }
            beforeEachStatement()
            do {
                try execute([statement])
            } catch {
                commit(Session.environment(declaredBy: k + 1 - glyphMakers, of: tree, from: before, lastFailed: true))
                throw error
            }
        }
        return .ran
    }

    /// The environment the first `count` statements of an entry leave, checked again from
    /// `before`: what the entry declared up to a statement that stopped. When the last of them
    /// failed and is a `let`, its name stays as it was (unbound, it would be read as garbage).
    static func environment(declaredBy count: Int, of tree: SyntaxTree, from before: Environment, lastFailed: Bool = false) -> Environment {
        var checker = Checker(tree: tree, environment: before)
        var restore: (name: String, symbol: Symbol?)?
        for (k, s) in tree[tree.statements].prefix(count).enumerated() {
            if lastFailed, k == count - 1, case .let(let l) = tree[s] {
                let name = tree.text(l.name.span)
                restore = (name, checker.env.symbol(named: name))
            }
            _ = checker.check(s)
        }
        var env = checker.env
        if let restore { env.setSymbol(restore.symbol, named: restore.name) }
        return env
    }
}
