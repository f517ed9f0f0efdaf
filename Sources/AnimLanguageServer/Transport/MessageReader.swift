// MessageReader: the base protocol's framing, bytes → messages. A frame is a header block
// (`Content-Length: N`, optionally `Content-Type`, each line ending in `\r\n`, the block
// ending with an empty line) and N bytes of UTF-8 JSON. Reads may split or join frames
// anywhere; the reader keeps what it has not used and asks for more.
//
// Resynchronisation. After a bad frame — no `Content-Length`, a value that is not a number, a
// length that is wrong — the reader goes on at the next `Content-Length:` header, so one bad
// frame costs one error, not the connection. It finds that header even inside a body whose
// stated length was too long: `Content-Length: N` followed by a line break cannot appear in
// valid JSON (outside a string the words are not JSON; inside one a raw line break is not
// allowed), so where it appears the frame before it was shorter than it said. The text before
// it is then read as that frame; and a body whose stated length was too short is read again
// with the bytes that follow it, up to the next header. So a frame with a wrong length is
// still answered when its JSON is whole, and the frames after it are always answered.

/// What the reader found in the input.
public enum IncomingFrame: Hashable, Sendable {
    /// A frame whose body is one JSON value.
    case message(JSON)
    /// Bytes that are not a message (bad header, invalid JSON or UTF-8), with the reason:
    /// JSON-RPC's parse error (-32700).
    case invalid(String)
}

/// Splits a byte stream into base-protocol frames.
public struct MessageReader: Sendable {
    /// The largest body accepted (a 256 MiB script, every byte escaped, fits).
    public static let maxContentLength = 1 << 30
    /// The longest header block accepted before the reader looks for the next header.
    public static let maxHeaderLength = 8192

    private var buffer: [UInt8] = []
    /// Where the unread bytes start in `buffer`.
    private var start = 0
    /// The body length of the frame whose header was read, while its body is awaited.
    private var pendingLength: Int?
    /// How far the pending body was searched for an embedded header.
    private var scanned = 0
    /// Whether the last thing reported was an error (the junk after it is not reported again).
    private var lastWasError = false

    /// An empty reader.
    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 1 << 16 && start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next frame, or nil when more bytes are needed.
    public mutating func next() -> IncomingFrame? {
        while true {
            if let length = pendingLength {
                guard let frame = body(length: length) else { return nil }
                return note(frame)
            }
            // Line breaks between frames are ignored.
            while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
            guard start < buffer.count else { return nil }
            switch header() {
            case .incomplete:
                return nil
            case .frame(let length, let bodyStart):
                start = bodyStart
                pendingLength = length
                scanned = bodyStart
            case .bad(let reason, let skipTo):
                start = skipTo
                return note(.invalid(reason))
            case .junk(let skipTo):
                let reported = lastWasError
                start = skipTo
                if !reported { return note(.invalid("bytes outside a frame: expected a 'Content-Length' header")) }
            }
        }
    }

    /// At the end of the stream: an error for a frame left unfinished, if any.
    public mutating func finish() -> IncomingFrame? {
        defer { start = buffer.count; pendingLength = nil }
        if pendingLength != nil { return .invalid("the input ended inside a message") }
        let rest = buffer[start...]
        if rest.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x0A && $0 != 0x09 }) {
            return .invalid("the input ended inside a header")
        }
        return nil
    }

    private mutating func note(_ frame: IncomingFrame) -> IncomingFrame {
        if case .invalid = frame { lastWasError = true } else { lastWasError = false }
        return frame
    }

    // MARK: - Headers

    private enum Header {
        case incomplete
        case frame(length: Int, bodyStart: Int)
        /// A header block that cannot be used; reading goes on at `skipTo`.
        case bad(String, skipTo: Int)
        /// Bytes that are not a header at all, up to `skipTo`.
        case junk(skipTo: Int)
    }

    /// Reads the header block at `start`.
    private func header() -> Header {
        var p = start
        var length: Int?
        var lengthText: String?
        var charset: String?
        while true {
            // One line: `Name: value` up to `\r\n` (a bare `\n` is accepted too).
            guard let eol = lineEnd(from: p) else {
                // Wait for the rest unless what is there cannot be the start of a header.
                if buffer.count - start > MessageReader.maxHeaderLength || !isHeaderPrefix(p..<buffer.count) {
                    return .junk(skipTo: nextHeader(from: start + 1))
                }
                return .incomplete
            }
            let line = p..<eol.textEnd
            if line.isEmpty {
                // The empty line that ends the block.
                if p == start { return .junk(skipTo: eol.next) }
                guard let lengthText else {
                    // Junk run into a header line (`garbageContent-Length: 12`) is junk.
                    if let k = find(MessageReader.contentLength, in: (start + 1)..<eol.next) { return .junk(skipTo: k) }
                    return .bad("a frame without a 'Content-Length' header", skipTo: nextHeader(from: eol.next))
                }
                guard let n = length else {
                    return .bad("bad Content-Length '\(lengthText)': expected the body's length in bytes, at most \(MessageReader.maxContentLength)",
                                skipTo: nextHeader(from: eol.next))
                }
                if let charset, charset != "utf-8" && charset != "utf8" {
                    // The body's length is known: skip it.
                    return .bad("unsupported charset '\(charset)': messages are UTF-8", skipTo: min(buffer.count, eol.next + n))
                }
                return .frame(length: n, bodyStart: eol.next)
            }
            guard let colon = buffer[line].firstIndex(of: UInt8(ascii: ":")), colon > line.lowerBound,
                  buffer[line.lowerBound..<colon].allSatisfy(isTokenByte),
                  buffer[(colon + 1)..<line.upperBound].allSatisfy({ $0 >= 0x20 && $0 < 0x7F || $0 == 0x09 }) else {
                return p == start ? .junk(skipTo: nextHeader(from: start + 1))
                                  : .bad("malformed header line", skipTo: nextHeader(from: start + 1))
            }
            let name = String(decoding: buffer[line.lowerBound..<colon], as: UTF8.self).lowercased()
            let value = trimmed(String(decoding: buffer[(colon + 1)..<line.upperBound], as: UTF8.self))
            switch name {
            case "content-length":
                lengthText = value
                if !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(value), n <= MessageReader.maxContentLength {
                    length = n
                } else {
                    length = nil
                }
            case "content-type":
                let lower = value.lowercased()
                if let r = lower.firstRange(of: "charset=") {
                    charset = trimmed(String(lower[r.upperBound...].prefix { $0 != ";" })).replacingQuotes()
                }
            default:
                break  // other headers are allowed and ignored
            }
            p = eol.next
        }
    }

    /// The end of the line starting at `p`: where its text ends and the next line starts.
    private func lineEnd(from p: Int) -> (textEnd: Int, next: Int)? {
        var q = p
        while q < buffer.count {
            if buffer[q] == 0x0A { return (q > p && buffer[q - 1] == 0x0D ? q - 1 : q, q + 1) }
            q += 1
        }
        return nil
    }

    /// Whether the bytes could begin a header block whose end has not arrived.
    private func isHeaderPrefix(_ range: Range<Int>) -> Bool {
        var sawColon = false
        for k in range {
            let c = buffer[k]
            if c == UInt8(ascii: ":") { sawColon = true; continue }
            if c == 0x0D && (k + 1 == range.upperBound) { continue }
            if !sawColon { if !isTokenByte(c) { return false } } else if c < 0x20 && c != 0x09 || c >= 0x7F { return false }
        }
        return true
    }

    private func isTokenByte(_ c: UInt8) -> Bool {
        c >= 0x30 && c <= 0x39 || (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }

    /// Where the next `Content-Length:` at or after `p` starts, or (none yet) where one could
    /// still start: the first of the last bytes that begin the words, else the end.
    private func nextHeader(from p: Int) -> Int {
        let p = min(p, buffer.count)
        if let k = find(MessageReader.contentLength, in: p..<buffer.count) { return k }
        return partialHeader(from: p) ?? buffer.count
    }

    /// The first offset at or after `p` from which the rest of the buffer is the beginning of
    /// `Content-Length:` (cut off by the end of what has come).
    private func partialHeader(from p: Int) -> Int? {
        let needle = MessageReader.contentLength
        for k in max(p, buffer.count - needle.count + 1)..<buffer.count {
            var j = 0
            while k + j < buffer.count, j < needle.count, (buffer[k + j] | (needle[j] >= 0x61 ? 0x20 : 0)) == needle[j] { j += 1 }
            if k + j == buffer.count { return k }
        }
        return nil
    }

    // MARK: - Bodies

    /// The frame whose header said `length` bytes, or nil until enough has arrived.
    private mutating func body(length: Int) -> IncomingFrame? {
        let available = buffer.count - start
        if available < length {
            // A header inside what has come: the stated length was too long.
            guard case .found(let k) = embeddedHeader(upTo: buffer.count) else { return nil }
            return misframed(headerAt: k)
        }
        let end = start + length
        let bodyBytes = buffer[start..<end]
        if let json = try? JSONParser.parse(bodyBytes) {
            pendingLength = nil
            start = end
            return .message(json)
        }
        switch embeddedHeader(upTo: end) {
        case .found(let k): return misframed(headerAt: k)
        // The body ends with what may be the start of the next header: wait for the rest.
        case .undecided: return nil
        case .none: break
        }
        pendingLength = nil
        // The stated length may have been too short: the body with what follows it, up to
        // the next header, may be the whole message.
        if end < buffer.count, !startsHeader(at: end) {
            let next = find(MessageReader.contentLength, in: end..<buffer.count) ?? buffer.count
            if let json = try? JSONParser.parse(buffer[start..<next]) {
                start = next
                return .message(json)
            }
        }
        let error = parseErrorText(bodyBytes)
        start = end
        return .invalid(error)
    }

    /// A frame whose body holds the next frame's header at `k`: the text before it is read as
    /// this frame, and reading goes on at the header.
    private mutating func misframed(headerAt k: Int) -> IncomingFrame {
        let prefix = buffer[start..<k]
        pendingLength = nil
        start = k
        if let json = try? JSONParser.parse(prefix) { return .message(json) }
        return .invalid("the frame's Content-Length was wrong: " + parseErrorText(prefix))
    }

    private enum Embedded {
        case found(Int)
        /// Not found yet, but what has come ends where one may be starting.
        case undecided
        case none
    }

    /// The first `Content-Length: N` header line starting inside the pending body before
    /// `limit`, if any. Each byte is searched once however the body arrives.
    private mutating func embeddedHeader(upTo limit: Int) -> Embedded {
        let needle = MessageReader.contentLength
        var from = max(scanned, start)
        // A header may start before `limit` and run past it.
        let searchEnd = min(buffer.count, limit + needle.count - 1)
        while from < limit, let k = find(needle, in: from..<searchEnd) {
            // `Content-Length:`, spaces, digits, spaces, a line break.
            var q = k + needle.count
            while q < buffer.count, buffer[q] == 0x20 || buffer[q] == 0x09 { q += 1 }
            let digits = q
            while q < buffer.count, buffer[q] >= 0x30 && buffer[q] <= 0x39 { q += 1 }
            let sawDigits = q > digits
            while q < buffer.count, buffer[q] == 0x20 || buffer[q] == 0x09 { q += 1 }
            if q == buffer.count {
                // The line has not ended yet: look here again when more arrives.
                scanned = k
                return .undecided
            }
            if sawDigits, buffer[q] == 0x0D || buffer[q] == 0x0A { return .found(k) }
            from = k + 1
        }
        if let k = partialHeader(from: from), k < limit {
            scanned = k
            return .undecided
        }
        scanned = max(start, min(limit, buffer.count - needle.count + 1))
        return .none
    }

    /// Whether what follows `p` (after line breaks) starts like a header line, `Name:` — or
    /// nothing has come yet to tell.
    private func startsHeader(at p: Int) -> Bool {
        var q = p
        while q < buffer.count, buffer[q] == 0x0D || buffer[q] == 0x0A { q += 1 }
        var r = q
        while r < buffer.count, isTokenByte(buffer[r]) { r += 1 }
        if r == buffer.count { return true }
        return r > q && buffer[r] == UInt8(ascii: ":")
    }

    private func parseErrorText(_ bytes: ArraySlice<UInt8>) -> String {
        do { _ = try JSONParser.parse(bytes); return "invalid JSON" } catch {
            return "invalid JSON: \(error.message) at byte \(error.offset - bytes.startIndex)"
        }
    }

    /// `content-length:` in lowercase; matched without regard to case.
    private static let contentLength = Array("content-length:".utf8)

    /// The first offset in `range` where `needle` starts (ASCII letters matched in either case;
    /// `needle` in lowercase). It looks for the needle's last byte (for `content-length:` the
    /// colon, rare in a script) through a buffer pointer and compares backwards from there:
    /// every body is searched once, and byte by byte through the array its 312 KB cost 2.5 M
    /// instructions.
    private func find(_ needle: [UInt8], in range: Range<Int>) -> Int? {
        guard range.count >= needle.count else { return nil }
        let n = needle.count
        func fold(_ c: UInt8) -> UInt8 { c >= 0x61 && c <= 0x7A ? 0x20 : 0 }
        let last = needle[n - 1], lastFold = fold(last)
        return buffer.withUnsafeBufferPointer { b -> Int? in
            var q = range.lowerBound + n - 1
            while q < range.upperBound {
                if b[q] | lastFold == last {
                    let k = q - (n - 1)
                    var j = 0
                    while j < n - 1, b[k + j] | fold(needle[j]) == needle[j] { j += 1 }
                    if j == n - 1 { return k }
                }
                q += 1
            }
            return nil
        }
    }
}

private func trimmed(_ s: String) -> String {
    var t = Substring(s)
    while let c = t.first, c == " " || c == "\t" { t = t.dropFirst() }
    while let c = t.last, c == " " || c == "\t" { t = t.dropLast() }
    return String(t)
}

private extension String {
    func replacingQuotes() -> String { String(filter { $0 != "\"" }) }
}
