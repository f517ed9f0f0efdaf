// AnalysisThreads: the threads analyses run on, in turn, each letting go of what its own
// analyses allocated while another thread analyses the next version.
//
// Why threads of their own and not a dispatch queue: glibc's malloc gives each thread an arena
// of its own, and a block is freed into the arena it came from, under that arena's lock. When
// one thread analysed every version and another freed the last one's tree, timeline and
// session, the two took the same lock tens of thousands of times per keystroke: `perf` over
// `bench-lsp`'s duration series (5,000 lines) found 12 % of the analysing thread's time in
// waking the freeing thread from that lock (`__lll_lock_wake_private`), and the freeing
// thread mostly waiting. A dispatch queue's blocks run on whichever pool thread is free, so
// which arena an analysis allocates in is not the queue's to say. Here an analysis is made on
// one of three threads in turn, and what it leaves is freed on the thread that made it, while
// the next two analyses are made on the others: no two threads use one arena at once.
import Dispatch
@preconcurrency import Glibc
import Synchronization

/// Three threads that run analyses in turn (`run`) and free what each analysis left (`free`)
/// on the thread that made it, one free at a time across them.
final class AnalysisThreads: Sendable {
    /// How many threads take turns: an analysis's own remains are freed on its thread after it
    /// publishes, and its result once the next version's replaces it, so with three a thread is
    /// idle again by its next turn (two analyses later).
    static let count = 3

    private let threads: [AnalysisThread]
    /// The thread whose turn is next.
    private let turn = Mutex(0)

    init() {
        // Held while something is freed, so that frees never run two at a time: on a machine
        // of two cores, two freeing threads would take a core from the analysis.
        let gate = FreeingGate()
        var threads: [AnalysisThread] = []
        for _ in 0..<AnalysisThreads.count { threads.append(AnalysisThread()) }
        self.threads = threads
        for t in threads { t.start(gate: gate) }
    }

    deinit {
        for t in threads { t.quit() }
    }

    /// Runs `body` on the thread whose turn it is (the next in turn that has nothing left to
    /// free, if one has not) and waits for it. `body` is given the thread's number, for `free`.
    func run(_ body: @escaping @Sendable (_ thread: Int) -> Void) {
        let chosen = turn.withLock { next -> Int in
            var pick = next
            for k in 0..<threads.count where threads[(next + k) % threads.count].isIdle {
                pick = (next + k) % threads.count
                break
            }
            next = (pick + 1) % threads.count
            return pick
        }
        let done = DispatchSemaphore(value: 0)
        threads[chosen].enqueue(.run {
            body(chosen)
            done.signal()
        })
        done.wait()
    }

    /// Frees `garbage` on thread `thread` (the one that made it), after anything it runs first.
    /// `garbage` must be the last reference to what it holds (a `Retired` box), or the freeing
    /// happens wherever the last reference goes.
    func free(_ garbage: Retired, on thread: Int) {
        threads[thread % threads.count].enqueue(.free(garbage))
    }
}

/// What a thread is asked to do: run an analysis, or free what one left.
private enum Work: Sendable {
    case run(@Sendable () -> Void)
    case free(Retired)
    case quit
}

/// One thread and its work: an analysis to run comes before anything left to free.
private final class AnalysisThread: Sendable {
    private struct State {
        var runs: [Work] = []
        var frees: [Work] = []
        var running = false
    }
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// Whether it has nothing to do: no analysis running or waiting, nothing to free.
    var isIdle: Bool { state.withLock { !$0.running && $0.runs.isEmpty && $0.frees.isEmpty } }

    func enqueue(_ work: Work) {
        state.withLock { s in
            if case .free = work { s.frees.append(work) } else { s.runs.append(work) }
        }
        ready.signal()
    }

    func quit() { enqueue(.quit) }

    /// Starts the thread: it holds itself and the gate until it quits.
    func start(gate: FreeingGate) {
        let context = Unmanaged.passRetained(Context(thread: self, gate: gate)).toOpaque()
        var id = pthread_t()
        let made = pthread_create(&id, nil, { raw in
            let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
            context.thread.loop(gate: context.gate)
            return nil
        }, context)
        precondition(made == 0, "cannot start an analysis thread (pthread_create: \(made))")
        pthread_detach(id)
    }

    /// What the new thread is handed.
    private final class Context: Sendable {
        let thread: AnalysisThread
        let gate: FreeingGate
        init(thread: AnalysisThread, gate: FreeingGate) {
            self.thread = thread
            self.gate = gate
        }
    }

    /// Runs what it is given until told to quit: analyses first, then frees (through the gate).
    private func loop(gate: FreeingGate) {
        while true {
            ready.wait()
            let work = state.withLock { s -> Work in
                if !s.runs.isEmpty {
                    s.running = true
                    return s.runs.removeFirst()
                }
                return s.frees.removeFirst()
            }
            switch work {
            case .run(let body):
                body()
                state.withLock { $0.running = false }
            case .free(let garbage):
                gate.lock.withLock { _ in garbage.free() }
            case .quit:
                return
            }
        }
    }
}

/// The lock the threads free under, one free at a time.
private final class FreeingGate: Sendable {
    let lock = Mutex(())
}
