// HTTPServer: a small HTTP/1.1 server on an EventLoop, made to be left running. It serves only
// the routes its handler knows (it never maps a path to a file), and every way a client can
// misbehave ends in a status and a closed connection, never a crash or a stuck loop:
//
// - a request that is not HTTP/1.x → 400 (or 505 for another version, 501 for a
//   Transfer-Encoding body);
// - a request line and headers over `HTTPLimits.maxHeaderBytes` → 431; a body over
//   `maxBodyBytes` → 413;
// - a request not complete within `requestTimeout` of its first byte (or of the connection's
//   start, or of the previous response) → 408;
// - a Host that is not this machine's, while bound to a loopback address → 403 (DNS rebinding:
//   a web page whose name resolves to 127.0.0.1 must not read the studio);
// - more than `maxConnections` open → 503 at once;
// - a response the client does not read within `writeTimeout` → closed; an event stream whose
//   unsent events pass `maxPendingStreamBytes` → closed (a dead or stalled client).
//
// Connections stay open between requests (keep-alive) unless a side says `close`. A connection
// closed after an error is shut down for writing first and drained for a moment ("lingering
// close"), so the client reads the status before the socket goes.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the server behaves.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind: loopback by default.
    public var host = "127.0.0.1"
    /// The port (0: the system picks one).
    public var port: UInt16 = 7878
    /// Bounds on requests.
    public var limits = HTTPLimits()
    /// Nanoseconds a request may take to arrive in full.
    public var requestTimeout: Int64 = 10_000_000_000
    /// Nanoseconds a response may sit unread before the connection is dropped.
    public var writeTimeout: Int64 = 30_000_000_000
    /// Open connections at most, event streams included; the rest get 503.
    public var maxConnections = 64
    /// Nanoseconds between heartbeat comments on event streams.
    public var heartbeatInterval: Int64 = 15_000_000_000
    /// The reconnection delay event-stream clients are told (`retry:`), in milliseconds.
    public var retryMilliseconds = 1000
    /// Unsent event-stream bytes at most per client before it is dropped.
    public var maxPendingStreamBytes = 4 << 20
    /// Nanoseconds a connection closed after an error is drained before it is closed.
    public var lingerTimeout: Int64 = 2_000_000_000

    /// The defaults.
    public init() {}
}

/// What the server does with a request.
public enum HTTPRoute: Sendable {
    /// Send this response.
    case respond(HTTPResponse)
    /// Keep the connection open as a Server-Sent Events stream.
    case eventStream
}

/// The server.
public final class HTTPServer {
    /// The configuration it was made with.
    public let configuration: HTTPServerConfiguration
    /// The listening socket.
    public let listener: Listener
    /// The URL of `/`.
    public var url: String { listener.url }
    /// Connections open now (event streams included).
    public var connectionCount: Int { connections.count }
    /// Event-stream clients connected now.
    public var streamCount: Int { connections.values.filter { $0.state == .streaming }.count }
    /// The last event published: what a new or reconnecting client gets first.
    public private(set) var currentEvent: ServerSentEvent?

    private let loop: EventLoop
    private let handler: (HTTPRequest) -> HTTPRoute
    private var listenToken: EventLoop.Token?
    private var connections: [Int32: Connection] = [:]
    private var heartbeat: EventLoop.Token?
    private var nextEventID = 1

    /// Binds and starts serving on `loop`; `handler` answers every well-formed request.
    public init(configuration: HTTPServerConfiguration, loop: EventLoop,
                handler: @escaping (HTTPRequest) -> HTTPRoute) throws(Listener.Failure) {
        self.configuration = configuration
        self.loop = loop
        self.handler = handler
        listener = try Listener(host: configuration.host, port: configuration.port)
        listenToken = loop.add(fd: listener.fd) { [unowned self] _ in acceptAll() }
        scheduleHeartbeat()
    }

    deinit { shutDown() }

    /// Stops listening and closes every connection.
    public func shutDown() {
        if let t = listenToken { loop.remove(t); listenToken = nil }
        if let h = heartbeat { loop.cancel(h); heartbeat = nil }
        for c in Array(connections.values) { drop(c) }
    }

    // MARK: - Events

    /// Sends an event to every event-stream client and keeps it as the current state.
    @discardableResult
    public func publish(event: String, data: String) -> ServerSentEvent {
        let e = ServerSentEvent(id: nextEventID, event: event, data: data)
        nextEventID += 1
        currentEvent = e
        let bytes = e.encoded
        for c in Array(connections.values) where c.state == .streaming { send(bytes, to: c) }
        return e
    }

    private func scheduleHeartbeat() {
        heartbeat = loop.after(configuration.heartbeatInterval) { [unowned self] in
            // A comment line: ignored by EventSource, but a write that fails or piles up
            // unread tells a dead client from a quiet one.
            let ping = Array(": heartbeat\n\n".utf8)
            for c in Array(connections.values) where c.state == .streaming { send(ping, to: c) }
            scheduleHeartbeat()
        }
    }

    // MARK: - Accepting

    private func acceptAll() {
        while true {
            let fd = accept(listener.fd, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                if errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: stop accepting for a moment instead of spinning.
                    if let t = listenToken { loop.setInterest(t, read: false, write: false) }
                    loop.after(100_000_000) { [weak self] in
                        guard let self, let t = self.listenToken else { return }
                        self.loop.setInterest(t, read: true, write: false)
                    }
                }
                return
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if connections.count >= configuration.maxConnections {
                refuse(fd)
                continue
            }
            let c = Connection(fd: fd)
            connections[fd] = c
            c.token = loop.add(fd: fd) { [unowned self, unowned c] r in ready(c, r) }
            startReading(c)
        }
    }

    /// Answers 503 on a connection over the limit, without reading it, and closes it.
    private func refuse(_ fd: Int32) {
        let r = HTTPResponse.text(.serviceUnavailable, "too many connections (at most \(configuration.maxConnections)); try again",
                                  headers: [("Retry-After", "1")])
        let bytes = r.serialized(head: false, close: true)
        _ = bytes.withUnsafeBytes { sendBytes(fd, $0.baseAddress!, $0.count) }
        shutdown(fd, Int32(SHUT_WR))
        close(fd)
    }

    // MARK: - One connection

    private func ready(_ c: Connection, _ r: EventLoop.Readiness) {
        if r.readable { receive(c) }
        guard connections[c.fd] === c else { return }
        if r.writable && c.pendingOutput { flush(c) }
    }

    private func startReading(_ c: Connection) {
        c.state = .reading
        setTimer(c, configuration.requestTimeout) { [unowned self] in
            // Nothing or part of a request in time: say so, then close.
            respond(c, .text(.requestTimeout, "the request did not arrive within \(configuration.requestTimeout / 1_000_000_000) s"),
                    head: false, close: true)
        }
        updateInterest(c)
    }

    private func receive(_ c: Connection) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // Never hold more than a request can be; beyond that the parser has already failed.
        let cap = configuration.limits.maxHeaderBytes + configuration.limits.maxBodyBytes + chunk.count
        var sawEnd = false
        // At most 16 reads per turn: a client that sends without pause must not keep the loop
        // from everyone else.
        for _ in 0..<16 {
            let n = chunk.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                drop(c)  // reset by the peer
                return
            }
            if n == 0 { sawEnd = true; break }
            // Bytes that come while a response is queued, on a stream, or while draining are
            // kept only up to the cap (a pipelined request), or dropped.
            if c.state == .draining || c.state == .streaming { continue }
            if c.input.count < cap { c.input.append(contentsOf: chunk[0..<n]) }
            if c.input.count >= cap { break }
        }
        if sawEnd {
            c.peerClosed = true
            switch c.state {
            case .draining, .streaming:
                drop(c)
                return
            case .reading where c.input.isEmpty:
                drop(c)
                return
            default:
                break
            }
        }
        if c.state == .reading { process(c) }
        if sawEnd, connections[c.fd] === c, c.state == .reading {
            // The peer finished sending with half a request: no answer can be framed.
            drop(c)
        }
    }

    /// Handles the request at the start of the input, if it is complete.
    private func process(_ c: Connection) {
        switch RequestParser.parse(c.input, limits: configuration.limits) {
        case .incomplete:
            return
        case .failure(let status, let why):
            c.input = []
            respond(c, .text(status, why), head: false, close: true)
        case .request(let request, let consumed):
            c.input.removeFirst(consumed)
            let head = request.method == "HEAD"
            // No Host at all (HTTP/1.0) is no browser's request, so not a rebinding attack.
            if listener.isLoopback, let authority = request.authority, !Self.isLocal(authority: authority) {
                respond(c, .text(.forbidden, "this server answers only requests for localhost or 127.0.0.1, not '\(authority)'"),
                        head: head, close: !request.keepAlive)
                return
            }
            switch handler(request) {
            case .respond(let response):
                respond(c, response, head: head, close: !request.keepAlive || response.status.closesConnection)
            case .eventStream:
                startStream(c)
            }
        }
    }

    /// Queues a response; the connection closes after it, or reads the next request.
    private func respond(_ c: Connection, _ response: HTTPResponse, head: Bool, close: Bool) {
        guard connections[c.fd] === c else { return }
        c.state = .writing(closeAfter: close || c.peerClosed)
        c.output += response.serialized(head: head, close: close)
        flush(c)
    }

    private func startStream(_ c: Connection) {
        cancelTimer(c)
        c.state = .streaming
        var bytes = HTTPResponse.streamHead(contentType: "text/event-stream; charset=utf-8",
                                            headers: [("Cache-Control", "no-store"), ("Connection", "keep-alive")])
        bytes += Array("retry: \(configuration.retryMilliseconds)\n\n".utf8)
        // The current state at once, whatever Last-Event-ID the client sends: a player needs
        // where things are now, not a replay of what it missed.
        if let e = currentEvent { bytes += e.encoded }
        send(bytes, to: c)
    }

    private func send(_ bytes: [UInt8], to c: Connection) {
        if c.state == .streaming, c.output.count - c.written + bytes.count > configuration.maxPendingStreamBytes {
            drop(c)  // it does not read: dead, or stalled for good
            return
        }
        c.output += bytes
        flush(c)
    }

    /// Writes what the socket takes now; continues when the connection is writable again.
    private func flush(_ c: Connection) {
        while c.written < c.output.count {
            let n = c.output.withUnsafeBytes { sendBytes(c.fd, $0.baseAddress! + c.written, $0.count - c.written) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                drop(c)  // EPIPE, ECONNRESET: the client is gone
                return
            }
            c.written += n
            c.lastProgress = MonotonicClock.now()
        }
        if c.written == c.output.count {
            c.output = []
            c.written = 0
            if c.timerKind == .write { cancelTimer(c) }
            if case .writing(let closeAfter) = c.state {
                if closeAfter { linger(c); return }
                startReading(c)
                if c.peerClosed && c.input.isEmpty { drop(c); return }
                // A pipelined request: handled on the next turn of the loop, not recursively.
                if !c.input.isEmpty {
                    loop.after(0) { [weak self, weak c] in
                        guard let self, let c, self.connections[c.fd] === c, c.state == .reading else { return }
                        self.process(c)
                        if c.peerClosed, self.connections[c.fd] === c, c.state == .reading { self.drop(c) }
                    }
                }
                return
            }
        } else {
            if c.written > 1 << 20 {
                c.output.removeFirst(c.written)
                c.written = 0
            }
            if c.timer == nil || c.timerKind != .write { armWriteTimer(c, after: configuration.writeTimeout) }
        }
        updateInterest(c)
    }

    /// Drops the connection if its queued output makes no progress for `writeTimeout`.
    private func armWriteTimer(_ c: Connection, after delay: Int64) {
        setTimer(c, delay, kind: .write) { [unowned self] in
            guard c.pendingOutput else { return }
            let idle = MonotonicClock.now() - c.lastProgress
            if idle >= configuration.writeTimeout { drop(c) } else { armWriteTimer(c, after: configuration.writeTimeout - idle) }
        }
    }

    /// Closes for writing, then reads and drops what the client still sends for a moment, so
    /// the status is read rather than lost to a reset.
    private func linger(_ c: Connection) {
        c.state = .draining
        shutdown(c.fd, Int32(SHUT_WR))
        if c.peerClosed { drop(c); return }
        setTimer(c, configuration.lingerTimeout) { [unowned self] in drop(c) }
        updateInterest(c)
    }

    private func updateInterest(_ c: Connection) {
        guard let t = c.token else { return }
        // While a response is queued, the next request waits in the socket (read interest off);
        // streams and draining connections read only to notice the end.
        let read: Bool
        switch c.state {
        case .reading, .streaming, .draining: read = true
        case .writing: read = false
        }
        loop.setInterest(t, read: read, write: c.pendingOutput)
    }

    private func setTimer(_ c: Connection, _ delay: Int64, kind: Connection.TimerKind = .request, _ action: @escaping () -> Void) {
        cancelTimer(c)
        c.timerKind = kind
        c.timer = loop.after(delay) { [weak self, weak c] in
            guard let self, let c, self.connections[c.fd] === c else { return }
            c.timer = nil
            action()
        }
    }

    private func cancelTimer(_ c: Connection) {
        if let t = c.timer { loop.cancel(t); c.timer = nil }
    }

    private func drop(_ c: Connection) {
        guard connections[c.fd] === c else { return }
        cancelTimer(c)
        if let t = c.token { loop.remove(t) }
        connections[c.fd] = nil
        close(c.fd)
    }

    // MARK: - Host check

    /// Whether an authority (`localhost:7878`, `127.0.0.1`, `[::1]:80`) names this machine.
    static func isLocal(authority: String?) -> Bool {
        guard var a = authority?.lowercased(), !a.isEmpty else { return false }
        var host: String
        if a.hasPrefix("[") {
            guard let close = a.firstIndex(of: "]") else { return false }
            host = String(a[a.index(after: a.startIndex)..<close])
            a = String(a[a.index(after: close)...])
            guard a.isEmpty || (a.hasPrefix(":") && a.dropFirst().allSatisfy(\.isNumber)) else { return false }
            return host == "::1"
        }
        if let colon = a.lastIndex(of: ":") {
            guard a[a.index(after: colon)...].allSatisfy(\.isNumber) else { return false }
            host = String(a[..<colon])
        } else {
            host = a
        }
        if host.hasSuffix(".") { host.removeLast() }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { o in
            !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isNumber) && Int(o)! <= 255
        }
    }
}

/// Sends without raising SIGPIPE on a closed socket.
private func sendBytes(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return send(fd, p, n, Int32(MSG_NOSIGNAL))
    #else
    return send(fd, p, n, 0)  // SO_NOSIGPIPE is set on the socket
    #endif
}

/// One client connection.
final class Connection {
    enum State: Equatable {
        /// Waiting for (the rest of) a request.
        case reading
        /// A response is being written.
        case writing(closeAfter: Bool)
        /// An event stream: events are written as they come.
        case streaming
        /// Closed for writing after an error, reading until the client closes.
        case draining
    }
    enum TimerKind { case request, write }

    let fd: Int32
    var token: EventLoop.Token?
    var state = State.reading
    var input: [UInt8] = []
    var output: [UInt8] = []
    var written = 0
    var lastProgress = MonotonicClock.now()
    var timer: EventLoop.Token?
    var timerKind = TimerKind.request
    /// The client has finished sending (read returned 0).
    var peerClosed = false

    init(fd: Int32) { self.fd = fd }

    var pendingOutput: Bool { written < output.count }
}
