// BuildWorker: runs scene builds on a thread of their own, so the server keeps answering
// while a large script runs. One build at a time: the studio hands over a job, and the result
// comes back on the event loop through a Waker. The thread gets a large stack, as the main
// thread has, because checking deeply nested scripts recurses.
// After a build that made a scene, it also works out the delta from the scene before (SceneDelta),
// so the event loop only sends it.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AnimCore
import Dispatch
import Synchronization

/// A thread that builds scenes one at a time.
final class BuildWorker: Sendable {
    /// One build to do.
    struct Job: Sendable {
        var number: Int
        var name: String
        var contents: [UInt8]?
        var readError: String?
    }

    /// A build done: its job's number, its result, and for a scene the delta from the last
    /// scene this worker built (nil: none before, or too large to be worth sending).
    struct Finished: Sendable {
        var number: Int
        var build: SceneBuild
        /// The scene's JSON as bytes (what `/scene.json` serves), copied here, off the event loop.
        var json: [UInt8]?
        var delta: SceneDelta?
    }

    /// Bytes of stack for the build thread (the main thread has 8 MiB).
    static let stackSize = 64 << 20

    private let pending = Mutex<Job?>(nil)
    private let finished = Mutex<[Finished]>([])
    private let signal = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    /// Starts the thread; `done` is woken after each build.
    init(options: SessionOptions, fps: Int, done: Waker) throws(SystemError) {
        let body = ThreadBody { [self] in
            // The pieces of the last scene built (every scene built becomes the studio's next).
            var last: ScenePieces?
            while true {
                signal.wait()
                if stopping.load(ordering: .acquiring) { return }
                guard let job = pending.withLock({ j -> Job? in defer { j = nil }; return j }) else { continue }
                let result = SceneBuilder.build(name: job.name, contents: job.contents, readError: job.readError, options: options, fps: fps,
                                                shouldStop: { [self] in stopping.load(ordering: .relaxed) })
                var delta: SceneDelta?, bytes: [UInt8]?
                if let json = result.sceneJSON {
                    let pieces = ScenePieces(Array(json.utf8))
                    bytes = pieces.bytes
                    delta = last.flatMap { SceneDelta.between($0, pieces) }
                    last = pieces
                }
                let outcome = Finished(number: job.number, build: result, json: bytes, delta: delta)
                finished.withLock { $0.append(outcome) }
                done.wake()
            }
        }
        try body.start(stackSize: BuildWorker.stackSize)
    }

    /// Hands over a job (the worker must be idle).
    func submit(_ job: Job) {
        pending.withLock { $0 = job }
        signal.signal()
    }

    /// The builds finished since the last call, in order.
    func takeFinished() -> [Finished] {
        finished.withLock { f in defer { f = [] }; return f }
    }

    /// Asks the thread to end (a build in progress stops at its next check).
    func stop() {
        stopping.store(true, ordering: .releasing)
        signal.signal()
    }
}

/// A detached POSIX thread running a closure.
final class ThreadBody: @unchecked Sendable {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }

    /// The thread's start: takes back the retained body and runs it.
    static func run(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().work()
        return nil
    }

    func start(stackSize: Int) throws(SystemError) {
        var attr = pthread_attr_t()
        pthread_attr_init(&attr)
        defer { pthread_attr_destroy(&attr) }
        pthread_attr_setstacksize(&attr, stackSize)
        pthread_attr_setdetachstate(&attr, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Glibc)
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attr, { context in ThreadBody.run(context!) }, context)
        #else
        var thread: pthread_t?
        let rc = pthread_create(&thread, &attr, { context in ThreadBody.run(context) }, context)
        #endif
        guard rc == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            throw SystemError("cannot start a thread", code: rc)
        }
    }
}
