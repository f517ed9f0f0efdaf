// Sampler: plays a run's history frame by frame, as every renderer does — the HTML player, SVG,
// PNG frames and sheets, GIF/MP4 and Lottie all draw from StageFrames made by one (see
// `Timeline.frames(on:_:)`), and `anim bench` times the same loop. It reads the log as the
// interpreter wrote it: pieces in start order take their properties over as the frames reach
// them, so there is nothing to compile first. Only properties whose current piece moves are on
// a running list, so a frame costs time in proportion to what is running. Running plain tweens
// sit in lanes (one easing, one number of components), a row each, copied from their pieces
// when they start; a frame streams through each lane's rows in three tight passes. Everything
// else — other timings, springs, keyframes, paths, replays, times — is evaluated by the log
// itself, so it is `PropertyLog.value` by construction. The per-frame loop allocates nothing,
// retains nothing and dispatches nothing dynamically. Frames must increase; a Sampler is one
// pass's state, so sequences sampled in parallel each have their own (and one of a range of
// shapes, sampled beside other ranges, samples only that range's rows).

/// Samples every property of a run's history at the frames of a grid.
public final class Sampler {
    /// The frame grid.
    public let grid: FrameGrid
    /// The history sampled.
    public let history: RunHistory
    private let log: PropertyLog
    private let tables: TrackTables
    /// For each timing: its plain iteration in ticks (0: not plain), its easing, whether a
    /// spring's (copied from the tables, so an activation reads plain arrays).
    private let plainTicks: [Int64]
    private let timingEasing: [Int32]
    private let easings: [Easing]
    /// The last frame sampled (`.min` before the first).
    public private(set) var frame: Int64 = .min

    // MARK: Rows (one per property with pieces, as in the log)

    /// Each row's layout (`PropertyLog.mixed`: its values are kept as Values).
    private let layout: UnsafeMutablePointer<UInt8>
    /// Where each row's components sit in `output` (−1: a mixed row).
    private let outputOffset: UnsafeMutablePointer<Int32>
    /// How many Doubles the output holds.
    public let componentCount: Int
    private let output: UnsafeMutablePointer<Double>
    /// The values of mixed rows (and of any value that does not fit its row's layout).
    private var values: [Value?]
    /// Each row's current piece (−1: none yet).
    private let cursor: UnsafeMutablePointer<Int32>
    /// Where each row runs: its row in its lane (≥ 0), `-2 - i` at `general[i]`, or −1 at rest.
    private let slot: UnsafeMutablePointer<Int32>
    /// The lane of each row running in one.
    private let laneOfRow: UnsafeMutablePointer<Int32>

    // MARK: Running

    /// Rows running outside the lanes.
    private let general: UnsafeMutablePointer<Int32>
    private var generalCount = 0
    /// The lanes, and the lane of each (easing, components) pair (−1: none yet).
    private var lanes: [Lane] = []
    private var laneIndex: [Int32]
    /// The next piece to take its property over.
    private var nextPiece = 0
    /// The shapes whose rows are sampled (nil: every shape's). Pieces of other shapes' rows are
    /// passed over, so those rows keep no value: samplers of disjoint shape ranges share out a
    /// frame's work instead of each doing all of it.
    private let shapes: Range<Int>?

    /// How pieces were taken over (for tests and profiles).
    public enum Path: Hashable, Sendable, CaseIterable {
        /// A constant, written once.
        case constant
        /// A plain tween in a lane.
        case lane
        /// A tween the lanes cannot take (other timings, clocks, keyframes, paths, times).
        case timedTween
        /// A spring.
        case spring
        /// A replaying instance's recording.
        case replay
    }
    /// How many pieces took each path.
    public private(set) var pathCounts: [Path: Int] = [:]
    private var countsPaths = false

    /// The running plain tweens of one easing and one number of components.
    private struct Lane {
        let easing: Easing
        let components: Int
        var count = 0
        var capacity = 0
        var origin: UnsafeMutablePointer<Int64>
        var duration: UnsafeMutablePointer<Int64>
        var progress: UnsafeMutablePointer<Double>
        var target: UnsafeMutablePointer<Int32>
        var row: UnsafeMutablePointer<Int32>
        /// From (n), then to (n), row by row.
        var ends: UnsafeMutablePointer<Double>

        init(easing: Easing, components: Int) {
            self.easing = easing
            self.components = components
            origin = .allocate(capacity: 1); duration = .allocate(capacity: 1); progress = .allocate(capacity: 1)
            target = .allocate(capacity: 1); row = .allocate(capacity: 1); ends = .allocate(capacity: 2 * components)
        }

        /// Room for at least one more row.
        mutating func grow() {
            let c = max(16, capacity * 2)
            func moved<T>(_ p: UnsafeMutablePointer<T>, _ per: Int) -> UnsafeMutablePointer<T> {
                let q = UnsafeMutablePointer<T>.allocate(capacity: c * per)
                q.moveInitialize(from: p, count: count * per)
                p.deallocate()
                return q
            }
            origin = moved(origin, 1); duration = moved(duration, 1); progress = moved(progress, 1)
            target = moved(target, 1); row = moved(row, 1); ends = moved(ends, 2 * components)
            capacity = c
        }

        func free() {
            origin.deallocate(); duration.deallocate(); progress.deallocate()
            target.deallocate(); row.deallocate(); ends.deallocate()
        }
    }

    /// Largest clock anchor folded into a tween's origin without any risk of overflow.
    static let maxFoldedTicks: Int64 = 1 << 61

    /// A sampler of `history` on `grid`, before its first frame, of the rows of the shapes in
    /// `shapes` (indices; nil: every row). A row's value depends on its own pieces alone (a
    /// point's component rows belong to its shape), so those rows read as with every row.
    public init(history: RunHistory, grid: FrameGrid, shapes: Range<Int>? = nil) {
        self.grid = grid
        self.history = history
        self.shapes = shapes
        log = history.log
        tables = history.tables
        plainTicks = tables.plainTicks
        timingEasing = tables.timingEasing
        easings = tables.easings
        let n = log.propertyCount
        layout = .allocate(capacity: max(1, n))
        outputOffset = .allocate(capacity: max(1, n))
        var count = 0
        for r in 0..<n {
            let l = log.rows[r].layout
            layout[r] = l
            let key = log.rows[r].key
            if let c = key.property.componentIndex, let w = log.row(of: PropertyKey(key.shape, key.property.whole)), w < r,
               outputOffset[w] >= 0 {
                // A component of a split point writes its number into its point's row (the
                // point's row, made first, is composed of them then), so outputs read the point.
                outputOffset[r] = outputOffset[w] + Int32(c)
                continue
            }
            if let v = ValueLayout(rawValue: l) {
                outputOffset[r] = Int32(count)
                count += v.components
            } else {
                outputOffset[r] = -1
            }
        }
        componentCount = count
        output = .allocate(capacity: max(1, count))
        output.initialize(repeating: .nan, count: count)
        values = [Value?](repeating: nil, count: n)
        cursor = .allocate(capacity: max(1, n)); cursor.initialize(repeating: -1, count: n)
        slot = .allocate(capacity: max(1, n)); slot.initialize(repeating: -1, count: n)
        laneOfRow = .allocate(capacity: max(1, n)); laneOfRow.initialize(repeating: -1, count: n)
        general = .allocate(capacity: max(1, n))
        laneIndex = [Int32](repeating: -1, count: max(1, easings.count) * 3)
    }

    deinit {
        layout.deallocate(); outputOffset.deallocate(); output.deallocate(); cursor.deallocate()
        slot.deallocate(); laneOfRow.deallocate(); general.deallocate()
        for l in lanes { l.free() }
    }

    /// How many properties the history has pieces for (the rows).
    public var rowCount: Int { log.propertyCount }

    /// The property of row `q`.
    public func key(ofRow q: Int) -> PropertyKey { log.rows[q].key }

    /// The row of a property, if it has pieces.
    public func row(of key: PropertyKey) -> Int? { log.row(of: key) }

    /// How many properties are moving now.
    public var runningCount: Int { lanes.reduce(generalCount) { $0 + $1.count } }

    /// Counts the paths pieces take from now on (`pathCounts`).
    func countPaths() { countsPaths = true }

    /// Starts again from before the first frame.
    public func rewind() {
        output.update(repeating: .nan, count: componentCount)
        for q in values.indices { values[q] = nil }
        let n = log.propertyCount
        cursor.update(repeating: -1, count: n)
        slot.update(repeating: -1, count: n)
        laneOfRow.update(repeating: -1, count: n)
        for k in lanes.indices { lanes[k].count = 0 }
        generalCount = 0
        nextPiece = 0
        frame = .min
    }

    // MARK: - Sampling

    /// Brings every property up to date at frame `f` (later than the last frame sampled).
    public func sample(frame f: Int64) {
        precondition(f > frame, "a Sampler's frames must increase")
        frame = f
        let t = grid.time(ofFrame: f)
        // Pieces that have started take their properties over, in start order.
        let count = log.pieceCount
        while nextPiece < count && log.pieces[nextPiece].start <= t {
            if let shapes, !shapes.contains(Int(log.rows[Int(log.pieces[nextPiece].row)].key.shape.index)) {
                nextPiece += 1
                continue
            }
            start(piece: nextPiece, at: t)
            nextPiece += 1
        }
        for k in lanes.indices where lanes[k].count > 0 { sampleLane(k, at: t.ticks) }
        var i = 0
        while i < generalCount {
            let q = Int(general[i])
            if evaluate(q, at: t) { i += 1 } else { stop(q) }
        }
    }

    /// Samples the running tweens of lane `k` in three passes over its rows: the progress
    /// (TweenTiming.progress for one plain iteration at rate 1 is u ÷ d; see `start(piece:at:)`),
    /// the easing, chosen once for the lane, and NumericValue.interpolate (the target at e = 1,
    /// the start at e = 0, else a + (b − a)·e). Each pass is written without branches on the
    /// data, so rows stream through at the divider's pace.
    private func sampleLane(_ k: Int, at t: Int64) {
        let lane = lanes[k]
        let count = lane.count
        let origin = lane.origin, duration = lane.duration, progress = lane.progress, target = lane.target
        var landed = false
        for r in 0..<count {
            let u = t &- origin[r], d = duration[r]
            let x = Double(u) / Double(d)
            landed = landed || u >= d
            progress[r] = u >= d ? 1 : (u < 0 ? 0 : x)
        }
        lane.easing.ease(progress, count: count)
        let v = lane.ends
        @inline(__always) func mix(_ a: Double, _ b: Double, _ e: Double) -> Double {
            let x = a + (b - a) * e
            return e == 1 ? b : (e == 0 ? a : x)
        }
        switch lane.components {
        case 2:
            for r in 0..<count {
                let e = progress[r], out = output + Int(target[r]), w = v + 4 * r
                out[0] = mix(w[0], w[2], e)
                out[1] = mix(w[1], w[3], e)
            }
        case 1:
            for r in 0..<count {
                let e = progress[r], w = v + 2 * r
                output[Int(target[r])] = mix(w[0], w[1], e)
            }
        default:
            let n = lane.components
            for r in 0..<count {
                let e = progress[r], out = output + Int(target[r]), w = v + 2 * n * r
                for c in 0..<n { out[c] = mix(w[c], w[n + c], e) }
            }
        }
        // Tweens that have landed rest on their targets until their properties' next pieces.
        guard landed else { return }
        var r = 0
        while r < lanes[k].count {
            if t &- lanes[k].origin[r] >= lanes[k].duration[r] { stop(Int(lanes[k].row[r])) } else { r += 1 }
        }
    }

    /// Piece `p` takes its property over at `t`.
    private func start(piece p: Int, at t: Time) {
        let piece = log.pieces[p]
        let q = Int(piece.row)
        stop(q)
        cursor[q] = Int32(p)
        switch piece.kind {
        case .constant, .write:
            note(.constant)
            write(q, log.value(ofPiece: p, at: t, tables: tables))
        case .track:
            let tr = log.tracks[Int(piece.payload)]
            if let lane = laneFor(tr, row: q, start: piece.start) {
                note(.lane)
                addRow(q, lane: lane, track: tr)
            } else {
                note(timingEasing[Int(tr.timing)] < 0 ? .spring : .timedTween)
                run(q)
            }
        case .replay:
            note(.replay)
            run(q)
        case .composed, .idle:
            // The point's component rows write its value; an ended component row writes nothing.
            note(.constant)
        }
    }

    @inline(__always)
    private func note(_ path: Path) {
        if countsPaths { pathCounts[path, default: 0] += 1 }
    }

    /// The lane a track piece starting at `start` runs in, if it can: one plain iteration
    /// (`TrackTables.plainTicks`), straight, numbers of its row's layout but not times, on a
    /// clock at rate 1 with anchors far from overflow. Then u = clock(t) − begin
    /// = (local + (t − global)) − begin = t − origin with origin = global − local + begin. The
    /// piece must also start at or after the origin: a lane has no before phase, where a step
    /// easing would see the before flag.
    private func laneFor(_ tr: PropertyLog.LoggedTrack, row q: Int, start: Time) -> Int? {
        let d = plainTicks[Int(tr.timing)]
        guard d > 0, tr.curve == .straight, tr.clock.rate == 1, tr.fromLayout == tr.toLayout, tr.fromLayout != .time,
              layout[q] == tr.fromLayout.rawValue else { return nil }
        let limit = UInt64(Sampler.maxFoldedTicks)
        guard tr.clock.global.ticks.magnitude < limit, tr.clock.local.ticks.magnitude < limit, tr.begin.ticks.magnitude < limit,
              start.ticks >= tr.clock.global.ticks - tr.clock.local.ticks + tr.begin.ticks else { return nil }
        let n = tr.fromLayout.components
        let e = Int(timingEasing[Int(tr.timing)])
        let key = e * 3 + (n == 1 ? 0 : n == 2 ? 1 : 2)
        if laneIndex[key] < 0 {
            laneIndex[key] = Int32(lanes.count)
            lanes.append(Lane(easing: easings[e], components: n))
        }
        return Int(laneIndex[key])
    }

    /// Puts row `q` in lane `k` with a tween's timing and endpoints.
    private func addRow(_ q: Int, lane k: Int, track tr: PropertyLog.LoggedTrack) {
        if lanes[k].count == lanes[k].capacity { lanes[k].grow() }
        let lane = lanes[k], r = lane.count, n = lane.components
        lane.origin[r] = tr.clock.global.ticks - tr.clock.local.ticks + tr.begin.ticks
        lane.duration[r] = plainTicks[Int(tr.timing)]
        lane.target[r] = outputOffset[q]
        lane.row[r] = Int32(q)
        log.pool.withUnsafeBufferPointer { pool in
            (lane.ends + 2 * n * r).update(from: pool.baseAddress! + Int(tr.data), count: 2 * n)
        }
        lanes[k].count += 1
        slot[q] = Int32(r)
        laneOfRow[q] = Int32(k)
    }

    /// Puts row `q` on the general running list.
    private func run(_ q: Int) {
        general[generalCount] = Int32(q)
        slot[q] = Int32(-2 - generalCount)
        generalCount += 1
    }

    /// Takes row `q` off the running lists (the last row of its list moves into its place).
    private func stop(_ q: Int) {
        let s = Int(slot[q])
        if s >= 0 {
            let k = Int(laneOfRow[q])
            lanes[k].count -= 1
            let lane = lanes[k], last = lane.count, n = lane.components
            if s != last {
                lane.origin[s] = lane.origin[last]
                lane.duration[s] = lane.duration[last]
                lane.target[s] = lane.target[last]
                lane.row[s] = lane.row[last]
                (lane.ends + 2 * n * s).update(from: lane.ends + 2 * n * last, count: 2 * n)
                slot[Int(lane.row[s])] = Int32(s)
            }
        } else if s <= -2 {
            let g = -2 - s
            generalCount -= 1
            let moved = general[generalCount]
            general[g] = moved
            slot[Int(moved)] = Int32(-2 - g)
        }
        slot[q] = -1
    }

    /// Writes row `q`'s value.
    @inline(__always)
    private func write(_ q: Int, _ v: Value) {
        if outputOffset[q] >= 0, let n = NumericValue(v), n.layout.rawValue == layout[q] {
            n.store(at: output + Int(outputOffset[q]))
            if values[q] != nil { values[q] = nil }
        } else {
            values[q] = v
        }
    }

    /// Writes row `q` (on the general list) at `t`; false if it has come to rest: its clock is
    /// stopped, or runs forward past the end of its track, so its last value holds.
    private func evaluate(_ q: Int, at t: Time) -> Bool {
        let p = Int(cursor[q])
        if log.pieces[p].kind == .track, outputOffset[q] >= 0 {
            let (tr, clock) = log.track(ofPiece: p)
            // A morph's numbers are its progress, not the value: the log gives the value.
            guard tr.curve.isNumeric else { write(q, log.value(ofPiece: p, at: t, tables: tables)); return true }
            let local = clock(t)
            var v = tables.value(tr, at: local, backwards: clock.rate < 0)
            let c = log.tracks[Int(log.pieces[p].payload)].component
            if c >= 0 { v = NumericValue(.number(v.arithmetic(Int(c))))! }
            if v.layout.rawValue == layout[q] {
                v.store(at: output + Int(outputOffset[q]))
                if values[q] != nil { values[q] = nil }
            } else {
                values[q] = v.value
            }
            if clock.rate == 0 { return false }
            guard clock.rate > 0 else { return true }
            switch tables.timings[Int(tr.timing)] {
            case .spring(let d): return local - tr.begin < d
            case .tween(let timing, _): return timing.activeDuration.map { local - tr.begin < $0 } ?? true
            }
        }
        write(q, log.value(ofPiece: p, at: t, tables: tables))
        return true
    }

    // MARK: - Reading

    /// Row `q`'s value at the last frame sampled (nil before its first piece).
    public func value(ofRow q: Int) -> Value? {
        guard cursor[q] >= 0 else { return nil }
        if let v = values[q] { return v }
        guard let l = ValueLayout(rawValue: layout[q]) else { return nil }
        return NumericValue(l, at: output + Int(outputOffset[q])).value
    }

    /// Row `q`'s value at the last frame sampled as numbers (nil before its first piece, or
    /// when it is not a number, time, angle, point or color).
    @inline(__always)
    public func numericValue(ofRow q: Int) -> NumericValue? {
        guard cursor[q] >= 0 else { return nil }
        if let v = values[q] { return NumericValue(v) }
        guard let l = ValueLayout(rawValue: layout[q]) else { return nil }
        return NumericValue(l, at: output + Int(outputOffset[q]))
    }

    /// Whether row `q` has a value yet.
    @inline(__always)
    public func hasValue(ofRow q: Int) -> Bool { cursor[q] >= 0 }

    /// The sum of every component of every numeric property now (times in seconds): the
    /// checksum `anim bench` prints. For W(N, K) it is Σ (x + y) over the shapes' centers.
    public var checksum: Double {
        var sum = 0.0
        for q in 0..<log.propertyCount where !log.rows[q].key.property.isComponent {
            guard let v = numericValue(ofRow: q) else { continue }
            for c in 0..<v.layout.components { sum += v.arithmetic(c) }
        }
        return sum
    }
}
