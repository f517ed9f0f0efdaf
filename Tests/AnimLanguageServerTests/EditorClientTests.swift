// Real clients and the real regex engine, run from `swift test`: pytest-lsp driving `anim lsp`,
// headless Neovim's built-in client, and the TextMate grammar under Oniguruma. The Python side
// lives in Tests/Editors; its tools are installed by Scripts/install-editor-tools (called by
// Scripts/setup-test-tools). A test whose tool is missing is skipped, and says which.
@testable import AnimCore
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Testing

/// The editor tools the tests drive.
enum EditorTools {
    static let venvPython = TestPaths.packageRoot.appendingPathComponent(".build/test-tools/venv/bin/python").path

    /// The test venv's Python, if it can import `modules`.
    static func python(importing modules: String) -> String? {
        guard FileManager.default.isExecutableFile(atPath: venvPython),
              let r = try? runProgram(URL(fileURLWithPath: venvPython), ["-c", "import \(modules)"]), r.exitCode == 0 else { return nil }
        return venvPython
    }

    static let pytestLSP = python(importing: "pytest, pytest_lsp")
    static let oniguruma = python(importing: "pytest, onigurumacffi")

    /// A program on PATH.
    static func find(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Debian's `neovim`.
    static let neovim = find("nvim")

    /// Node, to run the VS Code extension's client.
    static let node = find("node")

    static func skipNote(_ tool: String) -> Comment {
        "\(tool) is not installed: run Scripts/install-editor-tools (Scripts/setup-test-tools calls it)"
    }

    /// Runs a pytest file of Tests/Editors; returns its output, failing the test unless it passed.
    static func pytest(_ python: String, _ file: String, environment: [String: String] = [:]) throws -> String {
        let r = try runProgram(URL(fileURLWithPath: python),
                               ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", "Tests/Editors/pytest.ini", "Tests/Editors/\(file)"],
                               environment: ["ANIM_BINARY": TestPaths.animBinary.path, "PYTHONDONTWRITEBYTECODE": "1"].merging(environment) { _, b in b })
        let summary = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
        print("\(file): \(summary)")
        #expect(r.exitCode == 0, Comment(rawValue: String(r.stdout.suffix(6000)) + String(r.stderr.suffix(2000))))
        #expect(summary.contains("passed") && !summary.contains("failed") && !summary.contains("error"), Comment(rawValue: summary))
        return r.stdout
    }
}

@Suite("Editor clients and the grammar", .serialized)
struct EditorClientTests {
    @Test("pytest-lsp drives anim lsp: lifecycle, every error script against anim check, changes, errors, hover, completion, definition, rename, inlay hints",
          .enabled(if: EditorTools.pytestLSP != nil, EditorTools.skipNote("pytest-lsp (.build/test-tools/venv)")))
    func pytestLSP() throws {
        let out = try EditorTools.pytest(EditorTools.pytestLSP!, "test_language_server.py")
        // Both client profiles ran over every error script.
        let passed = Int(out.split(separator: "\n").last?.split(separator: " ").first ?? "") ?? 0
        #expect(passed >= 2 * DiagnosticsTests.errorScripts.count)
    }

    @Test("the TextMate grammar: every regex compiles with Oniguruma, and its scopes agree with the lexer over every golden script",
          .enabled(if: EditorTools.oniguruma != nil, EditorTools.skipNote("onigurumacffi (.build/test-tools/venv)")))
    func grammar() throws {
        // The names the core knows, for the grammar's coverage test.
        let names: JSON = [
            "keywords": .array(Keyword.allCases.map { .string($0.rawValue) }),
            "easings": .array(Easing.allNames.map { .string($0) }),
            "functions": .array(Builtin.allCases.map { .string($0.rawValue) }),
            "colors": .array(CSSColors.table.keys.sorted().map { .string($0) }),
            "springParameters": .array(Checker.springParameters.map { .string($0) }),
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anim-names-\(UUID().uuidString.prefix(8)).json")
        try names.serialized.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let out = try EditorTools.pytest(EditorTools.oniguruma!, "test_grammar.py", environment: ["ANIM_NAMES": file.path])
        #expect(!out.contains("skipped"), "the core names test was skipped")
    }

    @Test("the VS Code extension's client, under Node with a stand-in vscode module, against anim lsp",
          .enabled(if: EditorTools.node != nil, "node is not installed (apt-get install nodejs)"))
    func vscodeClient() throws {
        let r = try runProgram(URL(fileURLWithPath: EditorTools.node!), ["Tests/Editors/test_vscode_client.js"],
                               environment: ["ANIM_BINARY": TestPaths.animBinary.path])
        print(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(r.exitCode == 0, Comment(rawValue: r.stdout + r.stderr))
        #expect(r.stdout.contains("1 passed, 0 failed"))
    }

    /// Runs headless Neovim on a script (and an edit of it); returns what it reported.
    func neovim(_ script: URL, edit: String? = nil) throws -> JSON {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("anim-nvim-\(UUID().uuidString.prefix(8)).json")
        defer { try? FileManager.default.removeItem(at: out) }
        var env = ["ANIM_BINARY": TestPaths.animBinary.path, "ANIM_SCRIPT": script.path, "ANIM_OUT": out.path]
        if let edit { env["ANIM_EDIT"] = edit }
        let r = try runProgram(URL(fileURLWithPath: EditorTools.neovim!),
                               ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile Tests/Editors/neovim_diagnostics.lua"],
                               environment: env)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let report = try JSONParser.parse(Array(try Data(contentsOf: out)))
        #expect(report["errors"]?.array?.isEmpty != false, "\(report["errors"]?.serialized ?? "")")
        return report
    }

    /// Scripts with labels, help, secondary labels, several diagnostics, non-ASCII columns.
    static let neovimScripts = [
        "Tests/Scripts/errors/check_already_declared_shape.anim",
        "Tests/Scripts/errors/check_unknown_property.anim",
        "Tests/Scripts/errors/lex_unexpected_non_ascii.anim",
        "Tests/Scripts/errors/lex_unterminated_string.anim",
        "Tests/Scripts/errors/run_at_in_the_past.anim",
        "Tests/Scripts/errors/recovery_several_syntax_errors.anim",
        "Tests/Scripts/errors/check_unknown_property_did_you_mean.anim",
    ]

    @Test("headless Neovim receives anim check's diagnostics and shows them", .enabled(if: EditorTools.neovim != nil, EditorTools.skipNote("neovim")),
          arguments: neovimScripts)
    func neovimDiagnostics(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let report = try neovim(url)
        #expect(report["first_arrived"] == true)
        let published = try #require(report["published"]?.array?.first)
        let diagnostics = try #require(published["diagnostics"]?.array)
        #expect(published["uri"] == .string(url.absoluteString))
        #expect(try rendered(diagnostics, name: url.path, bytes: bytes, encoding: .utf16) == checkOutput(name: url.path, bytes: bytes))
        // Neovim took every one: the same messages, lines and severities.
        let shown = report["shown_first"]?.array ?? []
        #expect(shown.map { $0["message"] } == diagnostics.map { $0["message"] })
        #expect(shown.map { $0["lnum"] } == diagnostics.map { $0["range"]?["start"]?["line"] })
        #expect(shown.map { $0["severity"] } == diagnostics.map { $0["severity"] })
        // Stopping the client sent shutdown and exit: the server ended with 0.
        #expect(report["exit_code"] == 0)
    }

    @Test("headless Neovim: a CRLF file, then an edit that fixes it", .enabled(if: EditorTools.neovim != nil, EditorTools.skipNote("neovim")))
    func neovimEdit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-nvim-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("crlf.anim")
        let bytes = Array("rect a\r\nprint \"é😀\" + a.centre\r\n".utf8)
        try Data(bytes).write(to: url)
        let report = try neovim(url, edit: "rect a\nprint a.center")
        let all = report["published"]?.array ?? []
        let first = try #require(all.first?["diagnostics"]?.array)
        #expect(try rendered(first, name: url.path, bytes: bytes, encoding: .utf16) == checkOutput(name: url.path, bytes: bytes))
        #expect(report["second_arrived"] == true)
        #expect(all.last?["diagnostics"] == [])
        #expect(report["shown_second"] == [])
        #expect(report["exit_code"] == 0)
    }
}
