// Time: exact virtual time as an integer count of nanoseconds (about 292 years of range).
// Literals are converted from their decimal text, never through Double, so 0.1 + 0.2 == 0.3.
// Double appears only where time meets easing (progress = elapsed / duration).

/// An exact instant or duration on the virtual clock, in nanosecond ticks.
public struct Time: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds.
    public var ticks: Int64

    /// Ticks per second: one tick is a nanosecond.
    public static let ticksPerSecond: Int64 = 1_000_000_000
    /// Zero seconds.
    public static let zero = Time(ticks: 0)
    /// The largest time the clock can hold.
    public static let max = Time(ticks: .max)

    /// Creates a time from ticks.
    public init(ticks: Int64) { self.ticks = ticks }

    /// Creates a time from whole seconds.
    public init(seconds: Int) { self.ticks = Int64(seconds) * Time.ticksPerSecond }

    /// Rounds seconds to the nearest tick (half away from zero); nil if not finite or out of range.
    public init?(seconds: Double) {
        let t = (seconds * Double(Time.ticksPerSecond)).rounded(.toNearestOrAwayFromZero)
        guard t.isFinite, t > -9.2e18, t < 9.2e18 else { return nil }
        self.ticks = Int64(t)
    }

    /// The time in seconds as a Double (for sampling and display only).
    public var seconds: Double { Double(ticks) / Double(Time.ticksPerSecond) }

    public static func < (a: Time, b: Time) -> Bool { a.ticks < b.ticks }

    /// Sum; nil on overflow.
    public func adding(_ other: Time) -> Time? {
        let (r, o) = ticks.addingReportingOverflow(other.ticks)
        return o ? nil : Time(ticks: r)
    }

    /// Sum that saturates at `.max` instead of overflowing.
    public static func + (a: Time, b: Time) -> Time {
        let (r, o) = a.ticks.addingReportingOverflow(b.ticks)
        return o ? (b.ticks > 0 ? .max : Time(ticks: .min)) : Time(ticks: r)
    }

    /// Difference that saturates instead of overflowing.
    public static func - (a: Time, b: Time) -> Time {
        let (r, o) = a.ticks.subtractingReportingOverflow(b.ticks)
        return o ? (b.ticks < 0 ? .max : Time(ticks: .min)) : Time(ticks: r)
    }

    /// The time scaled by a factor, rounded once to the nearest tick; nil if out of range.
    public func scaled(by factor: Double) -> Time? {
        if factor == 1 { return self }
        let t = (Double(ticks) * factor).rounded(.toNearestOrAwayFromZero)
        guard t.isFinite, t > -9.2e18, t < 9.2e18 else { return nil }
        return Time(ticks: Int64(t))
    }

    /// Canonical printing: seconds with up to 6 decimals and an `s` (`1.5s`).
    public var description: String { formatNumber(seconds) + "s" }

    /// The event-line form: seconds with exactly 3 decimals, rounded half up (`1.300`).
    public var eventStamp: String {
        let neg = ticks < 0
        let mag = ticks.magnitude
        let ms = (mag + 500_000) / 1_000_000
        let frac = String(ms % 1000)
        return (neg ? "-" : "") + "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// The exact decimal text of the time in seconds, without trailing zeros (`1.3`, `0.000000001`).
    public var exactSeconds: String {
        let neg = ticks < 0
        let mag = ticks.magnitude
        let whole = mag / UInt64(Time.ticksPerSecond)
        var frac = String(mag % UInt64(Time.ticksPerSecond))
        frac = String(repeating: "0", count: 9 - frac.count) + frac
        while frac.last == "0" { frac.removeLast() }
        return (neg ? "-" : "") + String(whole) + (frac.isEmpty ? "" : "." + frac)
    }
}

/// A decimal literal's digits, read exactly: `mantissa × 10^exponent`. Up to 19 significant
/// digits are kept as one integer (no array); longer literals keep their digits.
public struct DecimalLiteral: Hashable, Sendable {
    /// The significant digits as an integer, when there are at most 19 of them.
    private var mantissa: UInt64 = 0
    /// The digits of a literal with more than 19 of them.
    private var long: [UInt8]?
    /// How many significant digits there are.
    private var count: Int32 = 0
    /// The power of ten, stored narrow (the parser bounds it to ±100 000) so a literal is 24 bytes.
    private var storedExponent: Int32 = 0

    /// The power of ten that scales `digits`.
    public var exponent: Int {
        get { Int(storedExponent) }
        set { storedExponent = Int32(newValue) }
    }

    /// The most digits an integer mantissa holds (10^19 < 2^64).
    static let maxMantissaDigits = 19

    /// The decimal digits with the point removed (leading zeros kept off).
    public var digits: [UInt8] {
        if let long { return long }
        var out = [UInt8](repeating: 0, count: Int(count))
        var m = mantissa
        for i in stride(from: Int(count) - 1, through: 0, by: -1) { out[i] = UInt8(m % 10); m /= 10 }
        return out
    }

    /// Parses `123`, `1.5`, `.5`, `2e-3`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        var utf8 = Array(text.utf8)
        guard let d = utf8.withUnsafeMutableBufferPointer({ DecimalLiteral(bytes: UnsafeBufferPointer($0)) }) else { return nil }
        self = d
    }

    /// Parses the UTF-8 bytes of `123`, `1.5`, `.5`, `2e-3`; nil for anything else.
    public init?(bytes: UnsafeBufferPointer<UInt8>) {
        // Most literals are a few digits with at most a point: read in one pass, with the
        // same digits, count and exponent as the general reading below.
        if bytes.count <= DecimalLiteral.maxMantissaDigits, let short = DecimalLiteral(short: bytes) {
            self = short
            return
        }
        var exp = 0
        var seenPoint = false, seenDigit = false
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c >= 0x30 && c <= 0x39 {
                seenDigit = true
                if !(count == 0 && c == 0x30) { appendDigit(c - 0x30) }
                if seenPoint { exp -= 1 }
            } else if c == 0x2E, !seenPoint {
                seenPoint = true
            } else if c == 0x65 || c == 0x45 {
                // The rest is a whole number with an optional sign (as `Int(_:)` reads it).
                guard seenDigit, let e = DecimalLiteral.integer(bytes, from: i + 1) else { return nil }
                guard e > -100_000, e < 100_000 else { return nil }
                exp += e
                break
            } else { return nil }
            i += 1
        }
        guard seenDigit else { return nil }
        // A zero digit after the point still counts toward the exponent only when nonzero digits precede it.
        if count == 0 { exp = 0 }
        exponent = exp
    }

    /// A literal of at most 19 bytes, digits and one point, or nil (anything else, an
    /// exponent included, is left to the general reading).
    private init?(short bytes: UnsafeBufferPointer<UInt8>) {
        var mantissa: UInt64 = 0, count: Int32 = 0, exp: Int32 = 0
        var seenPoint = false, seenDigit = false
        for c in bytes {
            let d = c &- 0x30
            if d < 10 {
                seenDigit = true
                if count != 0 || d != 0 { mantissa = mantissa &* 10 &+ UInt64(d); count &+= 1 }
                if seenPoint { exp &-= 1 }
            } else if c == 0x2E, !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
        }
        guard seenDigit else { return nil }
        self.mantissa = mantissa
        self.count = count
        self.storedExponent = count == 0 ? 0 : exp
    }

    private mutating func appendDigit(_ d: UInt8) {
        if count < Int32(DecimalLiteral.maxMantissaDigits) {
            mantissa = mantissa * 10 + UInt64(d)
        } else {
            if long == nil { long = digits }
            long!.append(d)
        }
        count += 1
    }

    /// `[+-]digits` from `start` to the end, or nil (empty, a stray byte, or out of Int's range).
    private static func integer(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        var negative = false
        if i < b.count, b[i] == 0x2B || b[i] == 0x2D { negative = b[i] == 0x2D; i += 1 }
        guard i < b.count else { return nil }
        var n = 0
        while i < b.count {
            let c = b[i]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int(c - 0x30)) : m.addingReportingOverflow(Int(c - 0x30))
            if o1 || o2 { return nil }
            n = s
            i += 1
        }
        return n
    }

    /// `value × 10^shift` rounded half up to an integer; nil if it does not fit in Int64.
    public func scaledInteger(shift: Int) -> Int64? {
        let e = exponent + shift
        let count = Int(self.count)
        if count == 0 { return 0 }
        let keep = count + e   // how many leading digits stay in front of the point
        if keep > 19 { return nil }
        guard long == nil else { return DecimalLiteral.scaledInteger(digits: digits, keep: keep) }
        if keep >= count {
            var result = Int64(bitPattern: mantissa)
            if mantissa > UInt64(Int64.max) { return nil }
            for _ in 0..<(keep - count) {
                let (m, o) = result.multipliedReportingOverflow(by: 10)
                if o { return nil }
                result = m
            }
            return result
        }
        if keep < 0 { return 0 }
        // Drop count − keep digits; round half up on the first dropped digit.
        var divisor: UInt64 = 1
        for _ in 0..<(count - keep - 1) { divisor *= 10 }
        let firstDropped = (mantissa / divisor) % 10
        let kept = mantissa / divisor / 10
        guard kept <= UInt64(Int64.max) else { return nil }
        var result = Int64(kept)
        if firstDropped >= 5 {
            let (s, o) = result.addingReportingOverflow(1)
            if o { return nil }
            result = s
        }
        return result
    }

    /// The digit-by-digit form of `scaledInteger` (for literals of more than 19 digits).
    private static func scaledInteger(digits: [UInt8], keep: Int) -> Int64? {
        var result: Int64 = 0
        for (i, d) in digits.enumerated() where i < keep {
            let (m, o1) = result.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            result = s
        }
        if keep > digits.count {
            for _ in 0..<(keep - digits.count) {
                let (m, o) = result.multipliedReportingOverflow(by: 10)
                if o { return nil }
                result = m
            }
        }
        if keep >= 0, keep < digits.count, digits[keep] >= 5 {
            let (s, o) = result.addingReportingOverflow(1)
            if o { return nil }
            result = s
        }
        return result
    }

    /// Exact powers of ten as Doubles (10^22 is the largest that is).
    private static let exactPowers: [Double] = (0...22).map { var p = 1.0; for _ in 0..<$0 { p *= 10 }; return p }

    /// The value as a Double, correctly rounded (for numbers; exact decimals are only needed for time).
    public var doubleValue: Double {
        // Clinger's fast path: a mantissa below 2^53 and a power of ten up to 10^22 are both
        // exact Doubles, so one multiplication or division rounds correctly.
        if long == nil, mantissa < 1 << 53, exponent >= -22, exponent <= 22 {
            let m = Double(mantissa)
            return exponent >= 0 ? m * DecimalLiteral.exactPowers[exponent] : m / DecimalLiteral.exactPowers[-exponent]
        }
        let s = (count == 0 ? "0" : digits.map { String($0) }.joined()) + "e\(exponent)"
        return Double(s) ?? .infinity
    }
}

extension Time {
    /// Converts a decimal literal in a unit with `10^unitPower` ticks to a Time exactly; nil on overflow.
    /// Seconds use `unitPower` 9, milliseconds 6.
    public init?(decimal: DecimalLiteral, unitPower: Int) {
        guard let t = decimal.scaledInteger(shift: unitPower) else { return nil }
        self.ticks = t
    }
}
