// TweenTimingTests: the Web Animations timing model against web-platform-tests.
// Sources of the vectors (servo/servo's mirror of web-platform-tests, web-animations/):
//  - timing-model/animation-effects/simple-iteration-progress.html and current-iteration.html:
//    for each (iterations, iterationStart, duration) with delay 1 ms and fill both, the progress
//    and currentIteration in the before phase, at the start of the active phase and in the after
//    phase, sampled as resources/effect-tests.js does: forwards at local times −1 ms, 0 and the
//    end of the active interval; with playbackRate −1 at 0, the end, and the end + 1 ms.
//    Not carried over: rows with duration Infinity (our iteration durations are finite). The
//    "Test end delay" rows of simple-iteration-progress.html are `endDelayRows`: the after
//    phase holds the value at `landingTime`, the end time (max(delay + active + end delay, 0))
//    clipped to the active interval. The after-phase rows of
//    timing-model/animation-effects/active-time.html (servo/servo at 01a7de50: finish() puts the
//    local time at the end time) are `activeTimeRows`, and its negative start delay row is in
//    `negativeStartDelay`.
//  - timing-model/time-transformations/transformed-progress.html, "Test bounds point of ...":
//    step easings under delay 1000 ms, duration 1000 ms, fill both, with iterationStart and
//    direction; expected progress at the listed currentTime (local time = currentTime − delay).
//    The frames() rows are left out (frames() was dropped from CSS Easing). The jump-both and
//    jump-none rows come from the divmain/wpt mirror at 5942d002. They pin down the before flag:
//    set only in the before and after phases, never inside the active interval (the `reverse`
//    rows show the value after the jump at 1500 ms, the flag only at the end).

import Testing
@testable import AnimCore

private func ms(_ x: Double) -> Time { Time(ticks: Int64((x * 1_000_000).rounded())) }

@Suite("tween timing")
struct TweenTimingTests {
    /// One row of the two WPT files: nil where the file has no value for that phase.
    struct Row: Sendable, CustomTestStringConvertible {
        var iterations: Double
        var start: Double
        var duration: Double                       // ms
        var progress: (before: Double?, active: Double?, after: Double?)
        var iteration: (before: Double?, active: Double?, after: Double?)
        var backwards = false
        var testDescription: String {
            "iterations \(iterations) iterationStart \(start) duration \(duration)ms" + (backwards ? " playbackRate -1" : "")
        }
    }

    static let rows: [Row] = [
        // Zero iterations
        Row(iterations: 0, start: 0, duration: 0, progress: (0, nil, 0), iteration: (0, nil, 0)),
        Row(iterations: 0, start: 0, duration: 100, progress: (0, nil, 0), iteration: (0, nil, 0)),
        Row(iterations: 0, start: 2.5, duration: 0, progress: (0.5, nil, 0.5), iteration: (2, nil, 2)),
        Row(iterations: 0, start: 2.5, duration: 100, progress: (0.5, nil, 0.5), iteration: (2, nil, 2)),
        Row(iterations: 0, start: 3, duration: 0, progress: (0, nil, 0), iteration: (3, nil, 3)),
        Row(iterations: 0, start: 3, duration: 100, progress: (0, nil, 0), iteration: (3, nil, 3)),
        // Integer iterations
        Row(iterations: 3, start: 0, duration: 0, progress: (0, nil, 1), iteration: (0, nil, 2)),
        Row(iterations: 3, start: 0, duration: 100, progress: (0, 0, 1), iteration: (0, 0, 2)),
        Row(iterations: 3, start: 2.5, duration: 0, progress: (0.5, nil, 0.5), iteration: (2, nil, 5)),
        Row(iterations: 3, start: 2.5, duration: 100, progress: (0.5, 0.5, 0.5), iteration: (2, 2, 5)),
        Row(iterations: 3, start: 3, duration: 0, progress: (0, nil, 1), iteration: (3, nil, 5)),
        Row(iterations: 3, start: 3, duration: 100, progress: (0, 0, 1), iteration: (3, 3, 5)),
        // Fractional iterations
        Row(iterations: 3.5, start: 0, duration: 0, progress: (0, nil, 0.5), iteration: (0, nil, 3)),
        Row(iterations: 3.5, start: 0, duration: 100, progress: (0, 0, 0.5), iteration: (0, 0, 3)),
        Row(iterations: 3.5, start: 2.5, duration: 0, progress: (0.5, nil, 1), iteration: (2, nil, 5)),
        Row(iterations: 3.5, start: 2.5, duration: 100, progress: (0.5, 0.5, 1), iteration: (2, 2, 5)),
        Row(iterations: 3.5, start: 3, duration: 0, progress: (0, nil, 0.5), iteration: (3, nil, 6)),
        Row(iterations: 3.5, start: 3, duration: 100, progress: (0, 0, 0.5), iteration: (3, 3, 6)),
        // Infinite iterations (no after phase when the active duration is infinite)
        Row(iterations: .infinity, start: 0, duration: 0, progress: (0, nil, 1), iteration: (0, nil, .infinity)),
        Row(iterations: .infinity, start: 0, duration: 100, progress: (0, 0, nil), iteration: (0, 0, nil)),
        Row(iterations: .infinity, start: 2.5, duration: 0, progress: (0.5, nil, 0.5), iteration: (2, nil, .infinity)),
        Row(iterations: .infinity, start: 2.5, duration: 100, progress: (0.5, 0.5, nil), iteration: (2, 2, nil)),
        Row(iterations: .infinity, start: 3, duration: 0, progress: (0, nil, 1), iteration: (3, nil, .infinity)),
        Row(iterations: .infinity, start: 3, duration: 100, progress: (0, 0, nil), iteration: (3, 3, nil)),
        // Negative playback rate: the tween played backwards
        Row(iterations: 1, start: 0, duration: 1, progress: (0, 1, 1), iteration: (0, 0, 0), backwards: true),
        Row(iterations: 2, start: 0, duration: 1, progress: (nil, nil, nil), iteration: (0, 1, 1), backwards: true),
        Row(iterations: 1, start: 0, duration: 0, progress: (0, nil, 1), iteration: (0, nil, 0), backwards: true),
        Row(iterations: 0, start: 0, duration: 0, progress: (0, nil, 0), iteration: (0, nil, 0), backwards: true),
    ]

    @Test("WPT simple iteration progress and current iteration in each phase", arguments: rows)
    func phases(_ row: Row) throws {
        let timing = TweenTiming(iterationDuration: ms(row.duration), iterations: row.iterations,
                                 iterationStart: row.start, direction: .normal)
        let end = timing.activeDuration
        // effect-tests.js: where each phase is sampled.
        let before = row.backwards ? Time.zero : ms(-1)
        let active = row.backwards ? end : .zero
        let after = row.backwards ? end.map { $0 + ms(1) } : end
        let points: [(String, Time?, Double?, Double?, TweenTiming.Phase)] = [
            ("before", before, row.progress.before, row.iteration.before, .before),
            ("active", active, row.progress.active, row.iteration.active, .active),
            ("after", after, row.progress.after, row.iteration.after, .after),
        ]
        for (name, t, progress, iteration, phase) in points {
            guard progress != nil || iteration != nil else { continue }
            let at = try #require(t, "\(name): the active duration is infinite")
            let s = timing.sample(at: at, backwards: row.backwards)
            #expect(s.phase == phase, "\(name)")
            if let progress { #expect(s.directedProgress == progress, "progress, \(name)") }
            if let iteration { #expect(s.currentIteration == iteration, "currentIteration, \(name)") }
        }
        // WPT: activeBoundary is undefined exactly when the active duration is zero.
        #expect((row.progress.active == nil && row.iteration.active == nil) == (end == .zero))
    }

    /// One "Test end delay" row of simple-iteration-progress.html: delay 1 ms, fill both.
    struct EndDelayRow: Sendable, CustomTestStringConvertible {
        var iterations: Double = 1
        var start: Double = 0
        var endDelay: Double                       // ms
        var progress: (before: Double, active: Double, after: Double)
        var testDescription: String { "iterations \(iterations) iterationStart \(start) endDelay \(endDelay)ms" }
    }

    static let endDelayRows: [EndDelayRow] = [
        EndDelayRow(endDelay: 50, progress: (0, 0, 1)),
        EndDelayRow(endDelay: -50, progress: (0, 0, 0.5)),
        EndDelayRow(endDelay: -100, progress: (0, 0, 0)),
        EndDelayRow(endDelay: -200, progress: (0, 0, 0)),
        EndDelayRow(start: 0.5, endDelay: 50, progress: (0.5, 0.5, 0.5)),
        EndDelayRow(start: 0.5, endDelay: -50, progress: (0.5, 0.5, 0)),
        EndDelayRow(start: 0.5, endDelay: -100, progress: (0.5, 0.5, 0.5)),
        EndDelayRow(iterations: 2, endDelay: -100, progress: (0, 0, 0)),
        EndDelayRow(start: 2, endDelay: -50, progress: (0, 0, 0.5)),
        EndDelayRow(start: 2, endDelay: -100, progress: (0, 0, 0)),
    ]

    @Test("WPT end delay: the value the after phase holds", arguments: endDelayRows)
    func endDelay(_ row: EndDelayRow) throws {
        let timing = TweenTiming(iterationDuration: ms(100), iterations: row.iterations, iterationStart: row.start, direction: .normal)
        let delay = ms(1), endDelay = ms(row.endDelay)
        let end = try #require(timing.endTime(delay: delay, endDelay: endDelay))
        #expect(end == max(.zero, ms(1 + 100 * row.iterations + row.endDelay)))
        let landing = try #require(timing.landingTime(delay: delay, endDelay: endDelay))
        #expect(timing.sample(at: ms(-1)).directedProgress == row.progress.before)
        #expect(timing.sample(at: .zero).directedProgress == row.progress.active)
        #expect(timing.sample(at: landing).directedProgress == row.progress.after)
    }

    /// One after-phase row of active-time.html: duration 1000 ms, 2.3 iterations, delay 500 ms,
    /// fill forwards, and an end delay; the current iteration and progress after finish().
    static let activeTimeRows: [(endDelay: Double, iteration: Double, progress: Double)] = [
        (0, 2, 0.3), (4000, 2, 0.3), (-800, 1, 0.5), (-2500, 0, 0), (-4000, 0, 0),
    ]

    @Test("WPT active time in the after phase, with positive and negative end delays", arguments: activeTimeRows)
    func activeTimeAfter(endDelay: Double, iteration: Double, progress: Double) throws {
        let timing = TweenTiming(iterationDuration: ms(1000), iterations: 2.3, direction: .normal)
        let landing = try #require(timing.landingTime(delay: ms(500), endDelay: ms(endDelay)))
        let s = timing.sample(at: landing)
        #expect(s.currentIteration == iteration)
        #expect(abs(s.directedProgress - progress) < 1e-9)
    }

    /// active-time.html: "Active time in active phase and negative start delay is the local
    /// time minus the start delay": duration 1000 ms, delay −500 ms, at current time 0, 0.5.
    @Test func negativeStartDelay() throws {
        let timing = TweenTiming(iterationDuration: ms(1000), direction: .normal)
        // The active interval starts at the delay: local time 0 of the step is 500 ms into it.
        #expect(timing.sample(at: .zero - ms(-500)).directedProgress == 0.5)
        #expect(timing.endTime(delay: ms(-500), endDelay: .zero) == ms(500))
        #expect(timing.endTime(delay: ms(-2000), endDelay: .zero) == .zero)
        #expect(timing.landingTime(delay: ms(-2000), endDelay: .zero) == ms(1000))
    }

    /// GSAP's repeatDelay (GSAP docs, `repeatDelay`: "amount of time in seconds between
    /// repeats"; `totalDuration()` = duration × (repeat + 1) + repeatDelay × repeat): between
    /// iterations the tween holds the end of the one just done.
    @Test("repeat delay: pauses between iterations, holding the iteration's end")
    func repeatDelay() throws {
        let timing = TweenTiming(iterationDuration: ms(1000), iterations: 3, direction: .normal, repeatDelay: ms(500))
        #expect(timing.activeDuration == ms(4000))
        func at(_ t: Double) -> (Double, Double) { let s = timing.sample(at: ms(t)); return (s.directedProgress, s.currentIteration) }
        #expect(at(500) == (0.5, 0))
        #expect(at(1000) == (1, 0))       // the pause starts at the end of iteration 0 …
        #expect(at(1250) == (1, 0))       // … and holds it
        #expect(at(1500) == (0, 1))       // iteration 1 starts after the pause
        #expect(at(3250) == (0.25, 2))
        #expect(at(4000) == (1, 2))
        let yoyo = TweenTiming(iterationDuration: ms(1000), iterations: 2, direction: .alternate, repeatDelay: ms(500))
        #expect(yoyo.activeDuration == ms(2500))
        #expect(yoyo.sample(at: ms(1250)).directedProgress == 1)
        #expect(yoyo.sample(at: ms(1750)).directedProgress == 0.75)
        // Half an iteration more: one pause before it; at double speed everything halves.
        #expect(TweenTiming(iterationDuration: ms(1000), iterations: 1.5, direction: .normal, repeatDelay: ms(500)).activeDuration == ms(2000))
        #expect(TweenTiming(iterationDuration: ms(1000), iterations: 3, direction: .normal, rate: 2, repeatDelay: ms(500)).activeDuration
                == ms(2000))
        #expect(TweenTiming(iterationDuration: .zero, iterations: 3, direction: .normal, repeatDelay: ms(500)).activeDuration == .zero)
    }

    /// One transformed-progress.html case.
    struct StepCase: Sendable, CustomTestStringConvertible {
        var name: String
        var easing: Easing
        var iterationStart: Double = 0
        var iterations: Double = 1
        var direction: PlaybackDirection = .normal
        var conditions: [(Double, Double)]
        var testDescription: String { name }
    }

    static let stepCases: [StepCase] = [
        StepCase(name: "step-start easing", easing: .steps(2, .jumpStart),
                 conditions: [(0, 0), (999, 0), (1000, 0.5), (1499, 0.5), (1500, 1), (2000, 1)]),
        StepCase(name: "step-start easing with reverse direction", easing: .steps(2, .jumpStart), direction: .reverse,
                 conditions: [(0, 1), (1001, 1), (1500, 1), (1501, 0.5), (2000, 0), (2500, 0)]),
        StepCase(name: "step-start easing with iterationStart not at a transition point", easing: .steps(2, .jumpStart),
                 iterationStart: 0.25,
                 conditions: [(0, 0.5), (999, 0.5), (1000, 0.5), (1249, 0.5), (1250, 1), (1749, 1), (1750, 0.5),
                              (2000, 0.5), (2500, 0.5)]),
        StepCase(name: "step-start easing with iterationStart and delay", easing: .steps(2, .jumpStart), iterationStart: 0.5,
                 conditions: [(0, 0.5), (999, 0.5), (1000, 1), (1499, 1), (1500, 0.5), (2000, 1)]),
        StepCase(name: "step-start easing with iterationStart and reverse direction", easing: .steps(2, .jumpStart),
                 iterationStart: 0.5, direction: .reverse,
                 conditions: [(0, 1), (1000, 1), (1001, 0.5), (1499, 0.5), (1500, 1), (1999, 1), (2000, 0.5), (2500, 0.5)]),
        StepCase(name: "step(4, start) easing with iterationStart 0.75 and delay", easing: .steps(4, .jumpStart),
                 iterationStart: 0.75, conditions: [(0, 0.75), (999, 0.75), (1000, 1), (2000, 1), (2500, 1)]),
        StepCase(name: "step-start easing with alternate direction", easing: .steps(2, .jumpStart), iterationStart: 1.5,
                 iterations: 2, direction: .alternate,
                 conditions: [(0, 1), (1000, 1), (1001, 0.5), (2999, 1), (3000, 0.5), (3500, 0.5)]),
        StepCase(name: "step-start easing with alternate-reverse direction", easing: .steps(2, .jumpStart),
                 iterationStart: 0.5, iterations: 2, direction: .alternateReverse,
                 conditions: [(0, 1), (1000, 1), (1001, 0.5), (2999, 1), (3000, 0.5), (3500, 0.5)]),
        StepCase(name: "step-end easing", easing: .steps(2, .jumpEnd),
                 conditions: [(0, 0), (999, 0), (1000, 0), (1499, 0), (1500, 0.5), (2000, 1)]),
        StepCase(name: "step-end easing with iterationStart and delay", easing: .steps(2, .jumpEnd), iterationStart: 0.5,
                 conditions: [(0, 0), (999, 0), (1000, 0.5), (1499, 0.5), (1500, 0), (1999, 0), (2000, 0.5), (2500, 0.5)]),
        StepCase(name: "step-end easing with iterationStart not at a transition point", easing: .steps(2, .jumpEnd),
                 iterationStart: 0.75,
                 conditions: [(0, 0.5), (999, 0.5), (1000, 0.5), (1249, 0.5), (1250, 0), (1749, 0), (1750, 0.5),
                              (2000, 0.5), (2500, 0.5)]),
        // From divmain/wpt at 5942d002: the jump-both and jump-none rows.
        StepCase(name: "steps(jump-both) easing", easing: .steps(2, .jumpBoth),
                 conditions: [(0, 0), (999, 0), (1000, 1.0 / 3), (1499, 1.0 / 3), (1500, 2.0 / 3), (2000, 1)]),
        StepCase(name: "steps(jump-both) easing with iterationStart and delay", easing: .steps(2, .jumpBoth),
                 iterationStart: 0.5,
                 conditions: [(0, 1.0 / 3), (999, 1.0 / 3), (1000, 2.0 / 3), (1499, 2.0 / 3), (1500, 1.0 / 3),
                              (1999, 1.0 / 3), (2000, 2.0 / 3), (2500, 2.0 / 3)]),
        StepCase(name: "steps(jump-both) easing with iterationStart not at a transition point", easing: .steps(2, .jumpBoth),
                 iterationStart: 0.75,
                 conditions: [(0, 2.0 / 3), (999, 2.0 / 3), (1000, 2.0 / 3), (1249, 2.0 / 3), (1250, 1.0 / 3),
                              (1749, 1.0 / 3), (1750, 2.0 / 3), (2000, 2.0 / 3), (2500, 2.0 / 3)]),
        StepCase(name: "steps(jump-none) easing", easing: .steps(2, .jumpNone),
                 conditions: [(0, 0), (1000, 0), (1499, 0), (1500, 1), (2000, 1)]),
        StepCase(name: "steps(jump-none) easing with iterationStart and delay", easing: .steps(2, .jumpNone),
                 iterationStart: 0.5,
                 conditions: [(0, 0), (999, 0), (1000, 1), (1499, 1), (1500, 0), (1999, 0), (2000, 1), (2500, 1)]),
        StepCase(name: "steps(jump-none) easing with iterationStart not at a transition point", easing: .steps(2, .jumpNone),
                 iterationStart: 0.75,
                 conditions: [(0, 1), (999, 1), (1000, 1), (1249, 1), (1250, 0), (1749, 0), (1750, 1), (2000, 1),
                              (2500, 1)]),
    ]

    @Test("WPT transformed progress at step bounds (before flag)", arguments: stepCases)
    func stepBounds(_ c: StepCase) {
        let timing = TweenTiming(iterationDuration: ms(1000), iterations: c.iterations, iterationStart: c.iterationStart,
                                 direction: c.direction)
        for (currentTime, progress) in c.conditions {
            let t = ms(currentTime - 1000)      // delay 1000 ms
            #expect(timing.transformedProgress(at: t, easing: c.easing) == progress, "at \(currentTime) ms")
        }
    }

    @Test("yoyo alternates, and the end of the active interval is progress 1.0 of the last iteration")
    func alternateAndEnd() {
        let second = Time(seconds: 1)
        for (n, landing) in [(1.0, 1.0), (2, 0), (3, 1), (2.5, 0.5)] {
            let timing = TweenTiming(iterationDuration: second, iterations: n, alternate: true)
            let end = timing.activeDuration!
            let s = timing.sample(at: end)
            #expect(s.phase == .after)
            #expect(s.directedProgress == landing, "yoyo \(n) at the end")
            #expect(s.currentIteration == (n - 1).rounded(.up))
            #expect(timing.sample(at: end + Time(seconds: 5)).directedProgress == landing)
        }
        let yoyo = TweenTiming(iterationDuration: second, iterations: 2, alternate: true)
        #expect(yoyo.progress(at: Time(ticks: 250_000_000)) == (iteration: 0, directed: 0.25))
        #expect(yoyo.progress(at: Time(ticks: 1_250_000_000)) == (iteration: 1, directed: 0.75))
        #expect(yoyo.sample(at: second).currentIteration == 1)            // the boundary starts iteration 1
        #expect(yoyo.sample(at: second).directedProgress == 1)
        let plain = TweenTiming(iterationDuration: second, iterations: 1)
        #expect(plain.progress(at: second) == (iteration: 0, directed: 1))
        #expect(plain.progress(at: Time(ticks: -5)) == (iteration: 0, directed: 0))
    }

    @Test("playback rate scales the clock, not the iterations")
    func rate() {
        let timing = TweenTiming(iterationDuration: Time(seconds: 1), iterations: 2, alternate: false, rate: 2)
        #expect(timing.activeDuration == Time(seconds: 1))
        #expect(timing.progress(at: Time(ticks: 250_000_000)) == (iteration: 0, directed: 0.5))
        #expect(timing.progress(at: Time(ticks: 750_000_000)) == (iteration: 1, directed: 0.5))
        #expect(timing.progress(at: Time(seconds: 1)) == (iteration: 1, directed: 1))
        #expect(TweenTiming.activeDuration(iteration: Time(seconds: 1), iterations: 1, rate: 3) == Time(ticks: 333_333_333))
        #expect(TweenTiming.activeDuration(iteration: Time(seconds: 1), iterations: 2.5, rate: 1) == Time(ticks: 2_500_000_000))
        #expect(TweenTiming.activeDuration(iteration: Time(seconds: 1), iterations: .infinity, rate: 1) == nil)
        #expect(TweenTiming.activeDuration(iteration: .zero, iterations: .infinity, rate: 1) == .zero)
        #expect(TweenTiming.activeDuration(iteration: Time(seconds: 1), iterations: 0, rate: 1) == .zero)
        // The boundary is decided on exact ticks even when the active duration was rounded.
        let third = TweenTiming(iterationDuration: Time(seconds: 1), iterations: 1, rate: 3)
        #expect(third.sample(at: Time(ticks: 333_333_332)).phase == .active)
        #expect(third.sample(at: Time(ticks: 333_333_333)).directedProgress == 1)
        #expect(third.sample(at: Time(ticks: 333_333_332)).directedProgress < 1)
    }

    @Test("phases and the before flag")
    func phaseBoundaries() {
        let timing = TweenTiming(iterationDuration: Time(seconds: 1))
        #expect(timing.phase(at: Time(ticks: -1)) == .before)
        #expect(timing.phase(at: .zero) == .active)
        #expect(timing.phase(at: .zero, backwards: true) == .before)
        #expect(timing.phase(at: Time(seconds: 1)) == .after)
        #expect(timing.phase(at: Time(seconds: 1), backwards: true) == .active)
        #expect(timing.sample(at: Time(ticks: -1)).beforeFlag)
        #expect(!timing.sample(at: .zero).beforeFlag)
        #expect(!timing.sample(at: Time(seconds: 2)).beforeFlag)
        let reversed = TweenTiming(iterationDuration: Time(seconds: 1), direction: .reverse)
        #expect(!reversed.sample(at: Time(ticks: -1)).beforeFlag)
        #expect(reversed.sample(at: Time(seconds: 2)).beforeFlag)
    }

    /// Played backwards (a negative playback rate in Web Animations), t = 0 is in the before
    /// phase and t = end in the active phase; the before flag is set at 0 and nowhere inside, so
    /// a jump point inside gives the same value both ways (Grammar.md §7, "The before flag").
    @Test("played backwards: the before flag at the start only")
    func backwardsBeforeFlag() {
        let timing = TweenTiming(iterationDuration: Time(seconds: 1))
        let e = Easing.steps(2, .jumpStart)
        func at(_ ms: Int64, _ backwards: Bool) -> Double {
            timing.transformedProgress(at: Time(ticks: ms * 1_000_000), easing: e, backwards: backwards)
        }
        #expect(at(0, true) == 0)
        #expect(at(0, false) == 0.5)
        #expect(at(500, true) == 1)
        #expect(at(500, false) == 1)
        #expect(at(250, true) == 0.5)
        #expect(at(1000, true) == 1)
        #expect(at(1000, false) == 1)
    }
}
