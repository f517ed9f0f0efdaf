// Folding ranges come from the syntax tree: a `textDocument/foldingRange` request after a
// change does not build the SymbolIndex (a pass over every node that resolves every name),
// and the tree's block spans are the index's, over every golden script and example.
import AnimCore
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Testing

@Suite struct FoldingTests {
    @Test func foldingDoesNotBuildTheSymbolIndex() throws {
        let client = TestClient()
        client.initialize(encodings: ["utf-8"])
        let uri = "file:///fold.anim"
        client.open(uri, "rect a\nat 1 <\n  animate 1 <\n    a.alpha = 0\n  >\n>\nrepeat 2 <\n  wait 1\n>\n")
        let r = try #require(client.request("textDocument/foldingRange", ["textDocument": ["uri": .string(uri)]])?["result"]?.array)
        #expect(r.map { "\($0["startLine"]!.int!)-\($0["endLine"]!.int!)" } == ["1-5", "2-4", "6-8"])
        let a = try #require(client.server.analyzerForTests?.analysis(of: uri))
        #expect(!a.script.symbolsAreBuilt)
        // A request that needs names builds it.
        _ = client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(uri)]])
        #expect(a.script.symbolsAreBuilt)
    }

    @Test func theTreesBlockSpansAreTheIndexs() throws {
        for path in DiagnosticsTests.allScripts {
            let bytes = try Array(Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)))
            let tree = Parser.parseProgram(SourceFile(id: 1, name: path, bytes: bytes)).tree
            #expect(tree.blockSpans == SymbolIndex(tree).blocks, "\(path)")
        }
    }
}
