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
        /// A point whose components are written apart (`sq.center.x`): its value is made of its
        /// component rows' values, `values[payload]` where a component has none.
        case composed
        /// A component row of a point no longer split: nothing (its point's row shows it).
        case idle
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
        /// A point track seen through one of its components (0: x, 1: y), for a component row
        /// of a split point; −1: the track's value itself.
        var component: Int8 = -1

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

    /// One piece: when it starts, whose it is, and what gives its value.
    struct Piece: Sendable {
        /// In the log's time base.
        var start: Time
        /// The property's row.
        var row: Int32
        var kind: Kind
        /// Where its value comes from, in the table of its kind.
        var payload: Int32
    }

    /// One property.
    struct Row: Sendable {
        var key: PropertyKey
        /// Its last piece added.
        var last: Int32
        /// The raw value of the ValueLayout all its values share, or `PropertyLog.mixed` when
        /// they do not all share one (strings, say).
        var layout: UInt8
    }

    /// The pieces, in the order added.
    private(set) var pieces: [Piece] = []
    /// The properties, in the order first written.
    private(set) var rows: [Row] = []
    /// The rows by key, once there are more than `rowsSearchedInOrder` of them (then it
    /// holds every row). A log of a few rows — a named step's recording, of a tween or two —
    /// finds a row by comparing the keys in order instead, and never makes the map (its table
    /// cost 1.6 M instructions for 450 recordings of lsp-5000; callgrind).
    private var rowOf = KeyMap<Int32>()
    /// Up to how many rows a look-up compares the keys in order.
    static let rowsSearchedInOrder = 8

    /// The row of a property, if it has pieces.
    @inline(__always)
    private func rowIndex(_ key: PropertyKey) -> Int32? {
        if rows.count <= PropertyLog.rowsSearchedInOrder {
            for r in rows.indices where rows[r].key == key { return Int32(r) }
            return nil
        }
        return rowOf[key]
    }

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
    public var pieceCount: Int { pieces.count }
    /// How many properties have pieces.
    public var propertyCount: Int { rows.count }
    /// The properties with pieces, in the order first written.
    public var keys: [PropertyKey] { rows.map(\.key) }
    /// Whether `index()` is up to date.
    var isIndexed: Bool { indexed == pieces.count && indexStart.count == rows.count + 1 }

    /// A row whose values are not all numbers of one layout.
    static let mixed: UInt8 = 0xFF

    /// The row of a property, if it has pieces.
    @inline(__always)
    func row(of key: PropertyKey) -> Int? { rowIndex(key).map(Int.init) }

    /// When the last piece added starts (`.min` in an empty log).
    var lastStart: Time { pieces.last?.start ?? Time(ticks: .min) }

    /// The clock of a property's last piece when it is a track's.
    @inline(__always)
    func lastTrackClock(of key: PropertyKey) -> ClockMap? {
        guard let r = rowIndex(key) else { return nil }
        let p = pieces[Int(rows[Int(r)].last)]
        return p.kind == .track ? tracks[Int(p.payload)].clock : nil
    }

    // MARK: - Adding

    /// Makes room for a first few entries when an array gets its first one. Most logs are a
    /// named step's recording of a tween or two — a few pieces, rows and values — which grown
    /// one append at a time reallocated each array two or three times (callgrind, lsp-5000:
    /// 2.1 M instructions of growForAppend for 450 recordings).
    @inline(__always)
    private static func firstRoom<T>(_ a: inout [T], _ n: Int) {
        if a.capacity == 0 { a.reserveCapacity(n) }
    }

    /// Adds a constant piece.
    mutating func addConstant(_ key: PropertyKey, at start: Time, _ v: Value) {
        PropertyLog.firstRoom(&values, 4)
        let p = place(key, start, layout: ValueLayout(of: v))
        pieces[p].kind = .constant
        pieces[p].payload = Int32(values.count)
        values.append(v)
    }

    /// Adds a `set` of a recording: `to` from its instant, `from` just before it (backward).
    mutating func addWrite(_ key: PropertyKey, at start: Time, from: Value, to: Value) {
        PropertyLog.firstRoom(&values, 4)
        let p = place(key, start, layout: ValueLayout(of: to))
        note(layout: ValueLayout(of: from), row: Int(pieces[p].row))
        pieces[p].kind = .write
        pieces[p].payload = Int32(values.count)
        values.append(to)
        values.append(from)
    }

    /// Adds a track seen through `clock` (log time → the track's local time); `component` ≥ 0:
    /// a point track seen through that component, in a component's row.
    mutating func addTrack(_ key: PropertyKey, at start: Time, _ tr: Track, clock: ClockMap, component: Int8 = -1) {
        PropertyLog.firstRoom(&tracks, 4)
        PropertyLog.firstRoom(&pool, 16)
        let p = place(key, start, layout: component >= 0 ? .number : tr.from.layout)
        if component < 0, tr.to.layout != tr.from.layout { note(layout: tr.to.layout, row: Int(pieces[p].row)) }
        pieces[p].kind = .track
        pieces[p].payload = Int32(tracks.count)
        tracks.append(LoggedTrack(clock: clock, begin: tr.begin, timing: tr.timing, curve: tr.curve, fromLayout: tr.from.layout,
                                  toLayout: tr.to.layout, data: Int32(pool.count), component: component))
        tr.from.append(to: &pool)
        tr.to.append(to: &pool)
    }

    /// Adds a piece showing `recordings[recording]` through `clock` (log time → its time).
    mutating func addReplay(_ key: PropertyKey, at start: Time, recording: Int32, fallback: Value, clock: ClockMap) {
        let p = place(key, start, layout: ValueLayout(of: fallback))
        pieces[p].kind = .replay
        pieces[p].payload = Int32(replays.count)
        replays.append(LoggedReplay(clock: clock, recording: recording, fallback: fallback))
    }

    /// Adds a composed piece: the point is its component rows' values from `start` on
    /// (`fallback` where a component row has none).
    mutating func addComposed(_ key: PropertyKey, at start: Time, fallback: Value) {
        let p = place(key, start, layout: ValueLayout(of: fallback))
        pieces[p].kind = .composed
        pieces[p].payload = Int32(values.count)
        values.append(fallback)
    }

    /// Ends a component row (when it has pieces and its last is not already an end).
    mutating func addIdle(_ key: PropertyKey, at start: Time) {
        guard let r = rowIndex(key), pieces[Int(rows[Int(r)].last)].kind != .idle else { return }
        let p = place(key, start, layout: .number)
        pieces[p].kind = .idle
        pieces[p].payload = -1
    }

    /// Keeps a recording for replay pieces to show; returns its index.
    mutating func keep(recording log: PropertyLog) -> Int32 {
        recordings.append(log)
        return Int32(recordings.count - 1)
    }

    /// The piece a new piece of `key` starting at `start` goes in: a new one, or the property's
    /// last one when it starts at the same instant (what it held is dropped).
    private mutating func place(_ key: PropertyKey, _ start: Time, layout: ValueLayout?) -> Int {
        PropertyLog.firstRoom(&pieces, 8)
        PropertyLog.firstRoom(&rows, 4)
        let r: Int
        if let x = rowIndex(key) {
            r = Int(x)
            note(layout: layout, row: r)
            let last = Int(rows[r].last)
            if pieces[last].start == start {
                drop(payloadOf: last)
                return last
            }
        } else {
            r = rows.count
            rows.append(Row(key: key, last: -1, layout: layout?.rawValue ?? PropertyLog.mixed))
            if rows.count > PropertyLog.rowsSearchedInOrder {
                // Past the search in order: the map holds every row (made now, the first time).
                if rowOf.isEmpty { for k in rows.indices { rowOf[rows[k].key] = Int32(k) } } else { rowOf[key] = Int32(r) }
            }
        }
        let p = pieces.count
        pieces.append(Piece(start: start, row: Int32(r), kind: .constant, payload: -1))
        rows[r].last = Int32(p)
        return p
    }

    /// Notes a value's layout in a row's.
    @inline(__always)
    private mutating func note(layout: ValueLayout?, row r: Int) {
        let l = layout?.rawValue ?? PropertyLog.mixed
        if rows[r].layout != l { rows[r].layout = PropertyLog.mixed }
    }

    /// Frees what piece `p` held, if it is the last of its table (a piece replaced at once).
    private mutating func drop(payloadOf p: Int) {
        let x = Int(pieces[p].payload)
        switch pieces[p].kind {
        case .constant, .composed:
            if x == values.count - 1 { values.removeLast() }
        case .idle:
            break
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
        let rowCount = rows.count, n = pieces.count
        var start = [Int32](repeating: 0, count: rowCount + 1)
        for p in pieces { start[Int(p.row) + 1] += 1 }
        for r in 0..<rowCount { start[r + 1] += start[r] }
        var next = start
        var order = [Int32](repeating: 0, count: n)
        for p in 0..<n {
            let r = Int(pieces[p].row)
            order[Int(next[r])] = Int32(p)
            next[r] += 1
        }
        for r in 0..<rowCount {
            let lo = Int(start[r]), hi = Int(start[r + 1])
            var sorted = true
            var k = lo + 1
            while k < hi { if pieces[Int(order[k])].start < pieces[Int(order[k - 1])].start { sorted = false; break }; k += 1 }
            if !sorted {
                // Later pieces win ties, as a later write does.
                order[lo..<hi].sort { a, b in
                    pieces[Int(a)].start != pieces[Int(b)].start ? pieces[Int(a)].start < pieces[Int(b)].start : a < b
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
        guard let r = rowIndex(key) else { return nil }
        precondition(isIndexed, "PropertyLog.index() must run before lookups")
        var lo = Int(indexStart[Int(r)]), hi = Int(indexStart[Int(r) + 1]) - 1
        guard lo <= hi, pieces[Int(indexPieces[lo])].start <= t else { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if pieces[Int(indexPieces[mid])].start <= t { lo = mid } else { hi = mid - 1 }
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
        let piece = pieces[p]
        switch piece.kind {
        case .constant:
            return values[Int(piece.payload)]
        case .write:
            return values[Int(piece.payload) + (backwards && piece.start == t ? 1 : 0)]
        case .track:
            let (tr, clock) = track(ofPiece: p)
            // A track whose clock runs backward against the log's is seen the other way round.
            let c = tracks[Int(piece.payload)].component
            if c >= 0 { return .number(tables.value(tr, at: clock(t), backwards: backwards != (clock.rate < 0)).arithmetic(Int(c))) }
            return tables.propertyValue(tr, at: clock(t), backwards: backwards != (clock.rate < 0))
        case .replay:
            let r = replays[Int(piece.payload)]
            let key = rows[Int(piece.row)].key
            let u = r.clock(t)
            if let v = recordings[Int(r.recording)].value(key, at: u, backwards: r.clock.rate < 0, tables: tables) { return v }
            if let c = key.property.componentIndex,
               case .point(let pt)? = recordings[Int(r.recording)].value(PropertyKey(key.shape, key.property.whole), at: u,
                                                                         backwards: r.clock.rate < 0, tables: tables) {
                // A component row showing a replay of its whole point.
                return .number(c == 0 ? pt.x : pt.y)
            }
            return r.fallback
        case .composed:
            guard case .point(var pt) = values[Int(piece.payload)] else { return values[Int(piece.payload)] }
            let key = rows[Int(piece.row)].key
            for c in 0..<2 {
                guard case .number(let x)? = value(PropertyKey(key.shape, key.property.component(c)), at: t, backwards: backwards,
                                                   tables: tables) else { continue }
                if c == 0 { pt.x = x } else { pt.y = x }
            }
            return .point(pt)
        case .idle:
            return .number(0)
        }
    }

    /// Piece `p`'s value at `t` as numbers, when it is a number, time, angle, point or color.
    @inline(__always)
    func numericValue(ofPiece p: Int, at t: Time, tables: TrackTables) -> NumericValue? {
        if pieces[p].kind == .track {
            let (tr, clock) = track(ofPiece: p)
            if case .morph = tr.curve { return nil }
            let c = tracks[Int(pieces[p].payload)].component
            if c >= 0 { return NumericValue(.number(tables.value(tr, at: clock(t), backwards: clock.rate < 0).arithmetic(Int(c)))) }
            return tables.value(tr, at: clock(t), backwards: clock.rate < 0)
        }
        return NumericValue(value(ofPiece: p, at: t, tables: tables))
    }

    /// The track of a track piece, with its clock map.
    func track(ofPiece p: Int) -> (Track, ClockMap) {
        let t = tracks[Int(pieces[p].payload)]
        let from = NumericValue(t.fromLayout, in: pool, at: Int(t.data))
        let to = NumericValue(t.toLayout, in: pool, at: Int(t.data) + t.fromLayout.components)
        let tr = Track(instance: -1, key: rows[Int(pieces[p].row)].key, begin: t.begin, timing: t.timing, curve: t.curve,
                       from: from, to: to, ending: nil)
        return (tr, t.clock)
    }

    /// What piece `p` is, for exporters.
    func source(ofPiece p: Int, tables: TrackTables) -> Timeline.Source {
        switch pieces[p].kind {
        case .constant, .write:
            return .constant(values[Int(pieces[p].payload)])
        case .track:
            let (tr, clock) = track(ofPiece: p)
            return .track(Timeline.TrackPiece(tr, clock: clock, tables: tables))
        case .replay, .composed, .idle:
            // Sampled: a replay, or a point made of its components.
            return .replay
        }
    }
}
