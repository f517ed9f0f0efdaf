// The server with trivia and print-text edits (ValueEdits.triviaEdit, printTextEdit): typing
// spaces, line breaks and comment text, or the text a `print` prints, publishes the same
// diagnostics as a server that analyses every change in full, without analysing the version;
// its inlay hints, semantic tokens and folding ranges are the full server's too, placed in the
// new text (hints moved past the edit, on their lines).
import AnimCore
@testable import AnimLanguageServer
import Foundation
import Testing

@Suite struct TriviaEditServerTests {
    static let uri = "file:///trivia.anim"
    static let script = """
        # moves two squares
        rect a center (0, 0) size (10, 10)
        rect b center (0, 0) size (10, 10)
        animate 0.5 < b.center = (10, 1) > as move  # first
        at 0.75 <
            animate 1 < a.center = (0, 100) >
        >
        print "b is at {b.center.x}"
        wait 0.3
        animate 0.2 < a.offset = (3, 2) >

        """

    /// Keystrokes, each found in the text of the moment: after the first `needle`, delete
    /// `delete` bytes and type `text`. A comment letter, a space, a line break and its deletion,
    /// a letter into the printed text, a space before a step, spaces at a line's start, a
    /// duration (the only one analysed in full), and a comment after it.
    static let edits: [(needle: String, delete: Int, text: String)] = [
        ("# moves", 0, "x"), ("# first", 0, "y"), ("animate 0.5", 0, " "), ("move  # firsty", 0, "\n"), ("b is ", 0, "q"),
        ("animate", 0, " "), ("\nat", 0, "  "), ("firsty\n", 1, ""), ("animate 0.2", 0, "5"), ("# mo", 0, "z"),
    ]

    static func type(_ client: TestClient, _ text: String, upTo count: Int = edits.count) -> [JSON] {
        client.initialize(encodings: ["utf-16"])
        client.open(uri, text)
        _ = client.diagnostics(uri, version: 1)
        var published: [JSON] = []
        var now = Array(text.utf8)
        func position(_ offset: Int) -> JSON {
            let before = now[..<offset]
            let line = before.filter { $0 == 0x0A }.count
            let column = offset - ((before.lastIndex(of: 0x0A)).map { $0 + 1 } ?? 0)
            return ["line": .int(line), "character": .int(column)]
        }
        for (k, e) in edits.prefix(count).enumerated() {
            let needle = Array(e.needle.utf8)
            let at = (0...(now.count - needle.count)).first { now[$0..<($0 + needle.count)].elementsEqual(needle) }! + needle.count
            let range: JSON = ["start": position(at), "end": position(at + e.delete)]
            client.change(uri, version: k + 2, [["range": range, "text": .string(e.text)]])
            now.replaceSubrange(at..<(at + e.delete), with: Array(e.text.utf8))
            published.append(.array(client.diagnostics(uri, version: k + 2) ?? []))
        }
        return published
    }

    @Test func theSameAnswersAsAFullAnalysis() throws {
        for count in [3, 5, 6, Self.edits.count] {
            let reusing = TestClient(), full = TestClient(reusesValueEdits: false)
            #expect(Self.type(reusing, Self.script, upTo: count) == Self.type(full, Self.script, upTo: count))
            let last = try #require(reusing.server.analyzerForTests?.analysis(of: Self.uri))
            // Every edit but the duration's is reused; the last (a comment, after the duration) too.
            #expect(last.reusedDiagnostics, "after \(count) edits")
            let doc: JSON = ["uri": .string(Self.uri)]
            for (method, params) in [("textDocument/inlayHint", ["textDocument": doc]), ("textDocument/semanticTokens/full", ["textDocument": doc]),
                                     ("textDocument/foldingRange", ["textDocument": doc])] as [(String, JSON)] {
                let answer = try #require(reusing.request(method, params)?["result"])
                #expect(answer == full.request(method, params)?["result"], "\(method) after \(count) edits")
                #expect(answer.array?.isEmpty == false || answer["data"]?.array?.isEmpty == false, "\(method)")
            }
            #expect(last.reusedDiagnostics, "a request analysed the version")
        }
    }

    /// A script with an error: comment edits are still reused, and the error is where a full
    /// analysis puts it.
    @Test func anErrorMovesWithTheEdit() throws {
        let broken = Self.script.replacingOccurrences(of: "a.offset = (3, 2)", with: "c.offset = (3, 2)")
        let reusing = TestClient(), full = TestClient(reusesValueEdits: false)
        let a = Self.type(reusing, broken, upTo: 3), b = Self.type(full, broken, upTo: 3)
        #expect(a == b)
        #expect(a.allSatisfy { $0.array?.count == 1 })
        let last = try #require(reusing.server.analyzerForTests?.analysis(of: Self.uri))
        #expect(last.reusedDiagnostics)
    }
}
