// CubicBezierTests: `cubic-bezier` and the CSS keyword curves against outside references.
// Sources of the vectors:
//  - web-platform-tests css/css-easing/cubic-bezier-timing-functions-output.html (read from the
//    mirror Lockdown187/wpt at b1d2a88f): an effect easing drives a keyframe easing outside [0, 1],
//    sampled at the listed milliseconds of a 1000 ms animation; the keyframe easing must follow
//    its end tangent, or stay flat where the tangent is vertical. The zero crossings 0.23368794
//    and 0.766312060 are quoted from the same file's comments.
//  - web-platform-tests web-animations/resources/easing-tests.js (servo/servo mirror): the keyword
//    definitions (ease = cubic-bezier(0.25, 0.1, 0.25, 1), ...) sampled at 0, 250, 500, 750, 1000 ms
//    (web-animations/timing-model/time-transformations/transformed-progress.html).
//  - CSS Easing Level 1, "Cubic Bézier easing functions": the curve through P0 = (0,0) and
//    P3 = (1,1); the reference below solves x(t) = p by plain bisection on the Bernstein form,
//    independently of the library's Newton solver.

import Testing
@testable import AnimCore

/// Reference: bisection on t for x(t) = p, then y(t), straight from the Bernstein polynomial.
func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ p: Double) -> Double {
    func bern(_ a: Double, _ b: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if bern(x1, x2, mid) < p { lo = mid } else { hi = mid }
    }
    return bern(y1, y2, (lo + hi) / 2)
}

private func bezier(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Easing { .cubicBezier(a, b, c, d) }

@Suite("cubic-bezier")
struct CubicBezierTests {
    /// WPT easing-tests.js: each keyword is exactly this curve.
    @Test("CSS keywords match their cubic-bezier definitions",
          arguments: [("ease", 0.25, 0.1, 0.25, 1.0), ("ease-in", 0.42, 0, 1, 1), ("ease-out", 0, 0, 0.58, 1),
                      ("ease-in-out", 0.42, 0, 0.58, 1)])
    func keywords(name: String, x1: Double, y1: Double, x2: Double, y2: Double) throws {
        let e = try Easing.resolve(name: name, arguments: nil).get()
        #expect(e == .cubicBezier(x1, y1, x2, y2))
        for ms in [0.0, 250, 500, 750, 1000] {
            let p = ms / 1000
            #expect(abs(e(p) - referenceBezier(x1, y1, x2, y2, p)) < 1e-9, "\(name) at \(ms) ms")
        }
    }

    @Test("the solver agrees with bisection inside the unit interval, y outside [0, 1] included")
    func solverMatchesReference() {
        let curves: [(Double, Double, Double, Double)] = [
            (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1),
            (0, 1.5, 1, 1.5), (0, -0.5, 1, -0.5), (0.5, 1, 0.5, 0), (0, 3, 1, 3), (0.1, 5, 0.23, 0),
            (0, 0, 1, 1), (0.68, -0.6, 0.32, 1.6),
        ]
        // The ends are checked exactly below; at p = 1 with x2 = 1 the curve is vertical in y(x),
        // where the reference bisection itself loses half its digits.
        for (a, b, c, d) in curves {
            for i in 1...99 {
                let p = Double(i) / 100
                #expect(abs(bezier(a, b, c, d)(p) - referenceBezier(a, b, c, d, p)) < 1e-9, "(\(a),\(b),\(c),\(d)) at \(p)")
            }
        }
    }

    /// Points (x(t), y(t)) of the curve itself must be reproduced, even where x′(t) = 0
    /// (cubic-bezier(1, 0, 0, 1) has a vertical tangent at (0.5, 0.5), so y(x) is only
    /// cube-root conditioned there and the tolerance is wider).
    @Test("curve points are reproduced, vertical tangents included")
    func curvePoints() {
        for (x1, y1, x2, y2) in [(1.0, 0.0, 0.0, 1.0), (0.42, 0, 0.58, 1), (0.9, -1, 0.1, 2)] {
            for i in 0...200 {
                let t = Double(i) / 200, u = 1 - t
                let x = 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
                let y = 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t
                #expect(abs(bezier(x1, y1, x2, y2)(x) - y) < 1e-4, "(\(x1),\(y1),\(x2),\(y2)) at t = \(t)")
            }
        }
    }

    @Test("exact at both ends")
    func endpoints() {
        // cubic-bezier(0.1, 0.1, 0.3, 1.3) evaluates to 1.0000000000000002 at t = 1 by its polynomial.
        for e in [Easing.ease, .easeIn, .easeOut, .easeInOut, bezier(0, 1.5, 1, 1.5), bezier(0.1, 5, 0.23, 0),
                  bezier(0.1, 0.1, 0.3, 1.3), bezier(0.1, 0.1, 0.58, -0.6)] {
            #expect(e(0) == 0)
            #expect(e(1) == 1)
        }
    }

    /// WPT comments: cubic-bezier(0, 1.5, 1, 1.5) exceeds 1 on (0.23368794, 1), and
    /// cubic-bezier(0, -0.5, 1, -0.5) is negative on (0, 0.766312060).
    @Test("y leaves [0, 1] where WPT says it does")
    func crossings() {
        let over = bezier(0, 1.5, 1, 1.5), under = bezier(0, -0.5, 1, -0.5)
        #expect(abs(over(0.23368794) - 1) < 1e-6)
        #expect(over(0.2336) < 1 && over(0.2338) > 1)
        #expect(abs(under(0.766312060)) < 1e-6)
        #expect(under(0.7662) < 0 && under(0.7664) > 0)
    }

    /// WPT "cubic-bezier easing with input progress greater than 1": keyframe easing
    /// cubic-bezier(0.5, 1, 0.5, 0) under effect easing cubic-bezier(0, 1.5, 1, 1.5). Beyond 1 the
    /// keyframe easing follows the line through P2 and P3: 1 + (0 − 1)/(0.5 − 1)·(x − 1).
    @Test("tangent extension above 1")
    func tangentAbove() {
        let effect = bezier(0, 1.5, 1, 1.5), keyframe = bezier(0.5, 1, 0.5, 0)
        for ms in [0.0, 230, 1000] {
            let x = effect(ms / 1000)
            #expect((0...1).contains(x))
            #expect(abs(keyframe(x) - referenceBezier(0.5, 1, 0.5, 0, x)) < 1e-9, "at \(ms) ms")
        }
        for ms in [240.0, 700, 990] {
            let x = effect(ms / 1000)
            #expect(x > 1)
            #expect(abs(keyframe(x) - (1 + (0 - 1) / (0.5 - 1) * (x - 1))) < 1e-12, "at \(ms) ms")
        }
    }

    /// WPT "... greater than 1 and where the tangent on the upper boundary is infinity":
    /// cubic-bezier(0, 1.5, 1, 1.5) composed with itself; x2 = 1 and y2 ≠ 1, so beyond 1 it is 1.0.
    @Test("vertical end tangent: flat 1 above 1")
    func verticalAbove() {
        let e = bezier(0, 1.5, 1, 1.5)
        for ms in [240.0, 700, 990] {
            let x = e(ms / 1000)
            #expect(x > 1)
            #expect(e(x) == 1, "at \(ms) ms")
        }
    }

    /// WPT "cubic-bezier easing with input progress less than 0": keyframe cubic-bezier(0.5, 1, 0.5, 0)
    /// under effect cubic-bezier(0, -0.5, 1, -0.5); below 0 the line through P0 and P1: (1/0.5)·x.
    @Test("tangent extension below 0")
    func tangentBelow() {
        let effect = bezier(0, -0.5, 1, -0.5), keyframe = bezier(0.5, 1, 0.5, 0)
        for ms in [10.0, 300, 750] {
            let x = effect(ms / 1000)
            #expect(x < 0)
            #expect(abs(keyframe(x) - (1 / 0.5) * x) < 1e-12, "at \(ms) ms")
        }
        for ms in [0.0, 770, 1000] {
            let x = effect(ms / 1000)
            #expect(x >= 0)
            #expect(abs(keyframe(x) - referenceBezier(0.5, 1, 0.5, 0, x)) < 1e-9, "at \(ms) ms")
        }
    }

    /// WPT "... less than 0 and where the tangent on the lower boundary is infinity":
    /// cubic-bezier(0, -0.5, 1, -0.5) composed with itself; x1 = 0 and y1 ≠ 0, so below 0 it is 0.
    @Test("vertical start tangent: flat 0 below 0")
    func verticalBelow() {
        let e = bezier(0, -0.5, 1, -0.5)
        for ms in [10.0, 300, 750] {
            let x = e(ms / 1000)
            #expect(x < 0)
            #expect(e(x) == 0, "at \(ms) ms")
        }
    }

    /// CSS Easing: "if the x value of P1 is [zero], use a straight line that passes through P2 and
    /// P0" — valid when P1 coincides with P0 (y1 = 0); when both control points sit on an end
    /// point the curve is the line y = x, so the extension continues it.
    @Test("coincident control points")
    func coincident() {
        #expect(bezier(0, 0, 0.5, 2)(-0.5) == -0.5 * (2 / 0.5))         // tangent through P2
        #expect(bezier(0.5, -1, 1, 1)(1.5) == 1 + 0.5 * ((-1 - 1) / (0.5 - 1)))   // through P1
        #expect(bezier(0, 0, 0, 0)(-0.25) == -0.25)                     // the line y = x
        #expect(bezier(1, 1, 1, 1)(1.25) == 1.25)
    }
}
