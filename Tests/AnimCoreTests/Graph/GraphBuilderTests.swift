// GraphBuilder: checked chains → sequencer graphs, tested through the graph dump
// (`anim check --dump graph`) and the static durations: `then` builds a sequence whose
// duration is the exact sum, a block a parallel whose duration is the longest child, and
// needless wrappers disappear. Nodes are in pre-order, which is the graph order of events.
@testable import AnimCore
import Testing

/// The graph dumps of a snippet's animating statements, joined.
private func graphDump(_ text: String) -> String {
    let c = check(text)
    var map = SourceMap()
    _ = map.add(name: c.file.name, bytes: c.file.bytes)
    let dumper = GraphDumper(environment: c.environment, sources: map)
    return graphs(text).map { dumper.dump($0) }.joined(separator: "--\n")
}

/// The static duration of the first graph of a snippet.
private func duration(_ text: String) -> StaticDuration { graphs(text)[0].duration }

private func seconds(_ s: String) -> StaticDuration { .exact(SessionOptions.parseTime(s)!) }

@Suite("GraphBuilder")
struct GraphBuilderTests {
    @Test func demoGraph() {
        #expect(graphDump("""
        rect square
        animate 1.0 < square.center = (310,120) >
        then animate 0.3 < square.rotation = 90deg >
        then < print "First corner" >
        then animate 0.3 delay 0.5 < square.color = blue >
        """) == """
        sequence of 4 (2.1s)
        ├─ tween square.center = (310,120) (1s)
        ├─ tween square.rotation = 90deg (0.3s)
        ├─ print "First corner"
        └─ tween square.color = blue (0.8s)

        """)
    }

    @Test func needlessWrappersDisappear() {
        // A one-step chain is its step; a one-chain block is its chain.
        #expect(graphDump("print 1") == "print 1\n")
        #expect(graphDump("< < print 1 > >") == "print 1\n")
        #expect(graphDump("< wait 1 then print 1 >") == "sequence of 2 (1s)\n├─ wait 1 (1s)\n└─ print 1\n")
    }

    @Test func aNameInsideAOneChainBlockNamesTheGraph() {
        // The block is dropped, so the name stays on the root: the graph's instance is named.
        #expect(graphDump("< wait 1 as inner >") == "wait 1 (1s) as inner\n")
        #expect(graphDump("< < wait 1 then print 1 as inner > >") == "sequence of 2 (1s) as inner\n├─ wait 1 (1s)\n└─ print 1\n")
        // With a name of its own as well, the inner chain keeps its child instance below the root.
        #expect(graphDump("< wait 1 as inner > as outer") == """
        sequence of 1 (1s) as outer
        └─ instance (1s) as inner
           └─ wait 1 (1s)

        """)
        // Inside a block of two chains, a named chain is a child instance.
        #expect(graphDump("< wait 1 as inner ; print 1 >") == """
        parallel of 2 (1s)
        ├─ instance (1s) as inner
        │  └─ wait 1 (1s)
        └─ print 1

        """)
    }

    @Test func relativeOffsetsKeepTheirSign() {
        #expect(graphDump("wait 1 as a\nafter a - 0.5 < print 1 >\nwith a + (2 * 0.25) < print 2 >\nwith a < print 3 >") == """
        wait 1 (1s) as a
        --
        after a - 0.5 (dynamic)
        └─ print 1
        --
        with a + (2 * 0.25) (dynamic)
        └─ print 2
        --
        with a (dynamic)
        └─ print 3

        """)
    }

    @Test func parallelTakesTheLongestChild() {
        #expect(graphDump("rect a\n< animate 1 < a.z = 1 > ; wait 2.5 ; print 1 > then wait 0.5") == """
        sequence of 2 (3s)
        ├─ parallel of 3 (2.5s)
        │  ├─ tween a.z = 1 (1s)
        │  ├─ wait 2.5 (2.5s)
        │  └─ print 1
        └─ wait 0.5 (0.5s)

        """)
    }

    @Test func repeatDurations() {
        #expect(graphDump("repeat 3 < wait 0.1 then print 1 > as r") == """
        repeat 3 (0.3s) as r
        └─ sequence of 2 (0.1s)
           ├─ wait 0.1 (0.1s)
           └─ print 1

        """)
        #expect(duration("repeat forever < wait 1 >") == .forever)
        #expect(duration("let n = 2\nrepeat n < wait 1 >") == .dynamic)
        #expect(duration("repeat 0 < wait 1 >") == seconds("0"))
        #expect(duration("repeat 2 < repeat forever < wait 1 > >") == .forever)
    }

    @Test("a tween's static duration is delay + duration × iterations ÷ speed", arguments: [
        ("animate 1 < a.z = 1 >", "1"),
        ("animate 300ms < a.z = 1 >", "0.3"),
        ("animate 1 delay 0.5 < a.z = 1 >", "1.5"),
        ("animate 1 repeat 3 < a.z = 1 >", "3"),
        ("animate 1 repeat 1.5 < a.z = 1 >", "1.5"),
        ("animate 1 repeat 0 delay 0.25 < a.z = 1 >", "0.25"),
        ("animate 1 speed 2 < a.z = 1 >", "0.5"),
        ("animate 1 delay 0.5 repeat 3 speed 2 < a.z = 1 >", "2"),
        ("animate 1 speed 3 < a.z = 1 >", "0.333333333"),  // rounded once to the nanosecond grid
        ("animate 0 < a.z = 1 >", "0"),
    ])
    func tweenDurations(step: String, expected: String) {
        #expect(duration("rect a\n" + step) == seconds(expected), "\(step)")
    }

    @Test func dynamicAndEndlessTweens() {
        #expect(duration("rect a\nlet d = 1\nanimate d < a.z = 1 >") == .dynamic)
        #expect(duration("rect a\nlet d = 1\nanimate 1 delay d < a.z = 1 >") == .dynamic)
        #expect(duration("rect a\nanimate 1 repeat forever < a.z = 1 >") == .forever)
        #expect(duration("rect a\nanimate 1 repeat forever < a.z = 1 > then print 1") == .forever)
        #expect(duration("rect a\n< animate 1 repeat forever < a.z = 1 > ; wait 1 >") == .forever)
    }

    @Test func relativeStepsAreEndlessWhenTheirBlockIs() {
        #expect(graphs("wait 1 as a\nafter a < wait 1 >")[1].duration == .dynamic)
        #expect(graphs("wait 1 as a\nafter a < repeat forever < wait 1 > >")[1].duration == .forever)
        #expect(graphs("rect r\nwait 1 as a\nprint 1 then with a + 1 < animate 1 repeat forever < r.z = 1 > >")[1].duration == .forever)
    }

    @Test func aZeroDurationTweenEndsEvenRepeatingForever() {
        // Its active duration is 0 whatever the iterations (Grammar.md §6.1): only its delay is left.
        #expect(duration("rect a\nanimate 0 repeat forever < a.z = 1 >") == seconds("0"))
        #expect(duration("rect a\nanimate 0 delay 0.001 repeat forever < a.z = 1 >") == seconds("0.001"))
        #expect(duration("rect a\nanimate 0 delay 0.5 repeat forever yoyo speed 2 < a.z = 1 > then wait 1") == seconds("1.5"))
        #expect(graphs("rect a\nanimate 0 repeat forever < a.z = 1 >")[0].firstForeverNode == nil)
        #expect(duration("rect a\nlet d = 0.5\nanimate 0 delay d repeat forever < a.z = 1 >") == .dynamic)
    }

    @Test func ifDurations() {
        // Constant conditions decide; otherwise every branch it may take (none: 0) must agree.
        #expect(duration("if true < wait 2 > else < wait 1 >") == seconds("2"))
        #expect(duration("if false < wait 2 > else < wait 1 >") == seconds("1"))
        #expect(duration("if false < wait 2 >") == seconds("0"))
        #expect(duration("rect a\nif a.z == 0 < wait 1 > else < wait 1 > then wait 1") == seconds("2"))
        #expect(duration("rect a\nif a.z == 0 < wait 1 > else < wait 2 >") == .dynamic)
        #expect(duration("rect a\nif a.z == 0 < wait 1 >") == .dynamic)
        #expect(duration("rect a\nif a.z == 0 < wait 0 >") == seconds("0"))
        #expect(duration("rect a\nif a.z == 0 < repeat forever < wait 1 > > else < repeat forever < wait 2 > >") == .forever)
    }

    @Test func anyAndChooseDurations() {
        // any: the shortest chain (one that never ends does not count); choose: known only
        // when every chain agrees, since the draw is made as it runs.
        #expect(duration("any < wait 2 ; wait 0.5 then wait 0.25 > then wait 1") == seconds("1.75"))
        #expect(duration("any < wait 2 ; repeat forever < wait 1 > >") == seconds("2"))
        #expect(duration("any < repeat forever < wait 1 > >") == .forever)
        #expect(duration("rect a\nlet d = 1\nany < wait 2 ; wait d >") == .dynamic)
        #expect(duration("any < > then wait 1") == seconds("1"))
        #expect(duration("choose < wait 1 ; wait 1 > then wait 1") == seconds("2"))
        #expect(duration("choose < wait 1 ; wait 2 >") == .dynamic)
        #expect(duration("choose < repeat forever < wait 1 > > then wait 1") == .forever)
        let g = graphs("any < wait 1 ; repeat forever < wait 0.5 > > then wait 1")[0]
        #expect(g.foreverChainOfAny(under: NodeID(0)) != nil)
        #expect(graphs("let t = true\nif t < any < wait 1 ; repeat forever < wait 0.5 > > >")[0].foreverChainOfAny(under: NodeID(0)) == nil)
    }

    @Test func repeatWhileAndForDurations() {
        // `repeat while`: none when the condition is constant false; otherwise the run decides
        // (it is not `forever`, though it has no count); `for k` leaves a count's duration as it is.
        #expect(duration("rect a\nrepeat while a.z <= 1 < animate 1 < a.z += 1 > >") == .dynamic)
        #expect(duration("repeat while false < wait 1 > then wait 1") == seconds("1"))
        #expect(duration("repeat 3 for k < wait 1 >") == seconds("3"))
        #expect(graphs("rect a\nrepeat while a.z <= 1 < wait 1 >")[0].firstForeverNode == nil)
        #expect(graphDump("rect a\nrepeat while a.z <= 1 for k < wait 1 >").hasPrefix("repeat while a.z <= 1 (dynamic)"))
    }

    @Test func decimalDurationsAddExactly() {
        #expect(duration("wait 0.1 then wait 0.2") == .exact(Time(ticks: 300_000_000)))
        let tenths = Array(repeating: "wait 0.1", count: 10).joined(separator: " then ")
        #expect(duration(tenths) == .exact(Time(seconds: 1)))
        #expect(duration("wait 0.7 then wait 0.1 then wait 0.2") == .exact(Time(seconds: 1)))
    }

    @Test func nodesAreInPreOrder() {
        let g = graphs("< wait 1 then print 1 ; print 2 > then print 3")[0]
        // root sequence, parallel, its first chain (sequence: wait, print 1), print 2, print 3
        let labels: [String] = g.nodes.map { n in
            switch n.kind {
            case .sequence: "seq"
            case .parallel: "par"
            case .wait: "wait"
            case .action(.print(let e)): "print \(e.constantValue!)"
            default: "?"
            }
        }
        #expect(labels == ["seq", "par", "seq", "wait", "print 1", "print 2", "print 3"])
        // Every parent precedes its children.
        for (i, n) in g.nodes.enumerated() {
            switch n.kind {
            case .sequence(let c), .parallel(let c): #expect(g[c].allSatisfy { Int($0.index) > i })
            case .repeat(_, _, let b): #expect(Int(b.index) > i)
            default: break
            }
        }
    }

    @Test func firstForeverNode() {
        let g = graphs("rect a\nprint 1 then repeat forever < wait 1 >")[0]
        guard case .repeat(nil, _, _)? = g.firstForeverNode?.kind else { Issue.record("no forever node"); return }
        #expect(graphs("print 1")[0].firstForeverNode == nil)
    }
}
