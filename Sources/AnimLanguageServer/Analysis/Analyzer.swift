// Analyzer: runs the core over open documents off the thread that reads messages, so that it
// always goes on answering — `shutdown` during a long check, a change while the
// previous version is still being timed.
//
// Each document has at most one analysis waiting: a change replaces the waiting version, so
// typing faster than analysis goes costs nothing. A running analysis stops as soon as its
// version is no longer the latest: its timing run through the interpreter's `shouldStop`
// (asked every `Interpreter.stopCheckInterval` events, which also bounds the run by its work
// budget) and its check through `Session.diagnose`'s `abandons` (asked every
// `CheckFeed.batch` statements), so that the next version's analysis, which waits for it, starts
// at once (bench-lsp, bursts of four keystrokes 5 ms apart into a 5,000-line script: from the
// last keystroke to its diagnostics, p50 24–31 ms with the check going to the end, 20–22 ms
// given up).
// Only parsing cannot be stopped; it is linear in the text and runs off the reading thread. A result
// is published only if its version is still the latest and the document still open, under the
// same lock that `close` takes, so stale diagnostics never reach the client. The last few
// analyses of each document are kept: a change back to one of their texts (a character typed
// and deleted, an undo) is that analysis again, at once. Analyses are made one at a time on
// three threads in turn (AnalysisThreads), and what one leaves to free (its session, and
// itself once it is no longer kept) is freed on the thread that made it, after the diagnostics
// are sent, while the others make the next versions.
import AnimCore
import Dispatch
@preconcurrency import Glibc
import Synchronization

/// Runs analyses in the background and hands their results on.
final class Analyzer: Sendable {
    /// One version of a document to analyze.
    struct Job: Sendable {
        var uri: String
        var version: Int
        var text: DocumentText
    }

    private struct State {
        /// The version waiting to be analyzed, per document.
        var pending: [String: Job] = [:]
        /// Documents with a waiting version, oldest first.
        var order: [String] = []
        /// The latest version of each open document.
        var latest: [String: Int] = [:]
        /// The latest finished analysis of each open document.
        var results: [String: DocumentAnalysis] = [:]
        /// The last analyses published for each open document, newest first, each text once,
        /// with the thread that made each (`AnalysisThreads`): a change back to one of their
        /// texts (a character typed and deleted, an undo) is that analysis again. The newest is
        /// `results`'.
        var recent: [String: [(analysis: DocumentAnalysis, thread: Int)]] = [:]
        /// Set by `stop`: nothing more is analyzed or published.
        var stopped = false
        /// How many analyses have started (for tests).
        var started = 0
    }

    private let state = Mutex(State())
    /// Orders the analyses: one at a time, in the order asked for (each made on one of
    /// `threads`, which this queue's block waits for).
    private let queue = DispatchQueue(label: "anim.lsp.analysis")
    /// Where analyses are made and let go of.
    private let threads = AnalysisThreads()
    /// How many analyses of a document `State.recent` keeps: a few keystrokes' worth of undo,
    /// at the memory of as many trees and timing runs (about 6 MB each for 5,000 lines).
    static let recentCount = 4
    private let budget: WorkBudget
    /// Whether a change of a value reuses the last analysis (`anim lsp --full-analysis`: no).
    private let reusesValueEdits: Bool
    private let publish: @Sendable (DocumentAnalysis) -> Void
    private let clear: @Sendable (String) -> Void

    /// An analyzer that calls `publish` with each current result and `clear` when a document
    /// closes (both under its lock, in order).
    init(budget: WorkBudget, reusesValueEdits: Bool = true, publish: @escaping @Sendable (DocumentAnalysis) -> Void,
         clear: @escaping @Sendable (String) -> Void) {
        self.budget = budget
        self.reusesValueEdits = reusesValueEdits
        self.publish = publish
        self.clear = clear
    }

    /// Asks for an analysis of a document's new version.
    func update(_ document: TextDocument) {
        let job = Job(uri: document.uri, version: document.version, text: document.text)
        let enqueue = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.latest[job.uri] = job.version
            let waiting = s.pending[job.uri] != nil
            s.pending[job.uri] = job
            if !waiting { s.order.append(job.uri) }
            return !waiting
        }
        if enqueue { queue.async { self.runNext() } }
    }

    /// A document closed: its analyses stop, and its diagnostics are cleared.
    func close(_ uri: String) {
        let closed = state.withLock { s -> [(analysis: DocumentAnalysis, thread: Int)] in
            s.latest[uri] = nil
            s.results[uri] = nil
            if s.pending.removeValue(forKey: uri) != nil { s.order.removeAll { $0 == uri } }
            if !s.stopped { clear(uri) }
            return s.recent.removeValue(forKey: uri) ?? []
        }
        for c in closed { threads.free(Retired(c.analysis, nil), on: c.thread) }
    }

    /// Stops everything (after `shutdown`): the running analysis stops at its next check, and
    /// nothing more is published.
    func stop() {
        state.withLock { s in
            s.stopped = true
            s.pending = [:]
            s.order = []
        }
    }

    /// The analysis of a document's latest version, waiting for it if it is not done. Nil for a
    /// document that is not open. (For request handlers: a request sees every change sent
    /// before it.)
    func analysis(of uri: String) -> DocumentAnalysis? {
        // The queue is serial and only this thread adds to it, so once an empty block has run
        // there, every analysis asked for before it has finished.
        queue.sync {}
        return state.withLock { s in
            guard let r = s.results[uri], r.version == s.latest[uri] else { return nil }
            return r
        }
    }

    /// How many analyses have started so far.
    var analysesStarted: Int { state.withLock { $0.started } }

    // MARK: - The analysis thread

    private func runNext() {
        let next = state.withLock { s -> Job? in
            guard !s.order.isEmpty else { return nil }
            let uri = s.order.removeFirst()
            s.started += 1
            return s.pending.removeValue(forKey: uri)
        }
        guard let job = next else { return }
        threads.run { [self] me in analyzeAndPublish(job, on: me) }
    }

    /// Analyzes a version and publishes the result if it is still the latest, on the thread
    /// whose turn it is. What the analysis's session left is freed on this thread after the
    /// diagnostics are sent (about 8 M instructions for 5,000 lines, callgrind, that no
    /// diagnostic waits for), and an analysis that drops out of `recent` on the thread that made
    /// it, while the next versions are analysed on the others (`AnalysisThreads`).
    private func analyzeAndPublish(_ job: Job, on me: Int) {
        let (result, remains) = analyze(job)
        let dropped = state.withLock { s -> [(analysis: DocumentAnalysis, thread: Int)] in
            guard !s.stopped, let result, s.latest[job.uri] == job.version else { return [] }
            s.results[job.uri] = result
            publish(result)
            var recent = s.recent[job.uri] ?? []
            // An analysis again (`analyze`) moves to the front, still its maker's to free.
            let again = recent.firstIndex { Analyzer.sameText($0.analysis.text, result.text) }
            let maker = again.map { recent.remove(at: $0).thread } ?? me
            recent.insert((result, maker), at: 0)
            let dropped = recent.count > Analyzer.recentCount ? Array(recent[Analyzer.recentCount...]) : []
            recent.removeSubrange(min(recent.count, Analyzer.recentCount)...)
            s.recent[job.uri] = recent
            return dropped
        }
        // Each box empties itself where it frees, so that the analysis is released there: a
        // closure that captured it would share it with this thread's own reference, and
        // whichever let go last would free it (callgrind caught this thread freeing it).
        if let remains { threads.free(Retired(nil, remains), on: me) }
        for d in dropped { threads.free(Retired(d.analysis, nil), on: d.thread) }
    }

    /// Whether two texts are the same bytes.
    static func sameText(_ a: DocumentText, _ b: DocumentText) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        guard !a.bytes.isEmpty else { return true }
        return a.bytes.withUnsafeBytes { x in b.bytes.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// One version's analysis: a change of a value only, of trivia only or of printed text only
    /// reuses the last analysis's diagnostics (ValueEdits.reuse); a text analysed lately
    /// (`State.recent`) is that analysis again; any other change is analysed in full. Nil when the version
    /// was superseded; with it, what a full analysis's session left (nil for a reused one), to
    /// free later. The last analysis is read here and let go of on return: while `runNext`
    /// still held it, it was often freed there, before the next analysis could start
    /// (callgrind, 5,000 lines: 9.3 M of the 11.8 M instructions of freeing it ran on this
    /// thread, after the diagnostics were sent).
    private func analyze(_ job: Job) -> (DocumentAnalysis?, SessionRemains?) {
        let (previous, recent) = state.withLock { s in (reusesValueEdits ? s.results[job.uri] : nil, reusesValueEdits ? s.recent[job.uri] ?? [] : []) }
        // A value, trivia or print-text edit first: as cheap as finding the text again, and what
        // an editor asks for next (semantic tokens moved past the edit, hints) is cheaper on it
        // than on a full analysis found again, whose tokens are classified anew (bench-lsp, as an
        // editor into a value: 12 ms to all three answers at the median, 21 ms with the text
        // found first).
        if let previous, let reused = DocumentAnalysis.reusing(previous, for: job, budget: budget) { return (reused, nil) }
        if let same = recent.first(where: { $0.analysis.budget == budget && Analyzer.sameText($0.analysis.text, job.text) }) {
            var again = same.analysis
            again.version = job.version
            return (again, nil)
        }
        var remains: SessionRemains?
        let made = DocumentAnalysis.make(job, budget: budget, remains: { remains = $0 }) { [self] in
            state.withLock { s in s.stopped || s.latest[job.uri] != job.version }
        }
        return (made, remains)
    }
}

/// An analysis and an analysis's remains on their way to the thread that frees them, which lets
/// go of them (`free`) whatever thread lets go of the box last.
final class Retired: Sendable {
    private let analysis: Mutex<DocumentAnalysis?>
    private let remains: SessionRemains?

    init(_ analysis: DocumentAnalysis?, _ remains: SessionRemains?) {
        self.analysis = Mutex(analysis)
        self.remains = remains
    }

    /// Releases them, here.
    func free() {
        let last = analysis.withLock { a -> DocumentAnalysis? in
            defer { a = nil }
            return a
        }
        withExtendedLifetime(last) {}
        remains?.free()
    }
}

/// How much work one analysis may do.
public struct WorkBudget: Hashable, Sendable {
    /// How many times the interpreter may ask `shouldStop` (once per
    /// `Interpreter.stopCheckInterval` events) before the timing run is stopped.
    public var checks: Int
    /// The largest document analyzed: anim reads no larger script (`SourceFile.maxSize`).
    public var maxBytes: Int

    public init(checks: Int, maxBytes: Int = SourceFile.maxSize) {
        self.checks = checks
        self.maxBytes = maxBytes
    }

    /// About 200,000 events: far more than a script written by hand, and about a tenth of a
    /// second in a release build.
    public static let standard = WorkBudget(checks: 200)

    /// The number of events it allows, roughly.
    public var events: Int { checks * Interpreter.stopCheckInterval }
}
