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

    /// A sample in 1/`scale` units the plain way: rounded half away from zero, clamped to
    /// ±`TrackCode.limit`, 0 when not finite.
    static func quantize(_ x: Double, scale: Double) -> Int64 {
        x.isFinite ? Int64(max(-TrackCode.limit, min(TrackCode.limit, (x * scale).rounded()))) : 0
    }

    /// The code of `values` from the definition: the second differences grouped into runs.
    static func reference(_ values: [Double], scale: Double) -> [UInt8] {
        var q: Int64 = 0, d: Int64 = 0
        var es: [Int64] = []
        for x in values {
            let n = quantize(x, scale: scale)
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
            var w = ByteWriter(capacity: 0)
            w.put("prefix")
            TrackCode.append(values, scale: scale, to: &w)
            let out = w.bytes
            let expected = Array("prefix".utf8) + Self.reference(values, scale: scale)
            #expect(out == expected, "trial \(trial): \(values.prefix(6))")
            compared += 1
        }
        #expect(compared == 300)
    }

    @Test("the longest code: alternating clamped extremes take the widest digits a sample")
    func widest() {
        let values = (0..<64).map { $0 % 2 == 0 ? 1e300 : -1e300 }
        var w = ByteWriter(capacity: 0)
        TrackCode.append(values, scale: 1000, to: &w)
        let out = w.bytes
        #expect(out == Self.reference(values, scale: 1000))
        #expect(out.count <= values.count * TrackCode.widest)
    }

    @Test("quantizing rounds halves away from zero, as rounded() does, up to the clamp")
    func halves() {
        var values: [Double] = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                                0x1p51 + 0.5, -(0x1p51 + 0.5), 0x1p52, 562_949_953_421_311.5, -562_949_953_421_311.5, 0, -0.0]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            // Whole numbers and halves near them, in units and as the thousandths they are.
            let k = Double(Int.random(in: -1_000_000...1_000_000, using: &rng))
            values += [k + 0.5, k - 0.5, (k + 0.5).nextUp, (k + 0.5).nextDown, k / 1000 + 0.0005]
        }
        for x in values {
            for scale in [1.0, 1000, 10_000] {
                #expect(TrackCode.quantize(x / scale, scale: scale) == Self.quantize(x / scale, scale: scale), "\(x) / \(scale)")
                #expect(TrackCode.quantize(x, scale: scale) == Self.quantize(x, scale: scale), "\(x) at \(scale)")
            }
        }
    }
}
