// TrackCode: how the HTML player stores a sampled track compactly — the samples quantized to
// the precision the player shows (1/1000 of a pixel, a degree or a colour level; 1/10000 of
// opacity), then second differences, then runs, in Base64 VLQ. A still stretch and a
// straight-line stretch both become runs of zero; a spring's samples cost two or three
// characters each. Decoding (HTMLPlayerScript) gives back exactly the numbers the player
// showed when it held the samples as decimal text: q ÷ 1000 is the double nearest to the
// decimal q/1000, as parsing "q/1000" written out would give.
//
// The code of a track of n integer samples q₀ … qₙ₋₁:
//   dₖ = qₖ − qₖ₋₁ and eₖ = dₖ − dₖ₋₁, with q₋₁ = d₋₁ = 0 (so e₀ = q₀, e₁ = q₁ − 2q₀);
//   each eₖ is written as a Base64 VLQ; `*` followed by a VLQ m repeats the value before it
//   m more times. Decoding: d += e; q += d.
// Base64 VLQ is the source-map encoding (Source Map Revision 3, "Base64 VLQ"): the value's
// magnitude shifted left by one with the sign in the lowest bit, written five bits at a time
// from the lowest, each in one Base64 digit (A–Z a–z 0–9 + /) whose bit 5 says another follows.
// The digits and `*` need no escaping in a JSON string, and `<` never occurs, so the code can
// sit in a `<script>` as it is.

/// Encodes sampled tracks for the HTML player.
enum TrackCode {
    /// The Base64 digits.
    static let digits: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// The run marker.
    static let run = UInt8(ascii: "*")
    /// The largest quantized magnitude: samples beyond ±2⁴⁹ units are clamped, so every
    /// difference stays within ±2⁵¹ and the page decodes it exactly (JavaScript numbers are
    /// exact integers up to 2⁵³).
    static let limit: Double = 562_949_953_421_312  // 2^49

    /// A sample as an integer count of 1/`scale` units, rounded half away from zero as the
    /// player's decimal text was (`formatFixed`); 0 for a value that is not finite.
    ///
    /// The rounding is done by hand: `rounded()` is a call into the C library per sample.
    /// Clamping first is the same as clamping the rounded value (`limit` is a whole number),
    /// and below 2⁵² the fraction `y − trunc(y)` is exact, so comparing it with ±½ is exact.
    @inline(__always)
    static func quantize(_ x: Double, scale: Double) -> Int64 {
        guard x.isFinite else { return 0 }
        let y = max(-limit, min(limit, x * scale))
        let whole = Int64(y)
        let fraction = y - Double(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }

    /// The most digits one VLQ of a track takes: |e| < 2⁵² (see `limit`), so with the sign
    /// bit 53 bits, 5 per digit.
    static let widest = 11

    /// Appends the code of `values` (at least one) in units of 1/`scale` to `out`.
    ///
    /// Room is made once for the longest code and the digits stored through a pointer: a run
    /// writes its value once and then either `*` and a count (only when shorter) or the value
    /// again, so the code is at most `widest` digits a sample. (Appending digit by digit cost
    /// a uniqueness and capacity check a byte, and the digit table's lazy global a digit; a
    /// local function sharing the loop's state kept that state in memory.)
    static func append(_ values: [Double], scale: Double, to out: inout ByteWriter) {
        guard !values.isEmpty else { return }
        let base = out.room(values.count * widest)
        let written = digits.withUnsafeBufferPointer { table in
            values.withUnsafeBufferPointer { v in
                var w = Writer(base: base, table: table.baseAddress!)
                // e₀ = q₀; then each sample's second difference, runs of one value gathered.
                var q = quantize(v[0], scale: scale), d = q
                var pending = q, repeats = 0
                for k in 1..<v.count {
                    let next = quantize(v[k], scale: scale)
                    let delta = next &- q
                    let e = delta &- d
                    q = next
                    d = delta
                    if e == pending {
                        repeats += 1
                    } else {
                        w.value(pending, repeated: repeats)
                        pending = e
                        repeats = 0
                    }
                }
                w.value(pending, repeated: repeats)
                return w.count
            }
        }
        out.advance(by: written)
    }

    /// Writes digits into a buffer with room for them (`append` makes it).
    struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        let table: UnsafePointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        /// Writes one Base64 VLQ; returns how many digits it took.
        @inline(__always) @discardableResult
        mutating func vlq(_ value: Int64) -> Int {
            var z = value < 0 ? (value.magnitude << 1) | 1 : value.magnitude << 1
            // Most second differences take one digit.
            if z < 32 {
                put(table[Int(z)])
                return 1
            }
            let start = count
            repeat {
                var digit = Int(z & 31)
                z >>= 5
                if z != 0 { digit |= 32 }
                put(table[digit])
            } while z != 0
            return count - start
        }

        /// Writes `value` followed by `repeats` more of it: a run marker and its count, or
        /// the value again, whichever is shorter.
        @inline(__always)
        mutating func value(_ value: Int64, repeated repeats: Int) {
            let width = vlq(value)
            guard repeats > 0 else { return }
            if 1 + vlqWidth(Int64(repeats)) < repeats * width {
                put(run)
                vlq(Int64(repeats))
            } else {
                for _ in 0..<repeats { vlq(value) }
            }
        }
    }

    /// The digits of one Base64 VLQ.
    @inline(__always)
    static func vlqWidth(_ value: Int64) -> Int {
        var z = value < 0 ? (value.magnitude << 1) | 1 : value.magnitude << 1
        var n = 1
        while z >= 32 { z >>= 5; n += 1 }
        return n
    }
}
