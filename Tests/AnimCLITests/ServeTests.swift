// `anim serve` end to end: the built binary serves a script from a scratch directory; the test
// saves the script as editors do (a temporary file renamed over it), reads the Server-Sent
// Events stream over a socket, fetches the page and the scene, and stops the server with
// SIGINT or SIGTERM. The page is also loaded in headless Chromium (DevToolsBrowser).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// A running `anim serve`.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let directory: URL
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    /// The port it listens on.
    private(set) var port: UInt16 = 0

    /// Starts `anim serve <arguments>` in `directory` and waits for its URL line.
    init(_ arguments: [String], in directory: URL, environment: [String: String] = [:], expectURL: Bool = true) throws {
        self.directory = directory
        process.executableURL = TestPaths.animBinary
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let o = Pipe(), e = Pipe()
        process.standardOutput = o
        process.standardError = e
        process.standardInput = FileHandle.nullDevice
        o.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.lock.lock(); self.out.append(d); self.lock.unlock()
        }
        e.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            guard let self, !d.isEmpty else { return }
            self.lock.lock(); self.err.append(d); self.lock.unlock()
        }
        try process.run()
        guard expectURL else { return }
        let end = Date().addingTimeInterval(20)
        while Date() < end && process.isRunning {
            if let r = stdout.firstRange(of: "http://127.0.0.1:") ?? stdout.firstRange(of: "http://0.0.0.0:") {
                let digits = stdout[r.upperBound...].prefix { $0.isNumber }
                if let p = UInt16(digits), stdout[r.upperBound...].dropFirst(digits.count).hasPrefix("/") { port = p; return }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw SocketClientFailure("anim serve printed no URL; stdout: \(stdout) stderr: \(stderr)")
    }

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }

    /// Sends a signal and waits for the exit status (nil if it did not end in time).
    func stop(_ signal: Int32 = SIGINT, timeout: Double = 10) -> Int32? {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout: timeout)
    }

    /// Waits for the process to end; its exit status, or nil at the deadline.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let end = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { return nil }
        // Let the pipes deliver the last output.
        Thread.sleep(forTimeInterval: 0.1)
        return process.terminationStatus
    }

    /// Resident memory in KiB (VmRSS).
    var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// A GET on a fresh connection.
    func get(_ path: String, host: String = "127.0.0.1") throws -> HTTPClient.Response {
        let c = try HTTPClient(port: port)
        c.send("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
        return try c.readResponse()
    }

    /// A connection reading `/events`, past its head and `retry:`.
    func events() throws -> HTTPClient {
        let c = try HTTPClient(port: port)
        c.send("GET /events HTTP/1.1\r\nHost: localhost:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200 && r.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(c.readEventBlock() == ["retry: 1000"])
        return c
    }
}

struct SocketClientFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Scratch directories and editor-style saves.
enum Editor {
    static func directory() throws -> URL {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("anim-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }

    /// Saves as editors do: a temporary file in the same directory, renamed over the target.
    static func save(_ text: String, to url: URL) throws {
        let temp = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(6)).tmp")
        try Data(text.utf8).write(to: temp)
        guard rename(temp.path, url.path) == 0 else { throw SocketClientFailure("rename failed: \(String(cString: strerror(errno)))") }
    }

    /// A script that prints `tag`.
    static func script(_ tag: String, shapes: Int = 3) -> String {
        var s = "stage 300 x 200\n"
        for k in 0..<shapes { s += "rect r\(k) center (\(20 + k * 10), 50) size (20, 20) color #3366ff\n" }
        s += "animate 0.5 < r0.center = (250, 150) >\nthen < print \"\(tag)\" >\n"
        for k in 1..<shapes { s += "animate \(k % 5 + 1) ease ease-in-out < r\(k).rotation = 90deg; r\(k).alpha = 0.5 >\n" }
        return s
    }
}

/// The event's JSON.
func eventJSON(_ data: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]) ?? [:]
}

@Suite("anim serve", .serialized)
struct ServeTests {
    @Test func itServesThePageTheSceneAndTheEvents() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("live.anim")
        try Editor.save(Editor.script("first"), to: file)
        let s = try ServeProcess(["live.anim", "--port", "0"], in: dir)
        #expect(s.stdout.contains("http://127.0.0.1:\(s.port)/ — watching live.anim (inotify, 50 ms debounce); Ctrl-C stops"))
        let events = try s.events()
        let first = try #require(events.readEvent())
        #expect(first.event == "scene")
        #expect(eventJSON(first.data)["scene"] as? Int == 1)
        let page = try s.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["cache-control"] == "no-store")
        #expect(page.text.contains("id=\"anim-data\"") && page.text.contains("new EventSource('/events')"))
        // /scene.json is the data the player that `anim render` writes embeds.
        let rendered = dir.appendingPathComponent("out.html")
        let r = try runAnim(["render", "live.anim", "-o", rendered.path], currentDirectory: dir)
        #expect(r.exitCode == 0)
        let html = try String(contentsOf: rendered, encoding: .utf8)
        let scene = try s.get("/scene.json")
        #expect(scene.status == 200 && scene.headers["content-type"] == "application/json" && scene.headers["etag"] == "\"1\"")
        #expect(html.contains(">\(scene.text)</script>"))
        // HEAD, favicon, unknown routes and methods.
        #expect(try s.get("/favicon.ico").status == 204)
        #expect(try s.get("/live.anim").status == 404)
        #expect(try s.get("/../../etc/passwd").status == 404)
        let post = try HTTPClient(port: s.port)
        post.send("DELETE / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let denied = try post.readResponse()
        #expect(denied.status == 405 && denied.headers["allow"] == "GET, HEAD")
        #expect(s.stop() == 0)
    }

    @Test func editorSavesReachTheStreamAndErrorsComeAsAnimCheckPrintsThem() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("live.anim")
        try Editor.save(Editor.script("v1"), to: file)
        let s = try ServeProcess(["live.anim", "--port", "0", "--debounce", "5"], in: dir)
        let events = try s.events()
        #expect(events.readEvent()?.id == 1)
        try Editor.save(Editor.script("v2"), to: file)
        let e2 = try #require(events.readEvent())
        #expect(e2.event == "scene" && eventJSON(e2.data)["scene"] as? Int == 2)
        #expect(try s.get("/scene.json").text.contains("\"v2\""))
        // An error: the diagnostics, exactly as `anim check` prints them; the scene stays.
        let broken = "rect sq\nanimate 1 < sq.centre = (1, 1) >\nprint \"{\"\n"
        try Editor.save(broken, to: file)
        let e3 = try #require(events.readEvent())
        #expect(e3.event == "diagnostics")
        let check = try runAnim(["check", "live.anim"], currentDirectory: dir)
        #expect(check.exitCode == 1)
        #expect(eventJSON(e3.data)["diagnostics"] as? String == check.stderr)
        #expect(eventJSON(e3.data)["scene"] as? Int == 2)
        #expect(try s.get("/scene.json").text.contains("\"v2\""))
        #expect(s.stderr.contains(check.stderr))
        // The same bytes again: nothing.
        try Editor.save(broken, to: file)
        #expect(events.readEvent(timeout: 0.5) == nil)
        // A failed expectation still makes a scene, and says what failed.
        try Editor.save(Editor.script("v3") + "at 0.25 < expect r0.alpha == 0.5 >\n", to: file)
        let e4 = try #require(events.readEvent())
        #expect(e4.event == "scene" && eventJSON(e4.data)["scene"] as? Int == 3)
        #expect((eventJSON(e4.data)["diagnostics"] as? String)?.contains("error: expectation failed at 0.250s") == true)
        // Deleted: said so; back: a scene again.
        try FileManager.default.removeItem(at: file)
        let e5 = try #require(events.readEvent())
        #expect(e5.event == "diagnostics")
        #expect(eventJSON(e5.data)["diagnostics"] as? String == "anim: error: cannot read 'live.anim': No such file or directory\n")
        try Editor.save(Editor.script("v4"), to: file)
        let e6 = try #require(events.readEvent())
        #expect(e6.event == "scene" && eventJSON(e6.data)["scene"] as? Int == 4 && eventJSON(e6.data)["diagnostics"] as? String == "")
        // A client that reconnects gets the current state at once.
        let again = try HTTPClient(port: s.port)
        again.send("GET /events HTTP/1.1\r\nHost: localhost\r\nLast-Event-ID: 2\r\n\r\n")
        _ = try again.readResponse()
        _ = again.readEventBlock()
        let now = try #require(again.readEvent(timeout: 2))
        #expect(now.id == e6.id && now.event == "scene")
        #expect(s.stop(SIGTERM) == 0)
    }

    /// 1,000 saves by rename-over, each waited for: every one reaches the stream exactly once,
    /// with its own bytes, and the server's memory stays flat.
    @Test func aThousandSavesReachTheStreamOnceEachAndMemoryStaysFlat() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("many.anim")
        try Editor.save(Editor.script("save 0"), to: file)
        let s = try ServeProcess(["many.anim", "--port", "0", "--debounce", "2"], in: dir)
        let events = try s.events()
        #expect(events.readEvent()?.id == 1)
        var rss: [Int: Int] = [:]
        var lastID = 1
        for k in 1...1000 {
            try Editor.save(Editor.script("save \(k)"), to: file)
            guard let e = events.readEvent() else { Issue.record("save \(k) never reached the stream"); break }
            guard e.id == lastID + 1, e.event == "scene", eventJSON(e.data)["scene"] as? Int == k + 1 else {
                Issue.record("save \(k): event \(e.id) \(e.event) \(e.data.prefix(80)) after \(lastID)")
                break
            }
            lastID = e.id
            let scene = try s.get("/scene.json").text
            guard scene.contains("\"save \(k)\"") else { Issue.record("save \(k): the scene is another one"); break }
            if k % 100 == 0 { rss[k] = s.residentKiB }
        }
        // Nothing more after the last one.
        #expect(events.readEvent(timeout: 0.3) == nil)
        print("anim serve RSS over 1,000 saves (KiB): \(rss.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))")
        if let early = rss[200], let late = rss[1000] {
            #expect(late - early < 4 * 1024, "RSS grew from \(early) KiB at save 200 to \(late) KiB at save 1000")
        }
        #expect(s.stop() == 0)
    }

    @Test func ctrlCAndSigtermShutDownCleanlyAndFreeThePort() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        for sig in [SIGINT, SIGTERM] {
            let s = try ServeProcess(["a.anim", "--port", "0"], in: dir)
            let stream = try s.events()
            let idle = try HTTPClient(port: s.port)  // a connection that sends nothing
            _ = idle
            #expect(s.stop(sig) == 0)
            #expect(s.stdout.hasSuffix("anim serve: stopped\n"))
            #expect(stream.readToEnd(timeout: 3), "the event stream was not closed")
            // The port is free at once: a new server takes it.
            let again = try ServeProcess(["a.anim", "--port", String(s.port)], in: dir)
            #expect(again.port == s.port)
            #expect(try again.get("/").status == 200)
            #expect(again.stop() == 0)
        }
    }

    @Test func aTakenPortIsAClearErrorWithASuggestion() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        let first = try ServeProcess(["a.anim", "--port", "0"], in: dir)
        let r = try runAnim(["serve", "a.anim", "--port", String(first.port)], currentDirectory: dir)
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("anim: error: cannot serve on 127.0.0.1:\(first.port): the port is in use"))
        let suggestion = try #require(r.stderr.firstRange(of: "help: choose another port: anim serve a.anim --port "))
        let other = UInt16(r.stderr[suggestion.upperBound...].prefix { $0.isNumber })
        #expect(other != nil && other != first.port)
        #expect(first.stop() == 0)
    }

    @Test func anotherHostIsSaidLoudlyAndAnyHostHeaderIsThenServed() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        let open = try ServeProcess(["a.anim", "--port", "0", "--host", "0.0.0.0"], in: dir)
        #expect(open.stderr.contains("anim serve: WARNING: listening on 0.0.0.0, not on 127.0.0.1"))
        #expect(try open.get("/", host: "studio.example").status == 200)
        #expect(open.stop() == 0)
        // On the default address, a foreign Host is refused (DNS rebinding).
        let local = try ServeProcess(["a.anim", "--port", "0"], in: dir)
        #expect(!local.stderr.contains("WARNING"))
        #expect(try local.get("/", host: "studio.example").status == 403)
        #expect(try local.get("/scene.json", host: "attacker.example:\(local.port)").status == 403)
        #expect(try local.get("/", host: "localhost:\(local.port)").status == 200)
        #expect(local.stop() == 0)
    }

    @Test func hostileRequestsGetTheirStatusFromTheRealServer() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        let s = try ServeProcess(["a.anim", "--port", "0"], in: dir)
        func status(_ text: String) throws -> Int {
            let c = try HTTPClient(port: s.port)
            c.send(text)
            return try c.readResponse().status
        }
        #expect(try status("\u{0}\u{1}garbage\r\n\r\n") == 400)
        #expect(try status("GET / HTTP/1.1\r\nHost: localhost\r\nX: \(String(repeating: "a", count: 20_000))\r\n\r\n") == 431)
        #expect(try status("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n") == 413)
        #expect(try status("GET /../../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404)
        #expect(try status("GET / HTTP/1.1\r\nHost: rebind.example\r\n\r\n") == 403)
        // 65 connections: the last is refused (at most 64). The 64 are event streams, so each
        // is known to be accepted (its head has come) before the next one connects.
        var held: [HTTPClient] = []
        for _ in 0..<64 { held.append(try s.events()) }
        let refused = try HTTPClient(port: s.port)
        #expect(try refused.readResponse().status == 503)
        held = []
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try s.get("/").status == 200)
        #expect(s.stop() == 0)
    }

    @Test func openStartsTheSystemBrowserOrSaysWhyNot() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = dir.appendingPathComponent("opened.txt")
        let fake = bin.appendingPathComponent("xdg-open")
        try "#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n".write(to: fake, atomically: true, encoding: .utf8)
        chmod(fake.path, 0o755)
        let s = try ServeProcess(["a.anim", "--port", "0", "--open"], in: dir, environment: ["PATH": bin.path + ":/usr/bin:/bin", "DISPLAY": ":99"])
        let end = Date().addingTimeInterval(10)
        // The opener creates the file before it writes the address: wait for the address.
        while ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").isEmpty && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        #expect((try? String(contentsOf: opened, encoding: .utf8)) == "http://127.0.0.1:\(s.port)/")
        #expect(s.stop() == 0)
        // No opener on PATH: it says so, and serves all the same.
        let none = try ServeProcess(["a.anim", "--port", "0", "--open"], in: dir, environment: ["PATH": dir.appendingPathComponent("empty").path])
        Thread.sleep(forTimeInterval: 0.3)
        #expect(none.stderr.contains("anim serve: no browser to open: 'xdg-open' was not found on PATH; open http://127.0.0.1:\(none.port)/ in a browser"))
        #expect(try none.get("/").status == 200)
        #expect(none.stop() == 0)
        // No graphical session: xdg-open would start a text browser in the terminal.
        var env = ["PATH": bin.path + ":/usr/bin:/bin"]
        for k in ["DISPLAY", "WAYLAND_DISPLAY", "BROWSER"] where ProcessInfo.processInfo.environment[k] != nil { env[k] = "" }
        let headless = try ServeProcess(["a.anim", "--port", "0", "--open"], in: dir, environment: env)
        Thread.sleep(forTimeInterval: 0.3)
        if ProcessInfo.processInfo.environment["DISPLAY"] == nil && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] == nil
            && ProcessInfo.processInfo.environment["BROWSER"] == nil {
            #expect(headless.stderr.contains("no graphical session"))
        }
        #expect(headless.stop() == 0)
    }

    @Test func usageErrors() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save(Editor.script("x"), to: dir.appendingPathComponent("a.anim"))
        let cases: [([String], String)] = [
            (["serve"], "anim: error: missing the script to serve"),
            (["serve", "nope.anim"], "anim: error: cannot read 'nope.anim': No such file or directory"),
            (["serve", "-"], "anim: error: 'anim serve' watches a file, so it cannot read standard input"),
            (["serve", "a.anim", "--port", "70000"], "anim: error: '--port' takes a whole number from 0 to 65535, not '70000'"),
            (["serve", "a.anim", "--prot", "1"], "anim: error: unknown option '--prot' for serve; did you mean '--port'?"),
            (["serve", "a.anim", "--host", "no.such.host.invalid", "--port", "0"], "anim: error: cannot serve on 'no.such.host.invalid'"),
            (["serve", "a.anim", "--host", "192.0.2.1", "--port", "0"], "anim: error: cannot serve on '192.0.2.1': not an address of this machine"),
            (["serve", "a.anim", "--fps", "0"], "anim: error: '--fps' takes a whole number from 1 to 240, not '0'"),
            (["serve", "a.anim", "--until", "x"], "anim: error: '--until' takes a time"),
        ]
        for (args, message) in cases {
            let r = try runAnim(args, currentDirectory: dir)
            #expect(r.exitCode == 2, "\(args)")
            #expect(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        let help = try runAnim(["serve", "--help"])
        #expect(help.exitCode == 0 && help.stdout.contains("USAGE: anim serve <file> [--port <n>] [--host <address>] [--open] [--poll]"))
    }

    @Test func pollingServesEditsToo() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.anim")
        try Editor.save(Editor.script("p1"), to: file)
        let s = try ServeProcess(["p.anim", "--port", "0", "--poll"], in: dir)
        #expect(s.stdout.contains("(polling every 100 ms, 50 ms debounce)"))
        let events = try s.events()
        #expect(events.readEvent()?.id == 1)
        try Editor.save(Editor.script("p2"), to: file)
        let e = try #require(events.readEvent())
        #expect(eventJSON(e.data)["scene"] as? Int == 2)
        #expect(s.stop() == 0)
    }

    @Test("the served page in Chromium: scenes swap in place, the error overlay, no console errors",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func thePageInChromium() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("live.anim")
        try Editor.save(Editor.script("first"), to: file)
        let s = try ServeProcess(["live.anim", "--port", "0", "--debounce", "5"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            try browser.navigate("http://127.0.0.1:\(s.port)/#t=0.25")
            try browser.waitFor("document.documentElement.getAttribute('data-live')") { $0 as? String == "connected" }
            #expect(try browser.evaluate("document.documentElement.getAttribute('data-ready')") as? String == "15")
            // A mark that a reload would wipe out.
            _ = try browser.evaluate("window.kept = 'before the save', 0")
            try Editor.save(Editor.script("second"), to: file)
            // The scene is swapped in place, at the time it showed, still paused.
            try browser.waitFor("animPlayer.data.prints[0][1]") { $0 as? String == "second" }
            #expect(try browser.evaluate("window.kept") as? String == "before the save", "the page reloaded")
            #expect(try browser.evaluate("document.documentElement.getAttribute('data-swaps')") as? String == "1")
            let shown = try browser.evaluate("document.getElementById('time').textContent") as? String
            #expect(shown == "0.250 s / 3.000 s", "\(String(describing: shown))")
            #expect(try browser.evaluate("animPlayer.playing") as? Bool == false)
            // An error: shown over the stage as `anim check` prints it, the scene kept.
            try Editor.save("rect sq\nanimate 1 < sq.centre = (1, 1) >\n", to: file)
            let check = try runAnim(["check", "live.anim"], currentDirectory: dir)
            try browser.waitFor("(document.getElementById('anim-diagnostics') || {}).textContent") { $0 as? String == check.stderr }
            #expect(try browser.evaluate("document.getElementById('anim-diagnostics').parentNode.id") as? String == "stage-box")
            #expect(try browser.evaluate("animPlayer.data.prints[0][1]") as? String == "second")
            #expect(try browser.evaluate("document.querySelectorAll('#shapes > g').length") as? Int == 3, "the last good scene stays on stage")
            // Fixed: a new scene, and the overlay is gone.
            try Editor.save(Editor.script("third"), to: file)
            try browser.waitFor("animPlayer.data.prints[0][1]") { $0 as? String == "third" }
            try browser.waitFor("document.getElementById('anim-diagnostics') === null") { $0 as? Bool == true }
            #expect(try browser.evaluate("window.kept") as? String == "before the save")
            #expect(try browser.evaluate("document.getElementById('time').textContent") as? String == "0.250 s / 3.000 s")
            let errors = try browser.evaluate("document.documentElement.getAttribute('data-errors')")
            #expect(errors == nil || errors is NSNull, "the page recorded errors: \(String(describing: errors))")
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }

    /// A script with a named step whose timing the edits change: `grow` runs after a wait that
    /// the edit lengthens, and lasts what the edit says.
    static func stepScript(wait: Double, grow: Double, tag: String = "x") -> String {
        """
        stage 300 x 200
        rect a center (50, 100) size (30, 30) color #3366ff
        rect b center (150, 100) size (30, 30) color #ff6633
        wait \(wait)
        animate \(grow) ease linear < a.scale = 2 > as grow
        after grow < animate 1 < b.rotation = 90deg > as spin >
        print "\(tag)"
        """
    }

    @Test("in Chromium: the playhead keeps its place in its named step, and playing stays playing",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func playheadKeepsItsStep() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("steps.anim")
        try Editor.save(Self.stepScript(wait: 1, grow: 2), to: file)
        let s = try ServeProcess(["steps.anim", "--port", "0", "--debounce", "5"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            // Paused halfway through `grow` (1 s to 3 s), zoomed, with a loop range.
            try browser.navigate("http://127.0.0.1:\(s.port)/#t=2&in=1.5&out=2.5&zoom=0.5,3&speed=0.5")
            try browser.waitFor("document.documentElement.getAttribute('data-live')") { $0 as? String == "connected" }
            #expect(try browser.evaluate("animPlayer.time") as? Double == 2)
            // `grow` now starts at 2 s and lasts 4 s: halfway is 4 s.
            try Editor.save(Self.stepScript(wait: 2, grow: 4, tag: "y"), to: file)
            try browser.waitFor("animPlayer.data.prints[0] && animPlayer.data.prints[0][1]") { $0 as? String == "y" }
            #expect(try browser.evaluate("animPlayer.time") as? Double == 4, "halfway through grow")
            #expect(try browser.evaluate("JSON.stringify(animPlayer.range)") as? String == "{\"a\":1.5,\"b\":2.5}")
            #expect(try browser.evaluate("JSON.stringify(animPlayer.view)") as? String == "{\"a\":0.5,\"b\":3,\"fit\":false}")
            #expect(try browser.evaluate("document.getElementById('speed').value") as? String == "0.5")
            // A time in no named step stays where it is: 0.5 s is in the wait.
            _ = try browser.evaluate("animPlayer.seek(0.5), 0")
            try Editor.save(Self.stepScript(wait: 1.5, grow: 1, tag: "z"), to: file)
            try browser.waitFor("animPlayer.data.prints[0][1]") { $0 as? String == "z" }
            #expect(try browser.evaluate("animPlayer.time") as? Double == 0.5)
            // Playing stays playing across a swap.
            _ = try browser.evaluate("document.getElementById('mark-clear').click(), animPlayer.play(true), 0")
            try Editor.save(Self.stepScript(wait: 1.5, grow: 1.5, tag: "w"), to: file)
            try browser.waitFor("animPlayer.data.prints[0][1]") { $0 as? String == "w" }
            #expect(try browser.evaluate("animPlayer.playing") as? Bool == true)
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }

    @Test("in Chromium: rename-over saves each reach the page once, and the playhead keeps its step on every edit",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func everySaveOnceAndThePlayheadAlwaysKept() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("many.anim")
        var wait = 1.0, grow = 2.0
        try Editor.save(Self.stepScript(wait: wait, grow: grow, tag: "edit 0"), to: file)
        let s = try ServeProcess(["many.anim", "--port", "0", "--debounce", "2"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            try browser.navigate("http://127.0.0.1:\(s.port)/#t=0")
            try browser.waitFor("document.documentElement.getAttribute('data-live')") { $0 as? String == "connected" }
            var generator = SplitMix(seed: 14)
            let edits = 120
            var kept = 0
            for k in 1...edits {
                // Paused at a fraction of `grow`; the edit moves and stretches it, keeping its name.
                let fraction = [0, 0.1, 0.25, 0.5, 0.75, 0.9][Int(generator.next() % 6)]
                _ = try browser.evaluate("animPlayer.seek(\(wait + fraction * grow)), 0")
                wait = [0.5, 1, 1.5, 2.25][Int(generator.next() % 4)]
                grow = [0.5, 1, 2, 3.5][Int(generator.next() % 4)]
                try Editor.save(Self.stepScript(wait: wait, grow: grow, tag: "edit \(k)"), to: file)
                try browser.waitFor("animPlayer.data.prints.length && animPlayer.data.prints[0][1]") { $0 as? String == "edit \(k)" }
                if let now = try browser.evaluate("animPlayer.time") as? Double, abs(now - (wait + fraction * grow)) < 1e-9 { kept += 1 }
            }
            #expect(kept == edits, "the playhead kept its place in 'grow' on \(kept) of \(edits) edits")
            // Every save reached the page once, in order: scenes 2 … edits + 1.
            usleep(300_000)
            let scenes = try browser.evaluate("JSON.stringify(window.animSwaps.map(function (s) { return s[0]; }))") as? String
            #expect(scenes == "[" + (2...(edits + 1)).map(String.init).joined(separator: ",") + "]")
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }

    @Test("in Chromium: a failed expect is shown over the stage and marked at its time",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func failedExpectInChromium() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("exp.anim")
        try Editor.save(Editor.script("one"), to: file)
        let s = try ServeProcess(["exp.anim", "--port", "0", "--debounce", "5"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            try browser.navigate("http://127.0.0.1:\(s.port)/#t=0")
            try browser.waitFor("document.documentElement.getAttribute('data-live')") { $0 as? String == "connected" }
            let failing = "rect sq\nanimate 1 < sq.center = (100, 0) >\nthen < expect sq.center == (50, 0) >\nprint \"two\"\n"
            try Editor.save(failing, to: file)
            let run = try runAnim(["run", "exp.anim"], currentDirectory: dir)
            #expect(run.stderr.contains("expectation failed at 1.000s"))
            try browser.waitFor("(document.getElementById('anim-diagnostics') || {}).textContent") { $0 as? String == run.stderr }
            #expect(try browser.evaluate("animPlayer.data.prints[0][1]") as? String == "two", "the scene with the failed expect plays")
            let marks = try browser.evaluate("document.querySelectorAll('#ruler .expect-fail').length") as? Int
            #expect(marks == 1)
            let x = try browser.evaluate("+document.querySelector('#ruler .expect-fail path').getAttribute('d').slice(1).split(' ')[0]") as? Double
            let want = try browser.evaluate("animPlayer.x(1)") as? Double
            #expect(x != nil && x == want, "the mark is at 1 s: \(String(describing: x)) vs \(String(describing: want))")
            try Editor.save(Editor.script("three"), to: file)
            try browser.waitFor("document.getElementById('anim-diagnostics') === null && animPlayer.data.prints[0][1] === 'three'") { $0 as? Bool == true }
            #expect(try browser.evaluate("document.querySelectorAll('#ruler .expect-fail').length") as? Int == 0)
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }

    @Test("a script that never ran shows its errors in Chromium, then its first scene",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func theWaitingPageInChromium() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("new.anim")
        try Editor.save("rect a\nprint a.nope\n", to: file)
        let s = try ServeProcess(["new.anim", "--port", "0", "--debounce", "5"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            try browser.navigate("http://127.0.0.1:\(s.port)/")
            let check = try runAnim(["check", "new.anim"], currentDirectory: dir)
            try browser.waitFor("(document.getElementById('anim-diagnostics') || {}).textContent") { $0 as? String == check.stderr }
            #expect(try s.get("/scene.json").status == 404)
            try Editor.save(Editor.script("at last"), to: file)
            try browser.waitFor("JSON.parse((document.getElementById('anim-data') || {}).textContent || 'null')?.prints[0][1]") {
                $0 as? String == "at last"
            }
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }
}

/// A small deterministic generator (SplitMix64, Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", 2014), so a failing run can be repeated.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
