// StepTimes: when each step of a script ran in one timing run, read from the run's activity
// log. Every leaf node (tween, spring, wait, action) logs when it started and ended; its graph
// node's span is its step's span in the syntax tree. A container step (a block, a repeat, a
// stagger, `after`/`with`, `play`) ran from the first start to the last end of what ran inside
// it: the leaves whose spans it holds, and for `play`, the leaves of the instances it started
// (an instance knows the node that started it), so a define's body counts for the `play` that
// played it. Replays (`reverse`, `play … reversed` of a recording) show again what ran
// live and are not counted twice.

/// When one step ran.
public struct StepTime: Hashable, Sendable {
    /// When it first started (before a delay).
    public var start: Time
    /// When it last ended (nil: still running when the run stopped).
    public var end: Time?
    /// How many times it ran (a leaf: a tween, spring, wait or action); 1 for a container.
    public var runs: Int
    /// When its first run ended (the same as `end` when it ran once).
    public var firstEnd: Time?

    /// The duration, when it ended.
    public var duration: Time? { end.map { $0 - start } }
}

/// The times of a run's steps, by span.
public struct StepTimes: Sendable {
    /// One leaf's run: the spans it counts for (its node's, then the `play` nodes up its
    /// instance's parents), start and end.
    struct Entry: Sendable {
        var span: Span
        var start: Time
        var end: Time?
    }
    /// Every (span, run) pair, sorted by span start.
    private var entries: [Entry] = []
    /// Leaf runs by exact span.
    private var leaves: [Span: StepTime] = [:]

    /// No run.
    public init() {}

    /// The times of a timeline's activities.
    public init(_ timeline: Timeline) {
        for a in timeline.activities {
            switch a.pass {
            case .live, .skipped: break
            case .replay, .resumed: continue
            }
            var graph = timeline.graphs[a.instance]
            let span = graph.graph.nodes[Int(a.node.index)].span
            entries.append(Entry(span: span, start: a.start, end: a.end))
            if var t = leaves[span] {
                t.runs += 1
                if a.start < t.start { t.firstEnd = a.end }
                t.start = min(t.start, a.start)
                t.end = t.end.flatMap { e in a.end.map { max(e, $0) } }
                leaves[span] = t
            } else {
                leaves[span] = StepTime(start: a.start, end: a.end, runs: 1, firstEnd: a.end)
            }
            // Up the instances that started this one: the nodes that played it.
            var hops = 0
            while let p = graph.parent, hops < 64 {
                hops += 1
                let parent = timeline.graphs[p.instance]
                entries.append(Entry(span: parent.graph.nodes[Int(p.node.index)].span, start: a.start, end: a.end))
                graph = parent
            }
        }
        entries.sort { ($0.span.source, $0.span.start) < ($1.span.source, $1.span.start) }
    }

    /// When the step with this span ran (nil: it never ran in the timing run).
    public func time(of span: Span) -> StepTime? {
        if let t = leaves[span] { return t }
        // The first entry at or after the span's start.
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (entries[mid].span.source, entries[mid].span.start) < (span.source, span.start) { lo = mid + 1 } else { hi = mid }
        }
        var result: StepTime?
        var k = lo
        while k < entries.count, entries[k].span.source == span.source, entries[k].span.start < span.end {
            let e = entries[k]
            k += 1
            guard e.span.end <= span.end else { continue }
            if var r = result {
                r.start = min(r.start, e.start)
                r.end = r.end.flatMap { x in e.end.map { max(x, $0) } }
                result = r
            } else {
                result = StepTime(start: e.start, end: e.end, runs: 1)
            }
        }
        if var r = result { r.firstEnd = r.end; result = r }
        return result
    }
}
