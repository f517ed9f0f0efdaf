// ChromiumDriver: headless Chromium driven over the DevTools protocol, for tests that need more
// than a screenshot — real key presses (trusted input, so a focused slider reacts as it does
// for a person), reading the page's state, and its console. The protocol runs over a pipe
// (`--remote-debugging-pipe`): commands go to the browser's fd 3 and replies come from its
// fd 4, each a JSON message ending in a NUL byte. Every wait has a deadline, so a browser
// that stops answering fails the test instead of hanging it.
import AnimTestSupport
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

final class ChromiumDriver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private let profile: ScratchDirectory
    private var buffer: [UInt8] = []
    private var closed = false
    /// Whether the page has fired its load event since `open` navigated.
    private var loaded = false
    private var nextID = 1
    /// The page's session, once `open` attached to it.
    private var session: String?
    /// Console messages and uncaught exceptions the page reported, in order.
    private(set) var console: [String] = []
    /// Seconds any one reply may take.
    let deadline: Double

    /// Starts a browser.
    init(_ executable: String, deadline: Double = 90) throws {
        // A browser that dies makes writes to its pipe fail (EPIPE) instead of killing the tests.
        signal(SIGPIPE, SIG_IGN)
        self.deadline = deadline
        profile = try ScratchDirectory("chromium-profile")
        var command: [Int32] = [0, 0], reply: [Int32] = [0, 0]
        guard pipe(&command) == 0, pipe(&reply) == 0 else { throw Failure(description: "pipe failed") }
        // High, close-on-exec copies, so that placing them at 3 and 4 in the child cannot
        // clobber one another; dup2 in the child clears close-on-exec on 3 and 4.
        func high(_ fd: Int32) -> Int32 {
            let h = fcntl(fd, F_DUPFD_CLOEXEC, 200)
            close(fd)
            return h
        }
        let childIn = high(command[0]), parentOut = high(command[1]), parentIn = high(reply[0]), childOut = high(reply[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, childIn, 3)
        posix_spawn_file_actions_adddup2(&actions, childOut, 4)
        // None of this process's other descriptors: see DevToolsBrowser.
        closeDescriptors(from: 5, in: &actions)
        let args = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
                    "--user-data-dir=\(profile.url.path)", "--window-size=900,700", "about:blank"]
        var cargs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, nil, &cargs, environ)
        close(childIn)
        close(childOut)
        guard status == 0 else {
            close(parentOut); close(parentIn)
            throw Failure(description: "could not start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        toBrowser = parentOut
        fromBrowser = parentIn
    }

    deinit { quit() }

    /// Asks the browser to close, waits a little for it, then makes sure it is gone.
    func quit() {
        guard !closed else { return }
        closed = true
        var bytes = [UInt8]("{\"id\":0,\"method\":\"Browser.close\"}".utf8)
        bytes.append(0)
        _ = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        close(toBrowser)
        close(fromBrowser)
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(50_000) }
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        profile.remove()
    }

    // MARK: - The protocol

    /// Sends a command and waits for its reply; returns its `result`. Events that arrive in
    /// the meantime are noted (console messages, exceptions, page loads).
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], inPage: Bool = true) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if inPage, let s = session { message["sessionId"] = s }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser's pipe closed (\(method))") }
            sent += n
        }
        while true {
            let reply = try receive(method)
            if reply["id"] as? Int == id {
                if let error = reply["error"] as? [String: Any] {
                    throw Failure(description: "\(method) failed: \(error["message"] ?? error)")
                }
                return reply["result"] as? [String: Any] ?? [:]
            }
            note(reply)
        }
    }

    /// The next message from the browser.
    private func receive(_ waitingFor: String) throws -> [String: Any] {
        let start = Date()
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let data = Data(buffer[..<end])
                buffer.removeSubrange(...end)
                return (try JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            }
            let left = deadline - Date().timeIntervalSince(start)
            guard left > 0 else { throw Failure(description: "no reply from the browser within \(Int(deadline)) s (\(waitingFor))") }
            var p = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { throw Failure(description: "poll failed") }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser closed its pipe (\(waitingFor))") }
            buffer += chunk[..<n]
        }
    }

    /// What an event says, if it is one the tests look at.
    private func note(_ event: [String: Any]) {
        let params = event["params"] as? [String: Any] ?? [:]
        switch event["method"] as? String {
        case "Runtime.consoleAPICalled":
            let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "?")" }
            console.append("console.\(params["type"] ?? "log"): " + args.joined(separator: " "))
        case "Runtime.exceptionThrown":
            let d = params["exceptionDetails"] as? [String: Any] ?? [:]
            let e = d["exception"] as? [String: Any] ?? [:]
            console.append("exception: \(e["description"] ?? d["text"] ?? "?")")
        case "Log.entryAdded":
            let entry = params["entry"] as? [String: Any] ?? [:]
            console.append("log.\(entry["level"] ?? "?"): \(entry["text"] ?? "?")")
        case "Page.loadEventFired":
            loaded = true
        default:
            break
        }
    }

    // MARK: - Pages

    /// Opens `url` in a new tab and waits until it has loaded; later commands go to it.
    func open(_ url: String) throws {
        let target = try send("Target.createTarget", ["url": "about:blank"], inPage: false)
        guard let id = target["targetId"] as? String else { throw Failure(description: "no target") }
        let attached = try send("Target.attachToTarget", ["targetId": id, "flatten": true], inPage: false)
        session = attached["sessionId"] as? String
        try send("Page.enable")
        try send("Runtime.enable")
        try send("Log.enable")
        loaded = false
        try send("Page.navigate", ["url": url])
        let start = Date()
        while !loaded {
            guard Date().timeIntervalSince(start) < deadline else { throw Failure(description: "\(url) did not load") }
            note(try receive("the load of \(url)"))
        }
    }

    /// The value of a JavaScript expression in the page (JSON-like: strings, numbers, bools).
    func evaluate(_ expression: String) throws -> Any? {
        let r = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if let x = r["exceptionDetails"] as? [String: Any] {
            throw Failure(description: "\(expression): \((x["exception"] as? [String: Any])?["description"] ?? x["text"] ?? "exception")")
        }
        return (r["result"] as? [String: Any])?["value"]
    }

    /// A string-valued expression.
    func string(_ expression: String) throws -> String { "\(try evaluate(expression) ?? "")" }

    /// Polls a boolean expression until it is true; false if `seconds` pass first.
    func wait(until expression: String, seconds: Double = 20) throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if try evaluate(expression) as? Bool == true { return true }
            usleep(20_000)
        }
        return false
    }

    /// A PNG of the page's top-left `width` × `height` CSS pixels, as the browser paints them
    /// (the window is 900 × 700 at device scale 1, so a clip within it is 1:1).
    func screenshot(width: Int, height: Int) throws -> Data {
        let clip: [String: Any] = ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]
        let r = try send("Page.captureScreenshot", ["format": "png", "clip": clip])
        guard let text = r["data"] as? String, let data = Data(base64Encoded: text) else {
            throw Failure(description: "Page.captureScreenshot returned no image")
        }
        return data
    }

    /// Presses and releases a key, as the keyboard would (trusted events); `shift` holds Shift.
    func press(_ key: String, shift: Bool = false) throws {
        let codes: [String: (String, Int)] = ["ArrowLeft": ("ArrowLeft", 37), "ArrowRight": ("ArrowRight", 39), " ": ("Space", 32),
                                              "Home": ("Home", 36), "End": ("End", 35), "i": ("KeyI", 73), "o": ("KeyO", 79),
                                              "x": ("KeyX", 88), "+": ("Equal", 187), "-": ("Minus", 189), "0": ("Digit0", 48)]
        guard let (code, vk) = codes[key] else { throw Failure(description: "no key code for '\(key)'") }
        let printable = key.count == 1
        let modifiers = shift ? 8 : 0
        var down: [String: Any] = ["type": printable ? "keyDown" : "rawKeyDown", "key": key, "code": code, "modifiers": modifiers,
                                   "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk]
        if printable { down["text"] = key; down["unmodifiedText"] = key }
        try send("Input.dispatchKeyEvent", down)
        try send("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "modifiers": modifiers,
                                            "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk])
    }

    /// A mouse event at (x, y) CSS pixels of the viewport: `mousePressed`, `mouseMoved`,
    /// `mouseReleased` (the left button), or `mouseWheel` with `deltaY` (`ctrl`: a pinch);
    /// `held`: a move with the left button down (a drag).
    func mouse(_ type: String, _ x: Double, _ y: Double, deltaY: Double = 0, ctrl: Bool = false, held: Bool = false) throws {
        var p: [String: Any] = ["type": type, "x": x, "y": y, "modifiers": ctrl ? 2 : 0]
        if type == "mousePressed" || type == "mouseReleased" { p["button"] = "left"; p["clickCount"] = 1; p["buttons"] = type == "mousePressed" ? 1 : 0 }
        if type == "mouseMoved" { p["button"] = held ? "left" : "none"; p["buttons"] = held ? 1 : 0 }
        if type == "mouseWheel" { p["deltaX"] = 0; p["deltaY"] = deltaY }
        try send("Input.dispatchMouseEvent", p)
    }
}
