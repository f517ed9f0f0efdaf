// `textDocument/rangeFormatting`: the server advertises it; a range formats the fewest whole
// top-level statements that cover it (a range inside a block, the statement holding the
// block), through anim's formatter, and leaves every other line as written; a document with
// syntax errors gets null, one that is not open an error.
import AnimCore
@testable import AnimLanguageServer
import Testing

@Suite("Range formatting")
struct RangeFormattingTests {
    static let text = "rect  a center(1,2)\nanimate 1<a.center=(3,4)>then\nprint \"done\"\nat 1 <\nprint   1\n  print(2,3)\n>\nprint  9 # kept\n"

    func format(_ client: TestClient, _ uri: String, _ range: TextRange) -> JSON? {
        client.request("textDocument/rangeFormatting", ["textDocument": ["uri": .string(uri)], "range": range.json,
                                                        "options": ["tabSize": 2, "insertSpaces": true]])
    }

    /// The document after applying the answer's edits to `text`.
    func applied(_ text: String, _ answer: JSON?, encoding: PositionEncoding = .utf16) throws -> String {
        let edits = try #require(answer?["result"]?.array, "\(answer?.serialized ?? "no answer")")
        var doc = DocumentText(text)
        for e in edits.reversed() {
            doc = doc.replacing(try #require(TextRange(json: e["range"])), with: try #require(e["newText"]?.string), encoding: encoding)
        }
        return doc.string
    }

    func range(_ l1: Int, _ c1: Int, _ l2: Int, _ c2: Int) -> TextRange {
        TextRange(start: Position(line: l1, character: c1), end: Position(line: l2, character: c2))
    }

    @Test("the capability is advertised")
    func capability() {
        let client = TestClient()
        #expect(client.initialize()?["result"]?["capabilities"]?["documentRangeFormattingProvider"] == true)
    }

    @Test("a range formats the statements it touches and nothing else")
    func statements() throws {
        let client = TestClient()
        client.initialize()
        client.open("file:///r.anim", Self.text)
        // Inside the second statement: it alone (its `then` chain is one statement).
        let second = try applied(Self.text, format(client, "file:///r.anim", range(1, 3, 1, 5)))
        #expect(second == Self.text.replacingOccurrences(of: "animate 1<a.center=(3,4)>then\nprint \"done\"",
                                                             with: "animate 1 < a.center = (3, 4) >\nthen print \"done\""))
        // The first two lines: the declaration and the chain.
        let both = try applied(Self.text, format(client, "file:///r.anim", range(0, 0, 1, 2)))
        #expect(both.hasPrefix("rect a center (1, 2)\nanimate 1 < a.center = (3, 4) >\nthen print \"done\"\nat 1 <\nprint   1\n"))
        #expect(both.hasSuffix("at 1 <\nprint   1\n  print(2,3)\n>\nprint  9 # kept\n"))
        // A cursor inside the `at` block formats the whole `at` statement, not the line after it.
        let block = try applied(Self.text, format(client, "file:///r.anim", range(5, 4, 5, 4)))
        #expect(block == "rect  a center(1,2)\nanimate 1<a.center=(3,4)>then\nprint \"done\"\nat 1 <\n    print 1\n    print (2, 3)\n>\nprint  9 # kept\n")
        // The last statement, with its comment.
        let last = try applied(Self.text, format(client, "file:///r.anim", range(7, 0, 7, 1)))
        #expect(last == Self.text.replacingOccurrences(of: "print  9 # kept", with: "print 9  # kept"))
        // Formatting every statement's range, one by one, gives anim fmt's text.
        var doc = Self.text
        for line in [0, 1, 3, 7] {
            client.change("file:///r.anim", version: 10 + line, [["text": .string(doc)]])
            doc = try applied(doc, format(client, "file:///r.anim", range(line, 0, line, 0)))
        }
        #expect(doc == Formatter.format(text: Self.text))
    }

    @Test("statements on one line, a formatted range, comments only, errors")
    func others() throws {
        let client = TestClient()
        client.initialize(encodings: ["utf-8"])
        client.open("file:///s.anim", "print  1 ; print  2\nprint 3\n")
        let joined = try applied("print  1 ; print  2\nprint 3\n", format(client, "file:///s.anim", range(0, 0, 0, 1)), encoding: .utf8)
        #expect(joined == "print 1; print 2\nprint 3\n")
        client.open("file:///ok.anim", "print 1\n# a comment\n\nprint  2\n")
        #expect(format(client, "file:///ok.anim", range(0, 0, 0, 3))?["result"] == [])
        #expect(format(client, "file:///ok.anim", range(1, 0, 2, 0))?["result"] == [])
        client.open("file:///bad.anim", "print (1,\nanimate < >\n")
        #expect(format(client, "file:///bad.anim", range(0, 0, 0, 1))?["result"] == .null)
        #expect(format(client, "file:///closed.anim", range(0, 0, 0, 1))?.errorCode == -32602)
        #expect(client.request("textDocument/rangeFormatting", ["textDocument": ["uri": "file:///ok.anim"]])?.errorCode == -32602)
    }
}
