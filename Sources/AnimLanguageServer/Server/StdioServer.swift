// StdioServer: `anim lsp`'s loop — read standard input as it comes, hand each frame to the
// server, and stop at `exit` or at the end of the input.
import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Runs a language server over file descriptors (standard input and output).
public enum StdioServer {
    /// Serves until `exit` or the end of the input; returns the exit code (0 after
    /// `shutdown`, else 1). Log lines go to `logDescriptor` (standard error).
    public static func run(input: Int32 = 0, output: Int32 = 1, logDescriptor: Int32 = 2,
                           budget: WorkBudget = .standard, reusesValueEdits: Bool = true) -> Int32 {
        // A client that goes away must not kill the server in the middle of a write.
        signal(SIGPIPE, SIG_IGN)
        // While the editor starts and sends `initialize`, the process does its once-only work.
        DispatchQueue.global(qos: .userInitiated).async { LanguageServer.warmUp() }
        let server = LanguageServer(sink: FileDescriptorSink(fd: output), budget: budget, reusesValueEdits: reusesValueEdits, log: { line in
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(logDescriptor, $0.baseAddress, $0.count) }
        })
        var reader = MessageReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if let frame = reader.finish() { server.handle(frame) }
                return server.endOfInput()
            }
            reader.append(chunk[0..<n])
            // Every frame this read completed, as one batch: changes in it are coalesced.
            var frames: [IncomingFrame] = []
            while let frame = reader.next() { frames.append(frame) }
            server.handle(batch: frames)
            if let code = server.exitCode { return code }
        }
    }
}
