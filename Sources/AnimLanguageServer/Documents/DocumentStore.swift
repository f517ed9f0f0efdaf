// DocumentStore: the documents the client has open, as it last described them
// (`textDocument/didOpen`, `didChange`, `didClose`). Sync is incremental: a change with a
// range replaces that range, one without replaces the whole text (LSP allows both in one
// notification), so a client that sends whole texts works too.

/// One open document.
public struct TextDocument: Sendable {
    /// Its URI, as the client wrote it (URIs are compared as strings).
    public var uri: String
    /// The client's language id (`anim`).
    public var languageId: String
    /// The client's version number, which grows with every change.
    public var version: Int
    /// Its text.
    public var text: DocumentText
}

/// What went wrong applying a notification to the store (logged: notifications get no answer).
struct DocumentError: Error, CustomStringConvertible {
    var description: String
}

/// The open documents by URI.
struct DocumentStore {
    private(set) var documents: [String: TextDocument] = [:]

    subscript(uri: String) -> TextDocument? { documents[uri] }

    /// `textDocument/didOpen`: `{textDocument: {uri, languageId, version, text}}`.
    mutating func open(_ params: JSON?) throws(DocumentError) -> TextDocument {
        let item = params?["textDocument"]
        guard let uri = item?["uri"]?.string, let text = item?["text"]?.string else {
            throw DocumentError(description: "didOpen needs textDocument.uri and textDocument.text")
        }
        let doc = TextDocument(uri: uri, languageId: item?["languageId"]?.string ?? "anim",
                               version: item?["version"]?.int ?? 0, text: DocumentText(text))
        documents[uri] = doc
        return doc
    }

    /// `textDocument/didChange`: `{textDocument: {uri, version}, contentChanges: [{range?, text}]}`,
    /// the changes applied in order.
    mutating func change(_ params: JSON?, encoding: PositionEncoding) throws(DocumentError) -> TextDocument {
        guard let uri = params?["textDocument"]?["uri"]?.string else {
            throw DocumentError(description: "didChange needs textDocument.uri")
        }
        guard var doc = documents[uri] else { throw DocumentError(description: "didChange for \(uri), which is not open") }
        guard let changes = params?["contentChanges"]?.array else {
            throw DocumentError(description: "didChange needs contentChanges")
        }
        for change in changes {
            guard let text = change["text"]?.string else { throw DocumentError(description: "a content change needs text") }
            if let r = change["range"] {
                guard let range = TextRange(json: r) else { throw DocumentError(description: "a content change has a bad range") }
                doc.text = doc.text.replacing(range, with: text, encoding: encoding)
            } else {
                doc.text = DocumentText(text)
            }
        }
        if let v = params?["textDocument"]?["version"]?.int { doc.version = v } else { doc.version += 1 }
        documents[uri] = doc
        return doc
    }

    /// `textDocument/didClose`: `{textDocument: {uri}}`; returns the URI closed.
    mutating func close(_ params: JSON?) throws(DocumentError) -> String {
        guard let uri = params?["textDocument"]?["uri"]?.string else {
            throw DocumentError(description: "didClose needs textDocument.uri")
        }
        documents[uri] = nil
        return uri
    }
}
