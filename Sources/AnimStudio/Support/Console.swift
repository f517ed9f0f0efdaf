// Console: where the studio's commands write — the process's standard output and error as the
// executable provides them (buffered, flushed in order), and whether they are a terminal.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AnimCore

/// The terminal (or pipe) the studio's commands print to.
public protocol StudioConsole: SessionOutput {
    /// Writes out anything buffered.
    func flush()
    /// Whether standard output is a terminal (the screen may be cleared, colour used).
    var isTerminal: Bool { get }
}

/// The time of day for status lines.
public enum WallClock {
    /// `14:03:12`, local time.
    public static func timeOfDay() -> String {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// A duration for people: `840 µs`, `12 ms`, `1.25 s`.
    public static func duration(_ ns: Int64) -> String {
        if ns < 1_000_000 { return "\(max(1, ns / 1000)) µs" }
        if ns < 10_000_000_000 && ns >= 1_000_000_000 {
            let centis = (ns + 5_000_000) / 10_000_000
            let frac = centis % 100
            return "\(centis / 100).\(frac < 10 ? "0" : "")\(frac) s"
        }
        if ns < 1_000_000_000 { return "\((ns + 500_000) / 1_000_000) ms" }
        return "\((ns + 500_000_000) / 1_000_000_000) s"
    }
}
