// Changes that arrive together are analysed once: of a batch of frames (what one read of the
// input completed), a document's opens and changes reach the analyzer at the end of the batch
// or before the next request, so only the newest version is analysed, and a request in the
// middle of the batch still sees every change sent before it.
import AnimCore
@testable import AnimLanguageServer
import Testing

@Suite struct CoalescingTests {
    static func notification(_ method: String, _ params: JSON) -> IncomingFrame {
        .message(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }

    static func open(_ uri: String, _ text: String) -> IncomingFrame {
        notification("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "anim", "version": 1, "text": .string(text)]])
    }

    static func change(_ uri: String, _ version: Int, _ text: String) -> IncomingFrame {
        notification("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(version)],
                                                "contentChanges": [["text": .string(text)]]])
    }

    @Test func aBurstOfChangesIsAnalysedOnceAtItsNewestVersion() throws {
        let c = TestClient()
        c.initialize()
        let uri = "file:///burst.anim"
        var frames = [Self.open(uri, "rect a\n")]
        // Long texts, so that handling each change takes long enough for an analysis thread
        // that was handed the first version at once to have started on it.
        let long = "rect a\n" + String(repeating: "print 1\n", count: 12_000)
        for v in 2...30 { frames.append(Self.change(uri, v, long + String(repeating: "print 2\n", count: v))) }
        frames.append(Self.change(uri, 31, "rect a\nrect a\n"))
        c.server.handle(batch: frames)
        let d = try #require(c.diagnostics(uri, version: 31))
        #expect(d.first?["message"] == "'a' is already declared as a rect")
        #expect(c.server.analyzerForTests?.analysesStarted == 1)
        #expect(c.published(uri).count == 1)
    }

    @Test func aRequestInTheBatchSeesTheChangesBeforeIt() throws {
        let c = TestClient()
        c.initialize()
        let uri = "file:///mid.anim"
        let request: IncomingFrame = .message(["jsonrpc": "2.0", "id": 99, "method": "textDocument/documentSymbol",
                                               "params": ["textDocument": ["uri": .string(uri)]]])
        c.server.handle(batch: [Self.open(uri, "rect a\n"), Self.change(uri, 2, "rect b\n"), request, Self.change(uri, 3, "rect c\n")])
        let answer = try #require(c.sink.messages.first { $0["id"] == 99 })
        #expect(answer["result"]?.array?.compactMap { $0["name"]?.string } == ["b"])
        _ = try #require(c.diagnostics(uri, version: 3))
        // Version 2 for the request, 3 at the end: never version 1.
        #expect(c.server.analyzerForTests?.analysesStarted == 2)
        #expect(c.published(uri).compactMap { $0["params"]?["version"]?.int }.allSatisfy { $0 >= 2 })
    }

    @Test func aDocumentClosedInTheBatchIsNotAnalysed() throws {
        let c = TestClient()
        c.initialize()
        let uri = "file:///closed.anim"
        c.server.handle(batch: [Self.open(uri, "rect a\n"), Self.change(uri, 2, "rect b\n"),
                                Self.notification("textDocument/didClose", ["textDocument": ["uri": .string(uri)]])])
        _ = c.request("shutdown")
        #expect(c.server.analyzerForTests?.analysesStarted == 0)
        #expect(c.published(uri).allSatisfy { $0["params"]?["diagnostics"] == [] })
    }
}
