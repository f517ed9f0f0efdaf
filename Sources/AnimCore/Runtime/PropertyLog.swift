// PropertyLog: what each property did, in one time base — the one log of timed writes. A run's
// history is one, in global time; a played instance's recording is one, in the instance's
// local time. Each piece is a stretch of one property's life from its start until the
// property's next piece: a constant, a track seen through a clock map from the log's time to
// the track's, or (in a history) a replaying instance's recording seen through such a map.
//
// The layout is columnar, for the sampler: pieces are rows across parallel arrays (start,
// property row, kind, payload) in the order they were added, which for a history is the order
// they start in, so the sampler reads its activation order straight from the log; a track's
// endpoints sit in one pool of Doubles, its timing and curve are indices into TrackTables.
// A piece that starts when its property's last piece did replaces it (the later write wins).
// `index()` sorts each property's pieces by start, so a lookup is one binary search.

/// What each property did, in one time base.
public struct PropertyLog: Sendable {
    /// What gives a piece its value.
    enum Kind: UInt8 {
        /// `values[payload]`.
        case constant
        /// A `set` in a recording: `values[payload]`; read backward at its own instant, the
        /// value it replaced, `values[payload + 1]` (the playhead arriving backward there is
        /// before the write).
        case write
        /// `tracks[payload]`.
        case track
        /// `replays[payload]`.
        case replay
    }

    /// A track as the log keeps it.
    struct LoggedTrack: Sendable {
        /// Log time → the track's instance's local time.
        var clock: ClockMap
        var begin: Time
        var timing: Int32
        var curve: TrackCurve
        /// The layouts of `from` and `to` (the same but where the checker let a kind through
        /// that the values do not share).
        var fromLayout: ValueLayout
        var toLayout: ValueLayout
        /// Where its endpoints start in `pool`: `from`, then `to`.
        var data: Int32

        /// How many Doubles its endpoints take in the pool.
        var poolCount: Int { fromLayout.components + toLayout.components }
    }

    /// A replaying instance's recording, as a history piece shows it.
    struct LoggedReplay: Sendable {
        /// Log time → the recording's time.
        var clock: ClockMap
        /// In `recordings`.
        var recording: Int32
        /// What the property shows where the recording has nothing for it.
        var fallback: Value
    }

    // MARK: Pieces (one row each, in the order added)

    private(set) var pieceStart: [Time] = []
    private(set) var pieceRow: [Int32] = []
    private(set) var pieceKind: [Kind] = []
    private(set) var piecePayload: [Int32] = []

    // MARK: Properties (one row each, in the order first written)

    /// Each row's property.
    private(set) var rowKey: [PropertyKey] = []
    /// Each row's last piece added.
    private var rowLast: [Int32] = []
    /// Each row's layout: the raw value of the ValueLayout all its values share, or
    /// `PropertyLog.mixed` when they do not all share one (strings, say).
    private(set) var rowLayout: [UInt8] = []
    private var rowOf = KeyMap<Int32>()

    // MARK: Payloads

    private(set) var values: [Value] = []
    private(set) var tracks: [LoggedTrack] = []
    private(set) var pool: [Double] = []
    private(set) var replays: [LoggedReplay] = []
    /// The recordings replays show, each kept as it was when a piece first showed it.
    private(set) var recordings: [PropertyLog] = []

    // MARK: Index (by `index()`)

    /// Row r's pieces are `indexPieces[indexStart[r] ..< indexStart[r + 1]]`, by start.
    private var indexStart: [Int32] = []
    private var indexPieces: [Int32] = []
    /// How many pieces the index covers.
    private var indexed = 0

    /// An empty log.
    public init() {}

    /// How many pieces.
    public var pieceCount: Int { pieceStart.count }
    /// How many properties have pieces.
    public var propertyCount: Int { rowKey.count }
    /// The properties with pieces, in the order first written.
    public var keys: [PropertyKey] { rowKey }
    /// Whether `index()` is up to date.
    var isIndexed: Bool { indexed == pieceStart.count && indexStart.count == rowKey.count + 1 }

    /// A row whose values are not all numbers of one layout.
    static let mixed: UInt8 = 0xFF
    /// A row with no value yet.
    /// The row of a property, if it has pieces.
    @inline(__always)
    func row(of key: PropertyKey) -> Int? { rowOf[key].map(Int.init) }

    /// When the last piece added starts (`.min` in an empty log).
    var lastStart: Time { pieceStart.last ?? Time(ticks: .min) }

    /// The clock of a property's last piece when it is a track's.
    @inline(__always)
    func lastTrackClock(of key: PropertyKey) -> ClockMap? {
        guard let r = rowOf[key] else { return nil }
        let p = Int(rowLast[Int(r)])
        return pieceKind[p] == .track ? tracks[Int(piecePayload[p])].clock : nil
    }

    // MARK: - Adding

    /// Adds a constant piece.
    mutating func addConstant(_ key: PropertyKey, at start: Time, _ v: Value) {
        let p = place(key, start, layout: ValueLayout(of: v))
        pieceKind[p] = .constant
        piecePayload[p] = Int32(values.count)
        values.append(v)
    }

    /// Adds a `set` of a recording: `to` from its instant, `from` just before it (backward).
    mutating func addWrite(_ key: PropertyKey, at start: Time, from: Value, to: Value) {
        let p = place(key, start, layout: ValueLayout(of: to))
        note(layout: ValueLayout(of: from), row: Int(pieceRow[p]))
        pieceKind[p] = .write
        piecePayload[p] = Int32(values.count)
        values.append(to)
        values.append(from)
    }

    /// Adds a track seen through `clock` (log time → the track's local time).
    mutating func addTrack(_ key: PropertyKey, at start: Time, _ tr: Track, clock: ClockMap) {
        let p = place(key, start, layout: tr.from.layout)
        note(layout: tr.to.layout, row: Int(pieceRow[p]))
        pieceKind[p] = .track
        piecePayload[p] = Int32(tracks.count)
        tracks.append(LoggedTrack(clock: clock, begin: tr.begin, timing: tr.timing, curve: tr.curve, fromLayout: tr.from.layout,
                                  toLayout: tr.to.layout, data: Int32(pool.count)))
        tr.from.append(to: &pool)
        tr.to.append(to: &pool)
    }

    /// Adds a piece showing `recordings[recording]` through `clock` (log time → its time).
    mutating func addReplay(_ key: PropertyKey, at start: Time, recording: Int32, fallback: Value, clock: ClockMap) {
        let p = place(key, start, layout: ValueLayout(of: fallback))
        pieceKind[p] = .replay
        piecePayload[p] = Int32(replays.count)
        replays.append(LoggedReplay(clock: clock, recording: recording, fallback: fallback))
    }

    /// Keeps a recording for replay pieces to show; returns its index.
    mutating func keep(recording log: PropertyLog) -> Int32 {
        recordings.append(log)
        return Int32(recordings.count - 1)
    }

    /// The piece a new piece of `key` starting at `start` goes in: a new one, or the property's
    /// last one when it starts at the same instant (what it held is dropped).
    private mutating func place(_ key: PropertyKey, _ start: Time, layout: ValueLayout?) -> Int {
        let r: Int
        if let x = rowOf[key] {
            r = Int(x)
            note(layout: layout, row: r)
            let last = Int(rowLast[r])
            if pieceStart[last] == start {
                drop(payloadOf: last)
                return last
            }
        } else {
            r = rowKey.count
            rowOf[key] = Int32(r)
            rowKey.append(key)
            rowLast.append(-1)
            rowLayout.append(layout?.rawValue ?? PropertyLog.mixed)
        }
        let p = pieceStart.count
        pieceStart.append(start)
        pieceRow.append(Int32(r))
        pieceKind.append(.constant)
        piecePayload.append(-1)
        rowLast[r] = Int32(p)
        return p
    }

    /// Notes a value's layout in a row's.
    @inline(__always)
    private mutating func note(layout: ValueLayout?, row r: Int) {
        let l = layout?.rawValue ?? PropertyLog.mixed
        if rowLayout[r] != l { rowLayout[r] = PropertyLog.mixed }
    }

    /// Frees what piece `p` held, if it is the last of its table (a piece replaced at once).
    private mutating func drop(payloadOf p: Int) {
        let x = Int(piecePayload[p])
        switch pieceKind[p] {
        case .constant:
            if x == values.count - 1 { values.removeLast() }
        case .write:
            if x == values.count - 2 { values.removeLast(2) }
        case .track:
            if x == tracks.count - 1 {
                let t = tracks.removeLast()
                if Int(t.data) + t.poolCount == pool.count { pool.removeLast(t.poolCount) }
            }
        case .replay:
            if x == replays.count - 1 { replays.removeLast() }
        }
    }

    // MARK: - Index

    /// Sorts each property's pieces by start (a counting sort by row, stable, then a sort of any
    /// row added out of order), so `value(_:at:)` is a binary search. Replacing a piece keeps
    /// the index; adding one makes it stale.
    mutating func index() {
        guard !isIndexed else { return }
        let rows = rowKey.count, n = pieceStart.count
        var start = [Int32](repeating: 0, count: rows + 1)
        for r in pieceRow { start[Int(r) + 1] += 1 }
        for r in 0..<rows { start[r + 1] += start[r] }
        var next = start
        var order = [Int32](repeating: 0, count: n)
        for p in 0..<n {
            let r = Int(pieceRow[p])
            order[Int(next[r])] = Int32(p)
            next[r] += 1
        }
        for r in 0..<rows {
            let lo = Int(start[r]), hi = Int(start[r + 1])
            var sorted = true
            var k = lo + 1
            while k < hi { if pieceStart[Int(order[k])] < pieceStart[Int(order[k - 1])] { sorted = false; break }; k += 1 }
            if !sorted {
                // Later pieces win ties, as a later write does.
                order[lo..<hi].sort { a, b in
                    pieceStart[Int(a)] != pieceStart[Int(b)] ? pieceStart[Int(a)] < pieceStart[Int(b)] : a < b
                }
            }
        }
        indexStart = start
        indexPieces = order
        indexed = n
    }

    /// The log with its index up to date.
    func indexedCopy() -> PropertyLog {
        var copy = self
        copy.index()
        return copy
    }

    /// Row r's pieces, by start (the index must be up to date).
    func pieces(ofRow r: Int) -> ArraySlice<Int32> {
        indexPieces[Int(indexStart[r])..<Int(indexStart[r + 1])]
    }

    /// The piece of `key` that gives its value at `t`: the last to start at or before `t`.
    func piece(_ key: PropertyKey, at t: Time) -> Int? {
        guard let r = rowOf[key] else { return nil }
        precondition(isIndexed, "PropertyLog.index() must run before lookups")
        var lo = Int(indexStart[Int(r)]), hi = Int(indexStart[Int(r) + 1]) - 1
        guard lo <= hi, pieceStart[Int(indexPieces[lo])] <= t else { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if pieceStart[Int(indexPieces[mid])] <= t { lo = mid } else { hi = mid - 1 }
        }
        return Int(indexPieces[lo])
    }

    // MARK: - Values

    /// The value of `key` at `t`, or nil before its first piece. `backwards`: the playhead
    /// moves backward (a reversed replay reading a recording).
    func value(_ key: PropertyKey, at t: Time, backwards: Bool = false, tables: TrackTables) -> Value? {
        piece(key, at: t).map { value(ofPiece: $0, at: t, backwards: backwards, tables: tables) }
    }

    /// Piece `p`'s value at `t`.
    func value(ofPiece p: Int, at t: Time, backwards: Bool = false, tables: TrackTables) -> Value {
        switch pieceKind[p] {
        case .constant:
            return values[Int(piecePayload[p])]
        case .write:
            return values[Int(piecePayload[p]) + (backwards && pieceStart[p] == t ? 1 : 0)]
        case .track:
            let (tr, clock) = track(ofPiece: p)
            // A track whose clock runs backward against the log's is seen the other way round.
            return tables.value(tr, at: clock(t), backwards: backwards != (clock.rate < 0)).value
        case .replay:
            let r = replays[Int(piecePayload[p])]
            return recordings[Int(r.recording)].value(rowKey[Int(pieceRow[p])], at: r.clock(t), backwards: r.clock.rate < 0,
                                                      tables: tables) ?? r.fallback
        }
    }

    /// Piece `p`'s value at `t` as numbers, when it is a number, time, angle, point or color.
    @inline(__always)
    func numericValue(ofPiece p: Int, at t: Time, tables: TrackTables) -> NumericValue? {
        if pieceKind[p] == .track {
            let (tr, clock) = track(ofPiece: p)
            return tables.value(tr, at: clock(t), backwards: clock.rate < 0)
        }
        return NumericValue(value(ofPiece: p, at: t, tables: tables))
    }

    /// The track of a track piece, with its clock map.
    func track(ofPiece p: Int) -> (Track, ClockMap) {
        let t = tracks[Int(piecePayload[p])]
        let from = NumericValue(t.fromLayout, in: pool, at: Int(t.data))
        let to = NumericValue(t.toLayout, in: pool, at: Int(t.data) + t.fromLayout.components)
        let tr = Track(instance: -1, key: rowKey[Int(pieceRow[p])], begin: t.begin, timing: t.timing, curve: t.curve,
                       from: from, to: to, ending: nil)
        return (tr, t.clock)
    }

    /// What piece `p` is, for exporters.
    func source(ofPiece p: Int, tables: TrackTables) -> Timeline.Source {
        switch pieceKind[p] {
        case .constant, .write:
            return .constant(values[Int(piecePayload[p])])
        case .track:
            let (tr, clock) = track(ofPiece: p)
            return .track(Timeline.TrackPiece(tr, clock: clock, tables: tables))
        case .replay:
            return .replay
        }
    }
}
