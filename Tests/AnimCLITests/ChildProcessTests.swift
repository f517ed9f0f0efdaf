// ChildProcessTests: runProgram returns when the program exits, even while something it left
// behind (here a `sleep` in the background, as a browser another test started would) still
// holds its output pipes open.
import AnimTestSupport
import Foundation
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test("a program's output is read until it exits, not until every holder of its pipes closes them")
    func outputEndsWithTheProgram() throws {
        // The shell exits at once; the sleep it starts keeps both pipes open for 30 s.
        let r = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo hi; sleep 30 & echo $! >&2"])
        let pid = try #require(Int32(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines)), Comment(rawValue: r.stderr))
        defer { kill(pid, SIGKILL) }
        #expect(r.stdout == "hi\n")
        #expect(r.exitCode == 0)
        // Had the read waited for end of file, the sleep would have ended first.
        #expect(kill(pid, 0) == 0, "runProgram returned only when the background sleep had ended")
    }
}
