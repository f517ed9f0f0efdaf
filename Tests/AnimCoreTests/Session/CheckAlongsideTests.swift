// `check(name:bytes:)` with the checker and the run side by side (Session+Alongside) against
// checking the whole script first and running it after (`checksAlongside` off): the same
// diagnostics in the same order, the same report, the same run — over every golden script and
// example, and for the cases where running early could show: a run-time error before a check
// error further on (the run's output dropped), a check warning and a run-time error (the
// warning first), a custom property declared by a later shape, an image that cannot be read.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Synchronization
import Testing

@Suite("Checking and running side by side")
struct CheckAlongsideTests {
    /// Everything a check shows and leaves, as text: what it wrote, its report, its counts and,
    /// when it passed, the run (shapes with their values and property room, graph runs,
    /// instantiations, property names, where each wait landed).
    static func outcome(_ name: String, _ text: String, alongside: Bool, until: Time? = nil) -> String {
        let out = CapturedOutput()
        var options = SessionOptions()
        options.baseNamesOnly = true
        options.until = until
        let session = Session(options: options, output: out)
        session.checksAlongside = alongside
        session.keepsTree = true
        session.waitLandings = []
        let r = session.check(name: name, bytes: Array(text.utf8))
        var lines = ["stdout: \(out.standard)", "stderr: \(out.error)",
                     "report: \(r.exitCode.rawValue) \(String(describing: r.duration)) \(String(describing: r.endless)) \(String(describing: r.cutAt)) \(r.warnings)",
                     "path: \(r.criticalPath.map { "\($0.begin)-\($0.end) \($0.label) \($0.position)" })",
                     "counts: \(session.errorCount) \(session.warningCount) passed \(session.keptCheckPassed)",
                     "landings: \(session.waitLandings ?? [])", "images: \(session.imageFiles)",
                     "cut: \(session.stoppedAtLimit)"]
        guard session.keptCheckPassed else { return lines.joined(separator: "\n") }
        let scene = session.interpreter.scene
        for (i, s) in scene.shapes.enumerated() {
            lines.append("shape \(s.name) \(s.kind) \(s.propertyCount) \(scene.values(of: ShapeID(i)))")
        }
        lines.append("instances: \(session.interpreter.instances.map { "\($0.graph) \($0.start) \(String(describing: $0.end))" })")
        lines.append("instantiations: \(session.instantiations.map { "\($0.name) \($0.graph?.nodes.count ?? -1)" })")
        lines.append("properties: \(session.interpreter.propertyNames)")
        lines.append("time: \(session.now) \(session.interpreter.time)")
        return lines.joined(separator: "\n")
    }

    static func expectSame(_ name: String, _ text: String, until: Time? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let a = outcome(name, text, alongside: true, until: until), b = outcome(name, text, alongside: false, until: until)
        #expect(a == b, "\(name): side by side\n\(a)\n--- one after the other\n\(b)", sourceLocation: sourceLocation)
    }

    /// Every golden script and example: its path (as the file is named, so that images are read
    /// relative to it) and its text.
    static let repositoryScripts: [(path: String, text: String)] = {
        let root = TestPaths.packageRoot
        return ["Tests/Scripts", "Examples"].flatMap { TestPaths.scripts(under: root.appendingPathComponent($0)) }.compactMap { path in
            let url = root.appendingPathComponent(path)
            return (try? String(contentsOf: url, encoding: .utf8)).map { (url.path, $0) }
        }
    }()

    @Test("every golden script and example checks the same side by side")
    func repositoryScripts() {
        #expect(Self.repositoryScripts.count > 100)
        for s in Self.repositoryScripts { Self.expectSame(s.path, s.text) }
    }

    @Test("every golden script and example checks the same side by side with --until", arguments: [0.5, 2.5])
    func repositoryScriptsUntil(_ until: Double) {
        for s in Self.repositoryScripts { Self.expectSame(s.path, s.text, until: Time(seconds: until)) }
    }

    @Test("an image read before a check error further on is not counted as read")
    func imageBeforeCheckError() {
        let root = TestPaths.packageRoot.appendingPathComponent("Tests/Scripts/errors/late-image.anim").path
        let text = "image icon file \"missing.png\" center (50, 50) size (32, 32)\nrect a center (0, 0) size (10, 10)\n"
            + Self.filler(1_000) + "animate 1 < nosuch.center = (1, 0) >\n"
        Self.expectSame(root, text)
        #expect(Self.outcome(root, text, alongside: true).contains("images: []"))
    }

    /// A shape, and a run-time error once the clock is past the time of an `at`.
    static let earlyRunTimeError = "rect a center (0, 0) size (10, 10)\nwait 1\nat 0 < print \"early\" >\n"

    /// Statements that check and run cleanly, to put distance between two places in a script.
    static func filler(_ n: Int) -> String {
        (0..<n).map { "animate 0.01 < a.center = (\($0 % 50), 0) >\n" }.joined()
    }

    @Test("a run-time error before a check error further on: only the check error, and nothing run")
    func runTimeErrorBeforeCheckError() {
        let text = Self.earlyRunTimeError + Self.filler(2_000)
            + "animate 1 < nosuch.center = (1, 0) >\n"
        Self.expectSame("late.anim", text)
        let out = Self.outcome("late.anim", text, alongside: true)
        #expect(out.contains("nosuch"))
        #expect(!out.contains("in the past"), "\(out)")
        #expect(out.contains("counts: 1 0 passed false"), "\(out)")
    }

    @Test("a check warning and a run-time error: the warning first, as when checked first")
    func warningThenRunTimeError() {
        let text = Self.earlyRunTimeError + Self.filler(500)
            + "rect b center (0, 0) size (10, 10) opacity 0.5\n"
        Self.expectSame("order.anim", text)
        let out = Self.outcome("order.anim", text, alongside: true)
        let warning = out.range(of: "opacity"), error = out.range(of: "in the past")
        #expect(warning != nil && error != nil, "\(out)")
        if let warning, let error { #expect(warning.lowerBound < error.lowerBound, "\(out)") }
    }

    @Test("a custom property a later shape declares: every shape has room for it, as when checked first")
    func customPropertyDeclaredLater() {
        let text = "rect a center (0, 0) size (10, 10)\n" + Self.filler(300)
            + "rect b center (0, 0) size (10, 10) wobble 3\nanimate 1 < b.wobble = 5 >\nsave a\n"
        Self.expectSame("custom.anim", text)
        let out = Self.outcome("custom.anim", text, alongside: true)
        let rooms = out.split(separator: "\n").filter { $0.hasPrefix("shape ") }.map { $0.split(separator: " ")[3] }
        #expect(rooms.count == 2 && rooms[0] == rooms[1], "\(out)")
    }

    @Test("an image that cannot be read after a run-time error: only the image's error, and nothing run")
    func unreadableImageAfterRunTimeError() {
        let text = Self.earlyRunTimeError + Self.filler(500)
            + "image icon file \"/nonexistent/missing.png\" center (50, 50) size (32, 32)\n"
        Self.expectSame("image.anim", text)
        let out = Self.outcome("image.anim", text, alongside: true)
        #expect(out.contains("missing.png"))
        #expect(!out.contains("in the past"), "\(out)")
    }

    @Test("a session that has run statements checks one after the other")
    func usedSessionChecksFirst() {
        let out = CapturedOutput()
        let session = Session(options: SessionOptions(), output: out)
        #expect(!session.hasExecuted, "the prelude's statements do not count")
        _ = session.check(name: "a.anim", bytes: Array("rect a center (0, 0) size (10, 10)\nanimate 1 < a.center = (5, 5) >\n".utf8))
        #expect(session.hasExecuted)
    }

    /// A script of `lines` statements whose last names an unknown shape (a check error).
    static func longScript(_ lines: Int) -> String {
        var text = "rect a center (0, 0) size (10, 10)\n"
        for k in 1..<lines - 1 { text += "animate 0.\(k % 9 + 1) < a.center = (\(k), 0) >\n" }
        return text + "animate 1 < nope.center = (0, 0) >\n"
    }

    /// Counts the times it is asked, and gives up from the `after`th on.
    final class Abandoner: Sendable {
        let asked = Mutex(0)
        let after: Int
        init(after: Int) { self.after = after }
        func ask() -> Bool { asked.withLock { n in n += 1; return n >= after } }
    }

    @Test("a check given up stops there: asked once a batch, nothing reported, the result marked incomplete")
    func abandonedCheckStops() {
        let text = Self.longScript(2_000)
        let kept = Self.Abandoner(after: Int.max)
        let whole = Session.diagnose(name: "long.anim", bytes: Array(text.utf8), abandons: kept.ask)
        #expect(!whole.abandoned)
        #expect(whole.diagnostics.contains { $0.message.contains("nope") }, "the error in the last statement is found")
        // Asked before the first statement and then once a batch, to the end.
        #expect(kept.asked.withLock { $0 } == (2_000 + CheckFeed.batch - 1) / CheckFeed.batch)

        let given = Self.Abandoner(after: 2)
        let cut = Session.diagnose(name: "long.anim", bytes: Array(text.utf8), abandons: given.ask)
        #expect(cut.abandoned)
        #expect(cut.diagnostics.isEmpty, "\(cut.diagnostics)")
        #expect(cut.report.exitCode == .failure)
        // Not asked again after it said so: the check stopped at the second batch.
        #expect(given.asked.withLock { $0 } == 2)
    }

    @Test("a check given up before the run's first event runs nothing and reports nothing")
    func abandonedAtOnce() {
        let out = CapturedOutput()
        let session = Session(options: SessionOptions(), output: out)
        session.abandons = { true }
        session.waitLandings = []
        let r = session.check(name: "a.anim", bytes: Array("rect a center (0, 0) size (10, 10)\nprint \"hi\"\nwait 1\n".utf8))
        #expect(session.wasAbandoned)
        #expect(r.exitCode == .failure)
        #expect(out.standard.isEmpty && out.error.isEmpty, "\(out.standard)\(out.error)")
        #expect(session.errorCount == 0 && session.warningCount == 0)
        #expect(session.waitLandings?.isEmpty == true)
    }
}
