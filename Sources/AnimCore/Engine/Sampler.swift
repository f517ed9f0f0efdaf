// Sampler: plays compiled SampleTables frame by frame, as a renderer does. Each property has a
// cursor on its segment table; pieces take their properties over in start-time order. Only
// properties whose current piece moves are on a running list, so a frame costs time in
// proportion to what is running. Running fast tweens sit in lanes (one easing, one number of
// components), a row each, copied from their pieces when they start; a frame streams through
// each lane's rows in three tight passes. The per-frame loop touches raw columns only: no
// allocation, no reference counting, no dynamic dispatch. Frames must increase.

/// A fixed-size column of a table, in memory the Sampler owns and frees.
struct Column<Element> {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    /// A column holding a copy of `values`.
    init(_ values: [Element]) {
        count = values.count
        base = .allocate(capacity: max(1, count))
        _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: values)
    }

    /// A column of `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        self.count = count
        base = .allocate(capacity: max(1, count))
        base.initialize(repeating: value, count: count)
    }

    @inline(__always)
    subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    /// Sets every element to `value`.
    func fill(_ value: Element) { base.update(repeating: value, count: count) }

    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }
}

/// Samples every animated property of a finished run at the frames of a grid.
public final class Sampler {
    /// The frame grid.
    public let grid: FrameGrid
    /// The frames it can sample.
    public let frames: ClosedRange<Int64>
    /// The history key of each sampled property, ascending.
    public let keys: [PropertyKey]
    /// The layout of each sampled property.
    public let layouts: [ValueLayout]
    /// How many pieces the tables hold.
    public let pieceCount: Int
    /// How many Doubles one frame brings up to date: the components of every sampled property.
    public let componentCount: Int

    // MARK: Tables (read-only while sampling; see SampleTables)

    private let outputOffset: Column<Int32>
    private let components: Column<Int32>
    private let pieceProperty: Column<Int32>
    private let pieceKind: Column<PieceKind>
    private let pieceData: Column<Int32>
    private let pieceOrigin: Column<Int64>
    private let pieceDuration: Column<Int64>
    private let pieceEasing: Column<Int32>
    private let pieceExtra: Column<Int32>
    private let pool: Column<Double>
    private let easings: Column<Easing>
    private let timedTweens: Column<TimedTween>
    private let springs: Column<SpringPiece>
    private let springMotions: Column<SpringMotion>
    private let activationStart: Column<Int64>
    private let activationPiece: Column<Int32>

    // MARK: State

    /// Each property's components now (NaN until its first piece starts).
    private let output: Column<Double>
    /// Each property's current piece (-1 before its first).
    private let cursor: Column<Int32>
    /// Where each property runs: ≥ 0 a lane row, ≤ −2 the general list at −2 − slot, −1 nowhere.
    private let slot: Column<Int32>
    /// The lane of each property's running fast tween.
    private let laneOfProperty: Column<Int32>
    /// Lanes: lane k holds rows laneBase[k] ..< laneBase[k] + laneCount[k], all eased by
    /// easings[laneEasing[k]], with laneComponents[k] components; its rows' values start at
    /// rowValues[laneValueBase[k]].
    private let laneEasing: Column<Int32>
    private let laneComponents: Column<Int32>
    private let laneBase: Column<Int>
    private let laneValueBase: Column<Int>
    private let laneCount: Column<Int>
    /// Rows: the tick where u = 0, the duration, the progress (scratch), where the value goes,
    /// whose it is, and from then to (2n Doubles per row, in row order within the lane).
    private let rowOrigin: Column<Int64>
    private let rowDuration: Column<Int64>
    private let rowProgress: Column<Double>
    private let rowOutput: Column<Int32>
    private let rowProperty: Column<Int32>
    private let rowValues: Column<Double>
    /// The properties whose running piece is of another kind (timed tween, spring, baked).
    private let general: Column<Int32>
    private var generalCount = 0
    /// The next piece to take its property over.
    private var nextActivation = 0
    /// The last frame sampled.
    public private(set) var frame: Int64 = .min

    /// Compiles a finished run's history for the frames `frames` of `grid`.
    public convenience init(history: PropertyHistory, grid: FrameGrid, frames: ClosedRange<Int64>) {
        self.init(tables: SampleTables(history: history, grid: grid, frames: frames))
    }

    init(tables t: SampleTables) {
        grid = t.grid
        frames = t.frames
        keys = t.keys
        layouts = t.layouts
        pieceCount = t.pieceKind.count
        componentCount = t.outputCount
        outputOffset = Column(t.outputOffset)
        components = Column(t.layouts.map { Int32($0.components) })
        pieceProperty = Column(t.pieceProperty)
        pieceKind = Column(t.pieceKind)
        pieceData = Column(t.pieceData)
        pieceOrigin = Column(t.pieceOrigin)
        pieceDuration = Column(t.pieceDuration)
        pieceEasing = Column(t.pieceEasing)
        pieceExtra = Column(t.pieceExtra)
        pool = Column(t.pool)
        easings = Column(t.easings)
        timedTweens = Column(t.timedTweens)
        springs = Column(t.springs)
        springMotions = Column(t.springMotions)
        activationStart = Column(t.activationStart)
        activationPiece = Column(t.activationPiece)

        let n = t.keys.count
        output = Column(repeating: .nan, count: t.outputCount)
        cursor = Column(repeating: -1, count: n)
        slot = Column(repeating: -1, count: n)
        laneOfProperty = Column(repeating: -1, count: n)
        general = Column(repeating: 0, count: n)
        var bases: [Int] = [], valueBases: [Int] = []
        var rows = 0, values = 0
        for (k, c) in t.laneCapacity.enumerated() {
            bases.append(rows)
            valueBases.append(values)
            rows += Int(c)
            values += 2 * Int(t.laneComponents[k]) * Int(c)
        }
        laneEasing = Column(t.laneEasing)
        laneComponents = Column(t.laneComponents)
        laneBase = Column(bases)
        laneValueBase = Column(valueBases)
        laneCount = Column(repeating: 0, count: bases.count)
        rowOrigin = Column(repeating: 0, count: rows)
        rowDuration = Column(repeating: 0, count: rows)
        rowProgress = Column(repeating: 0, count: rows)
        rowOutput = Column(repeating: 0, count: rows)
        rowProperty = Column(repeating: 0, count: rows)
        rowValues = Column(repeating: 0, count: values)
    }

    deinit {
        outputOffset.free(); components.free(); pieceProperty.free(); pieceKind.free(); pieceData.free()
        pieceOrigin.free(); pieceDuration.free(); pieceEasing.free(); pieceExtra.free(); pool.free()
        easings.free(); timedTweens.free(); springs.free(); springMotions.free(); activationStart.free()
        activationPiece.free(); output.free(); cursor.free(); slot.free(); laneOfProperty.free()
        laneEasing.free(); laneComponents.free(); laneBase.free(); laneValueBase.free(); laneCount.free(); rowOrigin.free()
        rowDuration.free(); rowProgress.free(); rowOutput.free(); rowProperty.free(); rowValues.free()
        general.free()
    }

    // MARK: - Sampling

    /// How many properties are moving now.
    public var runningCount: Int {
        var n = generalCount
        for k in 0..<laneCount.count { n += laneCount[k] }
        return n
    }

    /// Starts again from before the first frame (the tables stay).
    public func rewind() {
        output.fill(.nan)
        cursor.fill(-1)
        slot.fill(-1)
        laneOfProperty.fill(-1)
        laneCount.fill(0)
        generalCount = 0
        nextActivation = 0
        frame = .min
    }

    /// Brings every property up to date at frame `f` (later than the last frame sampled).
    public func sample(frame f: Int64) {
        frame = f
        let t = grid.time(ofFrame: f).ticks
        // Pieces that have started take their properties over, in start order.
        while nextActivation < activationStart.count && activationStart[nextActivation] <= t {
            start(piece: Int(activationPiece[nextActivation]))
            nextActivation += 1
        }
        for k in 0..<laneCount.count where laneCount[k] > 0 { sampleLane(k, at: t) }
        var i = 0
        while i < generalCount {
            let q = Int(general[i])
            if evaluate(q, at: t, frame: f) { i += 1 } else { stop(q) }
        }
    }

    /// Samples the running tweens of lane `k` in three passes over its rows: the progress
    /// (TweenTiming.progress for one plain iteration at rate 1 is u ÷ d; see
    /// SampleTables.fastOrigin), the easing, chosen once for the lane, and Value.interpolate
    /// (the target at e = 1, the start at e = 0, else a + (b − a)·e). Each pass is written
    /// without branches on the data, so rows stream through at the divider's pace.
    private func sampleLane(_ k: Int, at t: Int64) {
        let base = laneBase[k], count = laneCount[k]
        let origin = rowOrigin.base + base, duration = rowDuration.base + base
        let progress = rowProgress.base + base, target = rowOutput.base + base
        let n = Int(laneComponents[k])
        var landed = false
        for r in 0..<count {
            let u = t &- origin[r], d = duration[r]
            let x = Double(u) / Double(d)
            landed = landed || u >= d
            progress[r] = u >= d ? 1 : (u < 0 ? 0 : x)
        }
        easings[Int(laneEasing[k])].ease(progress, count: count)
        let v = rowValues.base + laneValueBase[k]  // from (n), then to (n), row by row
        @inline(__always) func lerp(_ a: Double, _ b: Double, _ e: Double) -> Double {
            let x = a + (b - a) * e
            return e == 1 ? b : (e == 0 ? a : x)
        }
        switch n {
        case 2:
            for r in 0..<count {
                let e = progress[r], out = output.base + Int(target[r]), w = v + 4 * r
                out[0] = lerp(w[0], w[2], e)
                out[1] = lerp(w[1], w[3], e)
            }
        case 1:
            for r in 0..<count {
                let e = progress[r], w = v + 2 * r
                output[Int(target[r])] = lerp(w[0], w[1], e)
            }
        default:
            for r in 0..<count {
                let e = progress[r], out = output.base + Int(target[r]), w = v + 2 * n * r
                for c in 0..<n { out[c] = lerp(w[c], w[n + c], e) }
            }
        }
        // Tweens that have landed rest on their targets until their properties' next pieces.
        guard landed else { return }
        var r = base
        while r < base + laneCount[k] {
            if t &- rowOrigin[r] >= rowDuration[r] { stop(Int(rowProperty[r])) } else { r += 1 }
        }
    }

    /// Piece `p` takes its property over.
    private func start(piece p: Int) {
        let q = Int(pieceProperty[p])
        cursor[q] = Int32(p)
        stop(q)
        let data = pool.base + Int(pieceData[p])
        switch pieceKind[p] {
        case .constant:
            let out = output.base + Int(outputOffset[q])
            for c in 0..<Int(components[q]) { out[c] = data[c] }
        case .tween:
            let k = Int(pieceExtra[p]), n = Int(laneComponents[k])
            let r = laneBase[k] + laneCount[k]
            laneCount[k] += 1
            rowOrigin[r] = pieceOrigin[p]
            rowDuration[r] = pieceDuration[p]
            rowOutput[r] = outputOffset[q]
            rowProperty[r] = Int32(q)
            values(row: r, lane: k, n: n).update(from: data, count: 2 * n)
            slot[q] = Int32(r)
            laneOfProperty[q] = Int32(k)
        case .timedTween, .spring, .baked:
            general[generalCount] = Int32(q)
            slot[q] = Int32(-2 - generalCount)
            generalCount += 1
        }
    }

    /// Where row `r` of lane `k` keeps its from and to.
    @inline(__always)
    private func values(row r: Int, lane k: Int, n: Int) -> UnsafeMutablePointer<Double> {
        rowValues.base + laneValueBase[k] + 2 * n * (r - laneBase[k])
    }

    /// Takes property `q` off the running lists (the last row of its list moves into its place).
    private func stop(_ q: Int) {
        let s = Int(slot[q])
        if s >= 0 {
            let k = Int(laneOfProperty[q]), n = Int(laneComponents[k])
            laneCount[k] -= 1
            let last = laneBase[k] + laneCount[k]
            if s != last {
                rowOrigin[s] = rowOrigin[last]
                rowDuration[s] = rowDuration[last]
                rowOutput[s] = rowOutput[last]
                rowProperty[s] = rowProperty[last]
                values(row: s, lane: k, n: n).update(from: values(row: last, lane: k, n: n), count: 2 * n)
                slot[Int(rowProperty[s])] = Int32(s)
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

    /// Writes property `q` (timed tween, spring or baked) at tick `t`, frame `f`; false if it
    /// has come to rest (its last value written).
    @inline(__always)
    private func evaluate(_ q: Int, at t: Int64, frame f: Int64) -> Bool {
        let p = Int(cursor[q])
        let out = output.base + Int(outputOffset[q])
        let data = pool.base + Int(pieceData[p])
        let n = Int(components[q])
        switch pieceKind[p] {
        case .timedTween:
            // TrackMotion.value: the timing model at the instance's local time, then the easing
            // with the before flag of the tween's phase.
            let tt = timedTweens[Int(pieceExtra[p])]
            let e = tt.timing.transformedProgress(at: tt.clock(Time(ticks: t)) - tt.begin, easing: easings[Int(pieceEasing[p])])
            if e == 1 {
                for c in 0..<n { out[c] = data[n + c] }
            } else if e == 0 {
                for c in 0..<n { out[c] = data[c] }
            } else {
                for c in 0..<n { out[c] = data[c] + (data[n + c] - data[c]) * e }
            }
            return true
        case .spring:
            let s = springs[Int(pieceExtra[p])]
            let u = s.clock(Time(ticks: t)) - s.begin
            // At rest once settled, unless its clock runs backward and brings it back to life.
            if u >= s.duration { for c in 0..<n { out[c] = data[c] }; return s.clock.rate < 0 }
            let seconds = max(0, u.seconds)
            for c in 0..<n { out[c] = springMotions[Int(s.firstMotion) + c].position(at: seconds) }
            return true
        case .baked:
            let k = min(max(0, f - pieceOrigin[p]), frames.upperBound - pieceOrigin[p])
            let src = data + Int(k) * n
            for c in 0..<n { out[c] = src[c] }
            return true
        case .constant, .tween:
            return false
        }
    }

    // MARK: - Reading

    /// Property `q`'s value at the last frame sampled (nil before its first piece).
    public func value(ofProperty q: Int) -> Value? {
        guard cursor[q] >= 0 else { return nil }
        return layouts[q].value(output.base + Int(outputOffset[q]))
    }

    /// How many pieces of each kind the tables hold (for tests and profiles).
    var pieceKindCounts: [PieceKind: Int] {
        var counts: [PieceKind: Int] = [:]
        for p in 0..<pieceCount { counts[pieceKind[p], default: 0] += 1 }
        return counts
    }

    /// The index of the property with a history key, if it is sampled.
    public func property(key: PropertyKey) -> Int? {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < keys.count && keys[lo] == key ? lo : nil
    }

    /// The sum of every component of every sampled property now (times in seconds): the
    /// checksum `anim bench` prints. For W(N, K) it is Σ (x + y) over the shapes' centers.
    public var checksum: Double {
        var sum = 0.0
        for q in keys.indices where cursor[q] >= 0 {
            let out = output.base + Int(outputOffset[q])
            for c in 0..<Int(components[q]) {
                sum += layouts[q] == .time ? out[c] / Double(Time.ticksPerSecond) : out[c]
            }
        }
        return sum
    }
}
