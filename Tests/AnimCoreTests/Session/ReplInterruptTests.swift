// Ctrl-C in the REPL, without a terminal: ReplSession.interruptRequested stands for the key.
// Every kind of run stops where it is and the session goes on: the clock after an entry, a
// `wait` inside an entry, `:step`, a `:seek` forward, and a `:seek` back (whose replay is
// abandoned, keeping the session as it was).
import AnimCore
import AnimTestSupport
import Testing

/// A REPL whose Ctrl-C comes after `calls` questions (each about 1024 events apart, or one
/// instant apart), then never again.
private func interruptedRepl(after calls: Int) -> (ReplDriver, () -> Void) {
    let r = ReplDriver()
    var asked = 0
    var armed = false
    r.repl.interruptRequested = {
        guard armed else { return false }
        asked += 1
        if asked == calls { armed = false; return true }
        return false
    }
    return (r, { asked = 0; armed = true })
}

/// The seconds in `interrupted at 12.345s`.
private func stopTime(_ out: String) -> Double? {
    guard let m = out.firstMatch(of: #/interrupted at ([0-9.]+)s/#) else { return nil }
    return Double(m.1)
}

@Suite("REPL interrupts")
struct ReplInterruptTests {
    @Test func ctrlCStopsTheClockAfterAnEntry() {
        let (r, arm) = interruptedRepl(after: 50)
        r.enter(":until 1000000")
        arm()
        let out = r.enter("repeat forever < wait 0.001 >")
        let t = try! #require(stopTime(out), "\(out)")
        #expect(t > 0 && t < 10)
        #expect(r.lastOutcome == .failed)
        #expect(r.enter(":time") == "time \(String(format: "%.3f", t))s, 1 graph running\n")
        r.enter(":until 1")
        #expect(r.enter("print \"goes on\"") == "[\(String(format: "%.3f", t))] goes on\ntime \(String(format: "%.3f", t + 1))s, 1 graph running\n")
    }

    @Test func ctrlCStopsAWaitInsideAnEntry() {
        let (r, arm) = interruptedRepl(after: 3)
        r.enter("rect a\nrepeat forever < wait 0.001 then set a.z += 1 >")
        arm()
        // A hundred thousand seconds of millisecond events: the interrupt comes after a few
        // thousand of them, inside the wait, and the print after it does not run.
        let out = r.enter("wait 100000; print \"after the wait\"")
        let t = try! #require(stopTime(out), "\(out)")
        #expect(t < 100)
        #expect(!out.contains("after the wait"))
        #expect(r.enter(":time").hasPrefix("time \(String(format: "%.3f", t))s"))
        // The next entry runs normally; the graph kept its place.
        #expect(r.enter("a.z") == "= \(Int((t * 1000).rounded()))\n")
    }

    @Test func ctrlCDropsTheRestOfAPaste() {
        let (r, arm) = interruptedRepl(after: 3)
        r.enter(":until 1000000")
        arm()
        let out = r.enter("repeat forever < wait 0.001 >\nwait 100000\nprint \"not reached\"")
        #expect(out.contains("interrupted at"))
        #expect(!out.contains("not reached"))
        #expect(r.repl.prompt == "anim> ")
    }

    @Test("Ctrl-C stops a long :step or :seek forward", arguments: [":step 100000", ":seek 100000"])
    func ctrlCStopsAClockMove(_ command: String) {
        let (r, arm) = interruptedRepl(after: 20)
        r.enter(":auto off")
        r.enter("repeat forever < wait 0.001 >")
        arm()
        let out = r.enter(command)
        let t = try! #require(stopTime(out), "\(out)")
        #expect(t < 100)
        #expect(r.lastOutcome == .failed)
        // The clock stays where it stopped, and moves on from there.
        #expect(r.enter(":step 1").hasPrefix("time \(String(format: "%.3f", t + 1))s"))
    }

    @Test func anInterruptedSeekBackKeepsTheSession() {
        let (r, arm) = interruptedRepl(after: 3)
        r.enter(":auto off")
        r.enter("rect a\nrepeat forever < wait 0.001 then set a.z += 1 >")
        r.enter(":step 20")
        // Replaying to 10 takes ten thousand events: interrupted, the seek is abandoned.
        arm()
        let out = r.enter(":seek 10")
        #expect(out == "interrupted: the seek is abandoned, time stays at 20.000s\n")
        #expect(r.enter("a.z") == "= 20000\n")
        #expect(r.enter(":seek 10") == "time 10.000s\n")
        #expect(r.enter("a.z") == "= 10000\n")
    }

    @Test func aSeekReplaysAnInterruptedEntryOnlyAsFarAsItRan() {
        let (r, arm) = interruptedRepl(after: 3)
        r.enter("rect a\nrepeat forever < wait 0.001 then set a.z += 1 >")
        arm()
        let t = try! #require(stopTime(r.enter("wait 100000; set a.alpha = 0.5")))
        let z = r.enter("a.z")
        // Back to the start and forward again: the entry's wait ends where Ctrl-C stopped it.
        r.enter(":seek 0")
        #expect(r.enter(":seek \(t)").hasPrefix("time \(String(format: "%.3f", t))s"))
        #expect(r.enter("a.z") == z)
        #expect(r.enter("a.alpha") == "= 1\n")
    }
}
