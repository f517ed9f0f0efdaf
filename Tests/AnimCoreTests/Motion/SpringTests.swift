// SpringTests: spring parameters and the closed-form motion against outside references.
// Sources of the vectors:
//  - Apple's SwiftUI `Spring` documentation (developer.apple.com/documentation/swiftui/spring):
//    Spring(duration: 0.5, bounce: 0.3) has (mass, stiffness, damping) = (1.0, 157.9, 17.6), and
//    Spring(mass: 1, stiffness: 100, damping: 10) has (duration, bounce) = (0.63, 0.5); the default
//    of `Animation.spring(response:dampingFraction:blendDuration:)` is response 0.5,
//    dampingFraction 0.825; bounce is in −1...1 with 0 critically damped.
//  - Flutter `SpringDescription.withDurationAndBounce` (api.flutter.dev), documented to give
//    "the same result as SwiftUI's spring(duration:bounce:)": stiffness = 4π²m ÷ d², damping
//    ratio 1 − bounce for bounce > 0 and 1 ÷ (bounce + 1) otherwise, damping = 2ζ√(mk).
//  - The differential equation m·x″ + c·x′ + k·x = 0 itself, integrated here by classical RK4 at
//    a 10 µs step; the closed form must agree in all three damping regimes and near ζ = 1.
//  - The settling rule of the language brief (§5): displacement and velocity both stay below
//    ε·|Δ| after the settling time; checked by dense sampling after it and by the crossing just
//    before it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import AnimCore

/// RK4 on (x, v) with x″ = −(k·x + c·v) ÷ m, returning (position, velocity) at each time in `at`.
private func integrate(_ s: SpringParameters, from: Double, to: Double, velocity: Double,
                       at times: [Double], step h: Double = 1e-5) -> [(Double, Double)] {
    let k = s.stiffness, c = s.damping, m = s.mass
    func acc(_ x: Double, _ v: Double) -> Double { -(k * x + c * v) / m }
    var x = from - to, v = velocity, t = 0.0
    var out: [(Double, Double)] = []
    for target in times {
        while t < target - 1e-12 {
            let dt = min(h, target - t)
            let k1x = v, k1v = acc(x, v)
            let k2x = v + dt / 2 * k1v, k2v = acc(x + dt / 2 * k1x, v + dt / 2 * k1v)
            let k3x = v + dt / 2 * k2v, k3v = acc(x + dt / 2 * k2x, v + dt / 2 * k2v)
            let k4x = v + dt * k3v, k4v = acc(x + dt * k3x, v + dt * k3v)
            x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += dt
        }
        out.append((to + x, v))
    }
    return out
}

/// A spring case: parameters, motion and the regime it must be in.
struct SpringCase: Sendable, CustomTestStringConvertible {
    var name: String
    var parameters: SpringParameters
    var from: Double
    var to: Double
    var velocity: Double
    var regime: SpringMotion.Regime
    var motion: SpringMotion { SpringMotion(parameters: parameters, from: from, to: to, velocity: velocity) }
    var testDescription: String { name }
}

private func params(_ k: Double, _ c: Double, _ m: Double = 1) -> SpringParameters {
    try! SpringParameters(stiffness: k, damping: c, mass: m)
}

let springCases: [SpringCase] = [
    SpringCase(name: "under-damped ζ 0.5", parameters: params(100, 10), from: 0, to: 100, velocity: 0, regime: .underdamped),
    SpringCase(name: "under-damped, mass 2.5, moving away", parameters: params(300, 8, 2.5), from: 50, to: -20,
               velocity: 400, regime: .underdamped),
    SpringCase(name: "SwiftUI duration 0.5 bounce 0.3", parameters: try! SpringParameters(duration: 0.5, bounce: 0.3),
               from: 1, to: 0, velocity: 0, regime: .underdamped),
    SpringCase(name: "SwiftUI default", parameters: .standard, from: 0, to: 300, velocity: -500, regime: .underdamped),
    SpringCase(name: "very bouncy ζ 0.02", parameters: params(200, 0.5657), from: 0, to: 1, velocity: 0, regime: .underdamped),
    SpringCase(name: "critically damped ζ 1", parameters: params(100, 20), from: 0, to: 1, velocity: 5, regime: .criticallyDamped),
    SpringCase(name: "critically damped, SwiftUI bounce 0", parameters: try! SpringParameters(duration: 0.4, bounce: 0),
               from: 10, to: 0, velocity: -80, regime: .criticallyDamped),
    SpringCase(name: "over-damped ζ 2.5", parameters: params(100, 50), from: 10, to: 0, velocity: -40, regime: .overdamped),
    SpringCase(name: "over-damped, crossing the target", parameters: params(100, 30), from: 1, to: 0, velocity: -60,
               regime: .overdamped),
    SpringCase(name: "strongly over-damped ζ 10", parameters: params(400, 400), from: 0, to: 1, velocity: 0, regime: .overdamped),
    SpringCase(name: "just under critical", parameters: params(100, 20 * (1 - 1e-9)), from: 0, to: 1, velocity: 3,
               regime: .underdamped),
    SpringCase(name: "just over critical", parameters: params(100, 20 * (1 + 1e-9)), from: 0, to: 1, velocity: 3,
               regime: .overdamped),
    SpringCase(name: "critical within 1e-12", parameters: params(100, 20 * (1 + 1e-13)), from: 0, to: 1, velocity: 3,
               regime: .criticallyDamped),
    SpringCase(name: "starts on target with velocity", parameters: params(170, 26), from: 5, to: 5, velocity: 30,
               regime: .underdamped),
]

@Suite("springs")
struct SpringTests {
    // MARK: - Parameters

    @Test("SwiftUI conversions match Apple's published numbers")
    func swiftUIConversions() throws {
        let s = try SpringParameters(duration: 0.5, bounce: 0.3)
        #expect(s.mass == 1)
        #expect(abs(s.stiffness - 157.9) < 0.05)
        #expect(abs(s.damping - 17.6) < 0.05)
        let t = try SpringParameters(stiffness: 100, damping: 10, mass: 1)
        #expect(abs(t.duration - 0.63) < 0.005)
        #expect(abs(t.bounce - 0.5) < 1e-12)
        // Flutter's withDurationAndBounce, the published formula, to full precision.
        for (d, b) in [(0.5, 0.3), (1.2, -0.4), (0.3, 0), (2, 0.95)] {
            let u = try SpringParameters(duration: d, bounce: b)
            let k = 4 * Double.pi * Double.pi / (d * d)
            let zeta = b > 0 ? 1 - b : 1 / (b + 1)
            #expect(abs(u.stiffness - k) < 1e-9 * k)
            #expect(abs(u.damping - zeta * 2 * k.squareRoot()) < 1e-9 * k)
            #expect(abs(u.bounce - b) < 1e-12)
            #expect(abs(u.duration - d) < 1e-12)
        }
    }

    @Test("response and damping ratio, and the SwiftUI default")
    func responseForm() throws {
        let s = try SpringParameters(response: 0.5, dampingRatio: 0.825)
        #expect(abs(s.stiffness - SpringParameters.standard.stiffness) < 1e-9)
        #expect(abs(s.damping - SpringParameters.standard.damping) < 1e-9)
        #expect(SpringParameters.standard.mass == 1)
        #expect(abs(SpringParameters.standard.response - 0.5) < 1e-12)
        #expect(abs(SpringParameters.standard.dampingRatio - 0.825) < 1e-12)
        let heavy = try SpringParameters(response: 0.8, dampingRatio: 1.5, mass: 3)
        #expect(abs(heavy.response - 0.8) < 1e-12)
        #expect(abs(heavy.dampingRatio - 1.5) < 1e-12)
        #expect(heavy.mass == 3)
    }

    @Test("bad parameters are rejected in plain words")
    func validation() {
        func message(_ make: () throws(SpringError) -> SpringParameters) -> String? {
            do { _ = try make(); return nil } catch { return error.message }
        }
        #expect(message { () throws(SpringError) in try SpringParameters(stiffness: 100, damping: 10, mass: 0) }
                == "spring mass must be greater than 0, not 0")
        #expect(message { () throws(SpringError) in try SpringParameters(stiffness: -5, damping: 10) }
                == "spring stiffness must be greater than 0, not -5")
        #expect(message { () throws(SpringError) in try SpringParameters(stiffness: 100, damping: 0) }
                == "spring damping must be greater than 0, not 0")
        #expect(message { () throws(SpringError) in try SpringParameters(duration: 0.5, bounce: 1) }
                == "spring bounce must be greater than -1 and less than 1, not 1")
        #expect(message { () throws(SpringError) in try SpringParameters(duration: 0.5, bounce: -1) }
                == "spring bounce must be greater than -1 and less than 1, not -1")
        #expect(message { () throws(SpringError) in try SpringParameters(duration: 0, bounce: 0) }
                == "spring duration must be greater than 0, not 0")
        #expect(message { () throws(SpringError) in try SpringParameters(response: 0.5, dampingRatio: 0) }
                == "spring damping-ratio must be greater than 0, not 0")
        #expect(message { () throws(SpringError) in try SpringParameters(response: -1, dampingRatio: 1) }
                == "spring response must be greater than 0, not -1")
        #expect(message { () throws(SpringError) in try SpringParameters(stiffness: .nan, damping: 1) }
                == "spring stiffness must be greater than 0, not nan")
        #expect(message { () throws(SpringError) in try SpringParameters(duration: 0.5, bounce: 0.99) } == nil)
    }

    // MARK: - Motion

    @Test("closed form agrees with RK4 integration", arguments: springCases)
    func matchesIntegration(_ c: SpringCase) {
        let motion = c.motion
        #expect(motion.regime == c.regime)
        let times = (1...60).map { Double($0) * 0.025 }
        let reference = integrate(c.parameters, from: c.from, to: c.to, velocity: c.velocity, at: times)
        let scale = max(abs(c.from - c.to), abs(c.velocity) * 1, 1)
        for (t, (x, v)) in zip(times, reference) {
            #expect(abs(motion.position(at: t) - x) < 1e-9 * scale, "position at \(t)")
            #expect(abs(motion.velocity(at: t) - v) < 1e-8 * scale * max(1, c.parameters.naturalFrequency), "velocity at \(t)")
        }
        #expect(motion.position(at: 0) == c.from)
        #expect(motion.velocity(at: 0) == c.velocity)
    }

    @Test("the velocity is the derivative of the position", arguments: springCases)
    func velocityIsDerivative(_ c: SpringCase) {
        let motion = c.motion
        for t in stride(from: 0.01, through: 1.5, by: 0.07) {
            let h = 1e-6
            let numeric = (motion.position(at: t + h) - motion.position(at: t - h)) / (2 * h)
            #expect(abs(numeric - motion.velocity(at: t)) < 1e-5 * max(1, abs(motion.velocity(at: t))), "at \(t)")
        }
    }

    // MARK: - Settling

    @Test("settling time: stays within ε·|Δ| after it, not just before it", arguments: springCases)
    func settling(_ c: SpringCase) {
        let motion = c.motion
        let epsilon = 0.001
        let delta = c.from - c.to
        let threshold = epsilon * (delta != 0 ? abs(delta) : abs(c.velocity))
        func worst(_ t: Double) -> Double { max(abs(motion.position(at: t) - c.to), abs(motion.velocity(at: t))) }
        let settle = motion.settlingTime(epsilon: epsilon)
        #expect(settle > 0 && settle.isFinite)
        // Just before: above the threshold (the last crossing is a transversal one).
        #expect(worst(settle - 5e-7) >= threshold, "still moving 0.5 µs before")
        // After: below, sampled every 20 µs for 3 s, and far out.
        var t = settle + 1e-9
        var ok = true
        while t < settle + 3 {
            if worst(t) >= threshold { ok = false; break }
            t += 2e-5
        }
        #expect(ok, "exceeds the threshold at \(t) after settling at \(settle)")
        #expect(worst(settle + 60) < threshold)
        // Brute force from the start at a 10 µs step (coarser for long springs): the last sample
        // above the threshold lies within one step before the settling time.
        let step = max(1e-5, settle / 1e6)
        var lastAbove = 0.0
        var s = 0.0
        while s < settle + 1 {
            if worst(s) >= threshold { lastAbove = s }
            s += step
        }
        #expect(lastAbove <= settle && settle - lastAbove < step + 1e-9)
        // The exponential envelope is only an upper bound on it.
        #expect(settle <= envelopeBound(motion, threshold))
    }

    /// |g(t)| ≤ e^(−λt)(|p| + |q|·t) for both forms, with λ the slowest decay rate; the first t
    /// past the maximum of that bound where it falls to the threshold.
    private func envelopeBound(_ m: SpringMotion, _ threshold: Double) -> Double {
        let s = m.parameters
        let a = s.damping / (2 * s.mass), w0sq = s.stiffness / s.mass
        let lambda = a * a >= w0sq ? w0sq / (a + (a * a - w0sq).squareRoot()) : a
        let x0 = m.from - m.to, v0 = m.initialVelocity
        let bounds = [(abs(x0), abs(v0 + a * x0)), (abs(v0), abs(a * v0 + w0sq * x0))]
        return bounds.map { p, q -> Double in
            var t = max(0, 1 / lambda - (q > 0 ? p / q : 0))
            while exp(-lambda * t) * (p + q * t) > threshold { t += 1e-3 }
            return t
        }.max()!
    }

    @Test("a remembered settling time is the one the search finds, for each of the inputs that decide it")
    func rememberedSettlingTimes() {
        // Asked in an order where a key that left out any input (or took 0 and −0 as one)
        // would hand back another motion's answer.
        let springs = [params(170, 26), params(170, 12), params(90, 26), params(170, 26, 2)]
        var motions: [SpringMotion] = []
        for s in springs {
            for (from, to, v) in [(0.0, 100.0, 0.0), (0.0, 100.0, 250.0), (0.0, 50.0, 0.0), (10.0, 100.0, 0.0), (0.0, 0.0, 40.0),
                                  (-0.0, 0.0, 40.0), (0.0, -0.0, -40.0)] {
                motions.append(SpringMotion(parameters: s, from: from, to: to, velocity: v))
            }
        }
        for epsilon in [0.001, 0.01, 0.001] {
            for m in motions + motions.reversed() {
                #expect(m.settlingTime(epsilon: epsilon).bitPattern == m.searchSettlingTime(epsilon: epsilon).bitPattern)
            }
        }
    }

    @Test("ε scales the settling time; Δ = 0 rules; several components take the longest")
    func settlingRules() {
        let s = params(170, 26)
        let m = SpringMotion(parameters: s, from: 0, to: 100, velocity: 0)
        #expect(m.settlingTime(epsilon: 0.01) < m.settlingTime(epsilon: 0.001))
        #expect(m.settlingTime(epsilon: 0.001) < m.settlingTime(epsilon: 0.0001))
        #expect(m.settlingTime() == m.settlingTime(epsilon: 0.001))
        #expect(m.settlingTime(epsilon: 0) == .infinity)
        // Same spring, different size: the rule is relative to |Δ|.
        let big = SpringMotion(parameters: s, from: 0, to: 1e6, velocity: 0)
        #expect(abs(big.settlingTime() - m.settlingTime()) < 1e-9)
        // Δ = 0 and v = 0: already at rest.
        let still = SpringMotion(parameters: s, from: 3, to: 3, velocity: 0)
        #expect(still.settlingTime() == 0)
        #expect(still.settlingDuration() == .zero)
        // Δ = 0 with a velocity: the scale is |v₀|·1 s, so it is independent of |v₀|.
        let kicked = SpringMotion(parameters: s, from: 3, to: 3, velocity: 40)
        let kickedHarder = SpringMotion(parameters: s, from: 3, to: 3, velocity: 4000)
        #expect(kicked.settlingTime() > 0)
        #expect(abs(kicked.settlingTime() - kickedHarder.settlingTime()) < 1e-9)
        // A point: each component against its own Δ; the spring takes the longest.
        let x = SpringMotion(parameters: s, from: 0, to: 100, velocity: 0)
        let y = SpringMotion(parameters: s, from: 0, to: 0, velocity: 250)
        let both = SpringMotion.settlingTime(of: [x, y])
        #expect(both == max(x.settlingTime(), y.settlingTime()))
        #expect(SpringMotion.settlingTime(of: []) == 0)
        // Rounded up onto the nanosecond grid.
        let d = SpringMotion.settlingDuration(of: [x, y])!
        #expect(d.seconds >= both && d.seconds - both < 2e-9)
    }
}
