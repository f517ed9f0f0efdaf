// Grammar.md promises that every example in it runs as written. Each ```anim block is run as
// `example.anim` (with its `#:` flags) and compared with the ```output or ```diagnostics block
// that follows it, so the reference cannot drift from the code.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// One example of Grammar.md: its script and what it must print.
struct GrammarExample: Sendable, CustomTestStringConvertible {
    var line: Int
    var script: String
    var expected: String
    var isDiagnostics: Bool
    var testDescription: String { "Grammar.md:\(line)" }

    /// The examples, in order: a block marked `anim` and the `output`/`diagnostics` block after it.
    static let all: [GrammarExample] = {
        let url = TestPaths.packageRoot.appendingPathComponent("Grammar.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [(kind: String, line: Int, body: String)] = []
        var current: (kind: String, line: Int, lines: [String])?
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let c = current {
                    blocks.append((c.kind, c.line, c.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), n + 1, [])
                }
            } else if current != nil {
                current!.lines.append(String(line))
            }
        }
        var out: [GrammarExample] = []
        for (i, b) in blocks.enumerated() where b.kind == "anim" {
            let next = i + 1 < blocks.count ? blocks[i + 1] : nil
            if let n = next, n.kind == "output" || n.kind == "diagnostics" {
                out.append(GrammarExample(line: b.line, script: b.body, expected: n.body, isDiagnostics: n.kind == "diagnostics"))
            } else {
                out.append(GrammarExample(line: b.line, script: b.body, expected: "", isDiagnostics: false))
            }
        }
        return out
    }()
}

@Suite("Grammar.md examples")
struct GrammarExamplesTests {
    @Test("the reference has its examples")
    func found() {
        #expect(GrammarExample.all.count >= 30)
    }

    @Test("each example prints what Grammar.md says", arguments: GrammarExample.all)
    func example(_ e: GrammarExample) {
        let flags = ScriptExpectations(text: e.script).flags
        let r = runScript(e.script, name: "example.anim", flags: flags)
        func trimmed(_ s: String) -> String {
            s.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
                .joined(separator: "\n").trimmingCharacters(in: .newlines)
        }
        if e.isDiagnostics {
            #expect(trimmed(r.stderr) == trimmed(e.expected), Comment(rawValue: "Grammar.md:\(e.line)\n\(r.stderr)"))
        } else {
            #expect(trimmed(r.stdout) == trimmed(e.expected), Comment(rawValue: "Grammar.md:\(e.line)\n\(r.stdout)"))
            #expect(r.stderr.isEmpty, Comment(rawValue: "Grammar.md:\(e.line)\n\(r.stderr)"))
        }
    }
}
