// WebText: the text the web outputs write — SVG path data, XML and JSON strings, fixed-point
// and integer numbers appended to a byte buffer, hex colours — shared by the HTML player's data
// (HTMLPlayer, TrackCode), the animated SVG and the live studio's scene.

import Foundation

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

/// Appends `jsonString(s)` to `o`, byte by byte (the same escapes as `quote(_:htmlSafe: true)`:
/// `\"`, `\\`, `\n`, `\r`, `\t`, `\u00XX` below 0x20, and `\u…` for `<`, `>`, `&`, U+2028 and
/// U+2029), without building a String.
func appendJSONString(_ s: String, to o: inout [UInt8]) {
    o.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { appendJSONEscaped($0, to: &o) }
    o.append(UInt8(ascii: "\""))
}

/// Appends the escaped bytes of a whole UTF-8 string (no quotes), as `appendJSONString` does:
/// escaping works scalar by scalar, so pieces escaped one after another are the escaped whole.
func appendJSONEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to o: inout [UInt8]) {
    func hex(_ v: UInt32) {
        o.append(UInt8(ascii: "\\"))
        o.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            let d = UInt8((v >> UInt32(shift)) & 0xF)
            o.append(d < 10 ? UInt8(ascii: "0") + d : UInt8(ascii: "a") + d - 10)
        }
    }
    var k = 0
    let n = utf8.count
    while k < n {
        let c = utf8[k]
        k += 1
        switch c {
        case UInt8(ascii: "\""): o.append(UInt8(ascii: "\\")); o.append(c)
        case UInt8(ascii: "\\"): o.append(c); o.append(c)
        case UInt8(ascii: "\n"): o.append(UInt8(ascii: "\\")); o.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): o.append(UInt8(ascii: "\\")); o.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): o.append(UInt8(ascii: "\\")); o.append(UInt8(ascii: "t"))
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"): hex(UInt32(c))
        case 0..<0x20: hex(UInt32(c))
        case 0xE2 where n - k >= 2 && utf8[k] == 0x80 && (utf8[k + 1] == 0xA8 || utf8[k + 1] == 0xA9):
            hex(utf8[k + 1] == 0xA8 ? 0x2028 : 0x2029)
            k += 2
        default: o.append(c)
        }
    }
}

/// Appends the escaped bytes of a string (no quotes).
func appendJSONEscaped(_ s: String, to o: inout [UInt8]) {
    var s = s
    s.withUTF8 { appendJSONEscaped($0, to: &o) }
}

/// Appends `formatFixed(x, decimals)`'s text, byte by byte, without building a String.
func appendFixed(_ x: Double, _ decimals: Int, to o: inout [UInt8]) {
    guard x.isFinite else { o.append(UInt8(ascii: "0")); return }
    var scale: Int64 = 1
    for _ in 0..<decimals { scale *= 10 }
    guard abs(x * Double(scale)) < 0x1p63 else { o += String(x).utf8; return }
    let n = Int64((x * Double(scale)).rounded())
    if n == 0 { o.append(UInt8(ascii: "0")); return }
    let m = n.magnitude
    let whole = m / UInt64(scale)
    var frac = m % UInt64(scale)
    var digits = decimals
    while digits > 0 && frac % 10 == 0 { frac /= 10; digits -= 1 }
    if n < 0 { o.append(UInt8(ascii: "-")) }
    appendDecimal(whole, to: &o)
    if digits > 0 {
        o.append(UInt8(ascii: "."))
        // The fraction's digits, leading zeros included.
        var buffer: (UInt64, UInt64) = (0, 0)  // room for 16 digits
        withUnsafeMutableBytes(of: &buffer) { d in
            for k in stride(from: digits - 1, through: 0, by: -1) {
                d[k] = UInt8(ascii: "0") + UInt8(frac % 10)
                frac /= 10
            }
            for k in 0..<digits { o.append(d[k]) }
        }
    }
}

/// Appends an unsigned integer's decimal digits.
func appendDecimal(_ v: UInt64, to o: inout [UInt8]) {
    var v = v
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, written backwards
    withUnsafeMutableBytes(of: &buffer) { d in
        var k = 0
        repeat {
            d[k] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
            k += 1
        } while v != 0
        while k > 0 { k -= 1; o.append(d[k]) }
    }
}

/// Appends an integer's decimal text (`String(v)`).
func appendInt(_ v: Int, to o: inout [UInt8]) {
    if v < 0 { o.append(UInt8(ascii: "-")) }
    appendDecimal(UInt64(v.magnitude), to: &o)
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
