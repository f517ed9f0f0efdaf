// Interpreter: plays sequencer graphs on the virtual clock. Each started graph is an instance;
// each running node is a frame (an activation record in a flat array). Events — a frame
// starting, a tween beginning after its delay, a timed node ending — wait in a queue ordered by
// (time, graph order). `advance(to:)` fires every event up to a time, so the cost of a run grows
// with its events, not with its duration. Property reads ask the owning tween, else the scene.

/// A run-time failure: what went wrong and where in the script.
public struct RuntimeError: Error, Sendable {
    /// The diagnostic to show.
    public var diagnostic: Diagnostic
    /// Creates an error at a span.
    public init(_ message: String, at span: Span, notes: [String] = [], help: String? = nil) {
        diagnostic = .error(message, at: span, notes: notes, help: help)
    }
    init(_ e: ValueError) { diagnostic = .error(e.message, at: e.span) }
}

/// Runs graphs against a scene on the virtual clock.
public final class Interpreter {
    /// The shapes and their base values.
    public internal(set) var scene = Scene()
    /// The values of top-level `let` bindings, by slot.
    var globals: [Value] = []
    /// The random generator (reseeded by `seed`).
    var rng: RandomGenerator
    /// `--seed`, which overrides and mixes into every `seed` statement.
    let seedOverride: UInt64?
    /// The instant being processed, or the instant the clock is held at.
    public internal(set) var time = Time.zero
    /// Where events go.
    unowned(unsafe) var sink: RunEventSink
    /// When set, actions do not print or check (seeking, timing-only runs).
    public var silent = false
    /// How many expectations have failed.
    public internal(set) var expectFailures = 0

    var queue = EventQueue()
    var instances: [Instance] = []
    var frames: [Frame] = []
    var freeFrames: [Int32] = []
    /// Locals by environment; environment 0 is the scratch space for top-level expressions.
    var envs: [[Value]] = [[]]
    var segments: [Segment] = []
    var freeSegments: [Int32] = []
    /// Which tween track writes each property: key is (shape << 32 | property).
    var owners: [Int64: Owner] = [:]
    /// When each named step last started and ended.
    var stepRuns: [StepNameID: (start: Time, end: Time?)] = [:]
    var eventsThisInstant = 0
    /// Property names by id, for messages (kept in step with the Environment by the Session).
    public var propertyNames: [String] = BuiltinProperty.allCases.map(\.name)

    /// Events allowed at one instant before the run is stopped as a loop that does not advance
    /// time (`repeat forever < print "x" >`). Ten million is far above any real script.
    public static let maxEventsPerInstant = 10_000_000

    /// A graph in play.
    struct Instance {
        var graph: SequencerGraph
        var env: Int32
        var root: Int32
        var running: Bool
        var start: Time
        var end: Time?
    }

    /// A running node.
    struct Frame {
        var node: Int32
        var instance: Int32
        var parent: Int32
        /// Sequence: index of the running child. Parallel: children still running. Repeat: passes done.
        var state: Int
        /// Repeat: passes in all (Int.max: forever).
        var count: Int
        /// Tween: its segment.
        var segment: Int32
        var start: Time
    }

    /// Which tween track owns a property.
    struct Owner { var segment: Int32; var track: Int32 }

    /// Creates an interpreter that reports to `sink`.
    public init(sink: RunEventSink, seed: UInt64?) {
        self.sink = sink
        self.seedOverride = seed
        self.rng = RandomGenerator(seed: seed ?? RandomGenerator.defaultSeed)
    }

    // MARK: - Clock

    /// Whether any graph is still running.
    public var isIdle: Bool { queue.isEmpty && !instances.contains { $0.running } }

    /// The time of the next pending event.
    public var nextEventTime: Time? { queue.nextTime }

    /// Fires every event at or before `t` in order, then holds the clock at `t`.
    /// On a run-time error the failing graph is stopped, the error reported, and rethrown.
    public func advance(to t: Time) throws(RuntimeError) {
        while let next = queue.nextTime, next <= t {
            let (key, action) = queue.pop()!
            if key.time != time { time = key.time; eventsThisInstant = 0 }
            eventsThisInstant += 1
            do throws(RuntimeError) {
                if eventsThisInstant > Interpreter.maxEventsPerInstant {
                    let span = instances[Int(key.instance)].graph.nodes[Int(key.node)].span
                    throw RuntimeError("more than \(Interpreter.maxEventsPerInstant) events at \(time.eventStamp)s: a loop here does not advance time",
                                       at: span, help: "give the repeated steps a duration")
                }
                try handle(action)
            } catch {
                cancel(instance: Int(key.instance))
                sink.emit(.runtimeError(time: time, diagnostic: error.diagnostic))
                throw error
            }
        }
        if t > time { time = t }
    }

    /// Plays until no graph is running or the next event is after `limit`; returns the time of
    /// the last event fired (the moment everything finished), or the clock if none fired.
    public func advanceUntilIdle(limit: Time = .max) throws(RuntimeError) -> Time {
        var last = time
        while let next = queue.nextTime, next <= limit {
            try advance(to: next)
            last = next
        }
        return last
    }

    /// The first running graph that can never finish, with the node that makes it so.
    public var endlessGraph: GraphNode? {
        for i in instances where i.running {
            if case .forever = i.graph.duration { return i.graph.firstForeverNode ?? i.graph.nodes[0] }
        }
        return nil
    }

    /// When the named step last ran: its start and, once over, its end.
    public func run(of name: StepNameID) -> (start: Time, end: Time?)? { stepRuns[name] }

    // MARK: - Starting graphs

    /// Starts a graph at time `at` (not before the clock).
    public func start(_ graph: SequencerGraph, at: Time) {
        let instance = Int32(instances.count)
        // Graphs without locals share environment 0, so ten thousand one-line graphs cost no arrays.
        var env: Int32 = 0
        if graph.localCount > 0 {
            envs.append([Value](repeating: .number(0), count: graph.localCount))
            env = Int32(envs.count - 1)
        }
        instances.append(Instance(graph: graph, env: env, root: -1, running: true, start: at, end: nil))
        let root = newFrame(node: 0, instance: instance, parent: -1, start: at)
        instances[Int(instance)].root = root
        queue.push(at, instance: instance, node: 0, .start(root))
    }

    func newFrame(node: Int32, instance: Int32, parent: Int32, start: Time) -> Int32 {
        let f = Frame(node: node, instance: instance, parent: parent, state: 0, count: 0, segment: -1, start: start)
        if let i = freeFrames.popLast() { frames[Int(i)] = f; return i }
        frames.append(f)
        return Int32(frames.count - 1)
    }

    /// Schedules a child node to start at `t`.
    func startChild(of parent: Int32, node: NodeID, at t: Time) {
        let p = frames[Int(parent)]
        let child = newFrame(node: node.index, instance: p.instance, parent: parent, start: t)
        queue.push(t, instance: p.instance, node: node.index, .start(child))
    }

    // MARK: - Events

    func handle(_ action: EventAction) throws(RuntimeError) {
        switch action {
        case .start(let f): try startFrame(f)
        case .begin(let f): try beginTween(f)
        case .end(let f):
            if frames[Int(f)].segment >= 0 { endTween(f) }
            finish(f)
        }
    }

    func startFrame(_ f: Int32) throws(RuntimeError) {
        let frame = frames[Int(f)]
        let inst = instances[Int(frame.instance)]
        let node = inst.graph.nodes[Int(frame.node)]
        if let name = node.name { stepRuns[name] = (time, nil) }
        switch node.kind {
        case .action(let a):
            try perform(a, env: inst.env, span: node.span)
            finish(f)
        case .wait(let e):
            let d = try duration(e, env: inst.env, what: "a wait")
            if d.ticks == 0 { finish(f) } else { queue.push(time + d, instance: frame.instance, node: frame.node, .end(f)) }
        case .tween(let spec):
            let delay = try spec.delay.map { e throws(RuntimeError) in try duration(e, env: inst.env, what: "a delay") } ?? .zero
            if delay.ticks > 0 {
                queue.push(time + delay, instance: frame.instance, node: frame.node, .begin(f))
            } else {
                try beginTween(f)
            }
        case .sequence(let children):
            if children.isEmpty { finish(f); return }
            frames[Int(f)].state = 0
            startChild(of: f, node: children[0], at: time)
        case .parallel(let children):
            if children.isEmpty { finish(f); return }
            frames[Int(f)].state = children.count
            for c in children { startChild(of: f, node: c, at: time) }
        case .repeat(let countExpr, let body):
            var count = Int.max
            if let e = countExpr {
                let n = try number(e, env: inst.env)
                guard n >= 0, n == n.rounded(), n < 1e15 else {
                    throw RuntimeError("a repeat count must be a whole number of at least 0, not \(formatNumber(n))", at: e.span)
                }
                count = Int(n)
            }
            if count == 0 { finish(f); return }
            frames[Int(f)].count = count
            frames[Int(f)].state = 0
            startChild(of: f, node: body, at: time)
        }
    }

    /// A frame is over: tell its parent, walking up while parents end too (no recursion).
    func finish(_ f: Int32) {
        var current = f
        while true {
            let frame = frames[Int(current)]
            let inst = instances[Int(frame.instance)]
            if let name = inst.graph.nodes[Int(frame.node)].name { stepRuns[name] = (stepRuns[name]?.start ?? frame.start, time) }
            freeFrames.append(current)
            let p = frame.parent
            guard p >= 0 else {
                instances[Int(frame.instance)].running = false
                instances[Int(frame.instance)].end = time
                return
            }
            let parent = frames[Int(p)]
            switch inst.graph.nodes[Int(parent.node)].kind {
            case .sequence(let children):
                let next = parent.state + 1
                frames[Int(p)].state = next
                if next < children.count { startChild(of: p, node: children[next], at: time); return }
            case .parallel:
                frames[Int(p)].state -= 1
                if frames[Int(p)].state > 0 { return }
            case .repeat(_, let body):
                let done = parent.state + 1
                frames[Int(p)].state = done
                if done < parent.count { startChild(of: p, node: body, at: time); return }
            case .tween, .wait, .action:
                break
            }
            current = p
        }
    }

    /// Stops a graph: drops its pending events and leaves its properties where they are now.
    public func cancel(instance i: Int) {
        guard instances[i].running else { return }
        let inst = Int32(i)
        queue.removeAll { a in
            switch a {
            case .start(let f), .begin(let f), .end(let f): frames[Int(f)].instance == inst
            }
        }
        for (key, o) in owners where segments[Int(o.segment)].instance == inst {
            let s = segments[Int(o.segment)]
            scene.setBase(s.tracks[Int(o.track)].shape, s.tracks[Int(o.track)].property, s.value(track: Int(o.track), at: time))
            owners[key] = nil
        }
        instances[i].running = false
        instances[i].end = time
    }

    /// Stops every graph (REPL `:reset` builds a new interpreter instead; this is for errors).
    public func cancelAll() {
        for i in instances.indices { cancel(instance: i) }
    }
}
