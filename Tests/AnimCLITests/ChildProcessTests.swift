// ChildProcessTests: a browser the tests start gets none of the test process's descriptors, so
// it can never hold another test's pipe open (ChildProcesses.swift says why that hung a run).
import AnimTestSupport
import Foundation
import Testing

@Suite("Child processes")
struct ChildProcessTests {
    /// What each descriptor of a process is (`pipe:[123]`, a path …), from /proc.
    static func descriptors(of pid: pid_t) -> Set<String> {
        let dir = "/proc/\(pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return Set(fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/\($0)") })
    }

    @Test("a browser started while a pipe is open does not inherit it",
          .enabled(if: Consumers.chromium != nil && FileManager.default.fileExists(atPath: "/proc/self/fd"), Consumers.skipNote("chromium")))
    func theBrowserInheritsNoPipe() throws {
        let pipe = Pipe()
        let end = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)")
        let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
        let held = ChildProcessTests.descriptors(of: browser.processID)
        #expect(!held.isEmpty, "the browser's descriptors could not be read")
        #expect(!held.contains(end), "the browser holds this process's pipe \(end)")
        withExtendedLifetime(pipe) {}
    }
}
