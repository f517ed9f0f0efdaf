// ValueFormatting: the canonical printing of every kind (brief §2) — numbers rounded to 6
// decimals with trailing zeros dropped and never `-0`, points `(25, 0)`, angles `90deg`,
// times `1.5s`, colors `#rrggbb`/`#rrggbbaa` rounded half up — and the JSON forms.
@testable import AnimCore
import Testing

@Suite("Value formatting")
struct ValueFormattingTests {
    @Test("numbers", arguments: [
        (25.0, "25"), (0.5, "0.5"), (1.0 / 3, "0.333333"), (2.0 / 3, "0.666667"), (-1.5, "-1.5"),
        (0.0000005, "0.000001"), (0.0000004999, "0"), (-0.0000004, "0"), (-0.0000005, "-0.000001"),
        (-0.0, "0"), (0.1 + 0.2, "0.3"), (1234567.1234567, "1234567.123457"), (1e15, "1000000000000000"),
        (123456789012.5, "123456789012.5"), (1e20, "100000000000000000000"), (-1.5e19, "-15000000000000000000"),
        (Double.nan, "nan"), (Double.infinity, "inf"), (-Double.infinity, "-inf"),
    ])
    func numbers(x: Double, text: String) {
        #expect(formatNumber(x) == text)
    }

    @Test("color channels round half up and clamp", arguments: [
        (0.0, "00"), (0.49, "00"), (0.5, "01"), (127.49, "7f"), (127.5, "80"), (254.5, "ff"), (255, "ff"),
        (300, "ff"), (-5, "00"),
    ])
    func channels(v: Double, hex: String) {
        #expect(hexByte(v) == hex)
    }

    @Test func kinds() {
        #expect(Value.point(Point(25, 0)).description == "(25, 0)")
        #expect(Value.point(Point(-0.0000001, 1.0 / 3)).description == "(0, 0.333333)")
        #expect(Value.angle(Angle(degrees: 90)).description == "90deg")
        #expect(Value.angle(Angle(radians: Double.pi)).description == "180deg")
        #expect(Value.time(Time(ticks: 1_500_000_000)).description == "1.5s")
        #expect(Value.color(Color(r: 255, g: 136, b: 0)).description == "#ff8800")
        #expect(Value.color(Color(r: 255, g: 136, b: 0, a: 0.5)).description == "#ff880080")
        #expect(Value.color(Color(r: 0, g: 0, b: 0, a: 0.999)).description == "#000000")  // alpha rounds to ff
        #expect(Value.string("hi").description == "hi")
        #expect(Value.bool(false).description == "false")
        #expect(Value.list([.number(1), .string("a"), .list([.bool(true)])]).description == "[1, \"a\", [true]]")
        #expect(Value.shape(ShapeID(3)).description == "shape#3")
    }

    @Test func sceneNamesShapes() {
        var scene = Scene()
        let a = scene.add(name: "square", kind: .rect, propertyCount: BuiltinProperty.allCases.count)
        let b = scene.add(name: "card[1]", kind: .rect, propertyCount: BuiltinProperty.allCases.count)
        #expect(scene.describe(.shape(a)) == "square")
        #expect(scene.describe(.list([.shape(a), .shape(b), .string("x")])) == "[square, card[1], \"x\"]")
        #expect(scene.describe(.shape(ShapeID(9))) == "shape#9")
    }

    @Test func hexColorsParse() {
        #expect(Color(hex: "abc") == Color(r: 170, g: 187, b: 204))
        #expect(Color(hex: "abcd")?.description == "#aabbccdd")
        #expect(Color(hex: "FF880080")?.description == "#ff880080")
        #expect(Color(hex: "abcde") == nil)
        #expect(Color(hex: "ggg") == nil)
    }

    @Test func hexColorsAgreeWithCharacterDigits() {
        // Color(hex:) reads ASCII as bytes; the reference reads every text by Character.
        func reference(_ hex: String) -> Color? {
            let ds = hex.compactMap { $0.hexDigitValue }
            guard ds.count == hex.count else { return nil }
            switch ds.count {
            case 3, 4:
                return Color(r: Double(ds[0] * 17), g: Double(ds[1] * 17), b: Double(ds[2] * 17), a: ds.count == 4 ? Double(ds[3] * 17) / 255 : 1)
            case 6, 8:
                return Color(r: Double(ds[0] * 16 + ds[1]), g: Double(ds[2] * 16 + ds[3]), b: Double(ds[4] * 16 + ds[5]),
                             a: ds.count == 8 ? Double(ds[6] * 16 + ds[7]) / 255 : 1)
            default: return nil
            }
        }
        let texts = ["abc", "ABC", "aBc9", "ff8800", "FF880080", "09afAF", "", "a", "ab", "abcde", "abcdefa", "abcdef012",
                     "ggg", "12g", "ｆｆｆ", "ff８800", "a\u{301}bc", "abc\u{301}", "é12", "12 3", "\r\nab", "abcdefgh"]
        for t in texts + CSSColors.table.values.sorted() { #expect(Color(hex: t) == reference(t), "\(t)") }
        #expect(Color(hex: "ｆｆｆ") == Color(r: 255, g: 255, b: 255))
    }

    @Test func hsl() {
        // CSS Color 4 §7.1 reference values.
        #expect(Color(hue: 120, saturation: 1, lightness: 0.25).description == "#008000")
        #expect(Color(hue: 0, saturation: 1, lightness: 0.5).description == "#ff0000")
        #expect(Color(hue: -120, saturation: 1, lightness: 0.5).description == "#0000ff")
        #expect(Color(hue: 720 + 60, saturation: 1, lightness: 0.5).description == "#ffff00")
        #expect(Color(hue: 0, saturation: 0, lightness: 0.5).description == "#808080")
    }

    @Test func namedColors() {
        #expect(Color.named("rebeccapurple")?.description == "#663399")
        #expect(Color.named("transparent")?.description == "#00000000")
        #expect(Color.named("grey") == Color.named("gray"))
        #expect(Color.named("Red") == nil)  // names are lowercase, as written in CSS
    }

    @Test func json() {
        #expect(jsonValue(.number(0.5)) == "0.5")
        #expect(jsonValue(.number(.nan)) == "null")
        #expect(jsonValue(.point(Point(1, -2.5))) == "[1,-2.5]")
        #expect(jsonValue(.time(Time(ticks: 1_300_000_000))) == "1.3")
        #expect(jsonValue(.angle(Angle(degrees: 90))) == "90")
        #expect(jsonValue(.color(Color(r: 255, g: 0, b: 0))) == "\"#ff0000\"")
        #expect(jsonValue(.list([.bool(true), .string("a")])) == "[true,\"a\"]")
        #expect(quote("a\"b\\c\nd\te\u{1}") == #""a\"b\\c\nd\te\u0001""#)
    }

    /// formatNumber as it was written before it wrote its bytes itself (rounding the shortest
    /// decimal text through DecimalLiteral, building the text with String operations): the
    /// reference the faster body must agree with on every number.
    static func referenceFormatNumber(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        if let dec = DecimalLiteral(x.magnitude.description), let scaled = dec.scaledInteger(shift: 6) {
            if scaled == 0 { return "0" }
            let whole = scaled / 1_000_000
            var frac = String(scaled % 1_000_000)
            frac = String(repeating: "0", count: 6 - frac.count) + frac
            while frac.last == "0" { frac.removeLast() }
            return (x < 0 ? "-" : "") + String(whole) + (frac.isEmpty ? "" : "." + frac)
        }
        let r = x.rounded()
        if r.magnitude < 1e18 { return String(Int64(r)) }
        if let dec = DecimalLiteral(r.magnitude.description), dec.exponent >= 0 {
            return (x < 0 ? "-" : "") + dec.digits.map(String.init).joined() + String(repeating: "0", count: dec.exponent)
        }
        return r.description
    }

    @Test func numbersAgreeWithTheReference() {
        var state: UInt64 = 0x5eed_f0a7
        func next() -> UInt64 {  // SplitMix64 (Steele, Lea and Flood 2014)
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        var xs: [Double] = [0, -0.0, 1, -1, 0.5, 1e-7, 5e-7, 4.999999e-7, 1e14, 1e15 - 1, 1e15, 1e15 + 0.5, 9.2e12, 9.3e12,
                            9_223_372_036_854.775, 1e18, 1e19, 123.0000005, -123.0000005, 0.1 + 0.2, .leastNonzeroMagnitude,
                            .greatestFiniteMagnitude, .pi, -.pi, 2.5e-6, 99.9999995, 99.9999994]
        for _ in 0..<20_000 {
            let bits = next()
            var scale = 1.0                                           // 1e-20 ... 1e19
            for _ in 0..<Int(bits % 40) { scale *= 10 }
            let mantissa = Double(bits >> 11) / Double(1 << 53)
            var x = (mantissa + 0.1) * scale / 1e20
            if bits & 1 == 1 { x = -x }
            if bits & 6 == 6 { x = (x * 1e6).rounded() / 1e6 }         // six decimals exactly, as scripts write them
            if bits & 24 == 24 { x = x.rounded() }                     // whole numbers
            xs.append(x)
        }
        for x in xs { #expect(formatNumber(x) == ValueFormattingTests.referenceFormatNumber(x), "\(x)") }
    }
}
