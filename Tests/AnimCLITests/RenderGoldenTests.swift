// Golden files for the deterministic text outputs of the picture commands: the DOT of
// `anim graph`, the plain chart of `anim timeline`, and the structure of the animated SVG.
// The goldens live in Tests/Pictures/Snapshots; run with RECORD_SNAPSHOTS=1 to re-record them
// (then read the diff before committing). `dot` must accept the DOT when Graphviz is present.
import AnimCore
import AnimTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@Suite("Picture command goldens")
struct RenderGoldenTests {
    /// Compares text with a golden file, or records it when RECORD_SNAPSHOTS is set.
    func assertSnapshot(_ text: String, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let url = PictureFixtures.snapshots.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: PictureFixtures.snapshots, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        if golden != text {
            let a = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let b = text.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let want = line < a.count ? String(a[line]) : "<end>", got = line < b.count ? String(b[line]) : "<end>"
            Issue.record("\(name) differs at line \(line + 1):\n  golden: \(want)\n  actual: \(got)\n(RECORD_SNAPSHOTS=1 re-records)",
                         sourceLocation: sourceLocation)
        }
    }

    static var graphScript: String { PictureFixtures.directory.appendingPathComponent("graph.anim").path }
    static var smallScript: String { PictureFixtures.directory.appendingPathComponent("small.anim").path }

    @Test("anim graph prints the golden DOT")
    func dot() throws {
        let r = try runAnim(["graph", Self.graphScript])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        try assertSnapshot(r.stdout, "graph.dot")
        // Sequence and block edges are drawn differently.
        #expect(r.stdout.contains("label=\"then\""))
        #expect(r.stdout.contains("style=dashed"))
    }

    @Test("anim timeline prints the golden chart when piped")
    func timeline() throws {
        let r = try runAnim(["timeline", Self.graphScript, "--width", "100"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        try assertSnapshot(r.stdout, "timeline.txt")
        #expect(!r.stdout.contains("\u{1B}["), "no colour when piped")
        let c = try runAnim(["timeline", Self.graphScript, "--width", "100", "--color"])
        #expect(c.stdout.contains("\u{1B}[36m█"), "colour when asked for")
    }

    @Test("the demo's timeline chart")
    func demoTimeline() throws {
        let r = try runAnim(["timeline", "Examples/demo.anim", "--width", "90"])
        try assertSnapshot(r.stdout, "demo-timeline.txt")
    }

    @Test("anim render -o x.svg writes the golden animated SVG")
    func svg() throws {
        let dir = try ScratchDirectory("svg")
        defer { dir.remove() }
        let out = dir.path("small.svg")
        let r = try runAnim(["render", Self.smallScript, "-o", out, "--fps", "10"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        try assertSnapshot(svg, "small.svg")
        #expect(svg.contains("repeatCount=\"indefinite\""))
        // It loops after holding the last frame for a second, and says so: 0.7 s + 1 s.
        #expect(svg.contains("<title>anim: 0.7s, then its last frame for 1s, looping</title>"))
        #expect(svg.contains("dur=\"1.7s\""))
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    }

    @Test("the timeline strip SVG of the demo")
    func stripSVG() throws {
        let dir = try ScratchDirectory("strip")
        defer { dir.remove() }
        let out = dir.path("timeline.svg")
        let r = try runAnim(["timeline", "Examples/demo.anim", "-o", out])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        try assertSnapshot(svg, "demo-timeline.svg")
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "well-formed XML")
    }

    @Test("dot accepts the DOT", .enabled(if: Consumers.dot != nil, Consumers.skipNote("Graphviz 'dot'")),
          arguments: ["Tests/Pictures/graph.anim", "Examples/demo.anim", "Tests/Pictures/scene.anim"])
    func dotAccepts(_ script: String) throws {
        let dir = try ScratchDirectory("dot")
        defer { dir.remove() }
        let dotFile = dir.path("g.dot")
        let r = try runAnim(["graph", script, "-o", dotFile])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let d = try Consumers.run(Consumers.dot!, ["-Tsvg", "-o", dir.path("g.svg"), dotFile])
        #expect(d.exitCode == 0, "dot rejected the graph of \(script): \(d.stderr)")
        #expect(d.stderr.isEmpty, "dot warned about \(script): \(d.stderr)")
    }

    @Test("an observer's spring chase is one lane, one strip row and one DOT cluster")
    func chase() throws {
        let script = "Examples/gpuanimation-spring-chase.anim"
        // It restarts the follower's spring about 120 times: those continue one bar.
        let chart = try runAnim(["timeline", script, "--width", "100"])
        #expect(chart.stdout.hasPrefix("timeline: 2.893s, 3 lanes, 8 steps\n"), Comment(rawValue: chart.stdout))
        #expect(chart.stdout.contains("── lane 2: follower "))
        let dot = try runAnim(["graph", script])
        #expect(dot.stdout.components(separatedBy: "subgraph cluster_").count - 1 == 5)
        #expect(dot.stdout.contains("label=\"graph 3 (line 8): 0.017s–2.893s, 120 runs\";"))
        let dir = try ScratchDirectory("chase")
        defer { dir.remove() }
        #expect(try runAnim(["render", script, "-o", dir.path("chase.html")]).exitCode == 0)
        let page = try String(contentsOfFile: dir.path("chase.html"), encoding: .utf8)
        // The player draws its lanes from its data: the same three, the follower's spring one bar.
        let open = try #require(page.range(of: "<script type=\"application/json\" id=\"anim-data\">"))
        let close = try #require(page.range(of: "</script>", range: open.upperBound..<page.endIndex))
        let data = try #require(try JSONSerialization.jsonObject(with: Data(page[open.upperBound..<close.lowerBound].utf8)) as? [String: Any])
        let lanes = try #require(data["lanes"] as? [[String: Any]])
        let bars = try #require(data["bars"] as? [[Any]])
        #expect(lanes.count == 3)
        let follower = try #require(lanes.firstIndex { ($0["label"] as? String) == "follower" })
        #expect(bars.filter { $0[0] as? Int == follower && $0[1] as? String == "spring" }.count == 1)
    }
}
