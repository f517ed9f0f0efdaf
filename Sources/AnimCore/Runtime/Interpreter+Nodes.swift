// Interpreter+Nodes: what each kind of node does when it starts. Combinators only map time:
// a sequence starts each child when the one before ends, a parallel starts all and ends with
// the last, a stagger offsets one branch per member, `play` and named chains run child
// instances, `after`/`with` wait for a named step.

extension Interpreter {
    func startFrame(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = frame.instance
        let now = localTime(inst)
        if frame.parent < 0, let name = instances[Int(inst)].name {
            // A named instance starts: `with NAME` steps may go. One that first waits for
            // another named step (`after a < … > as b`) starts when its block does.
            if let previous = steps.runs[name]?.instance { steps.unstarted.remove(previous) }
            if leadsWithWait(graphs[Int(instances[Int(inst)].graph)], NodeID(Int(frame.node))) {
                steps.runs[name] = StepRun(instance: inst, start: nil, end: nil)
                steps.unstarted.insert(inst)
            } else {
                steps.runs[name] = StepRun(instance: inst, start: time, end: nil)
                wake(name)
            }
        } else if !steps.early.isEmpty, frame.parent >= 0 {
            earlyBodyStarted(f)
        }
        if frame.parent >= 0, !steps.unstarted.isEmpty,
           case .relative = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frames[Int(frame.parent)].node)].kind {
            blockStarted(in: inst)
        }
        noteEndlessStart(f, node: frame.node)
        if let ref = graphs[Int(instances[Int(inst)].graph)].nodes[Int(frame.node)].plan, ref.targetCount >= 0 {
            // A tween that is all constants (so it has no `from` to show during its delay).
            try begin(f, after: graphs[Int(instances[Int(inst)].graph)].plans[Int(ref.plan)].delay, now: now, node: frame.node)
            return
        }
        // The node is read in place, field by field, not copied whole: a copy of a GraphNode
        // retains and releases everything it holds (callgrind, lsp-5000: 0.95 M instructions
        // of outlined copies and destroys over 9,442 frames).
        let g = Int(instances[Int(inst)].graph), ni = Int(frame.node)
        switch graphs[g].nodes[ni].kind {
        case .action(let a):
            let activity = beginActivity(frame: f)
            endActivity(frame: f)
            try perform(a, frame: f, span: graphs[g].nodes[ni].span, activity: activity)
            finish(f)
        case .wait(let e):
            let d = try duration(e, env: frame.env, what: "a wait")
            beginActivity(frame: f)
            if d.ticks == 0 { endActivity(frame: f); finish(f) } else {
                schedule(inst, local: try checkedEnd(inst, now, d, span: graphs[g].nodes[ni].span, what: "wait"), node: frame.node, .end(f))
            }
        case .tween(let spec):
            if !tweenRuns.isEmpty { tweenRuns[f] = nil }  // a frame used again
            let delay = try tweenDelay(spec, env: frame.env)
            if spec.fill != nil || spec.endDelay != nil || delay.ticks < 0 {
                try startTimedTween(f, spec, delay: delay, now: now)
                return
            }
            if spec.from != nil, spec.hasDelay { try showFromValues(f, spec) }
            try begin(f, after: delay, now: now, node: frame.node)
        case .spring(let spec):
            try begin(f, after: try delayTime(spec.delay, env: frame.env), now: now, node: frame.node)
        case .sequence(let children):
            if children.count == 0 { endsAtOnce(f); return }
            frames[Int(f)].state = 0
            startChild(of: f, node: graphs[Int(instances[Int(inst)].graph)].child(0, of: children), at: now)
        case .parallel(let children):
            if children.count == 0 { endsAtOnce(f); return }
            frames[Int(f)].state = Int(children.count)
            for c in graphs[Int(instances[Int(inst)].graph)][children] { startChild(of: f, node: c, at: now) }
        case .repeat(let countExpr, let yoyo, let body):
            _ = try repeatPause(f)  // a negative computed `repeat-delay` is an error at the start
            var count = Int.max
            if let e = countExpr {
                let n = try number(e, env: frame.env)
                guard n >= 0, n == n.rounded() else {
                    throw RuntimeError("a repeat count must be a whole number of at least 0, not \(formatNumber(n))", at: e.span)
                }
                guard n <= Double(Interpreter.maxRepeatCount) else {
                    throw RuntimeError("a repeat count of \(formatNumber(n)) is more than the limit of \(Interpreter.maxRepeatCount)", at: e.span,
                                       help: "use 'repeat forever', with '--until' to stop the run")
                }
                count = Int(n)
            }
            if count == 0 { endsAtOnce(f); return }
            // A body of known length tells at once whether the passes fit on the clock (a
            // billion one-second passes would otherwise fail only after a billion events).
            if count < Int.max, case .exact(let d) = graphs[Int(instances[Int(inst)].graph)].nodes[Int(body.index)].duration, d.ticks > 0 {
                let total = Double(d.ticks) * Double(count)
                guard total < Double(Int64.max) else {
                    throw RuntimeError("this repeat would end beyond the clock's range (about 292 years)", at: graphs[g].nodes[ni].span)
                }
                _ = try checkedEnd(inst, now, Time(ticks: Int64(total)), span: graphs[g].nodes[ni].span, what: "repeat")
            }
            frames[Int(f)].count = count
            frames[Int(f)].state = 0
            if recorder.activityLog != nil { beginRepeatRun(frame: f) }
            if let loop = graphs[g].nodes[ni].repeatLoop {
                // `for k` / `while COND`: each pass in its own environment holding its index,
                // the condition read before it.
                instantPasses[f] = nil
                if loop.watchesForStillPasses { passMarks[f] = (writes, rng) } else if !passMarks.isEmpty { passMarks[f] = nil }
                let (env, owns) = passEnv(f, loop, pass: 0)
                if let c = loop.condition, case .bool(let holds) = try eval(c, env: env) {
                    guard holds else {
                        if owns { freeEnvs.append(env) }
                        endsAtOnce(f)
                        return
                    }
                    if loop.loopsAtOneInstant {
                        if owns { freeEnvs.append(env) }
                        throw RuntimeError("this 'repeat while' would loop for ever at \(time.eventStamp)s: its condition holds, its body takes no time "
                                           + "and nothing can change the condition", at: c.span,
                                           help: "give the body a duration, or make the condition read something the body changes (a property, the pass index)")
                    }
                    // It holds, and nothing can make it false: the passes go on for ever.
                    if loop.conditionNeverChanges { markEndless(f) }
                }
                startChild(of: f, node: body, at: now, env: env, ownsEnv: owns)
            } else if yoyo {
                // Pass 0 plays the body live as a recorded child; later passes replay it back and forth.
                let child = spawn(from: f, root: body, env: frame.env, speed: 1, recorded: true)
                frames[Int(f)].segment = child
                scheduleRoot(child)
            } else {
                startChild(of: f, node: body, at: now)
            }
        case .stagger(let spec, let body):
            try startStagger(f, spec, body: body, now: now)
        case .play(let spec):
            try startPlay(f, spec)
        case .spawn(let body):
            let child = spawn(from: f, root: body, env: frame.env, speed: 1, recorded: true)
            instances[Int(child)].name = graphs[g].nodes[ni].name
            frames[Int(f)].segment = child
            scheduleRoot(child)
        case .relative(let spec, _):
            try startRelative(f, spec)
        case .select(.any, let chains):
            // Every chain starts; `count` 0 until the first has ended (Interpreter.finish).
            if chains.count == 0 { endsAtOnce(f); return }
            frames[Int(f)].state = Int(chains.count)
            frames[Int(f)].count = 0
            for c in graphs[Int(instances[Int(inst)].graph)][chains] { startChild(of: f, node: c, at: now) }
        case .select(.choose, let chains):
            // One draw u from the generator `random()` uses; chain ⌊u·n⌋ runs.
            if chains.count == 0 { endsAtOnce(f); return }
            let u = rng.nextUnit()
            let k = min(Int(u * Double(chains.count)), Int(chains.count) - 1)
            frames[Int(f)].state = 1
            let chain = graphs[Int(instances[Int(inst)].graph)].child(k, of: chains)
            decided(chain, in: inst)
            startChild(of: f, node: chain, at: now)
        case .conditional(let conditions, let branches):
            // Decided now: the first condition that holds, else the `else` branch, else none.
            var chosen: Int?
            for (k, c) in conditions.enumerated() {
                guard case .bool(let holds) = try eval(c, env: frame.env) else { continue }
                if holds { chosen = k; break }
            }
            if chosen == nil, branches.count > conditions.count { chosen = conditions.count }
            guard let k = chosen else { decided(nil, in: inst); endsAtOnce(f); return }
            frames[Int(f)].state = 1
            let branch = graphs[Int(instances[Int(inst)].graph)].child(k, of: branches)
            decided(branch, in: inst)
            startChild(of: f, node: branch, at: now)
        }
    }

    /// A container with nothing to run (an empty block, `repeat 0`, a stagger over no shapes)
    /// ends as it starts; its run is logged like an action's, so charts know it ran.
    func endsAtOnce(_ f: Int32) {
        beginActivity(frame: f)
        endActivity(frame: f)
        finish(f)
    }

    /// `from V` with a delay shows V from the start of the delay (GSAP's `fromTo` renders at
    /// once; CSS `fill-mode: backwards`).
    func showFromValues(_ f: Int32, _ spec: TweenSpec) throws(RuntimeError) {
        let frame = frames[Int(f)]
        for (k, w) in spec.writes.enumerated() {
            let shape = try resolve(w.shape, env: frame.env)
            guard let current = currentValue(shape, w.property), let froms = spec.from else { continue }
            let v = try eval(froms[k], env: frame.env)
            recordSet(PropertyKey(shape, w.property), from: current, to: v, instance: frame.instance)
            writeProperty(shape, w.property, v, by: frame.instance)
        }
    }

    /// A tween's or spring's delay, evaluated now.
    func delayTime(_ delay: TypedExpr?, env: Int32) throws(RuntimeError) -> Time {
        try delay.map { e throws(RuntimeError) in try duration(e, env: env, what: "a delay") } ?? .zero
    }

    /// Begins a tween or spring after its delay: now, or by a `begin` event.
    func begin(_ f: Int32, after d: Time, now: Time, node: Int32) throws(RuntimeError) {
        if d.ticks > 0 {
            let inst = frames[Int(f)].instance
            let span = graphs[Int(instances[Int(inst)].graph)].nodes[Int(node)].span
            schedule(inst, local: try checkedEnd(inst, now, d, span: span, what: "delay"), node: node, .begin(f))
        } else {
            try begin(f)
        }
    }

    /// Creates a child instance of the frame's instance running `root`, starting now.
    func spawn(from f: Int32, root: NodeID, env: Int32, speed: Double, recorded: Bool) -> Int32 {
        let frame = frames[Int(f)]
        let child = newInstance(graph: instances[Int(frame.instance)].graph, root: root.index, env: env, parent: frame.instance, parentFrame: f, speed: speed,
                                localStart: .zero, parentClock: localTime(frame.instance))
        instances[Int(child)].parentNode = frame.node
        if recorded { enableRecording(child) }
        return child
    }

    // MARK: - stagger

    func startStagger(_ f: Int32, _ spec: StaggerSpec, body: NodeID, now: Time) throws(RuntimeError) {
        let frame = frames[Int(f)]
        guard case .list(let members) = try eval(spec.members, env: frame.env) else { endsAtOnce(f); return }
        let step = try duration(spec.interval, env: frame.env, what: "a stagger interval")
        if members.isEmpty { endsAtOnce(f); return }
        func whole(_ e: TypedExpr, _ what: String) throws(RuntimeError) -> Int {
            let x = try number(e, env: frame.env)
            guard x.rounded() == x else { throw RuntimeError("\(what) must be a whole number, not \(formatNumber(x))", at: e.span) }
            guard abs(x) < Stagger.maxLayout else {
                throw RuntimeError("\(what) must be below 10¹⁵, not \(formatNumber(x))", at: e.span)
            }
            return Int(x)
        }
        var origin = Stagger.Origin.order(spec.order)
        if let e = spec.fromIndex { origin = .index(try whole(e, "a stagger's 'from' index")) }
        var grid: Stagger.Grid?
        if let g = spec.grid {
            grid = Stagger.Grid(rows: try whole(g.rows, "a stagger grid's rows"), columns: try whole(g.columns, "a stagger grid's columns"),
                                axis: g.axis)
        }
        if let problem = Stagger.problem(count: members.count, origin: origin, grid: nil) {
            throw RuntimeError(problem, at: spec.fromIndex?.span ?? spec.span)
        }
        if let g = spec.grid, let problem = Stagger.problem(count: members.count, origin: .order(.start), grid: grid) {
            throw RuntimeError(problem, at: g.rows.span.merged(with: g.columns.span), help: "give a grid whose ROWS × COLUMNS is at least the number of members")
        }
        // `from random`: a seeded shuffle (Fisher–Yates) of the ranks or distances.
        let multiples = Stagger.multiples(count: members.count, origin: origin, amount: spec.amount, grid: grid,
                                          easing: spec.easing) { values in
            for i in stride(from: values.count - 1, to: 0, by: -1) {
                let j = Int(self.rng.next() % UInt64(i + 1))
                values.swapAt(i, j)
            }
        }
        frames[Int(f)].state = members.count
        for (k, m) in members.enumerated() {
            var locals = envs[Int(frame.env)]
            let slots = max(spec.variable, spec.indexVariable ?? 0)
            while locals.count <= slots { locals.append(.number(0)) }
            locals[spec.variable] = m
            if let i = spec.indexVariable { locals[i] = .number(Double(k)) }
            let env = newEnv(locals)
            guard let offset = step.scaled(by: multiples[k]), let at = now.adding(offset) else {
                throw RuntimeError("this stagger would start beyond the clock's range", at: spec.span)
            }
            startChild(of: f, node: body, at: at, env: env, ownsEnv: true)
        }
    }

    // MARK: - play

    func startPlay(_ f: Int32, _ spec: PlaySpec) throws(RuntimeError) {
        let frame = frames[Int(f)]
        guard spec.instantiation < instantiations.count, let graph = instantiations[spec.instantiation].graph else {
            throw RuntimeError("'\(spec.name)' is not ready to play", at: spec.span)
        }
        var speed = 1.0
        if let e = spec.speed {
            speed = try number(e, env: frame.env)
            guard speed > 0, speed.isFinite else {
                throw RuntimeError("speed must be greater than 0, not \(formatNumber(speed))", at: e.span)
            }
        }
        if instances[Int(frame.instance)].depth + 1 > Interpreter.maxInstanceDepth {
            throw RuntimeError("'\(spec.name)' is nested more than \(Interpreter.maxInstanceDepth) deep (a sequence that plays itself without end?)",
                               at: spec.span, help: "use 'repeat forever < ... >' for an endless loop")
        }
        var locals = [Value](repeating: .number(0), count: max(graph.localCount, spec.arguments.count))
        for (k, a) in spec.arguments.enumerated() { locals[k] = try eval(a, env: frame.env) }
        let env = newEnv(locals)
        let child = newInstance(graph: add(graph: graph), root: 0, env: env, parent: frame.instance, parentFrame: f, speed: speed,
                                localStart: .zero, parentClock: localTime(frame.instance))
        instances[Int(child)].parentNode = frame.node
        recordIfHoldingNamedSteps(child)
        frames[Int(f)].segment = child
        frames[Int(f)].state = 1  // owns the child's environment
        if spec.reversed {
            enableRecording(child)
            scheduleRoot(child)
            // It ends once while it plays silently to its end; the play ends when it is back at
            // its start, so the frame waits for that end only.
            instances[Int(child)].parentFrame = -1
            try playReversed(child)
            instances[Int(child)].parentFrame = f
        } else {
            scheduleRoot(child)
        }
    }

    /// A child instance ended (live, or a replay reached its limit): the waiting frame goes on.
    func childInstanceEnded(_ child: Int32, frame f: Int32) {
        guard f >= 0, Int(f) < frames.count, frames[Int(f)].segment == child else { return }
        let frame = frames[Int(f)]
        let g = Int(instances[Int(frame.instance)].graph)
        if case .repeat = graphs[g].nodes[Int(frame.node)].kind {
            let done = frame.state + 1
            frames[Int(f)].state = done
            if done < frame.count {
                // Yoyo: replay the recorded pass in the other direction, after the pause if any.
                if let pause = try? repeatPause(f), pause.ticks > 0, let next = localTime(frame.instance).adding(pause) {
                    schedule(frame.instance, local: next, node: frame.node, .nextPass(f))
                } else {
                    restartYoyo(child, pass: done)
                }
                return
            }
        }
        if case .play = graphs[g].nodes[Int(frame.node)].kind { freeEnvs.append(instances[Int(child)].env) }
        frames[Int(f)].segment = -1
        finish(f)
    }

    /// A repeat block's `repeat-delay`, evaluated now (zero without one).
    /// The environment of pass `pass` of a `repeat … for k` (its index in `k`); a `while`
    /// without `for` shares the frame's. Whether it was made for the pass.
    func passEnv(_ f: Int32, _ loop: RepeatLoop, pass: Int) -> (Int32, Bool) {
        guard let slot = loop.variable else { return (frames[Int(f)].env, false) }
        var locals = envs[Int(frames[Int(f)].env)]
        while locals.count <= slot { locals.append(.number(0)) }
        locals[slot] = .number(Double(pass))
        return (newEnv(locals), true)
    }

    /// After pass `done` − 1 of a `for`/`while` repeat ended: starts pass `done` at `next` and
    /// says so, or says the loop is over (the count is reached, or the condition is false).
    /// Zero-time passes of a `while` at one instant are stopped at `maxPassesPerInstant`.
    func nextPass(_ p: Int32, _ loop: RepeatLoop, done: Int, at next: Time, body: NodeID) throws(RuntimeError) -> Bool {
        guard done < frames[Int(p)].count else { return false }
        let (env, owns) = passEnv(p, loop, pass: done)
        let mark = loop.watchesForStillPasses ? (writes: writes, rng: rng) : nil
        if let c = loop.condition {
            let holds: Bool
            do throws(RuntimeError) {
                guard case .bool(let b) = try eval(c, env: env) else { return false }
                holds = b
            } catch {
                if owns { freeEnvs.append(env) }
                throw error
            }
            guard holds else {
                if owns { freeEnvs.append(env) }
                instantPasses[p] = nil
                return false
            }
            let n = instantPasses[p].flatMap { $0.time == next ? $0.passes : nil } ?? 0
            if n >= Interpreter.maxPassesPerInstant {
                if owns { freeEnvs.append(env) }
                throw RuntimeError("'repeat while' ran \(Interpreter.maxPassesPerInstant) passes at \(time.eventStamp)s and its condition still holds: "
                                   + "its passes take no time", at: c.span,
                                   help: "give the repeated steps a duration, or change what the condition reads in the body")
            }
            instantPasses[p] = (next, n + 1)
            if let mark {
                // The pass took time, wrote nothing and drew nothing (nor did the condition):
                // unless something outside the loop writes, every later pass is the same.
                let tookTime = frames[Int(p)].start < next
                let still = tookTime && passMarks[p].map { $0.writes == mark.writes && $0.rng == rng } == true
                if still {
                    stillLoops[p] = writes
                    markEndless(p)
                } else if tookTime, bodyCannotReachCondition(graphs[Int(instances[Int(frames[Int(p)].instance)].graph)],
                                                              node: NodeID(Int(frames[Int(p)].node)), condition: c, body: body) {
                    // It writes, but nothing it may write is read by the condition: as a still
                    // pass, it never ends unless something outside the loop writes (-1: what
                    // the loop itself writes does not matter).
                    stillLoops[p] = -1
                    markEndless(p)
                } else if stillLoops.removeValue(forKey: p) != nil {
                    endlessFrames[p] = nil
                }
                passMarks[p] = mark
            }
        }
        frames[Int(p)].start = next
        startChild(of: p, node: body, at: next, env: env, ownsEnv: owns)
        return true
    }

    func repeatPause(_ f: Int32) throws(RuntimeError) -> Time {
        let frame = frames[Int(f)]
        guard let e = graphs[Int(instances[Int(frame.instance)].graph)].nodes[Int(frame.node)].repeatDelay else { return .zero }
        guard case .time(let t) = try eval(e, env: frame.env) else { return .zero }
        guard t.ticks >= 0 else { throw RuntimeError(TimingError.negativeRepeatDelay(t).message, at: e.span) }
        return t
    }

    // MARK: - after / with

    func startRelative(_ f: Int32, _ spec: RelativeSpec) throws(RuntimeError) {
        if let when = try relativeStart(f, spec) {
            startRelativeBody(f, atGlobal: when)
        } else {
            steps.waiters[spec.name, default: []].append(f)
        }
    }

    /// Whether a node first waits for a named step: it is an `after`/`with`, or everything it
    /// starts at once is (the first step of a sequence, every chain of a block, the body of a
    /// repeat, a stagger or a named chain, the body of a played define).
    func leadsWithWait(_ g: SequencerGraph, _ n: NodeID) -> Bool {
        var plays: [Int: Bool] = [:]
        return leadsWithWait(g, n, plays: &plays)
    }

    /// `leadsWithWait`, with the answers for the defines' bodies met so far (`plays`, by
    /// instantiation), so a define that plays itself, or one played many times, is asked once.
    private func leadsWithWait(_ g: SequencerGraph, _ n: NodeID, plays: inout [Int: Bool]) -> Bool {
        switch g[n].kind {
        case .relative: return true
        case .sequence(let c): return c.count > 0 && leadsWithWait(g, g.child(0, of: c), plays: &plays)
        case .parallel(let c), .select(.any, let c):
            // `any` starts every chain, as a block does.
            guard c.count > 0 else { return false }
            for x in g[c] where !leadsWithWait(g, x, plays: &plays) { return false }
            return true
        case .repeat(_, _, let b), .stagger(_, let b), .spawn(let b): return leadsWithWait(g, b, plays: &plays)
        // Decided as it begins: it may wait when a branch it may take does, and says what it
        // took then (`decided(_:in:)`).
        case .conditional(_, let c), .select(.choose, let c):
            for x in g[c] where leadsWithWait(g, x, plays: &plays) { return true }
            return false
        case .play(let spec):
            // The played body starts as the play does: it waits if the body first waits (a
            // reversed play runs its body to the end at once, so it cannot wait).
            guard !spec.reversed, spec.instantiation < instantiations.count, let body = instantiations[spec.instantiation].graph else { return false }
            if let known = plays[spec.instantiation] { return known }
            plays[spec.instantiation] = false  // a define that plays itself at its start nests without waiting
            let waits = leadsWithWait(body, body.root, plays: &plays)
            plays[spec.instantiation] = waits
            return waits
        case .tween, .wait, .action, .spring: return false
        }
    }

    /// An `if` or `choose` that may first wait for a named step has chosen `branch` (nil:
    /// none): unless that waits too, the named runs waiting for it to start start now.
    func decided(_ branch: NodeID?, in i: Int32) {
        guard !steps.unstarted.isEmpty else { return }
        if let b = branch, leadsWithWait(graphs[Int(instances[Int(i)].graph)], b) { return }
        blockStarted(in: i)
    }

    /// The block of an `after`/`with` starts in instance `i`: the named runs that were waiting
    /// for it (`i` and the ancestors it belongs to) start now.
    func blockStarted(in i: Int32) {
        var x = i
        while x >= 0 {
            if steps.unstarted.remove(x) != nil, let name = instances[Int(x)].name, steps.runs[name]?.instance == x,
               steps.runs[name]?.start == nil {
                steps.runs[name]?.start = time
                // Its start, for `seek NAME`, is now too, not when it began to wait.
                if instances[Int(x)].parent >= 0 { instances[Int(x)].startInParent = parentClockNow(x) }
                wake(name)
            }
            x = instances[Int(x)].parent
        }
    }

    /// The global time the body of `after`/`with` starts, if it is known yet.
    func relativeStart(_ f: Int32, _ spec: RelativeSpec) throws(RuntimeError) -> Time? {
        let offset = try spec.offset.map { e throws(RuntimeError) -> Time in
            guard case .time(let t) = try eval(e, env: frames[Int(f)].env) else { return .zero }
            return t
        } ?? .zero
        guard let run = steps.runs[spec.name], let start = run.start else { return nil }
        switch spec.anchor {
        case .with:
            return max(time, start + offset)
        case .after:
            if let end = run.end { return max(time, end + offset) }
            // A negative offset needs the end in advance: known when the step's length is, and
            // predicted by its clock as it runs now (a paused or reversed run: not yet). A later
            // change of that clock moves the block (`rewaitEarly`).
            if offset.ticks < 0, let end = predictedEnd(run.instance) { return max(time, end + offset) }
            return nil
        }
    }

    /// When a running top-level named graph of known length will end if its clock goes on as
    /// it runs now: nil if paused, reversed, or its length is not known before the run.
    func predictedEnd(_ i: Int32) -> Time? {
        let inst = instances[Int(i)]
        guard inst.running, inst.parent < 0, inst.rate > 0,
              case .exact(let d) = graphs[Int(inst.graph)].nodes[Int(inst.root)].duration else { return nil }
        return globalTime(i, d)
    }

    func startRelativeBody(_ f: Int32, atGlobal t: Time) {
        let frame = frames[Int(f)]
        guard case .relative(let spec, let body) = graphs[Int(instances[Int(frame.instance)].graph)].nodes[Int(frame.node)].kind else { return }
        let local = localTime(frame.instance, at: t)
        frames[Int(f)].state = 1
        let child = startChild(of: f, node: body, at: max(local, localTime(frame.instance)))
        // Started ahead of the end of a run still going: it moves if that run's clock changes.
        if t > time, spec.anchor == .after, steps.runs[spec.name]?.end == nil {
            steps.early[spec.name, default: []].append((waiter: f, body: child))
        }
    }

    /// The clock of `name`'s run changed or the run ended: its early `after NAME - D` blocks
    /// that have not started go back to waiting, so `wake` places them again from the end as
    /// it is now predicted (or from the end itself), at once if that instant has gone by.
    func rewaitEarly(_ name: StepNameID) {
        guard let list = steps.early.removeValue(forKey: name) else { return }
        for (f, child) in list {
            let instance = frames[Int(f)].instance
            func isStart(_ e: QueuedEvent) -> Bool {
                if case .start(let c) = e.action { return c == child && e.key.instance == instance }
                return false
            }
            let pending = scheduler.queue.extract(where: isStart) + takeParked(isStart)
            guard !pending.isEmpty else { continue }  // its instance was stopped
            freeFrames.append(child)
            frames[Int(f)].state = 0
            steps.waiters[name, default: []].append(f)
        }
    }

    /// After a control statement: every run's clock may have changed, so the early blocks go
    /// back to waiting and every waiting `after`/`with` is placed again, name by name in the
    /// order the script declares them (a dictionary's own order follows where its storage
    /// happens to be, and the order the bodies start in is the order of their events).
    func replaceRelativeWaits() {
        for name in steps.early.keys.sorted(by: { $0.index < $1.index }) { rewaitEarly(name) }
        for name in steps.waiters.keys.sorted(by: { $0.index < $1.index }) { wake(name) }
    }

    /// An early block's frame starts: it no longer moves with the run it counted from.
    func earlyBodyStarted(_ f: Int32) {
        let waiter = frames[Int(f)].parent
        for (name, list) in steps.early where list.contains(where: { $0.body == f && $0.waiter == waiter }) {
            let rest = list.filter { !($0.body == f && $0.waiter == waiter) }
            steps.early[name] = rest.isEmpty ? nil : rest
        }
    }

    /// A named step started or ended: start the `after`/`with` steps waiting for it.
    func wake(_ name: StepNameID) {
        guard let list = steps.waiters[name], !list.isEmpty else { return }
        var still: [Int32] = []
        for f in list {
            guard case .relative(let spec, _) = graphs[Int(instances[Int(frames[Int(f)].instance)].graph)].nodes[Int(frames[Int(f)].node)].kind,
                  let when = try? relativeStart(f, spec) else { still.append(f); continue }
            startRelativeBody(f, atGlobal: when)
        }
        steps.waiters[name] = still.isEmpty ? nil : still
    }

    /// Steps still waiting for a named step that will never come (reported at the end of a run),
    /// in the script's order: the first is the one reported, whatever order the dictionary
    /// keeps them in (which follows where its storage happens to be: two checks of one script
    /// in one process, `--until 0.5`, reported different ones of its two).
    public var unmetWaits: [(Span, String)] {
        steps.waiters.values.flatMap { $0 }.compactMap { f -> (Span, String)? in
            let frame = frames[Int(f)]
            guard instances[Int(frame.instance)].running,
                  case .relative(let spec, _) = graphs[Int(instances[Int(frame.instance)].graph)].nodes[Int(frame.node)].kind else { return nil }
            let what = steps.runs[spec.name]?.start == nil ? "never started" : "never finished"
            return (spec.span, "'\(spec.anchor.rawValue) \(spec.nameText)' never ran: '\(spec.nameText)' \(what)")
        }.sorted { ($0.0.source, $0.0.start) < ($1.0.source, $1.0.start) }
    }
}
