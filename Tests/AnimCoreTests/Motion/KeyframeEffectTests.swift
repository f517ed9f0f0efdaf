// KeyframeEffectTests: keyframes under a tween's easing, against web-platform-tests. Every case
// goes through the real chain, TrackTables.value of a Track: the Web Animations timing model and
// the tween's easing, then KeyframeTrack with its segments' easings. The tween easing may leave
// [0, 1]; the first or last segment then extrapolates (Web Animations Level 1, "The effect
// value of a keyframe effect").
// Sources of the vectors (divmain/wpt at 5942d002 unless said otherwise):
//  - css/css-easing/cubic-bezier-timing-functions-output.html: the four 1000 ms animations of
//    `left` from 0px to 100px, effect easing against keyframe easing, with the file's own
//    expectations (the curve inside [0, 1], its end tangent or a flat line outside); ±0.01 px.
//  - css/css-easing/step-timing-functions-output.html: StepEasingTests.wpt, here through the
//    keyframes; exact px.
//  - web-animations/animation-model/keyframe-effects/effect-value-transformed-distance.html with
//    web-animations/resources/easing-tests.js (web-platform-tests/wpt at 44e98dfc) and the
//    reference easings of web-animations/testcommon.js (sarvaje/wpt at 2533bfe7: stepStart,
//    stepEnd; cubicBezier is CubicBezierTests' bisection here): an easing on the middle keyframe
//    of three over 2000 ms (±0.02 px), and linear-equivalent keyframe easings
//    cubic-bezier(0, 0, 0, 0) and cubic-bezier(1, 1, 1, 1) that must not change (or clamp) the
//    result under any of the 14 effect easings.
//  - .../keyframe-effects/effect-value-overlapping-keyframes.html: several keyframes at one
//    offset, at 0 and 1 and in between (±0.0001, ±0.01 where the file says so).
//  - .../keyframe-effects/effect-value-interval-distance.html: the precision test (exactly 0).
//  - css/css-animations/jump-start-animation-before-phase.html (a reftest: a CSS animation's
//    timing function is a keyframe easing, and steps(1, jump-start) must show the start value
//    in the before phase), so keyframe easings get the before flag (WebKit/WebKit#32889).
// CSS puts a keyframe's easing on the interval that leaves it, anim on the one that arrives
// (Grammar.md §6.4): CSS `[{left: 0px, easing: E}, {left: 100px}]` is `[0 at 0, 100 at 1 ease E]`.

import Testing
@testable import AnimCore

private func ms(_ x: Double) -> Time { Time(ticks: Int64((x * 1_000_000).rounded())) }

/// A tween of `duration` ms with `effect` through the keyframes `values` at `offsets`, each
/// with the easing arriving at it (the first one's is unused): its track and the tables it
/// refers to.
private func keyframed(_ effect: Easing, _ offsets: [Double], _ values: [Double], _ easings: [Easing?],
                       duration: Double = 1000) -> (Track, TrackTables) {
    var tables = TrackTables()
    let timing = tables.intern(.tween(TweenTiming(iterationDuration: ms(duration)), effect))
    let k = tables.add(keyframes: KeyframeTrack(offsets: offsets, values: values.map { NumericValue(.number($0))! }, easings: easings))
    let track = Track(instance: 0, key: PropertyKey(ShapeID(0), PropertyID(0)), begin: .zero, timing: timing, curve: .keyframes(k),
                      from: NumericValue(.number(values[0]))!, to: NumericValue(.number(values.last!))!, ending: nil)
    return (track, tables)
}

/// The number a track shows at `t` ms.
private func number(_ m: (Track, TrackTables), at t: Double, backwards: Bool = false) -> Double {
    guard case .number(let x) = m.1.value(m.0, at: ms(t), backwards: backwards).value else { return .nan }
    return x
}

/// testcommon.js stepStart(n) and stepEnd(n).
private func stepStart(_ n: Double) -> @Sendable (Double) -> Double { { x in min(1, ((x * n) + 1).rounded(.down) / n) } }
private func stepEnd(_ n: Double) -> @Sendable (Double) -> Double { { x in (x * n).rounded(.down) / n } }
private func bezierReference(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> @Sendable (Double) -> Double {
    { x in x == 0 ? 0 : x == 1 ? 1 : referenceBezier(a, b, c, d, x) }
}

@Suite("keyframes under an easing (Web Animations keyframe effects)")
struct KeyframeEffectTests {
    /// One cubic-bezier-timing-functions-output.html test: beyond [0, 1] the keyframe easing is
    /// the line through its end point with gradient `slope` (0: the flat line of a vertical tangent).
    struct BezierCase: Sendable, CustomTestStringConvertible {
        var name: String
        var effect: (Double, Double, Double, Double)
        var keyframe: (Double, Double, Double, Double)
        var slope: Double
        var samples: [Double]
        var testDescription: String { name }
    }

    static let bezierCases: [BezierCase] = [
        BezierCase(name: "cubic-bezier easing with input progress greater than 1",
                   effect: (0, 1.5, 1, 1.5), keyframe: (0.5, 1, 0.5, 0), slope: (0 - 1) / (0.5 - 1),
                   samples: [0, 230, 240, 700, 990, 1000]),
        BezierCase(name: "... greater than 1 and where the tangent on the upper boundary is infinity",
                   effect: (0, 1.5, 1, 1.5), keyframe: (0, 1.5, 1, 1.5), slope: 0,
                   samples: [0, 230, 240, 700, 990, 1000]),
        BezierCase(name: "cubic-bezier easing with input progress less than 0",
                   effect: (0, -0.5, 1, -0.5), keyframe: (0.5, 1, 0.5, 0), slope: 1 / 0.5,
                   samples: [0, 10, 300, 750, 770, 1000]),
        BezierCase(name: "... less than 0 and where the tangent on the lower boundary is infinity",
                   effect: (0, -0.5, 1, -0.5), keyframe: (0, -0.5, 1, -0.5), slope: 0,
                   samples: [0, 10, 300, 750, 770, 1000]),
    ]

    @Test("WPT cubic-bezier-timing-functions-output through keyframes", arguments: bezierCases)
    func bezierOutput(_ c: BezierCase) {
        let (a, b, d, e) = c.effect, (p, q, r, s) = c.keyframe
        let m = keyframed(.cubicBezier(a, b, d, e), [0, 1], [0, 100], [nil, .cubicBezier(p, q, r, s)])
        var outside = 0
        for t in c.samples {
            let x = bezierReference(a, b, d, e)(t / 1000)
            let expected: Double
            if x > 1 { expected = 1 + c.slope * (x - 1); outside += 1 }
            else if x < 0 { expected = c.slope * x; outside += 1 }
            else { expected = bezierReference(p, q, r, s)(x) }
            #expect(abs(number(m, at: t) - expected * 100) < 0.01, "at \(t) ms")
        }
        #expect(outside == 3)
    }

    @Test("WPT step-timing-functions-output through keyframes", arguments: StepEasingTests.wpt)
    func stepOutput(_ c: StepEasingTests.Case) throws {
        let keyframe = try Easing.resolve(name: c.keyframe, arguments: c.keyframeArgs).get()
        let (a, b, d, e) = c.effect
        let m = keyframed(.cubicBezier(a, b, d, e), [0, 1], [0, 100], [nil, keyframe])
        for (t, px) in c.samples {
            #expect(number(m, at: t) == px, "at \(t) ms")
        }
    }

    /// easing-tests.js: each easing as written, and testcommon.js's reference for it.
    static let easingTests: [(String, Easing, @Sendable (Double) -> Double)] = [
        ("step-start", .steps(1, .jumpStart), stepStart(1)),
        ("steps(1, start)", .steps(1, .jumpStart), stepStart(1)),
        ("steps(2, start)", .steps(2, .jumpStart), stepStart(2)),
        ("step-end", .steps(1, .jumpEnd), stepEnd(1)),
        ("steps(1)", .steps(1, .jumpEnd), stepEnd(1)),
        ("steps(1, end)", .steps(1, .jumpEnd), stepEnd(1)),
        ("steps(2, end)", .steps(2, .jumpEnd), stepEnd(2)),
        ("linear", .linear, bezierReference(0, 0, 1, 1)),
        ("ease", .ease, bezierReference(0.25, 0.1, 0.25, 1)),
        ("ease-in", .easeIn, bezierReference(0.42, 0, 1, 1)),
        ("ease-in-out", .easeInOut, bezierReference(0.42, 0, 0.58, 1)),
        ("ease-out", .easeOut, bezierReference(0, 0, 0.58, 1)),
        ("values greater than 1", .cubicBezier(0, 1.5, 1, 1.5), bezierReference(0, 1.5, 1, 1.5)),
        ("values less than 1", .cubicBezier(0, -0.5, 1, -0.5), bezierReference(0, -0.5, 1, -0.5)),
    ]

    static var easingNames: [String] { easingTests.map(\.0) }

    static func easingTest(_ name: String) -> (Easing, @Sendable (Double) -> Double) {
        let row = easingTests.first { $0.0 == name }!
        return (row.1, row.2)
    }

    @Test("WPT effect-value-transformed-distance: an easing on one keyframe eases its segment only",
          arguments: easingNames)
    func transformedDistance(_ name: String) {
        let (easing, reference) = Self.easingTest(name)
        let m = keyframed(.linear, [0, 0.5, 1], [0, 100, 200], [nil, nil, easing], duration: 2000)
        for t in [0.0, 999, 1000, 1100, 1500, 2000] {
            let expected = t < 1000 ? t / 10 : 100 + reference((t - 1000) / 1000) * 100
            #expect(abs(number(m, at: t) - expected) < 0.02, "at \(t) ms")
        }
    }

    @Test("WPT effect-value-transformed-distance: linear-equivalent keyframe easings change nothing",
          arguments: easingNames)
    func linearEquivalent(_ name: String) {
        let (effect, _) = Self.easingTest(name)
        var plain = keyframed(effect, [0, 1], [0, 100], [nil, nil])
        plain.0.curve = .straight                          // a straight tween from 0 to 100
        for equivalent in [Easing.cubicBezier(0, 0, 0, 0), .cubicBezier(1, 1, 1, 1)] {
            let m = keyframed(effect, [0, 1], [0, 100], [nil, equivalent])
            for t in [0.0, 250, 500, 750, 1000] {
                #expect(abs(number(m, at: t) - number(plain, at: t)) < 1e-9, "\(equivalent) at \(t) ms")
            }
        }
    }

    @Test("WPT effect-value-overlapping-keyframes: at 0 and 1, outside [0, 1]")
    func overlappingAtEnds() {
        let m = keyframed(.cubicBezier(0.5, -0.5, 0.5, 1.5), [0, 0, 0, 1, 1, 1], [0, 0.1, 0.2, 0.8, 0.9, 1],
                          [nil, nil, nil, nil, nil, nil])
        #expect(abs(number(m, at: 0) - 0.2) < 0.0001)     // progress 0: the last keyframe at 0
        #expect(number(m, at: 150) == 0)                  // progress < 0: the first keyframe at 0
        #expect(abs(number(m, at: 710) - 0.8) < 0.01)     // just below 1: towards the first at 1
        #expect(number(m, at: 850) == 1)                  // progress > 1: the last keyframe at 1
        #expect(number(m, at: 1000) == 1)                 // progress 1: the last keyframe at 1
    }

    @Test("WPT effect-value-overlapping-keyframes: between 0 and 1")
    func overlappingInside() {
        let m = keyframed(.linear, [0, 0.5, 0.5, 0.5, 1], [0, 0.3, 0.5, 0.7, 1], [nil, nil, nil, nil, nil])
        #expect(abs(number(m, at: 250) - 0.15) < 0.0001)  // before: towards the first at 0.5
        #expect(abs(number(m, at: 500) - 0.7) < 0.0001)   // at: from the last at 0.5
        #expect(abs(number(m, at: 750) - 0.85) < 0.0001)  // after: from the last at 0.5
    }

    @Test("WPT effect-value-interval-distance: the end of the 0.2 to 1 interval is exactly its end")
    func intervalDistancePrecision() {
        let m = keyframed(.linear, [0, 0.2, 1], [0, 1, 0], [nil, nil, .steps(1, .jumpEnd)])
        #expect(number(m, at: 1000) == 0)
        #expect(number(m, at: 2000) == 0)
    }

    /// The issue's case, worked out by hand: cubic-bezier(0, 1.5, 1, 1.5) at 0.7 is 1.29901822…
    /// (x(t) = 3t² − 2t³ = 0.7 at t = 0.63674…, y(t) = 4.5t(1 − t) + t³), and beyond 1
    /// cubic-bezier(0.5, 1, 0.5, 0) follows the line through (0.5, 0) and (1, 1), gradient 2:
    /// 100 × (1 + 2 × 0.29901822) = 159.80364.
    @Test("keyframes extrapolate where a plain tween does: 159.80 at 0.7 s")
    func issueExample() {
        let effect = Easing.cubicBezier(0, 1.5, 1, 1.5)
        let m = keyframed(effect, [0, 1], [0, 100], [nil, .cubicBezier(0.5, 1, 0.5, 0)])
        #expect(abs(number(m, at: 700) - 159.80364442712) < 1e-6)
        var plain = m
        plain.0.curve = .straight
        guard case .number(let x) = plain.1.value(plain.0, at: ms(700)).value else { Issue.record("not a number"); return }
        #expect(abs(x - 129.901822213561) < 1e-6)
    }

    @Test("several segments: the first extrapolates below 0, the last beyond 1, a hold stays")
    func segments() {
        // back-in dips below 0 early, back-out overshoots late.
        let cases: [(Easing, Double)] = [(.penner(.back(overshoot: 1.70158), .in), 200), (.penner(.back(overshoot: 1.70158), .out), 800)]
        for (effect, t) in cases {
            let p = effect(t / 1000)
            #expect(p < 0 || p > 1)
            let m = keyframed(effect, [0, 0.5, 1], [0, 50, 100], [nil, nil, .penner(.quad, .in)])
            let local = (p - 0.5) / 0.5
            let expected: Double = p < 0 ? 50 * (p / 0.5) : 50 + 50 * local * local
            #expect(abs(number(m, at: t) - expected) < 1e-9, "\(effect) at \(t) ms")
            // A last keyframe below offset 1 holds, beyond 1 as well.
            let hold = keyframed(effect, [0, 0.5], [0, 50], [nil, nil])
            let held: Double = p < 0 ? 50 * (p / 0.5) : 50
            #expect(number(hold, at: t) == held)
        }
    }

    /// The tween's before flag reaches a segment's step easing: in the before phase (a run
    /// reversed to the start, or sampled before it), steps(2, jump-start) shows the start value
    /// as a plain tween does; inside the active interval the flag is clear either way.
    @Test("keyframe step easings get the before flag outside the active interval only")
    func keyframeBeforeFlag() {
        let m = keyframed(.linear, [0, 1], [0, 100], [nil, .steps(2, .jumpStart)])
        #expect(number(m, at: 0) == 50)
        #expect(number(m, at: 0, backwards: true) == 0)
        #expect(number(m, at: -1) == 0)
        #expect(number(m, at: 500) == 100)
        #expect(number(m, at: 500, backwards: true) == 100)
        #expect(number(m, at: 1000, backwards: true) == 100)
        // The tween's own yoyo: the end of a backward last iteration is in the after phase.
        var yoyo = m
        yoyo.0.timing = yoyo.1.intern(.tween(TweenTiming(iterationDuration: ms(1000), iterations: 2, alternate: true), .linear))
        #expect(number(yoyo, at: 2000) == 0)
        #expect(number(yoyo, at: 1999) == 50)
    }
}
