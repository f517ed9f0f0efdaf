// ServerSentEvent: one event of a `text/event-stream` (HTML Living Standard, "Server-sent
// events", §9.2): `id:`, `event:` and one `data:` line per line of the data, ended by a blank
// line. The id is the event's place in the server's sequence; a client that reconnects sends
// the last one it saw as `Last-Event-ID`.

/// An event as sent to event-stream clients.
public struct ServerSentEvent: Hashable, Sendable {
    /// Its number: 1, 2, 3, ... in the order published.
    public var id: Int
    /// Its type (`scene`, `diagnostics`): what `addEventListener` listens for.
    public var event: String
    /// Its data (may hold newlines; each line becomes a `data:` line).
    public var data: String

    /// Creates an event.
    public init(id: Int, event: String, data: String) {
        self.id = id
        self.event = event
        self.data = data
    }

    /// The bytes on the stream.
    public var encoded: [UInt8] {
        var s = "id: \(id)\nevent: \(event)\n"
        // A CR, LF or CRLF ends a line of the stream, so each line of the data is its own field.
        let lines = data.replacingCRLF.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { s += "data: \(line)\n" }
        s += "\n"
        return Array(s.utf8)
    }
}

extension String {
    /// CRLF and lone CR as LF.
    var replacingCRLF: String {
        var out = ""
        out.reserveCapacity(utf8.count)
        var lastCR = false
        for ch in unicodeScalars {
            if ch == "\r" { out += "\n"; lastCR = true; continue }
            if ch == "\n" && lastCR { lastCR = false; continue }
            lastCR = false
            out.unicodeScalars.append(ch)
        }
        return out
    }
}
