// `anim watch` in a real terminal (tmux, as the REPL tests drive it): each save clears the
// screen and runs again, a status line gives the time, the outcome and how long it took,
// errors never end the watch, and Ctrl-C does — also in the middle of a long run. Without a
// terminal nothing is cleared. The script is saved as editors do (Editor.save).
import AnimTestSupport
import Foundation
import Testing

@Suite("anim watch in a terminal (tmux)", .enabled(if: Terminal.available, "tmux is not installed"))
struct WatchTerminalTests {
    /// `[14:03:12] ok in 12 ms; watching FILE (Ctrl-C stops)`.
    static func statusPattern(_ verdict: String, _ what: String) -> Regex<AnyRegexOutput> {
        try! Regex("\\[\\d\\d:\\d\\d:\\d\\d\\] \(NSRegularExpression.escapedPattern(for: verdict)) in \\d+(\\.\\d+)? (µs|ms|s); "
                   + "watching \(NSRegularExpression.escapedPattern(for: what)) \\(Ctrl-C stops\\)")
    }

    @Test func everySaveClearsTheScreenAndRunsAgain() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("w.anim")
        try Editor.save("rect a\nanimate 1 < a.z = 1 > then < print \"first\" >\n", to: file)
        let t = try Terminal(arguments: ["watch", file.path])
        var screen = try t.waitFor("[1.000] first")
        screen = try t.waitFor("the status line") { $0.contains(Self.statusPattern("ok", file.path)) }
        #expect(screen.hasPrefix("[1.000] first\n"))
        try Editor.save("rect a\nanimate 2 < a.z = 1 > then < print \"second\" >\n", to: file)
        screen = try t.waitFor("[2.000] second")
        // Cleared: the first run is gone, one status line shows.
        #expect(!screen.contains("first"))
        #expect(try t.count("watching") == 1)
        // An error is shown, and the watch goes on.
        try Editor.save("rect a\nanimate 1 < a.zz = 1 >\n", to: file)
        screen = try t.waitFor("failed (exit 1)")
        #expect(screen.contains("w.anim:2:15: error: unknown property 'zz' of rect 'a'; did you mean 'z'?"))
        #expect(screen.contains(Self.statusPattern("failed (exit 1)", file.path)))
        #expect(try t.exitStatus() == nil)
        // A save that keeps the bytes runs nothing.
        try Editor.save("rect a\nanimate 1 < a.zz = 1 >\n", to: file)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try t.screen() == screen)
        try Editor.save("rect a\nprint \"fixed\"\n", to: file)
        try t.waitFor("[0.000] fixed")
        try t.press("C-c")
        #expect(try t.waitForExit() == 0)
        #expect(try t.screen().contains("anim watch: stopped"))
    }

    @Test func runFlagsAndCheckAreTheCommandsOwn() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("f.anim")
        try Editor.save("rect a\nanimate 1 < a.z = 4 >\nat 0.5 < print \"half\" >\n", to: file)
        let t = try Terminal(arguments: ["watch", file.path, "--no-time", "--trace", "a.z", "--fps", "2"])
        try t.waitFor("the run") { $0.hasPrefix("a.z=0\nhalf\na.z=2\na.z=4\n") }
        try t.press("C-c")
        #expect(try t.waitForExit() == 0)

        let c = try Terminal(arguments: ["watch", "--check", file.path])
        try c.waitFor("\(file.path): ok; duration 1.000s")
        try Editor.save("rect a\nanimate 3 < a.z = 4 >\n", to: file)
        try c.waitFor("\(file.path): ok; duration 3.000s")
        #expect(try c.count("duration") == 1)
        try c.press("C-c")
        #expect(try c.waitForExit() == 0)
    }

    @Test func testModeWatchesEveryScriptBelowThePaths() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let suite = dir.appendingPathComponent("suite")
        try FileManager.default.createDirectory(at: suite.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try Editor.save("print \"a\"\n#> [0.000] a\n", to: suite.appendingPathComponent("a.anim"))
        try Editor.save("print \"b\"\n#> [0.000] b\n", to: suite.appendingPathComponent("inner/b.anim"))
        let t = try Terminal(arguments: ["watch", "--test", suite.path])
        try t.waitFor("2 passed, 0 failed")
        try t.waitFor("the status line") { $0.contains(Self.statusPattern("ok", "2 scripts below \(suite.path)")) }
        // One breaks: it is reported, the watch goes on.
        try Editor.save("print \"B\"\n#> [0.000] b\n", to: suite.appendingPathComponent("inner/b.anim"))
        let screen = try t.waitFor("1 passed, 1 failed")
        #expect(screen.contains("FAIL \(suite.path)/inner/b.anim"))
        #expect(screen.contains("failed (exit 1)"))
        // A new script below the tree is picked up.
        try Editor.save("print \"c\"\n#> [0.000] c\n", to: suite.appendingPathComponent("c.anim"))
        try t.waitFor("2 passed, 1 failed")
        // Files that are not scripts are not watched.
        try "notes".write(to: suite.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try t.count("2 passed, 1 failed") == 1)
        try t.press("C-c")
        #expect(try t.waitForExit() == 0)
    }

    @Test func ctrlCEndsALongRun() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("long.anim")
        // A run of many millions of events: far longer than the test waits.
        try Editor.save("rect a\nrepeat 1000000000 < animate 0.001 < a.z = 1 > >\nat 0 < print \"started\" >\n", to: file)
        let t = try Terminal(arguments: ["watch", file.path])
        try t.waitFor("[0.000] started")
        Thread.sleep(forTimeInterval: 0.3)
        let pressed = Date()
        try t.press("C-c")
        #expect(try t.waitForExit() == 0)
        #expect(Date().timeIntervalSince(pressed) < 5)
        let screen = try t.screen()
        #expect(screen.contains(try Regex("\\[\\d\\d:\\d\\d:\\d\\d\\] interrupted after ")), "\(screen)")
        // (Not "started" again: tmux 3.3 redraws a pane that died under remain-on-exit without
        // the lines written since the last clear of its history, which the watch's clear does.)
        #expect(screen.contains("anim watch: stopped"))
    }

    @Test func withoutATerminalNothingIsCleared() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.anim")
        try Editor.save("print \"one\"\n", to: file)
        let p = Process()
        p.executableURL = TestPaths.animBinary
        p.arguments = ["watch", file.path, "--debounce", "5"]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        final class Box: @unchecked Sendable { var data = Data(); let lock = NSLock() }
        let o = Box(), e = Box()
        out.fileHandleForReading.readabilityHandler = { h in let d = h.availableData; o.lock.lock(); o.data += d; o.lock.unlock() }
        err.fileHandleForReading.readabilityHandler = { h in let d = h.availableData; e.lock.lock(); e.data += d; e.lock.unlock() }
        func text(_ b: Box) -> String { b.lock.lock(); defer { b.lock.unlock() }; return String(decoding: b.data, as: UTF8.self) }
        func wait(_ what: String, in b: Box) -> Bool {
            let end = Date().addingTimeInterval(10)
            while !text(b).contains(what) && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
            return text(b).contains(what)
        }
        #expect(wait("[0.000] one", in: o))
        #expect(wait("watching", in: e))
        try Editor.save("print \"two\"\n", to: file)
        #expect(wait("[0.000] two", in: o))
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(text(o) == "[0.000] one\n[0.000] two\n")
        #expect(!text(e).contains("\u{1B}"))
    }

    @Test func usageErrors() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Editor.save("print 1\n", to: dir.appendingPathComponent("a.anim"))
        let cases: [([String], String)] = [
            (["watch"], "anim: error: missing the script to watch"),
            (["watch", "--test"], "anim: error: missing the tests to watch (files or directories)"),
            (["watch", "nope.anim"], "anim: error: cannot read 'nope.anim': No such file or directory"),
            (["watch", "--test", "nope"], "anim: error: cannot read 'nope': No such file or directory"),
            (["watch", "a.anim", "--run", "--check"], "anim: error: '--run', '--check' and '--test' cannot be combined"),
            (["watch", "a.anim", "--check", "--json"], "anim: error: '--json' is a run flag; '--check' takes only '--until'"),
            (["watch", "--test", "a.anim", "--seed", "1"], "anim: error: '--seed' does not go with '--test'"),
            (["watch", "a.anim", "--chek"], "anim: error: unknown option '--chek' for watch; did you mean '--check'?"),
            (["watch", "a.anim", "--debounce", "-1"], "anim: error: '--debounce' takes a whole number from 0 to 10000, not '-1'"),
            (["watch", "-"], "anim: error: 'anim watch' watches a file, so it cannot read standard input"),
        ]
        for (args, message) in cases {
            let r = try runAnim(args, currentDirectory: dir)
            #expect(r.exitCode == 2, "\(args)")
            #expect(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        let help = try runAnim(["watch", "--help"])
        #expect(help.exitCode == 0 && help.stdout.contains("USAGE: anim watch <file> [--run | --check] [run flags] [--poll] [--debounce <ms>]"))
    }
}
