// Timeline: a whole run kept as data — every property's history (its declaration and the log
// of what changed after), the shapes, the printed messages and the graphs' spans — for the
// renderers, exporters and the sampler, which then never need the interpreter again. The
// Session produces it (Session+Timeline). It is a value with no shared mutable state, so
// several threads may read one at once (each sampling through its own Sampler).

/// A finished run, as data.
public struct Timeline: Sendable {
    /// One shape: its name, kind, and when it was declared.
    public struct ShapeInfo: Sendable {
        /// `square`, `card[2]`.
        public var name: String
        /// Rect, circle or text.
        public var kind: ShapeKind
        /// Its id in the scene.
        public var id: ShapeID
    }
    /// One started graph: where it was written, when it ran, and its name.
    public struct GraphRun: Sendable {
        /// The graph.
        public var graph: SequencerGraph
        /// Global start.
        public var start: Time
        /// Global end (nil: still running when the run stopped).
        public var end: Time?
        /// Whether it is a top-level graph (not a child instance).
        public var topLevel: Bool
        /// For a child instance (a `play`, a named chain inside a graph, a `repeat … yoyo`): the
        /// instance that started it (an index into `Timeline.graphs`) and the node of its graph
        /// that did.
        public var parent: (instance: Int, node: NodeID)?
    }

    /// Every property's life.
    public let history: RunHistory
    /// The shapes, by id.
    public var shapes: [ShapeInfo]
    /// Property names by id.
    public var propertyNames: [String]
    /// The stage's size and color.
    public var stageSize: Point
    /// The stage's background.
    public var stageColor: Color
    /// The directory image shapes' files are relative to (the script's; empty: the current one).
    public var imageDirectory = ""
    /// When the run ended.
    public var end: Time
    /// The messages printed, with their times.
    public var prints: [(time: Time, text: String)]
    /// The graphs started, in order.
    public var graphs: [GraphRun]
    /// When each tween, spring, wait and action ran, live or replayed (ActivityLog.swift).
    public var activities: [Activity]
    /// The log row of each built-in property of each shape (−1: no pieces), shape by shape, for
    /// drawing frames.
    let builtinRows: [Int32]

    /// A run as data.
    public init(history: RunHistory, shapes: [ShapeInfo], propertyNames: [String], stageSize: Point, stageColor: Color, end: Time,
                prints: [(time: Time, text: String)], graphs: [GraphRun], activities: [Activity]) {
        self.history = history
        self.shapes = shapes
        self.propertyNames = propertyNames
        self.stageSize = stageSize
        self.stageColor = stageColor
        self.end = end
        self.prints = prints
        self.graphs = graphs
        self.activities = activities
        let b = BuiltinProperty.allCases.count
        var rows = [Int32](repeating: -1, count: shapes.count * b)
        for (r, row) in history.log.rows.enumerated() where Int(row.key.shape.index) < shapes.count && Int(row.key.property.raw) < b {
            rows[Int(row.key.shape.index) * b + Int(row.key.property.raw)] = Int32(r)
        }
        builtinRows = rows
    }

    /// The value of a property at global time `t` (nil before the shape exists).
    public func value(_ shape: ShapeID, _ property: PropertyID, at t: Time) -> Value? {
        history.value(PropertyKey(shape, property), at: t)
    }

    /// The value of a property at global time `t` (nil before the shape exists).
    public func value(_ key: PropertyKey, at t: Time) -> Value? { history.value(key, at: t) }

    /// When a shape was declared (zero if the history does not have it).
    public func created(_ shape: ShapeID) -> Time { history.created(shape) ?? .zero }

    /// The id of a property name.
    public func property(_ name: String) -> PropertyID? {
        propertyNames.firstIndex(of: name).map { PropertyID($0) }
    }

    // MARK: - Pieces, for exporters

    /// One stretch of a property's life, from `start` until the next piece.
    public struct Piece: Sendable {
        /// When it starts (global time).
        public var start: Time
        /// What gives the value.
        public var source: Source
    }

    /// What gives a property's value during a piece.
    public enum Source: Sendable {
        /// A fixed value.
        case constant(Value)
        /// A tween's or spring's track.
        case track(TrackPiece)
        /// A replaying instance's recording.
        case replay
    }

    /// A track as an exporter sees it.
    public struct TrackPiece: Sendable {
        /// Global time → the track's local time.
        public var clock: ClockMap
        /// The start of its active interval, in its local time.
        public var begin: Time
        /// Its timing and easing; nil for a spring.
        public var tween: (timing: TweenTiming, easing: Easing)?
        /// Whether it goes straight from `from` to `to` (no keyframes, path or springs).
        public var isStraight: Bool
        /// The value at the start, and at the end.
        public var from: Value
        public var to: Value

        init(_ tr: Track, clock: ClockMap, tables: TrackTables) {
            self.clock = clock
            begin = tr.begin
            if case .tween(let t, let e) = tables.timings[Int(tr.timing)] { tween = (t, e) }
            isStraight = tr.curve == .straight
            from = tr.from.value
            to = tr.to.value
        }
    }

    /// A property's pieces in time order: its declared value from its shape's declaration, then
    /// what changed it (a piece starting with the one before replaces it).
    public func pieces(of key: PropertyKey) -> [Piece] {
        guard let c = history.created(key.shape) else { return [] }
        var out: [Piece] = []
        if let v = history.declared(key) { out.append(Piece(start: c, source: .constant(v))) }
        let log = history.log
        guard let r = log.row(of: key) else { return out }
        for p in log.pieces(ofRow: r) {
            let piece = Piece(start: log.pieces[Int(p)].start, source: log.source(ofPiece: Int(p), tables: history.tables))
            if let last = out.last, last.start == piece.start { out[out.count - 1] = piece } else { out.append(piece) }
        }
        return out
    }
}
