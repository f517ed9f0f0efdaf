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

    @Test func missingFileIsUsageError() throws {
        let r = try runAnim(["run", "no-such-file.anim"])
        #expect(r.exitCode == 2)
        #expect(r.stderr.hasPrefix("anim: error: cannot read 'no-such-file.anim': No such file or directory"))
    }
}
