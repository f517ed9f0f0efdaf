// HTTPRequest: one HTTP/1.1 request parsed from the bytes a connection has received so far
// (RFC 9112). The parser is strict where leniency has been a source of attacks — one space
// between the request line's parts, no whitespace before a header's colon, no line folding,
// no control characters, one Host, Content-Length and Transfer-Encoding never together — and
// bounded: the request line and headers together fit in `HTTPLimits.maxHeaderBytes`.

/// Bounds on what a request may be.
public struct HTTPLimits: Sendable {
    /// The request line and every header, terminators included. Larger: 431.
    public var maxHeaderBytes = 8 * 1024
    /// Header fields per request. More: 431.
    public var maxHeaderCount = 100
    /// A request body (none of the studio's routes takes one; small ones are read and dropped).
    /// Larger: 413.
    public var maxBodyBytes = 64 * 1024

    /// The defaults.
    public init() {}
}

/// A parsed request.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD`, ...
    public var method: String
    /// The request target as sent (`/scene.json?x=1`).
    public var target: String
    /// The path of the target, without the query (`/scene.json`).
    public var path: String
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    public var minorVersion: Int
    /// Header fields in order, names lower-cased.
    public var headers: [(name: String, value: String)]
    /// The authority the request is for: from an absolute-form target, else the Host header.
    public var authority: String?

    /// The first value of a header (name in any case).
    public func header(_ name: String) -> String? {
        let n = name.lowercased()
        return headers.first { $0.name == n }?.value
    }

    /// Whether the connection may carry another request after this one's response.
    public var keepAlive: Bool {
        let tokens = headers.filter { $0.name == "connection" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingSpaces } }
        if tokens.contains("close") { return false }
        return minorVersion >= 1
    }
}

/// What a buffer holds so far.
enum RequestParseResult {
    /// Not a whole request yet.
    case incomplete
    /// A request, and how many bytes of the buffer it took (headers and body).
    case request(HTTPRequest, consumed: Int)
    /// Not a request this server will read: the status to answer with and why.
    case failure(HTTPStatus, String)
}

/// Parses requests out of a connection's received bytes.
enum RequestParser {
    /// Parses the request at the start of `buffer`.
    static func parse(_ buffer: [UInt8], limits: HTTPLimits) -> RequestParseResult {
        // Blank lines before a request line are ignored (RFC 9112 §2.2).
        var start = 0
        while start < buffer.count, buffer[start] == 0x0D || buffer[start] == 0x0A { start += 1 }
        guard let headerEnd = endOfHeaders(buffer, from: start) else {
            if buffer.count - start > limits.maxHeaderBytes {
                return .failure(.requestHeaderFieldsTooLarge, "the request line and headers are larger than \(limits.maxHeaderBytes) bytes")
            }
            return .incomplete
        }
        if headerEnd - start > limits.maxHeaderBytes {
            return .failure(.requestHeaderFieldsTooLarge, "the request line and headers are larger than \(limits.maxHeaderBytes) bytes")
        }
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = start
        for k in start..<headerEnd where buffer[k] == 0x0A {
            var line = buffer[lineStart..<k]
            if line.last == 0x0D { line = line.dropLast() }
            lines.append(line)
            lineStart = k + 1
        }
        // The last line is the empty one that ends the headers.
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return .failure(.badRequest, "no request line") }
        guard lines.count - 1 <= limits.maxHeaderCount else {
            return .failure(.requestHeaderFieldsTooLarge, "more than \(limits.maxHeaderCount) header fields")
        }

        // MARK: request-line = method SP request-target SP HTTP-version
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(.badRequest, "the request line is not 'METHOD target HTTP/1.1'") }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { return .failure(.badRequest, "the method is not a token") }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(.badRequest, "the request target has spaces, control characters or non-ASCII bytes")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            let v = Array(parts[2])
            if v.count == 8, version.hasPrefix("HTTP/"), isDigit(v[5]), v[6] == 0x2E, isDigit(v[7]) {
                return .failure(.httpVersionNotSupported, "only HTTP/1.1 and HTTP/1.0 are served, not \(version)")
            }
            return .failure(.badRequest, "the request line does not end in an HTTP version")
        }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)

        // MARK: field-line = field-name ":" OWS field-value OWS
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == 0x20 || first == 0x09 { return .failure(.badRequest, "a header line is folded (starts with whitespace)") }
            guard let colon = line.firstIndex(of: 0x3A) else { return .failure(.badRequest, "a header line has no ':'") }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .failure(.badRequest, "a header name is empty or has characters a name cannot have")
            }
            var value = line[line.index(after: colon)...]
            while let b = value.first, b == 0x20 || b == 0x09 { value = value.dropFirst() }
            while let b = value.last, b == 0x20 || b == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 }) else {
                return .failure(.badRequest, "a header value has control characters")
            }
            headers.append((String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self)))
        }

        // MARK: the target's forms (RFC 9112 §3.2)
        var path: String
        var authority: String?
        if target.hasPrefix("/") {
            path = target
        } else if let rest = dropScheme(target) {
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<slash])
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
        } else if target == "*" {
            path = "*"
        } else {
            return .failure(.badRequest, "the request target is not a path")
        }
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }

        let hosts = headers.filter { $0.name == "host" }
        if hosts.count > 1 { return .failure(.badRequest, "more than one Host header") }
        if minor == 1 && hosts.isEmpty { return .failure(.badRequest, "an HTTP/1.1 request needs a Host header") }
        if let h = hosts.first?.value, !isAuthority(h) { return .failure(.badRequest, "the Host header is not a host name") }
        if authority == nil { authority = hosts.first?.value }

        // MARK: the body's length (RFC 9112 §6)
        let lengths = headers.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",").map { $0.trimmingSpaces } }
        let encodings = headers.filter { $0.name == "transfer-encoding" }
        if !encodings.isEmpty {
            if !lengths.isEmpty { return .failure(.badRequest, "both Content-Length and Transfer-Encoding") }
            return .failure(.notImplemented, "request bodies with a Transfer-Encoding are not accepted")
        }
        var bodyLength = 0
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.allSatisfy(isDigit) else {
                return .failure(.badRequest, "the Content-Length is not one whole number")
            }
            guard first.count <= 18, let n = Int(first), n <= limits.maxBodyBytes else {
                return .failure(.contentTooLarge, "the body is larger than \(limits.maxBodyBytes) bytes")
            }
            bodyLength = n
        }
        let consumed = headerEnd + bodyLength
        guard buffer.count >= consumed else { return .incomplete }
        let request = HTTPRequest(method: method, target: target, path: path, minorVersion: minor, headers: headers, authority: authority)
        return .request(request, consumed: consumed)
    }

    /// The index just after the empty line that ends the headers (CRLF CRLF, or bare LFs).
    static func endOfHeaders(_ b: [UInt8], from start: Int) -> Int? {
        var k = start
        while k < b.count {
            if b[k] == 0x0A {
                if k + 1 < b.count, b[k + 1] == 0x0A { return k + 2 }
                if k + 2 < b.count, b[k + 1] == 0x0D, b[k + 2] == 0x0A { return k + 3 }
            }
            k += 1
        }
        return nil
    }

    /// `http://host/path` → `host/path` (scheme in any case), else nil.
    static func dropScheme(_ target: String) -> Substring? {
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            return target.dropFirst(scheme.count)
        }
        return nil
    }

    /// tchar (RFC 9110 §5.6.2).
    static func isTokenByte(_ b: UInt8) -> Bool {
        isDigit(b) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// `host`, `host:port` or `[v6]:port`, in the characters of a URI authority.
    static func isAuthority(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { isDigit($0) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || "-._~%!$&'()*+,;=:[]".utf8.contains($0) }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
