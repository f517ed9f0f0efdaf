// HTTPResponse: a status, header fields and a body, written out as HTTP/1.1 bytes. Every
// response carries Content-Length (except an event stream, which has no end), Date, and
// `X-Content-Type-Options: nosniff`, so a browser never guesses a type the server did not say.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP status code and its reason phrase.
public struct HTTPStatus: Hashable, Sendable {
    /// The code (200).
    public var code: Int
    /// The reason phrase (`OK`).
    public var reason: String

    public static let ok = HTTPStatus(code: 200, reason: "OK")
    public static let noContent = HTTPStatus(code: 204, reason: "No Content")
    public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
    public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
    public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
    public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
    public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
    public static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431, reason: "Request Header Fields Too Large")
    public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
    public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
    public static let httpVersionNotSupported = HTTPStatus(code: 505, reason: "HTTP Version Not Supported")

    /// Whether the connection must close after this status: the request could not be framed
    /// (so where the next one starts is unknown), or it was refused outright.
    var closesConnection: Bool { [400, 408, 413, 431, 501, 503, 505].contains(code) }
}

/// A response to send.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields besides the ones every response gets.
    public var headers: [(name: String, value: String)]
    /// The body (not sent for HEAD).
    public var body: [UInt8]

    /// A response with a body of a given type.
    public init(_ status: HTTPStatus = .ok, contentType: String? = nil, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = (contentType.map { [("Content-Type", $0)] } ?? []) + headers
        self.body = body
    }

    /// A plain-text response: `404 Not Found` and a line saying why.
    public static func text(_ status: HTTPStatus, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status, contentType: "text/plain; charset=utf-8", headers: headers, body: Array((text + "\n").utf8))
    }

    /// The bytes on the wire. `head` leaves the body out (a HEAD request); `close` adds
    /// `Connection: close`.
    func serialized(head: Bool, close: Bool) -> [UInt8] {
        var s = "HTTP/1.1 \(status.code) \(status.reason)\r\n"
        s += "Date: \(HTTPDate.now())\r\nServer: anim\r\nX-Content-Type-Options: nosniff\r\n"
        for h in headers { s += "\(h.name): \(h.value)\r\n" }
        // A 204 has no body and must not say how long it is (RFC 9110 §8.6).
        if status.code != 204 { s += "Content-Length: \(body.count)\r\n" }
        if close { s += "Connection: close\r\n" }
        s += "\r\n"
        var out = Array(s.utf8)
        if !head { out += body }
        return out
    }

    /// The head of a response with no length (an event stream): it ends when the connection does.
    static func streamHead(contentType: String, headers: [(name: String, value: String)]) -> [UInt8] {
        var s = "HTTP/1.1 200 OK\r\nDate: \(HTTPDate.now())\r\nServer: anim\r\nX-Content-Type-Options: nosniff\r\n"
        s += "Content-Type: \(contentType)\r\n"
        for h in headers { s += "\(h.name): \(h.value)\r\n" }
        s += "\r\n"
        return Array(s.utf8)
    }
}

/// The IMF-fixdate of RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    static func now() -> String {
        var t = time(nil)
        var tm = tm()
        gmtime_r(&t, &tm)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(tm.tm_wday)]), \(two(tm.tm_mday)) \(months[Int(tm.tm_mon)]) \(tm.tm_year + 1900) "
            + "\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec)) GMT"
    }
}
