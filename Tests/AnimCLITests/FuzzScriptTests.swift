// Scripts/fuzz in a fresh clone: no .build directory yet. The fuzzers are not built here (that
// takes minutes); a stand-in `swift` on PATH fails the way a machine without libFuzzer does,
// and the script must say why, from its own build log.
import AnimTestSupport
import Foundation
import Testing

@Suite("Scripts/fuzz")
struct FuzzScriptTests {
    @Test("in a fresh clone, a build that fails is explained from its log")
    func freshCloneBuildFailure() throws {
        let dir = try ScratchDirectory("fuzz-clone")
        defer { dir.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path("clone/Scripts"), withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path("bin"), withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestPaths.packageRoot.appendingPathComponent("Scripts/fuzz").path, toPath: dir.path("clone/Scripts/fuzz"))
        let swift = dir.path("bin/swift")
        try "#!/bin/sh\necho 'error: no such module: fuzzer support is not installed'\nexit 1\n".write(toFile: swift, atomically: true, encoding: .utf8)
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        #expect(!fm.fileExists(atPath: dir.path("clone/.build")))

        let path = dir.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try runProgram(URL(fileURLWithPath: "/bin/bash"), [dir.path("clone/Scripts/fuzz"), "1"], environment: ["PATH": path])
        #expect(r.exitCode == 3, "3: the fuzzers cannot be built here")
        #expect(r.stderr.contains("fuzz: cannot build the fuzz target FuzzRun here (see .build/fuzz/build.log):"), Comment(rawValue: r.stderr))
        #expect(r.stderr.contains("error: no such module: fuzzer support is not installed"), Comment(rawValue: r.stderr))
        #expect(!r.stderr.contains("No such file or directory"), Comment(rawValue: r.stderr))
        #expect(fm.fileExists(atPath: dir.path("clone/.build/fuzz/build.log")))
    }
}
