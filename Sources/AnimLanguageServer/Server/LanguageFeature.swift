// LanguageFeature: how an editor feature plugs into the server. A feature says which
// capabilities it adds to the `initialize` result, answers requests by method, and may react
// to each finished analysis (diagnostics are published that way). Every request handler
// reads documents and analyses through its RequestContext, never the core directly, so a
// feature is a function of a DocumentAnalysis.

/// Answers one request. Throws the error to answer with (`invalidParams` for bad params).
public typealias RequestHandler = @Sendable (RequestContext) throws(ResponseError) -> JSON

/// An editor feature.
public protocol LanguageFeature: Sendable {
    /// Adds what the feature provides to the server's capabilities.
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities)
    /// The requests it answers, by method name.
    var requests: [String: RequestHandler] { get }
    /// Called (on the analysis thread) with each analysis of a document's latest version.
    func analysisFinished(_ analysis: DocumentAnalysis, output: ServerOutput)
    /// Called when a document closes.
    func documentClosed(_ uri: String, output: ServerOutput)
}

extension LanguageFeature {
    public func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {}
    public var requests: [String: RequestHandler] { [:] }
    public func analysisFinished(_ analysis: DocumentAnalysis, output: ServerOutput) {}
    public func documentClosed(_ uri: String, output: ServerOutput) {}
}

/// What the client said it can do (`initialize` params), and what was agreed.
public struct ClientCapabilities: Sendable {
    /// The client's `capabilities` object.
    public var json: JSON
    /// The position encoding agreed on.
    public var positionEncoding: PositionEncoding

    /// The encoding to use given the client's `general.positionEncodings`: UTF-8 when offered
    /// (anim's spans are byte offsets, so nothing needs counting), else UTF-16, the default.
    static func negotiate(_ capabilities: JSON) -> PositionEncoding {
        let offered = capabilities["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
        return offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
    }
}

/// Where features send notifications.
public struct ServerOutput: Sendable {
    let sink: MessageSink
    /// The agreed position encoding.
    public let encoding: PositionEncoding

    /// Sends a notification.
    public func notify(_ method: String, _ params: JSON) {
        sink.send(Outgoing.notification(method, params))
    }
}

/// What a request handler can see: the request's params and the server's documents.
public struct RequestContext {
    /// The request's params (nil when it had none).
    public let params: JSON?
    /// The agreed position encoding.
    public let encoding: PositionEncoding
    let documents: DocumentStore
    let analyzer: Analyzer

    /// An open document.
    public func document(_ uri: String) -> TextDocument? { documents[uri] }

    /// The analysis of an open document's latest version (waiting for it if needed).
    public func analysis(_ uri: String) -> DocumentAnalysis? { analyzer.analysis(of: uri) }

    /// `params.textDocument.uri`, or the invalid-params error.
    public func textDocumentURI() throws(ResponseError) -> String {
        guard let uri = params?["textDocument"]?["uri"]?.string else {
            throw .invalidParams("expected params.textDocument.uri")
        }
        return uri
    }

    /// The analysis of the document `params.textDocument.uri` names; an error for a document
    /// that is not open.
    public func requestedAnalysis() throws(ResponseError) -> DocumentAnalysis {
        let uri = try textDocumentURI()
        guard let a = analysis(uri) else { throw .invalidParams("the document \(uri) is not open") }
        return a
    }

    /// `params.position` as a byte offset into the analysis's text: clamped into the text as
    /// LSP says for a character past its line's end; an error when it is not a position.
    public func requestedOffset(in analysis: DocumentAnalysis) throws(ResponseError) -> Int {
        guard let p = Position(json: params?["position"]) else {
            throw .invalidParams("expected params.position with non-negative line and character")
        }
        return analysis.text.offset(of: p, encoding: encoding)
    }
}
