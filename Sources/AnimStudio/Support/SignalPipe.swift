// SignalPipe: Ctrl-C (SIGINT) and SIGTERM turned into loop events (the self-pipe trick). The
// handler only writes the signal's number to a pipe; the loop reads it and calls back, so
// shutting down — closing sockets, freeing the port — happens outside the handler.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The write end the handler uses (a signal handler cannot capture anything).
nonisolated(unsafe) private var signalWriteFD: Int32 = -1
/// Signals received so far (lock-free, so the handler may count them).
private let receivedSignals = Atomic<Int>(0)

private func onSignal(_ signal: Int32) {
    receivedSignals.add(1, ordering: .relaxed)
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(signalWriteFD, &byte, 1)
    errno = saved
}

/// Delivers SIGINT and SIGTERM to an event loop. One per process.
public final class SignalPipe {
    private let fds: (read: Int32, write: Int32)
    private var token: EventLoop.Token?
    private weak var loop: EventLoop?
    private let signals: [Int32]

    /// How many of the signals have arrived in this process: work that keeps the loop from
    /// turning (a script's run) polls this to stop early.
    public static var received: Int { receivedSignals.load(ordering: .relaxed) }

    /// Installs the handlers; `handler` runs on `loop` with the signal's number.
    public init(loop: EventLoop, signals: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping (Int32) -> Void) throws(SystemError) {
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else { throw SystemError("cannot create a pipe") }
        for fd in p {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        fds = (p[0], p[1])
        self.signals = signals
        signalWriteFD = p[1]
        self.loop = loop
        let readFD = p[0]
        token = loop.add(fd: readFD) { _ in
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            for k in 0..<max(0, n) { handler(Int32(buffer[k])) }
        }
        for s in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = onSignal
            #else
            action.__sigaction_u.__sa_handler = onSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocking call in the loop returns EINTR
            sigaction(s, &action, nil)
        }
        // The test runner (and tmux) may start us with these blocked; they must get through.
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    deinit {
        if let token { loop?.remove(token) }
        for s in signals { signal(s, SIG_DFL) }
        signalWriteFD = -1
        close(fds.read)
        close(fds.write)
    }
}
