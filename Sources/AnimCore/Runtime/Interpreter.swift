// Interpreter: plays sequencer graphs on the virtual clock. Each started graph is an instance
// with its own local clock (an affine map of its parent's clock: speed, pause, direction); each
// running node is a frame in a flat array. Events — a frame starting, a tween beginning after
// its delay, a timed node ending — wait in one queue in global time, ordered by (time, graph
// order), and keep their local time so a changed clock can reschedule them. `advance(to:)`
// fires every event up to a time: the cost of a run grows with its events, not its duration.
//
// Its state is split by concern: the Scheduler (the queue and the parked events), the
// instances with their graphs, clocks (Instance.swift) and recordings, the frames and locals,
// the TrackPool (running segments, their tracks, who writes each property), the named steps,
// and the Recorder (the history the renderers and the sampler read, and the activity log).

/// A run-time failure: what went wrong and where in the script.
public struct RuntimeError: Error, Sendable {
    /// The diagnostic to show.
    public var diagnostic: Diagnostic
    /// Creates an error at a span.
    public init(_ message: String, at span: Span, notes: [String] = [], help: String? = nil) {
        diagnostic = .error(message, at: span, notes: notes, help: help)
    }
    init(_ e: ValueError) { diagnostic = .error(e.message, at: e.span) }

    /// Whether the clock was stopped from outside (`Interpreter.shouldStop`), not by the script:
    /// nothing failed, no graph was stopped, and nothing was reported.
    public internal(set) var isInterruption = false

    /// Whether the run stopped because it could never end (`repeat forever` without
    /// `--until`): the span is the step that never ends.
    public internal(set) var isEndless = false

    /// The clock stopped at `time` because `shouldStop` asked it to.
    static func interruption(at time: Time) -> RuntimeError {
        var e = RuntimeError("interrupted at \(time.eventStamp)s", at: .none)
        e.isInterruption = true
        return e
    }
}

/// Runs graphs against a scene on the virtual clock.
public final class Interpreter {
    /// The shapes and their base values.
    public internal(set) var scene = Scene()
    /// The values of top-level `let` bindings, by slot.
    var globals: [Value] = []
    /// The random generator (reseeded by `seed`).
    var rng: RandomGenerator
    /// `--seed`, which mixes into every `seed` statement.
    let seedOverride: UInt64?
    /// The instant being processed, or the instant the clock is held at.
    public internal(set) var time = Time.zero
    /// Where events go.
    unowned(unsafe) var sink: RunEventSink
    /// When set, actions do not print or check (seeking, timing-only runs).
    public var silent = false
    /// How many expectations have failed.
    public internal(set) var expectFailures = 0
    /// Property names by id, for messages (kept in step with the Environment by the Session).
    public var propertyNames: [String] = BuiltinProperty.allCases.map(\.name)
    /// The define instantiations `play` nodes refer to (kept in step by the Session).
    public var instantiations: [Instantiation] = []

    /// When things happen: the queue of events, and the events that wait.
    var scheduler = Scheduler()
    /// Every graph started (or child graph), in creation order, with its clock.
    var instances: [Instance] = []
    /// The graphs instances play (`Instance.graph`): each started graph once, which its child
    /// instances share.
    var graphs: [SequencerGraph] = []
    /// For each graph in `graphs`, where its plans' timings start in `planTimings`.
    var planTimingStarts: [Int32] = []
    /// Each graph plan's timing interned in `pool.tables`, or −1 until a tween of that plan
    /// first begins: a planned tween then reads an index instead of comparing its timing and
    /// easing with the tables' (callgrind: about 900 instructions a tween, 4,945 tweens of
    /// lsp-5000). The tables keep every timing, so an index stays good for the run.
    var planTimings: [Int32] = []
    /// What the instances that record what they play have played (`Instance.recording`).
    var recordings: [Recording] = []
    /// Running nodes, and the slots of those that ended.
    var frames: [Frame] = []
    var freeFrames: [Int32] = []
    /// Locals by environment; environment 0 is the scratch space for top-level expressions.
    var envs: [[Value]] = [[]]
    var freeEnvs: [Int32] = []
    /// The running tweens and springs, and who writes each property.
    var pool = TrackPool()
    /// Named steps: each one's latest run, and the steps waiting for them.
    var steps = NamedSteps()
    /// The timed tweens running, by frame (`TweenRun`).
    var tweenRuns: [Int32: TweenRun] = [:]
    /// `save` snapshots.
    var saved: [ShapeID: [Value?]] = [:]
    /// An error found where it cannot be thrown (while walking up finished frames).
    var pendingError: RuntimeError?
    /// `any` frames whose step has ended while some of their chains go on, by frame: their
    /// instance (so a run that never ends because such a chain never does is found).
    var lingeringAny: [Int32: Int32] = [:]
    /// Frames that began a step that never ends where their graph's static duration could not
    /// say so (an `if` or `choose` branch, an `any` chain, a played define's, a `repeat while`
    /// whose condition nothing can change), by frame: their instance. A frame leaves when it
    /// finishes; an entry whose instance was stopped is passed over.
    var endlessFrames: [Int32: Int32] = [:]
    /// Set when a frame joins `endlessFrames`: the session's play loop asks `endlessGraph`
    /// again (and clears it), so the run stops as the decision is made, not never.
    public var endlessBegan = false
    /// For each running `repeat while`: the instant its latest pass started and how many
    /// passes started at that instant (the limit on passes that take no time).
    var instantPasses: [Int32: (time: Time, passes: Int)] = [:]
    /// Counts the property writes made (every `setBase` and `setOwner`, recorded or not).
    var writes = 0
    /// For each running `repeat while` whose condition reads properties (no pass index): what
    /// the run had written (`writes`) and drawn (the generator) just before its
    /// condition was last read. A pass that took time and left both alone, its condition still
    /// holding, is a still pass: it joins `stillLoops`.
    var passMarks: [Int32: (writes: Int, rng: RandomGenerator)] = [:]
    /// The `repeat while` frames (in `endlessFrames` too) whose latest pass was still, with
    /// `writes` when its condition was read (−1 for a body that cannot write what its
    /// condition reads, `bodyCannotReachCondition`, whose own writes do not count): if nothing has been written since and nothing but
    /// the loop itself has anything left to do, nothing can change what the condition reads,
    /// so it never ends (`endlessFrame` asks). A pass that writes or draws takes the frame out.
    var stillLoops: [Int32: Int] = [:]
    /// What is kept of the run for later: its history and activity log, when asked.
    var recorder = Recorder()
    /// Takeovers of running tweens, when `anim check` asks for them.
    public var overwrites: [Overwrite]?
    /// Whether to note in `releasedKeys` the properties that stop being moved (the Session sets
    /// it when `on change` observers watch: they look once more at the instant a change ends).
    public var notesReleases = false
    /// The properties that stopped being moved — a tween ended, a spring settled, a replay, a
    /// `set` or an interrupt let them go — since the Session last cleared the list.
    public var releasedKeys: [PropertyKey] = []
    /// Asked now and then while the clock runs (see `stopCheckInterval`); true stops it between
    /// two events with an interruption error (RuntimeError.isInterruption), leaving every graph
    /// as it was. The REPL's Ctrl-C and the fuzzers' work budget come through here.
    public var shouldStop: (() -> Bool)?

    /// Events allowed at one instant before the run is stopped as a loop that does not advance
    /// time (`repeat forever < print "x" >`). Ten million is far above any real script.
    public static let maxEventsPerInstant = 10_000_000
    /// The deepest nesting of `play` and named chains. A define that plays itself nests one
    /// level per pass; this bounds the memory such a loop can take.
    public static let maxInstanceDepth = 100_000
    /// The most passes of a `repeat N` block: exact as a Double, and more passes than the
    /// clock has nanoseconds in eleven days. Beyond it, `repeat forever` says what is meant.
    public static let maxRepeatCount = 1_000_000_000_000_000
    /// Passes of one `repeat while` that may start at one instant (its passes take no time and
    /// its condition still holds) before the run is stopped (Grammar.md §11).
    public static let maxPassesPerInstant = 100_000
    /// How many events (or clock moves) pass between two calls of `shouldStop`: often enough
    /// that Ctrl-C answers within a millisecond, rarely enough to cost nothing.
    public static let stopCheckInterval = 1024

    /// Named steps' runs and the steps that wait for them.
    struct NamedSteps {
        /// The latest run of each named step.
        var runs = Interpreter.StepRuns()
        /// Named instances that first wait for another named step (`after a < … > as b`) and
        /// whose block has not started yet: their runs have no start so far.
        var unstarted: Set<Int32> = []
        /// `after`/`with` frames waiting for a named step to start or end.
        var waiters: [StepNameID: [Int32]] = [:]
        /// `after NAME - D` frames whose block is scheduled ahead, `D` before the end NAME's
        /// clock predicts, with the block's frame not started yet: a later change of NAME's
        /// clock (`speed`, `pause`, `seek`, `interrupt`…) moves them (`rewaitEarly`).
        var early: [StepNameID: [(waiter: Int32, body: Int32)]] = [:]
    }

    /// The latest run of a named step.
    struct StepRun {
        var instance: Int32
        /// When it started: when its instance did, or for a step that first waits for another
        /// named step (`after`/`with`), when its block did (nil until then).
        var start: Time?
        var end: Time?
    }

    /// A running node.
    /// A tween with Web Animations timing beyond the plain one, while its step runs
    /// (`Interpreter.startTimedTween`): its timing, where its active interval starts, when it
    /// lands and when its step ends (nil: never), and with `fill none` or `backwards` the values
    /// beneath it, one per track.
    struct TweenRun {
        var timing: TweenTiming
        var origin: Time
        var land: Time?
        var end: Time?
        var beneath: [Value?]
    }

    struct Frame {
        var node: Int32
        var instance: Int32
        var parent: Int32
        /// Sequence: the running child. Parallel and stagger: children still running. Repeat: passes done.
        var state: Int
        /// Repeat: passes in all (Int.max: forever).
        var count: Int
        /// Tween or spring: its segment. Play, spawn, yoyo repeat: the child instance.
        var segment: Int32
        /// When it started, in its instance's local time.
        var start: Time
        /// Its locals.
        var env: Int32
        /// Whether the environment was made for this frame (and is freed with it).
        var ownsEnv: Bool
    }

    /// Creates an interpreter that reports to `sink`.
    public init(sink: RunEventSink, seed: UInt64?) {
        self.sink = sink
        self.seedOverride = seed
        self.rng = RandomGenerator(seed: seed ?? RandomGenerator.defaultSeed)
    }

    // MARK: - Clock

    /// Whether anything is left to happen.
    public var isIdle: Bool { scheduler.queue.isEmpty }

    /// Whether any property is being moved right now (a tween, spring or replay owns it).
    public var isMoving: Bool { !pool.owners.isEmpty }

    /// Whether a property is being moved right now.
    public func isMoving(_ key: PropertyKey) -> Bool {
        if pool.owners[key] != nil { return true }
        guard key.property.isComponent || !pool.split.isEmpty else { return false }
        let w = wholeKey(key)
        if let c = key.property.componentIndex {
            // A component moves with its point's owner unless it was taken from it.
            return pool.owners[w] != nil && (pool.split[w] ?? 0) & Interpreter.componentBit(c) == 0
        }
        return pool.owners[PropertyKey(w.shape, w.property.component(0))] != nil
            || pool.owners[PropertyKey(w.shape, w.property.component(1))] != nil
    }

    /// The time of the next pending event.
    public var nextEventTime: Time? { scheduler.queue.nextTime }

    /// Fires every event at or before `t` in order, then holds the clock at `t`.
    /// On a run-time error the failing graph is stopped, the error reported, and rethrown.
    public func advance(to t: Time) throws(RuntimeError) {
        if shouldStop != nil { try pollStop() }
        while let next = scheduler.queue.nextTime, next <= t {
            if shouldStop != nil { try pollStop() }
            let e = scheduler.queue.pop()!
            if e.key.time != time { time = e.key.time; scheduler.eventsThisInstant = 0 }
            scheduler.eventsThisInstant += 1
            do throws(RuntimeError) {
                if scheduler.eventsThisInstant > Interpreter.maxEventsPerInstant {
                    let inst = instances[Int(e.key.instance)]
                    throw RuntimeError("more than \(Interpreter.maxEventsPerInstant) events at \(time.eventStamp)s: a loop here does not advance time",
                                       at: graphs[Int(inst.graph)].nodes[Int(e.key.node)].span, help: "give the repeated steps a duration")
                }
                try handle(e)
                if let pending = pendingError { pendingError = nil; throw pending }
                flushHistory()
            } catch {
                cancel(instance: Int(topmost(e.key.instance)))
                sink.emit(.runtimeError(time: time, diagnostic: error.diagnostic))
                throw error
            }
        }
        if t > time { time = t }
    }

    /// Counts one unit of work and, every `stopCheckInterval` of them, asks `shouldStop`.
    func pollStop() throws(RuntimeError) {
        scheduler.untilStopCheck -= 1
        guard scheduler.untilStopCheck <= 0 else { return }
        scheduler.untilStopCheck = Interpreter.stopCheckInterval
        if let stop = shouldStop, stop() { throw RuntimeError.interruption(at: time) }
    }

    /// The first running graph that can never finish, with the node that makes it so.
    public var endlessGraph: GraphNode? {
        for i in instances where i.running && i.parent < 0 && !i.paused {
            if case .forever = graphs[Int(i.graph)].nodes[Int(i.root)].duration {
                return graphs[Int(i.graph)].firstForeverNode ?? graphs[Int(i.graph)].nodes[Int(i.root)]
            }
            if let node = graphs[Int(i.graph)].foreverChainOfAny(under: NodeID(Int(i.root))) { return node }
        }
        // An `any` that has ended while a chain that never ends goes on.
        for (f, i) in lingeringAny.sorted(by: { $0.key < $1.key }) where clockRate(i) != 0 {
            let g = graphs[Int(instances[Int(i)].graph)]
            for c in g.children(of: NodeID(Int(frames[Int(f)].node))) where g.nodes[Int(c.index)].duration == .forever {
                return g.firstForeverNode(under: c) ?? g.nodes[Int(c.index)]
            }
        }
        return endlessFrame { _ in true }
    }

    /// The node of the first frame in `endlessFrames` (in frame order) still playing in an
    /// instance that `includes`: it never ends, so neither does its graph.
    func endlessFrame(in includes: (Int32) -> Bool) -> GraphNode? {
        guard !endlessFrames.isEmpty else { return nil }
        for (f, i) in endlessFrames.sorted(by: { $0.key < $1.key }) where instances[Int(i)].running && clockRate(i) != 0 && includes(i) {
            let g = graphs[Int(instances[Int(i)].graph)]
            // A still `repeat while` is endless only while nothing outside it could still write.
            if !stillLoops.isEmpty, let w = stillLoops[f],
               w >= 0 ? w != writes || !onlyActivity(under: f) : !onlyActivity(under: f) || !loopConditionHolds(f) { continue }
            let id = NodeID(Int(frames[Int(f)].node))
            // A `repeat while` is endless itself; elsewhere the `repeat forever` inside is the cause.
            if g[id].repeatLoop != nil { return g[id] }
            return g.firstForeverNode(under: id) ?? g[id]
        }
        return nil
    }

    /// The node that makes the latest run of a named step one that never ends: its graph's
    /// own, or one begun since (nil if it can end, or has not started).
    public func endlessNode(ofStep name: StepNameID) -> GraphNode? {
        guard let run = steps.runs[name], instances[Int(run.instance)].running, clockRate(run.instance) != 0 else { return nil }
        return endlessNode(ofInstance: run.instance)
    }

    /// The node that makes a running instance (with what it started) one that never ends.
    public func endlessNode(ofInstance i: Int32) -> GraphNode? {
        let inst = instances[Int(i)]
        guard inst.running else { return nil }
        let g = graphs[Int(inst.graph)]
        if case .forever = g.nodes[Int(inst.root)].duration { return g.firstForeverNode(under: NodeID(Int(inst.root))) ?? g.nodes[Int(inst.root)] }
        return endlessFrame { x in
            var y = x
            while y >= 0 && y != i { y = instances[Int(y)].parent }
            return y == i
        }
    }

    /// The running instances that have begun a step that never ends, and their ancestors.
    var instancesBeganEndless: Set<Int32> {
        var out = Set<Int32>()
        for (_, i) in endlessFrames where instances[Int(i)].running {
            var x = i
            while x >= 0, out.insert(x).inserted { x = instances[Int(x)].parent }
        }
        return out
    }

    /// A frame begins the step of `node`: when the step never ends though nothing above it in
    /// its graph said so, the run has just become one that never ends.
    func noteEndlessStart(_ f: Int32, node: Int32) {
        let i = frames[Int(f)].instance
        guard case .forever = graphs[Int(instances[Int(i)].graph)].nodes[Int(node)].duration else { return }
        let frame = frames[Int(f)]
        let g = graphs[Int(instances[Int(i)].graph)]
        let above: Int32
        if frame.parent >= 0 {
            above = frames[Int(frame.parent)].node
        } else if instances[Int(i)].parent >= 0 {
            above = instances[Int(i)].parentNode
            guard above >= 0 else { return }
            if case .forever = graphs[Int(instances[Int(instances[Int(i)].parent)].graph)].nodes[Int(above)].duration { return }
            markEndless(f)
            return
        } else {
            return  // a top-level graph that never ends: its static duration says so
        }
        if case .forever = g.nodes[Int(above)].duration { return }
        markEndless(f)
    }

    /// Whether every event still queued or parked belongs to frame `f` or what it started: no
    /// other step, graph or REPL entry is left that could write a property.
    func onlyActivity(under f: Int32) -> Bool {
        func under(frame g: Int32, instance: Int32) -> Bool {
            var x = g, i = instance
            while true {
                if x == f { return true }
                if x >= 0 {
                    x = frames[Int(x)].parent
                    continue
                }
                // The root of an instance: go on from the frame that started it (a play, a spawn).
                let pf = instances[Int(i)].parentFrame
                guard pf >= 0 else { return false }
                x = pf
                i = frames[Int(pf)].instance
            }
        }
        func belongs(_ e: QueuedEvent) -> Bool {
            switch e.action {
            case .start(let g), .begin(let g), .end(let g), .land(let g), .nextPass(let g): under(frame: g, instance: e.key.instance)
            case .replayAction(let i, _), .replayLimit(let i): under(frame: -1, instance: i)
            }
        }
        return scheduler.queue.allSatisfy(belongs) && scheduler.parked.allSatisfy(belongs)
    }

    /// Adds a frame to `endlessFrames`.
    func markEndless(_ f: Int32) {
        endlessFrames[f] = frames[Int(f)].instance
        endlessBegan = true
    }

    /// When the named step last ran: its start and, once over, its end (nil until it starts).
    public func run(of name: StepNameID) -> (start: Time, end: Time?)? {
        steps.runs[name].flatMap { r in r.start.map { ($0, r.end) } }
    }

    /// The top-level ancestor of an instance.
    func topmost(_ i: Int32) -> Int32 {
        var x = i
        while instances[Int(x)].parent >= 0 { x = instances[Int(x)].parent }
        return x
    }

    // MARK: - Starting graphs

    /// Makes room at once for what statements about to run make at least: `shapes` shapes,
    /// and `graphs` started graphs (each an instance with a root frame), so that a script of
    /// many statements does not copy these arrays as they grow. A caller that has the graphs
    /// can say more: `plays` `play` nodes (each a child instance playing a graph added to
    /// `graphs`), `spawns` named-chain nodes (each a child instance), and `nodes` nodes in
    /// all, about the activities the run logs when it logs them (a leaf is one activity, a
    /// sequence or block none, a repeat's body one a pass).
    public func reserve(shapes: Int, graphs: Int, plays: Int = 0, spawns: Int = 0, nodes: Int = 0) {
        scene.reserve(shapes: shapes)
        self.graphs.reserveRoom(for: graphs + plays)
        instances.reserveRoom(for: graphs + plays + spawns)
        frames.reserveRoom(for: graphs)
        if nodes > 0, recorder.activityLog != nil { recorder.activityLog!.activities.reserveRoom(for: nodes) }
    }

    /// Starts a graph at global time `at` (not before the clock). The graph is taken, so a
    /// caller that lets go of it hands it over to `graphs` without retaining its arrays.
    public func start(_ graph: consuming SequencerGraph, at: Time) {
        // Graphs without locals share environment 0, so ten thousand one-line graphs cost no arrays.
        var env: Int32 = 0
        if graph.localCount > 0 { env = newEnv([Value](repeating: .number(0), count: graph.localCount)) }
        let i = newInstance(graph: add(graph: consume graph), root: 0, env: env, parent: -1, parentFrame: -1, speed: 1, localStart: .zero,
                            parentClock: at)
        recordIfHoldingNamedSteps(i)
        scheduleRoot(i)
    }

    /// The `as` name of a node (not inlined, so the graph is read in place).
    @inline(never)
    func stepName(_ graph: Int32, _ node: Int32) -> StepNameID? { graphs[Int(graph)].nodes[Int(node)].name }

    /// The graph an instance plays.
    func graph(ofInstance i: Int) -> SequencerGraph { graphs[Int(instances[i].graph)] }

    /// Keeps a graph for instances to play; returns its index in `graphs`. Taken, not
    /// borrowed: a started graph moves in (its plans counted first).
    func add(graph: consuming SequencerGraph) -> Int32 {
        let plans = graph.plans.count
        graphs.append(graph)
        planTimingStarts.append(Int32(planTimings.count))
        if plans > 0 { planTimings.append(contentsOf: repeatElement(-1, count: plans)) }
        return Int32(graphs.count - 1)
    }

    /// Creates an instance whose local time `localStart` corresponds to its parent's clock `parentClock`.
    func newInstance(graph: Int32, root: Int32, env: Int32, parent: Int32, parentFrame: Int32, speed: Double,
                     localStart: Time, parentClock: Time) -> Int32 {
        let index = Int32(instances.count)
        let name = stepName(graph, root)
        let depth = parent >= 0 ? instances[Int(parent)].depth + 1 : 0
        instances.append(Instance(graph: graph, root: root, rootFrame: -1, env: env, parent: parent, parentFrame: parentFrame,
                                  name: name, running: true, start: .zero, end: nil, anchorLocal: localStart, anchorParent: parentClock,
                                  speed: speed, direction: 1, paused: false, depth: depth))
        if parent >= 0 && !instances[Int(parent)].recorders.isEmpty { instances[Int(index)].recorders = instances[Int(parent)].recorders }
        if name != nil { enableRecording(index) }
        if parent >= 0 { instances[Int(parent)].children.append(index) }
        instances[Int(index)].startInParent = parentClock
        refreshClocks(index)
        instances[Int(index)].start = globalTime(index, localStart) ?? time
        return index
    }

    /// Schedules an instance's root frame at its local start.
    func scheduleRoot(_ i: Int32) {
        let node = instances[Int(i)].root, local = instances[Int(i)].anchorLocal
        let root = newFrame(node: node, instance: i, parent: -1, start: local, env: instances[Int(i)].env, ownsEnv: false)
        instances[Int(i)].rootFrame = root
        schedule(i, local: local, node: node, .start(root))
    }

    func newFrame(node: Int32, instance: Int32, parent: Int32, start: Time, env: Int32, ownsEnv: Bool) -> Int32 {
        let f = Frame(node: node, instance: instance, parent: parent, state: 0, count: 0, segment: -1, start: start,
                      env: env, ownsEnv: ownsEnv)
        if let i = freeFrames.popLast() { frames[Int(i)] = f; return i }
        frames.append(f)
        return Int32(frames.count - 1)
    }

    func newEnv(_ values: [Value]) -> Int32 {
        if let i = freeEnvs.popLast() { envs[Int(i)] = values; return i }
        envs.append(values)
        return Int32(envs.count - 1)
    }

    /// Schedules a child node of `parent` to start at local time `at`; returns the child's frame.
    @discardableResult
    func startChild(of parent: Int32, node: NodeID, at t: Time, env: Int32? = nil, ownsEnv: Bool = false) -> Int32 {
        let p = frames[Int(parent)]
        let child = newFrame(node: node.index, instance: p.instance, parent: parent, start: t, env: env ?? p.env, ownsEnv: ownsEnv)
        schedule(p.instance, local: t, node: node.index, .start(child))
        return child
    }

    /// Queues an event at an instance's local time (scheduler.parked while the instance's clock is stopped).
    func schedule(_ i: Int32, local: Time, node: Int32, _ action: EventAction) {
        let e = QueuedEvent(key: EventKey(time: .max, instance: i, node: node, seq: 0), action: action, local: local)
        if !isReplayParked(e), !isParked(i), let g = globalTime(i, local) {
            scheduler.queue.push(max(g, time), instance: i, node: node, local: local, action)
        } else {
            scheduler.parked.append(e)
        }
    }

    /// Whether events of an instance wait in `scheduler.parked` (it or an ancestor is paused, or it is
    /// replaying and the event belongs to live play).
    func isParked(_ i: Int32) -> Bool {
        // Speeds are positive, so a stopped composed clock means a pause on the way up.
        instances[Int(i)].clock.rate == 0
    }

    // MARK: - Events

    func handle(_ e: QueuedEvent) throws(RuntimeError) {
        switch e.action {
        case .start(let f): try startFrame(f)
        case .begin(let f): try begin(f)
        case .end(let f):
            if !tweenRuns.isEmpty, tweenRuns[f] != nil {
                landTimed(f)
                tweenRuns[f] = nil
            } else if frames[Int(f)].segment >= 0 {
                endSegment(f)
            }
            endActivity(frame: f)
            finish(f)
        case .land(let f): landTimed(f)
        case .nextPass(let f):
            // A yoyo repeat's pause is over: replay the recorded pass in the other direction.
            let child = frames[Int(f)].segment
            if child >= 0 { restartYoyo(child, pass: frames[Int(f)].state) }
        case .replayAction(let i, let k): try replayAction(i, Int(k))
        case .replayLimit(let i): replayLimit(i)
        }
    }

    /// A frame is over: tell its parent, walking up while parents end too (no recursion).
    func finish(_ f: Int32) {
        var current = f
        // False while walking up from an `any` whose other chains go on: it stays for them.
        var freesCurrent = true
        while true {
            let frame = frames[Int(current)]
            let inst = frame.instance
            if freesCurrent {
                if frame.ownsEnv { freeEnvs.append(frame.env) }
                freeFrames.append(current)
                if !endlessFrames.isEmpty { endlessFrames[current] = nil }
                if !stillLoops.isEmpty { stillLoops[current] = nil }
                if recorder.activityLog != nil { endRepeatRun(frame: current) }
            }
            freesCurrent = true
            let p = frame.parent
            guard p >= 0 else {
                instanceFinished(inst)
                return
            }
            let parent = frames[Int(p)]
            switch graphs[Int(instances[Int(inst)].graph)].nodes[Int(parent.node)].kind {
            case .sequence(let children):
                let next = parent.state + 1
                frames[Int(p)].state = next
                if next < children.count {
                    startChild(of: p, node: graphs[Int(instances[Int(inst)].graph)].child(next, of: children), at: localTime(inst))
                    return
                }
            case .parallel, .stagger, .conditional, .select(.choose, _):
                frames[Int(p)].state -= 1
                if frames[Int(p)].state > 0 { return }
            case .select(.any, _):
                // The first chain to end ends the step; the others go on, and the last of them
                // frees the frame (its parent has moved on).
                frames[Int(p)].state -= 1
                if parent.count != 0 {
                    if frames[Int(p)].state == 0 {
                        if parent.ownsEnv { freeEnvs.append(parent.env) }
                        freeFrames.append(p)
                        lingeringAny[p] = nil
                    }
                    return
                }
                frames[Int(p)].count = 1
                if frames[Int(p)].state > 0 { freesCurrent = false; lingeringAny[p] = inst }
            case .repeat(_, _, let body):
                let done = parent.state + 1
                frames[Int(p)].state = done
                let now = localTime(inst)
                let pause = try? repeatPause(p)
                let loop = graphs[Int(instances[Int(inst)].graph)].nodes[Int(parent.node)].repeatLoop
                if let loop {
                    // `for k` / `while COND`: the next pass, if any, after the pause.
                    let next = pause.flatMap { now.adding($0) } ?? now
                    do throws(RuntimeError) {
                        if try nextPass(p, loop, done: done, at: next, body: body) { return }
                    } catch {
                        if pendingError == nil { pendingError = error }
                        return
                    }
                    frames[Int(p)].start = now
                    current = p
                    continue
                }
                if parent.count == Int.max && now == parent.start && pendingError == nil && (pause ?? .zero).ticks == 0 {
                    // A pass of `repeat forever` took no time: it would loop at this instant for ever.
                    pendingError = RuntimeError("'repeat forever' would loop without end at \(time.eventStamp)s: its body takes no time",
                                                at: graphs[Int(instances[Int(inst)].graph)].nodes[Int(parent.node)].span,
                                                help: "give the repeated steps a duration, or repeat a fixed number of times")
                    return
                }
                if done < parent.count {
                    // `repeat-delay`: the next pass starts after the pause.
                    let next = pause.flatMap { now.adding($0) } ?? now
                    frames[Int(p)].start = next
                    startChild(of: p, node: body, at: next)
                    return
                }
                frames[Int(p)].start = now
            case .relative:
                break
            case .tween, .wait, .action, .spring, .play, .spawn:
                break
            }
            current = p
        }
    }

    /// An instance's root frame finished: record the end and wake whoever waits for it.
    func instanceFinished(_ i: Int32) {
        instances[Int(i)].running = false
        instances[Int(i)].end = time
        noteEnd(i)
        let pf = instances[Int(i)].parentFrame
        if pf >= 0 { childInstanceEnded(i, frame: pf) }
    }

    /// Records a named instance's end and starts the `after` steps waiting for it.
    func noteEnd(_ i: Int32) {
        let parent = instances[Int(i)].parent
        if parent >= 0 { instances[Int(parent)].children.removeAll { $0 == i } }
        if !steps.unstarted.isEmpty { steps.unstarted.remove(i) }
        guard let name = instances[Int(i)].name, steps.runs[name]?.instance == i else { return }
        // A run that ends before its block started (interrupted while it waits) starts as it ends.
        if steps.runs[name]?.start == nil { steps.runs[name]?.start = time }
        steps.runs[name]?.end = time
        // Early `after NAME - D` blocks still ahead start now: the end they counted from came.
        if steps.early[name] != nil { rewaitEarly(name) }
        wake(name)
    }

    /// Stops a graph and its children: drops their events; properties stay where they are now.
    public func cancel(instance i: Int) {
        let sub = subtree(Int32(i))
        _ = scheduler.queue.extract { sub.contains($0.key.instance) }
        scheduler.parked.removeAll { sub.contains($0.key.instance) }
        for (key, o) in pool.owners {
            let owner: Int32
            if let r = o.renderingInstance { owner = r } else { owner = pool.segments[Int(o.segment)].instance }
            guard sub.contains(owner) else { continue }
            if let v = currentValue(key) { setBase(key, v) }
            setOwner(key, nil)
        }
        for x in sub where instances[Int(x)].running {
            // An interrupted run is over, as a finished one is: a pause does not outlive it, or a
            // later reverse, seek or resume would leave it held where it rests (Grammar.md §6.13).
            // Its clock is re-anchored first, so it rests where the pause held it.
            if instances[Int(x)].paused {
                reanchor(x)
                instances[Int(x)].paused = false
            }
            instances[Int(x)].running = false
            instances[Int(x)].end = time
            instances[Int(x)].replay = nil
        }
        endActivities(in: sub)
        for x in sub { noteEnd(x) }
        if !lingeringAny.isEmpty { lingeringAny = lingeringAny.filter { !sub.contains($0.value) } }
    }

    /// An instance and all its descendants.
    func subtree(_ i: Int32) -> Set<Int32> {
        var out: Set<Int32> = [i]
        var stack = [i]
        while let x = stack.popLast() {
            for c in instances[Int(x)].children where !out.contains(c) { out.insert(c); stack.append(c) }
        }
        return out
    }

    /// How many graphs are still running.
    public var runningCount: Int { instances.filter { $0.running && $0.parent < 0 }.count }
}
