// MessageWriter: messages → frames on a file descriptor. Responses come from the thread that
// reads requests and diagnostics from the analysis thread, so each frame is written whole
// under a lock and frames never interleave.
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// Where the server's outgoing messages go.
public protocol MessageSink: Sendable {
    /// Sends one message (a response or a notification).
    func send(_ message: JSON)
}

/// The base protocol's framing: `Content-Length: N\r\n\r\n` and N bytes of JSON.
public enum Framing {
    /// One message as a frame.
    public static func frame(_ message: JSON) -> [UInt8] {
        var body: [UInt8] = []
        message.write(to: &body)
        var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        out.append(contentsOf: body)
        return out
    }
}

/// Writes frames to a file descriptor (standard output).
public final class FileDescriptorSink: MessageSink {
    private let fd: Int32
    private let lock = Mutex(false)

    /// Writes to `fd`.
    public init(fd: Int32) { self.fd = fd }

    public func send(_ message: JSON) {
        let bytes = Framing.frame(message)
        lock.withLock { failed in
            guard !failed else { return }
            var written = 0
            bytes.withUnsafeBytes { raw in
                while written < raw.count {
                    let n = write(fd, raw.baseAddress! + written, raw.count - written)
                    if n < 0 && errno == EINTR { continue }
                    // The client is gone: nothing more can be said to it.
                    if n <= 0 { failed = true; return }
                    written += n
                }
            }
        }
    }
}
