// FrameSampling: how a Timeline's stage is sampled into StageFrames — at one instant through
// the history's binary search (`frame(at:)`), or frame after frame through one Sampler
// (`frames(on:_:)`), which is what every frame-by-frame output draws. Both give the values the
// interpreter showed, bit for bit (Tests/AnimCoreTests/Engine/SamplerTests.swift). Values are
// read as numbers through NumericValue, the one codec.

extension Timeline {
    /// The stage at global time `t`.
    public func frame(at t: Time) -> StageFrame {
        var out: [ShapeSnapshot] = []
        var placed = [Int](repeating: -1, count: shapes.count)
        let owners = glyphOwners
        for info in shapes {
            guard let s = snapshot(info, at: t) else { continue }
            if info.kind == .glyph {
                // Folded into its text's snapshot (Grammar.md §4.12).
                let o = owners[Int(info.id.index)]
                if o >= 0, placed[o] >= 0 { out[placed[o]].glyphs.append(GlyphSnapshot(s)) }
                continue
            }
            placed[Int(info.id.index)] = out.count
            out.append(s)
        }
        return StageFrame(time: t, size: stageSize, background: stageColor, shapes: Timeline.paintOrder(out), imageDirectory: imageDirectory)
    }

    /// One shape at `t`, or nil if it is not declared yet.
    func snapshot(_ info: ShapeInfo, at t: Time) -> ShapeSnapshot? {
        guard let c = history.created(info.id), t >= c else { return nil }
        var s = ShapeSnapshot(id: info.id, kind: info.kind)
        for b in BuiltinProperty.allCases { s.set(b, value(info.id, b.id, at: t)) }
        return s
    }

    /// Shapes in paint order: by `z`, then declaration order.
    static func paintOrder(_ shapes: [ShapeSnapshot]) -> [ShapeSnapshot] {
        shapes.sorted(by: paintsBefore)
    }

    /// Whether `a` paints before `b`: the order of `paintOrder`.
    @inline(__always)
    static func paintsBefore(_ a: ShapeSnapshot, _ b: ShapeSnapshot) -> Bool {
        a.z != b.z ? a.z < b.z : a.id < b.id
    }

    /// The frames that show the run on `grid`: 0 through the first frame at or after its end,
    /// so the last frame shows the final state.
    public func frameRange(on grid: FrameGrid) -> ClosedRange<Int64> {
        0...grid.firstFrame(atOrAfter: end)
    }

    /// The stage at each frame of `range` on `grid`, in order: what every frame-by-frame output
    /// draws. Each iteration samples through its own Sampler, so sequences of different ranges
    /// may be iterated on different threads at once.
    public func frames(on grid: FrameGrid, _ range: ClosedRange<Int64>) -> StageFrames {
        StageFrames(timeline: self, grid: grid, range: range)
    }

    /// Where an image shape's `file` is: as written when absolute, else in `imageDirectory`
    /// (the script's directory).
    public func imagePath(_ file: String) -> String {
        StageFrame(time: .zero, size: .zero, background: Color(r: 0, g: 0, b: 0), shapes: [], imageDirectory: imageDirectory).imagePath(file)
    }

    /// For each shape, the index of the text whose glyph it is (−1: not a glyph). A glyph is
    /// named `TEXT.glyphs[k]` and comes after its text, glyph by glyph in order.
    public var glyphOwners: [Int] {
        var owners = [Int](repeating: -1, count: shapes.count)
        guard shapes.contains(where: { $0.kind == .glyph }) else { return owners }
        var texts: [String: Int] = [:]
        for (i, info) in shapes.enumerated() {
            if info.kind == .text { texts[info.name] = i }
            if info.kind == .glyph, let dot = info.name.firstRange(of: ".glyphs["),
               let o = texts[String(info.name[..<dot.lowerBound])] {
                owners[i] = o
            }
        }
        return owners
    }

    /// The name of a shape.
    public func name(of id: ShapeID) -> String {
        Int(id.index) < shapes.count ? shapes[Int(id.index)].name : "?"
    }
}

extension ShapeSnapshot {
    /// A shape with every drawing property at what a missing value reads as.
    init(id: ShapeID, kind: ShapeKind) {
        self.init(id: id, kind: kind, center: .zero, size: .zero, rotation: 0, scale: Point(1, 1), offset: .zero, alpha: 1,
                  color: Color(r: 0, g: 0, b: 0), radius: 0, z: 0, text: "", font: 16)
    }

    /// Sets a built-in property from its value (nil: missing).
    mutating func set(_ p: BuiltinProperty, _ v: Value?) {
        switch p {
        case .text: text = v?.frameString ?? ""
        case .file: file = v?.frameString ?? ""
        case .points: points = v?.framePoints ?? []
        case .d: if case .path(let d)? = v { path = d } else { path = PathValue() }
        case .lineCap: lineCap = v?.frameString.flatMap(LineCap.init(word:)) ?? .butt
        case .lineJoin: lineJoin = v?.frameString.flatMap(LineJoin.init(word:)) ?? .miter
        case .fontFamily: fontFamily = v?.frameString ?? ""
        case .weight: fontWeight = BuiltinProperty.weightValue(v?.frameString ?? "normal")
        case .align: align = v?.frameString.flatMap(TextLayout.Alignment.init(word:)) ?? .center
        case .color:
            if case .gradient(let g)? = v {
                gradient = g
                var c = g.stops.first?.color ?? Color(r: 0, g: 0, b: 0)
                c.a = 1
                color = c
            } else {
                set(p, v.flatMap(NumericValue.init))
            }
        case .stroke:
            // A gradient stroke, as a gradient fill: the stops hold the alphas, the colour is
            // the first stop's, opaque (what `hasStroke` and the outputs without it read).
            if case .gradient(let g)? = v {
                strokeGradient = g
                var c = g.stops.first?.color ?? Color(r: 0, g: 0, b: 0)
                c.a = 1
                stroke = c
            } else {
                set(p, v.flatMap(NumericValue.init))
            }
        default: set(p, v.flatMap(NumericValue.init))
        }
    }

    /// Sets a built-in property from its value as numbers (nil: missing or not numbers).
    mutating func set(_ p: BuiltinProperty, _ n: NumericValue?) {
        switch p {
        case .center: center = n?.point ?? .zero
        case .size: size = n?.point ?? .zero
        case .rotation: rotation = n?.number ?? 0
        case .scale: scale = n?.point ?? Point(1, 1)
        case .offset: offset = n?.point ?? .zero
        case .alpha: alpha = n?.number ?? 1
        case .color: color = n?.color ?? Color(r: 0, g: 0, b: 0); gradient = nil
        case .radius: radius = n?.number ?? 0
        case .z: z = n?.number ?? 0
        case .text: text = ""
        case .file: file = ""
        case .font: font = n?.number ?? 16
        case .anchor: anchor = n?.point ?? Point(0.5, 0.5)
        case .shadowOffset: shadowOffset = n?.point ?? .zero
        case .shadowBlur: shadowBlur = n?.number ?? 0
        case .shadowColor: shadowColor = n?.color ?? Color(r: 0, g: 0, b: 0, a: 0.5)
        case .from: from = n?.point ?? .zero
        case .to: to = n?.point ?? .zero
        case .stroke: stroke = n?.color ?? Color(r: 0, g: 0, b: 0, a: 0); strokeGradient = nil
        case .strokeWidth: strokeWidth = n?.number ?? 1
        case .dash: dash = n?.point ?? .zero
        case .dashOffset: dashOffset = n?.number ?? 0
        case .trimStart: trimStart = n?.number ?? 0
        case .trimEnd: trimEnd = n?.number ?? 1
        // Not numbers: set from their values.
        case .points, .d, .lineCap, .lineJoin, .fontFamily, .weight, .align: break
        }
    }
}

// MARK: - Reading values as plain numbers

extension Value {
    /// A point (a number n reads as (n, n), as `scale 2` does).
    var framePoint: Point? { NumericValue(self)?.point }

    /// A number (angles in degrees, times in seconds).
    var frameNumber: Double? { NumericValue(self)?.number }

    /// A color (a gradient's: its first stop's, what outputs that cannot draw it show).
    var frameColor: Color? {
        if case .gradient(let g) = self { return g.stops.first?.color }
        return NumericValue(self)?.color
    }

    /// A list of points.
    var framePoints: [Point]? {
        guard case .list(let vs) = self else { return nil }
        return vs.compactMap(\.framePoint)
    }

    /// A string.
    var frameString: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// The stage at consecutive frames of a grid (`Timeline.frames(on:_:)`).
public struct StageFrames: Sequence, Sendable {
    let timeline: Timeline
    /// The grid the frames are on.
    public let grid: FrameGrid
    /// The frames.
    public let range: ClosedRange<Int64>

    /// Samples the frames in order through one Sampler.
    public struct Iterator: IteratorProtocol {
        let frames: StageFrames
        var frame: Int64
        let sampler: Sampler
        /// Each shape as declared, and when.
        let declared: [ShapeSnapshot]
        let created: [Time]
        /// The built-in properties with pieces, shape by shape: shape i's are
        /// `animated[first[i] ..< first[i + 1]]`.
        let first: [Int32]
        let animated: [(property: BuiltinProperty, row: Int32)]
        /// The last frame's paint order, as indices into its shapes in declaration order (empty:
        /// declaration order itself). Frames come in order and a shape, once created, stays, so
        /// the same count means the same shapes; the order is sorted again only when it no
        /// longer holds (some `z` changed), not for every frame.
        var order: [Int] = []
        var orderCount = -1
        /// Each shape's text when it is a glyph (−1: not a glyph), and where each shape went in
        /// the frame being made (−1: not there).
        let owners: [Int]
        var placed: [Int]

        init(_ frames: StageFrames) {
            self.frames = frames
            let t = frames.timeline
            frame = frames.range.lowerBound
            sampler = Sampler(history: t.history, grid: frames.grid)
            let table = SamplingTable(t)
            declared = table.declared
            created = table.created
            first = table.first
            animated = table.animated
            owners = t.glyphOwners
            placed = [Int](repeating: -1, count: t.shapes.count)
        }

        public mutating func next() -> StageFrame? {
            guard frame <= frames.range.upperBound else { return nil }
            defer { frame += 1 }
            let t = frames.grid.time(ofFrame: frame)
            sampler.sample(frame: frame)
            var out: [ShapeSnapshot] = []
            out.reserveCapacity(declared.count)
            for i in declared.indices where created[i] <= t {
                if owners[i] >= 0 {
                    // A glyph: its values go into its text's snapshot (Grammar.md §4.12).
                    let j = placed[owners[i]]
                    guard j >= 0 else { continue }
                    var g = GlyphSnapshot(declared[i])
                    for k in Int(first[i])..<Int(first[i + 1]) {
                        let (p, row) = animated[k]
                        guard sampler.hasValue(ofRow: Int(row)) else { continue }
                        g.set(p, sampler.numericValue(ofRow: Int(row)))
                    }
                    out[j].glyphs.append(g)
                    continue
                }
                // Copied once, into its place, and its animated properties written there.
                placed[i] = out.count
                out.append(declared[i])
                let j = out.count - 1
                for k in Int(first[i])..<Int(first[i + 1]) {
                    let (p, row) = animated[k]
                    guard sampler.hasValue(ofRow: Int(row)) else { continue }
                    if let n = sampler.numericValue(ofRow: Int(row)) { out[j].set(p, n) } else { out[j].set(p, sampler.value(ofRow: Int(row))) }
                }
            }
            let tl = frames.timeline
            return StageFrame(time: t, size: tl.stageSize, background: tl.stageColor, shapes: inPaintOrder(out), imageDirectory: tl.imageDirectory)
        }

        /// `Timeline.paintOrder(shapes)` for shapes in declaration order, through the last
        /// frame's order when it still holds. A kept order is checked pair by pair with the
        /// sort's own comparison: where it holds for every neighbour (which needs every `z`
        /// comparable) it is the one sorted order; otherwise the indices are sorted as the
        /// shapes would be, with the same comparisons, so the result is always `paintOrder`'s.
        mutating func inPaintOrder(_ shapes: [ShapeSnapshot]) -> [ShapeSnapshot] {
            if shapes.count == orderCount {
                if order.isEmpty {
                    if holds(shapes.indices, shapes) { return shapes }
                } else if holds(order, shapes) {
                    return order.map { shapes[$0] }
                }
            }
            orderCount = shapes.count
            order = shapes.indices.sorted { Timeline.paintsBefore(shapes[$0], shapes[$1]) }
            if order.elementsEqual(shapes.indices) {
                order = []
                return shapes
            }
            return order.map { shapes[$0] }
        }

        /// Whether `order` lists `shapes` each before the next in paint order.
        private func holds(_ order: some Collection<Int>, _ shapes: [ShapeSnapshot]) -> Bool {
            var previous: Int?
            for i in order {
                if let p = previous, !Timeline.paintsBefore(shapes[p], shapes[i]) { return false }
                previous = i
            }
            return true
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }
}

/// What both samplings of a stage start from (StageFrames.Iterator, ShapeSampling): each shape
/// as declared, when it is created, and the built-in properties with pieces, shape by shape —
/// shape i's are `animated[first[i] ..< first[i + 1]]`, each with its sampler row. Only the
/// shapes in `shapes` are read (nil: all); the others are left undeclared, never created and
/// without rows (a sampling of one range of shapes never reads them).
struct SamplingTable {
    var declared: [ShapeSnapshot] = []
    var created: [Time] = []
    var first: [Int32] = [0]
    var animated: [(property: BuiltinProperty, row: Int32)] = []

    init(_ t: Timeline, shapes range: Range<Int>? = nil) {
        let b = BuiltinProperty.allCases.count
        declared.reserveCapacity(t.shapes.count)
        created.reserveCapacity(t.shapes.count)
        for (i, info) in t.shapes.enumerated() {
            var s = ShapeSnapshot(id: info.id, kind: info.kind)
            if let range, !range.contains(i) {
                declared.append(s)
                created.append(.max)
                first.append(Int32(animated.count))
                continue
            }
            for p in BuiltinProperty.allCases {
                s.set(p, t.history.declared(PropertyKey(info.id, p.id)))
                let row = t.builtinRows[Int(info.id.index) * b + p.rawValue]
                if row >= 0 { animated.append((p, row)) }
            }
            declared.append(s)
            created.append(t.history.created(info.id) ?? .max)
            first.append(Int32(animated.count))
        }
    }
}
