// Session+Check: `anim check` — compile a script and time it without running it for real:
// a silent run (no prints, no expectations) gives the exact total duration, because springs
// and run-time expressions make durations a matter of playing, not of adding up.

/// What `anim check` found.
public struct CheckReport: Sendable {
    /// The exit code: 0 unless there were errors.
    public var exitCode: ExitCode
    /// The total duration, when the script finishes.
    public var duration: Time?
    /// The node that runs forever, if the script never finishes.
    public var endless: Span?
    /// How many warnings were reported.
    public var warnings: Int
}

extension Session {
    /// Parses, checks and times a script, reporting diagnostics.
    public func check(name: String, bytes: [UInt8]) -> CheckReport {
        let file = sources.add(name: name, bytes: bytes)
        guard let statements = compile(file) else {
            return CheckReport(exitCode: .failure, duration: nil, endless: nil, warnings: warningCount)
        }
        let warnings = warningCount
        silent = true
        defer { silent = false }
        do {
            try execute(statements)
            if options.until == nil, let node = interpreter.endlessGraph {
                return CheckReport(exitCode: exitCode, duration: nil, endless: node.span, warnings: warnings)
            }
            try playToEnd()
        } catch {
            return CheckReport(exitCode: .failure, duration: nil, endless: nil, warnings: warnings)
        }
        return CheckReport(exitCode: exitCode, duration: now, endless: nil, warnings: warnings)
    }
}

/// What `--dump` shows.
public enum DumpKind: String, CaseIterable, Sendable {
    case tokens, ast, graph
}

extension Session {
    /// The dump of one pass's output for a script; diagnostics go to standard error.
    public func dump(_ kind: DumpKind, name: String, bytes: [UInt8]) -> (text: String, exitCode: ExitCode) {
        let file = sources.add(name: name, bytes: bytes)
        let dumper = ASTDumper(file: file)
        switch kind {
        case .tokens:
            let (tokens, diags) = Lexer.tokenize(file)
            report(diags)
            return (dumper.dump(tokens: tokens), exitCode)
        case .ast:
            let parsed = Parser.parseProgram(file)
            report(parsed.diagnostics)
            return (dumper.dump(parsed.program), exitCode)
        case .graph:
            guard let statements = compile(file) else { return ("", .failure) }
            var out = ""
            var n = 0
            for s in statements {
                guard case .start(let chain, _, let locals, let span) = s else { continue }
                n += 1
                let g = GraphBuilder.build(chain, localCount: locals)
                out += "graph \(n) at \(renderer.position(of: span) ?? "?"):\n"
                out += GraphDumper(environment: environment, sources: sources).dump(g)
            }
            return (out, exitCode)
        }
    }
}
