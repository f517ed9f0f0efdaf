// EventLoop: one thread, one poll(2). The studio's sockets, the file watcher's descriptor, the
// signal pipe and the build worker's wake-up all register here with a handler, and timers run
// on the same thread, so no state of the server or the watcher is ever shared between threads.
// Only `stop()` and a Waker's `wake()` may be called from another thread.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC): for timeouts and debouncing, never for
/// anything shown to a person.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}

/// A poll(2) loop dispatching readiness and timers to handlers, all on the thread that calls `run`.
public final class EventLoop: @unchecked Sendable {
    /// What a descriptor became ready for.
    public struct Readiness: Sendable {
        /// poll's `revents`.
        public var events: Int16
        /// Data (or an end of file, or an error) to read.
        public var readable: Bool { events & Int16(POLLIN | POLLHUP | POLLERR) != 0 }
        /// Room to write (or an error, which the write will report).
        public var writable: Bool { events & Int16(POLLOUT | POLLERR | POLLHUP) != 0 }
        /// The peer hung up or the descriptor failed.
        public var failed: Bool { events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 }
    }

    /// Identifies a registered descriptor or timer.
    public typealias Token = Int

    private struct Source {
        var fd: Int32
        var read: Bool
        var write: Bool
        var handler: (Readiness) -> Void
    }

    private var sources: [Token: Source] = [:]
    private var timers: [Token: (deadline: Int64, handler: () -> Void)] = [:]
    private var nextToken: Token = 1
    /// The loop's own pipe: `stop()` and wakers write a byte to it.
    private let wakePipe: WakePipe
    /// Handlers of wakers, by waker id; each runs on the loop when its flag is set.
    private var wakeHandlers: [Int: () -> Void] = [:]
    private let flags = FlagSet()
    private var stopped = false

    /// Creates a loop (a pipe for cross-thread wake-ups).
    public init() throws(SystemError) {
        wakePipe = try WakePipe()
    }

    // MARK: - Descriptors

    /// Calls `handler` on this loop whenever `fd` is ready for what is asked.
    @discardableResult
    public func add(fd: Int32, read: Bool = true, write: Bool = false, _ handler: @escaping (Readiness) -> Void) -> Token {
        let t = nextToken
        nextToken += 1
        sources[t] = Source(fd: fd, read: read, write: write, handler: handler)
        return t
    }

    /// Changes what a registered descriptor waits for.
    public func setInterest(_ token: Token, read: Bool, write: Bool) {
        sources[token]?.read = read
        sources[token]?.write = write
    }

    /// Stops watching a descriptor (it is not closed).
    public func remove(_ token: Token) { sources[token] = nil }

    // MARK: - Timers

    /// Calls `handler` once on this loop after `delay` nanoseconds.
    @discardableResult
    public func after(_ delay: Int64, _ handler: @escaping () -> Void) -> Token {
        at(MonotonicClock.now() + max(0, delay), handler)
    }

    /// Calls `handler` once on this loop at the monotonic time `deadline`.
    @discardableResult
    public func at(_ deadline: Int64, _ handler: @escaping () -> Void) -> Token {
        let t = nextToken
        nextToken += 1
        timers[t] = (deadline, handler)
        return t
    }

    /// Cancels a timer that has not fired.
    public func cancel(_ token: Token) { timers[token] = nil }

    // MARK: - Waking from other threads

    /// A handle another thread (or a signal handler, through `SignalPipe`) uses to run `handler`
    /// on this loop. Wakes that come before the handler runs are merged into one call.
    public func makeWaker(_ handler: @escaping () -> Void) -> Waker {
        let id = flags.allocate()
        wakeHandlers[id] = handler
        return Waker(flags: flags, id: id, pipe: wakePipe)
    }

    /// Ends `run` after the current handler; safe from any thread.
    public func stop() {
        flags.stopRequested.store(true, ordering: .releasing)
        wakePipe.poke()
    }

    // MARK: - Running

    /// Runs until `stop()`.
    public func run() {
        stopped = false
        while !stopped { runOnce(timeout: -1) }
    }

    /// Waits at most `timeout` nanoseconds (negative: until something happens, or the next timer)
    /// and dispatches what is ready. Returns false once the loop was stopped.
    @discardableResult
    public func runOnce(timeout: Int64) -> Bool {
        if flags.stopRequested.exchange(false, ordering: .acquiringAndReleasing) { stopped = true; return false }
        let now = MonotonicClock.now()
        var wait = timeout
        if let next = timers.values.map(\.deadline).min() {
            let untilTimer = max(0, next - now)
            wait = wait < 0 ? untilTimer : min(wait, untilTimer)
        }
        let tokens = Array(sources.keys)
        var fds = [pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
        for t in tokens {
            let s = sources[t]!
            var ev: Int16 = 0
            if s.read { ev |= Int16(POLLIN) }
            if s.write { ev |= Int16(POLLOUT) }
            fds.append(pollfd(fd: s.fd, events: ev, revents: 0))
        }
        // Round up, so a timer due in 0.3 ms does not spin on a zero timeout.
        let ms: Int32 = wait < 0 ? -1 : Int32(min(Int64(Int32.max), (wait + 999_999) / 1_000_000))
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), ms) }
        if n < 0 && errno != EINTR { return !stopped }
        if n > 0 {
            if fds[0].revents != 0 { drainWakePipe() }
            for (k, t) in tokens.enumerated() where fds[k + 1].revents != 0 {
                // A handler may have removed this source, or another one, meanwhile.
                guard let s = sources[t], s.fd == fds[k + 1].fd else { continue }
                s.handler(Readiness(events: fds[k + 1].revents))
                if flags.stopRequested.load(ordering: .acquiring) { break }
            }
        }
        for id in flags.takeRaised() { wakeHandlers[id]?() }
        runDueTimers()
        if flags.stopRequested.exchange(false, ordering: .acquiringAndReleasing) { stopped = true }
        return !stopped
    }

    private func runDueTimers() {
        let now = MonotonicClock.now()
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (t, timer) in due where timers[t] != nil {
            timers[t] = nil
            timer.handler()
        }
    }

    private func drainWakePipe() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ read(wakePipe.readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }
}

/// Runs a handler on its loop; `wake()` is safe from any thread.
public struct Waker: Sendable {
    fileprivate let flags: FlagSet
    fileprivate let id: Int
    /// The loop's wake pipe, kept open while any waker lives (a worker may wake a loop that
    /// has just ended; its byte must not land in a descriptor reused for something else).
    fileprivate let pipe: WakePipe

    /// Asks the loop to run the handler soon.
    public func wake() {
        flags.raise(id)
        pipe.poke()
    }
}

/// A non-blocking pipe that wakes poll(2), closed when the last holder lets go.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemError("cannot create a pipe") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Writes one byte (a full pipe already wakes the loop, so a failed write is fine).
    func poke() {
        _ = withUnsafeBytes(of: UInt8(1)) { write(writeEnd, $0.baseAddress, 1) }
    }
}

/// Flags set from other threads and taken by the loop: bits of one atomic word, so raising
/// one takes no lock (a signal handler may do it).
final class FlagSet: Sendable {
    /// At most this many wakers per loop (the studio uses two or three).
    static let capacity = 64
    private let raised = Atomic<UInt64>(0)
    private let allocated = Atomic<Int>(0)
    let stopRequested = Atomic<Bool>(false)

    /// A new flag's index.
    func allocate() -> Int {
        let id = allocated.add(1, ordering: .relaxed).oldValue
        precondition(id < FlagSet.capacity, "too many wakers on one event loop")
        return id
    }

    func raise(_ id: Int) { raised.bitwiseOr(UInt64(1) << UInt64(id), ordering: .acquiringAndReleasing) }

    /// The flags raised since the last call, cleared.
    func takeRaised() -> [Int] {
        let bits = raised.exchange(0, ordering: .acquiringAndReleasing)
        return (0..<FlagSet.capacity).filter { bits & (UInt64(1) << UInt64($0)) != 0 }
    }
}
