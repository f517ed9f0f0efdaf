// ChildProcesses: what the tests need to start programs safely from a process that runs every
// test at once. A child's standard output and error are read until it has exited and both
// pipes are drained — not until end of file. Every test of the package runs in one process, and
// a program another test starts meanwhile (a headless Chromium, spawned with posix_spawn) may
// inherit the write end of a pipe that was open at that instant and keep it open for minutes:
// a read to end of file then waits for the browser, not for the child (seen: a full `swift test`
// stuck in `anim --help`'s output while the Chromium suites ran). And a long-lived program the
// tests start themselves (a browser, tmux's server) gets none of this process's descriptors.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads `out` and `err` (the read ends of `process`'s standard output and error) while it runs,
/// and then what is left in them once it has exited; reaps it and returns its exit code (a
/// signal's number when a signal ended it, as Process's `terminationStatus` says). Not through
/// Process's `waitUntilExit`: on Linux it returns only once every holder of the child's pipes
/// has closed them, which is the wait this function exists to avoid.
public func collectOutput(of process: Process, out: Pipe, err: Pipe) -> (stdout: Data, stderr: Data, exitCode: Int32) {
    let fds = [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor]
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    var data = [Data(), Data()]
    var open = [true, true]
    var buffer = [UInt8](repeating: 0, count: 65_536)
    /// Reads what `fds[i]` holds now; false once it is at end of file.
    func drain(_ i: Int) {
        while open[i] {
            let n = buffer.withUnsafeMutableBytes { read(fds[i], $0.baseAddress, $0.count) }
            if n > 0 { data[i].append(contentsOf: buffer[0..<n]) } else if n == 0 { open[i] = false } else if errno != EINTR { return }
        }
    }
    while open[0] || open[1] {
        var polls = fds.indices.map { pollfd(fd: open[$0] ? fds[$0] : -1, events: Int16(POLLIN), revents: 0) }
        _ = poll(&polls, nfds_t(polls.count), 50)
        for i in fds.indices where open[i] && polls[i].revents != 0 { drain(i) }
        if hasExited(process.processIdentifier) {
            // It has exited: everything it wrote is in the pipes now.
            for i in fds.indices { drain(i) }
            break
        }
    }
    var status: Int32 = 0
    while waitpid(process.processIdentifier, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : status & 0x7F
    return (data[0], data[1], code)
}

/// Whether the child `pid` has exited, leaving it to be reaped (Process's `isRunning` is of no
/// use here: on Linux it turns false only once the child's pipes are closed by all).
public func hasExited(_ pid: pid_t) -> Bool {
    var info = siginfo_t()
    guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
    // Zero when it is still running (WNOHANG leaves the structure as it was).
    #if canImport(Glibc)
    return info._sifields._sigchld.si_pid == pid
    #else
    return info.si_pid == pid
    #endif
}

private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

/// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift does not import.
private let addCloseFrom: AddCloseFrom? = {
    guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(sym, to: AddCloseFrom.self)
}()

/// Adds to `actions` the closing of every descriptor from `first` up, so that the program
/// spawned keeps none of this process's pipes and files open: with closefrom where glibc has
/// it, else each descriptor open now (/proc/self/fd; glibc ignores a close of one closed by
/// the time the program starts).
public func closeDescriptors(from first: Int32, in actions: inout posix_spawn_file_actions_t) {
    if let addCloseFrom, addCloseFrom(&actions, first) == 0 { return }
    let open = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    for fd in open where fd >= first { posix_spawn_file_actions_addclose(&actions, fd) }
}
