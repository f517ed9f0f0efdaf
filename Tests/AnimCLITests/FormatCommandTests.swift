// `anim fmt` as a user runs it: printing, --check's list and exit codes, -w's atomic rewrite
// (permissions kept, the original intact when the write fails), syntax errors shown exactly as
// `anim check` shows them, and usage errors.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("anim fmt")
struct FormatCommandTests {
    static let messy = "rect a center(1,2)\nanimate 1<a.center=(3,4)>then\nprint \"done\"   # after\n"
    static let tidy = "rect a center (1, 2)\nanimate 1 < a.center = (3, 4) >\nthen print \"done\"  # after\n"

    static func shell(_ command: String, in dir: ScratchDirectory) throws -> RunResult {
        try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: ["ANIM": TestPaths.animBinary.path],
                       currentDirectory: dir.url)
    }

    func write(_ text: String, _ name: String, in dir: ScratchDirectory) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path(name)))
    }

    func read(_ name: String, in dir: ScratchDirectory) throws -> String {
        try String(contentsOfFile: dir.path(name), encoding: .utf8)
    }

    @Test("prints the formatted script and changes nothing")
    func prints() throws {
        let dir = try ScratchDirectory("fmt-print")
        defer { dir.remove() }
        try write(Self.messy, "a.anim", in: dir)
        let r = try runAnim(["fmt", "a.anim"], currentDirectory: dir.url)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stdout == Self.tidy)
        #expect(try read("a.anim", in: dir) == Self.messy)
        let stdin = try runAnim(["fmt", "-"], stdin: Self.messy)
        #expect(stdin.stdout == Self.tidy && stdin.exitCode == 0)
    }

    @Test("--check lists the files that would change and exits 1; 0 when all are formatted")
    func check() throws {
        let dir = try ScratchDirectory("fmt-check")
        defer { dir.remove() }
        try write(Self.messy, "messy.anim", in: dir)
        try write(Self.tidy, "tidy.anim", in: dir)
        let both = try runAnim(["fmt", "--check", "tidy.anim", "messy.anim"], currentDirectory: dir.url)
        #expect(both.exitCode == 1)
        #expect(both.stdout == "messy.anim\n")
        #expect(both.stderr.isEmpty)
        let clean = try runAnim(["fmt", "--check", "tidy.anim"], currentDirectory: dir.url)
        #expect(clean.exitCode == 0 && clean.stdout.isEmpty)
        #expect(try read("messy.anim", in: dir) == Self.messy)
    }

    @Test("-w rewrites the files that change, keeping their permissions, and leaves no temporary file")
    func write() throws {
        let dir = try ScratchDirectory("fmt-write")
        defer { dir.remove() }
        try write(Self.messy, "a.anim", in: dir)
        try write(Self.tidy, "b.anim", in: dir)
        #expect(chmod(dir.path("a.anim"), 0o640) == 0)
        let r = try runAnim(["fmt", "-w", "a.anim", "b.anim"], currentDirectory: dir.url)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stdout.isEmpty)
        #expect(try read("a.anim", in: dir) == Self.tidy)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.path("a.anim"))[.posixPermissions] as? Int
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["a.anim", "b.anim"])
        #expect(try runAnim(["fmt", "--check", "a.anim"], currentDirectory: dir.url).exitCode == 0)
    }

    @Test("a -w whose write fails leaves the original as it was and says why")
    func failedWrite() throws {
        let dir = try ScratchDirectory("fmt-failed-write")
        defer { dir.remove() }
        // 2 blocks of 512 bytes may be written; the formatted script is larger (the signal that
        // would end the process is ignored, so the write fails with EFBIG).
        let big = String(repeating: "print (1,2)   # a comment that makes the line long enough\n", count: 60)
        try write(big, "big.anim", in: dir)
        let r = try Self.shell("trap '' XFSZ; ulimit -f 2; \"$ANIM\" fmt -w big.anim", in: dir)
        #expect(r.exitCode == 2, Comment(rawValue: r.stderr))
        #expect(r.stderr.hasPrefix("anim: error: cannot write 'big.anim': File too large"), Comment(rawValue: r.stderr))
        #expect(try read("big.anim", in: dir) == big)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["big.anim"])
    }

    @Test("a script with syntax errors is refused with anim check's diagnostics, and left alone")
    func syntaxErrors() throws {
        let dir = try ScratchDirectory("fmt-syntax")
        defer { dir.remove() }
        let bad = "rect a center(1,2)\nanimate 1 < a.z = >\n#bad color\n"
        try write(bad, "bad.anim", in: dir)
        try write(Self.messy, "ok.anim", in: dir)
        let check = try runAnim(["check", "bad.anim"], currentDirectory: dir.url)
        #expect(check.exitCode == 1 && !check.stderr.isEmpty)
        for args in [["fmt", "bad.anim"], ["fmt", "-w", "bad.anim"], ["fmt", "--check", "bad.anim"]] {
            let r = try runAnim(args, currentDirectory: dir.url)
            #expect(r.exitCode == 1, "\(args)")
            #expect(r.stderr == check.stderr, "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
        }
        #expect(try read("bad.anim", in: dir) == bad)
        // The other files are still formatted.
        let both = try runAnim(["fmt", "-w", "bad.anim", "ok.anim"], currentDirectory: dir.url)
        #expect(both.exitCode == 1)
        #expect(try read("ok.anim", in: dir) == Self.tidy)
    }

    @Test("usage errors exit 2", arguments: [
        (["fmt"], "missing the scripts to format"),
        (["fmt", "--check", "-w", "a.anim"], "'--check' and '-w' cannot be combined"),
        (["fmt", "-w", "-"], "'-w' cannot write standard input back"),
        (["fmt", "--frobnicate", "a.anim"], "unknown option '--frobnicate'"),
        (["fmt", "no-such-file.anim"], "cannot read 'no-such-file.anim'"),
    ])
    func usage(_ args: [String], _ message: String) throws {
        let r = try runAnim(args)
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("anim: error: \(message)"), Comment(rawValue: r.stderr))
    }

    @Test("--help describes the command")
    func help() throws {
        let r = try runAnim(["fmt", "--help"])
        #expect(r.exitCode == 0)
        #expect(r.stdout.hasPrefix("OVERVIEW: Format scripts"))
        #expect(r.stdout.contains("USAGE: anim fmt <file>... [--check | -w]"))
        #expect(try runAnim(["help", "fmt"]).stdout == r.stdout)
    }
}
