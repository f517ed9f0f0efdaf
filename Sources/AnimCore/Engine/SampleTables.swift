// SampleTables: a run's property history compiled to flat tables, struct-of-arrays style, for
// the Sampler. Every animated property owns a contiguous run of pieces (its segment table);
// each piece is one row across parallel arrays: its kind, where its numbers sit in one pool of
// Doubles, and its timing. Invariant: a compiled piece sampled at t gives bit for bit what
// `PropertyHistory.value(_:at:)` gives — the same operations on the same operands, in order.

extension ValueLayout {
    /// Appends a value's components.
    func append(_ v: Value, to pool: inout [Double]) {
        switch v {
        case .number(let n): pool.append(n)
        case .angle(let a): pool.append(a.degrees)
        case .point(let p): pool.append(p.x); pool.append(p.y)
        case .color(let c): pool.append(c.r); pool.append(c.g); pool.append(c.b); pool.append(c.a)
        case .time(let t): pool.append(Double(t.ticks))
        case .string, .bool, .list, .shape: for _ in 0..<components { pool.append(.nan) }
        }
    }

    /// The value held by components at `p`.
    func value(_ p: UnsafePointer<Double>) -> Value {
        switch self {
        case .number: .number(p[0])
        case .angle: .angle(Angle(degrees: p[0]))
        case .point: .point(Point(p[0], p[1]))
        case .color: .color(Color(r: p[0], g: p[1], b: p[2], a: p[3]))
        case .time: .time(Time(ticks: Int64(p[0])))
        }
    }
}

/// How a compiled piece gives its value.
enum PieceKind: UInt8 {
    /// Fixed components, written once when the piece starts.
    case constant
    /// A tween with one plain iteration on a clock at rate 1: progress is u ÷ d, u = t − origin.
    case tween
    /// Any other tween: Web Animations timing seen through its instance's clock.
    case timedTween
    /// A spring: one closed-form motion per component.
    case spring
    /// Values computed once per frame at compile time (keyframes, paths, replays, times).
    case baked
}

/// A tween the fast path cannot take: its clock map, its begin and its timing.
struct TimedTween {
    var clock: ClockMap
    var begin: Time
    var timing: TweenTiming
}

/// A spring piece: its clock map, begin, settling time and first component motion.
struct SpringPiece {
    var clock: ClockMap
    var begin: Time
    var duration: Time
    var firstMotion: Int32
}

/// The compiled tables: rows of properties, rows of pieces, and the start-time order of pieces.
struct SampleTables {
    /// The frames the tables serve (baked pieces hold values for these only).
    var grid: FrameGrid
    var frames: ClosedRange<Int64>

    // MARK: Properties (one row each)

    /// The history key.
    var keys: [PropertyKey] = []
    var layouts: [ValueLayout] = []
    /// Where the property's components sit in the sampler's output.
    var outputOffset: [Int32] = []
    /// How many Doubles the output holds.
    var outputCount = 0

    // MARK: Pieces (one row each; a property's pieces are contiguous, in time order)

    var pieceProperty: [Int32] = []
    var pieceKind: [PieceKind] = []
    /// Where its numbers start in `pool`: constant → value; tweens → from, then to; spring → to;
    /// baked → one value per frame from `pieceOrigin`.
    var pieceData: [Int32] = []
    /// Tween: the global tick where u = 0. Baked: its first frame.
    var pieceOrigin: [Int64] = []
    /// Tween: the duration in ticks (0 < d < 2⁵³).
    var pieceDuration: [Int64] = []
    /// Tweens: index into `easings`.
    var pieceEasing: [Int32] = []
    /// Tween: its lane. Timed tween: index into `timedTweens`; spring: into `springs`.
    var pieceExtra: [Int32] = []

    var pool: [Double] = []
    /// The distinct easings.
    var easings: [Easing] = []
    /// Lanes: the running fast tweens of one easing and one number of components, so the sampler
    /// chooses the curve once per lane, not once per sample. Each lane's easing, components, and
    /// capacity (how many properties have a fast tween in it).
    var laneEasing: [Int32] = []
    var laneComponents: [Int32] = []
    var laneCapacity: [Int32] = []
    var timedTweens: [TimedTween] = []
    var springs: [SpringPiece] = []
    var springMotions: [SpringMotion] = []

    // MARK: Activations (every piece, by start time)

    var activationStart: [Int64] = []
    var activationPiece: [Int32] = []

    /// Largest tick count the fast tween path takes: below 2⁵³ every tick count is an exact
    /// Double, so u ÷ d < 1 whenever u < d and the progress needs no `rounded(.down)`.
    static let maxFastTicks: Int64 = 1 << 53
    /// Largest clock anchor folded into a tween's origin without any risk of overflow.
    static let maxFoldedTicks: Int64 = 1 << 61

    /// Compiles a history for the frames `frames` of `grid`. A property is compiled (animated)
    /// when something wrote it during the run: it has more than one piece, or a moving one.
    init(history: PropertyHistory, grid: FrameGrid, frames: ClosedRange<Int64>) {
        self.grid = grid
        self.frames = frames
        var easingIndex: [Easing: Int32] = [:]
        var laneIndex: [Int64: Int32] = [:]
        var order: [(start: Int64, piece: Int32)] = []
        for key in history.keys {
            guard let list = history.pieces[key], let first = list.first else { continue }
            // Pieces that start together: the last one is what `value(at:)` sees.
            var pieces: [PropertyHistory.Piece] = []
            pieces.reserveCapacity(list.count)
            for p in list {
                if let last = pieces.last, last.start == p.start { pieces[pieces.count - 1] = p } else { pieces.append(p) }
            }
            if pieces.count == 1, case .constant = pieces[0].source { continue }
            guard let layout = ValueLayout(of: PropertyHistory.evaluate(first.source, at: first.start)) else { continue }
            let property = Int32(keys.count)
            keys.append(key)
            layouts.append(layout)
            outputOffset.append(Int32(outputCount))
            outputCount += layout.components
            let firstRow = pieceKind.count
            for (k, piece) in pieces.enumerated() {
                let end = k + 1 < pieces.count ? pieces[k + 1].start : nil
                let row = Int32(pieceKind.count)
                add(piece, end: end, layout: layout, property: property, easingIndex: &easingIndex)
                order.append((piece.start.ticks, row))
            }
            var lanes = Set<Int32>()
            for row in firstRow..<pieceKind.count where pieceKind[row] == .tween {
                let key = Int64(pieceEasing[row]) << 8 | Int64(layout.components)
                if laneIndex[key] == nil {
                    laneIndex[key] = Int32(laneEasing.count)
                    laneEasing.append(pieceEasing[row])
                    laneComponents.append(Int32(layout.components))
                    laneCapacity.append(0)
                }
                pieceExtra[row] = laneIndex[key]!
                lanes.insert(laneIndex[key]!)
            }
            for lane in lanes { laneCapacity[Int(lane)] += 1 }
        }
        // Pieces of one property are in time order already; a stable order across properties.
        order.sort { $0.start != $1.start ? $0.start < $1.start : $0.piece < $1.piece }
        activationStart = order.map(\.start)
        activationPiece = order.map(\.piece)
    }

    /// Adds one piece's row.
    private mutating func add(_ piece: PropertyHistory.Piece, end: Time?, layout: ValueLayout, property: Int32,
                              easingIndex: inout [Easing: Int32]) {
        pieceProperty.append(property)
        pieceData.append(Int32(pool.count))
        var kind = PieceKind.baked
        var origin: Int64 = 0, duration: Int64 = 0, easing: Int32 = -1, extra: Int32 = -1

        func intern(_ e: Easing) -> Int32 {
            if let i = easingIndex[e] { return i }
            easings.append(e)
            easingIndex[e] = Int32(easings.count - 1)
            return Int32(easings.count - 1)
        }

        switch piece.source {
        case .constant(let v):
            kind = .constant
            layout.append(v, to: &pool)
        case .segment(let tr, let clock) where layout != .time:
            switch tr.motion {
            case .tween(let timing, let e) where tr.keyframes == nil && tr.path == nil:
                layout.append(tr.from, to: &pool)
                layout.append(tr.to, to: &pool)
                easing = intern(e)
                if let o = SampleTables.fastOrigin(clock, begin: tr.begin, timing: timing), piece.start.ticks >= o {
                    kind = .tween
                    origin = o
                    duration = timing.iterationDuration.ticks
                } else {
                    kind = .timedTween
                    extra = Int32(timedTweens.count)
                    timedTweens.append(TimedTween(clock: clock, begin: tr.begin, timing: timing))
                }
            case .spring(let d) where tr.springs.count == layout.components:
                kind = .spring
                layout.append(tr.to, to: &pool)
                extra = Int32(springs.count)
                springs.append(SpringPiece(clock: clock, begin: tr.begin, duration: d, firstMotion: Int32(springMotions.count)))
                springMotions += tr.springs
            default:
                break
            }
        default:
            break
        }
        if kind == .baked {
            // Sampled through the history on the frames the piece covers.
            let first = max(frames.lowerBound, grid.firstFrame(atOrAfter: piece.start))
            var last = frames.upperBound
            if let end { last = min(last, grid.firstFrame(atOrAfter: end) - 1) }
            origin = first
            if first <= last {
                for f in first...last {
                    layout.append(PropertyHistory.evaluate(piece.source, at: grid.time(ofFrame: f)), to: &pool)
                }
            }
        }
        pieceKind.append(kind)
        pieceOrigin.append(origin)
        pieceDuration.append(duration)
        pieceEasing.append(easing)
        pieceExtra.append(extra)
    }

    /// The global tick where a tween's u = 0, if it can take the fast path: one plain
    /// iteration, a clock at rate 1, a duration in (0, 2⁵³) ticks, anchors far from overflow.
    /// Then u = clock(t) − begin = (local + (t − global)) − begin = t − (global − local + begin).
    /// The piece must also start at or after that tick: the fast path has no before phase, where
    /// a step easing would see the before flag.
    static func fastOrigin(_ clock: ClockMap, begin: Time, timing: TweenTiming) -> Int64? {
        let d = timing.iterationDuration.ticks
        guard clock.rate == 1, timing.iterations == 1, timing.iterationStart == 0, timing.rate == 1,
              timing.direction == .normal, d > 0, d < maxFastTicks else { return nil }
        let limit = UInt64(maxFoldedTicks)
        guard clock.global.ticks.magnitude < limit, clock.local.ticks.magnitude < limit, begin.ticks.magnitude < limit else {
            return nil
        }
        return clock.global.ticks - clock.local.ticks + begin.ticks
    }
}
