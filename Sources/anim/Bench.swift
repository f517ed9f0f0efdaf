// Bench: `anim bench FILE [--fps N] [--repeat N] [--events]` — the cost profile of a script. It prints one
// line of `key=value` fields: the samples computed, the run and setup times, ns per sample,
// peak memory (getrusage's maximum resident set) and the checksum, then each pass's time.
// `anim bench FILE --render [-j N]` measures drawing instead: frames per second on one thread
// and on N.
import Synchronization
@preconcurrency import Glibc
import AnimCore

enum Bench {
    /// `anim bench FILE [flags]`.
    static func run(_ args: [String]) -> Never {
        var args = args
        let eventsOnly = args.contains("--events")
        args.removeAll { $0 == "--events" }
        var repeats = 1
        if let i = args.firstIndex(of: "--repeat") {
            guard i + 1 < args.count, let n = Int(args[i + 1]), n >= 1, n <= 1000 else {
                usageError("'--repeat' takes a whole number from 1 to 1000", command: "bench")
            }
            repeats = n
            args.removeSubrange(i...(i + 1))
        }
        var render = false, jobs: Int?, scale = 1.0
        if let i = args.firstIndex(of: "--render") {
            render = true
            args.remove(at: i)
        }
        for flag in ["-j", "--jobs", "--scale"] {
            guard let i = args.firstIndex(of: flag) else { continue }
            guard render else { usageError("'\(flag)' needs '--render'", command: "bench") }
            guard i + 1 < args.count else { usageError("'\(flag)' needs a value", command: "bench") }
            let v = args[i + 1]
            if flag == "--scale" {
                guard let s = Double(v), s > 0, s <= 8 else { usageError("'--scale' takes a number above 0 and at most 8, not '\(v)'", command: "bench") }
                scale = s
            } else {
                guard let n = Int(v), (1...1024).contains(n) else { usageError("'\(flag)' takes a whole number from 1 to 1024, not '\(v)'", command: "bench") }
                jobs = n
            }
            args.removeSubrange(i...(i + 1))
        }
        if render && eventsOnly { usageError("'--render' and '--events' cannot be combined", command: "bench") }
        let (file, flags) = Commands.fileAndFlags(args, command: "bench")
        if render { renderBench(file: file, flags: flags, jobs: jobs ?? ParallelFrames.availableCores(), scale: scale) }
        for f in flags where f.hasPrefix("--trace") || f == "--json" || f == "--no-time" {
            usageError("unknown option '\(f)' for bench", command: "bench")
        }
        let options = Commands.options(flags, command: "bench")
        let bytes = Commands.read(file)
        let session = Session(options: options, output: streams)
        let name = file == "-" ? "<stdin>" : file
        guard let r = session.bench(name: name, bytes: bytes, sampling: !eventsOnly, repeats: repeats) else { finish(.failure) }

        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let peakMB = Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
        let mb = Double(r.bytes) / 1_000_000
        var fields: [String] = []
        if !eventsOnly {
            let ns = r.samples > 0 ? seconds(r.sample) * 1e9 / Double(r.samples) : 0
            fields.append("samples=\(r.samples)")
            fields.append("run=\(fixed(seconds(r.run), 4))s")
            fields.append("setup=\(fixed(seconds(r.setup), 4))s")
            fields.append("ns/sample=\(fixed(ns, 3))")
        } else {
            fields.append("run=\(fixed(seconds(r.run), 4))s")
            fields.append("setup=\(fixed(seconds(r.setup), 4))s")
        }
        fields.append("peak=\(fixed(peakMB, 1))MB")
        if !eventsOnly { fields.append("checksum=\(formatNumber(r.checksum))") }
        fields.append("parse=\(fixed(seconds(r.parse), 4))s")
        fields.append("parse-rate=\(fixed(mb / max(seconds(r.parse), 1e-9), 1))MB/s")
        fields.append("check=\(fixed(seconds(r.check), 4))s")
        fields.append("build=\(fixed(seconds(r.build), 4))s")
        fields.append("events=\(fixed(seconds(r.events), 4))s")
        if !eventsOnly {
            fields.append("compile=\(fixed(seconds(r.compile), 4))s")
            fields.append("sample=\(fixed(seconds(r.sample), 4))s")
            fields.append("frames=\(r.frames.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "none")")
            fields.append("properties=\(r.properties)")
            fields.append("pieces=\(r.pieces)")
        }
        fields.append("end=\(r.end.exactSeconds)s")
        streams.standardOutput("\(name): " + fields.joined(separator: " ") + "\n")
        finish(session.exitCode)  // with the session alive (see Commands.run)
    }

    /// `anim bench FILE --render [-j N] [--fps N] [--scale S]`: runs the script to a Timeline,
    /// then draws every frame `anim render -o DIR/` would — sampled through
    /// `Timeline.frames(on:_:)`, rasterised and PNG-encoded as frames are written — without
    /// writing them, first on one thread, then on N (default: every processor). Prints the
    /// frames, their size, the run's time, each pass's time and frames per second, the speed-up
    /// and the PNG bytes of one pass.
    static func renderBench(file: String, flags: [String], jobs: Int, scale: Double) -> Never {
        var options = Commands.options(flags, command: "bench")
        if !flags.contains("--fps") { options.fps = 30 }  // as `anim render -o frames/`
        let session = Session(options: options, output: streams)
        let name = file == "-" ? "<stdin>" : file
        let bytes = Commands.read(file)
        let clock = ContinuousClock()
        let start = clock.now
        guard let timeline = session.timeline(name: name, bytes: bytes) else { finish(.failure) }
        let run = start.duration(to: clock.now)
        let grid = FrameGrid(fps: options.fps)
        let range = timeline.frameRange(on: grid)
        final class Count: Sendable { let bytes = Atomic<Int>(0) }
        func pass(_ jobs: Int) -> (Double, Int) {
            let count = Count()
            let t = clock.now
            do {
                try ParallelFrames.render(timeline, grid: grid, range: range, scale: scale, jobs: jobs, compression: .fast) {
                    _, png in count.bytes.add(png.count, ordering: .relaxed)
                }
            } catch {
                streams.standardError("anim: error: \(error.message)\n")
                finish(.failure)
            }
            return (seconds(t.duration(to: clock.now)), count.bytes.load(ordering: .relaxed))
        }
        let frames = Double(range.count)
        let (one, png) = pass(1)
        var fields = ["frames=\(range.count)", "size=\(Int((timeline.stageSize.x * scale).rounded()))x\(Int((timeline.stageSize.y * scale).rounded()))",
                      "run=\(fixed(seconds(run), 4))s", "j1=\(fixed(one, 4))s", "fps-j1=\(fixed(frames / max(one, 1e-9), 1))"]
        if jobs > 1 {
            let (many, _) = pass(jobs)
            fields += ["j\(jobs)=\(fixed(many, 4))s", "fps-j\(jobs)=\(fixed(frames / max(many, 1e-9), 1))",
                       "speedup=\(fixed(one / max(many, 1e-9), 2))"]
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        fields += ["png=\(fixed(Double(png) / 1_000_000, 1))MB", "peak=\(fixed(Double(usage.ru_maxrss) / 1024, 1))MB"]
        streams.standardOutput("\(name): " + fields.joined(separator: " ") + "\n")
        finish(session.exitCode)
    }

    static func seconds(_ d: Duration) -> Double {
        let (s, atto) = d.components
        return Double(s) + Double(atto) / 1e18
    }

    /// `x` with exactly `decimals` decimals (no Foundation).
    static func fixed(_ x: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let n = Int64((abs(x) * scale).rounded())
        let whole = String(n / Int64(scale))
        var frac = String(n % Int64(scale))
        frac = String(repeating: "0", count: max(0, decimals - frac.count)) + frac
        return (x < 0 && n != 0 ? "-" : "") + whole + (decimals > 0 ? "." + frac : "")
    }
}
