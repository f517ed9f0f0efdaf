// LiveStudio: `anim serve FILE`. It watches FILE (and every file its run reads, and its image
// shapes' PNG files), builds the player page for every change on a worker thread, and serves it:
//
//   /             the player page for the last good scene, with the live script (LivePage)
//   /scene.json   the run's data the player embeds (404 until there is a good scene)
//   /events       Server-Sent Events: `scene` after every build that produced a scene,
//                 `diagnostics` after every build that failed; a new or reconnecting client
//                 gets the current state at once
//
// Both events carry JSON: {"scene": N, "file": ..., "diagnostics": ..., "end": seconds}, where
// N numbers the good scenes (0 before the first), so a page knows whether it shows the latest;
// a scene whose run failed expects adds "expects": [[seconds, the diagnostic], …]; a scene
// whose JSON is mostly the last one's adds "delta": the new scene as runs of scene N − 1's text
// and new text (SceneDelta), which a page showing N − 1 joins instead of fetching /scene.json.
// Builds run one at a time in order; a change that comes while one runs waits, and a newer
// change replaces it in the wait (so the page always gets the last save, and never a build of
// bytes already superseded before their build began).
import AnimCore

/// The settings of `anim serve`.
public struct ServeOptions: Sendable {
    /// The script.
    public var file: String
    /// The server's address, port and limits.
    public var server = HTTPServerConfiguration()
    /// `--until`, `--seed` for the runs.
    public var session = SessionOptions()
    /// Samples per second in the player (as `anim render --fps`).
    public var fps = 60
    /// How files are watched.
    public var watchMode = FileWatcher.Mode.native
    /// Nanoseconds of quiet before a change is built.
    public var debounce: Int64 = FileWatcher.defaultDebounce
    /// `--open`: start the system browser on the page.
    public var openBrowser = false

    /// Options for serving `file`.
    public init(file: String) { self.file = file }
}

/// The live studio server.
public final class LiveStudio {
    /// Why it could not start.
    public enum Failure: Error, Sendable {
        /// The port is taken; `suggestion` is a free one nearby, if found.
        case portInUse(host: String, port: UInt16, suggestion: UInt16?)
        /// `--host` is not an address this machine can listen on.
        case badHost(String, reason: String)
        /// A system call failed.
        case system(SystemError)
    }

    /// The page's URL.
    public var url: String { server.url }

    private let options: ServeOptions
    private let console: StudioConsole
    private let loop: EventLoop
    private var server: HTTPServer!
    private var watcher: FileWatcher!
    private var worker: BuildWorker!
    private var signals: SignalPipe?

    /// The number of the last good scene (0: none yet), its page and data.
    private var scene = 0
    private var page: [UInt8]?
    private var player: SceneBuild?
    private var sceneJSON: [UInt8]?
    private var lastEnd: Time?
    /// Builds started and the one running; the newest change waiting for it to finish.
    private var builds = 0
    private var running: Int?
    private var waiting: BuildWorker.Job?

    /// Binds the port and starts watching; `run()` serves.
    public init(options: ServeOptions, console: StudioConsole) throws(Failure) {
        self.options = options
        self.console = console
        do { loop = try EventLoop() } catch { throw .system(error) }
        page = Array(LivePage.waitingPage(file: options.file).utf8)
        do {
            server = try HTTPServer(configuration: options.server, loop: loop) { [unowned self] in route($0) }
        } catch {
            switch error {
            case .portInUse(let host, let port):
                let free = port == 0 ? nil : Listener.freePort(after: port, host: host)
                throw .portInUse(host: host, port: port, suggestion: free)
            case .badHost(let host, let reason): throw .badHost(host, reason: reason)
            case .system(let e): throw .system(e)
            }
        }
        do {
            watcher = try FileWatcher(loop: loop, debounce: options.debounce, mode: options.watchMode) { [unowned self] in changed($0) }
            worker = try BuildWorker(options: options.session, fps: options.fps, done: loop.makeWaker { [unowned self] in finished() })
        } catch {
            throw .system(error)
        }
        watcher.watch(files: [options.file])
    }

    /// Serves until Ctrl-C (SIGINT) or SIGTERM, then closes every socket and returns.
    public func run() -> ExitCode {
        do {
            signals = try SignalPipe(loop: loop) { [unowned self] _ in loop.stop() }
        } catch {
            console.standardError("anim: error: \(error.message)\n")
            return .usage
        }
        if !server.listener.isLoopback {
            console.standardError("""
                anim serve: WARNING: listening on \(server.listener.host), not on 127.0.0.1: every machine that can reach \
                this one can read the page and the scene, and the Host check against DNS rebinding is off. \
                Serve on 127.0.0.1 (the default) unless that is what you want.

                """)
        }
        let how = watcher.mode == .native ? nativeName : "polling every \(WallClock.duration(FileWatcher.defaultPollInterval))"
        console.standardOutput("anim serve: \(url) — watching \(options.file) (\(how), \(WallClock.duration(watcher.debounce)) debounce); Ctrl-C stops\n")
        console.flush()
        build()
        if options.openBrowser, let problem = Browser.open(url) {
            console.standardError("anim serve: \(problem)\n")
        }
        loop.run()
        shutDown()
        console.standardOutput("anim serve: stopped\n")
        console.flush()
        return .success
    }

    private var nativeName: String {
        #if os(macOS)
        "kqueue"
        #else
        "inotify"
        #endif
    }

    private func shutDown() {
        server.shutDown()
        watcher.close()
        worker.stop()
        signals = nil
    }

    // MARK: - Building

    private func changed(_ changes: [FileWatcher.Change]) {
        build()
    }

    /// Builds the script's current bytes now, or after the build that is running.
    private func build() {
        builds += 1
        let contents = watcher.contents(of: options.file)
        var readError: String?
        if contents == nil, case .failure(let e) = FileSystem.readScript(options.file) { readError = e.message }
        let job = BuildWorker.Job(number: builds, name: options.file, contents: contents, readError: readError)
        if running == nil {
            running = job.number
            worker.submit(job)
        } else {
            waiting = job
        }
    }

    private func finished() {
        for done in worker.takeFinished() {
            running = nil
            apply(done.build, json: done.json, delta: done.delta)
        }
        if running == nil, let next = waiting {
            waiting = nil
            running = next.number
            worker.submit(next)
        }
    }

    private func apply(_ result: SceneBuild, json: [UInt8]?, delta: SceneDelta?) {
        let time = WallClock.timeOfDay()
        let took = WallClock.duration(result.nanoseconds)
        if result.succeeded {
            scene += 1
            // The page is made when a browser asks for it: pages that are open only fetch the
            // scene's data, so the event goes out without waiting for a copy of the page.
            player = result
            page = nil
            sceneJSON = json ?? result.sceneJSON.map { Array($0.utf8) }
            lastEnd = result.end
            // The worker's last scene was this studio's last (scene − 1): scenes are built in order.
            let change = scene > 1 ? delta.map { $0.json(base: scene - 1) } : nil
            server.publish(event: "scene", data: eventData(diagnostics: result.diagnostics, expects: result.failedExpects, delta: change))
            let length = result.end.map { ", \($0.eventStamp) s long" } ?? ""
            console.standardOutput("[\(time)] scene \(scene): \(options.file) ran\(length), built in \(took)\n")
        } else {
            server.publish(event: "diagnostics", data: eventData(diagnostics: result.diagnostics))
            let kept = scene > 0 ? "scene \(scene) stays on the page" : "no scene yet"
            console.standardOutput("[\(time)] \(options.file) has errors (\(kept)):\n")
        }
        if !result.diagnostics.isEmpty { console.standardError(result.diagnostics) }
        console.flush()
        let files = Set(result.loadedFiles)
        if files != Set(watcher.files) { watcher.watch(files: Array(files)) }
    }

    private func eventData(diagnostics: String, expects: [(seconds: String, text: String)] = [], delta: String? = nil) -> String {
        var o = "{\"scene\":\(scene),\"file\":\(quote(options.file)),\"diagnostics\":\(quote(diagnostics))"
        if !expects.isEmpty { o += ",\"expects\":[" + expects.map { "[\($0.seconds),\(quote($0.text))]" }.joined(separator: ",") + "]" }
        if let end = lastEnd { o += ",\"end\":\(end.exactSeconds)" }
        if let delta { o += ",\"delta\":" + delta }
        return o + "}"
    }

    // MARK: - Routes

    private func route(_ request: HTTPRequest) -> HTTPRoute {
        let get = request.method == "GET" || request.method == "HEAD"
        switch request.path {
        case "/", "/index.html":
            guard get else { return .respond(notAllowed) }
            if page == nil, let html = player?.page { page = Array(LivePage.page(player: html, scene: scene).utf8) }
            return .respond(HTTPResponse(.ok, contentType: "text/html; charset=utf-8", headers: [("Cache-Control", "no-store")], body: page ?? []))
        case "/scene.json":
            guard get else { return .respond(notAllowed) }
            guard let json = sceneJSON else { return .respond(.text(.notFound, "no scene yet: \(options.file) has not run without errors")) }
            return .respond(HTTPResponse(.ok, contentType: "application/json", headers: [("Cache-Control", "no-store"), ("ETag", "\"\(scene)\"")],
                                         body: json))
        case "/events":
            guard get else { return .respond(notAllowed) }
            if request.method == "HEAD" { return .respond(HTTPResponse(.ok, contentType: "text/event-stream; charset=utf-8")) }
            return .eventStream
        case "/favicon.ico":
            // Browsers ask for it; an empty answer keeps their consoles free of a 404.
            return .respond(HTTPResponse(.noContent))
        default:
            return .respond(.text(.notFound, "not found: this server has only /, /scene.json and /events"))
        }
    }

    private var notAllowed: HTTPResponse { .text(.methodNotAllowed, "only GET and HEAD", headers: [("Allow", "GET, HEAD")]) }
}
