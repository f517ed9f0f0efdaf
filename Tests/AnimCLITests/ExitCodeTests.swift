// End-to-end tests of the built `anim` binary: exit codes and the stderr format.
import AnimTestSupport
import Foundation
import Testing

@Suite("anim binary")
struct ExitCodeTests {
    @Test func demoRuns() throws {
        let r = try runAnim(["run", "Examples/demo.anim"])
        #expect(r.stdout == "[1.300] First corner\n[4.100] Animation complete\n")
        #expect(r.exitCode == 0)
    }

    @Test("a repeat while whose passes change nothing stops every command instead of running until killed")
    func stillRepeatWhileEnds() throws {
        let file = "Tests/Scripts/regressions/while_still_condition_never_ends.anim"
        let run = try runAnim(["run", file], timeout: 60)
        #expect(run.exitCode == 1 && run.stderr.contains("the script cannot finish: this graph never ends"), "\(run)")
        let test = try runAnim(["test", file], timeout: 60)
        #expect(test.exitCode == 0, "\(test)")
        let check = try runAnim(["check", file], timeout: 60)
        #expect(check.exitCode == 0 && check.stdout.contains("it never ends"), "\(check)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("anim-still-\(getpid()).svg").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let render = try runAnim(["render", file, "-o", out], timeout: 60)
        #expect(render.exitCode == 1 && render.stderr.contains("this graph never ends"), "\(render)")
    }

    @Test func missingFileIsUsageError() throws {
        let r = try runAnim(["run", "no-such-file.anim"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("anim: error: cannot read 'no-such-file.anim': No such file or directory"))
    }
}
