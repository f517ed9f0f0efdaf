// TrackCode's encoder, written into one buffer per track (issue 14: the studio's save path), gives
// the bytes of the code as its header defines it, computed here the plain way: quantize, second
// differences, runs (a marker and a count only where shorter), Base64 VLQ digit by digit.
@testable import AnimCore
import Testing

@Suite("TrackCode writes the code its definition gives")
struct TrackCodeReferenceTests {
    /// One Base64 VLQ, as the source-map encoding defines it.
    static func vlq(_ v: Int64) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var z = v < 0 ? (v.magnitude << 1) | 1 : v.magnitude << 1
        var out: [UInt8] = []
        repeat {
            let low = Int(z & 31)
            z >>= 5
            out.append(alphabet[z != 0 ? low | 32 : low])
        } while z != 0
        return out
    }

    /// The code of `values` from the definition: the second differences grouped into runs.
    static func reference(_ values: [Double], scale: Double) -> [UInt8] {
        var q: Int64 = 0, d: Int64 = 0
        var es: [Int64] = []
        for x in values {
            let n = TrackCode.quantize(x, scale: scale)
            es.append((n - q) - d)
            d = n - q
            q = n
        }
        var out: [UInt8] = []
        var k = 0
        while k < es.count {
            var m = 0
            while k + m + 1 < es.count && es[k + m + 1] == es[k] { m += 1 }
            let one = vlq(es[k])
            out += one
            if m > 0 {
                let marker = [UInt8(ascii: "*")] + vlq(Int64(m))
                out += marker.count < m * one.count ? marker : Array([[UInt8]](repeating: one, count: m).joined())
            }
            k += m + 1
        }
        return out
    }

    @Test("random tracks: still, straight, jumping, huge and tiny values, appended after other bytes")
    func randomTracks() {
        var rng = SystemRandomNumberGenerator()
        var compared = 0
        for trial in 0..<300 {
            let n = 1 + Int.random(in: 0..<400, using: &rng)
            var values: [Double] = []
            var v = Double.random(in: -500...500, using: &rng)
            for _ in 0..<n {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: break  // still
                case 1: v += 0.25  // a straight stretch
                case 2: v = Double.random(in: -1e6...1e6, using: &rng)
                case 3: v = Double.random(in: -1...1, using: &rng) * 1e300  // clamped
                case 4: v = [Double.infinity, -.infinity, .nan][Int.random(in: 0..<3, using: &rng)]
                default: v += Double.random(in: -3...3, using: &rng)
                }
                values.append(v)
            }
            let scale: Double = trial % 2 == 0 ? 1000 : 10_000
            var out: [UInt8] = Array("prefix".utf8)
            TrackCode.append(values, scale: scale, to: &out)
            let expected = Array("prefix".utf8) + Self.reference(values, scale: scale)
            #expect(out == expected, "trial \(trial): \(values.prefix(6))")
            compared += 1
        }
        #expect(compared == 300)
    }

    @Test("the longest code: alternating clamped extremes take the widest digits a sample")
    func widest() {
        let values = (0..<64).map { $0 % 2 == 0 ? 1e300 : -1e300 }
        var out: [UInt8] = []
        TrackCode.append(values, scale: 1000, to: &out)
        #expect(out == Self.reference(values, scale: 1000))
        #expect(out.count <= values.count * TrackCode.widest)
    }
}
