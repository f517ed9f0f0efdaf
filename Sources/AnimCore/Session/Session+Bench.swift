// Session+Bench: `anim bench` — one script timed pass by pass (parse, check, build), played in
// event mode while its history is recorded, then sampled at every frame from the first to the
// end by the Sampler every renderer draws through (`Timeline.frames(on:_:)`). There is no
// compile pass: the sampler reads the log as the interpreter wrote it. The clock is the
// monotonic one.

/// What `anim bench` measured.
public struct BenchReport: Sendable {
    /// The size of the script in bytes.
    public var bytes: Int
    /// Lexing and parsing.
    public var parse: Duration = .zero
    /// Checking.
    public var check: Duration = .zero
    /// Building the sequencer graphs.
    public var build: Duration = .zero
    /// Executing the statements and playing every graph to its end (event mode; recording the
    /// history when sampling).
    public var events: Duration = .zero
    /// Making the sampler from the recorded history: indexing the log and setting the
    /// sampler's state up (no compile pass is left; the field keeps its name for scripts).
    public var compile: Duration = .zero
    /// The sampling loop.
    public var sample: Duration = .zero
    /// The frames sampled (nil in event mode, or when the run ends before the first frame).
    public var frames: ClosedRange<Int64>?
    /// The properties sampled: those with pieces after their declaration.
    public var properties = 0
    /// The pieces of the history's log.
    public var pieces = 0
    /// Values computed: frames × the components of every sampled property.
    public var samples = 0
    /// The sum of every sampled component after the last frame (see `Sampler.checksum`).
    public var checksum = 0.0
    /// When the run ended.
    public var end = Time.zero

    /// Parse, check and build.
    public var setup: Duration { parse + check + build }
    /// Everything after setup.
    public var run: Duration { events + compile + sample }
}

extension Session {
    /// Benchmarks a script: nil (diagnostics reported) if it does not compile or run. With
    /// `sampling` off it stops after the event-mode run, which is what `anim run` does. The
    /// sampling loop runs `repeats` times from the start and the fastest counts (on a busy
    /// machine the fastest is the one least disturbed).
    public func bench(name: String, bytes: [UInt8], sampling: Bool = true, repeats: Int = 1) -> BenchReport? {
        var report = BenchReport(bytes: bytes.count)
        let clock = ContinuousClock()
        var mark = clock.now
        func lap() -> Duration {
            let t = clock.now
            defer { mark = t }
            return mark.duration(to: t)
        }
        let file = sources.add(name: name, bytes: bytes)
        var built: [BuiltStatement]
        do {
            // Each pass's input goes when the next pass is done with it (as in `run`).
            mark = clock.now
            guard let tree = parse(file) else { return nil }
            report.parse = lap()
            guard var checked = check(tree) else { return nil }
            report.check = lap()
            built = build(consuming: &checked)
            report.build = lap()
        }

        silent = true
        if sampling { interpreter.recordHistory() }
        do {
            try execute(consuming: &built)  // the graphs live on in the interpreter, as in `run`
            try playToEnd()
        } catch {
            return nil
        }
        report.end = now
        report.events = lap()
        guard sampling else { return report }
        let grid = FrameGrid(fps: options.fps)
        let last = grid.lastFrame(atOrBefore: now)
        guard last >= 1, let history = interpreter.history else { return report }
        var setup = lap()
        // From here only the history is needed, as for a renderer: the graphs and the
        // interpreter's state go (untimed, as the process's exit would let them go).
        interpreter = Interpreter(sink: self, seed: options.seed)
        _ = lap()
        let frames: ClosedRange<Int64> = 1...last
        let sampler = Sampler(history: history, grid: grid)
        setup += lap()
        report.compile = setup
        for pass in 0..<max(1, repeats) {
            if pass > 0 { sampler.rewind() }
            _ = lap()
            for f in frames { sampler.sample(frame: f) }
            let d = lap()
            report.sample = pass == 0 ? d : min(report.sample, d)
        }
        report.frames = frames
        report.properties = sampler.rowCount
        report.pieces = history.log.pieceCount
        report.samples = frames.count * sampler.componentCount
        report.checksum = sampler.checksum
        return report
    }
}
