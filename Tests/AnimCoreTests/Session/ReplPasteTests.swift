// The REPL reads what is pasted (or typed over several lines) as `anim run` reads a file: the
// parser that reads files decides when an entry is complete, a paste is one entry with the
// file's line numbers, and a pasted golden script prints what its run prints.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("REPL pastes and continuation")
struct ReplPasteTests {
    static let hop = """
        rect sq center (0,0)
        define hop(s, h) =
            animate 0.5 < s.offset = (0, -h) > then animate 0.5 < s.offset = (0, 0) >
        play hop(sq, 10) then < print "landed {sq.offset}" >

        """

    // MARK: - Continuation

    @Test func aDefineWhoseBodyIsOnTheNextLineContinues() {
        let r = ReplDriver()
        r.enter("rect sq center (0,0)")
        r.enter("define hop(s, h) =")
        #expect(r.lastOutcome == .incomplete)
        #expect(r.repl.prompt == "...> ")
        r.enter("    animate 0.5 < s.offset = (0, -h) > then animate 0.5 < s.offset = (0, 0) >")
        #expect(r.lastOutcome == .ok)
        #expect(r.takeErrors() == "")
        #expect(r.enter("play hop(sq, 10) then < print \"landed {sq.offset}\" >") == "[1.000] landed (0, 0)\ntime 1.000s\n")
    }

    @Test func aPastedDefineRunsAsTheFile() {
        let r = ReplDriver()
        let out = r.enter(ReplPasteTests.hop)
        let file = runScript(ReplPasteTests.hop, name: "<repl>")
        #expect(file.stderr == "" && file.stdout == "[1.000] landed (0, 0)\n")
        #expect(r.takeErrors() == "")
        #expect(out == file.stdout + "time 1.000s\n")
    }

    @Test("what continues: the file parser stopped at the end of the input", arguments: [
        "animate 1 <", "animate 1 <\n  sq.center = (1, 0)", "print max(1,", "print 1 then", "define hop(s) =",
        "define hop(s) =\n", "at 1 < print 1", "then animate 1 <", "animate 1 < # a comment",
    ])
    func continues(_ text: String) {
        let r = ReplDriver()
        r.enter("rect sq center (0,0)\nprint \"ready\"")
        r.enter(text)
        #expect(r.lastOutcome == .incomplete)
        #expect(r.takeErrors() == "")
    }

    @Test("what does not: an error more lines cannot fix is reported at once", arguments: [
        "animate", "print 1 +", "print \"open", "animate 1 < > >", "print 1 >", "define hop(s) = print",
    ])
    func reportedAtOnce(_ text: String) {
        let r = ReplDriver()
        r.enter(text)
        #expect(r.lastOutcome == .failed)
        #expect(r.repl.prompt == "anim> ")
        #expect(r.takeErrors() == runScript(text + "\n", name: "<repl>").stderr, "the file's diagnostics")
    }

    // MARK: - Pastes are files

    @Test func errorsInAPasteHaveTheFilesLineNumbers() {
        let script = "rect a center (0,0)\n\n# a comment\nanimate 1 < a.centre = (1,0) >\nprint 2 3\n"
        let r = ReplDriver()
        #expect(r.enter(script) == "", "nothing runs: the file would not run either")
        #expect(r.lastOutcome == .failed)
        let errors = r.takeErrors()
        #expect(errors == runScript(script, name: "<repl>").stderr)
        #expect(errors.hasPrefix("<repl>:5:9: error: expected end of statement"), Comment(rawValue: errors))
        // Only once it parses is it checked, as a whole, before anything runs.
        let checked = "print \"first\"\nanimate 1 < a.centre = (1,0) >\n"
        #expect(r.enter(checked) == "")
        #expect(r.takeErrors().hasPrefix("<repl>:2:"))
        #expect(r.enter("a.center") == "", "'a' was never made")
    }

    @Test func anEntryTypedOverSeveralLinesIsNumberedFromItsFirstLine() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("animate 1 <")
        r.enter("  a.center = (1,0)")
        r.enter("  a.centre = (2,0)")
        r.enter(">")
        #expect(r.takeErrors().hasPrefix("<repl>:3:5: error: unknown property 'centre'"))
    }

    @Test func aLeadingThenKeepsTheColumnsOfItsLine() {
        let r = ReplDriver()
        r.enter("print \"first\"")
        r.enter("then < print 1/0 >")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().hasPrefix("<repl>:1:14: error: division by zero"))
    }

    @Test func aThenWithNothingToFollowIsTheFilesError() {
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        r.enter("then print 1")
        #expect(r.lastOutcome == .failed)
        #expect(r.takeErrors().hasPrefix("<repl>:1:1: error: 'then' cannot start a step"))
        #expect(runScript("rect a center (0,0)\nthen print 1\n").stderr.hasPrefix("test.anim:2:1: error: 'then' cannot start a step"))
    }

    @Test func commandsInAPasteRunBetweenItsEntries() {
        let r = ReplDriver()
        let out = r.enter("rect a center (0,0)\nanimate 1 < a.center = (10,0) >\n:time\na.center\n:seek 0.5\nprint \"at {a.center}\"")
        // The clock runs before each command, which sees the world as the entries leave it.
        #expect(out == "time 1.000s\ntime 1.000s\n= (10, 0)\ntime 0.500s\n[0.500] at (5, 0)\ntime 1.000s\n")
    }

    @Test func aThenLineFollowsTheLastStatementOfTheEntryBefore() {
        // As in a file, where `then` on the next line continues the chain just before it.
        let script = "rect a center (0,0)\nanimate 3 < a.alpha = 0 >\nanimate 1 < a.center = (1,0) >\n"
        let r = ReplDriver()
        r.enter(":auto off")
        r.enter(script)
        #expect(r.enter("then < print \"after {a.center}\" >") == "[1.000] after (1, 0)\n")
        #expect(runScript(script + "then < print \"after {a.center}\" >\n").stdout == "[1.000] after (1, 0)\n")
    }

    // MARK: - After a seek back

    @Test func afterASeekBackTheNextEntryPlaysTheClockOn() {
        // Documented in :help and README: in auto mode an entry runs the clock until every
        // graph that can finish has finished, and a seek back leaves graphs mid-run.
        let r = ReplDriver()
        r.enter("rect a center (0,0)")
        #expect(r.enter("animate 2 ease linear < a.center = (100,0) > then < print \"end\" >") == "[2.000] end\ntime 2.000s\n")
        r.enter(":seek 0.5")
        #expect(r.enter("a.center") == "= (25, 0)\n", "an expression does not move the clock")
        #expect(r.enter(":time") == "time 0.500s, 1 graph running\n")
        #expect(r.enter("print \"here {a.center}\"") == "[0.500] here (25, 0)\n[2.000] end\ntime 2.000s\n")
        // With :auto off the clock stays where the seek put it.
        r.enter(":seek 0.5")
        r.enter(":auto off")
        #expect(r.enter("print \"still {a.center}\"") == "[0.500] still (25, 0)\n")
        #expect(r.enter(":time") == "time 0.500s, 1 graph running\n")
    }

    @Test func helpSaysWhatAnEntryDoesAfterASeekBack() {
        let help = ReplDriver().enter(":help")
        #expect(help.contains("After a :seek back"), Comment(rawValue: help))
    }

    // MARK: - :timeline

    @Test func timelineDrawsTheChartOfAnimTimelineWithThePrintedMessages() throws {
        let demo = try String(contentsOf: TestPaths.examples.appendingPathComponent("demo.anim"), encoding: .utf8)
        let s = Session(output: CapturedOutput())
        let expected = TimelineChart.render(try #require(s.timeline(name: "demo.anim", bytes: Array(demo.utf8))), width: 80, color: false)
        #expect(expected.contains("print \"First corner\""))
        let r = ReplDriver()
        r.enter(demo)
        #expect(r.enter(":timeline") == expected)
        // A seek replays silently, and the messages are still there.
        r.enter(":seek 1")
        r.enter(":seek 4.1")
        #expect(r.enter(":timeline") == expected)
    }

    // MARK: - Every golden script, pasted

    /// The golden scripts and examples that `anim run` runs without extra flags and that end:
    /// a graph that never ends is an error for a file and plays 10 s per entry in the REPL.
    static let goldenScripts: [String] = (TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples))
        .filter { path in
            guard let text = try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8) else { return false }
            return ScriptExpectations(text: text).flags.isEmpty
        }

    @Test("a pasted golden script prints what anim run prints", arguments: goldenScripts)
    func pastedGoldenScript(_ path: String) throws {
        let text = String(decoding: try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)), as: UTF8.self)
        let file = runScript(text, name: "<repl>")
        if file.stderr.contains("the script cannot finish") { return }
        let r = ReplDriver()
        let out = r.enter(text)
        if r.lastOutcome == .incomplete {
            // A script that stops part-way through a statement: its file's error is at the end
            // of the input, and the REPL waits for the rest.
            #expect(Parser.parseProgram(SourceFile(id: 0, name: path, text: text)).endedEarly, "\(path)")
            #expect(out == "" && r.takeErrors() == "", "\(path)")
            return
        }
        // The REPL then says where the clock is, in a line of its own at the end.
        var lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count >= 2, lines[lines.count - 2].hasPrefix("time ") { lines.remove(at: lines.count - 2) }
        #expect(lines.joined(separator: "\n") == file.stdout, "\(path)")
        #expect(r.takeErrors() == file.stderr, "\(path)")
    }

    @Test func mostGoldenScriptsArePasted() {
        #expect(ReplPasteTests.goldenScripts.count > 250)
    }
}
