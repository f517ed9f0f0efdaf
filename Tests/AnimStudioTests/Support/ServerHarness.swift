// ServerHarness: an HTTPServer on its own EventLoop thread for one test, with short timeouts,
// and a way to run code on the loop's thread (the server is not thread-safe, by design).
import AnimStudio
import AnimTestSupport
import Foundation

/// An HTTPServer on its own loop thread, for one test.
final class ServerHarness: @unchecked Sendable {
    let loop: EventLoop
    var server: HTTPServer!
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var queued: [() -> Void] = []
    private var waker: Waker!
    /// Requests the handler saw (read on the loop thread; inspect after `stop`).
    var seen: [String] = []

    /// Starts a server with `configure` applied to a test configuration (port 0, short timeouts).
    init(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
         handler: ((HTTPRequest) -> HTTPRoute)? = nil) throws {
        loop = try EventLoop()
        var c = HTTPServerConfiguration()
        c.port = 0
        c.requestTimeout = 1_000_000_000
        c.writeTimeout = 1_000_000_000
        c.lingerTimeout = 200_000_000
        configure(&c)
        let h = handler ?? ServerHarness.defaultRoutes
        server = try HTTPServer(configuration: c, loop: loop) { [unowned self] r in
            seen.append(r.path)
            return h(r)
        }
        // Made before the loop's thread starts: a waker is registered on the loop's own thread.
        waker = loop.makeWaker { [unowned self] in
            lock.lock()
            let work = queued
            queued = []
            lock.unlock()
            work.forEach { $0() }
        }
        let loop = self.loop
        let done = self.done
        Thread.detachNewThread {
            loop.run()
            done.signal()
        }
    }

    /// The routes of a small test site: `/` says hello, `/big` is 8 MB, `/events` streams.
    static func defaultRoutes(_ r: HTTPRequest) -> HTTPRoute {
        switch r.path {
        case "/": return .respond(.text(.ok, "hello"))
        case "/big": return .respond(HTTPResponse(.ok, contentType: "application/octet-stream", body: [UInt8](repeating: 0x61, count: 8 << 20)))
        case "/events": return .eventStream
        default: return .respond(.text(.notFound, "not found"))
        }
    }

    var port: UInt16 { server.listener.port }

    /// Runs `work` on the loop thread and waits for it.
    @discardableResult
    func onLoop<T>(_ work: @escaping () -> T) -> T {
        let box = Box<T>()
        let sem = DispatchSemaphore(value: 0)
        lock.lock()
        queued.append { box.value = work(); sem.signal() }
        lock.unlock()
        waker.wake()
        sem.wait()
        return box.value!
    }

    /// Stops the loop and waits for its thread to end.
    func stop() {
        onLoop { self.server.shutDown() }
        loop.stop()
        done.wait()
    }

    final class Box<T>: @unchecked Sendable { var value: T? }
}
