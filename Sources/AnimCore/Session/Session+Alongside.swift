// Session+Alongside: `check(name:bytes:)` with the checker and the timing run side by side, on
// two threads: each top-level statement is built into its graph and handed to the run as soon
// as it is checked, while the checker goes on with the next. What comes out is exactly what
// checking the whole script and then running it gives — the same diagnostics in the same
// order, the same run — because nothing the run reports is let out before the check is over:
// the run's output is held back, and put after the check's diagnostics (and the font and image
// ones that follow them) if the check passed, or dropped with the whole run if it did not.
//
// Why: on a long script the check and the run each take about a third of `anim check`'s time
// (lsp-5000, callgrind: parse 33 M, check 45 M, build 15 M, run 51 M instructions), and the
// language server re-checks on every keystroke. Side by side, the run waits only for the
// parse and the first statement's check; see README, "Speed", for the figures.
import Dispatch
@preconcurrency import Glibc

/// The thread a check runs on beside the run: one of its own, started for it. Not one of
/// Dispatch's: the caller waits for it, and a caller that is itself one of Dispatch's threads
/// (the language server's analysis queue, a watcher) could leave none free to run it — on a
/// machine of one or two cores the pool is that small, and a blocked pool is only widened
/// when libdispatch next looks (`anim lsp` on one core, `taskset -c 0`, initialize → first
/// diagnostics, 20 runs: once 976 ms with the check on Dispatch's pool, never over 28 ms on a
/// thread of its own).
enum CheckingThread {
    /// Runs `body` on a new thread, which ends when it returns.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var id = pthread_t()
        // The checker recurses once per level of nesting (at most `Parser.maxNestingDepth`),
        // as it did on the caller's thread: a main thread's stack, not the 2 MB a new thread
        // gets when the stack size is unlimited.
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, CheckingThread.stackSize)
        let made = pthread_create(&id, &attributes, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard made == 0 else {
            // No thread to be had: check here, before anything runs (the feed holds it all).
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return
        }
        pthread_detach(id)
    }

    /// 16 MiB: twice a main thread's usual 8 (address space; only the pages used are memory).
    static let stackSize = 16 << 20

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}

/// What the checking thread hands the running thread, in order: each checked statement with
/// its graph, and what the checker added to the environment that the run needs with it.
final class CheckFeed: Sendable {
    /// One checked statement, ready to execute.
    struct Item: Sendable {
        var built: BuiltStatement
        /// The property names interned since the previous item (custom properties).
        var propertyNames: [String] = []
        /// The graphs of the define instantiations made since the previous item.
        var instantiations: [Instantiation] = []
    }

    /// The check's result, once the whole script is checked.
    struct Outcome: Sendable {
        var environment: Environment
        var diagnostics: DiagnosticBag
        var fontFamilies: [(family: String, span: Span)]
        /// Every instantiation's graph, as `Session.buildInstantiations` builds them.
        var instantiations: [Instantiation]
        /// Whether the check was given up (`Session.abandons`): what it found is incomplete,
        /// and nothing of it or of the run counts.
        var abandoned = false
    }

    private struct State: Sendable {
        var items: [Item] = []
        /// The check found an error: nothing more is sent, and nothing more need run.
        var failed = false
        var outcome: Outcome?
        /// The running thread waits for `ready`, until this many statements are sent (or the
        /// check fails or ends); zero when it is not waiting.
        var wanted = 0
    }

    private let state = PthreadLock(State())
    private let ready = DispatchSemaphore(value: 0)

    /// A feed for about `statements` statements: room for all of them, so that a run that falls
    /// behind costs no growing of the list they wait in (callgrind, lsp-5000: 1.4 M instructions
    /// of copying in 24 growths).
    init(statements: Int = 0) {
        state.withLock { $0.items.reserveCapacity(statements) }
    }

    /// Sends one statement (checking thread).
    func send(_ item: consuming Item) {
        // Moved into the list, not copied (a closure would capture a copy): a copy retains
        // everything the statement and its graph hold, and letting the original go releases it
        // all again (callgrind, lsp-5000: about 5 M instructions).
        state.lock()
        state.locked.items.append(consume item)
        let wake = state.locked.wanted > 0 && state.locked.items.count >= state.locked.wanted
        if wake { state.locked.wanted = 0 }
        state.unlock()
        if wake { ready.signal() }
    }

    /// Says the check found an error (checking thread).
    func fail() { settle { $0.failed = true } }

    /// Hands over the check's result, after the last statement (checking thread).
    func finish(_ outcome: Outcome) { settle { $0.outcome = outcome } }

    /// Makes a change the running thread must see at once, waking it if it waits.
    private func settle(_ change: (inout State) -> Void) {
        let wake = state.withLock { s -> Bool in
            change(&s)
            defer { s.wanted = 0 }
            return s.wanted > 0
        }
        if wake { ready.signal() }
    }

    /// How many statements the running thread waits for when it has run every one sent: waking
    /// it takes a system call and a few microseconds, and the checker is often the slower, so
    /// waking it for each statement cost more than running them (lsp-5000: 4,500 wake-ups).
    static let batch = 64

    /// Waits until statements were sent (`batch` of them, if none were waiting), the check
    /// failed, or it is over; moves every statement sent so far into `items` (which must be
    /// empty). The outcome comes with the last of them.
    func take(into items: inout [Item]) -> (failed: Bool, outcome: Outcome?) {
        while true {
            let got = state.withLock { s -> (failed: Bool, outcome: Outcome?)? in
                guard !s.items.isEmpty || s.failed || s.outcome != nil else {
                    s.wanted = CheckFeed.batch
                    return nil
                }
                swap(&items, &s.items)
                return (s.failed, s.outcome)
            }
            if let got { return got }
            ready.wait()
        }
    }
}

/// A value behind a pthread mutex. Not `Synchronization.Mutex`: ThreadSanitizer does not see
/// its lock on Linux (a futex), and reported every hand-over of the feed as a race; a pthread
/// mutex it sees (a two-thread counter under each, `-sanitize=thread`: a report, none).
final class PthreadLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }

    /// Takes the lock, for a caller that changes `locked` in place and then calls `unlock`
    /// (to move a value in, which a closure given to `withLock` could only copy).
    func lock() { pthread_mutex_lock(mutex) }

    /// Lets the lock go (after `lock`).
    func unlock() { pthread_mutex_unlock(mutex) }

    /// The value, to be read and changed only between `lock` and `unlock`.
    var locked: Value {
        // Read in place: a getter would copy the value (retaining what it holds) for each read.
        _read { yield value }
        _modify { yield &value }
    }
}

/// Output held back while the check is still going: replayed in order once it passed.
final class HeldOutput: SessionOutput {
    private enum Entry {
        case standardOutput(String)
        case standardError(String)
        case diagnostic(Diagnostic, DiagnosticRenderer)
    }

    private var entries: [Entry] = []

    func standardOutput(_ text: String) { entries.append(.standardOutput(text)) }
    func standardError(_ text: String) { entries.append(.standardError(text)) }
    func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) { entries.append(.diagnostic(diagnostic, renderer)) }

    /// Writes everything held to `output`, in the order it came.
    func replay(to output: SessionOutput) {
        for e in entries {
            switch e {
            case .standardOutput(let t): output.standardOutput(t)
            case .standardError(let t): output.standardError(t)
            case .diagnostic(let d, let r): output.diagnostic(d, renderer: r)
            }
        }
    }
}

extension Session {
    /// Checks a parsed program and executes its statements as they are checked (the checker on
    /// a thread of its own). Returns what `check(tree)` followed by `execute` would: the checked
    /// statements, nil when the check (or an image) failed, reported as `check(tree)` reports
    /// it, with nothing run; otherwise the error that stopped execution, if one did, reported
    /// after the check's diagnostics, and the session as the run left it.
    func checkExecuting(_ tree: SyntaxTree) -> (statements: [CheckedStmt]?, error: RuntimeError?) {
        let statementCount = tree[tree.statements].count
        let feed = CheckFeed(statements: statementCount)
        let start = (environment, instantiations)
        let imagesBefore = (imageFiles, imageDirectory)
        let abandons = abandons
        CheckingThread.start { Session.checkSending(tree, environment: start.0, instantiations: start.1, to: feed, abandons: abandons) }
        // The run's output and counts are held until the check's are out.
        let realOutput = output, held = HeldOutput()
        let counts = (errors: errorCount, warnings: warningCount)
        output = held
        interpreter.reserve(shapes: 0, graphs: statementCount)
        var ran: [CheckedStmt] = []
        ran.reserveCapacity(statementCount)
        // Swapped with the feed's list at each take: room for every statement on both sides.
        var items: [CheckFeed.Item] = []
        items.reserveCapacity(statementCount)
        var images = DiagnosticBag()
        var running = true
        var error: RuntimeError?
        let namesAtStart = interpreter.propertyNames.count
        var outcome: CheckFeed.Outcome
        while true {
            let (failed, last) = feed.take(into: &items)
            if failed || last?.abandoned == true { running = false }
            for i in items.indices {
                var item = CheckFeed.Item(built: BuiltStatement(statement: .declaration(.none), graph: nil))
                swap(&item, &items[i])
                if !item.propertyNames.isEmpty { interpreter.propertyNames += item.propertyNames }
                if !item.instantiations.isEmpty {
                    instantiations += item.instantiations
                    interpreter.instantiations = instantiations
                }
                // Images are read before anything runs (`check(tree)`), and one that cannot be
                // stops the whole run: each is read before its shape is made, and the run stops.
                if case .shapes(let c) = item.built.statement, c.kind == .image {
                    let problems = imageProblems([item.built.statement], source: tree.file.name)
                    if problems.hasErrors { running = false }
                    images.append(contentsOf: problems)
                }
                ran.append(item.built.statement)
                guard running, error == nil, !stoppedAtLimit else { continue }
                // Handed over, not copied: the interpreter keeps the graph (`execute(consuming:)`).
                var b = BuiltStatement(statement: .declaration(.none), graph: nil)
                swap(&b, &item.built)
                do { try execute(consume b) } catch let e { error = e }
            }
            items.removeAll(keepingCapacity: true)
            if let last {
                outcome = last
                break
            }
        }
        output = realOutput
        let runCounts = (errors: errorCount - counts.errors, warnings: warningCount - counts.warnings)
        (errorCount, warningCount) = counts
        // As `check(tree)` reports, in its order; the run's output after it.
        let discard = { [self] in
            runWasDiscarded = true
            waitLandings = waitLandings.map { _ in [] }
        }
        if outcome.abandoned {
            // Given up: nothing is reported, as if nothing had been checked.
            wasAbandoned = true
            (imageFiles, imageDirectory) = imagesBefore
            discard()
            return (nil, nil)
        }
        report(outcome.diagnostics)
        if keepsTree { keptCheckPassed = !outcome.diagnostics.hasErrors }
        if outcome.diagnostics.hasErrors {
            // `check(tree)` reads no image after a failed check.
            (imageFiles, imageDirectory) = imagesBefore
            discard()
            return (nil, nil)
        }
        checkFonts(outcome.fontFamilies)
        report(images)
        if images.hasErrors {
            if keepsTree { keptCheckPassed = false }
            discard()
            return (nil, nil)
        }
        commit(outcome.environment)
        instantiations = outcome.instantiations
        interpreter.instantiations = instantiations
        // Shapes made before a later shape declared a custom property get its id's room, as
        // they would have with every name known first.
        if interpreter.propertyNames.count > namesAtStart { interpreter.scene.widen(propertyCount: interpreter.propertyNames.count) }
        held.replay(to: output)
        errorCount += runCounts.errors
        warningCount += runCounts.warnings
        return (ran, error)
    }

    /// The checking thread: checks `tree` against `environment` and sends each statement built
    /// (against the graphs of `instantiations` and of those the check adds), then the outcome.
    /// After the check's first error nothing more is sent. `abandons` is asked every
    /// `CheckFeed.batch` statements: true gives the check up there (`Session.abandons`).
    static func checkSending(_ tree: SyntaxTree, environment: Environment, instantiations: [Instantiation], to feed: CheckFeed,
                             abandons: (@Sendable () -> Bool)? = nil) {
        var built = instantiations
        var namesSent = environment.propertyNames.count
        var diagnosticsSeen = 0
        var failed = false
        // Asked once a batch: a superseded analysis's lock and lookup are not worth a statement's.
        var untilAsked = 0
        let stops: (() -> Bool)? = abandons.map { ask in
            {
                guard untilAsked == 0 else {
                    untilAsked -= 1
                    return false
                }
                untilAsked = CheckFeed.batch - 1
                return ask()
            }
        }
        let checker = Checker.check(tree, environment: environment, stops: stops) { statement, c in
            guard !failed else { return }
            let all = c.diagnostics.all
            if all.count > diagnosticsSeen {
                failed = all[diagnosticsSeen...].contains { $0.severity == .error }
                diagnosticsSeen = all.count
                if failed {
                    feed.fail()
                    return
                }
            }
            var names: [String] = []
            if c.env.propertyNames.count > namesSent {
                names = Array(c.env.propertyNames[namesSent...])
                namesSent = c.env.propertyNames.count
            }
            var made: [Instantiation] = []
            if c.env.instantiations.count > built.count {
                let first = built.count
                GraphBuilder.buildInstantiations(c.env.instantiations, onto: &built)
                made = Array(built[first...])
            }
            // Made in the call, so that it is moved into the feed, not copied.
            feed.send(CheckFeed.Item(built: Session.built(statement, instantiations: built), propertyNames: names, instantiations: made))
        }
        guard !checker.stopped else {
            feed.finish(CheckFeed.Outcome(environment: checker.env, diagnostics: checker.diagnostics, fontFamilies: [],
                                          instantiations: built, abandoned: true))
            return
        }
        GraphBuilder.buildInstantiations(checker.env.instantiations, onto: &built)
        feed.finish(CheckFeed.Outcome(environment: checker.env, diagnostics: checker.diagnostics, fontFamilies: checker.fontFamilies,
                                      instantiations: built))
    }
}
