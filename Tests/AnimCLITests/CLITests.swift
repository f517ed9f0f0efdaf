// End-to-end tests of the built `anim` binary: exit codes (0 success, 1 a script error or a
// failed expectation, 2 a usage error), the stderr format, every command's --help, the run
// flags (--json, --no-time, --trace), `anim check` and its dumps, `anim test` on a temporary
// directory, standard input, and a closed pipe.
import AnimTestSupport
import Foundation
import Testing

/// A temporary directory holding scripts; removed by `remove()`.
private struct Scratch {
    let dir: URL

    init(_ files: [String: String]) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Runs `anim` with the scratch directory as the working directory.
    func anim(_ args: [String], stdin: String? = nil) throws -> RunResult {
        try runAnim(args, stdin: stdin, currentDirectory: dir)
    }

    func remove() { try? FileManager.default.removeItem(at: dir) }
}

private let scripts: [String: String] = [
    "ok.anim": "rect a\nanimate 1 ease linear < a.z = 10 >\nat 0.5 < print \"half {a.z}\" >\nwait\nprint \"done\"\n",
    "expect.anim": "rect a\nexpect a.z == 1\nprint \"goes on\"\n",
    "check_error.anim": "rect square\nprint square.centre\n",
    "run_error.anim": "let zero = 0\nprint \"before\"\nprint 1 / zero\n",
    "forever.anim": "repeat forever < wait 1 then print \"tick\" >\n",
    "warn.anim": "rect a centre (1, 1)\nanimate 2 < a.z = 1 >\n",
    "json.anim": "rect a\nprint \"start\"\nwait 1.25 then print \"q\\\"t\"\nexpect a.z == 1\n",
    "dir/inner.anim": "print 1\n",
]

/// The first line of a text.
private func firstLine(_ s: String) -> String { String(s.prefix { $0 != "\n" }) }

/// Whether a line reads `file:line:col: error: message`.
private func isDiagnosticLine(_ line: String) -> Bool {
    line.wholeMatch(of: #/[^:\n]+:\d+:\d+: error: .+/#) != nil
}

@Suite("anim command line", .serialized)
struct CLITests {
    // MARK: - Exit codes

    static let exitCases: [([String], Int32)] = [
        (["run", "ok.anim"], 0),
        (["run", "expect.anim"], 1),         // a failed expectation
        (["run", "check_error.anim"], 1),    // an error found before running
        (["run", "run_error.anim"], 1),      // an error at run time
        (["run", "forever.anim"], 1),        // never ends, no --until
        (["run", "forever.anim", "--until", "2"], 0),
        (["run", "--bogus", "ok.anim"], 2),  // a bad flag
        (["run", "ok.anim", "--until", "soon"], 2),
        (["run", "ok.anim", "--fps", "0"], 2),
        (["run", "missing.anim"], 2),        // an unreadable file
        (["run", "dir"], 2),                 // a directory given as a file
        (["run"], 2),                        // no script
        (["run", "ok.anim", "expect.anim"], 2),
        (["check", "ok.anim"], 0),
        (["check", "check_error.anim"], 1),
        (["check", "ok.anim", "--fps", "3"], 2),
        (["check", "missing.anim"], 2),
        (["frobnicate"], 2),
        (["--version"], 0),
    ]

    @Test("exit codes", arguments: exitCases)
    func exitCodes(args: [String], code: Int32) throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(args)
        #expect(r.exitCode == code, "anim \(args.joined(separator: " "))\n\(r.stderr)")
    }

    @Test func unreadableFileWhenNotRoot() throws {
        guard getuid() != 0 else { return }  // root reads anything: nothing to test
        let s = try Scratch(["secret.anim": "print 1\n"])
        defer { s.remove() }
        chmod(s.dir.appendingPathComponent("secret.anim").path, 0)
        let r = try s.anim(["run", "secret.anim"])
        #expect(r.exitCode == 2)
        #expect(firstLine(r.stderr) == "anim: error: cannot read 'secret.anim': Permission denied")
    }

    // MARK: - Standard error

    static let stderrCases: [(String, String)] = [
        ("expect.anim", "expect.anim:2:1: error: expectation failed at 0.000s: a.z is 0, expected 1"),
        ("check_error.anim", "check_error.anim:2:14: error: unknown property 'centre' of rect 'square'; did you mean 'center'?"),
        ("run_error.anim", "run_error.anim:3:7: error: division by zero"),
    ]

    @Test("diagnostics start with file:line:col: error:", arguments: stderrCases)
    func stderrFormat(file: String, line: String) throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(["run", file])
        #expect(firstLine(r.stderr) == line)
        #expect(isDiagnosticLine(firstLine(r.stderr)))
        #expect(!r.stderr.contains("\u{1B}["))  // no colour when stderr is not a terminal
    }

    @Test func diagnosticsKeepThePathAsGiven() throws {
        let s = try Scratch(["sub/bad.anim": "print foo\n"])
        defer { s.remove() }
        #expect(firstLine(try s.anim(["run", "sub/bad.anim"]).stderr) == "sub/bad.anim:1:7: error: unknown name 'foo'")
        #expect(firstLine(try s.anim(["run", "-"], stdin: "print foo\n").stderr) == "<stdin>:1:7: error: unknown name 'foo'")
    }

    @Test func usageErrors() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let cases: [([String], String)] = [
            (["run", "--untl", "5", "ok.anim"], "anim: error: unknown option '--untl'; did you mean '--until'?"),
            (["run", "missing.anim"], "anim: error: cannot read 'missing.anim': No such file or directory"),
            (["run", "dir"], "anim: error: cannot read 'dir': it is a directory"),
            (["run"], "anim: error: missing the script to run"),
            (["rnu", "ok.anim"], "anim: error: unknown command 'rnu'; did you mean 'run'?"),
            (["ok.anim"], "anim: error: unknown command 'ok.anim'; did you mean 'anim run ok.anim'?"),
            (["check", "--dump", "bytes", "ok.anim"], "anim: error: '--dump' takes tokens, ast or graph, not 'bytes'"),
            (["test"], "anim: error: missing the tests to run (files or directories)"),
        ]
        for (args, message) in cases {
            let r = try s.anim(args)
            #expect(r.exitCode == 2)
            #expect(r.stdout.isEmpty)
            let lines = r.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == message, "anim \(args.joined(separator: " "))")
            #expect(lines.last?.hasPrefix("Run 'anim ") == true)
        }
    }

    static let flagCases: [([String], String)] = [
        (["--until"], "'--until' needs a value"),
        (["--until", "soon"], "'--until' takes a time such as 5, 2.5s or 300ms, not 'soon'"),
        (["--until", "-1"], "'--until' cannot be negative"),
        (["--until", "400000000"], "'--until 400000000' is longer than the limit of one year"),
        (["--until", "1e30"], "'--until 1e30' is longer than the limit of one year"),
        (["--until", "1e300s"], "'--until 1e300s' is longer than the limit of one year"),
        (["--seed", "x"], "'--seed' takes a whole number, not 'x'"),
        (["--fps", "0"], "'--fps' takes a whole number from 1 to 10000, not '0'"),
        (["--fps", "20000"], "'--fps' takes a whole number from 1 to 10000, not '20000'"),
        (["--trace", ","], "'--trace' takes properties such as square.center,square.alpha"),
        (["--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
        (["--verbose"], "unknown option '--verbose'"),
    ]

    @Test("every bad run flag is a usage error with its own message", arguments: flagCases)
    func badFlags(flags: [String], message: String) throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(["run", "ok.anim"] + flags)
        #expect(r.exitCode == 2)
        #expect(firstLine(r.stderr) == "anim: error: " + message)
        #expect(r.stdout.isEmpty)
    }

    @Test func goodFlagForms() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        for flags in [["--until=0.5"], ["--until", "500ms"], ["--until", "0.5s"], ["--fps=10", "--seed=-3", "--no-time"]] {
            let r = try s.anim(["run", "ok.anim"] + flags)
            #expect(r.exitCode == 0, "\(flags): \(r.stderr)")
        }
        #expect(try s.anim(["run", "ok.anim", "--until=0.5"]).stdout == "[0.500] half 5\n")
    }

    // MARK: - Help

    static let helpCases: [([String], String)] = [
        (["--help"], "USAGE: anim [<command>]"), (["-h"], "USAGE: anim [<command>]"), (["help"], "USAGE: anim [<command>]"),
        (["run", "--help"], "USAGE: anim run <file>"), (["run", "-h"], "USAGE: anim run <file>"),
        (["help", "run"], "USAGE: anim run <file>"), (["check", "--help"], "USAGE: anim check <file>"),
        (["test", "--help"], "USAGE: anim test <path>..."), (["repl", "--help"], "USAGE: anim repl"),
        (["help", "help"], "USAGE: anim help [<command>]"), (["help", "--help"], "USAGE: anim help [<command>]"),
        (["serve", "--help"], "USAGE: anim serve <file>"), (["help", "serve"], "USAGE: anim serve <file>"),
        (["watch", "--help"], "USAGE: anim watch <file>"), (["help", "watch"], "USAGE: anim watch <file>"),
    ]

    /// The command names in the COMMANDS list of `anim --help`.
    static let listedCommands: [String] = {
        let main = (try? runAnim(["--help"]).stdout) ?? ""
        guard let list = main.components(separatedBy: "COMMANDS:\n").last?.components(separatedBy: "\n\n").first else { return [] }
        return list.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }()

    @Test("'anim help' knows every command the list shows, 'help' included")
    func helpForEveryListedCommand() throws {
        #expect(CLITests.listedCommands.count == 14 && CLITests.listedCommands.contains("help"), "\(CLITests.listedCommands)")
        for c in CLITests.listedCommands {
            let r = try runAnim(["help", c])
            #expect(r.exitCode == 0, "anim help \(c): \(r.stderr)")
            #expect(r.stdout.contains("USAGE: anim \(c)"), "anim help \(c)")
        }
    }

    @Test("every command has --help", arguments: helpCases)
    func help(args: [String], usage: String) throws {
        let r = try runAnim(args)
        #expect(r.exitCode == 0)
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("OVERVIEW: "))
        #expect(r.stdout.contains(usage))
        #expect(r.stdout.contains("-h, --help"))
    }

    @Test func runHelpListsEveryFlag() throws {
        let out = try runAnim(["run", "--help"]).stdout
        for flag in ["--until", "--seed", "--fps", "--trace", "--no-time", "--json"] { #expect(out.contains(flag)) }
        #expect(out.contains("0 success, 1 a script error or a failed expectation, 2 a usage error"))
    }

    // MARK: - Run flags

    @Test func plainRun() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(["run", "ok.anim"])
        #expect(r.stdout == "[0.500] half 5\n[1.000] done\n")
        #expect(r.stderr.isEmpty)
        #expect(try s.anim(["run", "ok.anim", "--no-time"]).stdout == "half 5\ndone\n")
    }

    @Test func jsonObjects() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(["run", "--json", "json.anim"])
        #expect(r.exitCode == 1)
        let objects = try r.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["event"] as? String } == ["print", "expect-failed", "print"])
        #expect(objects.map { $0["ns"] as? Int } == [0, 0, 1_250_000_000])
        #expect(objects.map { $0["time"] as? Double } == [0, 0, 1.25])
        #expect(objects[0]["text"] as? String == "start")
        #expect(objects[2]["text"] as? String == "q\"t")
        #expect(objects[1]["file"] as? String == "json.anim")
        #expect(objects[1]["line"] as? Int == 4)
        #expect(objects[1]["column"] as? Int == 1)
        #expect((objects[1]["message"] as? String)?.hasPrefix("expectation failed at 0.000s") == true)
        // The diagnostic still goes to stderr.
        #expect(firstLine(r.stderr) == "json.anim:4:1: error: expectation failed at 0.000s: a.z is 0, expected 1")
    }

    @Test func trace() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        let r = try s.anim(["run", "ok.anim", "--trace", "a.z,a.center", "--fps", "4"])
        #expect(r.stdout == """
        [0.000] a.z=0 a.center=(0, 0)
        [0.250] a.z=2.5 a.center=(0, 0)
        [0.500] half 5
        [0.500] a.z=5 a.center=(0, 0)
        [0.750] a.z=7.5 a.center=(0, 0)
        [1.000] done
        [1.000] a.z=10 a.center=(0, 0)

        """)
        let bad = try s.anim(["run", "ok.anim", "--trace", "a.zz"])
        #expect(bad.exitCode == 1)
        #expect(firstLine(bad.stderr) == "--trace:1:3: error: unknown property 'zz' of rect 'a'; did you mean 'z'?")
    }

    @Test func seedFlag() throws {
        let s = try Scratch(["r.anim": "print random()\n"])
        defer { s.remove() }
        let a = try s.anim(["run", "r.anim", "--seed", "5"]).stdout
        #expect(a == (try s.anim(["run", "r.anim", "--seed=5"]).stdout))
        #expect(a != (try s.anim(["run", "r.anim", "--seed", "6"]).stdout))
    }

    // MARK: - anim check

    @Test func checkPrintsTheDuration() throws {
        let s = try Scratch(scripts)
        defer { s.remove() }
        #expect(firstLine(try s.anim(["check", "ok.anim"]).stdout) == "ok.anim: ok; duration 1.000s")
        let warned = try s.anim(["check", "warn.anim"])
        #expect(firstLine(warned.stdout) == "warn.anim: ok with 1 warning; duration 2.000s")
        #expect(firstLine(warned.stderr) == "warn.anim:1:8: warning: 'centre' declares a custom property; did you mean 'center'?")
        #expect(try s.anim(["check", "forever.anim"]).stdout == "forever.anim: ok; it never ends (the graph at forever.anim:1:1 repeats forever)\n")
        #expect(firstLine(try s.anim(["check", "forever.anim", "--until", "3"]).stdout) == "forever.anim: ok; stopped at 3.000s by --until (the graph at forever.anim:1:1 repeats forever)")
        let bad = try s.anim(["check", "check_error.anim"])
        #expect(bad.stdout.isEmpty)
        #expect(isDiagnosticLine(firstLine(bad.stderr)))
        // check runs silently: no prints, no expectations.
        #expect(try s.anim(["check", "expect.anim"]).stdout == "expect.anim: ok; duration 0.000s\n")
    }

    /// Components are owned apart (Grammar.md §6.3): a tween of `sq.center.x` takes that
    /// component over from a running tween of the whole point, and a whole-point tween takes
    /// both over from the tweens of its components; each takeover is warned of once, named by
    /// what it takes. A tween of the other component takes nothing over.
    @Test func checkWarnsOfComponentTakeovers() throws {
        let s = try Scratch(["axis.anim": """
            rect sq center (0, 0)
            animate 2 < sq.center = (100, 100) >
            at 1 < animate 1 < sq.center.x = 0 > >
            at 1.5 < animate 1 < sq.center = (5, 5) > >
            animate 3 < sq.size.y = 10 >
            animate 3 < sq.size.x = 10 >

            """])
        defer { s.remove() }
        let r = try s.anim(["check", "axis.anim"])
        #expect(firstLine(r.stdout) == "axis.anim: ok with 3 warnings; duration 3.000s")
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings == [
            "axis.anim:3:8: warning: 'sq.center.x' is written by two steps at once: this one takes it over at 1.000s",
            "axis.anim:4:10: warning: 'sq.center' is written by two steps at once: this one takes it over at 1.500s",
            "axis.anim:4:10: warning: 'sq.center' is written by two steps at once: this one takes it over at 1.500s",
        ])
    }

    @Test func checkOfTheDemo() throws {
        let r = try runAnim(["check", "Examples/demo.anim"])
        #expect(r.stdout == """
            Examples/demo.anim: ok; duration 4.100s
            critical path:
              0.000–1.000  tween square.center = (310, 120) (1s)  (Examples/demo.anim:5:1)
              1.000–1.300  tween square.rotation = 90deg (0.3s)  (Examples/demo.anim:6:6)
              1.300–2.300  tween square.center = (310, 580) (1s)  (Examples/demo.anim:8:6)
              2.300–3.100  tween square.color = blue (0.8s)  (Examples/demo.anim:9:6)
              3.100–4.100  tween square.center = (90, 120); square.rotation = 360deg (1s)  (Examples/demo.anim:10:6)

            """)
        #expect(r.exitCode == 0)
    }

    @Test func dumps() throws {
        let s = try Scratch(["d.anim": "rect a\nanimate 1 < a.z = 1 > then print 1\n"])
        defer { s.remove() }
        let tokens = try s.anim(["check", "--dump", "tokens", "d.anim"])
        #expect(tokens.exitCode == 0)
        #expect(tokens.stdout.hasPrefix("1:1 keyword rect\n1:6 identifier a\n1:7 newline\n2:1 keyword animate\n"))
        #expect(tokens.stdout.hasSuffix("3:1 eof \n"))
        let ast = try s.anim(["check", "d.anim", "--dump=ast"])
        #expect(ast.stdout.hasPrefix("Program\n├─ Shape rect a\n└─ Chain\n   ├─ Animate\n"))
        let graph = try s.anim(["check", "--dump", "graph", "d.anim"])
        #expect(graph.stdout == """
        graph 1 at d.anim:2:1:
        sequence of 2 (1s)
        ├─ tween a.z = 1 (1s)
        └─ print 1

        """)
        let broken = try s.anim(["check", "--dump", "graph", "-"], stdin: "print foo\n")
        #expect(broken.exitCode == 1)
        #expect(broken.stdout.isEmpty)
    }

    // MARK: - anim test

    @Test func testCommandReportsADiff() throws {
        let s = try Scratch([
            "suite/pass.anim": "print \"a\"\n#> [0.000] a\n",
            "suite/sub/fail_output.anim": "print \"b\"\nprint \"c\"\n#> [0.000] b\n#> [0.000] x\n",
            "suite/sub/fail_diagnostics.anim": "print foo\n#! wrong.anim:1:1: error: no\n",
            "suite/fail_expect.anim": "expect 1 == 2\n",
            "suite/notes.txt": "not a script\n",
        ])
        defer { s.remove() }
        let r = try s.anim(["test", "suite"])
        #expect(r.exitCode == 1)
        #expect(r.stdout == """
        FAIL suite/fail_expect.anim
          the run failed (exit 1):
            fail_expect.anim:1:1: error: expectation failed at 0.000s: 1 is 1, expected 2
              1 | expect 1 == 2
                | ^^^^^^^^^^^^^
        FAIL suite/sub/fail_diagnostics.anim
          diagnostics differ (- expected, + actual):
            - wrong.anim:1:1: error: no
            + fail_diagnostics.anim:1:7: error: unknown name 'foo'
            +   1 | print foo
            +     |       ^^^
        FAIL suite/sub/fail_output.anim
          standard output differs (- expected, + actual):
              [0.000] b
            - [0.000] x
            + [0.000] c
        1 passed, 3 failed

        """)
    }

    @Test func testCommandPasses() throws {
        let s = try Scratch(["a.anim": "print 1\n#> [0.000] 1\n", "b.anim": "wait 1\nprint 2\n#> [1.000] 2\n"])
        defer { s.remove() }
        let r = try s.anim(["test", "a.anim", "."])
        #expect(r.exitCode == 0)
        #expect(r.stdout == "3 passed, 0 failed\n")  // a.anim twice: once named, once found in '.'
        let v = try s.anim(["test", "--verbose", "."])
        #expect(v.stdout == "PASS ./a.anim\nPASS ./b.anim\n2 passed, 0 failed\n")
    }

    @Test func testCommandOnTheGoldenSuites() throws {
        let r = try runAnim(["test", "Tests/Scripts", "Examples"])
        #expect(r.exitCode == 0, "\(r.stdout)")
        #expect(r.stdout.hasSuffix(" passed, 0 failed\n"))
    }

    // MARK: - Standard input and pipes

    @Test func pipedStdinRunsTheScript() throws {
        let r = try runAnim([], stdin: "wait 0.5\nprint \"from stdin\"\n")
        #expect(r.stdout == "[0.500] from stdin\n")
        #expect(r.exitCode == 0)
        let dash = try runAnim(["run", "-", "--no-time"], stdin: "print 1 + 1\n")
        #expect(dash.stdout == "2\n")
        let failing = try runAnim([], stdin: "expect 1 == 2\n")
        #expect(failing.exitCode == 1)
    }

    @Test func aClosedPipeEndsTheRunQuietly() throws {
        let s = try Scratch(["many.anim": "repeat 200000 < print \"line\" >\n"])
        defer { s.remove() }
        let binary = TestPaths.animBinary.path
        let r = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary)' run many.anim | head -1"], currentDirectory: s.dir)
        #expect(r.stdout == "[0.000] line\n")
        #expect(r.stderr.isEmpty)  // no "Broken pipe", no crash report
        #expect(r.exitCode == 0)
        // The exit status of anim itself (a pipeline reports head's).
        let own = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "('\(binary)' run many.anim; echo \"anim exited $?\" >&2) | head -1"], currentDirectory: s.dir)
        #expect(own.stderr == "anim exited 0\n")
    }
}
