// DecimalLiteral keeps short literals as one integer and takes Clinger's fast path to a
// Double; both must give exactly what the digit-by-digit definitions give.
@testable import AnimCore
import Testing

@Suite("DecimalLiteral")
struct DecimalLiteralTests {
    /// The digit-by-digit definition of `scaledInteger` (round half up on the first dropped digit).
    static func referenceScaled(_ digits: [UInt8], exponent: Int, shift: Int) -> Int64? {
        if digits.isEmpty { return 0 }
        let keep = digits.count + exponent + shift
        if keep > 19 { return nil }
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

    @Test("parses, converts and scales like the digit-by-digit definitions")
    func agreesWithReference() throws {
        var rng = RandomGenerator(seed: 11)
        var texts = ["0", "0.0", "007", "0.05", ".5", "1.5", "1e3", "2e-3", "2.5E+2", "123456789012345678901234",
                     "0.1", "0.30000000000000004", "9007199254740993", "1e22", "1e23", "4.9e-324", "1.7976931348623157e308"]
        for _ in 0..<2000 {
            var t = ""
            for _ in 0..<(1 + Int(rng.next() % 24)) { t += String(rng.next() % 10) }
            if rng.next() % 2 == 0 {
                let at = Int(rng.next() % UInt64(t.count + 1))
                t.insert(".", at: t.index(t.startIndex, offsetBy: at))
                if t == "." { t = "0.5" }
            }
            if rng.next() % 3 == 0 { t += "e" + String(Int(rng.next() % 60) - 30) }
            texts.append(t)
        }
        for t in texts {
            let d = try #require(DecimalLiteral(t), "\(t) parses")
            #expect(d.doubleValue == Double(t), "\(t): doubleValue")
            for shift in [0, 3, 6, 9, -2, 20] {
                #expect(d.scaledInteger(shift: shift) == Self.referenceScaled(d.digits, exponent: d.exponent, shift: shift),
                        "\(t) scaled by 10^\(shift)")
            }
        }
        for bad in ["", ".", "e5", "1e", "1e+", "1.2.3", "1x", "--1", "1e5.5"] { #expect(DecimalLiteral(bad) == nil, "\(bad)") }
        #expect(DecimalLiteral("1.50")?.digits == [1, 5, 0])
        #expect(DecimalLiteral("0.050")?.exponent == -3)
    }
}
