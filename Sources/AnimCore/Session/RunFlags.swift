// RunFlags: the flags of `anim run` (shared by the command line and `#:` lines in script
// tests), parsed into SessionOptions. Time values are exact decimals with an optional unit.

/// A usage error: a bad flag or value.
public struct UsageError: Error, Hashable, Sendable {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
}

extension SessionOptions {
    /// The longest `--until` accepted: a year of virtual time. Longer is almost surely a typo,
    /// and trace output for it would not fit on any disk.
    public static let maxUntil = Time(seconds: 365 * 24 * 3600)
    /// The highest `--fps`.
    public static let maxFPS = 10_000

    /// Parses `anim run` flags (not the file name); unknown flags are errors.
    public static func parse(runFlags raw: [String]) -> Result<SessionOptions, UsageError> {
        // `--until=5` is `--until 5`.
        let args = raw.flatMap { a -> [String] in
            guard a.hasPrefix("--"), let eq = a.firstIndex(of: "=") else { return [a] }
            return [String(a[..<eq]), String(a[a.index(after: eq)...])]
        }
        var o = SessionOptions()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < args.count else { throw UsageError("'\(flag)' needs a value") }
            return args[i]
        }
        do throws(UsageError) {
            while i < args.count {
                let a = args[i]
                switch a {
                case "--until":
                    let v = try value(a)
                    guard let t = parseTime(v) else {
                        // A number too large for the clock is still a number: say which limit.
                        if let d = Double(v.hasSuffix("ms") ? String(v.dropLast(2)) : v.hasSuffix("s") ? String(v.dropLast()) : v), d.isFinite, d > 0 {
                            throw UsageError("'--until \(v)' is longer than the limit of one year")
                        }
                        throw UsageError("'--until' takes a time such as 5, 2.5s or 300ms, not '\(v)'")
                    }
                    guard t >= .zero else { throw UsageError("'--until' cannot be negative") }
                    guard t <= maxUntil else { throw UsageError("'--until \(v)' is longer than the limit of one year") }
                    o.until = t
                case "--seed":
                    let v = try value(a)
                    if let n = Int64(v) { o.seed = UInt64(bitPattern: n) } else if let n = UInt64(v) { o.seed = n } else {
                        throw UsageError("'--seed' takes a whole number, not '\(v)'")
                    }
                case "--fps":
                    let v = try value(a)
                    guard let n = Int(v), n >= 1, n <= maxFPS else {
                        throw UsageError("'--fps' takes a whole number from 1 to \(maxFPS), not '\(v)'")
                    }
                    o.fps = n
                case "--trace":
                    let v = try value(a)
                    let parts = v.split(separator: ",").map { String($0).filter { $0 != " " } }.filter { !$0.isEmpty }
                    guard !parts.isEmpty else { throw UsageError("'--trace' takes properties such as square.center,square.alpha") }
                    o.trace += parts
                case "--json": o.json = true
                case "--no-time": o.showTime = false
                default:
                    let known = ["--until", "--seed", "--fps", "--trace", "--json", "--no-time"]
                    throw UsageError("unknown option '\(a)'" + DidYouMean.suffix(a, from: known))
                }
                i += 1
            }
        } catch {
            return .failure(error)
        }
        return .success(o)
    }

    /// `5`, `2.5s`, `300ms` → Time, exactly; nil if malformed.
    public static func parseTime(_ s: String) -> Time? {
        var text = Substring(s)
        var power = 9
        if text.hasSuffix("ms") { text = text.dropLast(2); power = 6 } else if text.hasSuffix("s") { text = text.dropLast() }
        var negative = false
        if text.hasPrefix("-") { negative = true; text = text.dropFirst() }
        guard let d = DecimalLiteral(text), let t = Time(decimal: d, unitPower: power) else { return nil }
        return negative ? Time(ticks: -t.ticks) : t
    }
}
