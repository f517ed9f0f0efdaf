// The analysis interface (AnimCore/Analysis, Session.analyze): names and their uses, step
// times from the timing run, wait landings, fixes, easing and spring descriptions, and the
// work budget that bounds the run.
@testable import AnimCore
import Testing

private func analyze(_ text: String, history: Bool = false, shouldStop: (() -> Bool)? = nil) -> ScriptAnalysis {
    Session.analyze(name: "t.anim", bytes: Array(text.utf8), history: history, shouldStop: shouldStop)
}

/// The span of the `n`th occurrence (from 0) of `word` in `text`.
private func span(_ a: ScriptAnalysis, _ word: String, _ n: Int = 0) -> Span {
    let b = a.tree.file.bytes, w = Array(word.utf8)
    var found = -1
    for k in 0...(b.count - w.count) where b[k..<(k + w.count)].elementsEqual(w) {
        found += 1
        if found == n { return Span(source: a.tree.file.id, start: k, end: k + w.count) }
    }
    preconditionFailure("no \(word) #\(n)")
}

@Suite struct AnalysisTests {
    @Test func namesResolveToTheirDeclarations() {
        let a = analyze("""
        rect box
        define pop(box) = animate 1 < box.alpha = 0 >
        animate 1 < box.alpha = 0 > as fade
        after fade < play pop(box) >
        stagger 0.1 for c in [box] < set c.alpha = 1 >
        """)
        let s = a.symbols
        let shape = s.declaration(at: span(a, "box").start)!
        let param = s.declaration(at: span(a, "box", 1).start)!
        #expect(s.declarations[shape].kind == .shape && s.declarations[param].kind == .parameter)
        // Inside the define, `box` is the parameter; outside, the shape.
        #expect(s.declaration(at: span(a, "box", 2).start) == param)
        #expect(s.uses(of: shape) == [span(a, "box", 3), span(a, "box", 4), span(a, "box", 5)])
        let fade = s.declaration(at: span(a, "fade").start)!
        #expect(s.declarations[fade].kind == .stepName && s.uses(of: fade) == [span(a, "fade", 1)])
        let c = s.declaration(at: span(a, "c.alpha").start)!
        #expect(s.declarations[c].kind == .loopVariable)
        // A property after a dot knows its base.
        #expect(s.reference(at: span(a, "alpha", 1).start)?.role == .property(base: shape))
    }

    @Test func namesAreIndexedWhenTheCheckFails() {
        let a = analyze("rect box\nanimate 1 < box.alpa = 0 >\n")
        #expect(a.environment == nil && a.timeline == nil)
        #expect(a.symbols.uses(of: 0) == [span(a, "box", 1)])
    }

    @Test func stepTimesComeFromTheRun() throws {
        let a = analyze("""
        rect box
        animate 1.25s < box.alpha = 0 > then repeat 2 < animate 0.5 < box.alpha = 1 > >
        wait 3
        define pop(s) = animate 0.25 < s.scale = 2 >
        play pop(box)
        """)
        let tree = a.tree
        let steps = a.symbols.steps.map { tree.span($0) }
        let first = try #require(a.stepTimes.time(of: steps[0]))
        #expect(first.start == .zero && first.end == Time(seconds: 1.25))
        let rep = try #require(a.stepTimes.time(of: steps[1]))
        #expect(rep.start == Time(seconds: 1.25) && rep.end == Time(seconds: 2.25) && rep.runs == 1)
        let inner = try #require(a.stepTimes.time(of: steps[2]))
        #expect(inner.runs == 2 && inner.firstEnd == Time(seconds: 1.75) && inner.end == Time(seconds: 2.25))
        // The define's body ran for the `play` at 3 s: both the play and the body know it.
        let play = try #require(a.stepTimes.time(of: steps.last!))
        #expect(play.start == Time(seconds: 3) && play.end == Time(seconds: 3.25))
        let wait = try #require(tree[tree.statements].first { if case .wait = tree[$0] { true } else { false } })
        guard case .wait(let w) = tree[wait] else { return }
        #expect(a.waitLandings[w.span] == Time(seconds: 3))
        // Values at a step's ends, from the timeline, when the history is kept.
        #expect(a.timeline?.value(ShapeID(0), BuiltinProperty.alpha.id, at: .zero) == nil)
        let tl = try #require(analyze(String(decoding: a.tree.file.bytes, as: UTF8.self), history: true).timeline)
        #expect(tl.value(ShapeID(0), BuiltinProperty.alpha.id, at: Time(seconds: 1.25)!) == .number(0))
    }

    @Test func theBudgetStopsTheRun() {
        var asked = 0
        let a = analyze("rect box\nrepeat 100000000 < animate 1ms < box.alpha = 1 > then animate 1ms < box.alpha = 0 > >\n") {
            asked += 1
            return asked > 3
        }
        #expect(a.diagnostics.stopped)
        #expect(a.timeline != nil)
        // The repeat was still running when the run stopped.
        #expect(a.stepTimes.time(of: a.tree.span(a.symbols.steps[0]))?.end == nil)
    }

    @Test func fixesFromDidYouMeanAndHelp() {
        let a = analyze("rect box\nanimate 1 < box.alpa = 0 >\n")
        let d = a.diagnostics.diagnostics[0]
        #expect(d.fixes(in: a.diagnostics.file) == [Fix(title: "Replace 'alpa' with 'alpha'", span: span(a, "alpa"), replacement: "alpha")])
        let b = analyze("rect box\nset box.alpha = 0 set box.alpha = 1\n")
        let fixes = b.diagnostics.diagnostics[0].fixes(in: b.diagnostics.file)
        #expect(fixes.map(\.replacement) == ["then "] && fixes[0].span == .point(b.diagnostics.file.id, Int(span(b, "set", 1).start)))
    }

    @Test func easingAndSpringDescriptions() throws {
        let a = analyze("rect box\nanimate 1 ease steps(4) < box.alpha = 0 >\nspring duration 0.5 bounce 0 < box.z = 1 >\n")
        let e = try #require(a.symbols.easings.first)
        #expect(a.tree.describeEasing(e).hasPrefix("`steps(4, jump-end)`: 4 jumps"))
        let s = try #require(a.symbols.springs.first)
        let text = a.tree.describeSpring(s)
        #expect(text.contains("damping ratio 1, critically damped"))
        // The settling time said is the one the run took (a move of 1 from rest).
        let run = try #require(a.stepTimes.time(of: a.tree.span(s)))
        let settle = SpringMotion(parameters: try #require(a.tree.springParameters(s)), from: 0, to: 1, velocity: 0).settlingDuration()!
        #expect(run.duration == settle)
    }

    /// `remains` hands over the session with the statements it ran, alive until `free` (the
    /// language server frees them after publishing), and the analysis is the one made without.
    @Test func remainsKeepTheSessionUntilFreed() throws {
        let text = "rect box\nanimate 1 < box.alpha = 0 > as fade\nwait fade\nprint \"done\""
        var remains: SessionRemains?
        let a = Session.analyze(name: "t.anim", bytes: Array(text.utf8), remains: { remains = $0 })
        let r = try #require(remains)
        weak let session = r.session
        #expect(session?.keptStatements.count == 4)
        r.free()
        #expect(session == nil)
        let b = Session.analyze(name: "t.anim", bytes: Array(text.utf8))
        #expect(a.diagnostics.diagnostics == b.diagnostics.diagnostics && a.diagnostics.report.duration == b.diagnostics.report.duration)
        #expect(a.timeline?.activities.isEmpty == false)
    }
}
