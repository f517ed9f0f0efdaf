// JSON-RPC errors and the LSP 3.17 lifecycle: parse errors, invalid requests, unknown methods,
// invalid params, requests before `initialize` and after `shutdown`, `exit` codes, batches,
// notifications never answered, position encoding negotiation, and the plumbing features use.
@testable import AnimLanguageServer
import Testing

@Suite("JSON-RPC and lifecycle")
struct LifecycleTests {
    @Test("a request before initialize is -32002; a notification before it is dropped")
    func beforeInitialize() {
        let c = TestClient()
        #expect(c.request("textDocument/hover", ["textDocument": ["uri": "file:///a.anim"]])?.errorCode == -32002)
        #expect(c.request("shutdown")?.errorCode == -32002)
        c.open("file:///a.anim", "rect a\nrect a\n")
        #expect(c.diagnostics("file:///a.anim", timeout: 0.3) == nil)
        #expect(c.server.state == .uninitialized)
    }

    @Test("initialize answers the capabilities that work, and only once")
    func initialize() {
        let c = TestClient()
        let answer = c.initialize()
        let caps = answer?["result"]?["capabilities"]
        #expect(caps?["positionEncoding"] == "utf-16")
        #expect(caps?["textDocumentSync"]?["change"] == 2)
        #expect(caps?["textDocumentSync"]?["openClose"] == true)
        // Diagnostics need no capability; each language feature names its own.
        #expect(caps?.object?.keys.sorted() == ["codeActionProvider", "completionProvider", "definitionProvider", "documentFormattingProvider", "documentRangeFormattingProvider",
                                                "documentSymbolProvider",
                                                "foldingRangeProvider", "hoverProvider", "inlayHintProvider", "positionEncoding",
                                                "referencesProvider", "renameProvider", "semanticTokensProvider", "signatureHelpProvider",
                                                "textDocumentSync"])
        #expect(answer?["result"]?["serverInfo"]?["name"] == "anim")
        #expect(c.request("initialize", ["capabilities": [:]])?.errorCode == -32600)
    }

    @Test("initialize with params that are not InitializeParams is -32602, and the server stays uninitialized")
    func initializeBadParams() {
        let c = TestClient()
        #expect(c.request("initialize")?.errorCode == -32602)
        #expect(c.request("initialize", ["processId": 1])?.errorCode == -32602)
        #expect(c.request("initialize", ["capabilities": 3])?.errorCode == -32602)
        #expect(c.server.state == .uninitialized)
        #expect(c.initialize()?["result"] != nil)
    }

    @Test("position encodings: UTF-8 when offered, else UTF-16", arguments: [
        (nil, "utf-16"), ([], "utf-16"), (["utf-16"], "utf-16"), (["utf-8"], "utf-8"),
        (["utf-16", "utf-8"], "utf-8"), (["utf-32"], "utf-16"), (["utf-32", "utf-8", "utf-16"], "utf-8"),
    ] as [([String]?, String)])
    func encodings(_ offered: [String]?, _ chosen: String) {
        let c = TestClient()
        #expect(c.initialize(encodings: offered)?["result"]?["capabilities"]?["positionEncoding"] == .string(chosen))
        #expect(c.server.encoding.rawValue == chosen)
    }

    @Test("an unknown method is -32601; an unknown notification is not answered")
    func unknownMethod() {
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        let r = c.request("textDocument/nonsense", [:])
        #expect(r?.errorCode == -32601)
        #expect(r?["error"]?["message"]?.string?.contains("textDocument/nonsense") == true)
        #expect(c.request("$/somethingElse")?.errorCode == -32601)
        _ = c.sink.take()
        c.notify("textDocument/nonsense", [:])
        c.notify("$/cancelRequest", ["id": 1])
        c.notify("$/setTrace", ["value": "off"])
        #expect(c.sink.take().isEmpty)
    }

    @Test("invalid requests are -32600, to their id when it is usable, else to null")
    func invalidRequests() {
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        let cases: [(JSON, JSON)] = [
            (["id": 1, "method": "shutdown"], 1),                                 // no jsonrpc
            (["jsonrpc": "1.0", "id": 2, "method": "shutdown"], 2),               // wrong version
            (["jsonrpc": "2.0", "id": 3, "method": 5], 3),                        // method not a string
            (["jsonrpc": "2.0", "id": 4, "method": "shutdown", "params": "x"], 4), // params not structured
            (["jsonrpc": "2.0", "id": ["x": 1], "method": "shutdown"], .null),    // id not integer or string
            (["jsonrpc": "2.0", "id": 1.5, "method": "shutdown"], .null),
            (["jsonrpc": "2.0", "id": true, "method": "shutdown"], .null),
            (["jsonrpc": "2.0", "id": 7], 7),                                     // neither request nor response
            ("a string", .null),
            (5, .null),
        ]
        for (message, id) in cases {
            let answers = c.raw(message)
            #expect(answers.count == 1, "\(message.serialized)")
            #expect(answers.first?.errorCode == -32600, "\(message.serialized)")
            #expect(answers.first?["id"] == id, "\(message.serialized)")
        }
        // None of them shut the server down.
        #expect(c.server.state == .running)
    }

    @Test("\"params\": null is taken as no params (clients send it for shutdown and exit)")
    func nullParams() {
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        let answers = c.raw(["jsonrpc": "2.0", "id": 5, "method": "shutdown", "params": .null])
        #expect(answers.first?["result"] == .null)
        #expect(answers.first?["error"] == nil)
        c.raw(["jsonrpc": "2.0", "method": "exit", "params": .null])
        #expect(c.server.exitCode == 0)
    }

    @Test("a string id is answered with the same string")
    func stringID() {
        let c = TestClient()
        let answers = c.raw(["jsonrpc": "2.0", "id": "abc", "method": "initialize", "params": ["capabilities": [:]]])
        #expect(answers.first?["id"] == "abc")
        #expect(answers.first?["result"] != nil)
    }

    @Test("a frame that is not JSON is a -32700 parse error to null")
    func parseError() {
        let c = TestClient()
        c.server.handle(.invalid("invalid JSON"))
        let answers = c.sink.take()
        #expect(answers.count == 1)
        #expect(answers.first?.errorCode == -32700)
        #expect(answers.first?["id"] == .null)
    }

    @Test("a response from the client is not answered")
    func responses() {
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        #expect(c.raw(["jsonrpc": "2.0", "id": 9, "result": .null]).isEmpty)
        #expect(c.raw(["jsonrpc": "2.0", "id": 9, "error": ["code": 1, "message": "x"]]).isEmpty)
    }

    @Test("a batch is answered with one array; an empty batch is -32600; a batch of notifications gets nothing")
    func batch() {
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        let answers = c.raw([["jsonrpc": "2.0", "id": 1, "method": "nonsense"], ["jsonrpc": "2.0", "method": "initialized"], 5])
        #expect(answers.count == 1)
        let array = answers.first?.array ?? []
        #expect(array.count == 2)
        #expect(array.first?.errorCode == -32601)
        #expect(array.last?.errorCode == -32600)
        #expect(c.raw([]).first?.errorCode == -32600)
        #expect(c.raw([["jsonrpc": "2.0", "method": "initialized"]]).isEmpty)
    }

    @Test("shutdown answers null; after it a request is -32600, a notification is dropped, and exit gives 0")
    func shutdown() {
        let c = TestClient()
        c.initialize()
        let answer = c.request("shutdown")
        #expect(answer?["result"] == .null)
        #expect(answer?["error"] == nil)
        #expect(c.request("shutdown")?.errorCode == -32600)
        #expect(c.request("textDocument/hover", [:])?.errorCode == -32600)
        _ = c.sink.take()
        c.open("file:///a.anim", "rect a\nrect a\n")
        #expect(c.sink.take().isEmpty)
        #expect(c.server.exitCode == nil)
        c.notify("exit")
        #expect(c.server.exitCode == 0)
    }

    @Test("exit without shutdown gives 1, before or after initialize; the end of the input gives 1, or 0 after shutdown")
    func exitCodes() {
        let a = TestClient()
        a.notify("exit")
        #expect(a.server.exitCode == 1)
        let b = TestClient()
        b.initialize()
        b.notify("exit")
        #expect(b.server.exitCode == 1)
        let c = TestClient()
        c.initialize()
        #expect(c.server.endOfInput() == 1)
        let d = TestClient()
        d.initialize()
        d.request("shutdown")
        #expect(d.server.endOfInput() == 0)
    }

    // MARK: - The plumbing features use

    /// A feature answering one request from the analysis, as hover and the others will.
    struct Probe: LanguageFeature {
        func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
            capabilities["experimental"] = ["probe": true]
        }

        var requests: [String: RequestHandler] {
            ["anim/probe": { context throws(ResponseError) in
                let analysis = try context.requestedAnalysis()
                let offset = try context.requestedOffset(in: analysis)
                return ["version": .int(analysis.version), "offset": .int(offset),
                        "diagnostics": .int(analysis.check.diagnostics.count)]
            }]
        }
    }

    @Test("a feature's request sees the analysis of every change sent before it, with bad params as -32602")
    func featurePlumbing() {
        let c = TestClient(features: LanguageServer.standardFeatures + [Probe()])
        #expect(c.initialize()?["result"]?["capabilities"]?["experimental"]?["probe"] == true)
        c.open("file:///p.anim", "rect a\n")
        c.change("file:///p.anim", version: 2, [["text": "rect a\nrect a\nprint \"😀\"\n"]])
        let r = c.request("anim/probe", ["textDocument": ["uri": "file:///p.anim"], "position": ["line": 2, "character": 100]])
        #expect(r?["result"]?["version"] == 2)
        #expect(r?["result"]?["diagnostics"] == 1)
        #expect(r?["result"]?["offset"] == .int("rect a\nrect a\nprint \"😀\"".utf8.count))
        #expect(c.request("anim/probe", ["textDocument": ["uri": "file:///p.anim"]])?.errorCode == -32602)
        #expect(c.request("anim/probe", ["textDocument": ["uri": "file:///p.anim"], "position": ["line": -1, "character": 0]])?.errorCode == -32602)
        #expect(c.request("anim/probe", ["textDocument": ["uri": "file:///closed.anim"], "position": ["line": 0, "character": 0]])?.errorCode == -32602)
        #expect(c.request("anim/probe", ["position": ["line": 0, "character": 0]])?.errorCode == -32602)
    }
}
