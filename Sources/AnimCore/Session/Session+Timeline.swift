// Session+Timeline: running a script while keeping its whole history, and the run so far as a
// Timeline (Runtime/Timeline.swift) for the renderers, exporters and charts.

extension Session {
    /// Runs a script to its end (or `--until`) keeping its whole history. Prints are collected,
    /// not written; diagnostics go to the session's standard error. Nil if the script failed.
    public func timeline(name: String, bytes: [UInt8]) -> Timeline? {
        interpreter.recordHistory()
        collectingPrints = []
        let code = run(name: name, bytes: bytes)
        guard code == .success || (errorCount == 0 && expectFailures > 0) else { return nil }
        return currentTimeline(prints: collectingPrints ?? [])
    }

    /// Keeps every message printed from now on, with its time, while still writing it (the
    /// REPL, whose `:timeline` shows them).
    public func keepPrints() {
        collectingPrints = collectingPrints ?? []
        writesCollectedPrints = true
    }

    /// The messages kept since `keepPrints()` (or collected by `timeline`).
    public var keptPrints: [(time: Time, text: String)] { collectingPrints ?? [] }

    /// The run so far as a Timeline (complete only when history was recorded from the start).
    public func currentTimeline(prints: [(time: Time, text: String)] = []) -> Timeline {
        let scene = interpreter.scene
        let shapes = scene.shapes.enumerated().map { Timeline.ShapeInfo(name: $0.element.name, kind: $0.element.kind, id: ShapeID($0.offset)) }
        let graphs = interpreter.instances.map {
            Timeline.GraphRun(graph: interpreter.graphs[Int($0.graph)], start: $0.start, end: $0.end, topLevel: $0.parent < 0,
                              parent: $0.parent < 0 || $0.parentNode < 0 ? nil : (Int($0.parent), NodeID(Int($0.parentNode))))
        }
        var timeline = Timeline(history: interpreter.history ?? .empty, shapes: shapes, propertyNames: environment.propertyNames,
                                stageSize: scene.stageSize, stageColor: scene.stageColor, end: max(now, interpreter.time), prints: prints,
                                graphs: graphs, activities: interpreter.activities ?? [])
        timeline.imageDirectory = imageDirectory
        return timeline
    }
}

extension Session {
    /// The sequencer graphs of a run in Graphviz DOT (`anim graph`), labelled against this
    /// session's environment and sources.
    public func dot(_ timeline: Timeline) -> String {
        DOTWriter.render(timeline, dumper: GraphDumper(environment: environment, sources: sources), line: { self.position($0)?.line })
    }
}
