// StandardStreams: process output. Standard output is buffered (a run may print a million
// lines) and flushed before anything goes to standard error, so the two interleave in order
// on a terminal. A closed pipe (`anim run x | head -1`) ends the process quietly.
@preconcurrency import Glibc
import AnimCore

/// The process's standard output and error, as a SessionOutput.
final class StandardStreams: SessionOutput {
    private var buffer: [UInt8] = []
    /// Flush after every write (the REPL, where output should appear at once).
    var lineBuffered = false

    init() {
        // Writing to a closed pipe returns EPIPE instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        buffer.reserveCapacity(1 << 16)
    }

    func standardOutput(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if lineBuffered || buffer.count >= 1 << 16 { flush() }
    }

    func standardError(_ text: String) {
        flush()
        write(fd: 2, Array(text.utf8))
    }

    /// Writes buffered standard output.
    func flush() {
        guard !buffer.isEmpty else { return }
        write(fd: 1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private func write(fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (EPIPE): end quietly. Any other
                // failure (a full disk) is said once on standard error, and the run fails.
                if fd == 1 {
                    if errno == EPIPE { _exit(0) }
                    let message = "anim: error: cannot write standard output: \(String(cString: strerror(errno)))\n"
                    _ = message.withCString { Glibc.write(2, $0, strlen($0)) }
                    _exit(1)
                }
                return
            }
            offset += n
        }
    }
}
