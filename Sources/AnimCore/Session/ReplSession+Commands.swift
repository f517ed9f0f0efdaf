// ReplSession+Commands: the `:` commands of the REPL (brief §8).

extension ReplSession {
    /// The commands, with their one-line help.
    public static let commands: [(name: String, usage: String, help: String)] = [
        ("help", ":help", "show this help"),
        ("quit", ":quit", "leave the REPL (Ctrl-D does too)"),
        ("load", ":load FILE", "run a script file in this session"),
        ("reset", ":reset", "start over: no shapes, no bindings, time 0"),
        ("time", ":time", "show the script time and what is running"),
        ("step", ":step D", "run the clock forward by D"),
        ("until", ":until T", "let never-ending graphs run T per entry (default 10s)"),
        ("seek", ":seek T", "move to time T, forward or back (back replays silently)"),
        ("inspect", ":inspect NAME", "show a shape's properties, a binding or a step"),
        ("timeline", ":timeline", "list the graphs started so far and when they run"),
        ("auto", ":auto on|off", "run the clock after each entry, or keep it still"),
    ]

    /// Runs a `:` command line.
    func command(_ line: String) -> Outcome {
        let parts = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let arg = parts.count > 1 ? parts[1].trimmingSpaces : ""
        func time(_ what: String) -> Time? {
            guard let t = SessionOptions.parseTime(arg), t >= .zero else {
                fail("':\(name)' takes a time such as 2, 1.5s or 300ms" + (arg.isEmpty ? "" : ", not '\(arg)'"))
                return nil
            }
            return t
        }
        switch name {
        case "help", "h", "?":
            var s = "Commands:\n"
            let w = ReplSession.commands.map(\.usage.count).max()!
            for c in ReplSession.commands { s += "  " + c.usage + String(repeating: " ", count: w - c.usage.count + 2) + c.help + "\n" }
            s += "Type statements as in a script; a block or a line ending in 'then' continues on the next line.\n"
            s += "A bare expression prints its value. Tab completes names, properties and commands.\n"
            say(s)
        case "quit", "q", "exit":
            return .quit
        case "load":
            guard !arg.isEmpty else { fail("':load' takes a file name"); return .failed }
            switch readFile(arg) {
            case .failure(let e): fail(e.message); return .failed
            case .success(let bytes): return run(entry: String(decoding: bytes, as: UTF8.self))
            }
        case "reset":
            session = Session(options: baseOptions, output: output)
            log = []
            say("reset: no shapes, no bindings, time 0\n")
        case "time":
            let running = session.interpreter.runningCount
            say("time \(session.now.eventStamp)s" + (running > 0 ? ", \(running) graph\(running == 1 ? "" : "s") running" : "") + "\n")
        case "step":
            guard let d = time("step") else { return .failed }
            do { try session.moveNow(to: session.now + d) } catch { return .failed }
            say("time \(session.now.eventStamp)s\n")
        case "until":
            guard let t = time("until") else { return .failed }
            runLimit = t
            say("never-ending graphs now run \(t) per entry\n")
        case "seek":
            guard let t = time("seek") else { return .failed }
            return seek(to: t)
        case "inspect":
            return inspect(arg)
        case "timeline":
            say(timelineText())
        case "auto":
            switch arg {
            case "on": auto = true
            case "off": auto = false
            case "": break
            default: fail("':auto' takes 'on' or 'off'"); return .failed
            }
            say("auto \(auto ? "on: the clock runs after each entry" : "off: the clock moves only with :step, :seek and wait")\n")
        default:
            let names = ReplSession.commands.map(\.name)
            fail("unknown command ':\(name)'" + DidYouMean.suffix(name, from: names) + " (type :help)")
            return .failed
        }
        return .ok
    }

    /// `:seek T`: forward runs the clock; back replays every entry up to T silently.
    func seek(to t: Time) -> Outcome {
        if t >= session.now {
            do { try session.moveNow(to: t) } catch { return .failed }
            say("time \(session.now.eventStamp)s\n")
            return .ok
        }
        var options = baseOptions
        options.until = t
        let replay = Session(options: options, output: output)
        replay.silent = true
        var kept: [(time: Time, text: String)] = []
        for entry in log where entry.time <= t {
            _ = try? replay.moveNow(to: entry.time)
            if replay.stoppedAtLimit { break }
            kept.append(entry)
            let file = replay.sources.add(name: "<repl>", text: entry.text)
            if let statements = replay.compile(file) { _ = try? replay.execute(statements) }
        }
        _ = try? replay.moveNow(to: t)
        replay.silent = false
        replay.options.until = nil
        replay.stoppedAtLimit = false
        let dropped = log.count - kept.count
        log = kept
        session = replay
        say("time \(session.now.eventStamp)s (replayed \(kept.count) entr\(kept.count == 1 ? "y" : "ies")"
            + (dropped > 0 ? "; \(dropped) typed later \(dropped == 1 ? "was" : "were") undone, and stay in the history" : "") + ")\n")
        return .ok
    }

    /// `:inspect NAME`.
    func inspect(_ name: String) -> Outcome {
        let env = session.environment
        let interp = session.interpreter!
        guard let sym = env.symbols[name] else {
            fail("unknown name '\(name)'" + DidYouMean.suffix(name, from: env.allNames))
            return .failed
        }
        var s = ""
        func shape(_ id: ShapeID) {
            guard interp.scene.contains(id) else { return }
            let info = interp.scene.shapes[Int(id.index)]
            s += "\(info.kind.rawValue) \(info.name)\n"
            for p in env.propertyNames(of: id) {
                guard let pid = env.propertyIDs[p], let v = interp.currentValue(id, pid) else { continue }
                let text = v.kind == .string ? quote(interp.describe(v)) : interp.describe(v)
                s += "  \(p) = \(text)\n"
            }
        }
        switch sym {
        case .shape(let id): shape(id)
        case .array(let first, let count):
            for k in 0..<count { shape(ShapeID(Int(first.index) + k)) }
        case .group(let ids):
            s += "group \(name) = [" + ids.map { interp.scene.contains($0) ? interp.scene.shapes[Int($0.index)].name : "?" }.joined(separator: ", ") + "]\n"
        case .global(let slot, _):
            s += "\(name) = \(interp.describe(interp.globals[slot]))\n"
        case .define(let n):
            if let d = env.defines[n] {
                s += "define \(n)(\(d.parameters.map(\.name).joined(separator: ", ")))" + (d.fromPrelude ? " (from the prelude)" : "") + "\n"
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

    /// One line per started graph: its span of time and where it was written.
    func timelineText() -> String {
        let interp = session.interpreter!
        guard !interp.instances.isEmpty else { return "no graphs yet\n" }
        var s = ""
        for (i, inst) in interp.instances.enumerated() {
            let end = inst.end.map { $0.eventStamp } ?? (inst.graph.duration == .forever ? "forever" : "…")
            let pos = session.renderer.position(of: inst.graph.nodes[0].span) ?? "?"
            s += "#\(i + 1)  \(inst.start.eventStamp) → \(end)  \(inst.running ? "running " : "finished")  \(pos)\n"
        }
        return s
    }

    func say(_ s: String) { output.standardOutput(s) }
    func fail(_ s: String) { output.standardError("error: \(s)\n") }
}


