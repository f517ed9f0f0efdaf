// Property tests of the runtime's invariants on generated scripts (issue 3): a tween lands
// exactly on its target; event times do not depend on --fps; seeking to t equals playing to t;
// reversing a played sequence returns every property to its start value.
@testable import AnimCore
import AnimTestSupport
import Testing

/// Generates random chains of steps from a seed (SplitMix64, so the cases are reproducible).
struct ScriptGenerator {
    var rng: RandomGenerator

    init(seed: UInt64) { rng = RandomGenerator(seed: seed) }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[int(xs.count)] }
    mutating func coord() -> Int { int(400) - 50 }
    mutating func duration() -> String { pick(["0.1", "0.25", "0.3", "0.5", "1", "1.5", "0.05", "2"]) }
    mutating func easing() -> String {
        pick(["linear", "ease", "ease-in-out", "cubic-bezier(0.2, 0.8, 0.3, 1.4)", "back-out", "elastic-out", "bounce-out",
              "steps(4)", "quad-in", "expo-in-out", "sine-out"])
    }

    /// One step writing the shapes `a` and `b`.
    mutating func step(depth: Int = 0) -> String {
        let s = pick(["a", "b"])
        switch int(depth > 1 ? 5 : 7) {
        case 0: return "animate \(duration()) ease \(easing()) < \(s).center = (\(coord()), \(coord())) >"
        case 1: return "animate \(duration()) < \(s).center += (\(int(60) - 30), \(int(60) - 30)); \(s).alpha = 0.\(int(10)) >"
        case 2: return "animate \(duration()) ease \(easing()) < \(s).rotation = \(int(720) - 360)deg >"
        case 3: return "wait \(duration())"
        case 4: return "animate \(duration()) < \(s).alpha = [0.\(int(10)), 1, 0.\(int(10)) at 0.8] >"
        case 5: return "< \(step(depth: depth + 1)); \(step(depth: depth + 1)) >"
        default: return "repeat \(1 + int(3)) < \(step(depth: depth + 1)) >"
        }
    }

    mutating func chain() -> String {
        (0..<(2 + int(4))).map { _ in step() }.joined(separator: " then ")
    }
}

@Suite("Runtime invariants")
struct InvariantTests {
    static let header = "rect a center (10, 20) color red\nrect b center (200, 100) alpha 0.5 color blue\n"

    /// Runs a script and returns the session (for reading state) and its output.
    func run(_ text: String, flags: [String] = []) -> (Session, CapturedOutput) {
        var options = (try? SessionOptions.parse(runFlags: flags).get()) ?? SessionOptions()
        options.baseNamesOnly = true
        let out = CapturedOutput()
        let s = Session(options: options, output: out)
        s.run(name: "gen.anim", bytes: Array(text.utf8))
        return (s, out)
    }

    func state(_ s: Session) -> [String] {
        let i = s.interpreter!
        var out: [String] = []
        for (k, shape) in i.scene.shapes.enumerated() {
            for p in ["center", "alpha", "rotation"] {
                let v = i.currentValue(ShapeID(k), s.environment.propertyID(named: p)!)!
                out.append("\(shape.name).\(p)=\(v)")
            }
        }
        return out
    }

    @Test("a tween lands exactly on its target", arguments: 0..<40)
    func landsExactly(seed: Int) {
        var g = ScriptGenerator(seed: UInt64(seed))
        let target = "(\(g.coord()).\(g.int(1000)), \(g.coord()).\(g.int(1000)))"
        let text = Self.header + g.chain() + " then animate \(g.duration()) ease \(g.easing()) < a.center = \(target) >\nwait\n"
        let (s, out) = run(text)
        #expect(out.error.isEmpty, Comment(rawValue: text + out.error))
        let center = s.interpreter.currentValue(ShapeID(0), BuiltinProperty.center.id)
        // Compare the exact Doubles, not printed text.
        let want = Value.point(Point(Double(target.dropFirst().split(separator: ",")[0])!,
                                     Double(target.dropLast().split(separator: ",")[1].dropFirst())!))
        #expect(center == want, Comment(rawValue: text))
    }

    @Test("event times do not depend on --fps", arguments: 0..<20)
    func fpsIndependent(seed: Int) {
        var g = ScriptGenerator(seed: UInt64(1000 + seed))
        let text = Self.header + g.chain() + " then < print \"end {a.center} {b.alpha}\" >\n"
            + g.chain() + " then < print \"other {b.center}\" >\n"
            + "on change a.center < set b.rotation += 1deg >\n"
        let prints = [24, 60, 1000].map { fps in
            run(text, flags: ["--fps", String(fps)]).1.standard.split(separator: "\n").map { line in
                // The observer's effect depends on the frame rate by design; event times must not.
                String(line.prefix { $0 != "]" })
            }
        }
        #expect(prints[0] == prints[1] && prints[1] == prints[2], Comment(rawValue: text))
    }

    @Test("seeking to t equals playing to t", arguments: 0..<30)
    func seekEqualsPlay(seed: Int) {
        var g = ScriptGenerator(seed: UInt64(2000 + seed))
        let chain = g.chain()
        let t = "\(g.int(3)).\(g.int(1000))"
        // A run plays every graph to its end, so stop each run where the state is compared.
        let played = run(Self.header + chain + " as s\n", flags: ["--until", t])
        let sought = run(Self.header + chain + " as s\nseek s \(t)\n", flags: ["--until", "0"])
        #expect(played.1.error.isEmpty && sought.1.error.isEmpty, Comment(rawValue: played.1.error + sought.1.error))
        let a = state(played.0), b = state(sought.0)
        #expect(a == b, Comment(rawValue: "seek to \(t) in:\n\(chain)\nplayed: \(a)\nsought: \(b)"))
    }

    @Test("seeking back to t equals playing to t", arguments: 0..<30)
    func seekBackEqualsPlay(seed: Int) {
        var g = ScriptGenerator(seed: UInt64(4000 + seed))
        let chain = g.chain()
        let t = "\(g.int(2)).\(g.int(1000))"
        let later = "3.5"
        let played = run(Self.header + chain + " as s\n", flags: ["--until", t])
        let sought = run(Self.header + chain + " as s\nwait \(later)\nseek s \(t)\n", flags: ["--until", later])
        #expect(played.1.error.isEmpty && sought.1.error.isEmpty, Comment(rawValue: played.1.error + sought.1.error))
        let a = state(played.0), b = state(sought.0)
        #expect(a == b, Comment(rawValue: "seek back to \(t) in:\n\(chain)\nplayed: \(a)\nsought: \(b)"))
    }

    @Test("reversing a played sequence returns every property to its start", arguments: 0..<30)
    func reverseReturns(seed: Int) {
        var g = ScriptGenerator(seed: UInt64(3000 + seed))
        let chain = g.chain()
        let start = run(Self.header)
        let reversed = run(Self.header + chain + " as s\nwait s\nreverse s\nwait s\n")
        #expect(reversed.1.error.isEmpty, Comment(rawValue: reversed.1.error))
        #expect(state(start.0) == state(reversed.0), Comment(rawValue: chain))
    }
}
