// LinearEasingTests: CSS Easing Level 2 `linear(...)` and GSAP's power names, against outside
// references.
// Sources of the vectors:
//  - CSS Easing Level 2 (Editor's Draft), §2.1.3 "Serializing": linear(0, 0.25, 1) is
//    linear(0 0%, 0.25 50%, 1 100%); linear(0 20%, 0.5 10%, 1) is linear(0 20%, 0.5 20%, 1 100%);
//    linear(0, 0.25 25% 75%, 1) is linear(0 0%, 0.25 25%, 0.25 75%, 1 100%).
//  - the same spec, §2.1.5 "Examples": linear(0, 0.25 75%, 1) spends 75% of the time going from 0
//    to 0.25; beyond the points "the trajectory of the nearest two points is continued"; the
//    bounce example ends `1 100% 100%` "so inputs greater than 1 always output 1".
//  - §2.1.4 "Output": at an input shared by several points the last point's output holds.
//  - GSAP 3 gsap-core.js, the `Linear,Quad,Cubic,Quart,Quint` eases: powerN.in(p) = p^(N+1),
//    .out(p) = 1 − (1 − p)^(N+1), .inOut(p) = (2p)^(N+1)/2 below ½ and 1 − (2(1 − p))^(N+1)/2
//    above; power0 is p ↦ p in every mode.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import AnimCore

@Suite("linear() and power eases")
struct LinearEasingTests {
    static func linear(_ args: [EasingArgument]) throws -> LinearEasing {
        guard case .success(.piecewiseLinear(let f)) = Easing.resolve(name: "linear", arguments: args) else {
            throw Failure.notLinear
        }
        return f
    }
    enum Failure: Error { case notLinear }

    @Test("the spec's serialization examples: the points a stop list resolves to")
    func serializationExamples() throws {
        #expect(try Self.linear([.number(0), .number(0.25), .number(1)]).description == "linear(0 0%, 0.25 50%, 1 100%)")
        #expect(try Self.linear([.stop(numbers: [0], percentages: [20]), .stop(numbers: [0.5], percentages: [10]), .number(1)])
            .description == "linear(0 20%, 0.5 20%, 1 100%)")
        #expect(try Self.linear([.number(0), .stop(numbers: [0.25], percentages: [25, 75]), .number(1)])
            .description == "linear(0 0%, 0.25 25%, 0.25 75%, 1 100%)")
    }

    @Test("missing positions are spread evenly between the ones around them, as in gradients")
    func evenSpread() throws {
        let f = try Self.linear([.number(0), .number(0.7), .number(0.87), .number(0.98), .number(1)])
        #expect(f.inputs == [0, 0.25, 0.5, 0.75, 1])
        let g = try Self.linear([.number(0), .number(1), .number(2), .stop(numbers: [3], percentages: [75]), .number(4)])
        #expect(g.inputs == [0, 0.25, 0.5, 0.75, 1])
    }

    @Test("output: between points, at points, and beyond the ends along the end segments")
    func output() throws {
        let f = try Self.linear([.number(0), .stop(numbers: [0.25], percentages: [75]), .number(1)])
        #expect(f(0.375) == 0.125)            // halfway to 0.25 at 75%
        #expect(f(0.75) == 0.25)
        #expect(f(0.875) == 0.625)
        #expect(f(1) == 1)
        #expect(f(-0.75) == -0.25)            // the first segment continued
        #expect(f(1.25) == 1.75)              // the last segment continued (slope 3)
        let flat = try Self.linear([.number(0), .stop(numbers: [0.25], percentages: [25, 75]), .number(1)])
        #expect(flat(0.5) == 0.25)
        #expect(flat(0.125) == 0.125)
        #expect(flat(0.875) == 0.625)
    }

    @Test("several points at one input: the last one's output, and `1 100% 100%` holds 1 beyond the end")
    func sharedInputs() throws {
        let jump = try Self.linear([.number(0), .stop(numbers: [0.2], percentages: [50]), .stop(numbers: [0.8], percentages: [50]), .number(1)])
        #expect(jump(0.5) == 0.8)
        #expect(jump(0.25) == 0.1)
        let bounceEnd = try Self.linear([.number(0), .stop(numbers: [0.984], percentages: [90]), .stop(numbers: [1], percentages: [100, 100])])
        #expect(bounceEnd(1) == 1)
        #expect(bounceEnd(1.5) == 1)
        #expect(bounceEnd(2) == 1)
    }

    @Test("bad stop lists")
    func errors() {
        #expect(Easing.resolve(name: "linear", arguments: [.number(0)]) == .failure(.wrongArgumentCount("linear", expected: "at least 2", got: 1)))
        guard case .failure(.outOfRange(_, _, argument: 1)) = Easing.resolve(
            name: "linear", arguments: [.number(0), .stop(numbers: [0.5], percentages: [1, 2, 3]), .number(1)]) else {
            Issue.record("three positions are one too many"); return
        }
        guard case .failure(.outOfRange(_, _, argument: 0)) = Easing.resolve(
            name: "linear", arguments: [.stop(numbers: [], percentages: [10]), .number(1)]) else {
            Issue.record("a stop needs its output"); return
        }
        #expect(Easing.resolve(name: "cubic-bezier", arguments: [.stop(numbers: [0, 0, 1, 1], percentages: [])])
                == .failure(.notOneNumber("cubic-bezier", argument: 0)))
        #expect(Easing.resolve(name: "linear", arguments: nil) == .success(.linear))
    }

    @Test("GSAP's power names are GSAP's curves", arguments: 0...4)
    func powers(n: Int) throws {
        let e = Double(n + 1)
        func gsap(_ mode: EasingMode, _ p: Double) -> Double {
            guard n > 0 else { return p }
            switch mode {
            case .in: return pow(p, e)
            case .out: return 1 - pow(1 - p, e)
            case .inOut: return p < 0.5 ? pow(p * 2, e) / 2 : 1 - pow((1 - p) * 2, e) / 2
            }
        }
        for mode in EasingMode.allCases {
            guard case .success(let easing) = Easing.resolve(name: "power\(n)-\(mode.rawValue)", arguments: nil) else {
                Issue.record("power\(n)-\(mode.rawValue) does not resolve"); continue
            }
            for k in 0...64 {
                let p = Double(k) / 64
                #expect(abs(easing(p) - gsap(mode, p)) <= 1e-15, "power\(n)-\(mode.rawValue) at \(p)")
            }
        }
        #expect(Easing.resolve(name: "power0", arguments: nil) == .success(.linear))
        // GSAP's documented figure: power2.out (cubic) is at 0.875 halfway.
        #expect(Easing.resolve(name: "power2-out", arguments: nil).map { $0(0.5) } == .success(0.875))
    }
}
