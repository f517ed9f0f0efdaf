// Hostile input and failing output, end to end through the built binary: odd bytes in a
// script (empty, BOM, CRLF, tabs, NUL, invalid UTF-8, a very long line), standard input
// closed, standard output on a full device, unwritable targets, and outputs that are devices
// or symbolic links. Plus determinism: every golden script gives byte-identical output in two
// processes, and its events do not depend on --fps.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// A temporary directory for one test.
private struct Scratch {
    let dir: URL

    init(_ files: [String: [UInt8]] = [:]) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
    }

    func anim(_ args: [String], stdin: String? = nil) throws -> RunResult {
        try runAnim(args, stdin: stdin, currentDirectory: dir)
    }

    /// `anim` run through /bin/sh as `$ANIM`, for redirections a Process cannot express (`<&-`).
    func shell(_ command: String) throws -> RunResult {
        try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["ANIM": TestPaths.animBinary.path],
                       currentDirectory: dir)
    }

    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}

@Suite("Hostile input")
struct HostileInputTests {
    @Test func anEmptyFileRunsAndPrintsNothing() throws {
        let s = try Scratch(["empty.anim": []])
        defer { s.remove() }
        let r = try s.anim(["run", "empty.anim"])
        #expect(r == RunResult(stdout: "", stderr: "", exitCode: 0))
        let check = try s.anim(["check", "empty.anim"])
        #expect(check.exitCode == 0, Comment(rawValue: check.stderr))
    }

    @Test func aBOMAndCRLFLineEndingsReadAsPlainLines() throws {
        let text = "\u{FEFF}rect a\r\nanimate 1 < a.z = 1 >\r\nwait\r\nprint a.z\r\nprint a.zz\r\n"
        let s = try Scratch(["crlf.anim": Array(text.utf8)])
        defer { s.remove() }
        let r = try s.anim(["run", "crlf.anim"])
        #expect(r.exitCode == 1)
        // The error's column counts from the line start as the user sees it: no BOM, no '\r'.
        #expect(r.stderr == """
            crlf.anim:5:9: error: unknown property 'zz' of rect 'a'; did you mean 'z'?
              5 | print a.zz
                |         ^^ not a property of rect

            """)
        let ok = try s.anim(["run", "-"], stdin: "\u{FEFF}print 1\r\nprint 2\r\n")
        #expect(ok.stdout == "[0.000] 1\n[0.000] 2\n")
    }

    @Test func tabsAreSpaceAndTheCaretStaysUnderTheError() throws {
        let s = try Scratch(["tabs.anim": Array("rect a\n\tanimate 1 <\ta.zz = 1\t>\n".utf8)])
        defer { s.remove() }
        let r = try s.anim(["run", "tabs.anim"])
        #expect(r.exitCode == 1)
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].hasPrefix("tabs.anim:2:16: error: unknown property 'zz'"), Comment(rawValue: r.stderr))
        // Whatever the tab is shown as, the caret is under 'zz'.
        let source = Array(lines[1]), caret = Array(lines[2])
        let col = caret.firstIndex(of: "^")!
        #expect(String(source[col...].prefix(2)) == "zz", Comment(rawValue: r.stderr))
    }

    @Test func invalidUTF8IsAnErrorAtTheByteInCodeAndInStrings() throws {
        let s = try Scratch([
            "code.anim": Array("print 1 ".utf8) + [0xFF] + Array("\n".utf8),
            "string.anim": Array("print \"caf".utf8) + [0xE9] + Array("\"\n".utf8),
        ])
        defer { s.remove() }
        let code = try s.anim(["run", "code.anim"])
        #expect(code.exitCode == 1)
        #expect(code.stderr.hasPrefix("code.anim:1:9: error: invalid UTF-8 byte 0xff\n"), Comment(rawValue: code.stderr))
        let string = try s.anim(["run", "string.anim"])
        #expect(string.exitCode == 1)
        #expect(string.stdout.isEmpty)
        #expect(string.stderr.hasPrefix("string.anim:1:11: error: invalid UTF-8 byte 0xe9 in a string\n"), Comment(rawValue: string.stderr))
        // The source line is shown as valid text (U+FFFD for the bad byte).
        #expect(string.stderr.contains("print \"caf\u{FFFD}\""))
    }

    @Test func aNULByteIsAnErrorShownAsAPicture() throws {
        let s = try Scratch(["nul.anim": Array("print 1".utf8) + [0] + Array("\nprint 2\n".utf8)])
        defer { s.remove() }
        let r = try s.anim(["run", "nul.anim"])
        #expect(r.exitCode == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "nul.anim:1:8: error: unexpected NUL\n  1 | print 1\u{2400}\n    |        ^\n")
    }

    @Test func aBinaryFileShowsTwentyErrorsAndCountsTheRest() throws {
        // 30 lines of one NUL each: 30 errors, 20 shown.
        let s = try Scratch(["binary.anim": Array(repeating: [0, 0x0A], count: 30).flatMap { $0 }])
        defer { s.remove() }
        let r = try s.anim(["run", "binary.anim"])
        #expect(r.exitCode == 1)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains(": error: ") }.count == Session.maxShownErrors)
        #expect(lines.last == "anim: 10 more diagnostics not shown (the first 20 errors are above)")
    }

    @Test func aVeryLongLineShowsAWindowAroundTheCaret() throws {
        let line = "print \"" + String(repeating: "x", count: 200_000) + "\" + y\n"
        let s = try Scratch(["long.anim": Array(line.utf8)])
        defer { s.remove() }
        let r = try s.anim(["run", "long.anim"])
        #expect(r.exitCode == 1)
        #expect(r.stderr.hasPrefix("long.anim:1:200012: error: unknown name 'y'\n"), Comment(rawValue: String(r.stderr.prefix(200))))
        for l in r.stderr.split(separator: "\n") {
            #expect(l.count <= DiagnosticRenderer.maxLineWidth + 12, "a diagnostic line of \(l.count) characters")
        }
    }

    @Test func aScriptLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let s = try Scratch()
        defer { s.remove() }
        // A sparse file: its size is past the limit, yet it takes no disk space.
        let path = s.dir.appendingPathComponent("huge.anim").path
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        #expect(ftruncate(fd, off_t(SourceFile.maxSize + 1)) == 0)
        close(fd)
        let r = try s.anim(["run", "huge.anim"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("anim: error: cannot read 'huge.anim': a script may be at most 256 MiB\n"), Comment(rawValue: r.stderr))
        let check = try s.anim(["check", "huge.anim"])
        #expect(check.exitCode == 2)
    }

    @Test func standardInputClosedOrEmptyIsAnEmptyScript() throws {
        let s = try Scratch()
        defer { s.remove() }
        let closed = try s.shell("\"$ANIM\" run - <&-")
        #expect(closed == RunResult(stdout: "", stderr: "", exitCode: 0))
        let null = try s.shell("\"$ANIM\" </dev/null")
        #expect(null == RunResult(stdout: "", stderr: "", exitCode: 0))
        // A script cut off in the middle of a block is a syntax error, not a hang.
        let cut = try s.anim(["run", "-"], stdin: "rect a\nanimate 1 < a.z = ")
        #expect(cut.exitCode == 1)
        #expect(cut.stderr.hasPrefix("<stdin>:2:") || cut.stderr.hasPrefix("-:2:"), Comment(rawValue: cut.stderr))
    }
}

@Suite("Failing output")
struct FailingOutputTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFullDiskOnStandardOutputIsAnErrorAndExitOne() throws {
        let s = try Scratch(["ok.anim": Array("print 1\n".utf8)])
        defer { s.remove() }
        let r = try s.shell("\"$ANIM\" run ok.anim >/dev/full")
        #expect(r.exitCode == 1)
        #expect(r.stderr == "anim: error: cannot write standard output: No space left on device\n")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func aFullDeviceAsOutputFileIsAnErrorAndTheDeviceStays() throws {
        let s = try Scratch(["ok.anim": Array("print 1\n".utf8)])
        defer { s.remove() }
        let r = try s.anim(["graph", "ok.anim", "-o", "/dev/full"])
        #expect(r.exitCode != 0)
        #expect(r.stderr.contains("cannot write '/dev/full': No space left on device"), Comment(rawValue: r.stderr))
        // Written to, not replaced by a rename: it is still a character device.
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test func aPathThatCannotBeCreatedIsAnErrorAndLeavesNothing() throws {
        let s = try Scratch(["ok.anim": Array("rect a\nanimate 1 < a.z = 1 >\n".utf8)])
        defer { s.remove() }
        // /proc refuses new files even to root.
        for out in ["/proc/anim-test.html", "/proc/anim-test.json", "/proc/anim-frames/"] {
            let args = out.hasSuffix(".json") ? ["export", "ok.anim", "-o", out, "--lottie"] : ["render", "ok.anim", "-o", out]
            let r = try s.anim(args)
            #expect(r.exitCode != 0, "\(args)")
            #expect(r.stderr.hasPrefix("anim: error: cannot write"), Comment(rawValue: r.stderr))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        #expect(s.files == ["ok.anim"])
    }

    @Test func aReadOnlyDirectoryIsAnErrorAndLeavesNoTemporaryFile() throws {
        guard getuid() != 0 else { return }  // root writes anywhere: nothing to test
        let s = try Scratch(["ok.anim": Array("print 1\n".utf8)])
        defer { chmod(s.dir.path, 0o755); s.remove() }
        chmod(s.dir.path, 0o555)
        let r = try s.anim(["graph", "ok.anim", "-o", "g.dot"])
        #expect(r.exitCode != 0)
        #expect(r.stderr.contains("Permission denied"), Comment(rawValue: r.stderr))
        #expect(s.files == ["ok.anim"])
    }

    @Test func outputsToDevicesAndThroughLinks() throws {
        let s = try Scratch(["ok.anim": Array("print 1\n".utf8)])
        defer { s.remove() }
        let stdout = try s.anim(["graph", "ok.anim", "-o", "/dev/stdout"])
        #expect(stdout.exitCode == 0, Comment(rawValue: stdout.stderr))
        #expect(stdout.stdout.hasPrefix("digraph anim {"))
        // A symbolic link stays a link; the file it names gets the output (even a new one).
        let link = s.dir.appendingPathComponent("link.dot").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.dot")
        for _ in 0..<2 {
            let r = try s.anim(["graph", "ok.anim", "-o", "link.dot"])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "real.dot")
            let text = try String(contentsOfFile: s.dir.appendingPathComponent("real.dot").path, encoding: .utf8)
            #expect(text.hasPrefix("digraph anim {"))
        }
        #expect(s.files == ["link.dot", "ok.anim", "real.dot"])
    }
}

@Suite("Determinism", .serialized)
struct DeterminismTests {
    /// Every golden script and example, with its `#:` flags.
    static let scripts: [(path: String, flags: [String])] = {
        (TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples)).map { path in
            let text = (try? String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)) ?? ""
            return (path, ScriptExpectations(text: text).flags)
        }
    }()

    /// Runs a script from its own directory, as `anim test` names it.
    func run(_ path: String, _ flags: [String]) throws -> RunResult {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        return try runAnim(["run", url.lastPathComponent] + flags, currentDirectory: url.deletingLastPathComponent())
    }

    @Test func everyGoldenScriptPrintsTheSameBytesInTwoProcesses() throws {
        #expect(Self.scripts.count > 300)
        for (path, flags) in Self.scripts {
            let a = try run(path, flags), b = try run(path, flags)
            #expect(a == b, "\(path) differs between two runs")
        }
    }

    @Test func eventsDoNotDependOnTheFrameRate() throws {
        var compared = 0
        for (path, flags) in Self.scripts where !flags.contains(where: { $0 == "--fps" || $0 == "--trace" }) {
            let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent(path), encoding: .utf8)
            // Observers run at the frame rate by design; their output may differ.
            if text.contains("on change") || text.contains("velocity(") { continue }
            let a = try run(path, flags + ["--fps", "60"]), b = try run(path, flags + ["--fps", "7"])
            #expect(a == b, "\(path): events differ between --fps 60 and --fps 7")
            compared += 1
        }
        #expect(compared > 250)
    }
}
