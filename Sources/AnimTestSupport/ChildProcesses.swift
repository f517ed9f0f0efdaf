// ChildProcesses: long-lived programs the tests start themselves with posix_spawn (a headless
// Chromium, tmux's server) must get none of the test process's descriptors. Every test of the
// package runs in that one process, and a browser started while another test's `anim` runs
// would inherit the write end of that program's output pipe and keep it open for as long as it
// lives: the other test's read to end of file then waits for the browser, not for `anim` (seen:
// a full `swift test` stuck in `anim --help`'s output while the Chromium suites ran).
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
