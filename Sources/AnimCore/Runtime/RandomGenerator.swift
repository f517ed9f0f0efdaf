// RandomGenerator: seeded, reproducible randomness (SplitMix64, Steele, Lea & Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014). Same seed, same numbers,
// on every machine.

/// A seeded pseudo-random generator.
public struct RandomGenerator: Sendable, Equatable {
    private var state: UInt64

    /// The seed used when neither `seed` nor `--seed` gives one.
    public static let defaultSeed: UInt64 = 0x616E_696D  // "anim"

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1) from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// A seed from a script number: integers map to themselves, other values to their bits.
    public static func seed(from x: Double) -> UInt64 {
        if x == x.rounded(), x.magnitude < 9.2e18 { return UInt64(bitPattern: Int64(x)) }
        return x.bitPattern
    }

    /// Mixes two seeds (for `--seed` combined with a script's `seed` statement).
    public static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var g = RandomGenerator(seed: a ^ (b &* 0x9E37_79B9_7F4A_7C15))
        return g.next()
    }
}
