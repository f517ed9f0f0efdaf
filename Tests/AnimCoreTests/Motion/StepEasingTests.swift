// StepEasingTests: `steps(n, position)` against outside references.
// Sources of the vectors:
//  - web-platform-tests css/css-easing/step-timing-functions-output.html (mirror divmain/wpt at
//    5942d002): a 1000 ms animation of `left` from 0px to 100px whose keyframe easing is a step
//    easing and whose effect easing is a cubic-bezier that leaves [0, 1]; expected `left` in px at
//    the listed milliseconds, so progress = px / 100.
//  - web-platform-tests web-animations/resources/easing-tests.js: step-start = steps(1, start),
//    step-end = steps(1) = steps(1, end), steps(2, start), steps(2, end).
//  - CSS Easing Level 1, "Step easing functions": jump-start (first rise at 0), jump-end (last rise
//    at 1), jump-none (n − 1 jumps, 0 and 1 each held for 1/n), jump-both (n + 1 jumps), and the
//    before flag rule (at an exact transition point with the before flag set, one step back).
// Before-flag vectors inside a timed tween are in TweenTimingTests.

import Testing
@testable import AnimCore

@Suite("steps")
struct StepEasingTests {
    /// One WPT case: keyframe easing under an effect easing, with (ms, expected px).
    struct Case: Sendable, CustomTestStringConvertible {
        var keyframe: String
        var keyframeArgs: [EasingArgument]?
        var effect: (Double, Double, Double, Double)
        var samples: [(Double, Double)]
        var testDescription: String { "\(keyframe) under cubic-bezier\(effect)" }
    }

    static let wpt: [Case] = [
        Case(keyframe: "step-start", keyframeArgs: nil, effect: (0, 1.5, 1, 1.5),
             samples: [(0, 100), (230, 100), (250, 200), (1000, 100)]),
        Case(keyframe: "step-start", keyframeArgs: nil, effect: (0, 3, 1, 3),
             samples: [(0, 100), (114, 200), (500, 300), (900, 200)]),
        Case(keyframe: "step-start", keyframeArgs: nil, effect: (0, -0.5, 1, -0.5),
             samples: [(0, 100), (750, 0), (800, 100), (1000, 100)]),
        Case(keyframe: "step-start", keyframeArgs: nil, effect: (0, -2, 1, -2),
             samples: [(0, 100), (100, 0), (500, -100), (1000, 100)]),
        Case(keyframe: "step-end", keyframeArgs: nil, effect: (0, 1.5, 1, 1.5),
             samples: [(0, 0), (230, 0), (250, 100), (1000, 100)]),
        Case(keyframe: "step-end", keyframeArgs: nil, effect: (0, 3, 1, 3),
             samples: [(0, 0), (114, 100), (500, 200), (900, 100)]),
        Case(keyframe: "step-end", keyframeArgs: nil, effect: (0, -0.5, 1, -0.5),
             samples: [(0, 0), (750, -100), (800, 0), (1000, 100)]),
        Case(keyframe: "steps", keyframeArgs: [.number(1), .word("jump-both")], effect: (0, 1.5, 1, 1.5),
             samples: [(0, 50), (230, 50), (250, 100), (1000, 100)]),
        Case(keyframe: "steps", keyframeArgs: [.number(1), .word("jump-both")], effect: (0, 3, 1, 3),
             samples: [(0, 50), (114, 100), (500, 150), (900, 100)]),
        Case(keyframe: "steps", keyframeArgs: [.number(1), .word("jump-both")], effect: (0, -0.5, 1, -0.5),
             samples: [(0, 50), (750, 0), (800, 50), (1000, 100)]),
        Case(keyframe: "steps", keyframeArgs: [.number(2), .word("jump-none")], effect: (0, 1.5, 1, 1.5),
             samples: [(0, 0), (45, 100), (230, 100), (250, 200), (1000, 100)]),
        Case(keyframe: "steps", keyframeArgs: [.number(2), .word("jump-none")], effect: (0, 3, 1, 3),
             samples: [(0, 0), (114, 300), (500, 400), (900, 300)]),
        Case(keyframe: "steps", keyframeArgs: [.number(2), .word("jump-none")], effect: (0, -0.5, 1, -0.5),
             samples: [(0, 0), (750, -100), (800, 0), (1000, 100)]),
    ]

    @Test("WPT step-timing-functions-output", arguments: wpt)
    func wptOutput(_ c: Case) throws {
        let keyframe = try Easing.resolve(name: c.keyframe, arguments: c.keyframeArgs).get()
        let (a, b, d, e) = c.effect
        let effect = Easing.cubicBezier(a, b, d, e)
        for (ms, px) in c.samples {
            #expect(keyframe(effect(ms / 1000)) * 100 == px, "at \(ms) ms")
        }
    }

    /// WPT easing-tests.js names and their meaning.
    @Test("step-start, step-end and the start/end aliases")
    func aliases() throws {
        func r(_ n: String, _ a: [EasingArgument]? = nil) throws -> Easing { try Easing.resolve(name: n, arguments: a).get() }
        #expect(try r("step-start") == .steps(1, .jumpStart))
        #expect(try r("steps", [.number(1), .word("start")]) == .steps(1, .jumpStart))
        #expect(try r("step-end") == .steps(1, .jumpEnd))
        #expect(try r("steps", [.number(1)]) == .steps(1, .jumpEnd))
        #expect(try r("steps", [.number(2), .word("end")]) == .steps(2, .jumpEnd))
        #expect(try r("steps", [.number(2), .word("start")]) == .steps(2, .jumpStart))
    }

    /// CSS Easing's four positions for 3 steps, sampled inside each step and at the ends
    /// (before flag clear): the expected levels follow the spec's definitions quoted above.
    static let positionCases: [(StepPosition, [Double])] = [
        (.jumpStart, [1.0 / 3, 1.0 / 3, 2.0 / 3, 1, 1]),
        (.jumpEnd, [0, 0, 1.0 / 3, 2.0 / 3, 1]),
        (.jumpNone, [0, 0, 0.5, 1, 1]),
        (.jumpBoth, [0.25, 0.25, 0.5, 0.75, 1]),
    ]

    @Test("jump positions", arguments: positionCases)
    func positions(_ position: StepPosition, _ levels: [Double]) {
        let e = Easing.steps(3, position)
        let ps = [0.0, 0.2, 0.5, 0.8, 1.0]
        #expect(ps.map { e($0) } == levels)
        // Each transition happens exactly at k/3: just before it the old level holds.
        #expect(e(1.0 / 3) == e(0.4))
        #expect(e((1.0 / 3).nextDown) == e(0.2))
    }

    /// The before flag at a transition point moves one step back (CSS Easing step 3); away from
    /// a transition point it changes nothing. Step 4 keeps the result at 0 or above for p ≥ 0.
    @Test("before flag")
    func beforeFlag() {
        #expect(Easing.steps(1, .jumpStart)(0, beforeFlag: true) == 0)
        #expect(Easing.steps(1, .jumpStart)(0, beforeFlag: false) == 1)
        #expect(Easing.steps(1, .jumpBoth)(0, beforeFlag: true) == 0)
        #expect(Easing.steps(1, .jumpBoth)(0, beforeFlag: false) == 0.5)
        #expect(Easing.steps(2, .jumpEnd)(0.5, beforeFlag: true) == 0)
        #expect(Easing.steps(2, .jumpEnd)(0.5, beforeFlag: false) == 0.5)
        #expect(Easing.steps(2, .jumpEnd)(0, beforeFlag: true) == 0)          // clamped, not −0.5
        #expect(Easing.steps(4, .jumpStart)(0.75, beforeFlag: true) == 0.75)
        #expect(Easing.steps(4, .jumpStart)(0.75, beforeFlag: false) == 1)
        #expect(Easing.steps(2, .jumpStart)(0.25, beforeFlag: true) == 0.5)   // not a transition point
        #expect(Easing.steps(3, .jumpNone)(0.5, beforeFlag: true) == 0.5)
        for e in [Easing.linear, .ease, .penner(.quad, .in)] {
            #expect(e(0.3, beforeFlag: true) == e(0.3))
        }
    }

    @Test("exactly 1 at p = 1 for every position, and 0 at p = 0 unless the position jumps at the start")
    func ends() {
        for n in 1...6 {
            for position in StepPosition.allCases where !(position == .jumpNone && n < 2) {
                let e = Easing.steps(n, position)
                #expect(e(1) == 1)
                let startsAt = (position == .jumpStart || position == .jumpBoth) ? 1.0 / Double(position.jumps(steps: n)) : 0
                #expect(e(0) == startsAt)
            }
        }
    }

    @Test("bad step counts and positions are rejected with plain messages")
    func validation() {
        func message(_ args: [EasingArgument]?) -> String? {
            if case .failure(let e) = Easing.resolve(name: "steps", arguments: args) { return e.message }
            return nil
        }
        #expect(message([.number(1), .word("jump-none")]) == "bad parameters for 'steps': 'jump-none' needs at least 2 steps")
        #expect(message([.number(0)]) == "bad parameters for 'steps': the number of steps must be a whole number of at least 1, not 0")
        #expect(message([.number(2.5)]) == "bad parameters for 'steps': the number of steps must be a whole number of at least 1, not 2.5")
        #expect(message([.number(-3), .word("end")]) != nil)
        #expect(message([.number(3), .word("nowhere")]) == "unknown step position 'nowhere'")
        #expect(message([.number(3), .word("jump-stat")]) == "unknown step position 'jump-stat'; did you mean 'jump-start'?")
        #expect(message([.number(3), .number(1)]) == "bad parameters for 'steps': the second parameter is a step position such as 'jump-end'")
        #expect(message(nil) == "easing 'steps' takes 1 or 2 parameters, not 0")
        #expect(message([.number(1), .word("end"), .word("end")]) == "easing 'steps' takes 1 or 2 parameters, not 3")
        #expect(message([.number(2), .word("jump-none")]) == nil)
    }
}
