// `anim` starts fast: every command is one short process (an editor's `anim check` on save, a
// test runner's per script), and what the dynamic linker does before `main` is paid each time.
// Foundation on Linux brings libFoundation, FoundationEssentials, FoundationInternationalization
// and the ICU library with it: loading and binding them was more than half of a small `anim
// check`'s instructions (callgrind: 21.8 M with them, 10.2 M without), so the binary's own
// modules use the standard library, Dispatch and Glibc, and no Foundation.
import AnimTestSupport
import Foundation
import Testing

@Suite struct StartupTests {
    @Test func theBinaryLoadsNoFoundation() throws {
        let ldd = URL(fileURLWithPath: "/usr/bin/ldd")
        guard FileManager.default.isExecutableFile(atPath: ldd.path) else {
            print("skipped: no ldd to list the libraries anim loads")
            return
        }
        let r = try runProgram(ldd, [TestPaths.animBinary.path])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("libswiftCore"), "ldd listed: \(r.stdout)")
        let foundation = r.stdout.split(separator: "\n").filter { $0.contains("Foundation") || $0.contains("ICU") }
        #expect(foundation.isEmpty, "anim loads \(foundation.joined(separator: ", ")): a module of the binary imports Foundation")
    }
}
