// LanguageServer: the LSP 3.17 lifecycle and the routing of messages to features. It runs on
// the thread that reads the input, one frame at a time, so requests are answered in the order
// they came; analyses run on the Analyzer's thread.
//
// Lifecycle (LSP 3.17 "Server lifecycle"):
// - before `initialize`, a request is answered -32002 (server not initialized) and a
//   notification is dropped, except `exit`;
// - `initialize` negotiates the position encoding and answers the capabilities; a second one
//   is an invalid request;
// - after `shutdown`, a request is answered -32600 (invalid request) and a notification is
//   dropped, except `exit`;
// - `exit` ends the server with 0 if `shutdown` came before, else 1.
// `$/cancelRequest` is ignored, as the spec allows: every request is answered before the next
// message is read, so a cancellation always comes after its answer.
//
// Changes are coalesced: of the frames that came in one read (`handle(batch:)`), the opens and
// changes of a document are handed to the analyzer once, at the end of the batch or before
// the next request (which must see them), so a burst of keystrokes that arrived together is
// analysed once, at its newest version, and no analysis of an older one is even started.
import AnimCore

/// A language server for anim scripts.
public final class LanguageServer {
    /// Where the server is in its lifecycle.
    public enum State: Sendable {
        case uninitialized, running, shutDown
    }

    /// Where the server is in its lifecycle.
    public private(set) var state = State.uninitialized
    /// Set when `exit` arrives: the process's exit code.
    public private(set) var exitCode: Int32?
    /// The position encoding agreed at `initialize`.
    public private(set) var encoding = PositionEncoding.utf16

    private let sink: MessageSink
    private let budget: WorkBudget
    private let reusesValueEdits: Bool
    private let features: [LanguageFeature]
    private let log: @Sendable (String) -> Void
    private var documents = DocumentStore()
    private var analyzer: Analyzer?
    /// The analyzer, for tests that read analyses directly.
    var analyzerForTests: Analyzer? { analyzer }
    private var client = ClientCapabilities(json: .object([:]), positionEncoding: .utf16)
    /// Set while a batch is handled: opens and changes wait in `changed` until its end.
    private var coalescing = false
    /// Documents opened or changed and not yet handed to the analyzer, in order.
    private var changed: [String] = []

    /// The features every server has (made anew for each: some keep what they last answered).
    public static var standardFeatures: [LanguageFeature] { [
        DiagnosticsFeature(), OutlineFeature(), NavigationFeature(), HoverFeature(), CompletionFeature(), HintsFeature(), SemanticTokensFeature(), CodeActionsFeature(),
        FormattingFeature(),
    ] }

    /// A server that sends to `sink`, times scripts within `budget`, and logs (to standard
    /// error, for the editor's log) through `log`.
    /// `reusesValueEdits`: a change of a value only (`ValueEdits`) reuses the last analysis's
    /// diagnostics instead of analysing the document again.
    public init(sink: MessageSink, budget: WorkBudget = .standard, reusesValueEdits: Bool = true,
                features: [LanguageFeature] = LanguageServer.standardFeatures, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.sink = sink
        self.budget = budget
        self.reusesValueEdits = reusesValueEdits
        self.features = features
        self.log = log
    }

    deinit { analyzer?.stop() }

    // MARK: - Frames

    /// Handles the frames that came in together, in order, stopping at `exit`; the documents
    /// they change are analysed once each, at their newest version.
    public func handle(batch frames: [IncomingFrame]) {
        coalescing = true
        defer {
            coalescing = false
            analyzeChanged()
        }
        for frame in frames {
            handle(frame)
            if exitCode != nil { return }
        }
    }

    /// Hands the documents changed since the last call to the analyzer.
    private func analyzeChanged() {
        guard !changed.isEmpty else { return }
        let uris = changed
        changed = []
        guard let analyzer else { return }
        for uri in uris { if let d = documents[uri] { analyzer.update(d) } }
    }

    /// A document opened or changed: analysed now, or at the end of the batch.
    private func didChange(_ document: TextDocument) {
        if coalescing {
            if !changed.contains(document.uri) { changed.append(document.uri) }
        } else {
            analyzer?.update(document)
        }
    }

    /// Handles one frame from the reader: answers what needs answering.
    public func handle(_ frame: IncomingFrame) {
        switch frame {
        case .invalid(let reason):
            log("anim lsp: \(reason)")
            sink.send(Outgoing.error(.null, .parseError(reason)))
        case .message(.array(let batch)):
            // A JSON-RPC batch: one array of the answers, none if all were notifications.
            guard !batch.isEmpty else {
                sink.send(Outgoing.error(.null, .invalidRequest("an empty batch")))
                return
            }
            let answers = batch.compactMap { handle(IncomingMessage($0)) }
            if !answers.isEmpty { sink.send(.array(answers)) }
        case .message(let json):
            if let answer = handle(IncomingMessage(json)) { sink.send(answer) }
        }
    }

    /// The input ended without `exit`: the exit code the process should end with.
    public func endOfInput() -> Int32 {
        analyzer?.stop()
        return state == .shutDown ? 0 : 1
    }

    /// Handles one message; returns the answer to send, if any.
    private func handle(_ message: IncomingMessage) -> JSON? {
        switch message {
        case .invalid(let id, let error):
            log("anim lsp: \(error.message)")
            return Outgoing.error(id, error)
        case .response:
            return nil
        case .notification(let method, let params):
            notification(method, params)
            return nil
        case .request(let id, let method, let params):
            // A request sees every change sent before it.
            analyzeChanged()
            do throws(ResponseError) {
                return Outgoing.result(id, try request(method, params))
            } catch {
                return Outgoing.error(id.json, error)
            }
        }
    }

    // MARK: - Requests

    private func request(_ method: String, _ params: JSON?) throws(ResponseError) -> JSON {
        switch state {
        case .uninitialized:
            guard method == "initialize" else { throw .serverNotInitialized }
            return try initialize(params)
        case .shutDown:
            throw .invalidRequest("the server is shut down: only 'exit' is accepted")
        case .running:
            break
        }
        switch method {
        case "initialize":
            throw .invalidRequest("the server is already initialized")
        case "shutdown":
            state = .shutDown
            analyzer?.stop()
            return .null
        default:
            guard let analyzer, let handler = handlers[method] else { throw .methodNotFound(method) }
            return try handler(RequestContext(params: params, encoding: encoding, documents: documents, analyzer: analyzer))
        }
    }

    private var handlers: [String: RequestHandler] = [:]

    /// `initialize`: `{processId, capabilities, ...}` → `{capabilities, serverInfo}`.
    private func initialize(_ params: JSON?) throws(ResponseError) -> JSON {
        guard case .object = params, let capabilities = params?["capabilities"], case .object = capabilities else {
            throw .invalidParams("initialize needs params with a 'capabilities' object")
        }
        encoding = ClientCapabilities.negotiate(capabilities)
        client = ClientCapabilities(json: capabilities, positionEncoding: encoding)
        var provided: [String: JSON] = [
            "positionEncoding": .string(encoding.rawValue),
            // Open and close, and incremental changes (a change without a range is whole text).
            "textDocumentSync": ["openClose": true, "change": 2],
        ]
        for f in features {
            f.addCapabilities(to: &provided, client: client)
            handlers.merge(f.requests) { _, new in new }
        }
        let output = ServerOutput(sink: sink, encoding: encoding)
        let features = features
        analyzer = Analyzer(budget: budget, reusesValueEdits: reusesValueEdits, publish: { analysis in
            for f in features { f.analysisFinished(analysis, output: output) }
        }, clear: { uri in
            for f in features { f.documentClosed(uri, output: output) }
        })
        state = .running
        return ["capabilities": .object(provided), "serverInfo": ["name": "anim", "version": "0.1.0"]]
    }

    // MARK: - Notifications

    private func notification(_ method: String, _ params: JSON?) {
        if method == "exit" {
            analyzer?.stop()
            exitCode = state == .shutDown ? 0 : 1
            return
        }
        guard state == .running, let analyzer else { return }
        do throws(DocumentError) {
            switch method {
            case "textDocument/didOpen":
                didChange(try documents.open(params))
            case "textDocument/didChange":
                didChange(try documents.change(params, encoding: encoding))
            case "textDocument/didClose":
                let uri = try documents.close(params)
                changed.removeAll { $0 == uri }
                analyzer.close(uri)
            default:
                // `initialized`, `$/cancelRequest`, `$/setTrace`, configuration changes and
                // anything unknown: nothing to do, and notifications are never answered.
                break
            }
        } catch {
            log("anim lsp: \(method): \(error)")
        }
    }
}
