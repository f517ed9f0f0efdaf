// Bench: `anim bench FILE [--fps N] [--repeat N] [--events]` — the cost profile of a script. It prints one
// line of `key=value` fields: the samples computed, the run and setup times, ns per sample,
// peak memory (getrusage's maximum resident set) and the checksum, then each pass's time.
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
        let (file, flags) = Commands.fileAndFlags(args, command: "bench")
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
