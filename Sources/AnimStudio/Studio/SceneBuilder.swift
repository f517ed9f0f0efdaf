// SceneBuilder: one save of a script turned into what `anim serve` serves — the HTML player
// page that `anim render x.html` writes (its shell, made into the page on demand), the run's
// data the player embeds (for `/scene.json`),
// or the diagnostics when the script has errors. Each build runs in a fresh Session, so
// nothing of one save leaks into the next.
import AnimCore

/// The outcome of building one version of a script.
public struct SceneBuild: Sendable {
    /// The player page's shell, when the run succeeded (the page is made on demand: open pages
    /// need only the data).
    public var shell: HTMLPlayer.Shell?
    /// The run's data as the player embeds it (JSON), when the run succeeded.
    public var sceneJSON: String?
    /// The player page (HTMLPlayer), when the run succeeded.
    public var page: String? {
        guard let shell, let sceneJSON else { return nil }
        return HTMLPlayer.page(shell, data: sceneJSON)
    }
    /// What the run reported, rendered as `anim check` and `anim run` print it: the errors when
    /// it failed; failed expectations (the scene still plays) when it ran; empty otherwise.
    public var diagnostics: String
    /// When the run ended (the scene's length), when it succeeded.
    public var end: Time?
    /// The files the run read, FILE first: what the watcher must watch.
    public var loadedFiles: [String]
    /// Nanoseconds the build took.
    public var nanoseconds: Int64

    /// The failed expects among the diagnostics, each with its time: the seconds as the
    /// interpreter stamped them (`expectation failed at 1.000s: …`) and the whole diagnostic.
    public var failedExpects: [(seconds: String, text: String)] { SceneBuilder.failedExpects(diagnostics) }

    /// Whether there is a scene to show.
    public var succeeded: Bool { shell != nil }
}

/// Builds scenes.
public enum SceneBuilder {
    /// Runs `contents` as the script `name` and renders the player; `readError` is what to
    /// say when there are no contents (the file is missing).
    public static func build(name: String, contents: [UInt8]?, readError: String? = nil, options: SessionOptions, fps: Int,
                             shouldStop: (@Sendable () -> Bool)? = nil) -> SceneBuild {
        let start = MonotonicClock.now()
        guard let contents else {
            let text = "anim: error: \(readError ?? "cannot read '\(name)'")\n"
            return SceneBuild(shell: nil, sceneJSON: nil, diagnostics: text, end: nil, loadedFiles: [name],
                              nanoseconds: MonotonicClock.now() - start)
        }
        if contents.count > SourceFile.maxSize {
            return SceneBuild(shell: nil, sceneJSON: nil, diagnostics: "anim: error: \(FileSystem.tooLarge(name).message)\n", end: nil,
                              loadedFiles: [name], nanoseconds: MonotonicClock.now() - start)
        }
        var opts = options
        opts.color = false
        opts.fps = fps
        let captured = CapturedOutput()
        let session = Session(options: opts, output: captured)
        // A run stopped from outside ends quietly with what it had played: that is no scene.
        final class Stopped { var yes = false }
        let stopped = Stopped()
        if let shouldStop {
            session.interpreter.shouldStop = {
                if shouldStop() { stopped.yes = true }
                return stopped.yes
            }
        }
        let timeline = session.timeline(name: name, bytes: contents)
        let loaded = loadedFiles(session, main: name)
        if stopped.yes {
            return SceneBuild(shell: nil, sceneJSON: nil, diagnostics: "anim: the run of '\(name)' was interrupted\n", end: nil,
                              loadedFiles: loaded, nanoseconds: MonotonicClock.now() - start)
        }
        guard let timeline else {
            return SceneBuild(shell: nil, sceneJSON: nil, diagnostics: captured.error, end: nil, loadedFiles: loaded,
                              nanoseconds: MonotonicClock.now() - start)
        }
        var (shell, data) = HTMLPlayer.parts(timeline, fps: fps, title: "anim — \(FileSystem.baseName(of: name))",
                                             stepNames: session.environment.stepNames)
        // An open page takes later scenes' data alone: its script draws glyphs whether or not this one has them.
        shell.drawsGlyphs = true
        return SceneBuild(shell: shell, sceneJSON: data, diagnostics: captured.error, end: timeline.end,
                          loadedFiles: loaded, nanoseconds: MonotonicClock.now() - start)
    }

    /// The data the player page embeds: the JSON in its `<script type="application/json"
    /// id="anim-data">` element. The player quotes every string HTML-safe, so the element's
    /// text cannot contain `</script>` before its end.
    public static func embeddedData(_ page: String) -> String? {
        let open = "<script type=\"application/json\" id=\"anim-data\">"
        guard let a = page.firstRange(of: open), let b = page[a.upperBound...].firstRange(of: "</script>") else { return nil }
        return String(page[a.upperBound..<b.lowerBound])
    }

    /// The diagnostics of failed expects in `text` (as `anim run` prints them: a header line
    /// `file:line:col: error: expectation failed at S.SSSs: …`, then the source lines indented),
    /// with the time each one names.
    static func failedExpects(_ text: String) -> [(seconds: String, text: String)] {
        let marker = ": error: expectation failed at "
        var out: [(seconds: String, text: String)] = []
        var current: (seconds: String, lines: [Substring])?
        func flush() {
            if let c = current { out.append((c.seconds, c.lines.joined(separator: "\n") + "\n")) }
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let r = line.firstRange(of: marker) {
                flush()
                let stamp = line[r.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" }
                if !stamp.isEmpty, line[r.upperBound...].dropFirst(stamp.count).hasPrefix("s") { current = (String(stamp), [line]) }
            } else if line.hasPrefix(" "), current != nil {
                current!.lines.append(line)
            } else {
                flush()
            }
        }
        flush()
        return out
    }

    /// The session's sources that are files on disk (not the prelude or standard input), and
    /// the image files its scripts name.
    static func loadedFiles(_ session: Session, main: String) -> [String] {
        var out = [main]
        var id: SourceID = 0
        while let file = session.sources[id] {
            id += 1
            if file.name.hasPrefix("<") || out.contains(file.name) { continue }
            if FileSystem.exists(file.name) { out.append(file.name) }
        }
        // The PNG files of image shapes, so an edited picture rebuilds the scene (a missing
        // one too: it may appear).
        for path in session.imageFiles where !out.contains(path) { out.append(path) }
        return out
    }
}
