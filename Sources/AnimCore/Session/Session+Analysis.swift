// Session+Analysis: what `anim check` finds, as data rather than text, for a front end that
// shows diagnostics itself (the language server). It is `check(name:bytes:)` itself, run with an
// output that keeps each diagnostic instead of rendering it, so the two can never disagree:
// the same diagnostics, in the same order, with the same limit on how many are shown.
import Synchronization

/// What checking one script found.
public struct ScriptDiagnostics: Sendable {
    /// The script as the passes read it (a leading byte order mark removed): spans with its
    /// `id` point into its `bytes`.
    public var file: SourceFile
    /// Every source a span may point into (the prelude's too).
    public var sources: SourceMap
    /// The diagnostics `anim check` shows, in its order.
    public var diagnostics: [Diagnostic]
    /// How many more were found past `Session.maxShownErrors` and not shown, as `anim check`
    /// counts them in its last line.
    public var notShown: Int
    /// Whether `shouldStop` stopped the timing run before the script ended: the parse and
    /// check diagnostics are complete, run-time ones past that point are missing.
    public var stopped: Bool
    /// Whether `abandons` gave the check up: the diagnostics are incomplete and count for
    /// nothing (`diagnose`).
    public var abandoned = false
    /// The check's outcome: exit code, total duration, or the graph that never ends.
    public var report: CheckReport
}

extension Session {
    /// Checks a script as `anim check` does and returns its diagnostics as data. `shouldStop`
    /// is the interpreter's (`Interpreter.shouldStop`): asked now and then while the timing run
    /// plays, true stops it, so a script that runs a year of millisecond events costs only the
    /// budget the caller gives it. `abandons`, asked now and then while the script is checked
    /// (from another thread), gives the whole check up when true, for a caller that no longer
    /// wants its result: the check and the run stop at once, and the diagnostics returned are
    /// incomplete (`abandoned`). `shouldStop` only ever stops the run; the check always ends.
    public static func diagnose(name: String, bytes: [UInt8], options: SessionOptions = SessionOptions(),
                                shouldStop: (() -> Bool)? = nil, abandons: (@Sendable () -> Bool)? = nil) -> ScriptDiagnostics {
        diagnose(name: name, bytes: bytes, options: options, shouldStop: shouldStop, abandons: abandons, prepare: { _ in })
    }

    /// `diagnose`, with a session `prepare` sets up before the check.
    static func diagnose(name: String, bytes: [UInt8], options: SessionOptions, shouldStop: (() -> Bool)?,
                         abandons: (@Sendable () -> Bool)? = nil, prepare: (Session) -> Void) -> ScriptDiagnostics {
        let kept = KeptDiagnostics()
        let session = Session(options: options, output: kept)
        session.abandons = abandons
        prepare(session)
        var stopped = false
        if let shouldStop {
            session.interpreter.shouldStop = {
                if shouldStop() { stopped = true }
                return stopped
            }
        }
        let report = session.check(name: name, bytes: bytes)
        // check added the script last, after the prelude.
        var id: SourceID = 0
        while session.sources[id + 1] != nil { id += 1 }
        let file = session.sources[id]!
        let counted = session.errorCount + session.warningCount
        let shown = kept.diagnostics.filter { $0.severity != .note }.count
        return ScriptDiagnostics(file: file, sources: session.sources, diagnostics: kept.diagnostics,
                                 notShown: max(0, counted - shown), stopped: stopped && !session.runWasDiscarded,
                                 abandoned: session.wasAbandoned, report: report)
    }
}

/// A value made on first use, once, by whichever thread asks first.
final class Lazy<Value: Sendable>: Sendable {
    private let state = Mutex<Value?>(nil)
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    /// Whether the value has been made (for tests that check what a request computed).
    var isMade: Bool { state.withLock { $0 != nil } }

    var value: Value {
        state.withLock { s in
            if let v = s { return v }
            let v = make()
            s = v
            return v
        }
    }
}

/// An output that keeps diagnostics as data and drops everything else (a check prints nothing
/// else but the count of diagnostics not shown, which `diagnose` computes).
final class KeptDiagnostics: SessionOutput {
    var diagnostics: [Diagnostic] = []
    func standardOutput(_ text: String) {}
    func standardError(_ text: String) {}
    func diagnostic(_ diagnostic: Diagnostic, renderer: DiagnosticRenderer) { diagnostics.append(diagnostic) }
}

/// What an editor needs to know about one script: its diagnostics, as `anim check` finds them,
/// and the parsed tree, the names, the checked environment and the timing run behind them.
public struct ScriptAnalysis: Sendable {
    /// The diagnostics, exactly `diagnose`'s.
    public var diagnostics: ScriptDiagnostics
    /// The parsed tree (with the parser's recovery when there were syntax errors).
    public var tree: SyntaxTree
    /// The script's names and their uses (indexed on first use).
    public var symbols: SymbolIndex { lazySymbols.value }
    let lazySymbols: Lazy<SymbolIndex>
    /// Whether `symbols` has been built (it is built on the first request that needs it).
    public var symbolsAreBuilt: Bool { lazySymbols.isMade }
    /// The checker's environment, when the check passed (shapes, kinds, defines).
    public var environment: Environment?
    /// The timing run as data, when the check passed and the run got going: its graphs and
    /// activities, and the properties' history when `analyze` was asked to keep it.
    public var timeline: Timeline?
    /// When each step ran in the timing run (read from the timeline on first use).
    public var stepTimes: StepTimes { lazyStepTimes.value }
    let lazyStepTimes: Lazy<StepTimes>
    /// Where script time landed after each top-level `wait`, by the wait's span.
    public var waitLandings: [Span: Time]
}

extension Session {
    /// Analyzes a script for an editor: `diagnose`'s diagnostics, plus the tree, the names and
    /// a timing run kept as a timeline (the same run `anim check` makes; with `history`, every
    /// property's values are kept too, which makes the run slower). `shouldStop` bounds the run
    /// as for `diagnose`, and `abandons` gives it up as for `diagnose`.
    /// `remains`, when given, receives the session the analysis ran in, with the checked
    /// statements it ran, instead of their being freed before `analyze` returns: freeing them
    /// is about 8 M instructions for a 5,000-line script (callgrind), which a caller that
    /// publishes the diagnostics first can do later, on another thread.
    public static func analyze(name: String, bytes: [UInt8], options: SessionOptions = SessionOptions(), history: Bool = false,
                               shouldStop: (() -> Bool)? = nil, abandons: (@Sendable () -> Bool)? = nil,
                               remains: ((SessionRemains) -> Void)? = nil) -> ScriptAnalysis {
        var session: Session?
        let diagnostics = diagnose(name: name, bytes: bytes, options: options, shouldStop: shouldStop, abandons: abandons) { s in
            s.keepsTree = true
            s.keepsStatements = remains != nil
            s.waitLandings = []
            // No report is shown: the walk for the critical path is work no diagnostic needs.
            s.findsCriticalPath = false
            if history { s.interpreter.recordHistory() }
            session = s
        }
        let s = session!
        let tree = s.keptTree ?? Parser.parseProgram(diagnostics.file).tree
        let checked = s.keptCheckPassed
        var timeline: Timeline?
        if checked { timeline = s.currentTimeline() }
        var landings: [Span: Time] = [:]
        for w in s.waitLandings ?? [] { landings[w.span] = w.now }
        // The names and the times wait for a request: diagnostics need neither.
        defer { remains?(SessionRemains(s)) }
        return ScriptAnalysis(diagnostics: diagnostics, tree: tree, lazySymbols: Lazy { SymbolIndex(tree) },
                              environment: checked ? s.environment : nil, timeline: timeline,
                              lazyStepTimes: Lazy { [timeline] in timeline.map(StepTimes.init) ?? StepTimes() }, waitLandings: landings)
    }
}

/// What an analysis leaves behind: its session (interpreter, scene, environment) and the
/// checked statements it ran, to be let go of with `free`, on any thread. Nothing else refers
/// to the session by then (`analyze` has returned everything it keeps as values of its own),
/// which is what makes handing it to another thread safe.
public final class SessionRemains: @unchecked Sendable {
    private(set) var session: Session?

    init(_ session: Session) { self.session = session }

    /// Frees the session and what it kept, here (once; later calls do nothing).
    public func free() { session = nil }
}

extension Vocabulary {
    /// The prelude's defines and their parameters, in its order (a script may play them
    /// whether or not it checks).
    public static var preludeDefines: [(name: String, parameters: [String])] {
        let env = Session.prelude.environment
        return env.defines.values.sorted { $0.span.start < $1.span.start }.map { d in (d.name, d.parameters.map { env.names[$0] }) }
    }
}

// MARK: - Value edits

/// A full analysis to reuse for edits that change only values: the number written alone as a
/// top-level `let`'s value (`let gap = 12` → `125`), when `ValueFlow` finds that the value only
/// ever reaches properties written and never read back. The parse is then the same tree with
/// the literal longer or shorter (a number's digits and its point are one token, whatever they
/// are), the check the same (a `let` is a slot of its kind, never folded into its uses), and the
/// timing run the same events at the same times with other values in some tracks: every
/// diagnostic is the same, at the same place in the text (shifted past the literal).
public final class ValueEditBase: Sendable {
    /// The analysis reused.
    public let analysis: ScriptAnalysis
    /// `ValueFlow.amplification` of each `let` asked about, by statement.
    private let verdicts = Mutex<[Int32: Double?]>([:])

    /// A base for edits of the text `analysis` analysed.
    public init(_ analysis: ScriptAnalysis) { self.analysis = analysis }

    /// Whether edits can reuse it at all: it checked, and its timing run went to the end.
    var isReusable: Bool { analysis.environment != nil && !analysis.diagnostics.stopped }

    /// The strings that are a `print`'s whole value (`PrintTextEdit`), found on first use.
    var printedStrings: [Span] {
        if let s = printed.withLock({ $0 }) { return s }
        let s = PrintTextEdit.printedStrings(in: analysis.tree)
        printed.withLock { $0 = s }
        return s
    }
    private let printed = Mutex<[Span]?>(nil)

    func amplification(ofLet stmt: StmtID) -> Double? {
        if let v = verdicts.withLock({ $0[stmt.raw] }) { return v }
        let v = ValueFlow.amplification(ofLet: stmt, in: analysis.tree)
        verdicts.withLock { $0[stmt.raw] = v }
        return v
    }
}

/// A base analysis and the edits made since: how its spans map into the text of now. Each edit
/// is a region of the base text and the length it has now: a literal retyped (a value edit), or
/// the bytes a trivia edit changed (`TriviaEdit`: spaces, line breaks, comments).
public struct ValueEdits: Sendable {
    /// The analysis whose diagnostics are reused.
    public let base: ValueEditBase
    /// The regions edited, by their span in the base text, in order of start, none overlapping
    /// another's inside: their length now.
    private(set) var literals: [(start: UInt32, end: UInt32, length: UInt32)] = []
    /// Whether a trivia edit is among them: comments were typed, split or removed, so the
    /// semantic tokens (which include comments) are not the base's moved, though every token
    /// the passes read is.
    public private(set) var changesComments = false

    /// The largest magnitude a written value may reach: far from overflow in every
    /// interpolation and sum the runtime makes of it.
    static let maxMagnitude = 1e200
    /// The most digits a literal may have (exact as a Double, within DecimalLiteral's range).
    static let maxDigits = 15

    /// No edits yet.
    public init(base: ScriptAnalysis) { self.base = ValueEditBase(base) }

    /// The offset in today's text of a base offset where something starts (an offset at a
    /// region's end, or at an insertion, is after it).
    public func current(_ offset: UInt32) -> UInt32 {
        var o = Int64(offset)
        for l in literals where l.end <= offset { o += Int64(l.length) - Int64(l.end - l.start) }
        return UInt32(o)
    }

    /// The offset in today's text of a base offset where something ends (an offset at a
    /// region's end is after it, one at an insertion before it).
    public func currentEnd(_ offset: UInt32) -> UInt32 {
        var o = Int64(offset)
        for l in literals where l.end <= offset && l.start < offset { o += Int64(l.length) - Int64(l.end - l.start) }
        return UInt32(o)
    }

    /// The base offset of an offset of today's text outside the edited regions' insides (one at
    /// a region's end is after it).
    func baseOffset(_ offset: UInt32) -> UInt32 {
        var o = Int64(offset), delta: Int64 = 0
        for l in literals {
            let start = Int64(l.start) + delta
            guard start + Int64(l.length) <= o else { break }
            delta += Int64(l.length) - Int64(l.end - l.start)
        }
        o -= delta
        return UInt32(o)
    }

    /// A span of the base text in today's text (spans of other sources unchanged).
    public func current(_ span: Span) -> Span {
        guard span.source == base.analysis.diagnostics.file.id else { return span }
        let start = current(span.start)
        return Span(source: span.source, start: start, end: span.end == span.start ? start : currentEnd(span.end))
    }

    /// The diagnostics of `new`, when a full analysis of it is sure to find the base's, placed
    /// in it: a value edit (`edit`), a trivia edit (`triviaEdit`) or a print-text edit
    /// (`printTextEdit`). Nil for any other edit.
    public func reuse(old: [UInt8], new: [UInt8]) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        // The bytes that differ, found once for the three (two scans of the whole text).
        guard let d = ValueEdits.difference(old, new) else { return nil }
        return edit(old: old, new: new, d) ?? triviaEdit(old: old, new: new, d) ?? printTextEdit(old: old, new: new, d)
    }

    /// The diagnostics of `new`, when it is `old` (the text of these edits) with plain
    /// characters typed into or deleted from the text of a string that a `print` prints
    /// (`PrintTextEdit`): exactly those a full analysis of `new` finds, as no pass but the
    /// printing reads that text. Nil for any other edit. (`d`: where the texts differ, `difference`.)
    func printTextEdit(old: [UInt8], new: [UInt8], _ d: (p: Int, oldEnd: Int, newEnd: Int)) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        let (p, oldEnd, newEnd) = d
        guard oldEnd - p <= 64, newEnd - p <= 64,
              PrintTextEdit.isPlain(old[p..<oldEnd]), PrintTextEdit.isPlain(new[p..<newEnd]),
              // A note may say where a step is, by line and column (`triviaEdit`).
              !base.analysis.diagnostics.diagnostics.contains(where: { !$0.notes.isEmpty }), !touchesDiagnostic(old, p, oldEnd),
              let (next, i) = replacingRegion(UInt32(p)..<UInt32(oldEnd), length: UInt32(newEnd - p)) else { return nil }
        // The region edited, with any edit before it that it touches, in base offsets: it must
        // lie in the plain text of a printed string of the base (every edit merged into it was
        // one of plain text too: no other kind of edit changes a string).
        let region = Int(next.literals[i].start)..<Int(next.literals[i].end)
        let strings = base.printedStrings
        var lo = 0, hi = strings.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(strings[mid].end) <= region.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        guard lo < strings.count, PrintTextEdit.isInPlainText(region, of: strings[lo], in: base.analysis.diagnostics.file.bytes)
        else { return nil }
        return (next, next.diagnostics(for: new))
    }

    /// The diagnostics of `new`, when it is `old` (the text of these edits) with only spaces,
    /// line breaks or the text of comments changed (`TriviaEdit.sameTokens`: the same tokens,
    /// moved): exactly those a full analysis of `new` finds, as every pass reads the tokens and
    /// their order alone. Except positions written out in words: a note or a message may say
    /// where something is (`the step it takes over from is at t.anim:3:5`, `'animate' on line
    /// 4`), so a base with notes is not reused, nor one with errors when a line break comes or
    /// goes (the parser's recovery reads which tokens start lines). Nil for any other edit. (`d`: where the texts differ, `difference`.)
    func triviaEdit(old: [UInt8], new: [UInt8], _ d: (p: Int, oldEnd: Int, newEnd: Int)) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        let (p, oldEnd, newEnd) = d
        guard TriviaEdit.sameTokens(old: old, new: new, from: p, oldEnd: oldEnd, newEnd: newEnd) else { return nil }
        let diagnostics = base.analysis.diagnostics.diagnostics
        guard !diagnostics.contains(where: { !$0.notes.isEmpty }), !touchesDiagnostic(old, p, oldEnd) else { return nil }
        let linesMove = old[p..<oldEnd].contains(0x0A) || new[p..<newEnd].contains(0x0A)
        if linesMove && diagnostics.contains(where: { $0.severity == .error }) { return nil }
        guard var next = replacing(UInt32(p)..<UInt32(oldEnd), length: UInt32(newEnd - p)) else { return nil }
        next.changesComments = true
        return (next, next.diagnostics(for: new))
    }

    /// Whether a diagnostic's span (or a label's) is on a line of `old` (the text of these
    /// edits) that `p..<end` touches: a message or a help may quote its line's text
    /// (`put a space after '#' to start a comment: '# fade out'`), and an empty span at the
    /// edge of an edit may belong to the token before it or to the one after.
    func touchesDiagnostic(_ old: [UInt8], _ p: Int, _ end: Int) -> Bool {
        var lo = p
        while lo > 0 && old[lo - 1] != 0x0A { lo -= 1 }
        var hi = end
        while hi < old.count && old[hi] != 0x0A { hi += 1 }
        let d = base.analysis.diagnostics
        func touches(_ span: Span) -> Bool {
            guard span.source == d.file.id else { return false }
            let s = current(span)
            return Int(s.start) <= hi && Int(s.end) >= lo
        }
        return d.diagnostics.contains { x in touches(x.span) || x.secondary.contains { touches($0.span) } } || d.report.endless.map(touches) == true
    }

    /// The bytes that differ between `old` and `new`: from `p`, up to `oldEnd` in `old` and
    /// `newEnd` in `new` (the rest is the same). Nil when they are equal.
    static func difference(_ old: [UInt8], _ new: [UInt8]) -> (p: Int, oldEnd: Int, newEnd: Int)? {
        var p = 0
        let shortest = min(old.count, new.count)
        old.withUnsafeBufferPointer { o in new.withUnsafeBufferPointer { n in while p < shortest && o[p] == n[p] { p += 1 } } }
        if p == old.count && p == new.count { return nil }
        var s = 0
        old.withUnsafeBufferPointer { o in
            new.withUnsafeBufferPointer { n in while s < shortest - p && o[o.count - 1 - s] == n[n.count - 1 - s] { s += 1 } }
        }
        return (p, old.count - s, new.count - s)
    }

    /// These edits and one more: the bytes `range` of today's text replaced by `length` bytes.
    /// A replacement that overlaps the inside of an edited region becomes one region with it.
    func replacing(_ range: Range<UInt32>, length: UInt32) -> ValueEdits? { replacingRegion(range, length: length)?.edits }

    /// `replacing`, and the index of the region that holds the replacement.
    func replacingRegion(_ range: Range<UInt32>, length: UInt32) -> (edits: ValueEdits, region: Int)? {
        let a = Int64(range.lowerBound), b = Int64(range.upperBound)
        var delta: Int64 = 0
        var first = literals.count, last = -1
        var deltaBefore: Int64 = 0
        for (i, l) in literals.enumerated() {
            let cs = Int64(l.start) + delta, ce = cs + Int64(l.length)
            if cs < b && ce > a || (cs == ce && cs > a && cs < b) {
                if first == literals.count { first = i; deltaBefore = delta }
                last = i
            } else if ce <= a {
                deltaBefore = delta + Int64(l.length) - Int64(l.end - l.start)
            }
            delta += Int64(l.length) - Int64(l.end - l.start)
        }
        var next = self
        let grown = Int64(length) - (b - a)
        if last < first {
            // No region overlaps: a new one, in base offsets.
            let start = a - deltaBefore
            guard start >= 0 else { return nil }
            let region = (start: UInt32(start), end: UInt32(start + (b - a)), length: length)
            let at = next.literals.firstIndex { $0.start > region.start } ?? next.literals.count
            next.literals.insert(region, at: at)
            return (next, at)
        }
        let f = literals[first], l = literals[last]
        let fcs = Int64(f.start) + deltaBefore
        var lce = fcs
        do {
            var d = deltaBefore
            for k in first...last {
                let r = literals[k]
                lce = Int64(r.start) + d + Int64(r.length)
                d += Int64(r.length) - Int64(r.end - r.start)
            }
        }
        let cA = min(a, fcs), cB = max(b, lce)
        let bA = Int64(f.start) - (fcs - cA), bB = Int64(l.end) + (cB - lce)
        guard bA >= 0 else { return nil }
        let merged = (start: UInt32(bA), end: UInt32(bB), length: UInt32(cB - cA + grown))
        next.literals.replaceSubrange(first...last, with: [merged])
        return (next, first)
    }

    /// The diagnostics of `new`, when it is `old` (the text of these edits) with the digits of
    /// one number changed, a number that is the whole value of a `let` whose value is pure
    /// (ValueFlow), and still a plain number that cannot overflow on its way: exactly those a
    /// full analysis of `new` finds. Nil for any other edit (analyse it in full).
    public func edit(old: [UInt8], new: [UInt8]) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        ValueEdits.difference(old, new).flatMap { edit(old: old, new: new, $0) }
    }

    func edit(old: [UInt8], new: [UInt8], _ d: (p: Int, oldEnd: Int, newEnd: Int)) -> (edits: ValueEdits, diagnostics: ScriptDiagnostics)? {
        guard base.isReusable else { return nil }
        let p = d.p, s = old.count - d.oldEnd
        func isNumberByte(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || c == 0x2E }
        guard old[p..<(old.count - s)].allSatisfy(isNumberByte), new[p..<(new.count - s)].allSatisfy(isNumberByte) else { return nil }
        // The run of digits and points around them, in both texts.
        var a = p
        while a > 0 && isNumberByte(old[a - 1]) { a -= 1 }
        var oldEnd = old.count - s, newEnd = new.count - s
        while oldEnd < old.count && isNumberByte(old[oldEnd]) { oldEnd += 1; newEnd += 1 }
        guard let value = ValueEdits.plainDecimal(new[a..<newEnd]), ValueEdits.plainDecimal(old[a..<oldEnd]) != nil else { return nil }
        // It must be the digits of a top-level `let`'s number, in the base tree.
        let tree = base.analysis.tree
        let baseStart = baseOffset(UInt32(a))
        let statements = tree[tree.statements]
        var lo = 0, hi = statements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if tree.span(statements[mid]).end <= baseStart { lo = mid + 1 } else { hi = mid }
        }
        guard lo < statements.count, case .let(let l) = tree[statements[lo]], case .number(let n) = tree[l.value],
              n.span.start == baseStart else { return nil }
        let existing = literals.firstIndex { $0.start == n.span.start && $0.end == n.span.end }
        // Another edit inside the literal (none can be: trivia edits change no token) would make
        // its length unknown here.
        guard existing != nil || !literals.contains(where: { $0.start < n.span.end && $0.end > n.span.start }) else { return nil }
        let length = existing.map { literals[$0].length } ?? (n.span.end - n.span.start)
        let suffix = UInt32(n.unit.suffixLength)
        guard current(n.span.start) == UInt32(a), length - suffix == UInt32(oldEnd - a) else { return nil }
        guard let k = base.amplification(ofLet: statements[lo]), k * max(1, abs(value)) <= ValueEdits.maxMagnitude else { return nil }
        var next = self
        let newLength = UInt32(newEnd - a) + suffix
        if let i = existing { next.literals[i].length = newLength } else {
            // After any insertion at the literal's start (it comes before it in today's text).
            let at = next.literals.firstIndex { $0.start > n.span.start } ?? next.literals.count
            next.literals.insert((n.span.start, n.span.end, newLength), at: at)
        }
        return (next, next.diagnostics(for: new))
    }

    /// The base's diagnostics, placed in `bytes` (the text of these edits).
    func diagnostics(for bytes: [UInt8]) -> ScriptDiagnostics {
        var d = base.analysis.diagnostics
        let file = SourceFile(id: d.file.id, name: d.file.name, bytes: bytes)
        var sources = SourceMap()
        for id in 0..<file.id { sources.add(d.sources[id]!) }
        sources.add(file)
        d.file = file
        d.sources = sources
        d.diagnostics = d.diagnostics.map { x in
            var x = x
            x.span = current(x.span)
            x.secondary = x.secondary.map { Diagnostic.Label(span: current($0.span), text: $0.text) }
            return x
        }
        d.report.endless = d.report.endless.map(current)
        return d
    }

    /// The value of digits with at most one point between digits (`12`, `0.55`), at most
    /// `maxDigits` of them; nil for anything else.
    static func plainDecimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        let points = bytes.filter { $0 == 0x2E }.count
        guard let first = bytes.first, let last = bytes.last, first != 0x2E, last != 0x2E, points <= 1, bytes.count - points <= maxDigits
        else { return nil }
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
