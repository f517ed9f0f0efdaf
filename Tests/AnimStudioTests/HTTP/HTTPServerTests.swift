// The HTTP server over real sockets, treated as a hostile client would: garbage, huge headers,
// a request that never ends, paths that climb out of the root, a Host that is not this
// machine, too many connections, a client that never reads. After each, the server must still
// answer a plain request: nothing crashes, nothing hangs.
@testable import AnimStudio
import AnimTestSupport
import Foundation
import Testing

@Suite("HTTP server over sockets")
struct HTTPServerTests {
    /// A well-formed request for `path`.
    static func get(_ path: String, host: String = "127.0.0.1", extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n\(extra)\r\n"
    }

    /// The server still answers a plain request.
    static func stillServes(_ h: ServerHarness, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let c = try HTTPClient(port: h.port)
        c.send(get("/"))
        let r = try c.readResponse()
        #expect(r.status == 200 && r.text == "hello\n", sourceLocation: sourceLocation)
    }

    /// Sends `bytes` and reads the one response that must come, then the close.
    static func answer(_ h: ServerHarness, _ bytes: [UInt8]) throws -> (HTTPClient.Response, closed: Bool) {
        let c = try HTTPClient(port: h.port)
        c.send(bytes)
        let r = try c.readResponse()
        return (r, c.readToEnd(timeout: 3))
    }

    @Test func aRequestGetsItsResponseAndTheConnectionStaysOpen() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let c = try HTTPClient(port: h.port)
        for _ in 0..<3 {
            c.send(Self.get("/"))
            let r = try c.readResponse()
            #expect(r.status == 200)
            #expect(r.text == "hello\n")
            #expect(r.headers["content-length"] == "6")
            #expect(r.headers["x-content-type-options"] == "nosniff")
            #expect(r.headers["date"]?.hasSuffix(" GMT") == true)
        }
        c.send("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.headers["content-length"] == "6" && head.body.isEmpty)
        // Connection: close is honoured.
        c.send(Self.get("/", extra: "Connection: close\r\n"))
        #expect(try c.readResponse().status == 200)
        #expect(c.readToEnd(timeout: 3))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let c = try HTTPClient(port: h.port)
        c.send(Self.get("/") + Self.get("/nope") + Self.get("/"))
        #expect(try c.readResponse().status == 200)
        #expect(try c.readResponse().status == 404)
        #expect(try c.readResponse().status == 200)
    }

    @Test func garbageGets400AndIsClosed() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let cases: [String] = [
            "hello\r\n\r\n",
            "GET /\r\n\r\n",                                     // HTTP/0.9
            "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",                 // two spaces
            "GET / HTTP/1.1\r\nHost : a\r\n\r\n",                 // space before the colon
            "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",       // obsolete line folding
            "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
            "GET / HTTP/1.1\r\n\r\n",                             // no Host
            "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",       // two Hosts
            "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nX: \u{01}\r\n\r\n",     // a control character
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET relative HTTP/1.1\r\nHost: a\r\n\r\n",
            "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n\r\n",  // a TLS ClientHello
        ]
        for text in cases {
            let (r, closed) = try Self.answer(h, Array(text.utf8))
            #expect(r.status == 400, "for \(text.debugDescription): \(r.status) \(r.text)")
            #expect(closed, "still open after \(text.debugDescription)")
        }
        let (binary, closed) = try Self.answer(h, (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7919) } + Array("\r\n\r\n".utf8))
        #expect(binary.status == 400 && closed)
        try Self.stillServes(h)
    }

    @Test func otherVersionsAndEncodingsAreRefused() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        #expect(try Self.answer(h, Array("GET / HTTP/2.0\r\nHost: a\r\n\r\n".utf8)).0.status == 505)
        #expect(try Self.answer(h, Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8)).0.status == 501)
        // HTTP/1.0 (no Host needed, so none to check) is answered, and closed after the response.
        let (r, closed) = try Self.answer(h, Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(r.status == 200 && closed)
    }

    @Test func hugeHeadersGet431AndAHugeBody413() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "x", count: 100_000))\r\n\r\n"
        let (r1, c1) = try Self.answer(h, Array(big.utf8))
        #expect(r1.status == 431 && c1)
        // Headers that never end, past the limit: 431 before the end ever comes.
        let c = try HTTPClient(port: h.port)
        c.send("GET / HTTP/1.1\r\nHost: a\r\n")
        for _ in 0..<200 where !c.closed { c.send("X-Filler: \(String(repeating: "y", count: 100))\r\n") }
        let r2 = try c.readResponse()
        #expect(r2.status == 431)
        let many = "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<150).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
        #expect(try Self.answer(h, Array(many.utf8)).0.status == 431)
        let body = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000\r\n\r\n"
        let (r3, c3) = try Self.answer(h, Array(body.utf8))
        #expect(r3.status == 413 && c3)
        let absurd = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n"
        #expect(try Self.answer(h, Array(absurd.utf8)).0.status == 413)
        // A small body is read and dropped; the connection goes on.
        let small = try HTTPClient(port: h.port)
        small.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nabcde" + Self.get("/"))
        #expect(try small.readResponse().status == 200)
        #expect(try small.readResponse().status == 200)
        try Self.stillServes(h)
    }

    @Test func aRequestThatNeverEndsGets408AndIsClosed() throws {
        let h = try ServerHarness { $0.requestTimeout = 300_000_000 }
        defer { h.stop() }
        let started = Date()
        let c = try HTTPClient(port: h.port)
        c.send("GET / HTTP/1.1\r\nHost: a\r\n")  // and nothing more
        // A slow client trickling bytes does not reset the clock.
        for _ in 0..<3 { Thread.sleep(forTimeInterval: 0.05); c.send("X-Slow: 1\r\n") }
        let r = try c.readResponse(timeout: 5)
        #expect(r.status == 408)
        #expect(c.readToEnd(timeout: 3))
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.29 && waited < 3, "408 after \(waited) s")
        // A connection that sends nothing at all is closed the same way.
        let silent = try HTTPClient(port: h.port)
        #expect(try silent.readResponse(timeout: 5).status == 408)
        try Self.stillServes(h)
    }

    @Test func onlyItsOwnRoutesAreServed() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        for path in ["/../../etc/passwd", "/..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/./", "/index.html/.."] {
            let (r, _) = try Self.answer(h, Array((Self.get(path, extra: "Connection: close\r\n")).utf8))
            #expect(r.status == 404, "\(path): \(r.status)")
            #expect(!r.text.contains("root:"), "\(path) served a file")
        }
        // The path is matched without its query.
        let c = try HTTPClient(port: h.port)
        c.send(Self.get("/?x=../../etc/passwd"))
        #expect(try c.readResponse().status == 200)
    }

    @Test func aHostThatIsNotThisMachineGets403() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        for host in ["evil.example", "evil.example:\(h.port)", "127.0.0.1.evil.example", "localhost.evil.example", "[::2]:80", "0.0.0.0", "10.0.0.1"] {
            let c = try HTTPClient(port: h.port)
            c.send(Self.get("/", host: host))
            let r = try c.readResponse()
            #expect(r.status == 403, "Host: \(host) got \(r.status)")
        }
        // ... also when the authority is in the request line (absolute form).
        let abs = try HTTPClient(port: h.port)
        abs.send("GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try abs.readResponse().status == 403)
        for host in ["localhost", "localhost:\(h.port)", "LOCALHOST", "127.0.0.1:\(h.port)", "127.1.2.3", "[::1]:\(h.port)", "app.localhost", "localhost."] {
            let c = try HTTPClient(port: h.port)
            c.send(Self.get("/", host: host))
            #expect(try c.readResponse().status == 200, "Host: \(host)")
        }
        #expect(h.onLoop { h.seen.count } == 8)  // refused requests never reach the routes
    }

    @Test func aNonLoopbackServerAcceptsAnyHost() throws {
        let h = try ServerHarness { $0.host = "0.0.0.0" }
        defer { h.stop() }
        #expect(!h.server.listener.isLoopback)
        let c = try HTTPClient(port: h.port)
        c.send(Self.get("/", host: "studio.example"))
        #expect(try c.readResponse().status == 200)
    }

    @Test func connectionsOverTheLimitGet503() throws {
        let h = try ServerHarness { $0.maxConnections = 4; $0.requestTimeout = 5_000_000_000 }
        defer { h.stop() }
        var open: [HTTPClient] = []
        for _ in 0..<4 { open.append(try HTTPClient(port: h.port)) }
        // Let the server accept them.
        let end = Date().addingTimeInterval(5)
        while h.onLoop({ h.server.connectionCount }) < 4 && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
        let extra = try HTTPClient(port: h.port)
        let r = try extra.readResponse()
        #expect(r.status == 503)
        #expect(r.headers["retry-after"] == "1")
        #expect(extra.readToEnd(timeout: 3))
        // The ones inside are still served; once they go, new ones are let in.
        open[0].send(Self.get("/"))
        #expect(try open[0].readResponse().status == 200)
        open = []
        let free = Date().addingTimeInterval(5)
        while h.onLoop({ h.server.connectionCount }) > 0 && Date() < free { Thread.sleep(forTimeInterval: 0.01) }
        try Self.stillServes(h)
    }

    @Test func aClientThatNeverReadsIsDropped() throws {
        let h = try ServerHarness { $0.writeTimeout = 300_000_000 }
        defer { h.stop() }
        let c = try HTTPClient(port: h.port)
        c.send(Self.get("/big"))
        // It reads nothing: the 8 MB do not fit in the socket buffers, and the server gives up.
        let end = Date().addingTimeInterval(5)
        Thread.sleep(forTimeInterval: 0.1)
        while h.onLoop({ h.server.connectionCount }) > 0 && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        #expect(h.onLoop { h.server.connectionCount } == 0)
        try Self.stillServes(h)
        // A client that does read gets all of it.
        let reader = try HTTPClient(port: h.port)
        reader.send(Self.get("/big"))
        #expect(try reader.readResponse().body.count == 8 << 20)
    }

    @Test func randomBytesNeverCrashOrHangIt() throws {
        let h = try ServerHarness { $0.requestTimeout = 100_000_000; $0.lingerTimeout = 100_000_000 }
        defer { h.stop() }
        var rng = SystemRandomNumberGenerator()
        let pieces = ["GET", "POST", " ", "/", "HTTP/1.1", "\r\n", "\n", "Host:", "localhost", ":", "Content-Length:", "5", "\u{0}", "ÿ", "%00", "\r\n\r\n"]
        for _ in 0..<80 {
            var text = ""
            for _ in 0..<Int.random(in: 1...30, using: &rng) { text += pieces.randomElement(using: &rng)! }
            let c = try HTTPClient(port: h.port)
            c.send(text)
            // Whatever it was, the connection ends or answers within the timeouts.
            _ = c.readToEnd(timeout: 3)
        }
        try Self.stillServes(h)
    }

    @Test func aTakenPortIsReportedAsSuch() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        var c = HTTPServerConfiguration()
        c.port = h.port
        do {
            _ = try Listener(host: c.host, port: c.port)
            Issue.record("bound a port that is taken")
        } catch {
            guard case .portInUse(_, let port) = error else { Issue.record("not portInUse: \(error)"); return }
            #expect(port == h.port)
        }
        let free = Listener.freePort(after: h.port, host: "127.0.0.1")
        #expect(free != nil && free != h.port)
    }

    @Test func hostsAreJudgedLocalByName() {
        for a in ["localhost", "localhost:80", "127.0.0.1", "127.255.0.9:1", "[::1]", "[::1]:7878", "x.localhost", "LocalHost"] {
            #expect(HTTPServer.isLocal(authority: a), "\(a)")
        }
        for a in ["", "evil", "127.0.0.1.nip.io", "127.0.0.256", "128.0.0.1", "[::2]", "[::1]x", "localhost:x", "1.2.3.4", "localhostx", "::1"] {
            #expect(!HTTPServer.isLocal(authority: a), "\(a)")
        }
        #expect(!HTTPServer.isLocal(authority: nil))
    }
}
