// Value edits (Session+Analysis's ValueEdits, Analysis/ValueFlow): the diagnostics an edit of a
// `let`'s number reuses are exactly those a full analysis of the new text finds. Every edit of
// every such number — each digit typed at each place, each character deleted, and chains of
// them — is tried on scripts whose value reaches each thing that reads values (a duration, an
// `at`, a count, a spring, a division, an overflow, a property read back …), where the value
// changes the diagnostics: an edit wrongly reused gives the old ones. Then the same over every
// golden script and example, and the bench's long script, where edits must be reused.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite struct ValueEditTests {
    /// A full analysis's diagnostics, as the fields the server publishes.
    static func published(_ d: ScriptDiagnostics) -> [String] {
        var out = d.diagnostics.map { x in
            "\(x.severity) \(x.span.source):\(x.span.start)..<\(x.span.end) \(x.message) | \(x.label ?? "") | "
                + x.secondary.map { "\($0.span.start)..<\($0.span.end) \($0.text)" }.joined(separator: ",")
                + " | \(x.notes.joined(separator: ";")) | \(x.help ?? "")"
        }
        out.append("notShown \(d.notShown) stopped \(d.stopped) exit \(d.report.exitCode) duration \(String(describing: d.report.duration))")
        out.append("endless \(String(describing: d.report.endless)) warnings \(d.report.warnings)")
        return out
    }

    /// Every single edit of the digits of each top-level `let`'s number: each digit typed at
    /// each place, each character deleted.
    static func edits(of text: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let file = SourceFile(id: 1, name: "t.anim", bytes: text)
        let tree = Parser.parseProgram(file).tree
        for s in tree[tree.statements] {
            guard case .let(let l) = tree[s], case .number(let n) = tree[l.value] else { continue }
            let start = Int(n.span.start), end = Int(n.span.end)
            for at in start...end {
                for digit in ["0", "5", "9", "."] {
                    var t = text
                    t.insert(contentsOf: Array(digit.utf8), at: at)
                    out.append(t)
                }
            }
            for at in start..<end {
                var t = text
                t.remove(at: at)
                out.append(t)
            }
        }
        return out
    }

    /// Tries every edit of `text` (and a chain of them); returns how many were reused.
    @discardableResult
    static func check(_ name: String, _ text: String, chain: Int = 6) -> Int {
        let bytes = Array(text.utf8)
        let full = Session.analyze(name: name, bytes: bytes)
        let base = ValueEdits(base: full)
        var reused = 0
        for edited in edits(of: bytes) {
            guard let (_, d) = base.edit(old: bytes, new: edited) else { continue }
            reused += 1
            let expected = published(Session.analyze(name: name, bytes: edited).diagnostics)
            #expect(published(d) == expected, "\(name): \(String(decoding: edited, as: UTF8.self))")
        }
        // A chain: each edit made on the text of the one before, reusing the same base.
        var edits = base, now = bytes
        var k = 0
        for _ in 0..<chain {
            let candidates = Self.edits(of: now)
            guard !candidates.isEmpty else { break }
            let next = candidates[(k * 7 + 3) % candidates.count]
            k += 1
            guard let (e, d) = edits.edit(old: now, new: next) else { continue }
            reused += 1
            #expect(published(d) == published(Session.analyze(name: name, bytes: next).diagnostics),
                    "\(name), chained: \(String(decoding: next, as: UTF8.self))")
            edits = e
            now = next
        }
        return reused
    }

    static let header = "rect a center (0, 0) size (10, 10)\nrect b center (0, 0) size (10, 10)\n"
    /// A step that takes `a.center` over at 1.5 s: the warning's time shows when the step
    /// before it ended.
    static let takeover = "at 1.5 < animate 1 < a.center = (0, 100) > >\n"
    /// A long step that takes `a.center` at 0.5 s, or is taken over later: the warning says
    /// when a step before it in a chain ended.
    static let longTakeover = "at 0.5 < animate 10 < a.center = (0, 100) > >\n"

    /// Scripts where the `let`'s value reaches something read for timing or errors: an edit
    /// changes their diagnostics, so none may be reused wrongly.
    static let reads: [(String, String)] = [
        ("duration", header + "let d = 10\nanimate d / 10 < a.center = (100, 0) >\n" + takeover),
        ("at", header + "let d = 10\nanimate 4 < a.center = (100, 0) >\nat d / 10 < animate 1 < a.center = (0, 1) > >\n"),
        ("define duration", header + "let d = 10\ndefine f(x) = animate x / 10 < a.center = (100, 0) >\nplay f(d)\n" + takeover),
        ("define parameter", header + "let d = 10\ndefine f(s, x) = animate x < s.center = (100, 0) >\nplay f(a, d / 10)\n" + takeover),
        ("repeat count", header + "let d = 2\nrepeat d < animate 0.5 < a.center = (100, 0) > >\n" + takeover),
        ("condition", header + "let d = 10\nif d > 5 < animate 2 < a.center = (1, 0) > >\n" + takeover),
        ("property read", header + "let d = 10\nanimate 0.1 < a.offset = (d, 0) > then animate a.offset.x / 5 < a.center = (1, 0) >\n"
            + longTakeover),
        ("spring start", header + "let d = 10\nset a.offset = (d, 0)\nspring < a.offset = (10, 0) > then animate 2 < a.center = (1, 0) >\n" + longTakeover),
        ("spring target", header + "let d = 10\nspring < a.offset = (d, 0) > then animate 2 < a.center = (1, 0) >\n" + longTakeover),
        ("division", header + "let d = 10\nanimate 1 < a.offset = (100 / (d - 10), 0) >\n"),
        ("call", header + "let d = 10\nanimate 1 < a.offset = (sqrt(d - 5), 0) >\n"),
        ("declaration", "let d = 10\nrect a center (d, 0) size (10, 10)\nanimate d / 10 < a.center = (100, 0) >\n" + takeover),
        ("keyframes", header + "let d = 10\nanimate 2 < a.rotation = [0, d at 0.5, 0] >\nanimate 0.1 < a.alpha = 0 >\n"),
        ("print", header + "let d = 10\nprint \"{d / (d - 10)}\"\n"),
        ("expect", header + "let d = 10\nanimate 1 < a.offset = (d, 0) >\nexpect a.offset.x == 10\n"),
        ("overflow", header + "let d = 10\n" + (1...52).map { "let e\($0) = \($0 == 1 ? "d" : "e\($0 - 1)") * 1000000\n" }.joined()
            + "animate 1 < a.offset = (e52, 0) >\n"),
        ("string", header + "let d = 10\nanimate 1 < a.offset = (d + \"x\", 0) >\n"),
        ("per-axis", header + "let d = 10\nanimate 1 < a.offset.x = d > then animate a.offset.x / 5 < a.center = (1, 0) >\n" + longTakeover),
        ("read in a print", header + "let d = 10\nanimate 0.1 < a.offset = (d, 0) > then print \"{100 / a.offset.x}\"\n"),
        ("relative", header + "let d = 10\nanimate 1 < a.offset = (d, 0) >\nrepeat 3 < animate d / 10 < a.offset += (1, 0) > >\n" + takeover),
        ("wait", header + "let d = 10\nwait d / 10\nanimate 1 < a.center = (5, 5) >\n" + takeover),
        ("not a let", header + "animate 0.5 < a.center = (100, 0) >\n" + takeover),
    ]

    @Test(arguments: reads.indices)
    func valuesThatAreReadAreNotReused(_ i: Int) {
        let (name, text) = Self.reads[i]
        Self.check(name, text)
    }

    /// Scripts whose `let`s are values only: edits of them are reused, and right.
    static let values: [(String, String)] = [
        ("offset", header + "let gap = 12\ndefine hop(s, h) = animate 0.2 < s.offset = (0, -h) > then animate 0.2 < s.offset = (0, 0) >\n"
            + "play hop(a, gap)\nlet v = gap * 3 + 4\nanimate 1 < b.center = (v, gap - 1) >\n" + takeover),
        ("rotation", header + "let turn = 45\nanimate 1 < a.rotation = turn * 2 ; b.scale = turn >\nset b.offset = (turn, turn)\n" + takeover),
        ("unit", header + "let t = 90deg\nanimate 1 < a.rotation = t >\n" + takeover),
    ]

    @Test(arguments: values.indices)
    func valuesOnlyAreReused(_ i: Int) {
        let (name, text) = Self.values[i]
        #expect(Self.check(name, text) > 0, "\(name): no edit was reused")
    }

    /// Every golden script and example (their `let`s mostly feed counts, conditions and
    /// prints, so few edits are reused: those that are must be right).
    @Test func repositoryScripts() {
        let root = TestPaths.packageRoot
        let paths = ["Tests/Scripts", "Examples"].flatMap { TestPaths.scripts(under: root.appendingPathComponent($0)) }
        #expect(paths.count > 100)
        for path in paths {
            guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8), text.contains("let ") else { continue }
            Self.check(path, text, chain: 3)
        }
    }

    /// Scripts/bench-lsp's long script (its generator, shorter): the edits of `let gap` are
    /// reused, the edits of the `let v…` lines too, and each is right.
    @Test func benchScript() {
        var out = ["# bench-lsp: a long script of the kinds of statement people write", "stage 800 x 600 color navy"]
        let lines = 300, shapes = max(10, lines / 10)
        for i in 0..<shapes {
            let kind = i % 2 == 0 ? "rect" : "circle"
            let hex = String((i * 2654435761) % 0xFFFFFF, radix: 16)
            out.append("\(kind) s\(i) center (\((i * 37) % 800), \((i * 53) % 600)) size (20, 20) color #\(String(repeating: "0", count: 6 - hex.count) + hex) alpha 0.5")
        }
        out.append("let gap = 12")
        out.append("define hop(s, h) = animate 0.2 ease ease-out < s.offset = (0, -h) > then animate 0.2 ease ease-in < s.offset = (0, 0) >")
        var i = 0
        while out.count < lines - 1 {
            let s = "s\((i / 10) % shapes)"
            switch i % 10 {
            case 0: out.append("animate 0.5 ease ease-in-out < \(s).center = (\((i * 11) % 800), \((i * 13) % 600)) > then animate 0.25 < \(s).alpha = 1 > as step\(i)")
            case 1: out.append("spring response 0.4 damping-ratio 0.7 < \(s).size = (\(20 + i % 30), \(20 + i % 17)) >")
            case 2: out.append("after step\(i - 2) + 0.1 < animate 0.3 < \(s).scale = 1.5 > >")
            case 3: out.append("with step\(i - 3) < play hop(\(s), gap) >")
            case 4: out.append("animate 1 ease steps(4) < \(s).z = \(i % 50) ; \(s).radius = 4 >")
            case 5: out.append("at \(String(format: "%.2f", Double(i) * 0.01)) < print \"\(s) at {\(s).center.x}, {\(s).center.y}\" >")
            case 6: out.append("animate 0.8 < \(s).rotation = [0deg, 90deg at 0.3, 45deg ease ease-out] >")
            case 7: out.append("let v\(i) = gap * \(i % 9 + 1) + \(i % 5)")
            case 8: out.append("repeat 2 < animate 0.1 < \(s).color = red > then animate 0.1 < \(s).color = blue > >")
            default: out.append("wait 0.05  # a comment with text in it, as people write")
            }
            i += 1
        }
        out.append("print \"done\"")
        let text = out.joined(separator: "\n") + "\n"
        #expect(Self.check("bench.anim", text) > 10)
    }
}
