// The REPL under hostile input: what the FuzzRepl fuzzer found (each case is the minimised
// input that crashed), and Ctrl-C (ReplSession.interruptRequested) during every kind of run.
import AnimCore
import AnimTestSupport
import Testing

@Suite("REPL robustness")
struct ReplRobustnessTests {
    // MARK: - Found by fuzzing

    @Test func aLetWhoseEntryFailedBeforeItRanIsNotReadAfterwards() {
        // FuzzRepl crash: `print t+t` fails when `let t=0` starts, so that entry stops before
        // binding t, but t had been declared: reading it went past the end of the globals.
        // (Then one input; a paste is one entry now, as its file would be, so `t` comes next.)
        let r = ReplDriver()
        r.enter("let t=9000000000s\nprint t+t\nlet t=0")
        #expect(r.takeErrors().contains("time is out of the clock's range"))
        #expect(r.enter("t") == "= 9000000000s\n")
    }

    @Test func theTimelineOfARunOfCenturiesDrawsAtOnce() {
        // FuzzRepl hang: past about 58 days the chart's tick step stayed at 1 ms, so drawing
        // the axis of a 285-year run took 9e12 steps.
        let r = ReplDriver()
        r.enter("rect a\nwait 9000000000\nanimate 1 < a.z = 1 >")
        let chart = r.enter(":timeline")
        #expect(chart.hasPrefix("timeline: 9000000001s, 1 lane, 1 step"), "\(chart)")
        #expect(chart.contains("2500000000s"), "\(chart)")
    }

    @Test func statementsAfterARunTimeErrorInAnEntryAreNeitherRunNorDeclared() {
        let r = ReplDriver()
        r.enter("let z = 0")
        // One entry: the print fails when the next statement starts; `rect b` is not made.
        r.enter("print 1/z; rect b center (5, 5)")
        #expect(r.takeErrors().contains("division by zero"))
        r.enter("b.center")
        #expect(r.takeErrors().contains("unknown name 'b'"))
        // Shapes declared later get the ids the interpreter gives them.
        r.enter("rect c center (7, 8)")
        #expect(r.enter("c.center") == "= (7, 8)\n")
        #expect(r.enter(":inspect c").hasPrefix("rect c\n  center = (7, 8)\n"))
    }

    @Test func aLetWhoseValueFailsKeepsThePreviousBinding() {
        let r = ReplDriver()
        r.enter("let z = 0\nlet a = 5")
        r.enter("let a = 1 / z")
        #expect(r.takeErrors().contains("division by zero"))
        #expect(r.enter("a") == "= 5\n")
        r.enter("let fresh = 1 / z")
        r.enter("fresh")
        #expect(r.takeErrors().contains("unknown name 'fresh'"))
    }

    @Test func aSeekReplaysFailedEntriesTheSameWay() {
        let r = ReplDriver()
        r.enter("let z = 0\nrect a")
        r.enter("animate 1 < a.z = 10 >; print 1/z; rect b")
        r.enter("wait 2")
        r.enter(":seek 0.5")
        #expect(r.enter("a.z").hasPrefix("= 5"))
        r.enter(":seek 3")
        #expect(r.enter("a.z") == "= 10\n")
        r.enter("b.z")
        #expect(r.takeErrors().contains("unknown name 'b'"))
    }
}
