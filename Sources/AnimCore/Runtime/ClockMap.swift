// ClockMap: the one affine map between two clocks — an instance's local time against its
// parent's or the global clock, a recording's time against a recorded track's, a log's time
// base against a piece's. Every conversion of time between clocks goes through here, written
// once: the offset from the anchor, scaled by the rate and rounded half away from zero to the
// tick, exact when the rate is 1, 0 or −1.

/// An affine map from one clock to another: `local + (t − global) × rate`.
public struct ClockMap: Hashable, Sendable {
    /// The source clock's time at the anchor.
    public var global: Time
    /// The target clock's time at the anchor.
    public var local: Time
    /// Target seconds per source second.
    public var rate: Double

    /// A map through the anchor (`global`, `local`) at `rate`.
    public init(global: Time, local: Time, rate: Double) {
        self.global = global
        self.local = local
        self.rate = rate
    }

    /// The identity.
    public static let identity = ClockMap(global: .zero, local: .zero, rate: 1)

    /// The target time at source time `t` (saturating at the ends of the clock's range).
    @inline(__always)
    public func callAsFunction(_ t: Time) -> Time {
        let d = t - global
        if rate == 1 { return local + d }
        if rate == 0 { return local }
        if rate == -1 { return local - d }
        return local + Time.scaledTicks(Double(d.ticks) * rate)
    }

    /// The source time at which the target clock shows `t`; nil if the rate is 0 or the answer
    /// is beyond the clock's range.
    public func inverse(_ t: Time) -> Time? {
        let d = t - local
        if rate == 1 { return global.adding(d) }
        if rate == 0 { return nil }
        if rate == -1 { return global.adding(Time.zero - d) }
        let x = (Double(d.ticks) / rate).rounded(.toNearestOrAwayFromZero)
        guard x.isFinite, abs(x) < 9e18 else { return nil }
        return global.adding(Time(ticks: Int64(x)))
    }

    /// The map from this map's source clock to `next`'s target clock (`next` after `self`):
    /// anchored where this one is, its target time carried through `next`.
    @inline(__always)
    public func then(_ next: ClockMap) -> ClockMap {
        ClockMap(global: global, local: next(local), rate: rate * next.rate)
    }
}

extension Time {
    /// A tick count computed in floating point, rounded half away from zero and clamped to the
    /// clock's range.
    @inline(__always)
    static func scaledTicks(_ x: Double) -> Time {
        let r = x.rounded(.toNearestOrAwayFromZero)
        if r >= 9.2e18 { return .max }
        if r <= -9.2e18 { return Time(ticks: .min) }
        return Time(ticks: r.isNaN ? 0 : Int64(r))
    }
}
