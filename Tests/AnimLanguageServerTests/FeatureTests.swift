// The language features on scripts the marker files cannot hold: one whose run is far over
// the work budget (hints and hovers answer from the part that ran, and a hover that needs the
// history makes its own bounded run), and a document that is not open.
import AnimCore
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Testing

@Suite struct FeatureTests {
    @Test func aRunOverTheBudgetDoesNotBlockHintsOrHovers() throws {
        let client = TestClient(budget: WorkBudget(checks: 5))
        client.initialize(encodings: ["utf-8"])
        let uri = "file:///huge.anim"
        // A hundred million tweens of a millisecond: a day of script time.
        client.open(uri, "rect box\nrepeat 100000000 < animate 1ms < box.alpha = 1 > then animate 1ms < box.alpha = 0 > >\n")
        let started = Date()
        let doc: JSON = ["uri": .string(uri)]
        let hints = try #require(client.request("textDocument/inlayHint", ["textDocument": doc])?["result"]?.array)
        // The repeat is still running where the budget stopped the run.
        #expect(hints.contains { $0["label"]?.string?.hasSuffix("→ …⟩") == true })
        let step = try #require(client.request("textDocument/hover", ["textDocument": doc, "position": ["line": 1, "character": 2]])?["result"])
        #expect(step["contents"]?["value"]?.string?.contains("still running when the run stops") == true)
        let prop = try #require(client.request("textDocument/hover", ["textDocument": doc, "position": ["line": 1, "character": 38]])?["result"])
        #expect(prop["contents"]?["value"]?.string?.contains("at the step's start (0.000s): `1`") == true)
        // Far less than the run would take (about 400,000 events a second in a debug build).
        #expect(Date().timeIntervalSince(started) < 10)
    }

    /// Every golden script and example, checking or not: the document-wide features answer,
    /// every reference resolves to a declaration of its name, every hint is at a step's end.
    @Test func everyScriptIsAnswered() throws {
        let client = TestClient()
        client.initialize(encodings: ["utf-8"])
        for path in DiagnosticsTests.allScripts {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
            let uri = "file:///\(path)"
            client.open(uri, text)
            let doc: JSON = ["textDocument": ["uri": .string(uri)]]
            for method in ["textDocument/documentSymbol", "textDocument/foldingRange", "textDocument/inlayHint", "textDocument/semanticTokens/full"] {
                let r = client.request(method, doc)
                #expect(r?["result"] != nil, "\(path): \(method): \(r?.serialized ?? "no answer")")
            }
            let a = try #require(client.server.analyzerForTests?.analysis(of: uri))
            let s = a.script.symbols
            for r in s.references {
                if case .name(let d) = r.role { #expect(a.text(of: r.span) == s.declarations[d].name, "\(path)") }
            }
            client.notify("textDocument/didClose", doc)
            _ = client.sink.take()
        }
    }

    @Test func aDocumentThatIsNotOpenIsAnError() {
        let client = TestClient()
        client.initialize()
        for method in ["textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/inlayHint",
                       "textDocument/documentSymbol", "textDocument/semanticTokens/full"] {
            let r = client.request(method, ["textDocument": ["uri": "file:///nope.anim"], "position": ["line": 0, "character": 0],
                                            "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]]])
            #expect(r?.errorCode == -32602, "\(method)")
        }
    }

    @Test func theCapabilitiesNameEveryFeature() throws {
        let client = TestClient()
        let caps = try #require(client.initialize()?["result"]?["capabilities"])
        for key in ["hoverProvider", "completionProvider", "signatureHelpProvider", "definitionProvider", "referencesProvider",
                    "renameProvider", "documentSymbolProvider", "foldingRangeProvider", "inlayHintProvider", "semanticTokensProvider",
                    "codeActionProvider"] {
            #expect(caps[key] != nil, "\(key)")
        }
        #expect(caps["semanticTokensProvider"]?["legend"]?["tokenTypes"]?.array?.count == SemanticTokens.types.count)
    }
}
