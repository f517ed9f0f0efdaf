// Diagnostics published by the server are those of `anim check`: for every golden error script
// (Tests/Scripts/errors), the diagnostics the server publishes are turned back into anim
// Diagnostics — message, severity, the range as a span, relatedInformation as labels, `data`
// as notes and help — and rendered; the text must be exactly what `anim check` writes to
// standard error. So messages, ranges (the carets), severities, labels, notes and help all
// survive, in both position encodings. Then: changes, closing, the work budget, and versions
// that are superseded while they are analyzed.
@testable import AnimCore
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Synchronization
import Testing

/// What `anim check` writes to standard error for a script (the command builds its session
/// the same way).
func checkOutput(name: String, bytes: [UInt8]) -> String {
    let out = CapturedOutput()
    _ = Session(options: SessionOptions(), output: out).check(name: name, bytes: bytes)
    return out.error
}

/// LSP diagnostics turned back into anim's and rendered as `anim check` renders them.
func rendered(_ diagnostics: [JSON], name: String, bytes: [UInt8], encoding: PositionEncoding) throws -> String {
    let text = DocumentText(bytes)
    // The sources as a session has them: the prelude, then the script.
    var map = SourceMap()
    let prelude = map.add(name: "<prelude>", text: Prelude.source)
    let file = map.add(name: name, bytes: bytes)
    let bom = text.byteOrderMarkLength
    func span(_ range: JSON?, in source: SourceFile? = nil) throws -> Span {
        let r = try #require(TextRange(json: range))
        let t = source.map { DocumentText($0.bytes) } ?? text
        let shift = source == nil ? bom : 0
        return Span(source: (source ?? file).id, start: t.offset(of: r.start, encoding: encoding) - shift,
                    end: t.offset(of: r.end, encoding: encoding) - shift)
    }
    let renderer = DiagnosticRenderer(sources: map)
    var out = ""
    for d in diagnostics {
        let severity: Severity = try #require([1: .error, 2: .warning, 3: .note][d["severity"]?.int ?? 0])
        var message = try #require(d["message"]?.string)
        let notes = d["data"]?["notes"]?.array?.compactMap(\.string) ?? []
        let help = d["data"]?["help"]?.string
        let suffix = notes.map { "\nnote: \($0)" }.joined() + (help.map { "\nhelp: \($0)" } ?? "")
        #expect(message.hasSuffix(suffix), "\(message)")
        message = String(message.dropLast(suffix.count))
        if severity == .note, message.contains("more diagnostic") {
            out += "anim: \(message)\n"
            continue
        }
        var related = d["relatedInformation"]?.array ?? []
        var label: String?
        if let l = d["data"]?["label"]?.string {
            label = l
            let first = try #require(related.first)
            #expect(first["message"]?.string == l)
            #expect(first["location"]?["range"] == d["range"])
            related.removeFirst()
        }
        let secondary = try related.map { r in
            Diagnostic.Label(span: try span(r["location"]?["range"]), text: try #require(r["message"]?.string))
        }
        var at = try span(d["range"])
        if let outside = d["data"]?["outside"] {
            // In the prelude: the message starts with its position, as anim check's first line.
            #expect(outside["name"] == "<prelude>")
            at = try span(outside["range"], in: prelude)
            let prefix = renderer.position(of: at)! + ": "
            #expect(message.hasPrefix(prefix))
            message = String(message.dropFirst(prefix.count))
        }
        out += renderer.render(Diagnostic(severity, message, at: at, label: label, secondary: secondary,
                                          notes: notes, help: help))
    }
    return out
}

@Suite("Diagnostics as anim check shows them")
struct DiagnosticsTests {
    static let errorScripts = TestPaths.scripts(under: TestPaths.scripts.appendingPathComponent("errors"))

    /// Every golden script and example: the error scripts, and the others, whose `anim check`
    /// finds warnings (overwrites, custom properties) with labels and notes.
    static let allScripts = TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples)

    /// Compares the server's diagnostics for a script with `anim check`'s, in both encodings;
    /// returns the published diagnostics.
    @discardableResult
    func compareWithCheck(_ path: String) throws -> [JSON] {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let expected = checkOutput(name: url.path, bytes: bytes)
        var published: [JSON] = []
        for encoding in [PositionEncoding.utf16, .utf8] {
            let c = TestClient()
            c.initialize(encodings: encoding == .utf8 ? ["utf-8", "utf-16"] : ["utf-16"])
            let uri = "file://" + url.path
            c.open(uri, String(decoding: bytes, as: UTF8.self))
            published = try #require(c.diagnostics(uri, version: 1))
            #expect(try rendered(published, name: url.path, bytes: bytes, encoding: encoding) == expected, "\(path) in \(encoding)")
            #expect(published.allSatisfy { $0["source"] == "anim" })
        }
        return published
    }

    @Test("the golden error scripts: the same diagnostics as 'anim check', in UTF-16 and UTF-8", arguments: errorScripts)
    func goldenErrors(_ path: String) throws {
        let published = try compareWithCheck(path)
        // Each script of `errors/` holds one diagnostic at least (a few are warnings only).
        #expect(published.contains { $0["severity"] == 1 || $0["severity"] == 2 } || path.contains("never_ends"), "\(path) has no diagnostic")
    }

    @Test("every other golden script and example: the same diagnostics as 'anim check'",
          arguments: allScripts.filter { !$0.hasPrefix("Tests/Scripts/errors/") })
    func goldenOthers(_ path: String) throws {
        try compareWithCheck(path)
    }

    @Test("the scripts cover the kinds of finding: errors, warnings, labels, secondary labels, notes, help, the prelude")
    func coverage() throws {
        var all: [JSON] = []
        let texts = try DiagnosticsTests.allScripts.map { path in
            String(decoding: try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)), as: UTF8.self)
        } + DiagnosticsTests.awkward.map(\.1)
        for (k, text) in texts.enumerated() {
            let c = TestClient()
            c.initialize()
            c.open("file:///tmp/\(k).anim", text)
            all += try #require(c.diagnostics("file:///tmp/\(k).anim"))
        }
        #expect(all.contains { $0["data"]?["outside"] != nil })
        #expect(all.contains { $0["severity"] == 1 })
        #expect(all.contains { $0["severity"] == 2 })
        #expect(all.contains { $0["data"]?["label"] != nil })
        #expect(all.contains { $0["data"]?["help"] != nil })
        #expect(all.contains { $0["data"]?["notes"] != nil })
        #expect(all.contains { ($0["relatedInformation"]?.array?.count ?? 0) > ($0["data"]?["label"] == nil ? 0 : 1) })
    }

    /// Scripts whose columns the two encodings and anim count differently.
    static let awkward: [(String, String)] = [
        ("tabs", "rect a\n\tprint \"é\"\t+ nope\n"),
        ("crlf", "rect a\r\nrect a\r\nprint \"x\" + 1\r\n"),
        ("emoji", "print \"😀😀\" + 1\nrect b\nrect b\n"),
        ("cjk and combining marks", "print \"漢字 e\u{301}\" + nope\n"),
        ("a note: taking over a step of the prelude", "rect sq\nplay fadeIn(sq)\nanimate 0.1 < sq.alpha = 0.5 >\n"),
        ("a warning inside the prelude", "rect sq alpha 0\nanimate 1 < sq.alpha = 0.5 >\nwait 0.2\nplay fadeOut(sq)\n"),
        ("byte order mark", "\u{FEFF}rect a\nrect a\n"),
        ("lone cr", "rect a\rrect a\n"),
        ("error at a line break", "rect a center (1,\r\n"),
        ("unterminated string after emoji", "print \"😀 abc\r\nrect z\n"),
        ("many errors", String(repeating: "print nope\n", count: 30)),
    ]

    @Test("columns past tabs, CRLF, emoji, CJK, combining marks and a byte order mark", arguments: awkward.map(\.0))
    func awkwardColumns(_ name: String) throws {
        let text = DiagnosticsTests.awkward.first { $0.0 == name }!.1
        let bytes = Array(text.utf8)
        let expected = checkOutput(name: "/tmp/awkward.anim", bytes: bytes)
        #expect(!expected.isEmpty)
        for encoding in [PositionEncoding.utf16, .utf8] {
            let c = TestClient()
            c.initialize(encodings: [encoding.rawValue])
            c.open("file:///tmp/awkward.anim", text)
            let published = try #require(c.diagnostics("file:///tmp/awkward.anim"))
            #expect(try rendered(published, name: "/tmp/awkward.anim", bytes: bytes, encoding: encoding) == expected, "\(name) in \(encoding)")
        }
    }

    @Test("UTF-16 ranges count surrogate pairs as two")
    func utf16Range() throws {
        let c = TestClient()
        c.initialize()
        c.open("file:///e.anim", "print \"😀\" + nope\n")
        let d = try #require(c.diagnostics("file:///e.anim")?.first)
        // `nope` starts after `print "😀" + `: 6 + 1 + 2 + 1 + 3 UTF-16 units.
        #expect(d["range"]?["start"] == ["line": 0, "character": 13])
        #expect(d["range"]?["end"] == ["line": 0, "character": 17])
    }

    @Test("the file name in messages is the path of the file URI, percent-decoded")
    func fileNames() {
        #expect(DocumentAnalysis.fileName(of: "file:///tmp/a%20b/%C3%A9.anim") == "/tmp/a b/é.anim")
        #expect(DocumentAnalysis.fileName(of: "file://host/share/x.anim") == "/share/x.anim")
        #expect(DocumentAnalysis.fileName(of: "untitled:Untitled-1") == "untitled:Untitled-1")
        #expect(DocumentAnalysis.fileName(of: "file:///bad%zz%") == "/bad%zz%")
    }

    @Test("every change is analyzed: full and incremental changes, then close clears the diagnostics")
    func changes() throws {
        let c = TestClient()
        c.initialize()
        let uri = "file:///c.anim"
        c.open(uri, "rect a\nprint a.centre\n")
        #expect(try #require(c.diagnostics(uri, version: 1)).count == 1)
        // Incremental: fix the typo (line 1, `centre` → `center`).
        c.change(uri, version: 2, [["range": ["start": ["line": 1, "character": 12], "end": ["line": 1, "character": 14]], "text": "er"]])
        #expect(try #require(c.diagnostics(uri, version: 2)).isEmpty)
        // Incremental after an emoji (UTF-16 columns), then a whole-text change in the same notification.
        c.change(uri, version: 3, [["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": "print \"😀\"\n"],
                                   ["range": ["start": ["line": 0, "character": 10], "end": ["line": 0, "character": 10]], "text": " + x"]])
        let d3 = try #require(c.diagnostics(uri, version: 3))
        #expect(d3.count == 1)
        // `print "😀" + x`: x after 6 + 1 + 2 + 1 + 3 UTF-16 units.
        #expect(d3.first?["range"]?["start"] == ["line": 0, "character": 13])
        c.change(uri, version: 4, [["text": "rect b\nrect b\n"]])
        let d4 = try #require(c.diagnostics(uri, version: 4))
        #expect(d4.first?["message"]?.string?.contains("already declared") == true)
        c.notify("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])
        let last = c.published(uri).last
        #expect(last?["params"]?["diagnostics"] == [])
        #expect(last?["params"]?["version"] == nil)
    }

    @Test("a script that runs a very long time is timed only within the work budget, and says so")
    func budget() throws {
        let c = TestClient(budget: WorkBudget(checks: 5))
        c.initialize()
        let start = Date()
        c.open("file:///long.anim", "rect a\nrepeat 100000000 < animate 1ms < a.z += 1 > >\nrect a\n")
        // The checker's error comes first and stops the run; without it, the budget does.
        #expect(try #require(c.diagnostics("file:///long.anim")).count == 1)
        c.change("file:///long.anim", version: 2, [["text": "rect a\nrepeat 100000000 < animate 1ms < a.z += 1 > >\n"]])
        let d = try #require(c.diagnostics("file:///long.anim", version: 2))
        #expect(d.count == 1)
        #expect(d.first?["severity"] == 3)
        #expect(d.first?["message"]?.string?.contains("work budget") == true)
        #expect(Date().timeIntervalSince(start) < 20)
    }

    @Test("a document larger than anim reads is one error, not analyzed")
    func tooLarge() throws {
        let c = TestClient(budget: WorkBudget(checks: 200, maxBytes: 2 << 20))
        c.initialize()
        c.open("file:///big.anim", String(repeating: "rect a\n", count: 400_000))
        let d = try #require(c.diagnostics("file:///big.anim"))
        #expect(d.count == 1)
        #expect(d.first?["message"] == "a script may be at most 2 MiB")
        #expect(d.first?["range"] == ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]])
    }

    @Test("a change whose range is out of the document is clamped to its end")
    func changeOutOfRange() throws {
        let c = TestClient()
        c.initialize()
        c.open("file:///r.anim", "rect a\n")
        _ = try #require(c.diagnostics("file:///r.anim", version: 1))
        c.change("file:///r.anim", version: 2, [["range": ["start": ["line": 40, "character": 3], "end": ["line": 99, "character": 0]],
                                                "text": "rect a\n"]])
        let d = try #require(c.diagnostics("file:///r.anim", version: 2))
        #expect(d.first?["message"] == "'a' is already declared as a rect")
        #expect(d.first?["range"]?["start"] == ["line": 1, "character": 5])
    }

    @Test("a script that never ends is not run: it is checked, and found to repeat forever")
    func neverEnds() throws {
        let c = TestClient()
        c.initialize()
        c.open("file:///forever.anim", "rect a\nrepeat forever < animate 1 < a.z += 1 > >\n")
        #expect(try #require(c.diagnostics("file:///forever.anim")).isEmpty)
    }

    @Test("a version superseded while it is timed stops at once and is never published")
    func superseded() throws {
        // A budget far beyond what the test could wait for: only superseding stops it.
        let c = TestClient(budget: WorkBudget(checks: 100_000_000))
        c.initialize()
        let uri = "file:///s.anim"
        let start = Date()
        c.open(uri, "rect a\nrepeat 100000000 < animate 1ms < a.z += 1 > >\n")
        usleep(100_000)
        // Requests are answered while the analysis runs.
        let answer = c.request("nonsense/method")
        #expect(answer?.errorCode == -32601)
        c.change(uri, version: 2, [["text": "rect a\nrect a\n"]])
        let d = try #require(c.diagnostics(uri, version: 2))
        #expect(d.count == 1)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(c.published(uri).allSatisfy { $0["params"]?["version"] == 2 })
    }

    @Test("a version superseded while it is checked gives its check up: nothing made, nothing reported")
    func supersededWhileChecked() throws {
        var text = "rect a center (0, 0) size (10, 10)\n"
        for k in 0..<2_000 { text += "animate 0.\(k % 9 + 1) < a.center = (\(k), 0) >\n" }
        let job = Analyzer.Job(uri: "file:///long.anim", version: 1, text: DocumentText(Array(text.utf8)))
        let left = Mutex<SessionRemains?>(nil)
        let made = DocumentAnalysis.make(job, budget: .standard, remains: { r in left.withLock { $0 = r } }) { true }
        #expect(made == nil)
        let remains = try #require(left.withLock { $0 })
        #expect(remains.session?.wasAbandoned == true, "the check was given up, not carried to the end")
        #expect(remains.session?.errorCount == 0)
        // Not superseded: the same script is checked to the end and made.
        let whole = try #require(DocumentAnalysis.make(job, budget: .standard) { false })
        #expect(!whole.check.abandoned && whole.check.report.exitCode == .success)
    }

    @Test("shutdown is answered at once while a long analysis runs, and nothing is published after it")
    func shutdownDuringAnalysis() throws {
        let c = TestClient(budget: WorkBudget(checks: 100_000_000))
        c.initialize()
        c.open("file:///s.anim", "rect a\nrepeat 100000000 < animate 1ms < a.z += 1 > >\n")
        usleep(50_000)
        let start = Date()
        #expect(c.request("shutdown")?["result"] == .null)
        #expect(Date().timeIntervalSince(start) < 1)
        usleep(200_000)
        #expect(c.published("file:///s.anim").isEmpty)
    }
}
