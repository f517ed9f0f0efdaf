// `anim graph`: each node says when it ran, or that it did not. The steps of a graph's child
// instances (plays, named chains inside it, yoyo passes) count as the graph's: a stagger of
// plays ran.
@testable import AnimCore
import Testing

@Suite("DOT graph")
struct DOTWriterTests {
    /// The `anim graph` output of a script's run.
    func dot(_ script: String) throws -> String {
        let session = Session(options: SessionOptions(), output: CapturedOutput())
        let t = try #require(session.timeline(name: "t.anim", bytes: Array(script.utf8)))
        return session.dot(t)
    }

    /// The node labels, in order, with their line breaks.
    func labels(_ dot: String) -> [String] {
        dot.split(separator: "\n").compactMap { line in
            guard line.contains("_n"), let r = line.range(of: "[label=\"") else { return nil }
            let rest = line[r.upperBound...]
            guard let end = rest.range(of: "\", ") ?? rest.range(of: "\"]") else { return nil }
            return rest[..<end.lowerBound].replacingOccurrences(of: "\\n", with: " | ").replacingOccurrences(of: "\\\"", with: "\"")
        }
    }

    @Test func stepsOfChildInstancesRan() throws {
        let d = try dot("""
        rect card[3]
        rect a
        define nothing() = < >
        stagger 0.1 for c in card < play pulse(c) >
        < animate 1 delay 0.5 < a.z = 1 > as inner ; print "x" >
        repeat 2 yoyo < animate 0.5 < a.alpha = 0 > >
        play nothing()
        """)
        #expect(labels(d) == [
            "stagger 0.1 from start over card (0.5s) | 0–0.5s",
            "play pulse(c) (0.3s) | 0–0.5s",
            "parallel of 2 (1.5s) | 0–1.5s",
            "instance (1.5s) as inner | 0–1.5s",
            "tween a.z = 1 (1.5s) | 0.5–1.5s",
            "print \"x\" | at 0s",
            "repeat 2 yoyo (1s) | 0–1s",
            "tween a.alpha = 0 (0.5s) | 0–1s",  // live 0–0.5 s, replayed backward 0.5–1 s
            "play nothing() (0s) | at 0s",
        ])
    }

    @Test func onlyStepsThatDidNotRunSaySo() throws {
        let d = try dot("""
        repeat 0 < print "never" >
        stagger 0.1 for c in [] < print "none" >
        < > then print "after nothing"
        """)
        #expect(labels(d) == [
            "repeat 0 (0s) | at 0s",
            "print \"never\" | did not run",
            "stagger 0.1 from start over [] (0s) | at 0s",
            "print \"none\" | did not run",
            "sequence of 2 (0s) | at 0s",
            "parallel of 0 (0s) | at 0s",
            "print \"after nothing\" | at 0s",
        ])
    }
}
