// Session+Play: the one loop that plays the clock. Every front end moves time through it: a
// file run's `wait` and its end, the REPL after an entry, `:step`, a `then` that follows the
// previous entry, and the seeks that replay the entry log. It fires events instant by instant
// (advanceClock, which runs the frames and the observers' looks between them) until a stop
// condition holds, asking between instants whether to stop from outside (Ctrl-C).

extension Session {
    /// What `play(until:)` plays to.
    public enum Stop: Sendable, Equatable {
        /// Every event at or before the bound has fired.
        case exhausted
        /// Every graph that can finish has finished; graphs that never end play up to `limit`
        /// (after an entry in the REPL, which lets them run `:until` per entry).
        case settled(limit: Time)
        /// The latest run of the named step has ended.
        case stepEnds(StepNameID)
        /// Every instance in the range (top-level graphs started by one statement) has ended.
        case graphsEnd(Range<Int>)
    }

    /// What a run-time error in a graph does to the play.
    public enum ErrorHandling: Sendable {
        /// It ends the play (a file run: the error ends the run).
        case endsThePlay
        /// It stops only its own graph, and the play goes on (the REPL).
        case stopsItsGraph
    }

    /// What a play did.
    public struct PlayOutcome: Sendable, Equatable {
        /// The time of the last instant that fired events (the clock's time if none did).
        public var last: Time
        /// Whether the stop condition held (false: the events ran out first, or the bound came).
        public var reached: Bool
        /// Whether a run-time error stopped a graph on the way (with `.stopsItsGraph`).
        public var failed: Bool
    }

    /// Fires events in time order until `stop` holds, no event is left, or the next one is
    /// after `bound`. `interrupt` is asked before each instant (the interpreter asks its
    /// `shouldStop` between events too); after an interruption script time comes up to the
    /// clock, the events still due there wait, and the interruption is thrown. Script time
    /// (`now`) is not moved otherwise: the callers move it (`moveNow`) where they mean to.
    ///
    /// With `neverEnds` (the play has no end but its stop condition), a play that could only
    /// go on for ever stops instead with that error (`neverEnds(_:what:)`, `isEndless`, not
    /// reported): at once when what it waits for never ends, or at the instant that a step
    /// deciding as it runs (an `if`, a `choose`, a `repeat while`) makes it so.
    @discardableResult
    public func play(until stop: Stop, bound: Time = .max, errors: ErrorHandling = .endsThePlay, neverEnds what: String? = nil,
                     interrupt: () -> Bool = { false }) throws(RuntimeError) -> PlayOutcome {
        var outcome = PlayOutcome(last: interpreter.time, reached: false, failed: false)
        var looked = false
        while true {
            if holds(stop) { outcome.reached = true; break }
            if let what, !looked || interpreter.endlessBegan {
                looked = true
                interpreter.endlessBegan = false
                if let node = endlessNode(for: stop) { throw neverEnds(node, what: what) }
            }
            guard let next = interpreter.nextEventTime, next <= bound else { break }
            if case .settled(let limit) = stop, next > limit, !runsFiniteGraph { break }
            if interrupt() {
                holdAfterInterruption()
                throw RuntimeError.interruption(at: interpreter.time)
            }
            do {
                try advanceClock(to: next)
            } catch {
                if error.isInterruption { holdAfterInterruption(); throw error }
                if errors == .endsThePlay { throw error }
                outcome.failed = true  // reported where it was raised; its graph is stopped
            }
            outcome.last = next
        }
        return outcome
    }

    /// Whether a stop condition holds now.
    func holds(_ stop: Stop) -> Bool {
        switch stop {
        case .exhausted, .settled: return false
        case .stepEnds(let id): return interpreter.run(of: id)?.end != nil
        case .graphsEnd(let range):
            let instances = interpreter.instances
            return !range.contains { $0 < instances.count && instances[$0].running }
        }
    }

    /// What makes the play to `stop` one that never ends, if anything does.
    func endlessNode(for stop: Stop) -> GraphNode? {
        switch stop {
        case .exhausted: return interpreter.endlessGraph
        case .settled: return nil
        case .stepEnds(let id): return interpreter.endlessNode(ofStep: id)
        case .graphsEnd(let range):
            let interp = interpreter!
            for i in range where i < interp.instances.count {
                if let node = interp.endlessNode(ofInstance: Int32(i)) { return node }
            }
            return nil
        }
    }

    /// Whether a graph that can finish is still running (not one whose graph never ends, nor
    /// one that has begun a step that never ends since, nor one started by such a graph: a
    /// define played inside a `repeat forever` ends, but the loop plays it again).
    var runsFiniteGraph: Bool {
        let interp = interpreter!
        let endless = interp.instancesBeganEndless
        func finite(_ i: Int32) -> Bool {
            interp.graphs[Int(interp.instances[Int(i)].graph)].duration != .forever && !endless.contains(i)
        }
        return interp.instances.indices.contains { i in
            guard interp.instances[i].running else { return false }
            var x = Int32(i)
            while x >= 0 {
                guard finite(x) else { return false }
                x = interp.instances[Int(x)].parent
            }
            return true
        }
    }
}
