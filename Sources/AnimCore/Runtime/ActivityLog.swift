// ActivityLog: what every leaf node did during a run, for timelines and charts. It says when
// a tween, spring, wait or action ran; which properties it moved, noted where its segment took
// them, so no chart has to guess; whether it retargets an earlier run of its own step (an
// observer's spring chase); and how it ran. A step can run live, be jumped over by a seek or a
// reversed play's silent run, or be replayed, backward or forward, from its instance's
// recording. The log is kept only when asked for (`recordHistory()`, `anim check`).

/// One leaf node's run, or a container's that had nothing to run (an empty block, `repeat 0`,
/// a stagger over no shapes), logged with no length.
public struct Activity: Sendable {
    /// How an activity ran.
    public enum Pass: Sendable, Equatable {
        /// Played live.
        case live
        /// Run in no time while a seek or a reversed play's silent run jumped over it: nothing
        /// of it showed on the stage.
        case skipped
        /// Activity `of` (live or skipped) replayed from its instance's recording, backward or
        /// forward: after `reverse NAME`, in `play … reversed`, in a yoyo's later passes, or
        /// after a seek back.
        case replay(of: Int, reversed: Bool)
        /// Activity `of`, which waited while its instance replayed, going on live again once
        /// the replay was back where live play had stopped.
        case resumed(of: Int)
    }

    /// The instance (index into `Timeline.graphs`).
    public var instance: Int {
        get { Int(instance32) }
        set { instance32 = Int32(newValue) }
    }
    /// The node in the instance's graph.
    public var node: NodeID
    /// When its node started (before any delay), global time.
    public var start: Time
    /// When it began (a tween's begin, after its delay), global time.
    public var begin: Time
    /// When it ended (nil: still running when the run stopped).
    public var end: Time? {
        get { endTicks == .min ? nil : Time(ticks: endTicks) }
        set { endTicks = newValue?.ticks ?? .min }
    }
    /// What it moved, in the order of its writes. For a tween or
    /// spring, these are the properties its segment took when it began. For a `set`, it is the
    /// one property it wrote.
    public var keys = ActivityKeys()
    /// Live, jumped over, replayed or resumed.
    public var pass: Pass {
        get {
            switch passKind {
            case 0: .live
            case 1: .skipped
            case 2: .replay(of: Int(passOf), reversed: passReversed)
            default: .resumed(of: Int(passOf))
            }
        }
        set {
            switch newValue {
            case .live: passKind = 0
            case .skipped: passKind = 1
            case .replay(let o, let r): passKind = 2; passOf = Int32(o); passReversed = r
            case .resumed(let o): passKind = 3; passOf = Int32(o)
            }
        }
    }
    /// The activity it retargets: a run of the same step that was still moving a property when
    /// this one took it over (an `on change` observer restarting its spring every frame).
    /// Charts draw the two as one bar.
    public var retargets: Int? {
        get { retargets32 < 0 ? nil : Int(retargets32) }
        set { retargets32 = Int32(newValue ?? -1) }
    }
    /// When the last property it moved was taken over by another step (nil: it kept them to
    /// its end).
    public var takenOver: Time? {
        get { takenOverTicks == .min ? nil : Time(ticks: takenOverTicks) }
        set { takenOverTicks = newValue?.ticks ?? .min }
    }

    /// The live (or skipped) activity this one shows: itself, or the one it replays or resumes.
    public func original(_ index: Int) -> Int {
        switch pass {
        case .replay(let o, _), .resumed(let o): return o
        case .live, .skipped: return index
        }
    }

    /// An activity that started at `start` and began at `begin`.
    init(instance: Int, node: NodeID, start: Time, begin: Time, end: Time?) {
        instance32 = Int32(instance)
        self.node = node
        self.start = start
        self.begin = begin
        endTicks = end?.ticks ?? .min
    }

    // The stored form: a few words, as a run logs one per tween (`.min` and −1 for none).
    private var instance32: Int32
    private var endTicks: Int64
    private var takenOverTicks: Int64 = .min
    private var retargets32: Int32 = -1
    private var passOf: Int32 = 0
    private var passKind: UInt8 = 0
    private var passReversed = false

    /// Its begin and end in the local time of each instance that records it, for laying it
    /// onto their replays.
    var recorded: [RecordedSpan] = []
    /// How many of its properties it still writes.
    var held: Int32 = 0
}

/// The properties an activity moved: most move one, which is kept without an allocation.
public struct ActivityKeys: RandomAccessCollection, Hashable, Sendable {
    /// The first key (shape −1: none).
    private var first = PropertyKey(ShapeID(-1), PropertyID(0))
    private var rest: [PropertyKey] = []

    /// No properties.
    public init() {}

    /// These properties.
    public init(_ keys: some Sequence<PropertyKey>) { for k in keys { append(k) } }

    public var startIndex: Int { 0 }
    public var endIndex: Int { first.shape.index < 0 ? 0 : 1 + rest.count }
    public subscript(i: Int) -> PropertyKey { i == 0 ? first : rest[i - 1] }

    /// Adds a property at the end.
    public mutating func append(_ k: PropertyKey) {
        if first.shape.index < 0 { first = k } else { rest.append(k) }
    }
}

/// An activity's span in a recording instance's local time.
struct RecordedSpan: Sendable {
    var recorder: Int32
    var begin: Time
    var end: Time?
}

/// The open activity (or repeat run) of each running frame: an array by frame id, as frames
/// are, so the look-up every finished frame makes is an index, not a hash.
struct OpenActivities {
    private var of: [Int32] = []

    subscript(f: Int32) -> Int? {
        get { Int(f) < of.count && of[Int(f)] >= 0 ? Int(of[Int(f)]) : nil }
        set {
            if Int(f) >= of.count { of.append(contentsOf: repeatElement(-1, count: max(Int(f) + 1 - of.count, of.count))) }
            of[Int(f)] = Int32(newValue ?? -1)
        }
    }

    /// Removes and returns frame `f`'s open activity.
    mutating func removeValue(forKey f: Int32) -> Int? {
        guard let k = self[f] else { return nil }
        of[Int(f)] = -1
        return k
    }

    /// The open activities with their frames, in the order they were logged.
    var sorted: [(key: Int32, value: Int)] {
        of.indices.compactMap { f in of[f] >= 0 ? (Int32(f), Int(of[f])) : nil }.sorted { $0.value < $1.value }
    }
}

/// The interpreter's log of activities.
struct ActivityLog {
    var activities: [Activity]
    /// The open activity of each running frame.
    var ofFrame = OpenActivities()
    /// Activities whose frames wait while their instance replays, by frame.
    var suspended: [Int32: Int] = [:]
    /// The activities each recording instance recorded, by instance (instances are numbered
    /// densely, so an array, not a dictionary hashed for every recorded activity).
    var byRecorder: [[Int]] = []
    /// Replays in progress: when each began, and the instance's clock since.
    var replays: [Int32: (begin: Time, clock: ClockMap)] = [:]
    /// Instances whose replay may have started, stopped or changed its clock since the last look.
    var replayCandidates: Set<Int32> = []
    /// `fastForward` calls in progress: what ends while one runs, at the instant it began, was
    /// jumped over.
    var jumping = 0
    /// The runs of `repeat` steps, for `anim check`'s critical path (charts draw the passes'
    /// leaves, so these are kept apart from `activities`).
    var repeats: [RepeatRun] = []
    /// The open run (in `repeats`) of each running repeat frame. By frame rather than in a
    /// dictionary: every frame that finishes asks, and hashing it cost 1.6 M instructions of
    /// the run of lsp-5000 (9,135 frames, 449 repeats; callgrind).
    var repeatOfFrame = OpenActivities()
}

/// One run of a `repeat` step, from its start to the end of its last pass.
public struct RepeatRun: Sendable {
    /// The instance whose frame ran it (index into `Timeline.graphs`).
    public var instance: Int
    /// The repeat node in the instance's graph.
    public var node: NodeID
    /// When it started, global time.
    public var start: Time
    /// When its last pass ended (nil: still running, or stopped).
    public var end: Time?
    /// The passes it ran.
    public var passes: Int
}

extension Interpreter {
    /// Leaf nodes' runs, when recording history or checking; replays in progress are included
    /// up to now.
    public internal(set) var activities: [Activity]? {
        get {
            guard let log = recorder.activityLog else { return nil }
            var all = log.activities
            for i in log.replays.keys.sorted() { all += replayedActivities(i, log.replays[i]!, until: time) }
            return all
        }
        set { recorder.activityLog = newValue.map { ActivityLog(activities: $0) } }
    }

    /// The runs of `repeat` steps, when logging activities.
    public var repeatRuns: [RepeatRun] { recorder.activityLog?.repeats ?? [] }

    /// A repeat frame starts its passes: logs its run.
    func beginRepeatRun(frame f: Int32) {
        guard recorder.activityLog != nil else { return }
        let fr = frames[Int(f)]
        recorder.activityLog!.repeatOfFrame[f] = recorder.activityLog!.repeats.count
        recorder.activityLog!.repeats.append(RepeatRun(instance: Int(fr.instance), node: NodeID(Int(fr.node)), start: time, end: nil, passes: 0))
    }

    /// A frame is over: if it was a repeat's, its run ends now.
    func endRepeatRun(frame f: Int32) {
        guard let k = recorder.activityLog?.repeatOfFrame.removeValue(forKey: f) else { return }
        let fr = frames[Int(f)]
        recorder.activityLog!.repeats[k].end = time
        recorder.activityLog!.repeats[k].passes = fr.count < Int.max ? fr.count : fr.state
    }

    // MARK: - Live activities

    /// Logs a leaf node's start; returns its index (-1 when not logging).
    @discardableResult
    func beginActivity(frame f: Int32) -> Int {
        guard recorder.activityLog != nil else { return -1 }
        let fr = frames[Int(f)]
        let start = globalTime(fr.instance, fr.start) ?? time
        let k = recorder.activityLog!.activities.count
        recorder.activityLog!.activities.append(Activity(instance: Int(fr.instance), node: NodeID(Int(fr.node)), start: min(start, time),
                                                         begin: time, end: nil))
        if !instances[Int(fr.instance)].recorders.isEmpty {
            recorder.activityLog!.activities[k].recorded = recordedSpans(of: fr.instance, index: k)
        }
        recorder.activityLog!.ofFrame[f] = k
        return k
    }

    /// The activity's begin in each recorder of instance `i`, noting it under each.
    func recordedSpans(of i: Int32, index k: Int) -> [RecordedSpan] {
        let recs = instances[Int(i)].recorders
        var spans: [RecordedSpan] = []
        spans.reserveCapacity(recs.count)
        for r in recs {
            let x = Int(r), n = recorder.activityLog!.byRecorder.count
            if x >= n { recorder.activityLog!.byRecorder.append(contentsOf: repeatElement([], count: max(x + 1 - n, n))) }
            recorder.activityLog!.byRecorder[x].append(k)
            spans.append(RecordedSpan(recorder: r, begin: localTime(r), end: nil))
        }
        return spans
    }

    /// Logs a leaf node's end.
    func endActivity(frame f: Int32) {
        guard recorder.activityLog != nil, let k = recorder.activityLog!.ofFrame.removeValue(forKey: f) else { return }
        closeActivity(k)
    }

    /// Ends activity `k` now, in global time and in its recorders' local times.
    func closeActivity(_ k: Int) {
        recorder.activityLog!.activities[k].end = time
        for j in recorder.activityLog!.activities[k].recorded.indices {
            recorder.activityLog!.activities[k].recorded[j].end = localTime(recorder.activityLog!.activities[k].recorded[j].recorder)
        }
        // Begun and ended at one instant of a fast-forward: jumped over, never shown.
        if recorder.activityLog!.jumping > 0, recorder.activityLog!.activities[k].begin == time, recorder.activityLog!.activities[k].pass == .live {
            recorder.activityLog!.activities[k].pass = .skipped
        }
    }

    /// Ends the activities of stopped instances (`interrupt`), and forgets suspended ones.
    func endActivities(in sub: Set<Int32>) {
        guard recorder.activityLog != nil else { return }
        for (f, k) in recorder.activityLog!.ofFrame.sorted where sub.contains(frames[Int(f)].instance) {
            recorder.activityLog!.ofFrame[f] = nil
            closeActivity(k)
        }
        for (f, _) in recorder.activityLog!.suspended where sub.contains(frames[Int(f)].instance) { recorder.activityLog!.suspended[f] = nil }
    }

    // MARK: - What an activity moved

    /// Frame `f`'s segment takes property `key` (before `take` hands it over): the key is
    /// noted for its activity; the activity writing it so far loses it, and is retargeted when
    /// it is a run of the same step.
    func logTake(_ key: PropertyKey, frame f: Int32) {
        guard recorder.activityLog != nil, let k = recorder.activityLog!.ofFrame[f] else { return }
        recorder.activityLog!.activities[k].keys.append(key)
        recorder.activityLog!.activities[k].held += 1
        guard let o = pool.owners[key], o.segment >= 0, let old = recorder.activityLog!.ofFrame[pool.segments[Int(o.segment)].frame], old != k else { return }
        loseProperty(old)
        if recorder.activityLog!.activities[k].retargets == nil && sameStep(old, k) { recorder.activityLog!.activities[k].retargets = old }
    }

    /// A `set` (or a `restore`) takes property `key` from whatever tween or spring writes it.
    func logRelease(_ key: PropertyKey) {
        guard recorder.activityLog != nil, let o = pool.owners[key], o.segment >= 0,
              let old = recorder.activityLog!.ofFrame[pool.segments[Int(o.segment)].frame] else { return }
        loseProperty(old)
    }

    /// Activity `k` lost one of its properties to another step.
    func loseProperty(_ k: Int) {
        recorder.activityLog!.activities[k].held -= 1
        if recorder.activityLog!.activities[k].held <= 0 { recorder.activityLog!.activities[k].takenOver = time }
    }

    /// Notes the property a `set` wrote.
    func logSetKey(_ key: PropertyKey, activity k: Int) {
        guard recorder.activityLog != nil, k >= 0 else { return }
        recorder.activityLog!.activities[k].keys = ActivityKeys([key])
    }

    /// Whether two activities are runs of one tween or spring step (the same source).
    func sameStep(_ a: Int, _ b: Int) -> Bool {
        let x = recorder.activityLog!.activities[a], y = recorder.activityLog!.activities[b]
        let nx = graphs[Int(instances[x.instance].graph)].nodes[Int(x.node.index)], ny = graphs[Int(instances[y.instance].graph)].nodes[Int(y.node.index)]
        switch (nx.kind, ny.kind) {
        case (.tween, .tween), (.spring, .spring): return nx.span == ny.span
        default: return false
        }
    }

    // MARK: - Replays

    /// Instance `i` starts replaying: its running activities stop showing (their frames wait
    /// until live play takes over again).
    func suspendActivities(_ i: Int32) {
        guard recorder.activityLog != nil else { return }
        let sub = subtree(i)
        for (f, k) in recorder.activityLog!.ofFrame.sorted where sub.contains(frames[Int(f)].instance) {
            recorder.activityLog!.ofFrame[f] = nil
            closeActivity(k)
            recorder.activityLog!.suspended[f] = k
        }
        recorder.activityLog!.replayCandidates.insert(i)
    }

    /// Instance `i` plays live again: the activities it suspended go on from now.
    func resumeActivities(_ i: Int32) {
        guard recorder.activityLog != nil else { return }
        let sub = subtree(i)
        for (f, k) in recorder.activityLog!.suspended.sorted(by: { $0.value < $1.value }) where sub.contains(frames[Int(f)].instance) {
            recorder.activityLog!.suspended[f] = nil
            let old = recorder.activityLog!.activities[k]
            var a = Activity(instance: old.instance, node: old.node, start: time, begin: time, end: nil)
            a.keys = old.keys
            a.held = Int32(old.keys.count)
            a.pass = .resumed(of: old.original(k))
            let n = recorder.activityLog!.activities.count
            a.recorded = recordedSpans(of: frames[Int(f)].instance, index: n)
            recorder.activityLog!.activities.append(a)
            recorder.activityLog!.ofFrame[f] = n
        }
        recorder.activityLog!.replayCandidates.insert(i)
    }

    /// Something about instance `i`'s replay may have changed (it was scheduled, or its clock
    /// moved); looked at when the history is next brought up to date.
    func noteReplayChange(_ i: Int32) {
        guard recorder.activityLog != nil, instances[Int(i)].recording >= 0 else { return }
        recorder.activityLog!.replayCandidates.insert(i)
    }

    /// Opens and closes replays: an instance replays while it plays from its recording with a
    /// running clock. A replay whose clock changed (reversed, paused, sped) closes and a new
    /// one opens; a closed one becomes activities.
    func updateReplays() {
        guard recorder.activityLog != nil, !(recorder.activityLog!.replayCandidates.isEmpty && recorder.activityLog!.replays.isEmpty) else { return }
        let look = recorder.activityLog!.replayCandidates.union(recorder.activityLog!.replays.keys).sorted()
        recorder.activityLog!.replayCandidates.removeAll(keepingCapacity: true)
        for i in look {
            let inst = instances[Int(i)]
            let playing = inst.replay != nil && inst.running && inst.clock.rate != 0
            if let open = recorder.activityLog!.replays[i] {
                if playing && open.clock.rate == inst.clock.rate && open.clock(time) == inst.clock(time) { continue }
                recorder.activityLog!.activities += replayedActivities(i, open, until: time)
                recorder.activityLog!.replays[i] = nil
            }
            if playing { recorder.activityLog!.replays[i] = (time, inst.clock) }
        }
    }

    /// The activities a replay of instance `i` showed from its begin until `end`: each
    /// tween, spring and wait it recorded, cut to the stretch of local time the replay
    /// crossed, in global time. Replayed actions are logged as they fire (`logReplayedAction`).
    func replayedActivities(_ i: Int32, _ pass: (begin: Time, clock: ClockMap), until end: Time) -> [Activity] {
        guard end > pass.begin, let log = recorder.activityLog else { return [] }
        let c = pass.clock
        let u0 = c(pass.begin), u1 = c(end)
        let lo = min(u0, u1), hi = max(u0, u1)
        /// The global time at which the replay's playhead is at local time `u`.
        let back = ClockMap(global: pass.begin, local: u0, rate: c.rate)
        func global(_ u: Time) -> Time { back.inverse(u) ?? pass.begin }
        var out: [Activity] = []
        for k in Int(i) < log.byRecorder.count ? log.byRecorder[Int(i)] : [] {
            let a = log.activities[k]
            if case .replay = a.pass { continue }
            switch graphs[Int(instances[a.instance].graph)].nodes[Int(a.node.index)].kind {
            case .tween, .spring, .wait: break
            default: continue
            }
            guard let span = a.recorded.first(where: { $0.recorder == i }) else { continue }
            let b = max(span.begin, lo), e = min(span.end ?? hi, hi)
            guard e > b else { continue }
            let g0 = min(max(global(b), pass.begin), end), g1 = min(max(global(e), pass.begin), end)
            var r = Activity(instance: a.instance, node: a.node, start: min(g0, g1), begin: min(g0, g1), end: max(g0, g1))
            r.keys = a.keys
            r.pass = .replay(of: a.original(k), reversed: c.rate < 0)
            out.append(r)
        }
        return out
    }

    /// A replay of instance `i` fires a recorded action again, which was activity `k`.
    func logReplayedAction(_ i: Int32, activity k: Int) {
        guard recorder.activityLog != nil, k >= 0, k < recorder.activityLog!.activities.count else { return }
        let a = recorder.activityLog!.activities[k]
        var r = Activity(instance: a.instance, node: a.node, start: time, begin: time, end: time)
        r.keys = a.keys
        r.pass = .replay(of: a.original(k), reversed: instances[Int(i)].clock.rate < 0)
        recorder.activityLog!.activities.append(r)
    }
}
