// Timeline: a whole run kept as data — every property's history, the shapes, the printed
// messages and the graphs' spans — for the renderers, exporters and the sampler, which then
// never need the interpreter again. The Session produces it (Session+Timeline).

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

    /// Every property's pieces.
    public var history: PropertyHistory
    /// The shapes, by id.
    public var shapes: [ShapeInfo]
    /// Property names by id.
    public var propertyNames: [String]
    /// The stage's size and color.
    public var stageSize: Point
    /// The stage's background.
    public var stageColor: Color
    /// When the run ended.
    public var end: Time
    /// The messages printed, with their times.
    public var prints: [(time: Time, text: String)]
    /// The graphs started, in order.
    public var graphs: [GraphRun]
    /// When each tween, spring, wait and action ran, live or replayed (ActivityLog.swift).
    public var activities: [Activity]

    /// The value of a property at global time `t` (nil before the shape exists).
    public func value(_ shape: ShapeID, _ property: PropertyID, at t: Time) -> Value? {
        history.value(PropertyKey(shape, property), at: t)
    }

    /// The id of a property name.
    public func property(_ name: String) -> PropertyID? {
        propertyNames.firstIndex(of: name).map { PropertyID($0) }
    }
}
