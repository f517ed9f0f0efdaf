// The tools describe one run: `anim run` (its end), `anim check` (the total duration, the
// critical path, "never ends"), `anim check --dump graph` (the static durations) and `anim
// graph` (when each node ran, or "did not run"). Each script here is run through all of them
// and every pair that can disagree is compared.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// What each tool says about a script, and where they disagree (empty: they agree).
private func disagreements(_ text: String, name: String = "test.anim", flags: [String] = [],
                           didNotRun expected: Set<String> = []) throws -> [String] {
    var options = try SessionOptions.parse(runFlags: flags).get()
    options.baseNamesOnly = true
    let bytes = Array(text.utf8)
    var out: [String] = []

    // `anim run`, keeping the whole run (as `anim graph` does).
    let runOutput = CapturedOutput()
    let runSession = Session(options: options, output: runOutput)
    let timeline = runSession.timeline(name: name, bytes: bytes)
    // `anim check`.
    let checkSession = Session(options: options, output: CapturedOutput())
    let report = checkSession.check(name: name, bytes: bytes)
    // `anim check --dump graph`.
    let dumpSession = Session(options: options, output: CapturedOutput())
    let dump = dumpSession.dump(.graph, name: name, bytes: bytes).text

    guard let timeline else {
        // The run failed: so does `anim check`, or it says the script never ends.
        if report.exitCode == .success && report.endless == nil {
            out.append("run: \(runOutput.error.split(separator: "\n").first ?? ""); check: duration \(report.duration.map(\.description) ?? "nil")")
        }
        if runOutput.error.contains("the script cannot finish: this graph never ends") != (report.endless != nil) {
            out.append("run: \(runOutput.error.split(separator: "\n").first ?? ""); check: endless \(report.endless != nil)")
        }
        return out
    }
    if let cut = report.cutAt {
        // `--until` stopped a run still going: both stop at T.
        if cut != timeline.end { out.append("the run was cut at \(timeline.end) but check says \(cut)") }
    } else {
        if report.endless != nil { out.append("the run ended at \(timeline.end) but check says it never ends") }
        // Under `--until T` a finished run's timeline goes on to T; check gives its own end.
        let end = flags.contains("--until") ? runSession.finishedAt : timeline.end
        if report.duration != end {
            out.append("the run ended at \(end.map(\.description) ?? "nil") but check says \(report.duration.map(\.description) ?? "nil")")
        }
    }
    if let last = report.criticalPath.last, last.end != report.duration {
        out.append("the critical path ends at \(last.end), the duration is \(report.duration.map(\.description) ?? "nil")")
    }

    let dumper = GraphDumper(environment: runSession.environment, sources: runSession.sources)
    let homes = DOTWriter.homes(timeline)
    var dumped = ""
    var k = 0
    for (i, run) in timeline.graphs.enumerated() where run.topLevel && !run.graph.nodes.isEmpty {
        k += 1
        let g = run.graph
        dumped += dumper.dump(g)
        let spans = DOTWriter.spans(timeline, homes: homes, instances: [i])
        // `anim graph`: every node ran, but the expected ones; the root ran until its graph ended.
        for (n, node) in g.nodes.enumerated() where spans[n] == nil && !expected.contains(dumper.label(node)) {
            out.append("graph \(k): '\(dumper.label(node))' did not run")
        }
        for (n, node) in g.nodes.enumerated() where spans[n] != nil && expected.contains(dumper.label(node)) {
            out.append("graph \(k): '\(dumper.label(node))' ran")
        }
        if let end = run.end, let root = spans[0], root.1 != end {
            out.append("graph \(k) ended at \(end) but its root node at \(root.1)")
        }
        // The static duration is the run's, when it is known.
        if case .exact(let d) = g.duration, let end = run.end, end - run.start != d {
            out.append("graph \(k) took \(end - run.start) but its static duration is \(d)")
        }
    }
    // `--dump graph` shows the graphs the run played.
    let dumpedGraphs = dump.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("graph ") }.joined(separator: "\n")
    if dumpedGraphs != dumped { out.append("--dump graph:\n\(dumpedGraphs)\nthe run's graphs:\n\(dumped)") }
    return out
}

@Suite("The run, anim check and anim graph agree")
struct AgreementTests {
    @Test("on named steps, after/with, plays and zero-length tweens", arguments: [
        // GSAP's .to(a,1).to(b,1,"-=0.5").to(c,1,"<")
        """
        rect a
        rect b
        rect c
        animate 1 < a.z = 1 > as s1
        after s1 - 0.5 < animate 1 < b.z = 1 > > as s2
        with s2 < animate 1 < c.z = 1 > > as s3
        with s3 + 0.25 < print "c" >
        """,
        // Names inside blocks of one chain.
        """
        rect card
        < animate 1 < card.center = (100, 0) > as inner >
        after inner < print "after inner" >
        at 2 < animate 1 < card.center = (0, 0) > as late >
        wait late
        < < animate 1 < card.alpha = 0 > as deep > > as outer
        with deep + 0.25 < print "deep" >
        after outer < print "outer" >
        """,
        // Zero-length tweens repeating forever.
        """
        rect a
        animate 0 delay 0.001 repeat forever < a.alpha = 0 >
        animate 0 repeat forever < a.z = 5 >
        wait
        animate 0 delay 0.5 repeat forever < a.z = 7 > then print "then"
        """,
        // Child instances: plays in a stagger, a named chain in a block, a yoyo repeat, a
        // reversed play, a define with nothing in it.
        """
        rect card[3]
        rect a
        define nothing() = < >
        define twice(s) = play pulse(s) then play pulse(s)
        stagger 0.1 for c in card < play pulse(c) >
        < animate 1 < a.z = 1 > as inner ; print "x" >
        repeat 2 yoyo < animate 0.5 < a.alpha = 0 > >
        play nothing() then play twice(a) reversed then print "back"
        stagger 0.1 from center for c in card < animate 0.2 < c.z = 1 > as named >
        < > then print "after nothing"
        """,
        // A stagger in a random order.
        "rect card[4]\nstagger 0.2 from random for c in card < animate 0.5 < c.z = 1 > >",
        // Endless: both say so.
        "wait 0.5 as x\nafter x < repeat forever < wait 1 > >",
        "rect a\nwait 0.5 as x\nwith x < animate 1 repeat forever < a.z = 1 > >",
        "rect a\nanimate 1 delay 0.5 repeat forever < a.z = 1 >",
    ])
    func agrees(_ script: String) throws {
        let d = try disagreements(script)
        #expect(d == [])
    }

    @Test func stepsThatDidNotRunAreTheOnlyOnesSaidNotToRun() throws {
        let script = """
        rect card[3]
        repeat 0 < print "never" >
        stagger 0.1 for c in [] < print "none" >
        wait 1 as w
        after w < print "after w" > then repeat 0 < print "no pass" >
        stagger 0.1 for c in [] < wait 1 >
        stagger 0.1 for c in [] < animate 1 repeat forever < c.z = 1 > >
        """
        let notRun: Set = ["print \"never\"", "print \"none\"", "print \"no pass\"", "wait 1 (1s)", "tween c.z = 1 (forever)"]
        #expect(try disagreements(script, didNotRun: notRun) == [])
    }

    /// Every golden script and example that runs to its end.
    static let files = TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples)

    @Test("on every golden script", arguments: files)
    func goldenScript(_ path: String) throws {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
        let expect = ScriptExpectations(text: text)
        // Steps controlled from outside (paused, sought, reversed) do not take their static
        // time; a run cut by --until ends before its graphs; observers start graphs of their
        // own, which `--dump graph` does not show; `anim check` does not look at `--trace`.
        let controlled = ["pause ", "seek ", "reverse ", "interrupt "].contains { text.contains($0) }
        let cut = expect.flags.contains("--until")
        let observed = text.contains("on change")
        var problems = try disagreements(text, name: (path as NSString).lastPathComponent, flags: expect.flags)
        problems.removeAll { p in
            p.contains("did not run")
                || (controlled || cut) && (p.contains("static duration") || p.contains("its root node"))
                || cut && (p.contains("critical path") || p.hasPrefix("--dump graph"))
                || observed && p.hasPrefix("--dump graph")
                || p.hasPrefix("run: --trace")
        }
        #expect(problems == [], "\(path)")
    }
}
