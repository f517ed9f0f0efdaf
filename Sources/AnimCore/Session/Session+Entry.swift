// Session+Entry: running a source as one REPL entry. The whole entry is checked first (every
// error reported, nothing run if there is one); then its statements are checked into the
// environment and executed one at a time. So when one fails at run time or is interrupted, the
// statements after it are neither run nor declared, and the environment never names a binding
// or a shape the interpreter has not made (reading one crashed the REPL; found by fuzzing).

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
        guard let program = parse(file) else { return .rejected }
        // The whole entry against a copy of the environment, for the diagnostics only.
        let probe = Checker.check(program, file: file, environment: environment)
        report(probe.diagnostics)
        guard !probe.diagnostics.hasErrors else { return .rejected }
        guard !probe.statements.isEmpty else { return .empty }
        var checker = Checker(file: file, environment: environment)
        for stmt in program.statements {
            // What is due now happens before the statement is declared (execute does it too).
            try advanceClock(to: now)
            // A `let` that fails leaves its name as it was: unbound, it would be read as garbage.
            var previous: (name: String, symbol: Symbol?)?
            if case .let(let l) = stmt { previous = (l.name.name, environment.symbols[l.name.name]) }
            guard let checked = checker.check(stmt) else { continue }
            beforeEachStatement()
            environment = checker.env
            interpreter.propertyNames = environment.propertyNames
            interpreter.instantiations = environment.instantiations
            do {
                try execute([checked])
            } catch {
                if let (name, symbol) = previous {
                    environment.symbols[name] = symbol
                    checker.env.symbols[name] = symbol
                }
                throw error
            }
        }
        return .ran
    }
}
