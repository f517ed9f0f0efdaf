// Recorder: what the interpreter keeps of a run for later, once asked (`recordHistory()`): the
// log of every property in global time, which renderers and the sampler read, and each shape's
// declaration — when it was made and the values it was given. A property has pieces only
// once something changes it after its declaration: the declaration is enough until then, so a
// hundred thousand shapes of which one property moves cost one row each, not nine. Pieces are
// added as the interpreter goes, in time order, which is the order the sampler activates them.
// The activity log (ActivityLog.swift) is kept here too.

/// A shape as declared: when, its kind, and the values its declaration gave it (in
/// `RunHistory.declaredProperty` and `declaredValue`); its kind's defaults say the rest.
struct DeclaredShape: Sendable {
    var created: Time
    var kind: ShapeKind
    var first: Int32
    var count: Int32
}

/// The interpreter's record of a run.
struct Recorder {
    /// Whether the history is kept.
    var isOn = false
    /// Every property's pieces after its declaration, in global time.
    var log = PropertyLog()
    /// The shapes, by id, as declared.
    var shapes: [DeclaredShape] = []
    var declaredProperty: [PropertyID] = []
    var declaredValue: [Value] = []
    /// Properties changed since the log was last brought up to date, in the order they
    /// changed: the first `dirtyCount` of `dirty` (kept, not emptied, between flushes).
    private(set) var dirty: [PropertyKey] = []
    private(set) var dirtyCount = 0

    /// Notes that what shows a property's value changed.
    @inline(__always)
    mutating func noteDirty(_ key: PropertyKey) {
        if dirtyCount < dirty.count { dirty[dirtyCount] = key } else { dirty.append(key) }
        dirtyCount += 1
    }

    /// Forgets the changes noted (the log shows them now).
    mutating func clearDirty() { dirtyCount = 0 }
    /// The recordings the log keeps for replay pieces, by instance: which version, and where.
    var keptRecordings: [Int32: (version: Int, index: Int32)] = [:]
    /// Whether the log has component rows (a point was split), which end when it is whole again.
    var hasComponentRows = false
    /// Leaf nodes' runs and replays, when recording history or checking (ActivityLog.swift).
    var activityLog: ActivityLog?

    /// A property landed at the end of its track, whose instance's clock is `clock`: it needs a
    /// piece when its last one does not show the track through that clock (the clock jumped
    /// while it ran without the log seeing it: a seek's fast-forward). Mutating, so the log is
    /// read in place.
    mutating func landed(_ key: PropertyKey, clock: ClockMap) {
        if log.lastTrackClock(of: key) != clock { noteDirty(key) }
    }

    /// Notes a shape's declaration with the values `declaredProperty[from...]` and
    /// `declaredValue[from...]` it was given (a later value for one property wins).
    mutating func declare(_ id: ShapeID, kind: ShapeKind, at t: Time, from: Int) {
        precondition(Int(id.index) == shapes.count, "shapes are declared in order")
        shapes.append(DeclaredShape(created: t, kind: kind, first: Int32(from), count: Int32(declaredValue.count - from)))
    }
}

/// A run's history as renderers read it: each shape's declaration, the log of what changed
/// after it (indexed), and the tables its tracks refer to. Its values are exactly what the
/// interpreter showed: a test compares them at every frame of every golden script.
public struct RunHistory: Sendable {
    /// What changed after the declarations, in global time.
    public let log: PropertyLog
    let tables: TrackTables
    let shapes: [DeclaredShape]
    let declaredProperty: [PropertyID]
    let declaredValue: [Value]

    init(log: PropertyLog, tables: TrackTables, shapes: [DeclaredShape], declaredProperty: [PropertyID], declaredValue: [Value]) {
        precondition(log.isIndexed)
        self.log = log
        self.tables = tables
        self.shapes = shapes
        self.declaredProperty = declaredProperty
        self.declaredValue = declaredValue
    }

    /// An empty history.
    static let empty = RunHistory(log: PropertyLog().indexedCopy(), tables: TrackTables(), shapes: [], declaredProperty: [],
                                  declaredValue: [])

    /// When a shape was declared (nil if it is not in the history).
    public func created(_ shape: ShapeID) -> Time? {
        Int(shape.index) < shapes.count ? shapes[Int(shape.index)].created : nil
    }

    /// The value of a property at global time `t`, or nil before its shape is declared (or if
    /// the shape has no such property).
    public func value(_ key: PropertyKey, at t: Time) -> Value? {
        guard let c = created(key.shape), t >= c else { return nil }
        if let p = log.piece(key, at: t) { return log.value(ofPiece: p, at: t, tables: tables) }
        return declared(key)
    }

    /// A property's value as declared.
    func declared(_ key: PropertyKey) -> Value? {
        let d = shapes[Int(key.shape.index)]
        for i in (Int(d.first)..<Int(d.first + d.count)).reversed() where declaredProperty[i] == key.property { return declaredValue[i] }
        if let b = BuiltinProperty(rawValue: Int(key.property.raw)), b.applies(to: d.kind) { return b.defaultValue(for: d.kind) }
        return nil
    }
}

extension Interpreter {
    /// Notes that what shows a property's value changed, for the history.
    @inline(__always)
    func noteChange(_ key: PropertyKey) {
        // A component shows in its point's row (the point's piece is made of its components').
        if recorder.isOn { recorder.noteDirty(key.property.isComponent ? PropertyKey(key.shape, key.property.whole) : key) }
    }

    /// Sets who writes a property, noting the change for the history.
    @inline(__always)
    func setOwner(_ key: PropertyKey, _ owner: Owner?) {
        pool.owners[key] = owner
        writes &+= 1
        noteChange(key)
        if owner == nil, notesReleases { releasedKeys.append(key) }
        if owner == nil, !pool.split.isEmpty { tidySplit(key) }
    }

    /// Sets a property's base value, noting the change for the history when it shows (a
    /// property someone writes shows its writer's value).
    @inline(__always)
    func setBase(_ key: PropertyKey, _ v: Value) {
        scene.setBase(key.shape, key.property, v)
        writes &+= 1
        if recorder.isOn && (pool.owners[key] == nil || !pool.split.isEmpty) { noteChange(key) }
    }

    /// Marks every property written by an instance's subtree (its clock changed), and the
    /// subtree's replays for the activity log.
    func markClockChange(_ sub: Set<Int32>) {
        if recorder.activityLog != nil { for x in sub { noteReplayChange(x) } }
        guard recorder.isOn else { return }
        for (key, o) in pool.owners {
            if let r = o.renderingInstance { if sub.contains(r) { noteChange(key) } } else if sub.contains(pool.segments[Int(o.segment)].instance) {
                noteChange(key)
            }
        }
    }

    /// Adds a piece for every property changed since the last flush, showing what writes it
    /// now (and brings the activity log's replays up to date).
    func flushHistory() {
        if recorder.activityLog != nil { updateReplays() }
        guard recorder.isOn, recorder.dirtyCount > 0 else { return }
        var i = 0
        while i < recorder.dirtyCount {
            var key = recorder.dirty[i]
            i += 1
            if key.property.isComponent { key = wholeKey(key) }
            if !pool.split.isEmpty, let bits = pool.split[key], bits != 0 {
                flushComposed(key, split: bits)
                continue
            }
            if recorder.hasComponentRows { flushWhole(key) }
            if let o = pool.owners[key] {
                if let r = o.renderingInstance {
                    let kept = keptRecording(r)
                    recorder.log.addReplay(key, at: time, recording: kept, fallback: scene.read(key) ?? .number(0),
                                           clock: instances[Int(r)].clock)
                } else {
                    let tr = pool.tracks[Int(o.track)]
                    recorder.log.addTrack(key, at: time, tr, clock: instances[Int(tr.instance)].clock)
                }
            } else if let v = scene.read(key) {
                recorder.log.addConstant(key, at: time, v)
            }
        }
        recorder.clearDirty()
    }

    /// Instance `i`'s recording as the history keeps it, indexed: kept again only if it changed.
    func keptRecording(_ i: Int32) -> Int32 {
        let r = Int(instances[Int(i)].recording)
        let version = r >= 0 ? recordings[r].version : -1
        if let k = recorder.keptRecordings[i], k.version == version { return k.index }
        var log = PropertyLog()
        if r >= 0 {
            recordings[r].log.index()
            log = recordings[r].log
        } else {
            log.index()
        }
        let index = recorder.log.keep(recording: log)
        recorder.keptRecordings[i] = (version, index)
        return index
    }

    /// Starts recording the history of every property (for renderers and the sampler): every
    /// shape is declared with its values now, and what moves a property now gets a piece.
    public func recordHistory() {
        recorder.isOn = true
        recorder.log = PropertyLog()
        recorder.shapes = []
        recorder.declaredProperty = []
        recorder.declaredValue = []
        recorder.keptRecordings = [:]
        recorder.hasComponentRows = false
        activities = []
        for (s, shape) in scene.shapes.enumerated() {
            let first = recorder.declaredValue.count
            for (p, v) in scene.values(of: ShapeID(s)).enumerated() {
                guard let v else { continue }
                if let b = BuiltinProperty(rawValue: p), b.applies(to: shape.kind), b.defaultValue(for: shape.kind) == v { continue }
                recorder.declaredProperty.append(PropertyID(p))
                recorder.declaredValue.append(v)
            }
            recorder.declare(ShapeID(s), kind: shape.kind, at: time, from: first)
        }
        for (key, _) in pool.owners { noteChange(key) }
        for (key, _) in pool.split { noteChange(key) }
        flushHistory()
    }

    /// The history so far, indexed for lookups (nil unless `recordHistory()` was called). It
    /// costs a pass over the log: take it once, when the run is over.
    public var history: RunHistory? {
        guard recorder.isOn else { return nil }
        return RunHistory(log: recorder.log.indexedCopy(), tables: pool.tables, shapes: recorder.shapes,
                          declaredProperty: recorder.declaredProperty, declaredValue: recorder.declaredValue)
    }
}
