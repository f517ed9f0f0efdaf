// `--until T` covers 0…T in every command, whatever the run's last event is: a tween that
// repeats forever has no event after it starts, and the commands used to stop there (one
// frame, `"op": 1`, `duration 0.000s`, a `0s` chart).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("--until covers the whole range")
struct UntilTests {
    /// A script whose only animation never ends, and one that ends at 0.5 s.
    static let forever = "rect sq center (50, 50) size (20, 20)\nanimate 1 ease linear repeat forever < sq.alpha = 0 >\n"
    static let short = "rect sq center (50, 50) size (20, 20)\nanimate 0.5 ease linear < sq.alpha = 0 >\n"

    func write(_ text: String, in dir: ScratchDirectory, _ name: String = "s.anim") throws -> String {
        let path = dir.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("render writes every frame up to T")
    func renderFrames() throws {
        let dir = try ScratchDirectory("until-frames")
        defer { dir.remove() }
        let script = try write(Self.forever, in: dir)
        let r = try runAnim(["render", script, "-o", dir.path("frames") + "/", "--fps", "4", "--until", "2"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("frames")).sorted()
        #expect(names.count == 9, "frames 0…8 at 4 fps over 2 s, not \(names.count)")
        // A finished run is carried on to T too: its last frames hold the end state.
        let shortScript = try write(Self.short, in: dir, "short.anim")
        let s = try runAnim(["render", shortScript, "-o", dir.path("short") + "/", "--fps", "4", "--until", "2"])
        #expect(s.exitCode == 0, Comment(rawValue: s.stderr))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("short")).count == 9)
    }

    @Test("export's out point is T")
    func exportOutPoint() throws {
        let dir = try ScratchDirectory("until-export")
        defer { dir.remove() }
        let script = try write(Self.forever, in: dir)
        let r = try runAnim(["export", script, "-o", dir.path("s.json"), "--lottie", "--until", "3", "--fps", "30"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("s.json")))) as? [String: Any]
        let fr = json?["fr"] as? Double ?? 0, op = json?["op"] as? Double ?? 0
        #expect(op / fr >= 3, "the document lasts to 3 s, not \(op / fr) s")
    }

    @Test("check says where --until stopped a run that goes on, and the duration of one that ends")
    func checkReport() throws {
        let dir = try ScratchDirectory("until-check")
        defer { dir.remove() }
        let script = try write(Self.forever, in: dir)
        let r = try runAnim(["check", script, "--until", "2"], currentDirectory: dir.url)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stdout.contains("stopped at 2.000s by --until (the graph at"), Comment(rawValue: r.stdout))
        #expect(r.stdout.contains("repeats forever"), Comment(rawValue: r.stdout))
        let shortScript = try write(Self.short, in: dir, "short.anim")
        let s = try runAnim(["check", shortScript, "--until", "2"])
        #expect(s.stdout.contains("duration 0.500s"), Comment(rawValue: s.stdout))
    }

    @Test("the timeline spans 0…T")
    func timelineSpan() throws {
        let dir = try ScratchDirectory("until-timeline")
        defer { dir.remove() }
        let script = try write(Self.forever, in: dir)
        let r = try runAnim(["timeline", script, "--until", "2"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stdout.hasPrefix("timeline: 2s,"), Comment(rawValue: r.stdout))
        #expect(r.stdout.contains("0–2s"), "the endless tween's bar runs to the end: \(r.stdout)")
    }
}
