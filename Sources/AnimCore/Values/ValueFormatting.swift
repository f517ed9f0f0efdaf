// ValueFormatting: the canonical printing of values (brief §2), used by `print`, string
// interpolation and every message. Numbers: rounded to 6 decimals (half away from zero on the
// shortest decimal form), trailing zeros dropped, never `-0`.

/// Formats a number canonically: `25`, `0.5`, `0.333333`, never `-0`.
public func formatNumber(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x.isInfinite { return x < 0 ? "-inf" : "inf" }
    // A whole number below 10^15 is its integer (what the rounding below gives it, faster).
    if x.magnitude < 1e15, x == x.rounded(.towardZero) { return String(Int64(x)) }
    // Round the shortest round-trip decimal text, so 0.0000005 rounds up as written.
    var shortest = x.magnitude.description
    if let dec = shortest.withUTF8({ DecimalLiteral(bytes: $0) }), let scaled = dec.scaledInteger(shift: 6) {
        if scaled == 0 { return "0" }
        // Written as bytes: the sign, the whole part, and the fraction without trailing zeros.
        var frac = scaled % 1_000_000, fracDigits = 6
        while frac != 0, frac % 10 == 0 {
            frac /= 10
            fracDigits -= 1
        }
        return String(unsafeUninitializedCapacity: 28) { out in
            var n = 0
            if x < 0 { out[n] = UInt8(ascii: "-"); n += 1 }
            var whole = scaled / 1_000_000
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 19 digits, written backwards
            let count = withUnsafeMutableBytes(of: &digits) { d -> Int in
                var k = 0
                repeat {
                    d[k] = UInt8(ascii: "0") + UInt8(whole % 10)
                    whole /= 10
                    k += 1
                } while whole != 0
                return k
            }
            withUnsafeBytes(of: &digits) { d in for k in stride(from: count - 1, through: 0, by: -1) { out[n] = d[k]; n += 1 } }
            if frac != 0 {
                out[n] = UInt8(ascii: ".")
                var k = fracDigits
                while k > 0 {
                    out[n + k] = UInt8(ascii: "0") + UInt8(frac % 10)
                    frac /= 10
                    k -= 1
                }
                n += fracDigits + 1
            }
            return n
        }
    }
    // Too large for 6 decimals in an Int64: print the rounded value as a whole number.
    let r = x.rounded()
    if r.magnitude < 1e18 { return String(Int64(r)) }
    // Beyond Int64 every Double is whole: write its shortest digits out in full (`1e20` is
    // `100000000000000000000`, never Swift's `1e+20`).
    if let dec = DecimalLiteral(r.magnitude.description), dec.exponent >= 0 {
        return (x < 0 ? "-" : "") + dec.digits.map(String.init).joined() + String(repeating: "0", count: dec.exponent)
    }
    return r.description
}

/// Formats a color channel value (0...255) as two hex digits, rounding half up and clamping.
func hexByte(_ v: Double) -> String {
    let n = Int(max(0, min(255, (v + 0.5).rounded(.down))))
    let digits = Array("0123456789abcdef")
    return String([digits[n / 16], digits[n % 16]])
}

extension Point: CustomStringConvertible {
    /// `(25, 0)`.
    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

extension Angle: CustomStringConvertible {
    /// `90deg`.
    public var description: String { formatNumber(degrees) + "deg" }
}

extension Color: CustomStringConvertible {
    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        let alpha = hexByte(a * 255)
        return "#" + hexByte(r) + hexByte(g) + hexByte(b) + (alpha == "ff" ? "" : alpha)
    }
}

extension Value: CustomStringConvertible {
    /// The canonical text of the value. Shape names need the scene, so shapes print as `shape#N`
    /// here; `Scene.describe(_:)` prints them by name.
    public var description: String {
        switch self {
        case .number(let d): formatNumber(d)
        case .time(let t): t.description
        case .angle(let a): a.description
        case .point(let p): p.description
        case .color(let c): c.description
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .list(let vs): "[" + vs.map { $0.quotedDescription }.joined(separator: ", ") + "]"
        case .shape(let id): "shape#\(id.index)"
        case .path(let p): p.text
        case .gradient(let g): g.cssText
        }
    }

    /// Like `description`, but strings inside lists are quoted.
    var quotedDescription: String {
        if case .string(let s) = self { return "\"" + s + "\"" }
        if case .path(let p) = self { return "\"" + p.text + "\"" }
        return description
    }
}
