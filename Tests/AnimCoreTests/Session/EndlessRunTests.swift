// Runs that become endless as they play (an `if` or `choose` taking a `repeat forever` branch,
// a `repeat while` whose condition nothing can change): every front end stops or keeps
// playing as it does for a plain `repeat forever` — `anim check` says the script never ends,
// the REPL plays the entry `:until` per entry, a `then` after it is refused, the language
// server's analysis ends — instead of hanging. Also `anim check`'s critical path through a
// `repeat` (one step with its passes) and the image cache re-reading an edited PNG.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Runs that become endless as they play")
struct EndlessRunTests {
    static let ifForever = "let t = true\nwait 1 then if t < repeat forever < wait 1 then print \"tick\" > >\n"

    func check(_ text: String) -> (CheckReport, CapturedOutput) {
        let out = CapturedOutput()
        var o = SessionOptions()
        o.baseNamesOnly = true
        return (Session(options: o, output: out).check(name: "t.anim", bytes: Array(text.utf8)), out)
    }

    @Test("anim check says an if that takes a repeat forever never ends, as for a plain repeat forever")
    func checkSaysItNeverEnds() {
        let (report, out) = check(Self.ifForever)
        #expect(report.exitCode == .success, "\(out.error)")
        #expect(report.duration == nil)
        // At the `repeat forever` the branch runs.
        let at = Self.ifForever.utf8.count - "repeat forever < wait 1 then print \"tick\" > >\n".utf8.count
        #expect(report.endless.map { Int($0.start) } == at)
        #expect(out.error == "", "no run-time error: check says it in its own words")
        // A plain repeat forever, for comparison.
        let (plain, _) = check("repeat forever < wait 1 >\n")
        #expect(plain.endless != nil && plain.duration == nil)
        // And a repeat while on a `let` that holds.
        let (loop, _) = check("let going = true\nrepeat while going < wait 1 >\n")
        #expect(loop.endless != nil && loop.duration == nil)
        // One that does not hold ends.
        let (off, _) = check("let going = false\nrepeat while going < wait 1 >\nwait 2\n")
        #expect(off.endless == nil && off.duration == Time(seconds: 2))
    }

    @Test("the language server's analysis of such a script ends and says it never ends")
    func analysisEnds() {
        let d = Session.diagnose(name: "t.anim", bytes: Array(Self.ifForever.utf8))
        #expect(d.report.endless != nil)
        #expect(!d.stopped)
    }

    @Test("a REPL entry whose if takes a repeat forever plays as a repeat forever entry does")
    func replPlaysItPerEntry() {
        let r = ReplDriver()
        r.enter("let t = true")
        let out = r.enter("if t < repeat forever < wait 4 then < print \"tick\" > > >")
        #expect(out == "[4.000] tick\n[8.000] tick\ntime 10.000s, 1 graph running\n")
        #expect(r.enter("print \"next\"") == "[10.000] next\n[12.000] tick\n[16.000] tick\n[20.000] tick\ntime 20.000s, 1 graph running\n")
        // So does a `repeat while` on a `let` that holds.
        let w = ReplDriver()
        w.enter("let going = true")
        #expect(w.enter("repeat while going < wait 4 then < print \"pass\" > >") == "[4.000] pass\n[8.000] pass\ntime 10.000s, 1 graph running\n")
        // A `then` after it is refused, as after a plain `repeat forever`.
        let s = ReplDriver()
        s.enter("let t = true")
        s.enter("if t < repeat forever < wait 4 > >")
        s.enter("then < print \"never\" >")
        #expect(s.lastOutcome == .failed)
        #expect(s.takeErrors().contains("the previous entry never ends"))
    }

    @Test("a REPL then after an entry that becomes endless later is refused when it does")
    func replThenAfterALaterDecision() {
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter("let t = true")
        r.enter("wait 1 then if t < repeat forever < wait 1 > >")
        r.enter("then < print \"never\" >")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().contains("the previous entry never ends"))
    }

    @Test("a timeline (render, export) of such a script needs --until")
    func timelineNeedsUntil() {
        let out = CapturedOutput()
        #expect(Session(options: SessionOptions(), output: out).timeline(name: "t.anim", bytes: Array(Self.ifForever.utf8)) == nil)
        #expect(out.error.contains("the script cannot finish: this graph never ends"))
        var o = SessionOptions()
        o.until = Time(seconds: 3)
        let t = Session(options: o, output: CapturedOutput()).timeline(name: "t.anim", bytes: Array(Self.ifForever.utf8))
        #expect(t?.end == Time(seconds: 3))
    }

    @Test("anim test reports it as the run does")
    func testCommand() {
        let r = runScript(Self.ifForever)
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("test.anim:2:20: error: the script cannot finish: this graph never ends"), "\(r.stderr)")
        #expect(r.stdout == "")
    }

    // MARK: - A `repeat while` whose passes change nothing

    static let stillWhile = "rect sq center (0, 0) size (10, 10)\nrepeat while sq.alpha >= 0 < wait 1 >\n"

    /// Stops a run that has gone on for `seconds` of wall time (so a regression fails, not hangs).
    static func deadline(_ seconds: Double = 20) -> () -> Bool {
        let end = Date().addingTimeInterval(seconds)
        return { Date() > end }
    }

    @Test("a repeat while whose condition reads a property nothing writes never ends, in every front end")
    func stillWhileNeverEnds() {
        // The language server's analysis (and, through it, `anim check`'s timing run) ends.
        let d = Session.diagnose(name: "t.anim", bytes: Array(Self.stillWhile.utf8), shouldStop: Self.deadline())
        #expect(!d.stopped, "the analysis ran until the deadline")
        #expect(d.report.endless.map { Int($0.start) } == Self.stillWhile.utf8.count - "repeat while sq.alpha >= 0 < wait 1 >\n".utf8.count)
        let (report, out) = check(Self.stillWhile)
        #expect(report.exitCode == .success && report.endless != nil && report.duration == nil, "\(out.error)")
        // A timeline (render, export) needs --until, as for a repeat forever.
        let t = CapturedOutput()
        #expect(Session(options: SessionOptions(), output: t).timeline(name: "t.anim", bytes: Array(Self.stillWhile.utf8)) == nil)
        #expect(t.error.contains("the script cannot finish: this graph never ends"))
        var o = SessionOptions()
        o.until = Time(seconds: 3)
        #expect(Session(options: o, output: CapturedOutput()).timeline(name: "t.anim", bytes: Array(Self.stillWhile.utf8))?.end == Time(seconds: 3))
    }

    @Test("a still repeat while ends when something else writes what its condition reads, at the same instant or later")
    func stillWhileEndsWhenWritten() {
        let loop = "rect sq center (0, 0) size (10, 10)\nrepeat while sq.alpha >= 0 < wait 1 then print \"pass\" > then print \"done\"\n"
        let passes = (1...4).map { "[\($0).000] pass\n" }.joined()
        // Another graph, at the instant of a pass's end.
        #expect(runScript(loop + "wait 3 then set sq.alpha = -1\n").stdout == passes + "[4.000] done\n")
        // The script, after a top-level wait.
        #expect(runScript(loop + "wait 3.5\nset sq.alpha = -1\n").stdout == passes + "[4.000] done\n")
        // A tween that starts later.
        let three = (1...3).map { "[\($0).000] pass\n" }.joined()
        #expect(runScript(loop + "wait 2\nanimate 1.5 < sq.alpha = -1 >\n").stdout == three + "[3.000] done\n")
        // The body itself, drawing a number each pass (seeded: the same passes every run).
        let drawn = runScript("rect sq\nseed 3\nrepeat while sq.alpha >= 0 < if random(0, 1) >= 0.8 < set sq.alpha = -1 > then wait 1 > then print \"done\"\n")
        #expect(drawn.exitCode == 0 && drawn.stdout.hasSuffix("] done\n"), "\(drawn.stderr)")
    }

    @Test("a REPL entry with a still repeat while plays in the background, and ends when the condition is changed")
    func stillWhileInTheRepl() {
        let r = ReplDriver()
        r.enter("rect sq")
        #expect(r.enter("repeat while sq.alpha >= 0 < wait 4 then print \"pass\" > then print \"done\"") == "[4.000] pass\n[8.000] pass\ntime 10.000s, 1 graph running\n")
        #expect(r.enter("set sq.alpha = -1") == "[12.000] pass\n[12.000] done\ntime 12.000s\n")
    }

    // MARK: - The critical path through a repeat

    @Test("the critical path shows a repeat as one step with its passes, pauses included")
    func criticalPathOfARepeat() {
        let script = "rect sq\nwait 0.5\nrepeat 3 repeat-delay 0.5 < animate 1 < sq.center += (10, 0) > >\nthen animate 1 < sq.alpha = 0 >\n"
        let (report, out) = check(script)
        #expect(report.duration == Time(seconds: 5.5), "\(out.error)")
        let path = report.criticalPath.map { "\($0.begin.eventStamp)–\($0.end.eventStamp) \($0.label) \($0.position)" }
        #expect(path == ["0.500–4.500 repeat 3: 3 passes (4s) t.anim:3:1", "4.500–5.500 tween sq.alpha = 0 (1s) t.anim:4:6"])
        // Nested: the outer repeat is the step.
        let nested = check("rect sq\nrepeat 2 < repeat 2 < animate 1 < sq.z += 1 > > >\n").0.criticalPath.map(\.label)
        #expect(nested == ["repeat 2: 2 passes (4s)"])
    }

    // MARK: - Images

    @Test("an image file edited on disk is read again")
    func imageReadAgain() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-image-\(getpid())-\(UInt64.random(in: 0 ..< .max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("icon.png")
        try FileManager.default.copyItem(atPath: ImageShapeTests.pictures + "/icon.png", toPath: png.path)
        let script = Array("image icon file \"icon.png\" size (10, 10)\n".utf8)
        let name = dir.appendingPathComponent("t.anim").path
        #expect(Session(options: SessionOptions(), output: CapturedOutput()).check(name: name, bytes: script).exitCode == .success)
        // Now not a PNG (another size, so a file system with coarse times sees it too).
        try Data("not a picture".utf8).write(to: png)
        let out = CapturedOutput()
        #expect(Session(options: SessionOptions(), output: out).check(name: name, bytes: script).exitCode == .failure)
        #expect(out.error.contains("'icon.png' is not a PNG image"), "\(out.error)")
        // A session names the files it read, for `anim serve` to watch.
        let s = Session(options: SessionOptions(), output: CapturedOutput())
        _ = s.check(name: name, bytes: script)
        #expect(s.imageFiles == [png.path])
    }
}
