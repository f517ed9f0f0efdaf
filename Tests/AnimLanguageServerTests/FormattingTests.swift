// `textDocument/formatting`: the server advertises it, and applying its edits to a document
// gives what `anim fmt` writes, in both position encodings; a formatted document gets no
// edits, one with syntax errors null, one that is not open an invalid-params error.
import AnimCore
@testable import AnimLanguageServer
import Testing

@Suite("Formatting")
struct FormattingTests {
    /// What `anim fmt` makes of a text.
    static func formatted(_ text: String) -> String? { Formatter.format(text: text) }

    func format(_ client: TestClient, _ uri: String) -> JSON? {
        client.request("textDocument/formatting", ["textDocument": ["uri": .string(uri)], "options": ["tabSize": 2, "insertSpaces": true]])
    }

    @Test("the capability is advertised")
    func capability() {
        let client = TestClient()
        let answer = client.initialize()
        #expect(answer?["result"]?["capabilities"]?["documentFormattingProvider"] == true)
    }

    @Test("applying the edits gives anim fmt's text", arguments: ["utf-16", "utf-8"])
    func edits(_ encoding: String) throws {
        let client = TestClient()
        client.initialize(encodings: [encoding])
        let enc = try #require(PositionEncoding(rawValue: encoding))
        let texts = [
            "# kept\nrect a center(1,2)\nanimate 1<a.center=(3,4)>then\nprint \"done\"\n# kept too\n",
            "print 1\nprint \"é😀\"   +\"x\"",          // the last line has no line break, and non-ASCII text
            "\u{FEFF}print (1,2)\r\nprint 2\r\n",      // a byte order mark and CRLF
            "print 1\n\n\n\nprint 2\n",
        ]
        for (k, text) in texts.enumerated() {
            let uri = "file:///t\(k).anim"
            client.open(uri, text)
            let answer = try #require(format(client, uri))
            let edits = try #require(answer["result"]?.array, "\(answer)")
            #expect(edits.count == 1)
            var doc = DocumentText(text)
            for e in edits {
                let range = try #require(TextRange(json: e["range"]))
                doc = doc.replacing(range, with: try #require(e["newText"]?.string), encoding: enc)
            }
            let bom = text.hasPrefix("\u{FEFF}") ? "\u{FEFF}" : ""
            #expect(doc.string == bom + (Self.formatted(String(text.drop { $0 == "\u{FEFF}" })) ?? "?"), "\(text)")
        }
    }

    @Test("only the lines that change are replaced")
    func narrowEdit() throws {
        let client = TestClient()
        client.initialize()
        client.open("file:///n.anim", "print 1\nprint  2\nprint 3\n")
        let edits = try #require(format(client, "file:///n.anim")?["result"]?.array)
        #expect(edits.count == 1)
        #expect(edits.first?["range"] == ["start": ["line": 1, "character": 0], "end": ["line": 2, "character": 0]])
        #expect(edits.first?["newText"] == "print 2\n")
    }

    @Test("a formatted document gets no edits, one with syntax errors null, one not open an error")
    func others() {
        let client = TestClient()
        client.initialize()
        client.open("file:///ok.anim", "print 1\n")
        #expect(format(client, "file:///ok.anim")?["result"] == [])
        client.open("file:///bad.anim", "print (1,\nanimate < >\n")
        #expect(format(client, "file:///bad.anim")?["result"] == .null)
        #expect(format(client, "file:///closed.anim")?.errorCode == -32602)
    }
}
