// HTTPClient: a plain TCP client for the studio's server tests — it sends exactly the bytes a
// test gives (garbage included), reads responses and event-stream blocks with deadlines, and
// tells a closed connection from a quiet one.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1 with read deadlines.
public final class HTTPClient {
    public let fd: Int32
    /// Bytes read and not yet consumed by `readResponse` / `readEvent`.
    public var buffer: [UInt8] = []
    /// Whether the server closed the connection (a read returned 0 or failed).
    public private(set) var closed = false

    public struct Failure: Error, CustomStringConvertible { public var description: String }

    /// Connects to `127.0.0.1:port`.
    public init(port: UInt16, host: String = "127.0.0.1") throws {
        // Close-on-exec: a process another test starts meanwhile must not inherit the connection
        // (it would hold it open after this client closes it).
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &addr.sin_addr)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Failure(description: "connect: \(String(cString: strerror(e)))")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends bytes (all of them, or until the server stops taking them); false if it failed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Sends text.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads what arrives within `timeout` seconds (returns at the first chunk); false at a deadline.
    @discardableResult
    public func readSome(timeout: Double) -> Bool {
        guard !closed else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let rc = poll(&p, 1, Int32(timeout * 1000))
        guard rc > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { closed = true; return false }
        buffer += chunk[0..<n]
        return true
    }

    /// Reads until `condition` holds for the buffer, the connection closes, or the deadline passes.
    public func read(until condition: ([UInt8]) -> Bool, timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition(buffer) {
            if closed || Date() > end { return condition(buffer) }
            readSome(timeout: max(0.001, end.timeIntervalSinceNow))
        }
        return true
    }

    /// Reads until the server closes the connection (or the deadline); true if it closed.
    public func readToEnd(timeout: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !closed && Date() < end { readSome(timeout: max(0.001, end.timeIntervalSinceNow)) }
        return closed
    }

    /// A response as read off the wire.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// Header fields, names lower-cased.
        public var headers: [String: String]
        /// The body.
        public var body: [UInt8]
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Reads one response (by Content-Length, or to the end of the connection). `head` is
    /// for a HEAD request: no body follows.
    public func readResponse(timeout: Double = 10, head: Bool = false) throws -> Response {
        let sep = Array("\r\n\r\n".utf8)
        guard read(until: { $0.firstRange(of: sep) != nil }, timeout: timeout), let r = buffer.firstRange(of: sep) else {
            throw Failure(description: "no response head within \(timeout) s; got \(String(decoding: buffer, as: UTF8.self).debugDescription)")
        }
        let headText = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(headText.debugDescription)")
        }
        var headers: [String: String] = [:]
        for l in lines {
            guard let colon = l.firstIndex(of: ":") else { continue }
            headers[l[..<colon].lowercased()] = l[l.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        buffer.removeFirst(r.upperBound)
        var body: [UInt8] = []
        if head || status == 204 {
        } else if let n = headers["content-length"].flatMap(Int.init) {
            guard read(until: { $0.count >= n }, timeout: timeout) else {
                throw Failure(description: "body shorter than \(n) bytes: \(buffer.count)")
            }
            body = Array(buffer[..<n])
            buffer.removeFirst(n)
        } else if headers["content-type"]?.hasPrefix("text/event-stream") != true {
            _ = readToEnd(timeout: timeout)
            body = buffer
            buffer = []
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// One event-stream block (up to a blank line), as its lines; nil at the deadline.
    public func readEventBlock(timeout: Double = 10) -> [String]? {
        let sep = Array("\n\n".utf8)
        guard read(until: { $0.firstRange(of: sep) != nil }, timeout: timeout), let r = buffer.firstRange(of: sep) else { return nil }
        let text = String(decoding: buffer[..<r.lowerBound], as: UTF8.self)
        buffer.removeFirst(r.upperBound)
        return text.components(separatedBy: "\n")
    }

    /// The next event (skipping comments and `retry:`), as (id, event, data); nil at the deadline.
    public func readEvent(timeout: Double = 10) -> (id: Int, event: String, data: String)? {
        let end = Date().addingTimeInterval(timeout)
        while let block = readEventBlock(timeout: max(0.001, end.timeIntervalSinceNow)) {
            var id: Int?, event = "message", data: [String] = []
            for line in block {
                if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data.append(String(line.dropFirst(6))) }
            }
            if let id { return (id, event, data.joined(separator: "\n")) }
        }
        return nil
    }
}

