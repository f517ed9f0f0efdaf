// Each parse function starts with its production (`/// chain := step { "then" step } ...`),
// and the productions must be Grammar.md's: this compares every `/// x :=` line of
// Sources/AnimCore/Syntax with the production of that name in Grammar.md §2.2, so neither can
// drift from the other.
import AnimTestSupport
import Foundation
import Testing

/// Productions by name, their text with runs of spaces made one.
private func productions(in lines: [Substring], prefix: String) -> [String: String] {
    var out: [String: String] = [:]
    var current: (name: String, text: String)?
    func flush() {
        if let c = current { out[c.name] = c.text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        current = nil
    }
    for raw in lines {
        let line = raw.trimmingCharacters(in: .whitespaces)
        guard line.hasPrefix(prefix) else { flush(); continue }
        let body = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("|"), current != nil {
            current!.text += " " + body
            continue
        }
        flush()
        let parts = body.components(separatedBy: " := ")
        if parts.count >= 2, let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty,
           name.allSatisfy({ $0.isLetter || $0.isNumber }) {
            current = (name, parts.dropFirst().joined(separator: " := "))
        }
    }
    flush()
    return out
}

@Suite("Grammar lines")
struct GrammarLinesTests {
    /// Grammar.md's productions: the ```ebnf block of §2.2.
    static let reference: [String: String] = {
        let url = TestPaths.packageRoot.appendingPathComponent("Grammar.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("```ebnf") }),
              let end = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else { return [:] }
        return productions(in: Array(lines[(start + 1)..<end]), prefix: "")
    }()

    /// The parser's productions: the `/// x := ...` lines of Sources/AnimCore/Syntax.
    static let parser: [(file: String, name: String, text: String)] = {
        let dir = TestPaths.packageRoot.appendingPathComponent("Sources/AnimCore/Syntax")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        var out: [(String, String, String)] = []
        for f in files.sorted() where f.hasSuffix(".swift") {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8) else { continue }
            for (name, production) in productions(in: text.split(separator: "\n", omittingEmptySubsequences: false), prefix: "///") {
                out.append((f, name, production))
            }
        }
        return out.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    }()

    @Test("both sides have their productions")
    func found() {
        #expect(GrammarLinesTests.reference.count >= 30)
        #expect(GrammarLinesTests.parser.count >= 30)
    }

    @Test("every parse function's production is Grammar.md's")
    func agree() {
        for p in GrammarLinesTests.parser {
            guard let reference = GrammarLinesTests.reference[p.name] else {
                Issue.record("\(p.file): '\(p.name)' is not a production of Grammar.md §2.2")
                continue
            }
            #expect(p.text == reference, "\(p.file): \(p.name)")
        }
    }

    @Test("every production of Grammar.md with a parse function of its own is written above it")
    func everyProductionHasItsLine() {
        // The ones the parser inlines where they are used, or reads as tokens.
        let inlined: Set = ["separator", "binop", "args"]
        let written = Set(GrammarLinesTests.parser.map(\.name))
        for name in GrammarLinesTests.reference.keys.sorted() where !inlined.contains(name) {
            #expect(written.contains(name), "no '/// \(name) :=' line in Sources/AnimCore/Syntax")
        }
    }
}
