// Server-Sent Events over real sockets: the stream's head, `retry:`, an `id:` per event in
// order, data split into lines, heartbeats, several clients at once, a reconnect with
// Last-Event-ID getting the current state at once, and clients that go away being dropped.
@testable import AnimStudio
import AnimTestSupport
import Foundation
import Testing

@Suite("Server-Sent Events over sockets")
struct EventStreamTests {
    /// Opens `/events` and reads the head and the `retry:` block.
    static func subscribe(_ h: ServerHarness, lastEventID: Int? = nil) throws -> HTTPClient {
        let c = try HTTPClient(port: h.port)
        let last = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        c.send("GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\(last)\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(r.headers["cache-control"] == "no-store")
        #expect(r.headers["content-length"] == nil)
        #expect(c.readEventBlock() == ["retry: 1000"])
        return c
    }

    /// Waits until the server has `n` stream clients.
    static func waitForStreams(_ h: ServerHarness, _ n: Int) {
        let end = Date().addingTimeInterval(5)
        while h.onLoop({ h.server.streamCount }) != n && Date() < end { Thread.sleep(forTimeInterval: 0.01) }
    }

    @Test func eventsArriveInOrderWithTheirIDs() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let c = try Self.subscribe(h)
        Self.waitForStreams(h, 1)
        for k in 1...5 { h.onLoop { h.server.publish(event: k % 2 == 0 ? "diagnostics" : "scene", data: "{\"n\":\(k)}") } }
        for k in 1...5 {
            let e = try #require(c.readEvent())
            #expect(e.id == k)
            #expect(e.event == (k % 2 == 0 ? "diagnostics" : "scene"))
            #expect(e.data == "{\"n\":\(k)}")
        }
    }

    @Test func dataWithNewlinesBecomesSeveralDataLines() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let c = try Self.subscribe(h)
        Self.waitForStreams(h, 1)
        h.onLoop { h.server.publish(event: "diagnostics", data: "a\nb\r\nc\rd") }
        #expect(c.readEventBlock() == ["id: 1", "event: diagnostics", "data: a", "data: b", "data: c", "data: d"])
        #expect(ServerSentEvent(id: 7, event: "x", data: "").encoded == Array("id: 7\nevent: x\ndata: \n\n".utf8))
    }

    @Test func severalClientsGetEveryEvent() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        let clients = try (0..<8).map { _ in try Self.subscribe(h) }
        Self.waitForStreams(h, 8)
        for k in 1...20 { h.onLoop { h.server.publish(event: "scene", data: "\(k)") } }
        for c in clients {
            for k in 1...20 {
                let e = try #require(c.readEvent())
                #expect(e.id == k && e.data == "\(k)")
            }
        }
        // Ordinary requests are still answered meanwhile.
        try HTTPServerTests.stillServes(h)
    }

    @Test func aReconnectingClientGetsTheCurrentStateAtOnce() throws {
        let h = try ServerHarness()
        defer { h.stop() }
        var first: HTTPClient? = try Self.subscribe(h)
        Self.waitForStreams(h, 1)
        for k in 1...3 { h.onLoop { h.server.publish(event: "scene", data: "v\(k)") } }
        for _ in 1...3 { _ = first!.readEvent() }
        first = nil  // the connection drops
        Self.waitForStreams(h, 0)
        h.onLoop { h.server.publish(event: "diagnostics", data: "while away") }
        // It comes back saying the last id it saw: the current state comes first, at once.
        let again = try Self.subscribe(h, lastEventID: 3)
        let now = try #require(again.readEvent(timeout: 2))
        #expect(now.id == 4 && now.event == "diagnostics" && now.data == "while away")
        // A client that has seen everything gets the current state too, then what follows.
        let upToDate = try Self.subscribe(h, lastEventID: 4)
        #expect(try #require(upToDate.readEvent(timeout: 2)).id == 4)
        h.onLoop { h.server.publish(event: "scene", data: "v5") }
        #expect(try #require(upToDate.readEvent()).id == 5)
        #expect(try #require(again.readEvent()).id == 5)
        // A brand-new client (no id) gets the current state as well.
        let fresh = try Self.subscribe(h)
        #expect(try #require(fresh.readEvent(timeout: 2)).data == "v5")
    }

    @Test func heartbeatsKeepComing() throws {
        let h = try ServerHarness { $0.heartbeatInterval = 50_000_000 }
        defer { h.stop() }
        let c = try Self.subscribe(h)
        var beats = 0
        let end = Date().addingTimeInterval(3)
        while beats < 3 && Date() < end {
            if let block = c.readEventBlock(timeout: 1), block == [": heartbeat"] { beats += 1 }
        }
        #expect(beats == 3)
    }

    @Test func clientsThatGoAwayAreDropped() throws {
        let h = try ServerHarness { $0.heartbeatInterval = 20_000_000 }
        defer { h.stop() }
        var clients: [HTTPClient] = try (0..<5).map { _ in try Self.subscribe(h) }
        Self.waitForStreams(h, 5)
        clients.removeFirst(3)
        Self.waitForStreams(h, 2)
        #expect(h.onLoop { h.server.streamCount } == 2)
        h.onLoop { h.server.publish(event: "scene", data: "still here") }
        for c in clients { #expect(c.readEvent()?.data == "still here") }
    }

    @Test func aClientThatStopsReadingIsDroppedNotWaitedFor() throws {
        let h = try ServerHarness { $0.maxPendingStreamBytes = 256 << 10; $0.writeTimeout = 30_000_000_000 }
        defer { h.stop() }
        let stalled = try Self.subscribe(h)
        let reader = try Self.subscribe(h)
        Self.waitForStreams(h, 2)
        let big = String(repeating: "z", count: 64 << 10)
        var k = 0
        // The stalled client reads nothing: its socket buffers fill, then its queue passes the cap.
        while h.onLoop({ h.server.streamCount }) == 2 && k < 2000 {
            h.onLoop { h.server.publish(event: "scene", data: big) }
            _ = reader.readEvent(timeout: 2)
            k += 1
        }
        #expect(h.onLoop { h.server.streamCount } == 1, "after \(k) events of 64 KiB")
        _ = stalled
        h.onLoop { h.server.publish(event: "scene", data: "small") }
        #expect(reader.readEvent()?.data == "small")
    }
}
