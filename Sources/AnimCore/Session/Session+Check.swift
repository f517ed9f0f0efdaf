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
    /// Where `--until` stopped a run that was still going (`duration` is then that time).
    public var cutAt: Time?
    /// How many warnings were reported.
    public var warnings: Int
    /// The steps that make the total duration, in order: (begin, end, label, position).
    public var criticalPath: [(begin: Time, end: Time, label: String, position: String)] = []
}

extension Session {
    /// Parses, checks and times a script, reporting diagnostics.
    public func check(name: String, bytes: [UInt8]) -> CheckReport {
        let file = sources.add(name: name, bytes: bytes)
        let alongside = checksAlongside && !hasExecuted
        var statements: [CheckedStmt] = []
        if !alongside {
            guard let s = compile(file) else { return failedCheck }
            statements = s
        }
        // Kept for the caller to free later (`Session.analyze`'s remains), or freed on return.
        defer { if keepsStatements { keptStatements = statements } }
        silent = true
        defer { silent = false }
        interpreter.activities = []
        interpreter.overwrites = []
        var endless: Span?
        do {
            if alongside {
                // Checked and executed at once, each statement as soon as it is checked.
                guard let tree = parse(file) else { return failedCheck }
                let (checked, error) = checkExecuting(tree)
                guard let checked else { return failedCheck }
                statements = checked
                if error != nil { return failedCheck }
            } else {
                try execute(statements)
            }
            if options.until == nil, let node = interpreter.endlessGraph {
                endless = node.span
            } else {
                do {
                    try playToEnd(reportsEndless: false)
                } catch where error.isEndless {
                    // A step that never ends, begun as the run went (an `if` that took a
                    // `repeat forever`); a `wait` for it in the script is an error as in a run.
                    endless = error.diagnostic.span
                }
                // Cut by `--until`: say what would have gone on.
                if stoppedAtLimit { endless = interpreter.endlessGraph?.span }
            }
        } catch {
            return failedCheck
        }
        reportOverwrites()
        let finished = endless == nil || stoppedAtLimit
        var report = CheckReport(exitCode: exitCode, duration: finished ? finishedAt ?? now : nil, endless: endless, warnings: warningCount)
        if stoppedAtLimit { report.cutAt = now } else if finished, findsCriticalPath { report.criticalPath = criticalPath() }
        return report
    }

    /// The report of a check that failed.
    private var failedCheck: CheckReport { CheckReport(exitCode: .failure, duration: nil, endless: nil, warnings: warningCount) }

    /// Warns once per pair of steps where a tween takes a property over from one still running.
    func reportOverwrites() {
        var seen = Set<[UInt32]>()
        for o in interpreter.overwrites ?? [] {
            guard seen.insert([o.previous.source, o.previous.start, o.next.source, o.next.start]).inserted else { continue }
            let shape = interpreter.scene.shapes[Int(o.key.shape.index)].name
            let prop = interpreter.propertyName(o.key.property)
            var d = Diagnostic.warning("'\(shape).\(prop)' is written by two steps at once: this one takes it over at \(o.time.eventStamp)s",
                                       at: o.next, help: "the earlier step stops writing it; sequence them with 'then' if that is not meant")
            if o.previous.source == o.next.source { d.secondary.append(.init(span: o.previous, text: "still running")) } else {
                d.notes.append("the step it takes over from is at \(renderer.position(of: o.previous) ?? "?")")
            }
            var bag = DiagnosticBag()
            bag.report(d)
            report(bag)
        }
    }

    /// The chain of steps that ends last, walked back from its end through steps that ended
    /// exactly when the next one started. A `repeat` on the chain is one step, from its start
    /// to the end of its last pass, with its count of passes (`repeat 3: 3 passes (3s)`), not
    /// the leaves of its passes (the outermost repeat, when repeats nest).
    func criticalPath() -> [(begin: Time, end: Time, label: String, position: String)] {
        let acts = interpreter.activities ?? []
        let repeats = interpreter.repeatRuns.filter { $0.end != nil }
        guard let last = acts.indices.filter({ acts[$0].end != nil }).max(by: { acts[$0].end! < acts[$1].end! }) else { return [] }
        /// A step of the path: an activity, or a repeat's run.
        enum Step: Equatable { case activity(Int), repeatRun(Int) }
        let interp = interpreter!
        var subtreeEnds: [[Int32: Int32]] = Array(repeating: [:], count: interp.graphs.count)
        // A node's subtree is a run of pre-order indices, from it to its last descendant.
        func subtreeEnd(_ g: Int, _ n: NodeID) -> Int32 {
            if let e = subtreeEnds[g][n.index] { return e }
            var e = n.index
            for c in interp.graphs[g].children(of: n) { e = max(e, subtreeEnd(g, c)) }
            subtreeEnds[g][n.index] = e
            return e
        }
        // Whether activity `k` ran inside repeat run `r`: in its instance, under its node (or
        // in an instance started under it), within its time.
        func inside(_ k: Int, _ r: RepeatRun) -> Bool {
            let a = acts[k]
            guard let end = a.end, a.start >= r.start, end <= r.end! else { return false }
            var i = Int32(a.instance), node = a.node.index
            while i >= 0 && Int(i) != r.instance {
                node = interp.instances[Int(i)].parentNode
                i = interp.instances[Int(i)].parent
            }
            guard i >= 0, node >= 0 else { return false }
            let g = Int(interp.instances[r.instance].graph)
            return node >= r.node.index && node <= subtreeEnd(g, r.node)
        }
        func step(_ k: Int) -> Step {
            // The outermost repeat around it: the one that started first, the longest then.
            let around = repeats.indices.filter { inside(k, repeats[$0]) }
            guard let r = around.min(by: { (repeats[$0].start, repeats[$1].end!) < (repeats[$1].start, repeats[$0].end!) }) else {
                return .activity(k)
            }
            return .repeatRun(r)
        }
        func begin(_ s: Step) -> Time {
            switch s {
            case .activity(let k): acts[k].start
            case .repeatRun(let r): repeats[r].start
            }
        }
        var path = [step(last)]
        var used: Set<Int> = [last]
        var guardSteps = 0
        while guardSteps < 100_000 {
            guardSteps += 1
            let start = begin(path.last!)
            guard let prev = acts.indices.last(where: { acts[$0].end == start && !used.contains($0) }) else { break }
            used.insert(prev)
            let s = step(prev)
            // A leaf of the repeat already on the path (a pass of it ending where it starts).
            if s == path.last! { continue }
            if path.contains(s) { break }
            path.append(s)
        }
        let dumper = GraphDumper(environment: environment, sources: sources)
        return path.reversed().compactMap { s in
            switch s {
            case .activity(let k):
                let a = acts[k]
                let node = interpreter.graph(ofInstance: a.instance).nodes[Int(a.node.index)]
                guard a.end! > a.start else { return nil }
                return (a.start, a.end!, dumper.label(node), renderer.position(of: node.span) ?? "?")
            case .repeatRun(let r):
                let run = repeats[r]
                let node = interpreter.graph(ofInstance: run.instance).nodes[Int(run.node.index)]
                guard run.end! > run.start else { return nil }
                let length = Time(ticks: run.end!.ticks - run.start.ticks)
                let label = "\(dumper.repeatWords(node)): \(run.passes) pass\(run.passes == 1 ? "" : "es") (\(length))"
                return (run.start, run.end!, label, renderer.position(of: node.span) ?? "?")
            }
        }
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
            return (dumper.dump(parsed.tree), exitCode)
        case .graph:
            guard let statements = compile(file) else { return ("", .failure) }
            var out = ""
            var n = 0
            // Built as a run builds them (with the defines they play), so the durations are those
            // `anim graph` shows.
            for b in build(statements) {
                guard case .start(_, _, _, let span) = b.statement, let g = b.graph else { continue }
                n += 1
                out += "graph \(n) at \(renderer.position(of: span) ?? "?"):\n"
                out += GraphDumper(environment: environment, sources: sources).dump(g)
            }
            return (out, exitCode)
        }
    }
}
