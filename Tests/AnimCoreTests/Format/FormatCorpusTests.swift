// The formatter over every script the repository holds (the golden suites, the examples, the
// picture scripts, the benches) and every example of Grammar.md: formatting keeps what the
// script prints, the diagnostics it shows (but for where they point) and the graphs it builds,
// and formatting the result again changes nothing. FormatRepositoryTests then checks that the
// repository's own scripts are formatted.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// One script to format: where it comes from, its text, its `#:` flags.
struct FormatCase: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    /// Whether to run it (the benches are formatted, not run).
    var runs = true
    var testDescription: String { name }

    /// The repository's scripts, as paths relative to the package root.
    static let repositoryPaths: [String] = {
        let root = TestPaths.packageRoot
        return ["Tests/Scripts", "Examples", "Tests/Pictures", "Scripts"].flatMap {
            TestPaths.scripts(under: root.appendingPathComponent($0))
        }
    }()

    static let all: [FormatCase] = {
        var out: [FormatCase] = repositoryPaths.map { path in
            let text = (try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)) ?? ""
            return FormatCase(name: path, text: text, runs: !path.hasPrefix("Scripts/"))
        }
        out += GrammarExample.all.map { FormatCase(name: "Grammar.md:\($0.line)", text: $0.script + "\n") }
        return out
    }()

    /// The formatted text, or nil when the script has syntax errors (a deliberately malformed
    /// golden); an internal error of the formatter is a test failure.
    func formatted() -> String? {
        let file = SourceFile(id: 0, name: "example.anim", bytes: Array(text.utf8))
        switch Formatter.format(file) {
        case .success(let out): return String(decoding: out, as: UTF8.self)
        case .failure(.syntax): return nil
        case .failure(.internalError(let why)):
            Issue.record("\(name): \(why)")
            return nil
        }
    }
}

/// What a run shows, but for where diagnostics point: stdout, the exit code, and each
/// diagnostic's severity and message.
struct RunShape: Equatable, CustomStringConvertible {
    var stdout: String
    var exitCode: Int32
    var messages: [String]
    var description: String { "exit \(exitCode)\n\(stdout)\(messages.joined(separator: "\n"))" }

    init(_ text: String, flags: [String]) {
        let r = runScript(text, name: "example.anim", flags: flags)
        stdout = r.stdout
        exitCode = r.exitCode
        // `example.anim:3:7: error: …` → `error: …`; the quoted source lines and carets go.
        messages = r.stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("example.anim:"), let r = line.range(of: #"^example\.anim:\d+:\d+: "#, options: .regularExpression) else {
                return line.hasPrefix("anim:") ? String(line) : nil
            }
            return String(line[r.upperBound...])
        }
    }
}

/// The sequencer graphs a script builds, as `anim check --dump graph` shows them, without
/// positions or spaces (their labels quote the source).
func graphShape(_ text: String) -> String {
    let session = Session(output: CapturedOutput())
    let dump = session.dump(.graph, name: "example.anim", bytes: Array(text.utf8)).text
    return dump.replacingOccurrences(of: #"example\.anim:\d+:\d+"#, with: "", options: .regularExpression)
        .filter { !$0.isWhitespace }
}

@Suite("Formatter over every script")
struct FormatCorpusTests {
    @Test("the corpus is found")
    func found() {
        #expect(FormatCase.all.count > 300)
        #expect(FormatCase.all.filter { $0.formatted() != nil }.count > 250)
    }

    @Test("formatting keeps what a script prints and builds, and is idempotent", arguments: FormatCase.all)
    func preserves(_ c: FormatCase) {
        guard let once = c.formatted() else { return }
        let again = FormatCase(name: c.name, text: once).formatted()
        #expect(again == once, "\(c.name): formatting twice changes it")
        guard c.runs else { return }
        let flags = ScriptExpectations(text: c.text).flags
        let before = RunShape(c.text, flags: flags), after = RunShape(once, flags: flags)
        #expect(before == after, "\(c.name): the formatted script runs differently\n--- before\n\(before)\n--- after\n\(after)")
        #expect(graphShape(c.text) == graphShape(once), "\(c.name): the formatted script builds other graphs")
    }

    @Test("every comment survives, in order, byte for byte", arguments: FormatCase.all)
    func comments(_ c: FormatCase) {
        guard let once = c.formatted() else { return }
        func comments(_ text: String) -> [Substring] {
            // The lexer's comments: what follows a `#` that its tokens do not cover.
            let file = SourceFile(id: 0, name: "c.anim", bytes: Array(text.utf8))
            let tokens = Lexer.tokenize(file).tokens.filter { $0.kind != .newline && $0.kind != .eof }
            var out: [Substring] = []
            var gapStart = text.utf8.startIndex
            for t in tokens + [Token(kind: .eof, span: .point(0, text.utf8.count))] {
                let end = text.utf8.index(text.utf8.startIndex, offsetBy: Int(t.span.start))
                for line in text[gapStart..<end].split(separator: "\n", omittingEmptySubsequences: false) {
                    if let h = line.firstIndex(of: "#") {
                        out.append(line[h...].reversed().drop { $0 == " " || $0 == "\r" || $0 == "\t" }.reversed().map(String.init).joined()[...])
                    }
                }
                gapStart = text.utf8.index(text.utf8.startIndex, offsetBy: Int(t.span.end))
            }
            return out
        }
        #expect(comments(c.text) == comments(once), "\(c.name)")
    }
}
