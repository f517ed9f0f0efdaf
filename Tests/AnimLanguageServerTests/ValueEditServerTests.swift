// The server with value edits (ValueEdits): typing into a `let` whose value is only written to
// properties publishes the same diagnostics as a server that analyses every change in full,
// without analysing the version; its inlay hints, semantic tokens, folding ranges and outline are
// those of the full server too, still without analysing it (an editor asks for them after every
// change); a hover analyses it on first use and answers as the full server does; any other
// change is analysed in full.
import AnimCore
@testable import AnimLanguageServer
import Foundation
import Testing

@Suite struct ValueEditServerTests {
    static let uri = "file:///values.anim"
    static let script = """
        rect a center (0, 0) size (10, 10)
        rect b center (0, 0) size (10, 10)
        let gap = 12
        define hop(s, h) = animate 0.2 < s.offset = (0, -h) > then animate 0.2 < s.offset = (0, 0) >
        play hop(a, gap)
        animate 0.5 < b.center = (gap, 1) > as move
        at 0.25 <
            animate 1 < b.center = (0, 100) >
        >
        print "{b.alpha}"
        wait 0.3
        animate 0.2 < a.center = (gap, 2) >

        """

    /// The same keystrokes sent to a server that reuses and to one that does not.
    static func type(_ client: TestClient) -> [JSON] {
        client.initialize(encodings: ["utf-16"])
        client.open(uri, script)
        _ = client.diagnostics(uri, version: 1)
        var published: [JSON] = []
        // Into `12` (line 2, after `let gap = 1`), then into the duration `0.5` (line 5).
        let edits: [(Int, Int, Int, String)] = [(2, 11, 11, "5"), (2, 11, 12, ""), (2, 10, 10, "9"), (5, 11, 11, "5"), (2, 10, 11, "")]
        for (k, e) in edits.enumerated() {
            let range: JSON = ["start": ["line": .int(e.0), "character": .int(e.1)], "end": ["line": .int(e.0), "character": .int(e.2)]]
            client.change(uri, version: k + 2, [["range": range, "text": .string(e.3)]])
            published.append(.array(client.diagnostics(uri, version: k + 2) ?? []))
        }
        return published
    }

    @Test func theSameDiagnosticsAsAFullAnalysis() throws {
        let reusing = TestClient(), full = TestClient(reusesValueEdits: false)
        let a = Self.type(reusing), b = Self.type(full)
        #expect(a == b)
        // The run's warning (two steps write b.center) is among them.
        #expect(a.allSatisfy { $0.array?.isEmpty == false })
        let last = try #require(reusing.server.analyzerForTests?.analysis(of: Self.uri))
        // The last edit (into `gap` again, after the duration's change was analysed in full) was reused.
        #expect(last.reusedDiagnostics)
        let doc: JSON = ["uri": .string(Self.uri)]
        // What an editor asks for after each change: answered from the base analysis's timing
        // run and the new text's parse, without analysing this version.
        let visible: JSON = ["start": ["line": 0, "character": 0], "end": ["line": 60, "character": 0]]
        for (method, params) in [("textDocument/inlayHint", ["textDocument": doc, "range": visible]), ("textDocument/inlayHint", ["textDocument": doc]),
                                 ("textDocument/semanticTokens/full", ["textDocument": doc]), ("textDocument/foldingRange", ["textDocument": doc]),
                                 ("textDocument/documentSymbol", ["textDocument": doc])] as [(String, JSON)] {
            let answer = try #require(reusing.request(method, params)?["result"])
            #expect(answer == full.request(method, params)?["result"], "\(method)")
            #expect(answer.array?.isEmpty == false || answer["data"]?.array?.isEmpty == false, "\(method)")
            #expect(last.reusedDiagnostics, "\(method) analysed the version")
        }
        // The hints include a step's times and a wait's landing, placed past the edited number.
        let hints = reusing.request("textDocument/inlayHint", ["textDocument": doc])?["result"]?.array ?? []
        #expect(hints.contains { $0["label"]?.string?.hasPrefix("⟨now") == true && $0["position"]?["line"] == 10 }, "\(hints)")
        #expect(last.reusedDiagnostics)
        let hover: JSON = ["textDocument": doc, "position": ["line": 5, "character": 2]]
        #expect(reusing.request("textDocument/hover", hover)?["result"] == full.request("textDocument/hover", hover)?["result"])
    }

    @Test func aDurationIsAnalysedInFull() throws {
        let client = TestClient()
        client.initialize()
        client.open(Self.uri, Self.script)
        _ = client.diagnostics(Self.uri, version: 1)
        let range: JSON = ["start": ["line": 5, "character": 11], "end": ["line": 5, "character": 11]]
        client.change(Self.uri, version: 2, [["range": range, "text": "5"]])
        _ = client.diagnostics(Self.uri, version: 2)
        let a = try #require(client.server.analyzerForTests?.analysis(of: Self.uri))
        #expect(!a.reusedDiagnostics)
    }
}
