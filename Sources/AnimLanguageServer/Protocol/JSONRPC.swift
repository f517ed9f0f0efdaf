// JSONRPC: JSON-RPC 2.0 messages as the language server sees them — requests, notifications
// and responses — and the errors it answers with. Classification follows the JSON-RPC 2.0
// specification; the error codes are its own and LSP 3.17's.

/// A request id: an integer or a string (LSP's `integer | string`).
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    /// From a message's `id` member; nil for anything that is not an integer or a string.
    init?(_ json: JSON) {
        switch json {
        case .integer(let i): self = .integer(i)
        case .string(let s): self = .string(s)
        default: return nil
        }
    }

    public var json: JSON {
        switch self {
        case .integer(let i): .integer(i)
        case .string(let s): .string(s)
        }
    }

    public var description: String {
        switch self {
        case .integer(let i): String(i)
        case .string(let s): "\"\(s)\""
        }
    }
}

/// An error answered to a request.
public struct ResponseError: Error, Hashable, Sendable {
    /// The code (JSON-RPC's and LSP's numbers).
    public var code: Int
    /// What went wrong, for a person.
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// Invalid JSON was received (the body of a frame, or the frame itself).
    public static func parseError(_ message: String) -> ResponseError { ResponseError(code: -32700, message: message) }
    /// The JSON is not a valid request object, or a request came after `shutdown`.
    public static func invalidRequest(_ message: String) -> ResponseError { ResponseError(code: -32600, message: message) }
    /// No such method.
    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: -32601, message: "unknown method '\(method)'")
    }
    /// The parameters do not fit the method.
    public static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: -32602, message: message) }
    /// Something failed inside the server.
    public static func internalError(_ message: String) -> ResponseError { ResponseError(code: -32603, message: message) }
    /// A request other than `initialize` came before it (LSP).
    public static let serverNotInitialized = ResponseError(code: -32002, message: "the server is not initialized: send 'initialize' first")
    /// The client cancelled the request (LSP).
    public static let requestCancelled = ResponseError(code: -32800, message: "the request was cancelled")

    public var json: JSON { ["code": .int(code), "message": .string(message)] }
}

/// One message, classified.
enum IncomingMessage: Hashable, Sendable {
    /// A call that wants an answer.
    case request(id: RequestID, method: String, params: JSON?)
    /// A call that must not be answered.
    case notification(method: String, params: JSON?)
    /// An answer to a request of ours (the server sends none yet, so these are dropped).
    case response(id: JSON)
    /// Not a valid message: answered with this error, to this id (null when it has none).
    case invalid(id: JSON, error: ResponseError)

    /// Classifies one JSON value of a frame (an element of a batch, or the whole frame).
    init(_ json: JSON) {
        guard case .object(let o) = json else {
            self = .invalid(id: .null, error: .invalidRequest("a message must be a JSON object"))
            return
        }
        // The id to answer to, when there is a usable one.
        let id = o["id"].flatMap(RequestID.init)
        let replyID = id?.json ?? .null
        guard o["jsonrpc"] == .string("2.0") else {
            self = .invalid(id: replyID, error: .invalidRequest("a message must have \"jsonrpc\": \"2.0\""))
            return
        }
        guard let methodValue = o["method"] else {
            if o["id"] != nil, o["result"] != nil || o["error"] != nil {
                self = .response(id: o["id"]!)
            } else {
                self = .invalid(id: replyID, error: .invalidRequest("a message must have a \"method\" (or be a response with \"result\" or \"error\")"))
            }
            return
        }
        guard case .string(let method) = methodValue else {
            self = .invalid(id: replyID, error: .invalidRequest("\"method\" must be a string"))
            return
        }
        // `"params": null` is taken as no params: JSON-RPC does not allow it, but clients send
        // it for `shutdown` and `exit`, whose params LSP declares as none.
        let params = o["params"] == .null ? nil : o["params"]
        if let p = params {
            switch p {
            case .object, .array: break
            default:
                self = .invalid(id: replyID, error: .invalidRequest("\"params\" must be an object or an array"))
                return
            }
        }
        if let raw = o["id"] {
            guard let id else {
                self = .invalid(id: .null, error: .invalidRequest("\"id\" must be an integer or a string, not \(raw.serialized)"))
                return
            }
            self = .request(id: id, method: method, params: params)
        } else {
            self = .notification(method: method, params: params)
        }
    }
}

/// Builds outgoing messages.
enum Outgoing {
    static func result(_ id: RequestID, _ result: JSON) -> JSON {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    static func error(_ id: JSON, _ error: ResponseError) -> JSON {
        ["jsonrpc": "2.0", "id": id, "error": error.json]
    }

    static func notification(_ method: String, _ params: JSON) -> JSON {
        ["jsonrpc": "2.0", "method": .string(method), "params": params]
    }
}
