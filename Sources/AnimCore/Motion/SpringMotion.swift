// SpringMotion: one scalar component of a spring, in closed form (the standard solution of the
// damped harmonic oscillator m·x″ + c·x′ + k·x = 0; e.g. Popmotion generators/spring.ts, Wobble),
// never a step integrator, so any instant can be sampled exactly. The settling time is found
// from the solution's structure (its extrema and zeros), then refined by bisection on a piece
// where the motion is monotone, so it is exact to well under a microsecond.
//
// Every quantity below has the form g(t) = p·E(t)C(t) + q·E(t)S(t), with E = e^(−a·t),
// a = c ÷ 2m, and per regime (w = √|a² − ω₀²|):
//   under-damped      C = cos(w·t)   S = sin(w·t) ÷ w
//   critically damped C = 1          S = t
//   over-damped       C = cosh(w·t)  S = sinh(w·t) ÷ w
// Displacement x = position − to has (p, q) = (x₀, v₀ + a·x₀), and the derivative of any g is
// again such a form: (p, q) ↦ (q − a·p, (a² − ω₀²)·p − a·q). So velocity and acceleration are
// exact too, and all three regimes share one formula for each.
import Synchronization

/// The motion of one scalar under a spring, from `from` (moving at `velocity`) to `to`.
public struct SpringMotion: Hashable, Sendable {
    /// The damping regimes.
    public enum Regime: Hashable, Sendable {
        /// ζ < 1: oscillates about the target with decaying amplitude.
        case underdamped
        /// ζ = 1 (within 1e-12): the fastest approach that does not oscillate.
        case criticallyDamped
        /// ζ > 1: creeps to the target without oscillating.
        case overdamped
    }

    /// The spring.
    public let parameters: SpringParameters
    /// The start value.
    public let from: Double
    /// The target value.
    public let to: Double
    /// The velocity at t = 0, in units per second.
    public let initialVelocity: Double
    /// The damping regime.
    public let regime: Regime

    /// a = c ÷ 2m = ζ·ω₀, the decay rate of the envelope.
    let decay: Double
    /// a² − ω₀²: negative under-damped, zero critical, positive over-damped.
    let kappa: Double
    /// w = √|a² − ω₀²|: the damped angular frequency (under) or the spread of the rates (over).
    let spread: Double

    /// A damped form p·E·C + q·E·S (see the file comment).
    struct Form: Hashable, Sendable {
        /// The coefficient of E·C.
        var p: Double
        /// The coefficient of E·S.
        var q: Double
    }

    /// Creates the motion; `velocity` is in units per second.
    public init(parameters: SpringParameters, from: Double, to: Double, velocity: Double) {
        self.parameters = parameters
        self.from = from
        self.to = to
        self.initialVelocity = velocity
        let omega0 = parameters.naturalFrequency
        let zeta = parameters.dampingRatio
        decay = parameters.damping / (2 * parameters.mass)
        // 1e-12 keeps SwiftUI's `bounce 0` critical despite rounding; both other forms tend
        // continuously to the critical one there, so the choice changes results by ~1e-12 only.
        if abs(zeta - 1) <= 1e-12 {
            regime = .criticallyDamped
            kappa = 0
            spread = 0
        } else {
            regime = zeta < 1 ? .underdamped : .overdamped
            // (ζ − 1)(ζ + 1) rather than ζ² − 1: no cancellation near ζ = 1.
            kappa = omega0 * omega0 * (zeta - 1) * (zeta + 1)
            spread = omega0 * (abs((zeta - 1) * (zeta + 1))).squareRoot()
        }
    }

    /// The displacement x = position − to as a form.
    var displacement: Form { Form(p: from - to, q: initialVelocity + decay * (from - to)) }

    /// The time derivative of a form.
    func derivative(_ g: Form) -> Form {
        Form(p: g.q - decay * g.p, q: kappa * g.p - decay * g.q)
    }

    /// The slow root of the over-damped motion, r₁ = −a + w, computed as −ω₀² ÷ (a + w)
    /// (r₁·r₂ = ω₀²) so that a strongly over-damped spring loses no digits to cancellation.
    var slowRoot: Double { -(parameters.stiffness / parameters.mass) / (decay + spread) }

    /// The value of a form at time t ≥ 0, one branch per regime.
    func value(_ g: Form, at t: Double) -> Double {
        switch regime {
        case .underdamped:
            let wt = spread * t
            return expDouble(-decay * t) * (g.p * cosRadians(wt) + g.q * sinRadians(wt) / spread)
        case .criticallyDamped:
            return expDouble(-decay * t) * (g.p + g.q * t)
        case .overdamped:
            // E·cosh = (e^(r₁t) + e^(r₂t)) ÷ 2 and E·sinh ÷ w = e^(r₁t)·(1 − e^(−2wt)) ÷ 2w, written with
            // decaying exponentials only (no overflow) and expm1 (no cancellation for small w·t).
            let e1 = expDouble(slowRoot * t)
            let e2 = expDouble(-(decay + spread) * t)
            let sinhPart = -e1 * expm1Double(-2 * spread * t) / (2 * spread)
            return g.p * (e1 + e2) / 2 + g.q * sinhPart
        }
    }

    // MARK: - Sampling

    /// The position at time `t` seconds after the start (`from` for t ≤ 0).
    public func position(at t: Double) -> Double {
        t <= 0 ? from : to + value(displacement, at: t)
    }

    /// The velocity at time `t`, in units per second, from the analytic derivative
    /// (`initialVelocity` for t ≤ 0).
    public func velocity(at t: Double) -> Double {
        t <= 0 ? initialVelocity : value(derivative(displacement), at: t)
    }

    // MARK: - Settling

    /// The settling time in seconds: the first instant after which |position − to| and
    /// |velocity| (per second) both stay below ε·|Δ|, with Δ = from − to. When Δ = 0 the scale is
    /// |v₀|·1 s instead, and when Δ = 0 and v₀ = 0 the spring is already at rest: 0.
    /// Exact to about 1e-12 s. Returns infinity if ε is not above 0.
    public func settlingTime(epsilon: Double = 0.001) -> Double {
        guard epsilon > 0 else { return .infinity }
        // The search below costs some 15,000 instructions (a bisection of sines and
        // exponentials); the same spring is timed again on every keystroke of the language
        // server and every save of the studio, so its answer is remembered.
        let key = SettleKey(self, epsilon)
        if let t = SettleKey.cache.withLock({ $0[key] }) { return t }
        let t = searchSettlingTime(epsilon: epsilon)
        SettleKey.cache.withLock { c in
            if c.count >= SettleKey.capacity { c.removeAll(keepingCapacity: true) }
            c[key] = t
        }
        return t
    }

    /// `settlingTime(epsilon:)`, searched for (ε > 0) rather than remembered.
    func searchSettlingTime(epsilon: Double) -> Double {
        let delta = from - to
        let scale: Double
        if delta != 0 {
            scale = abs(delta)
        } else if initialVelocity != 0 {
            scale = abs(initialVelocity) * 1   // × 1 s: a velocity scale for a spring that starts on target
        } else {
            return 0
        }
        let threshold = epsilon * scale
        let x = displacement
        return max(lastTimeAbove(x, threshold), lastTimeAbove(derivative(x), threshold))
    }

    /// The settling time rounded up onto the tick grid, so the spring is at rest from that tick
    /// on; nil if it does not fit on the clock.
    public func settlingDuration(epsilon: Double = 0.001) -> Time? {
        SpringMotion.ticksRoundedUp(settlingTime(epsilon: epsilon))
    }

    /// The settling time of a spring that moves several components at once (a point's x and y,
    /// a color's channels): the largest of the components' settling times, each component
    /// judged against its own Δ (and its own Δ = 0 rule). 0 for no components.
    public static func settlingTime(of components: [SpringMotion], epsilon: Double = 0.001) -> Double {
        components.reduce(0) { max($0, $1.settlingTime(epsilon: epsilon)) }
    }

    /// `settlingTime(of:epsilon:)` rounded up onto the tick grid; nil if it does not fit.
    public static func settlingDuration(of components: [SpringMotion], epsilon: Double = 0.001) -> Time? {
        ticksRoundedUp(settlingTime(of: components, epsilon: epsilon))
    }

    /// Seconds rounded up to whole ticks; nil if negative, infinite or beyond the clock.
    static func ticksRoundedUp(_ seconds: Double) -> Time? {
        let t = (seconds * Double(Time.ticksPerSecond)).rounded(.up)
        guard t.isFinite, t >= 0, t < 9.2e18 else { return nil }
        return Time(ticks: Int64(t))
    }

    /// sup { t ≥ 0 : |g(t)| ≥ θ }, or 0 if |g| < θ throughout.
    func lastTimeAbove(_ g: Form, _ threshold: Double) -> Double {
        regime == .underdamped ? lastTimeAboveOscillating(g, threshold) : lastTimeAboveMonotone(g, threshold)
    }

    /// Under-damped: g = e^(−a·t)·R·cos(w·t − φ). Its zeros and its extrema each recur every π/w
    /// and interlace, so |g| is monotone between an extremum and the next zero, and the extremum
    /// values |g(e₀ + k·π/w)| = |g(e₀)|·e^(−a·k·π/w) shrink geometrically: the last extremum at or
    /// above θ has a closed-form index, and the crossing lies between it and the next zero.
    private func lastTimeAboveOscillating(_ g: Form, _ threshold: Double) -> Double {
        let half = Double.pi / spread
        let firstZero = firstRoot(g)
        let firstPeak = firstRoot(derivative(g))
        let peak = abs(value(g, at: firstPeak))
        var k = -1.0
        if peak >= threshold {
            k = (logDouble(peak / threshold) / (decay * half)).rounded(.down)
        }
        // The closed form can be one off through rounding; settle it on the values themselves.
        for _ in 0..<4 where k >= 0 && abs(value(g, at: firstPeak + k * half)) < threshold { k -= 1 }
        for _ in 0..<4 where abs(value(g, at: firstPeak + (k + 1) * half)) >= threshold { k += 1 }
        if k >= 0 {
            let lo = firstPeak + k * half
            var hi = firstZero + ((lo - firstZero) / half).rounded(.up) * half
            if hi <= lo { hi += half }
            return bisect(g, threshold, lo, hi)
        }
        // No extremum reaches θ. If g(0) does, |g| falls from t = 0 to the first zero: had an
        // extremum come first, |g| would have risen to it.
        if abs(value(g, at: 0)) >= threshold { return bisect(g, threshold, 0, firstZero > 0 ? firstZero : half) }
        return 0
    }

    /// The first t in [0, π/w) where an under-damped form is zero: p·cos(wt) + (q/w)·sin(wt) = 0.
    private func firstRoot(_ g: Form) -> Double {
        let phi = atan2Double(g.q / spread, g.p)        // g ∝ cos(w·t − φ)
        var base = phi + Double.pi / 2                  // cos vanishes at w·t − φ = π/2 + kπ
        if base < 0 { base += Double.pi }
        if base >= Double.pi { base -= Double.pi }
        return base / spread
    }

    /// Critically and over-damped: g has at most one zero and one extremum after 0, so |g| is
    /// monotone between them and decreases to 0 after the last one.
    private func lastTimeAboveMonotone(_ g: Form, _ threshold: Double) -> Double {
        var breaks = [0.0]
        if let z = nonOscillatingRoot(g) { breaks.append(z) }
        if let e = nonOscillatingRoot(derivative(g)) { breaks.append(e) }
        breaks.sort()
        guard let i = breaks.lastIndex(where: { abs(value(g, at: $0)) >= threshold }) else { return 0 }
        let lo = breaks[i]
        var hi: Double
        if i + 1 < breaks.count {
            hi = breaks[i + 1]
        } else {
            // The tail falls monotonically to 0; widen by doubling until it is below θ.
            var step = 1 / (regime == .criticallyDamped ? decay : -slowRoot)
            hi = lo + step
            for _ in 0..<2000 where abs(value(g, at: hi)) >= threshold {
                step *= 2
                hi = lo + step
            }
        }
        return bisect(g, threshold, lo, hi)
    }

    /// The zero after t = 0 of a critically or over-damped form, if any.
    private func nonOscillatingRoot(_ g: Form) -> Double? {
        guard g.q != 0 else { return nil }
        if regime == .criticallyDamped {
            let t = -g.p / g.q                          // p + q·t = 0
            return t > 0 ? t : nil
        }
        let y = -g.p * spread / g.q                     // tanh(w·t) = −p·w ÷ q
        guard y > 0, y < 1 else { return nil }
        return 0.5 * log1pDouble(2 * y / (1 - y)) / spread   // atanh(y) ÷ w
    }

    /// The crossing of |g| = θ on [lo, hi], where |g| decreases from ≥ θ to < θ; returns the
    /// upper end of the final bracket, so |g| < θ just after it.
    private func bisect(_ g: Form, _ threshold: Double, _ lo: Double, _ hi: Double) -> Double {
        var lo = lo, hi = hi
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid <= lo || mid >= hi { break }
            if abs(value(g, at: mid)) >= threshold { lo = mid } else { hi = mid }
        }
        return hi
    }
}

/// The exact inputs of a settling time (the bit patterns of the spring's parameters, both
/// ends, the velocity and ε), the key of the process-wide table of settling times already
/// found. Bit patterns, not Doubles: 0 and −0 (and NaNs) are told apart, so a remembered
/// answer is always the one the search would give.
private struct SettleKey: Hashable {
    var stiffness, damping, mass, from, to, velocity, epsilon: UInt64

    init(_ m: SpringMotion, _ epsilon: Double) {
        stiffness = m.parameters.stiffness.bitPattern
        damping = m.parameters.damping.bitPattern
        mass = m.parameters.mass.bitPattern
        from = m.from.bitPattern
        to = m.to.bitPattern
        velocity = m.initialVelocity.bitPattern
        self.epsilon = epsilon.bitPattern
    }

    /// At most this many answers are kept (about 5 MB); the table starts over when full.
    static let capacity = 65_536
    static let cache = Mutex<[SettleKey: Double]>([:])
}
