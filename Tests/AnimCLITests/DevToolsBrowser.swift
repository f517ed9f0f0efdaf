// DevToolsBrowser: headless Chromium driven through the DevTools protocol over a pipe
// (`--remote-debugging-pipe`: the browser reads commands on descriptor 3 and writes answers
// and events on descriptor 4, each message JSON ended by a NUL byte), so a test can load a
// page, evaluate expressions in it and collect every console message and uncaught exception
// while the page lives — which `--dump-dom` cannot do for a page that keeps a connection open.
import AnimTestSupport
import Foundation
import Testing

/// A headless Chromium with one page.
final class DevToolsBrowser: @unchecked Sendable {
    private let pid: pid_t
    /// The browser's process (for the test that checks what it inherited).
    var processID: pid_t { pid }
    private let commands: Int32
    private let answers: Int32
    private let profile: URL
    private let lock = NSLock()
    private var messages: [[String: Any]] = []
    private var nextID = 1
    private var session: String?
    private var reader: Thread?

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Console messages, exceptions and log entries of level error or warning, as text.
    var problems: [String] {
        lock.lock(); defer { lock.unlock() }
        return messages.compactMap(DevToolsBrowser.problem)
    }

    /// Starts Chromium with a fresh profile and opens a blank page.
    init(chromium: String) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("anim-chromium-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var toBrowser: [Int32] = [-1, -1], fromBrowser: [Int32] = [-1, -1]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw Failure(description: "pipe failed") }
        for fd in toBrowser + fromBrowser { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        // Nothing else this process has open goes to the browser: the pipes of programs other
        // tests are running at this instant would otherwise stay open in it for as long as it
        // lives, and a read of their output would wait for the browser.
        closeDescriptors(from: 5, in: &actions)
        let argv = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                    "--disable-extensions", "--user-data-dir=\(profile.path)", "--remote-debugging-pipe", "about:blank"]
        let args = argv.map { strdup($0) } + [nil]
        defer { args.forEach { free($0) } }
        var child = pid_t()
        let rc = posix_spawn(&child, chromium, &actions, nil, args, environ)
        close(toBrowser[0])
        close(fromBrowser[1])
        guard rc == 0 else { throw Failure(description: "cannot start \(chromium): \(String(cString: strerror(rc)))") }
        pid = child
        commands = toBrowser[1]
        answers = fromBrowser[0]
        let t = Thread { [unowned self] in readLoop() }
        reader = t
        t.start()
        // One page target, attached in flat mode: its commands carry the session id.
        let created = try send("Target.createTarget", ["url": "about:blank"], browserLevel: true)
        guard let target = created["targetId"] as? String else { throw Failure(description: "no target: \(created)") }
        let attached = try send("Target.attachToTarget", ["targetId": target, "flatten": true], browserLevel: true)
        session = attached["sessionId"] as? String
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] { _ = try send(domain) }
    }

    deinit {
        _ = try? send("Browser.close", browserLevel: true, timeout: 5)
        close(commands)
        var status: Int32 = 0
        let end = Date().addingTimeInterval(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > end { kill(pid, SIGKILL); waitpid(pid, &status, 0); break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        close(answers)
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command and waits for its answer's `result`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], browserLevel: Bool = false, timeout: Double = 20) throws -> [String: Any] {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if !browserLevel, let session { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        let written = data.withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
        guard written == data.count else { throw Failure(description: "the browser's pipe is closed") }
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            lock.lock()
            let answer = messages.first { ($0["id"] as? Int) == id }
            lock.unlock()
            if let answer {
                if let error = answer["error"] { throw Failure(description: "\(method) failed: \(error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw Failure(description: "no answer to \(method) within \(timeout) s")
    }

    /// Opens a URL in the page.
    func navigate(_ url: String) throws { try send("Page.navigate", ["url": url]) }

    /// The value of a JavaScript expression in the page (nil if it threw or is undefined).
    func evaluate(_ expression: String) throws -> Any? {
        let r = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        if r["exceptionDetails"] != nil { return nil }
        return (r["result"] as? [String: Any])?["value"]
    }

    /// Polls an expression until `condition` holds for its value; the last value.
    @discardableResult
    func waitFor(_ expression: String, timeout: Double = 20, sourceLocation: SourceLocation = #_sourceLocation,
                 _ condition: (Any?) -> Bool) throws -> Any? {
        let end = Date().addingTimeInterval(timeout)
        var value = try? evaluate(expression)
        while !condition(value) {
            if Date() > end {
                Issue.record("timed out waiting on \(expression); last value \(String(describing: value))", sourceLocation: sourceLocation)
                return value
            }
            Thread.sleep(forTimeInterval: 0.05)
            value = try? evaluate(expression)
        }
        return value
    }

    private func readLoop() {
        var pending = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            pending.append(contentsOf: chunk[0..<n])
            while let nul = pending.firstIndex(of: 0) {
                let one = pending[pending.startIndex..<nul]
                pending = Data(pending[(nul + 1)...])
                if let object = try? JSONSerialization.jsonObject(with: one) as? [String: Any] {
                    lock.lock()
                    messages.append(object)
                    lock.unlock()
                }
            }
        }
    }

    /// A console message, exception or error/warning log entry, as text; nil for anything else.
    static func problem(_ m: [String: Any]) -> String? {
        let params = m["params"] as? [String: Any] ?? [:]
        switch m["method"] as? String {
        case "Runtime.consoleAPICalled":
            let args = (params["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "?")" }
            return "console.\(params["type"] ?? "?"): \(args.joined(separator: " "))"
        case "Runtime.exceptionThrown":
            let d = params["exceptionDetails"] as? [String: Any] ?? [:]
            return "exception: \(d["text"] ?? "") \((d["exception"] as? [String: Any])?["description"] ?? "")"
        case "Log.entryAdded":
            let e = params["entry"] as? [String: Any] ?? [:]
            let level = e["level"] as? String ?? ""
            return level == "error" || level == "warning" ? "log \(level): \(e["text"] ?? "") \(e["url"] ?? "")" : nil
        default:
            return nil
        }
    }
}
