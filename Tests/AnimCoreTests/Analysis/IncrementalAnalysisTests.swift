// The differential test of the edits the language server does not analyse (Session+Analysis's
// ValueEdits: value edits and trivia edits): for every golden script and example, many random
// single-character edits — a digit, a letter, a space or a line break typed anywhere, a
// character deleted, characters typed into comments — and chains of them on one base, each
// edit that is reused is compared with a fresh `Session.analyze` of the new text: the same
// diagnostics (messages, spans, order, counts, report), and the same timing run as the server
// reads it through the edits (every step's times and every `wait`'s landing, at the moved spans).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite struct IncrementalAnalysisTests {
    /// A small deterministic generator (SplitMix64), so a failure names an edit that recurs.
    struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(max(1, n)))
        }
    }

    /// One random single-character edit of `text`: insert a digit, a letter, a space or a line
    /// break somewhere, delete a character, or type into a comment.
    static func randomEdit(of text: [UInt8], _ g: inout Generator) -> [UInt8] {
        var t = text
        let kinds: [UInt8] = [0x35, 0x61, 0x78, 0x20, 0x20, 0x0A, 0x0A]
        // The comments (the text after a `#` and a space).
        let comments = t.indices.filter { t[$0] == 0x23 && $0 + 1 < t.count && t[$0 + 1] == 0x20 }
        switch g.next(4) {
        case 0 where !t.isEmpty:
            t.remove(at: g.next(t.count))
        case 1 where !comments.isEmpty:
            var at = comments[g.next(comments.count)] + 1
            while at < t.count && t[at] != 0x0A && g.next(3) != 0 { at += 1 }
            if g.next(3) == 0 && at < t.count && t[at] != 0x0A { t.remove(at: at) } else { t.insert([0x61, 0x20, 0x39][g.next(3)], at: at) }
        default:
            t.insert(kinds[g.next(kinds.count)], at: g.next(t.count + 1))
        }
        return t
    }

    /// The timing run as the server reads it for a reused version: each base step's times and
    /// each base `wait`'s landing, at its span in today's text.
    static func timing(_ base: ScriptAnalysis, through edits: ValueEdits) -> [String] {
        var out: [String] = []
        for s in base.symbols.steps {
            let span = base.tree.span(s)
            out.append("step \(edits.current(span)) \(String(describing: base.stepTimes.time(of: span)))")
        }
        for (span, now) in base.waitLandings { out.append("wait \(edits.current(span)) \(now)") }
        return out.sorted()
    }

    /// The same of a full analysis of today's text.
    static func timing(_ full: ScriptAnalysis) -> [String] {
        var out: [String] = []
        for s in full.symbols.steps {
            let span = full.tree.span(s)
            out.append("step \(span) \(String(describing: full.stepTimes.time(of: span)))")
        }
        for (span, now) in full.waitLandings { out.append("wait \(span) \(now)") }
        return out.sorted()
    }

    /// Tries `count` random edits of `text` on one base, and a chain of `chain` edits; returns
    /// how many were reused (each compared with a full analysis).
    @discardableResult
    static func check(_ name: String, _ text: String, count: Int, chain: Int, seed: UInt64) -> Int {
        let bytes = Array(text.utf8)
        let full = Session.analyze(name: name, bytes: bytes)
        let base = ValueEdits(base: full)
        var g = Generator(state: seed)
        var reused = 0
        func compare(_ edits: ValueEdits, _ d: ScriptDiagnostics, _ edited: [UInt8], _ what: String) {
            reused += 1
            let fresh = Session.analyze(name: name, bytes: edited)
            #expect(ValueEditTests.published(d) == ValueEditTests.published(fresh.diagnostics),
                    "\(name), \(what): \(String(decoding: edited, as: UTF8.self))")
            #expect(timing(full, through: edits) == timing(fresh), "\(name), \(what), timing: \(String(decoding: edited, as: UTF8.self))")
        }
        for _ in 0..<count {
            let edited = randomEdit(of: bytes, &g)
            guard let (e, d) = base.reuse(old: bytes, new: edited) else { continue }
            compare(e, d, edited, "one edit")
        }
        var edits = base, now = bytes
        for _ in 0..<chain {
            let next = randomEdit(of: now, &g)
            guard let (e, d) = edits.reuse(old: now, new: next) else { continue }
            compare(e, d, next, "chained")
            edits = e
            now = next
        }
        return reused
    }

    /// Every golden script and example.
    @Test func repositoryScripts() {
        let root = TestPaths.packageRoot
        let paths = ["Tests/Scripts", "Examples"].flatMap { TestPaths.scripts(under: root.appendingPathComponent($0)) }
        #expect(paths.count > 100)
        var reused = 0
        for (i, path) in paths.enumerated() {
            guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
            reused += Self.check(path, text, count: 20, chain: 10, seed: UInt64(i) &* 7919 &+ 1)
        }
        // Most spaces, line breaks and comment text are trivia: a great many edits are reused.
        #expect(reused > paths.count * 4, "only \(reused) edits reused")
    }

    /// Scripts whose diagnostics say where things are, or depend on which tokens start lines.
    static let positional: [(String, String)] = [
        ("takeover note", "rect a center (0, 0) size (10, 10)\nanimate 2 < a.center = (1, 0) >\n# a comment\nat 1 < animate 1 < a.center = (0, 1) > >\n"),
        ("unclosed block", "rect a center (0, 0) size (10, 10)\nanimate 1 < a.center = (1, 0)\n# a comment\nanimate 1 < a.center = (2, 0) >\n"),
        ("color as comment", "rect a center (0, 0) size (10, 10)\n#fade out\nanimate 1 < a.center = (1, 0) >\n"),
        ("parse error", "rect a center (0, 0) size (10, 10)\nanimate 1 < a.center = >\n\n# note\nanimate 1 < a.center = (2, 0) >\n"),
        ("paren across lines", "rect a center (0,\n 0) size (10, 10)\n\nanimate 1 < a.center = (1,\n\n 0) >\n"),
    ]

    /// Every single space, line break and comment letter typed at every place (and every
    /// character deleted) of scripts with positions in their diagnostics.
    @Test(arguments: positional.indices)
    func everyTriviaEdit(_ i: Int) {
        let (name, text) = Self.positional[i]
        let bytes = Array(text.utf8)
        let full = Session.analyze(name: name, bytes: bytes)
        let base = ValueEdits(base: full)
        var candidates: [[UInt8]] = []
        for at in 0...bytes.count {
            for c: UInt8 in [0x20, 0x0A, 0x61] {
                var t = bytes
                t.insert(c, at: at)
                candidates.append(t)
            }
            if at < bytes.count {
                var t = bytes
                t.remove(at: at)
                candidates.append(t)
            }
        }
        for edited in candidates {
            guard let (e, d) = base.reuse(old: bytes, new: edited) else { continue }
            let fresh = Session.analyze(name: name, bytes: edited)
            #expect(ValueEditTests.published(d) == ValueEditTests.published(fresh.diagnostics), "\(name): \(String(decoding: edited, as: UTF8.self))")
            #expect(Self.timing(full, through: e) == Self.timing(fresh), "\(name), timing: \(String(decoding: edited, as: UTF8.self))")
        }
    }
}
