// TestClient: a LanguageServer in this process with a sink that keeps what it sends, and the
// few calls the tests make (requests, notifications, waiting for diagnostics).
@testable import AnimLanguageServer
import Foundation
import Synchronization

/// Keeps every message the server sends.
final class CollectingSink: MessageSink {
    private let box = Mutex<[JSON]>([])

    func send(_ message: JSON) { box.withLock { $0.append(message) } }

    /// Everything sent so far.
    var messages: [JSON] { box.withLock { $0 } }

    /// Removes and returns everything sent so far.
    func take() -> [JSON] { box.withLock { m in defer { m = [] }; return m } }
}

/// Drives a server as a client would.
final class TestClient {
    let sink = CollectingSink()
    let server: LanguageServer
    private var nextID: Int64 = 1

    init(budget: WorkBudget = .standard, reusesValueEdits: Bool = true, features: [LanguageFeature] = LanguageServer.standardFeatures) {
        server = LanguageServer(sink: sink, budget: budget, reusesValueEdits: reusesValueEdits, features: features)
    }

    /// Sends a raw frame body and returns what was answered at once.
    @discardableResult
    func raw(_ json: JSON) -> [JSON] {
        server.handle(.message(json))
        return sink.take()
    }

    /// Sends a request and returns its answer (the message with its id).
    @discardableResult
    func request(_ method: String, _ params: JSON? = nil) -> JSON? {
        let id = nextID
        nextID += 1
        var m: [String: JSON] = ["jsonrpc": "2.0", "id": .integer(id), "method": .string(method)]
        if let params { m["params"] = params }
        server.handle(.message(.object(m)))
        return sink.messages.last { $0["id"] == .integer(id) }
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: JSON? = nil) {
        var m: [String: JSON] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { m["params"] = params }
        server.handle(.message(.object(m)))
    }

    /// `initialize` offering these position encodings (none: the field is left out), then
    /// `initialized`; returns the answer.
    @discardableResult
    func initialize(encodings: [String]? = nil) -> JSON? {
        var capabilities: [String: JSON] = [:]
        if let encodings { capabilities["general"] = ["positionEncodings": .array(encodings.map { .string($0) })] }
        let answer = request("initialize", ["processId": .null, "rootUri": .null, "capabilities": .object(capabilities)])
        notify("initialized", [:])
        return answer
    }

    func open(_ uri: String, _ text: String, version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "anim", "version": .int(version), "text": .string(text)]])
    }

    func change(_ uri: String, version: Int, _ changes: [JSON]) {
        notify("textDocument/didChange", ["textDocument": ["uri": .string(uri), "version": .int(version)], "contentChanges": .array(changes)])
    }

    /// The diagnostics published for `uri` at `version` (nil: any version), waiting up to
    /// `timeout` seconds for them.
    func diagnostics(_ uri: String, version: Int? = nil, timeout: Double = 30) -> [JSON]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = sink.messages.last { m in
                m["method"] == "textDocument/publishDiagnostics" && m["params"]?["uri"]?.string == uri
                    && (version == nil || m["params"]?["version"]?.int == version)
            }
            if let d = found?["params"]?["diagnostics"]?.array { return d }
            usleep(2000)
        }
        return nil
    }

    /// Every publishDiagnostics sent for `uri`, in order.
    func published(_ uri: String) -> [JSON] {
        sink.messages.filter { $0["method"] == "textDocument/publishDiagnostics" && $0["params"]?["uri"]?.string == uri }
    }
}

extension JSON {
    /// The error code of a response, if it is an error.
    var errorCode: Int? { self["error"]?["code"]?.int }
}
