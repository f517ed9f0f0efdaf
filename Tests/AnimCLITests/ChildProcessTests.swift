// ChildProcessTests: runProgram returns when the program exits, even while something it left
// behind (here a subshell in the background, as a browser another test started would) still
// holds its output pipes open.
import AnimTestSupport
import Foundation
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    @Test("a program's output is read until it exits, not until every holder of its pipes closes them")
    func outputEndsWithTheProgram() throws {
        let dir = try ScratchDirectory("child")
        defer { dir.remove() }
        let marker = dir.path("background-ended")
        // The shell exits at once with 3; the subshell it starts keeps both pipes open for 20 s
        // and then leaves a file: had the read waited for end of file, the file would be there.
        let r = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo hi; (sleep 20; touch '\(marker)') & echo $! >&2; exit 3"])
        let pid = Int32(r.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        defer { if let pid { kill(pid, SIGKILL) } }
        #expect(pid != nil, Comment(rawValue: r.stderr))
        #expect(r.stdout == "hi\n")
        #expect(r.exitCode == 3)
        #expect(!FileManager.default.fileExists(atPath: marker), "runProgram returned only when the background subshell had ended")
    }
}
