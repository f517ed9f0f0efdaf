// Interpreter: graphs played on the virtual clock. Motion is sampled at fixed steps and
// compared as arrays (Popmotion's animateSync), and the invariants of the brief are asserted:
// a tween lands exactly on its target, events do not depend on --fps, decimal time sums are
// exact, and events at one instant fire in graph order.
@testable import AnimCore
import AnimTestSupport
import Testing

private let quarters = [0, 0.25, 0.5, 0.75, 1, 1.25]

/// The lines of a run's standard output that are not trace frames.
private func eventLines(_ r: RunResult) -> [String] {
    r.stdout.split(separator: "\n").map(String.init).filter { !$0.contains("\"event\":\"trace\"") && !$0.contains("=") }
}

@Suite("Interpreter")
struct InterpreterTests {
    // MARK: - Sampling

    @Test func linearTween() throws {
        let vs = try sample("rect a\nanimate 1 ease linear < a.z = 100 >", "a", "z", at: quarters)
        #expect(numbers(vs) == [0, 25, 50, 75, 100, 100])
    }

    @Test func defaultEasingIsEaseInOut() throws {
        // Reference: CSS cubic-bezier(0.42, 0, 0.58, 1) solved by bisection, × 100.
        let vs = try sample("rect a\nanimate 1 < a.z = 100 >", "a", "z", at: quarters)
        #expect(numbers(vs) == [0, 12.916193, 50, 87.083807, 100, 100])
    }

    @Test func delayHoldsThenMoves() throws {
        let vs = try sample("rect a z 5\nanimate 1 delay 0.5 ease linear < a.z = 105 >", "a", "z", at: [0, 0.25, 0.5, 1, 1.5, 2])
        #expect(numbers(vs) == [5, 5, 5, 55, 105, 105])
    }

    @Test func repeatAndYoyo() throws {
        let times = [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5]
        #expect(numbers(try sample("rect a\nanimate 1 ease linear repeat 3 < a.z = 10 >", "a", "z", at: times))
                == [0, 5, 0, 5, 0, 5, 10, 10])
        #expect(numbers(try sample("rect a\nanimate 1 ease linear repeat 3 yoyo < a.z = 10 >", "a", "z", at: times))
                == [0, 5, 10, 5, 0, 5, 10, 10])
        #expect(numbers(try sample("rect a\nanimate 1 ease linear repeat 2 yoyo < a.z = 10 >", "a", "z", at: times))
                == [0, 5, 10, 5, 0, 0, 0, 0])
    }

    @Test func speed() throws {
        #expect(numbers(try sample("rect a\nanimate 1 ease linear speed 4 < a.z = 8 >", "a", "z", at: [0, 0.125, 0.25, 0.5]))
                == [0, 4, 8, 8])
    }

    @Test func plannedTimingsKeepToTheirGraphAndPlan() throws {
        // Both statements' graphs have a plan 0, and the chain's second tween a plan 1 of
        // another duration: the timing each one's tweens take is that plan's own.
        let script = "rect a\nrect b\nanimate 1 ease linear < a.z = 10 >\n"
            + "animate 2 ease linear < b.z = 10 > then animate 4 ease linear < b.z = 30 >"
        #expect(numbers(try sample(script, "b", "z", at: [0.5, 1, 2, 3, 4, 6])) == [2.5, 5, 10, 15, 20, 30])
    }

    @Test func thenChainsSampleContinuously() throws {
        let vs = try sample("rect a\nanimate 1 ease linear < a.z = 10 > then animate 1 ease linear < a.z += 10 >", "a", "z",
                            at: [0.5, 1, 1.5, 2, 3])
        #expect(numbers(vs) == [5, 10, 15, 20, 20])
    }

    @Test func overwriteSamples() throws {
        // The newer tween starts from the value at 1s (50) and takes z to 0 over 1s; the older
        // one ends at 2s without snapping z back.
        let vs = try sample("rect a\nanimate 2 ease linear < a.z = 100 >\nat 1 < animate 1 ease linear < a.z = 0 > >", "a", "z",
                            at: [0.5, 1, 1.5, 2, 2.5])
        #expect(numbers(vs) == [25, 50, 25, 0, 0])
    }

    @Test func pointsAnglesAndColorsInterpolatePerComponent() throws {
        let script = "rect a color red\nanimate 1 ease linear < a.center = (100, -50); a.rotation = 360deg; a.color = rgba(0, 0, 255, 0) >"
        #expect(try sample(script, "a", "center", at: [0.5]) == [.point(Point(50, -25))])
        #expect(try sample(script, "a", "rotation", at: [0.25]) == [.angle(Angle(degrees: 90))])
        #expect(try sample(script, "a", "color", at: [0.5]) == [.color(Color(r: 127.5, g: 0, b: 127.5, a: 0.5))])
    }

    // MARK: - Invariants

    @Test("a tween lands exactly on its target", arguments: ["linear", "ease", "ease-in", "ease-out", "ease-in-out",
                                                             "cubic-bezier(0.3, 1.8, 0.6, -0.9)"])
    func landsExactly(easing: String) throws {
        // Awkward decimal endpoints and durations: the end value must be the target itself.
        var x: UInt64 = 12345
        func next() -> Double {  // a fixed LCG, so the values are the same on every run
            x = x &* 6364136223846793005 &+ 1442695040888963407
            return Double(x >> 11) / Double(1 << 53) * 200 - 100
        }
        for _ in 0..<20 {
            let from = next(), to = next(), d = abs(next()) / 37 + 0.001
            let script = "rect a z \(from)\nanimate \(d) ease \(easing) < a.z = \(to) >"
            let (session, _) = try startedSession(script)
            try session.play(until: .exhausted)
            #expect(value(session, "a", "z") == .number(to), "\(from) → \(to) over \(d)")
        }
    }

    @Test func eventsDoNotDependOnFPS() throws {
        let script = """
        rect a
        animate 0.37 ease ease-out < a.z = 3 > then print "end {a.z}"
        wait 0.1 then print "at 0.1"
        repeat 7 < wait 0.013 then print "tick" >
        at 1 < print "one" >
        """
        let runs = [1, 7, 24, 60, 1000].map { fps in
            runScript(script, flags: ["--fps", String(fps), "--trace", "a.z"])
        }
        let events = runs.map(eventLines)
        #expect(events[0].count == 10)
        for e in events.dropFirst() { #expect(e == events[0]) }
        #expect(runs.allSatisfy { $0.exitCode == 0 })
    }

    @Test func durationDoesNotDependOnFPS() throws {
        let script = "rect a\nanimate 0.37 speed 3 < a.z = 1 > then wait 0.01 then print \"end\""
        let times = ["1", "24", "60", "997"].map { runScript(script, flags: ["--fps", $0, "--json"]).stdout }
        #expect(Set(times).count == 1)
        #expect(times[0] == "{\"time\":0.133333333,\"ns\":133333333,\"event\":\"print\",\"text\":\"end\"}\n")
    }

    @Test("speed NAME R re-anchors the clock: the rest plays at R, exact to the nanosecond, at any --fps")
    func speedStatementIsExact() throws {
        // 1 s of 2 played, then 3×: the remaining local second takes 1/3 s (333333333 ns,
        // rounded half away from zero), and the value is the same straight line on either side.
        let script = "rect a\nanimate 2 ease linear < a.z = 2 > then print \"end\" as m\nwait 1\nspeed m 3"
        let times = ["1", "30", "997"].map { runScript(script, flags: ["--fps", $0, "--json"]).stdout }
        #expect(Set(times).count == 1)
        #expect(times[0] == "{\"time\":1.333333333,\"ns\":1333333333,\"event\":\"print\",\"text\":\"end\"}\n")
        let reads = "rect a\nanimate 2 ease linear < a.z = 2 > as m\nat 0.5 < print \"{a.z}\" >\nat 1.25 < print \"{a.z}\" >\n"
            + "at 1.5 < print \"{a.z}\" >\nwait 1\nspeed m 3"
        #expect(runScript(reads).stdout == "[0.500] 0.5\n[1.250] 1.75\n[1.500] 2\n")
    }

    @Test func decimalTimeSumsAreExact() throws {
        let r = runScript("""
        repeat 1000 < wait 0.001 > then print "a thousand ms"
        wait 0.1 then wait 0.2 then print "0.3"
        """, flags: ["--json"])
        #expect(r.stdout == """
        {"time":0.3,"ns":300000000,"event":"print","text":"0.3"}
        {"time":1,"ns":1000000000,"event":"print","text":"a thousand ms"}

        """)
        let (session, _) = try startedSession("wait 0.1\nwait 0.2\nwait 0.3\nwait 0.4")
        #expect(session.now == Time(seconds: 1))
    }

    @Test func sameInstantEventsFireInGraphOrder() {
        let r = runScript("""
        at 1 < print "g1 a" ; print "g1 b" >
        wait 1 then print "g2"
        < wait 0.5 then wait 0.5 then print "g3 first chain" ; wait 1 then print "g3 second chain" >
        print "g4 at 0" then wait 1 then print "g4"
        """, flags: ["--no-time"])
        #expect(r.stdout == "g4 at 0\ng1 a\ng1 b\ng2\ng3 first chain\ng3 second chain\ng4\n")
    }

    @Test func aTweenEndAndAReadAtTheSameInstant() {
        // Whichever fires first, a read at the tween's end instant sees the exact target.
        let r = runScript("""
        rect a
        < wait 1 then print a.z ; animate 1 ease ease < a.z = 0.3 > >
        < animate 1 ease ease < a.alpha = 0.7 > ; wait 1 then print a.alpha >
        """, flags: ["--no-time"])
        #expect(r.stdout == "0.3\n0.7\n")
    }

    // MARK: - Clock

    @Test func statementsDoNotAdvanceScriptTime() throws {
        let (session, _) = try startedSession("rect a\nanimate 2 < a.z = 1 >\nanimate 3 < a.alpha = 0 >")
        #expect(session.now == .zero)
        #expect(!session.interpreter.isIdle)
        // The graphs' start events wait at `now` until the clock moves.
        #expect(session.interpreter.nextEventTime == .zero)
        try session.interpreter.advance(to: .zero)
        #expect(session.interpreter.nextEventTime == Time(seconds: 2))
        #expect(try session.play(until: .exhausted).last == Time(seconds: 3))
        #expect(session.interpreter.isIdle)
    }

    @Test func aRuntimeErrorStopsItsGraphWhereItIs() throws {
        let (session, out) = try startedSession("""
        rect a
        let zero = 0
        < animate 1 ease linear < a.z = 10 > ; wait 0.5 then print 1 / zero >
        animate 1 ease linear < a.alpha = 0 >
        """)
        #expect(throws: RuntimeError.self) { try session.interpreter.advance(to: Time(seconds: 1)) }
        #expect(out.error.hasPrefix("test.anim:3:60: error: division by zero"))
        #expect(value(session, "a", "z") == .number(5))  // frozen at the error
        // The other graph plays on.
        try session.interpreter.advance(to: Time(seconds: 1))
        #expect(value(session, "a", "alpha") == .number(0))
        #expect(value(session, "a", "z") == .number(5))
    }

    @Test func seedsAreReproducible() {
        let script = "seed 9\nprint random()\nprint random(1s)\nprint random((10, 20))"
        #expect(runScript(script).stdout == runScript(script).stdout)
        #expect(runScript(script, flags: ["--seed", "1"]).stdout != runScript(script, flags: ["--seed", "2"]).stdout)
        #expect(runScript("print random()").stdout == "[0.000] 0.74854\n")  // the fixed default seed
    }
}
