// Unit tests of ReplSession, the REPL without a terminal: prompts and continuation, the clock
// after each entry, every `:` command, `:seek` by replay (checked against a straight run),
// errors that leave the session going, pasted scripts, and Tab completion.
import AnimCore
import AnimTestSupport
import Testing

/// A REPL writing to memory; `enter` returns what one input printed.
final class ReplDriver {
    let out = CapturedOutput()
    let repl: ReplSession
    private(set) var lastOutcome: ReplSession.Outcome = .ok
    private var seenOut = 0, seenErr = 0

    init(files: [String: String] = [:]) {
        repl = ReplSession(output: out, readFile: { path in
            guard let text = files[path] else { return .failure(UsageError("cannot read '\(path)': No such file or directory")) }
            return .success(Array(text.utf8))
        })
    }

    /// Handles `input` and returns the new standard output.
    @discardableResult
    func enter(_ input: String) -> String {
        lastOutcome = repl.handle(line: input)
        return takeOutput()
    }

    /// Handles each line in turn, as typed; returns all standard output.
    @discardableResult
    func type(_ lines: [String]) -> String {
        lines.map { enter($0) }.joined()
    }

    /// Standard output written since the last call.
    func takeOutput() -> String {
        let s = String(out.standard.dropFirst(seenOut))
        seenOut = out.standard.count
        return s
    }

    /// Standard error written since the last call.
    func takeErrors() -> String {
        let s = String(out.error.dropFirst(seenErr))
        seenErr = out.error.count
        return s
    }
}

@Suite("REPL session")
struct ReplSessionTests {
    // MARK: - Prompts and continuation

    @Test func promptAndContinuationOfABlock() {
        let r = ReplDriver()
        #expect(r.repl.prompt == "anim> ")
        r.enter("rect a center (0,0)")
        #expect(r.lastOutcome == .ok)
        r.enter("animate 1 <")
        #expect(r.lastOutcome == .incomplete)
        #expect(r.repl.prompt == "...> ")
        r.enter("a.center = (10,0)")
        #expect(r.lastOutcome == .incomplete)
        r.enter("")  // a blank line inside a block keeps it open
        #expect(r.repl.prompt == "...> ")
        let out = r.enter(">")
        #expect(r.lastOutcome == .ok)
        #expect(r.repl.prompt == "anim> ")
        #expect(out == "time 1.000s\n")
        #expect(r.enter("a.center") == "= (10, 0)\n")
    }

    @Test func aTrailingThenAndOpenBracketsContinue() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 < a.center = (10,0) > then")
        #expect(r.lastOutcome == .incomplete)
        #expect(r.repl.prompt == "...> ")
        #expect(r.enter("< print \"then {a.center}\" >") == "[1.000] then (10, 0)\ntime 1.000s\n")
        r.enter("print max(1,")
        #expect(r.lastOutcome == .incomplete)
        #expect(r.enter("2)") == "[1.000] 2\n")
    }

    @Test func otherErrorsAtTheEndOfALineDoNotContinue() {
        let r = ReplDriver()
        for line in ["animate", "print \"open", "print 1 +", "animate 1 < > >"] {
            r.enter(line)
            #expect(r.lastOutcome == .failed, "\(line)")
            #expect(r.repl.prompt == "anim> ", "\(line)")
            #expect(r.takeErrors().contains("error"), "\(line)")
        }
    }

    /// Errors that end at a `>`: one error each (a block's own `>` is not reported again as
    /// stray), and the session goes on.
    @Test func errorsThatEndAtABlockEndAreReported() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        for entry in [">", "print 1 >", "animate 1 < print \"x\" >", "animate 0.5 <\nprint \"inside\"\n>", "print (1) >",
                      "animate 1 <\na.center = (1,0)\nprint 2\n>"] {
            r.enter(entry)
            #expect(r.lastOutcome == .failed, "\(entry)")
            let errors = r.takeErrors()
            #expect(errors.components(separatedBy: "error:").count - 1 == 1, "one error for \(entry): \(errors)")
        }
        #expect(r.enter(":load bad.anim") == "")
        #expect(r.enter("print \"ok\"") == "[0.000] ok\n")
    }

    @Test func cancelInputDropsAHalfTypedEntry() {
        let r = ReplDriver()
        r.enter("print \"before\"")
        r.enter("animate 1 <")
        r.enter("print \"inside\"")  // an error in a block (print is not a property)
        r.enter("< print \"a\"")
        #expect(r.repl.isContinuing)
        r.repl.cancelInput()
        #expect(!r.repl.isContinuing)
        #expect(r.repl.prompt == "anim> ")
        #expect(r.enter("print \"after\"") == "[0.000] after\n")
    }

    // MARK: - The clock after each entry

    @Test func theClockRunsAfterEachStatementAndPrintsEvents() {
        let r = ReplDriver()
        r.enter("rect square center (90,120) size (100,100) color red radius 7")
        #expect(r.takeOutput() == "")  // the clock did not move: nothing to say
        #expect(r.enter("animate 1.0 < square.center = (310,120) >") == "time 1.000s\n")
        #expect(r.enter("then < print \"First corner\" >") == "[1.000] First corner\n")
        #expect(r.enter("animate 0.5 < square.alpha = 0 > then < print \"faded {square.alpha}\" >")
            == "[1.500] faded 0\ntime 1.500s\n")
        #expect(r.enter("square.center") == "= (310, 120)\n")
    }

    @Test func aGraphThatNeverEndsPlaysTenSecondsPerStatementAndKeepsRunning() {
        let r = ReplDriver()
        r.enter("rect s center (0,0)")
        let out = r.enter("repeat forever < wait 4 then < print \"tick\" > >")
        #expect(out == "[4.000] tick\n[8.000] tick\ntime 10.000s, 1 graph running\n")
        #expect(r.enter("print \"next\"") == "[10.000] next\n[12.000] tick\n[16.000] tick\n[20.000] tick\ntime 20.000s, 1 graph running\n")
        #expect(r.enter(":until 3") == "never-ending graphs now run 3s per entry\n")
        #expect(r.enter("set s.z = 1") == "time 23.000s, 1 graph running\n")
        #expect(r.enter(":until 10s") == "never-ending graphs now run 10s per entry\n")
    }

    @Test func anErrorInOneGraphLeavesTheOthersRunning() {
        let r = ReplDriver()
        r.enter("repeat forever < wait 3 then < print \"tick\" > >")
        let out = r.enter("wait 1 then < print 1/0 >")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().contains("division by zero"))
        #expect(out == "[12.000] tick\n[15.000] tick\n[18.000] tick\ntime 20.000s, 1 graph running\n")
    }

    @Test func aLongFiniteGraphRunsToItsEnd() {
        let r = ReplDriver()
        r.enter("rect s center (0,0)")
        #expect(r.enter("animate 25 < s.center = (25,0) > then < print \"end {s.center}\" >") == "[25.000] end (25, 0)\ntime 25.000s\n")
    }

    @Test func autoOffKeepsTheClockStillAndStepWalksIt() {
        let r = ReplDriver()
        #expect(r.enter(":auto off").hasPrefix("auto off"))
        r.enter("rect a center (0,0)")
        #expect(r.enter("animate 2 ease linear < a.center = (100,0) > then < print \"done\" >") == "")
        #expect(r.enter("a.center") == "= (0, 0)\n")
        #expect(r.enter(":time") == "time 0.000s, 1 graph running\n")
        #expect(r.enter(":step 0.5") == "time 0.500s, 1 graph running\n")
        #expect(r.enter("a.center") == "= (25, 0)\n")
        #expect(r.enter(":step 2") == "[2.000] done\ntime 2.500s\n")
        #expect(r.enter(":auto") == "auto off: the clock moves only with :step, :seek and wait\n")
        #expect(r.enter(":auto on").hasPrefix("auto on"))
        #expect(r.enter("animate 1 < a.center = (0,0) >") == "time 3.500s\n")
    }

    @Test func aNamedPlayWhoseDefineFirstWaitsStartsWithItsBlock() {
        // The define's body starts with `after a`: the named play b starts when that block
        // does, so `with b + 0.5` counts from a's end, typed entry by entry or pasted.
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter("rect sq")
        r.enter("define late(s) = after a < animate 1 ease linear < s.z = 10 > >")
        r.enter("wait 1 then print \"a ends\" as a")
        r.enter("play late(sq) as b")
        r.enter("with b + 0.5 < print \"with b + 0.5: z {sq.z}\" >")
        #expect(r.enter(":step 2") == "[1.000] a ends\n[1.500] with b + 0.5: z 5\ntime 2.000s\n")
        let pasted = ReplDriver()
        pasted.enter("rect sq")
        pasted.enter("define late(s) = after a < animate 1 ease linear < s.z = 10 > >")
        let out = pasted.enter("wait 1 then print \"a ends\" as a\nplay late(sq) as b\nwith b + 0.5 < print \"with b + 0.5: z {sq.z}\" >")
        #expect(out == "[1.000] a ends\n[1.500] with b + 0.5: z 5\ntime 2.000s\n")
    }

    @Test func seekWithoutATimeJumpsToANamedStep() {
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter("rect a center (0,0)")
        r.enter("animate 1 ease linear < a.center = (100,0) > as intro then animate 1 ease linear < a.center = (200,0) > as outro then print \"done\"")
        #expect(r.enter("seek outro") == "")
        #expect(r.enter("a.center") == "= (100, 0)\n")
        #expect(r.enter(":step 0.5") == "time 0.500s, 1 graph running\n")
        #expect(r.enter("a.center") == "= (150, 0)\n")
        r.enter("seek intro")
        #expect(r.enter("a.center") == "= (0, 0)\n")
    }

    @Test func aLineStartingWithThenWaitsForThePreviousEntry() {
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter("rect a center (0,0)")
        r.enter("animate 2 ease linear < a.center = (100,0) >")
        // The clock stays where the wait left it, and what is due there happens.
        #expect(r.enter("then < print \"after {a.center}\" >") == "[2.000] after (100, 0)\n")
        #expect(r.repl.session.now == Time(seconds: 2))
        r.enter("repeat forever < animate 1 < a.alpha = 0 > >")
        r.enter("then < print \"never\" >")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().contains("the previous entry never ends"))
    }

    // MARK: - Commands

    @Test func helpListsEveryCommand() {
        let r = ReplDriver()
        let help = r.enter(":help")
        for c in ReplSession.commands { #expect(help.contains(c.usage), "\(c.name)") }
        #expect(r.lastOutcome == .ok)
    }

    @Test func quitEndsAndNothingElseDoes() {
        let r = ReplDriver()
        r.enter(":quit")
        #expect(r.lastOutcome == .quit)
        r.enter(":q")
        #expect(r.lastOutcome == .quit)
    }

    @Test func loadRunsAFileInTheSession() {
        let r = ReplDriver(files: ["demo.anim": ReplSessionTests.demo])
        #expect(r.enter(":load demo.anim") == "[1.300] First corner\n[4.100] Animation complete\ntime 4.100s\n")
        #expect(r.enter("square.center") == "= (90, 120)\n")
        r.enter(":load missing.anim")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors() == "error: cannot read 'missing.anim': No such file or directory\n")
        r.enter(":load")
        #expect(r.takeErrors() == "error: ':load' takes a file name\n")
    }

    @Test func diagnosticsOfALoadedFileNameIt() {
        let r = ReplDriver(files: ["bad.anim": "rect a center (0,0)\nanimate 1 < a.centre = (1,1) >\n"])
        r.enter(":load bad.anim")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().hasPrefix("bad.anim:2:15: error: unknown property 'centre'"))
    }

    @Test func resetStartsOver() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 < a.center = (1,0) >")
        #expect(r.enter(":reset") == "reset: no shapes, no bindings, time 0\n")
        #expect(r.enter(":time") == "time 0.000s\n")
        r.enter("a.center")
        #expect(r.takeErrors().contains("'a'"))
        r.enter("rect a center (5,5)")  // the name is free again
        #expect(r.lastOutcome == .ok)
        #expect(r.enter(":timeline") == "no graphs yet\n")
    }

    @Test func timelineListsGraphs() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 < a.center = (1,0) >")
        r.enter("repeat forever < animate 1 < a.alpha = 0 > then animate 1 < a.alpha = 1 > >")
        let t = r.enter(":timeline")
        // The same Gantt drawing as `anim timeline`: a header, a ruler, a lane, one row per step.
        let lines = t.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("timeline: ") == true, Comment(rawValue: t))
        #expect(lines.contains { $0.contains("lane 1") }, Comment(rawValue: t))
        #expect(lines.contains { $0.hasPrefix("  center") && $0.hasSuffix("0–1s") }, Comment(rawValue: t))
        #expect(lines.contains { $0.hasPrefix("  alpha") }, Comment(rawValue: t))
    }

    @Test func inspectShowsShapesBindingsAndSteps() {
        let r = ReplDriver()
        r.type(["rect square center (90,120) size (100,100) color red radius 7", "let p = (1, 2)", "let s = \"hi\""])
        let shape = r.enter(":inspect square")
        #expect(shape.hasPrefix("rect square\n  center = (90, 120)\n  size = (100, 100)\n"))
        #expect(shape.contains("  color = #ff0000\n"))
        #expect(r.enter(":inspect p") == "p = (1, 2)\n")
        #expect(r.enter(":inspect s") == "s = \"hi\"\n")
        #expect(r.enter(":inspect square.center") == "= (90, 120)\n")
        r.enter("rect card[3] center (10*i, 0)")
        #expect(r.enter(":inspect card[1]").hasPrefix("rect card[1]\n  center = (10, 0)\n"))
        #expect(r.enter(":inspect card").components(separatedBy: "rect card[").count == 4)
        r.enter(":inspect card[3]")
        #expect(r.takeErrors() == "error: 'card' has members card[0] to card[2], not card[3]\n")
        r.enter(":inspect squar")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors() == "error: unknown name 'squar'; did you mean 'square'?\n")
        r.enter(":inspect")
        #expect(r.takeErrors() == "error: ':inspect' takes a name, such as a shape's\n")
    }

    @Test func badCommandsAreErrorsThatLeaveTheSessionGoing() {
        let r = ReplDriver()
        let cases: [(String, String)] = [
            (":tim", "error: unknown command ':tim'; did you mean 'time'? (type :help)\n"),
            (":step", "error: ':step' takes a time such as 2, 1.5s or 300ms\n"),
            (":step -1", "error: ':step' takes a time such as 2, 1.5s or 300ms, not '-1'\n"),
            (":seek soon", "error: ':seek' takes a time such as 2, 1.5s or 300ms, not 'soon'\n"),
            (":until 40000000", "error: ':until 40000000' is longer than the limit of one year\n"),
            (":auto maybe", "error: ':auto' takes 'on' or 'off', not 'maybe'\n"),
            (":time now", "error: ':time' takes no argument\n"),
        ]
        for (input, message) in cases {
            r.enter(input)
            #expect(r.lastOutcome == .failed, "\(input)")
            #expect(r.takeErrors() == message, "\(input)")
        }
        #expect(r.enter("print \"still here\"") == "[0.000] still here\n")
    }

    @Test func errorsOfEveryKindLeaveTheSessionGoing() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 < a.centre = (1,0) >")     // check error
        #expect(r.lastOutcome == .failed)
        r.enter("print (1,")
        r.enter("]")                                  // parse error
        #expect(r.lastOutcome == .failed)
        r.enter("print 1/0")                          // run-time error
        #expect(r.lastOutcome == .failed)
        r.enter("animate 1 < a.center = (1,0) > then < print 1/0 >")  // run-time error while the clock runs
        #expect(r.lastOutcome == .failed)
        r.enter("expect a.center == (2,0)")           // a failed expectation
        #expect(r.lastOutcome == .failed)
        r.enter("nonsense here")
        #expect(r.lastOutcome == .failed)
        let errors = r.takeErrors()
        #expect(errors.contains("unknown property 'centre'"))
        #expect(errors.contains("division by zero"))
        #expect(errors.contains("expectation failed"))
        #expect(r.enter("print \"alive {a.center}\"") == "[1.000] alive (1, 0)\n")
        #expect(r.lastOutcome == .ok)
    }

    // MARK: - Seeking

    /// Entries with randomness, a `set`, a print and a graph that never ends.
    static let seekScript = [
        "rect a center (0,0) color red",
        "rect b center (0,0)",
        "seed 7",
        "let r = random(0, 100)",
        "animate 2 ease linear < a.center = (100,0) >",
        "repeat forever < animate 1 < b.alpha = 0 > then animate 1 < b.alpha = 1 > >",
        "animate 3 ease ease-out < a.color = blue; a.rotation = random(0, 360) > then < set b.z = 9 > then < print \"done\" >",
        "animate 1 < b.center = (r, r) >",
    ]

    /// Everything `:inspect` shows about the scene, plus the clock.
    static func state(_ r: ReplDriver) -> String {
        _ = r.takeOutput()
        return ["a", "b", "r"].map { r.enter(":inspect \($0)") }.joined() + r.enter(":time")
    }

    @Test func seekBackEqualsAStraightRunThere() {
        let r = ReplDriver()
        r.type(ReplSessionTests.seekScript)
        #expect(r.repl.session.now > Time(seconds: 20))
        for target in ["0", "1.25", "2", "11.5", "13", "20"] {
            let out = r.enter(":seek \(target)")
            #expect(!out.contains("["), "seeking is silent")
            let seeked = ReplSessionTests.state(r)
            let straight = ReplSessionTests.straightRun(to: target)
            #expect(seeked == straight, "at \(target)")
            _ = r.enter(":seek 100")  // back to the end of everything typed
        }
    }

    /// The same entries typed with the clock under manual control, stepping to where each
    /// entry started in the auto run, then to `target`.
    static func straightRun(to target: String) -> String {
        let auto = ReplDriver()
        var starts: [Time] = []
        for line in seekScript {
            starts.append(auto.repl.session.now)
            auto.enter(line)
        }
        let t = SessionOptions.parseTime(target)!
        let manual = ReplDriver()
        manual.enter(":auto off")
        for (line, start) in zip(seekScript, starts) where start <= t {
            manual.enter(":step \(Time(ticks: start.ticks - manual.repl.session.now.ticks))")
            manual.enter(line)
        }
        manual.enter(":step \(Time(ticks: t.ticks - manual.repl.session.now.ticks))")
        return state(manual)
    }

    @Test func seekForwardRedoesAndANewEntryReplacesTheFuture() {
        let r = ReplDriver()
        r.type(ReplSessionTests.seekScript)
        let end = ReplSessionTests.state(r)
        let back = r.enter(":seek 1")
        #expect(back == "time 1.000s (3 later entries are undone; :seek forward redoes, a new entry replaces them)\n")
        #expect(r.enter("a.center") == "= (50, 0)\n")
        let endTime = r.repl.session.now  // after the seek, so equal to 1
        #expect(endTime == Time(seconds: 1))
        #expect(r.enter(":seek 32") == "time 32.000s (redid 3 entries)\n")
        #expect(ReplSessionTests.state(r) == end)
        r.enter(":seek 1")
        r.enter("print \"new {a.center}\"")
        #expect(r.enter(":seek 50") == "time 50.000s\n")
        #expect(r.enter(":inspect b").contains("z = 0"), "the set of the dropped entry never ran")
        r.enter(":seek 0.5")
        r.enter(":seek 50")  // a replay: the dropped entries are gone from the log too
        #expect(r.enter(":inspect b").contains("z = 0"))
    }

    @Test func seekIntoAnEntryWithAWaitCutsIt() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        #expect(r.enter("animate 1 < a.center = (10,0) >; wait 3; set a.z = 5; print \"late\"") == "[3.000] late\ntime 3.000s\n")
        #expect(r.repl.session.now == Time(seconds: 3))
        r.enter(":seek 2")
        #expect(r.enter(":inspect a").contains("z = 0"))
        r.enter(":seek 4")
        #expect(r.enter(":inspect a").contains("z = 5"), "forward again: the rest of the entry is redone")
        r.enter(":seek 2")
        r.enter("print \"here\"")  // a new entry at 2: the entry is cut there for good
        r.enter(":seek 10")
        #expect(r.enter(":inspect a").contains("z = 0"))
        r.enter(":seek 0.5")
        #expect(r.enter("a.center") == "= (5, 0)\n")
        r.enter(":seek 10")  // a replay past the cut: the entry still stops at 2
        #expect(r.enter(":inspect a").contains("z = 0"))
    }

    @Test func seekForwardIsSilent() {
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter("repeat 3 < wait 1 then < print \"tick\" > >")
        #expect(r.enter(":seek 5") == "time 5.000s\n")
        let t = r.enter(":timeline")
        #expect(t.contains("6 steps") && t.contains("@3s"), Comment(rawValue: t))
    }

    @Test func seekReplaysRuntimeErrorsSilently() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 < a.center = (1,0) > then < print 1/0 >")
        #expect(r.takeErrors().contains("division by zero"))
        r.enter(":seek 0.5")
        r.enter(":seek 3")  // forward: plays on silently
        r.enter(":seek 2")  // back past the error: a replay, silent too
        #expect(r.repl.session.now == Time(seconds: 2))
        #expect(r.takeErrors() == "")
    }

    // MARK: - Pasted scripts and expressions

    static let demo = """
        # demo.anim - a square walks round the stage
        stage 400 x 700
        rect square center (90,120) size (100,100) color red radius 7

        animate 1.0 < square.center = (310,120) >
        then animate 0.3 < square.rotation = 90deg >
        then < print "First corner" >
        then animate 1.0 < square.center = (310,580) >
        then animate 0.3 delay 0.5 < square.color = blue >
        then animate 1.0 ease ease-in-out < square.center = (90,120); square.rotation = 360deg >
        then < print "Animation complete" >

        """

    @Test func aPastedScriptBehavesLikeTheFile() {
        let r = ReplDriver()
        let out = r.enter(ReplSessionTests.demo)
        #expect(out == runScript(ReplSessionTests.demo).stdout + "time 4.100s\n")
        // Two graphs started by consecutive lines start together, as in a file.
        let parallel = "rect s center (0,0)\nanimate 1 < s.center = (1,0) >\nanimate 2 < s.alpha = 0 >\nthen < print \"{s.center} {s.alpha}\" >\n"
        let r2 = ReplDriver()
        #expect(r2.enter(parallel) == runScript(parallel).stdout + "time 2.000s\n")
    }

    @Test func aPasteMayEndHalfway() {
        let r = ReplDriver()
        r.enter("rect s center (0,0)\nanimate 1 <\ns.center = (3,0)")
        #expect(r.lastOutcome == .incomplete)
        #expect(r.enter(">") == "time 1.000s\n")
    }

    @Test func bareExpressionsPrintTheirValue() {
        let r = ReplDriver()
        r.enter("rect square center (90,120)")
        #expect(r.enter("square.center") == "= (90, 120)\n")
        #expect(r.enter("square.center.x + 10") == "= 100\n")
        #expect(r.enter("1 + 2 * 3") == "= 7\n")
        #expect(r.enter("\"a{1+1}\"") == "= \"a2\"\n")
        r.enter("square.centre")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().contains("did you mean 'center'"))
    }

    // MARK: - Completion

    @Test func completesKeywordsNamesAndFunctions() {
        let r = ReplDriver()
        r.enter("rect square center (0,0)")
        r.enter("rect card[3] center (0,0)")
        #expect(r.repl.completions(for: "anim", before: "") == ["animate"])
        #expect(r.repl.completions(for: "squ", before: "animate 1 < ") == ["square"])
        #expect(r.repl.completions(for: "ca", before: "print ") == ["cadetblue", "card"])
        #expect(r.repl.completions(for: "cla", before: "print ") == ["clamp"])
        #expect(r.repl.completions(for: "rebeccap", before: "set square.color = ") == ["rebeccapurple"])
        #expect(r.repl.appendsSpace(after: "animate"))
        #expect(!r.repl.appendsSpace(after: "square"))
    }

    @Test func completesProperties() {
        let r = ReplDriver()
        r.enter("rect square center (0,0) glow 0")
        r.enter("rect card[3] center (0,0)")
        r.enter("let p = (1,2)")
        #expect(r.repl.completions(for: "square.ce", before: "") == ["square.center"])
        #expect(r.repl.completions(for: "square.ce", before: "animate 1 < ") == ["square.center"])
        #expect(r.repl.completions(for: "square.gl", before: "") == ["square.glow"])
        #expect(r.repl.completions(for: "card[2].ro", before: "") == ["card[2].rotation"])
        #expect(r.repl.completions(for: "square.center.", before: "") == ["square.center.x", "square.center.y"])
        #expect(r.repl.completions(for: "p.", before: "print ") == ["p.x", "p.y"])
        #expect(r.repl.completions(for: "nothing.", before: "") == [])
        // Nothing after a property that is not a point, and a shape's own kind's properties only.
        #expect(r.repl.completions(for: "square.alpha.", before: "") == [])
        #expect(r.repl.completions(for: "square.center.x.", before: "") == [])
        r.enter("line l from (0, 0) to (10, 0)")
        let line = r.repl.completions(for: "l.", before: "")
        #expect(line.contains("l.from") && line.contains("l.to") && !line.contains("l.center") && !line.contains("l.file") && !line.contains("l.points"))
        #expect(!r.repl.completions(for: "square.", before: "").contains("square.from"))
        // The 9 box properties, anchor and the three shadow properties, the 8 of the stroke
        // (issue 15) and the custom glow.
        #expect(r.repl.completions(for: "square.", before: "").count == 22)
        #expect(r.repl.completions(for: "square.shadow-b", before: "") == ["square.shadow-blur"])
    }

    @Test func completesCommandsAndTheirArguments() {
        let r = ReplDriver()
        r.enter("rect square center (0,0)")
        #expect(r.repl.completions(for: ":ti", before: "") == [":time", ":timeline"])
        #expect(r.repl.completions(for: ":se", before: "  ") == [":seek"])
        #expect(r.repl.completions(for: ":", before: "").count == ReplSession.commands.count)
        #expect(r.repl.completions(for: ":ti", before: "print ") == [], "commands only start a line")
        #expect(r.repl.completions(for: "o", before: ":auto ") == ["off", "on"])
        #expect(r.repl.completions(for: "sq", before: ":inspect ") == ["square"])
        #expect(r.repl.completions(for: "square.ce", before: ":inspect ") == ["square.center"])
        #expect(r.repl.completions(for: "x", before: ":time ") == [])
        #expect(r.repl.completesFileNames(before: ":load "))
        #expect(!r.repl.completesFileNames(before: "print "))
        #expect(r.repl.appendsSpace(after: ":seek"))
        #expect(!r.repl.appendsSpace(after: ":time"))
    }

    @Test func completesEasingsAfterEase() {
        let r = ReplDriver()
        #expect(r.repl.completions(for: "ease-in-o", before: "animate 1 ease ") == ["ease-in-out"])
        #expect(r.repl.completions(for: "ease-i", before: "animate 1 ease ") == ["ease-in", "ease-in-out"])
        #expect(r.repl.completions(for: "l", before: "animate 1 delay 0.5 ease ") == ["linear"])
    }

    @Test func completionInAContinuationLineOffersNoCommands() {
        let r = ReplDriver()
        r.enter("animate 1 <")
        #expect(!r.repl.completions(for: "", before: "").contains(":help"))
        #expect(r.repl.completions(for: ":he", before: "") == [])
    }
}
