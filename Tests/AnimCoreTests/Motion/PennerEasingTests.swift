// PennerEasingTests: the Penner families against their published formulas.
// Sources of the vectors:
//  - easings.net (each function's "math" formula, which transcribes Robert Penner's equations):
//    the direct -in, -out and -in-out formulas below are typed from there, so the library's
//    derived forms (reversal, mirror) are checked against independent closed forms at 0.01 steps.
//  - GSAP 3 (gsap-core.js `_configElastic`, `_configBack`, `_insertEase`): elastic with
//    amplitude ≠ 1 and the unscaled back in-out, where GSAP and Penner differ; we follow GSAP for
//    elastic and Penner for back-in-out (Docs/motion-conventions.md).
//  - Hand-computed values: quad-in-out(0.25) = 0.125; expo-in(0.5) = 2^-5; bounce-out(0.5) =
//    7.5625·(1/22)² + 0.75 = 0.765625; back-out(0.5) = 1 − 2.70158/8 + 1.70158/4 = 1.0876975;
//    Penner's s = 1.70158 gives a 10% overshoot in back-in, back-out and (with ×1.525) back-in-out.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import AnimCore

// MARK: - easings.net formulas

private let c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1
private let c4 = 2 * Double.pi / 3, c5 = 2 * Double.pi / 4.5

private func easingsNetBounceOut(_ x: Double) -> Double {
    let n1 = 7.5625, d1 = 2.75
    if x < 1 / d1 { return n1 * x * x }
    if x < 2 / d1 { let y = x - 1.5 / d1; return n1 * y * y + 0.75 }
    if x < 2.5 / d1 { let y = x - 2.25 / d1; return n1 * y * y + 0.9375 }
    let y = x - 2.625 / d1
    return n1 * y * y + 0.984375
}

/// easings.net, name → (in, out, in-out).
private let easingsNet: [String: [@Sendable (Double) -> Double]] = [
    "sine": [{ 1 - cos($0 * .pi / 2) }, { sin($0 * .pi / 2) }, { -(cos(.pi * $0) - 1) / 2 }],
    "quad": [{ $0 * $0 }, { 1 - (1 - $0) * (1 - $0) }, { $0 < 0.5 ? 2 * $0 * $0 : 1 - pow(-2 * $0 + 2, 2) / 2 }],
    "cubic": [{ pow($0, 3) }, { 1 - pow(1 - $0, 3) }, { $0 < 0.5 ? 4 * pow($0, 3) : 1 - pow(-2 * $0 + 2, 3) / 2 }],
    "quart": [{ pow($0, 4) }, { 1 - pow(1 - $0, 4) }, { $0 < 0.5 ? 8 * pow($0, 4) : 1 - pow(-2 * $0 + 2, 4) / 2 }],
    "quint": [{ pow($0, 5) }, { 1 - pow(1 - $0, 5) }, { $0 < 0.5 ? 16 * pow($0, 5) : 1 - pow(-2 * $0 + 2, 5) / 2 }],
    "expo": [
        { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) },
        { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) },
        { x in x == 0 ? 0 : x == 1 ? 1 : x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2 },
    ],
    "circ": [
        { 1 - sqrt(1 - pow($0, 2)) },
        { sqrt(1 - pow($0 - 1, 2)) },
        { x in x < 0.5 ? (1 - sqrt(1 - pow(2 * x, 2))) / 2 : (sqrt(1 - pow(-2 * x + 2, 2)) + 1) / 2 },
    ],
    "back": [
        { c3 * $0 * $0 * $0 - c1 * $0 * $0 },
        { 1 + c3 * pow($0 - 1, 3) + c1 * pow($0 - 1, 2) },
        { x in x < 0.5 ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                       : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2 },
    ],
    "elastic": [
        { x in x == 0 ? 0 : x == 1 ? 1 : -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4) },
        { x in x == 0 ? 0 : x == 1 ? 1 : pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1 },
        { x in x == 0 ? 0 : x == 1 ? 1 : x < 0.5
            ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2
            : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5)) / 2 + 1 },
    ],
    "bounce": [
        { 1 - easingsNetBounceOut(1 - $0) },
        { easingsNetBounceOut($0) },
        { x in x < 0.5 ? (1 - easingsNetBounceOut(1 - 2 * x)) / 2 : (1 + easingsNetBounceOut(2 * x - 1)) / 2 },
    ],
]

// MARK: - GSAP 3 formulas (gsap-core.js)

/// GSAP `_configElastic` easeOut, with `type` "in"/"out"/"inOut" built by `_insertEase` rules.
private func gsapElastic(_ mode: EasingMode, amplitude: Double, period: Double?, _ p: Double) -> Double {
    let p1 = amplitude >= 1 ? amplitude : 1
    var p2 = (period ?? (mode == .inOut ? 0.45 : 0.3)) / (amplitude < 1 ? amplitude : 1)
    let p3 = p2 / (2 * .pi) * asin(1 / p1)
    p2 = 2 * .pi / p2
    let easeOut: (Double) -> Double = { $0 == 1 ? 1 : p1 * pow(2, -10 * $0) * sin(($0 - p3) * p2) + 1 }
    switch mode {
    case .out: return easeOut(p)
    case .in: return 1 - easeOut(1 - p)
    case .inOut: return p < 0.5 ? (1 - easeOut(1 - p * 2)) / 2 : 0.5 + easeOut((p - 0.5) * 2) / 2
    }
}

/// GSAP `_configBack` in-out: the mirror of back with the overshoot as given (no ×1.525).
private func gsapBackInOut(_ overshoot: Double, _ p: Double) -> Double {
    let easeOut: (Double) -> Double = { q in
        guard q != 0 else { return 0 }
        let r = q - 1
        return r * r * ((overshoot + 1) * r + overshoot) + 1
    }
    return p < 0.5 ? (1 - easeOut(1 - p * 2)) / 2 : 0.5 + easeOut((p - 0.5) * 2) / 2
}

private func resolved(_ name: String, _ args: [EasingArgument]? = nil) throws -> Easing {
    try Easing.resolve(name: name, arguments: args).get()
}

@Suite("Penner easings")
struct PennerEasingTests {
    @Test("every family and mode matches easings.net", arguments: PennerFamily.names)
    func easingsNetFormulas(family: String) throws {
        let refs = try #require(easingsNet[family])
        for (k, mode) in [EasingMode.in, .out, .inOut].enumerated() {
            let e = try resolved("\(family)-\(mode.rawValue)")
            for i in 0...100 {
                let p = Double(i) / 100
                #expect(abs(e(p) - refs[k](p)) < 1e-12, "\(family)-\(mode.rawValue) at \(p)")
            }
        }
    }

    @Test("every easing name gives exactly 0 at 0 and 1 at 1", arguments: Easing.allNames)
    func endpoints(name: String) throws {
        var variants: [Easing] = []
        switch name {
        case "cubic-bezier":
            variants = [.cubicBezier(0.1, -2, 0.9, 3), .cubicBezier(0, 1.5, 1, 1.5)]
        case "steps":
            variants = [.steps(5, .jumpEnd), .steps(2, .jumpNone)]    // jump-start/-both jump at 0 by definition
        default:
            variants = [try resolved(name)]
            if name.hasPrefix("back-") { variants.append(try resolved(name, [.number(3.3)])) }
            if name.hasPrefix("elastic-") {
                variants += [try resolved(name, [.number(2.5), .number(0.17)]), try resolved(name, [.number(0.4)])]
            }
        }
        if name == "step-start" {    // CSS: steps(1, jump-start) has jumped already at 0
            #expect(variants[0](0) == 1 && variants[0](1) == 1)
            return
        }
        for e in variants {
            #expect(e(0) == 0, "\(e) at 0")
            #expect(e(1) == 1, "\(e) at 1")
        }
    }

    @Test("hand-computed values")
    func handValues() throws {
        #expect(try resolved("quad-in-out")(0.25) == 0.125)
        #expect(try resolved("expo-in")(0.5) == 0.03125)
        #expect(try resolved("bounce-out")(0.5) == 0.765625)
        #expect(abs(try resolved("back-out")(0.5) - 1.0876975) < 1e-15)
        #expect(abs(try resolved("sine-in-out")(0.5) - 0.5) < 1e-15)
        #expect(abs(try resolved("elastic-out")(0.5) - (1 + pow(2, -5) * sin((5 - 0.75) * c4))) < 1e-15)
    }

    /// Penner picked 1.70158 for a 10% overshoot; ×1.525 keeps 10% in back-in-out.
    @Test("back overshoots 10% in every mode")
    func backOvershoot() throws {
        let samples = (0...20000).map { Double($0) / 20000 }
        let backIn = try resolved("back-in"), backOut = try resolved("back-out"), inOut = try resolved("back-in-out")
        let inMin = samples.map { backIn($0) }.min()!, outMax = samples.map { backOut($0) }.max()!
        let inOutMin = samples.map { inOut($0) }.min()!, inOutMax = samples.map { inOut($0) }.max()!
        #expect(abs(inMin + 0.1) < 1e-4)
        #expect(abs(outMax - 1.1) < 1e-4)
        #expect(abs(inOutMin + 0.1) < 1e-3)
        #expect(abs(inOutMax - 1.1) < 1e-3)
    }

    /// Our back-in-out(s) is Penner's (s × 1.525), i.e. GSAP's back.inOut(s × 1.525), not GSAP's back.inOut(s).
    @Test("back-in-out scales the overshoot ×1.525 (Penner), unlike GSAP")
    func backInOutConvention() throws {
        for s in [1.70158, 0.5, 3] {
            let e = try resolved("back-in-out", [.number(s)])
            for i in 1..<100 {
                let p = Double(i) / 100
                #expect(abs(e(p) - gsapBackInOut(s * 1.525, p)) < 1e-12)
            }
            #expect(abs(e(0.2) - gsapBackInOut(s, 0.2)) > 1e-3)
        }
        #expect(try resolved("back-out", [.number(2)])(0.5) == 1 + 3 * -0.125 + 2 * 0.25)
    }

    @Test("elastic follows GSAP 3 for any amplitude and period, and its default periods")
    func elasticGSAP() throws {
        let cases: [(Double?, Double?)] = [(nil, nil), (1, 0.3), (2, nil), (2.5, 0.17), (0.4, nil), (0.5, 0.6)]
        for (a, period) in cases {
            for mode in EasingMode.allCases {
                var args: [EasingArgument]?
                if let a { args = [.number(a)] + (period.map { [.number($0)] } ?? []) }
                let e = try resolved("elastic-\(mode.rawValue)", args)
                for i in 0...100 {
                    let p = Double(i) / 100
                    let ref = gsapElastic(mode, amplitude: a ?? 1, period: period, p)
                    #expect(abs(e(p) - ref) < 1e-12, "elastic-\(mode.rawValue)(\(String(describing: a)), \(String(describing: period))) at \(p)")
                }
            }
        }
        #expect(try resolved("elastic-in-out") == .penner(.elastic(amplitude: 1, period: 0.45), .inOut))
        #expect(try resolved("elastic-out") == .penner(.elastic(amplitude: 1, period: 0.3), .out))
    }

    @Test("-out is the reversal and -in-out the mirror of -in", arguments: Easing.pennerNames.filter { $0.hasSuffix("-in") })
    func derivations(inName: String) throws {
        let family = String(inName.dropLast(3))
        let easeIn = try resolved(inName), easeOut = try resolved(family + "-out"), inOut = try resolved(family + "-in-out")
        // elastic-in-out's default period is 0.45, not 0.3: mirror the -in with that period.
        let mirrored = family == "elastic" ? try resolved(inName, [.number(1), .number(0.45)]) : easeIn
        for i in 0...50 {
            let p = Double(i) / 50
            #expect(abs(easeOut(p) - (1 - easeIn(1 - p))) < 1e-12)
            if family != "back" {    // back-in-out uses a scaled overshoot
                let mirror = p < 0.5 ? mirrored(2 * p) / 2 : 1 - mirrored(2 - 2 * p) / 2
                #expect(abs(inOut(p) - mirror) < 1e-12)
            }
        }
    }

    @Test("parameter validation")
    func validation() {
        func message(_ name: String, _ args: [EasingArgument]?) -> String? {
            if case .failure(let e) = Easing.resolve(name: name, arguments: args) { return e.message }
            return nil
        }
        #expect(message("quad-in", [.number(1)]) == "easing 'quad-in' takes no parameters")
        #expect(message("back-out", [.number(1), .number(2)]) == "easing 'back-out' takes 0 or 1 parameters, not 2")
        #expect(message("elastic-in", [.number(0)]) == "bad parameters for 'elastic-in': the amplitude must be greater than 0, not 0")
        #expect(message("elastic-in", [.number(1), .number(-0.3)]) == "bad parameters for 'elastic-in': the period must be greater than 0, not -0.3")
        #expect(message("elastic-in", [.number(1), .number(1), .number(1)]) == "easing 'elastic-in' takes 0, 1 or 2 parameters, not 3")
        #expect(message("back-in", [.word("big")]) == "easing 'back-in' takes numbers, not 'big'")
        #expect(message("back-in", [.number(.infinity)]) == "bad parameters for 'back-in': parameters must be finite numbers")
        #expect(message("back-in", []) == nil)
    }
}
