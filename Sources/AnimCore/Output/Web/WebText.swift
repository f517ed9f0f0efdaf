// WebText: the text the web outputs write — SVG path data, XML and JSON strings, hex colours,
// and the byte buffer (ByteWriter) that the HTML player's data (HTMLPlayer, TrackCode) is
// written into with its JSON strings and fixed-point and integer numbers — shared by the HTML
// player's data, the animated SVG and the live studio's scene.

/// An outline as SVG path data, coordinates to 3 decimals (`M 0 0 L 10 0 Z`).
func svgPathData(_ outline: Outline) -> String {
    var o = ""
    func p(_ q: Point) { o += " " + formatFixed(q.x, 3) + " " + formatFixed(q.y, 3) }
    for c in outline.contours {
        if !o.isEmpty { o += " " }
        o += "M"
        p(c.start)
        for s in c.segments {
            switch s {
            case .line(let e): o += " L"; p(e)
            case .quadratic(let c1, let e): o += " Q"; p(c1); p(e)
            case .cubic(let c1, let c2, let e): o += " C"; p(c1); p(c2); p(e)
            }
        }
        if c.isClosed { o += " Z" }
    }
    return o
}

/// Text escaped for XML content and attribute values.
func xmlEscaped(_ s: String) -> String {
    var o = ""
    for ch in s {
        switch ch {
        case "&": o += "&amp;"
        case "<": o += "&lt;"
        case ">": o += "&gt;"
        case "\"": o += "&quot;"
        case "'": o += "&#39;"
        default: o.append(ch)
        }
    }
    return o
}

/// A JSON string literal safe inside an HTML `<script>`.
func jsonString(_ s: String) -> String { quote(s, htmlSafe: true) }

/// The bytes a web output writes, in one buffer that grows by doubling (the HTML player's
/// data: about 2 MB for 1,000 moving shapes). Each write makes room once for its widest
/// text and then stores through a pointer: appending to a `[UInt8]` cost a uniqueness and a
/// capacity check a byte, and a call per piece (issue 14).
struct ByteWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written.
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Where the next `n` bytes go, with room for them; `advance(by:)` then counts what was
    /// written there.
    @inline(__always)
    mutating func room(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if count + n > capacity { grow(count + n) }
        return base + count
    }

    @inline(__always)
    mutating func advance(by n: Int) { count += n }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let bigger = max(needed, capacity * 2)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        new.initialize(from: base, count: count)
        base.deallocate()
        base = new
        capacity = bigger
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        room(1).pointee = byte
        count += 1
    }

    @inline(__always)
    mutating func put(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        room(n).initialize(from: s.utf8Start, count: n)
        count += n
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let b = bytes.baseAddress else { return }
        room(bytes.count).initialize(from: b, count: bytes.count)
        count += bytes.count
    }

    /// A string's UTF-8 as it is (no escaping). Not an overload of `put`: a literal would
    /// choose it (String is a literal's default type) over the StaticString one.
    mutating func putText(_ s: String) {
        var s = s
        s.withUTF8 { put($0) }
    }

    /// The bytes written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes as a String. They are valid UTF-8 by construction (ASCII, and other strings'
    /// UTF-8 copied whole or escaped scalar by scalar), so they are copied without the check
    /// `String(decoding:as:)` makes (about 9 instructions a byte).
    consuming func string() -> String {
        let span = UnsafeBufferPointer(start: base, count: count)
        guard count > 0 else { return "" }
        return unsafe String(copying: UTF8Span(unchecked: span.span))
    }
}

// MARK: - JSON strings

extension ByteWriter {
    /// `jsonString(s)`: the same escapes as `quote(_:htmlSafe: true)` (`\"`, `\\`, `\n`, `\r`,
    /// `\t`, `\u00XX` below 0x20, and `\u…` for `<`, `>`, `&`, U+2028 and U+2029), without
    /// building a String.
    mutating func putJSONString(_ s: String) {
        put(UInt8(ascii: "\""))
        putJSONEscaped(s)
        put(UInt8(ascii: "\""))
    }

    /// The escaped bytes of a string (no quotes).
    mutating func putJSONEscaped(_ s: String) {
        var s = s
        s.withUTF8 { putJSONEscaped($0) }
    }

    /// The escaped bytes of a whole UTF-8 string (no quotes), as `putJSONString` writes them:
    /// escaping works scalar by scalar, so pieces escaped one after another are the escaped
    /// whole. Room is made once for the worst case (a control byte becomes 6).
    mutating func putJSONEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        guard n > 0 else { return }
        let out = room(6 * n)
        var w = 0
        @inline(__always) func hex(_ v: UInt32) {
            out[w] = UInt8(ascii: "\\")
            out[w + 1] = UInt8(ascii: "u")
            for k in 0..<4 {
                let d = UInt8((v >> UInt32(12 - 4 * k)) & 0xF)
                out[w + 2 + k] = d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10
            }
            w += 6
        }
        var k = 0
        while k < n {
            let c = utf8[k]
            k += 1
            switch c {
            case UInt8(ascii: "\""): out[w] = UInt8(ascii: "\\"); out[w + 1] = c; w += 2
            case UInt8(ascii: "\\"): out[w] = c; out[w + 1] = c; w += 2
            case UInt8(ascii: "\n"): out[w] = UInt8(ascii: "\\"); out[w + 1] = UInt8(ascii: "n"); w += 2
            case UInt8(ascii: "\r"): out[w] = UInt8(ascii: "\\"); out[w + 1] = UInt8(ascii: "r"); w += 2
            case UInt8(ascii: "\t"): out[w] = UInt8(ascii: "\\"); out[w + 1] = UInt8(ascii: "t"); w += 2
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): hex(UInt32(c))
            case 0..<0x20: hex(UInt32(c))
            case 0xE2 where n - k >= 2 && utf8[k] == 0x80 && (utf8[k + 1] == 0xA8 || utf8[k + 1] == 0xA9):
                hex(utf8[k + 1] == 0xA8 ? 0x2028 : 0x2029)
                k += 2
            default: out[w] = c; w += 1
            }
        }
        count += w
    }
}

// MARK: - Numbers

extension ByteWriter {
    /// `formatFixed(x, decimals)`'s text (at most `decimals` decimals, trailing zeros dropped,
    /// never `-0`), without building a String.
    ///
    /// The player's data has tens of thousands of these (every bar's times), so: the scale
    /// from a table, rounding half away from zero by hand (`rounded()` is a call into the C
    /// library; below 2⁵² `y − trunc(y)` is exact, and above it `y` is whole), and the
    /// fraction's digits all written and its trailing zeros then taken back.
    mutating func putFixed(_ x: Double, _ decimals: Int) {
        guard x.isFinite else { put(UInt8(ascii: "0")); return }
        let scale = decimals < Self.powersOfTen.count ? Self.powersOfTen[decimals] : Self.power(decimals)
        let y = x * Double(scale)
        guard abs(y) < 0x1p63 else { putText(String(x)); return }
        var n = Int64(y)
        let rest = y - Double(n)
        if rest >= 0.5 { n += 1 } else if rest <= -0.5 { n -= 1 }
        if n == 0 { put(UInt8(ascii: "0")); return }
        let m = n.magnitude
        // A sign, up to 19 whole digits, a point and the fraction's digits.
        let out = room(21 + decimals)
        var w = 0
        if n < 0 { out[0] = UInt8(ascii: "-"); w = 1 }
        w += Self.decimal(m / scale, at: out + w)
        var frac = m % scale
        if frac != 0 {
            out[w] = UInt8(ascii: ".")
            // The fraction's digits, leading zeros included.
            for k in stride(from: decimals, through: 1, by: -1) {
                out[w + k] = UInt8(ascii: "0") + UInt8(frac % 10)
                frac /= 10
            }
            w += 1 + decimals
            while out[w - 1] == UInt8(ascii: "0") { w -= 1 }
        }
        count += w
    }

    /// 10⁰ … 10¹⁸.
    private static let powersOfTen: [UInt64] = (0...18).map { power($0) }

    private static func power(_ k: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<k { p &*= 10 }
        return p
    }

    /// An integer's decimal text (`String(v)`).
    mutating func putInt(_ v: Int) {
        if UInt(bitPattern: v) < 10 { put(UInt8(ascii: "0") + UInt8(v)); return }
        let out = room(21)
        var w = 0
        if v < 0 { out[0] = UInt8(ascii: "-"); w = 1 }
        w += Self.decimal(UInt64(v.magnitude), at: out + w)
        count += w
    }

    /// Writes an unsigned integer's decimal digits at `out` (room for 20); returns how many.
    @inline(__always)
    private static func decimal(_ v: UInt64, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var width = 1, rest = v / 10
        while rest != 0 { width += 1; rest /= 10 }
        var v = v
        for k in stride(from: width - 1, through: 0, by: -1) {
            out[k] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        return width
    }
}

/// `#rrggbb` of channels in 0...255.
func hexColor(_ r: Double, _ g: Double, _ b: Double) -> String {
    func h(_ x: Double) -> String {
        let v = Int(max(0, min(255, x)).rounded())
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
    return "#" + h(r) + h(g) + h(b)
}
