// FrameGrid: the instants a renderer samples at `--fps`. Frame f is at f ÷ fps seconds rounded
// to the nearest tick, computed from f and never accumulated, so at 60 fps frame 30 000 is
// exactly 500 s. Frames are sampling points, not the clock: events keep their exact times.

/// The frames of a run at a frame rate.
public struct FrameGrid: Hashable, Sendable {
    /// Frames per second (at least 1).
    public var fps: Int

    /// Creates a grid; `fps` below 1 counts as 1.
    public init(fps: Int) { self.fps = max(1, fps) }

    /// The time of frame `f` (`.max` if it is beyond the clock's range): f × 10⁹ ÷ fps ns,
    /// rounded half up.
    @inline(__always)
    public func time(ofFrame f: Int64) -> Time {
        let rate = Int64(fps)
        // Whole seconds and the remaining frames apart, so no product overflows before the clock does.
        let (whole, o) = (f / rate).multipliedReportingOverflow(by: Time.ticksPerSecond)
        if o { return .max }
        let (sum, o2) = whole.addingReportingOverflow(((f % rate) * Time.ticksPerSecond + rate / 2) / rate)
        return o2 ? .max : Time(ticks: sum)
    }

    /// The last frame at or before `t` (frames before 0 are never used: at least 0).
    public func lastFrame(atOrBefore t: Time) -> Int64 {
        guard t.ticks > 0 else { return 0 }
        // A floating-point estimate, then exact steps to the frame that rounds to at most t.
        var f = Int64((Double(t.ticks) / Double(Time.ticksPerSecond) * Double(fps)).rounded(.down))
        while f > 0 && time(ofFrame: f) > t { f -= 1 }
        while time(ofFrame: f + 1) <= t { f += 1 }
        return f
    }

    /// The first frame at or after `t`.
    public func firstFrame(atOrAfter t: Time) -> Int64 {
        guard t.ticks > 0 else { return 0 }
        return lastFrame(atOrBefore: t - Time(ticks: 1)) + 1
    }
}
