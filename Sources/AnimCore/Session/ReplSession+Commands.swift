// ReplSession+Commands: the `:` commands of the REPL (brief §8), and `:seek`'s replay.

extension ReplSession {
    /// The commands, with their one-line help.
    public static let commands: [(name: String, usage: String, help: String)] = [
        ("help", ":help", "show this help"),
        ("quit", ":quit", "leave the REPL (Ctrl-D does too)"),
        ("load", ":load FILE", "run a script file in this session"),
        ("reset", ":reset", "start over: no shapes, no bindings, time 0"),
        ("time", ":time", "show the script time and how many graphs are running"),
        ("step", ":step D", "run the clock forward by D, showing what happens"),
        ("until", ":until T", "let never-ending graphs run T per entry (default 10s)"),
        ("seek", ":seek T", "jump to time T, back or forward, without showing events (a silent replay)"),
        ("inspect", ":inspect NAME", "show a shape's properties, a binding or a named step"),
        ("timeline", ":timeline", "list the graphs started so far and when they run"),
        ("auto", ":auto on|off", "run the clock after each entry, or keep it still"),
    ]

    /// The longest time `:step`, `:until` and `:seek` take (as `--until`).
    static var maxTime: Time { SessionOptions.maxUntil }

    /// Runs a `:` command line.
    func command(_ line: String) -> Outcome {
        let parts = line.dropFirst().split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let name = parts.first ?? ""
        let arg = parts.count > 1 ? parts[1].trimmingSpaces : ""
        func time() -> Time? {
            guard let t = SessionOptions.parseTime(arg), t >= .zero else {
                fail("':\(name)' takes a time such as 2, 1.5s or 300ms" + (arg.isEmpty ? "" : ", not '\(arg)'"))
                return nil
            }
            guard t <= ReplSession.maxTime else { fail("':\(name) \(arg)' is longer than the limit of one year"); return nil }
            return t
        }
        func noArgument() -> Bool {
            if arg.isEmpty { return true }
            fail("':\(name)' takes no argument")
            return false
        }
        switch name {
        case "help", "h", "?":
            guard noArgument() else { return .failed }
            say(helpText())
        case "quit", "q", "exit":
            return .quit
        case "load":
            guard !arg.isEmpty, arg != "-" else { fail("':load' takes a file name"); return .failed }
            switch readFile(arg) {
            case .failure(let e): fail(e.message); return .failed
            case .success(let bytes): return run(entry: String(decoding: bytes, as: UTF8.self), name: arg)  // handle() runs the clock
            }
        case "reset":
            guard noArgument() else { return .failed }
            session = makeSession(baseOptions)
            log = []
            executed = 0
            cut = nil
            lastEntryGraphs = 0..<0
            clockPending = false
            say("reset: no shapes, no bindings, time 0\n")
        case "time":
            guard noArgument() else { return .failed }
            say(timeLine())
        case "step":
            guard let d = time() else { return .failed }
            let o = runClockBy(d)
            say(timeLine())
            return o
        case "until":
            guard let t = time() else { return .failed }
            runLimit = t
            say("never-ending graphs now run \(t) per entry\n")
        case "seek":
            guard let t = time() else { return .failed }
            return seek(to: t)
        case "inspect":
            return inspect(arg)
        case "timeline":
            guard noArgument() else { return .failed }
            let timeline = session.currentTimeline(prints: session.keptPrints)
            say(timeline.graphs.isEmpty ? "no graphs yet\n" : TimelineChart.render(timeline, width: max(40, terminalWidth), color: baseOptions.color))
        case "auto":
            switch arg {
            case "on": auto = true
            case "off": auto = false
            case "": break
            default: fail("':auto' takes 'on' or 'off', not '\(arg)'"); return .failed
            }
            say("auto \(auto ? "on: the clock runs after each entry" : "off: the clock moves only with :step, :seek and wait")\n")
        default:
            let names = ReplSession.commands.map(\.name)
            fail("unknown command ':\(name)'" + DidYouMean.suffix(name, from: names) + " (type :help)")
            return .failed
        }
        return .ok
    }

    /// The text of `:help`.
    func helpText() -> String {
        var s = "Commands:\n"
        let w = ReplSession.commands.map(\.usage.count).max()!
        for c in ReplSession.commands { s += "  " + c.usage + String(repeating: " ", count: w - c.usage.count + 2) + c.help + "\n" }
        s += """
        Type statements as in a script. An open block or bracket, a line ending in 'then' or a
        'define ... =' continues on the next line; a line starting with 'then' starts when the
        previous entry has finished. Lines pasted together run as one script file would.
        A bare expression prints its value. Tab completes names, properties and commands.
        With :auto on, after each entry the clock runs until every graph that can finish has
        finished. After a :seek back, graphs may be part-way through: the next entry plays them
        on to their end like any entry (set :auto off first to keep the clock where it is).
        Ctrl-C drops the entry being typed; Ctrl-D on an empty line leaves.

        """
        return s
    }

    /// `:step D`: plays every event up to `now + D`, in order. Failed if an error or a failed
    /// expectation was reported on the way.
    func runClockBy(_ d: Time) -> Outcome {
        let failuresBefore = failureCount
        switch ReplSession.play(session, to: session.now + d, interrupt: checkInterrupt) {
        case .interrupted: say(interruptedLine()); return .failed
        case .failed: return .failed
        case .ok: return failureCount > failuresBefore ? .failed : .ok
        }
    }

    enum PlayResult { case ok, failed, interrupted }

    /// Plays every event up to `target` in order and moves `now` there. A run-time error stops
    /// only its own graph (Session.moveNow would stop at it, leaving `now` behind). Interrupted,
    /// it leaves `now` where the clock stopped.
    static func play(_ s: Session, to target: Time, interrupt: () -> Bool = { false }) -> PlayResult {
        var failed = false
        do {
            failed = try s.play(until: .exhausted, bound: target, errors: .stopsItsGraph, interrupt: interrupt).failed
        } catch {
            return .interrupted  // the only error a play that stops graphs throws
        }
        do { try s.moveNow(to: target) } catch {
            if error.isInterruption { return .interrupted }
            failed = true
        }
        return failed ? .failed : .ok
    }

    // MARK: - Seeking

    /// `:seek T`: rebuilds the state at T by replaying the log silently in a fresh session (so
    /// the state equals the one reached by playing there). Entries typed after T stay in the log
    /// as the future: a later seek forward replays them, a new entry replaces them.
    func seek(to t: Time) -> Outcome {
        if t >= session.now && executed == log.count && cut == nil {
            // Nothing typed later: play the current session forward, silently.
            let played = silently { ReplSession.play(session, to: t, interrupt: checkInterrupt) }
            if played == .interrupted { say(interruptedLine()); return .failed }
            say("time \(session.now.eventStamp)s\n")
            return played == .failed ? .failed : .ok
        }
        let before = executed
        guard silently({ replay(to: t) }) else {
            say("interrupted: the seek is abandoned, time stays at \(session.now.eventStamp)s\n")
            return .failed
        }
        let undone = log.count - executed
        var note = ""
        if undone > 0 {
            note = " (\(undone) later entr\(undone == 1 ? "y is" : "ies are") undone; :seek forward redoes, a new entry replaces"
                + " \(undone == 1 ? "it" : "them"))"
        } else if before < log.count {
            note = " (redid \(log.count - before) entr\(log.count - before == 1 ? "y" : "ies"))"
        }
        say("time \(session.now.eventStamp)s" + note + "\n")
        return .ok
    }

    /// Runs `body` with the output muted. The session is not made silent: its prints happen
    /// (unseen) and are kept for `:timeline`, as they would be had the clock played there.
    func silently<T>(_ body: () -> T) -> T {
        relay.muted = true
        defer { relay.muted = false }
        return body()
    }

    /// Replays the log into a new session up to time `t` and makes it the current one. False
    /// (and the current session kept) if Ctrl-C interrupted the replay.
    func replay(to t: Time) -> Bool {
        let replay = makeSession(baseOptions)
        var done = 0
        var cutHere: (index: Int, time: Time)?
        var graphs = 0..<0
        for (i, e) in log.enumerated() where e.time <= t {
            guard ReplSession.play(replay, to: e.time) != .interrupted else { return false }
            var lastStatementGraphs = replay.interpreter.instances.count
            // An entry whose statements ran past t (a `wait` in it) runs only up to t.
            if let c = e.cutAt { replay.options.until = min(c, t) } else if e.end > t { replay.options.until = t }
            switch e.kind {
            case .expression:
                _ = ReplSession.evaluate(e.text, in: replay)
            case .statements:
                let file = replay.sources.add(name: e.name, text: e.text)
                do {
                    _ = try replay.runEntry(file, beforeEachStatement: { lastStatementGraphs = replay.interpreter.instances.count })
                } catch {
                    if error.isInterruption { return false }
                }
            }
            if e.kind == .statements { graphs = lastStatementGraphs..<replay.interpreter.instances.count }
            done = i + 1
            replay.options.until = baseOptions.until
            replay.stoppedAtLimit = false
            if e.end > t {
                cutHere = (i, t)
                break
            }
        }
        guard ReplSession.play(replay, to: t) != .interrupted else { return false }
        session = replay
        executed = done
        cut = cutHere
        lastEntryGraphs = graphs
        clockPending = false
        return true
    }

    // MARK: - Inspecting

    /// `:inspect NAME`: a shape's properties, an array's members, a group, a binding or a
    /// step's run; anything else that is an expression (`square.center`) prints its value.
    func inspect(_ name: String) -> Outcome {
        guard !name.isEmpty else { fail("':inspect' takes a name, such as a shape's"); return .failed }
        let env = session.environment
        let interp = session.interpreter!
        var lookup = name
        var member: Int?
        // `card[2]`: one member of an array.
        if let open = name.firstIndex(of: "["), name.hasSuffix("]"),
           let k = Int(String(name[name.index(after: open)..<name.index(before: name.endIndex)]).trimmingSpaces) {
            lookup = String(name[..<open])
            member = k
        }
        guard let sym = env.symbol(named: lookup), member == nil || { if case .array = sym { true } else { false } }() else {
            if ReplSession.isExpression(name), name.contains(where: { $0 == "." || $0 == "[" }) {
                return evaluateExpression(name) ?? .failed
            }
            fail("unknown name '\(name)'" + DidYouMean.suffix(name, from: env.allNames))
            return .failed
        }
        var s = ""
        func shape(_ id: ShapeID) {
            guard interp.scene.contains(id) else { return }
            let info = interp.scene.shapes[Int(id.index)]
            s += "\(info.kind.rawValue) \(info.name)\n"
            for p in env.propertyNames(of: id) {
                guard let pid = env.propertyID(named: p), let v = interp.currentValue(id, pid) else { continue }
                let text = v.kind == .string ? quote(interp.describe(v)) : interp.describe(v)
                s += "  \(p) = \(text)\n"
            }
        }
        switch sym {
        case .shape(let id): shape(id)
        case .array(let first, let count):
            if let k = member {
                guard k >= 0 && k < count else {
                    fail("'\(lookup)' has members \(lookup)[0] to \(lookup)[\(count - 1)], not \(lookup)[\(k)]")
                    return .failed
                }
                shape(ShapeID(Int(first.index) + k))
            } else {
                for k in 0..<count { shape(ShapeID(Int(first.index) + k)) }
            }
        case .group(let ids):
            s += "group \(name) = [" + ids.map { interp.scene.contains($0) ? interp.scene.shapes[Int($0.index)].name : "?" }.joined(separator: ", ") + "]\n"
        case .global(let slot, _):
            let v = interp.globals[slot]
            s += "\(name) = \(v.kind == .string ? quote(interp.describe(v)) : interp.describe(v))\n"
        case .define(let n):
            if let d = env.define(named: n) {
                s += "define \(n)(\(d.parameters.map { env.names[$0] }.joined(separator: ", ")))" + (d.fromPrelude ? " (from the prelude)" : "") + "\n"
            }
        case .stepName(let id):
            if let r = interp.run(of: id) {
                s += "step \(name): started \(r.start.eventStamp)s, " + (r.end.map { "ended \($0.eventStamp)s" } ?? "running") + "\n"
            } else {
                s += "step \(name): not started\n"
            }
        }
        say(s)
        return .ok
    }

}


