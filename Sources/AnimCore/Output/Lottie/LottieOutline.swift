// LottieOutline: the outline shapes (line, ellipse, polygon, polyline, path) and every stroke in
// the Lottie export. A shape's geometry is its outline in its own coordinates, as the
// rasterizer draws it (ShapeSnapshot.localOutline: a box shape's centred on 0, a point shape's
// relative to the centre of its points' box), under the layer's transform, whose position is
// that box centre plus offset plus the anchor's shift (ChannelBuilder.anchoredPosition).
//
// - A rect or circle is `rc`/`el`, an ellipse `el`, unless its stroke is dashed or trimmed at
//   some time: Lottie's `rc` and `el` start their outline elsewhere than anim does (lottie-web's
//   ellipse at the top), which moves dashes and trims; then it is paths (`sh`) too.
// - Every other outline is one `sh` per contour. While the geometry (points, d, from, to, size,
//   radius) does not change the path is static; when it changes and every frame's outline has
//   the same contours (a morph resamples to a fixed vertex count), each contour's vertices and
//   tangents, padded to its most vertices, are one vector fitted by LottieFitter within the
//   position's bound (0.25 px, over all the vertices together) as any other channel;
//   otherwise the path is baked, a hold key at each frame, padded to one vertex count.
// - The fill and the stroke are two groups, the stroke's on top: Lottie's trim paths cut
//   every path beneath them in the group, fills included, and anim trims only the stroke. A
//   line has no fill; an open polyline's fill closes, as in SVG.
// - The stroke (`st`): colour and opacity from `stroke` (0 where the width is 0), width, caps 1 butt / 2 round /
//   3 square, joins 1 miter / 2 round / 3 bevel, miter limit 4 (SVG's), dashes `d` as dash,
//   gap and offset. Caps and joins are their values at the shape's declaration (they do not
//   animate in Lottie; `LottieExporter.leftOut` names a shape whose caps or joins change).
// - Trims (`tm`): start and end in %, offset 0, mode 2 ("individually": the paths of the
//   group trimmed one after another as one length), which is anim's: the whole outline's
//   length as one (OutlineMeasure). For a one-contour outline both modes agree.

extension ChannelBuilder {
    /// The shape at `t` (at its declaration before it).
    func snapshot(_ t: Time) -> ShapeSnapshot {
        let info = timeline.shapes[Int(shape.index)]
        return timeline.snapshot(info, at: max(t, firstTime())) ?? ShapeSnapshot(id: shape, kind: info.kind)
    }

    /// Whether any of these properties changes.
    func changes(_ ps: [BuiltinProperty]) -> Bool { ps.contains { !isConstant($0) } }

    /// The properties the outline's geometry depends on.
    static func geometryProperties(_ kind: ShapeKind) -> [BuiltinProperty] {
        switch kind {
        case .rect: [.size, .radius]
        case .circle: [.radius]
        case .ellipse: [.size]
        case .line: [.from, .to]
        case .polygon, .polyline: [.points]
        case .path: [.d]
        case .text: [.size]
        // An image is an image layer (LottieImage), not an outline.
        case .image: []
        // A glyph is folded into its text's snapshot (StageFrame.glyphs), never a layer.
        case .glyph: []
        }
    }

    /// Whether the stroke shows at some time: a visible colour and a positive width at the
    /// shape's start, at the end, or animated.
    func hasStroke() -> Bool {
        let times = [firstTime(), max(firstTime(), timeline.end)]
        if times.contains(where: { snapshot($0).hasStroke }) { return true }
        return !isConstant(.stroke) || !isConstant(.strokeWidth)
    }

    /// Whether the stroke is dashed, or trimmed, at some time.
    func isDashedOrTrimmed() -> (dashed: Bool, trimmed: Bool) {
        let times = [firstTime(), max(firstTime(), timeline.end)]
        let dashed = !isConstant(.dash) || times.contains { snapshot($0).isDashed }
        let trimmed = !isConstant(.trimStart) || !isConstant(.trimEnd) || times.contains { snapshot($0).isTrimmed }
        return (dashed, trimmed)
    }

    /// The groups of an outline or stroked shape: the stroke's (nil without a stroke), which
    /// goes over the fill's (nil for a line).
    func outlineGroups(_ info: Timeline.ShapeInfo, fill: String) -> (stroke: String?, fill: String?) {
        let stroked = hasStroke()
        let (dashed, trimmed) = stroked ? isDashedOrTrimmed() : (false, false)
        let geometry: String
        switch info.kind {
        case .rect where !dashed && !trimmed:
            let size = channel(.size, Self.pixels) { v in let p = v.framePoint ?? .zero; return [abs(p.x), abs(p.y)] }
            geometry = "{\"ty\":\"rc\",\"nm\":\"rect\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]},\"r\":\(cornerChannel())}"
        case .circle where !dashed && !trimmed:
            let size = channel(.radius, Self.pixels) { v in let r = abs(v.frameNumber ?? 0); return [2 * r, 2 * r] }
            geometry = "{\"ty\":\"el\",\"nm\":\"circle\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]}}"
        case .ellipse where !dashed && !trimmed:
            let size = channel(.size, Self.pixels) { v in let p = v.framePoint ?? .zero; return [abs(p.x), abs(p.y)] }
            geometry = "{\"ty\":\"el\",\"nm\":\"ellipse\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]}}"
        default:
            geometry = outlinePaths(info.kind)
        }
        let trim = trimmed ? trimItem() + "," : ""
        return (stroked ? "{\"ty\":\"gr\",\"nm\":\"stroke\",\"it\":[\(geometry),\(trim)\(strokeItem(dashed: dashed)),\(Self.identityGroupTransform)]}" : nil,
                info.kind != .line ? "{\"ty\":\"gr\",\"nm\":\"fill\",\"it\":[\(geometry),\(fill),\(Self.identityGroupTransform)]}" : nil)
    }

    /// The stroke item.
    func strokeItem(dashed: Bool) -> String {
        let color = channel(.stroke, Self.colour) { v in let c = v.frameColor ?? Color(r: 0, g: 0, b: 0); return [c.r, c.g, c.b].map { max(0, min(255, $0)) / 255 } + [1] }
        var opacity = channel(.stroke, Self.percent) { v in [max(0, min(1, v.frameColor?.a ?? 0)) * 100] }
        // A canvas ignores a line width of 0 (lottie-web's canvas renderer then strokes with
        // the last width it set), so where the width is 0 the stroke's opacity is 0 instead.
        let times = sampleTimes(firstTime(), timeline.end, closing: true)
        if times.contains(where: { (value(.strokeWidth, $0)?.frameNumber ?? 0) <= 0 }) {
            opacity = animated([.fitted(firstTime(), timeline.end)], format: Self.percent) { t in
                let w = value(.strokeWidth, t)?.frameNumber ?? 0, a = value(.stroke, t)?.frameColor?.a ?? 0
                return [w > 0 ? max(0, min(1, a)) * 100 : 0]
            }
        }
        let width = channel(.strokeWidth, Self.pixels) { v in [max(0, min(StrokeStyle.maxWidth, v.frameNumber ?? 0))] }
        let s = snapshot(firstTime())
        let cap = switch s.lineCap { case .butt: 1; case .round: 2; case .square: 3 }
        let join = switch s.lineJoin { case .miter: 1; case .round: 2; case .bevel: 3 }
        var item = "{\"ty\":\"st\",\"nm\":\"stroke\",\"c\":\(color),\"o\":\(opacity),\"w\":\(width),\"lc\":\(cap),\"lj\":\(join),\"ml\":4"
        if let gradient = gradientParts(timeline.shapes[Int(shape.index)].kind, stroke: true) {
            // A gradient stroke (`gs`) over the fill's box: its stops hold the alphas (a colour's
            // too, at every stop), so its opacity is 100 wherever it strokes, 0 elsewhere.
            let stroked = animated([.fitted(firstTime(), timeline.end)], format: Self.percent) { t in [snapshot(t).hasStroke ? 100 : 0] }
            item = "{\"ty\":\"gs\",\"nm\":\"stroke\",\"o\":\(stroked),\"w\":\(width),\"lc\":\(cap),\"lj\":\(join),\"ml\":4,\"bm\":0," + gradient
        }
        if dashed {
            let on = channel(.dash, Self.pixels) { v in [max(0, v.framePoint?.x ?? 0)] }
            let off = channel(.dash, Self.pixels) { v in [max(0, v.framePoint?.y ?? 0)] }
            let offset = channel(.dashOffset, Self.pixels) { [$0.frameNumber ?? 0] }
            item += ",\"d\":[{\"n\":\"d\",\"nm\":\"dash\",\"v\":\(on)},{\"n\":\"g\",\"nm\":\"gap\",\"v\":\(off)},{\"n\":\"o\",\"nm\":\"offset\",\"v\":\(offset)}]"
        }
        return item + "}"
    }

    /// The trim item: start and end in % (clamped to 0…100 as anim clamps them), mode 2.
    func trimItem() -> String {
        let start = channel(.trimStart, Self.percent) { [max(0, min(1, $0.frameNumber ?? 0)) * 100] }
        let end = channel(.trimEnd, Self.percent) { [max(0, min(1, $0.frameNumber ?? 1)) * 100] }
        return "{\"ty\":\"tm\",\"nm\":\"trim\",\"s\":\(start),\"e\":\(end),\"o\":{\"a\":0,\"k\":0},\"m\":2}"
    }

    /// One contour as Lottie's path vertices: points, in and out tangents relative to them,
    /// and whether it closes. A closed contour whose last segment ends at its start (to a
    /// nanometre: an arc comes back with rounding) folds that end into the first vertex;
    /// quadratics are raised to cubics.
    struct PathVertices: Equatable {
        var v: [Point] = [], i: [Point] = [], o: [Point] = []
        var closed = false

        init(_ c: Outline.Contour) {
            v = [c.start]; i = [.zero]
            var p = c.start
            for (k, s) in c.segments.enumerated() {
                let c1: Point, c2: Point, end: Point
                switch s {
                case .line(let e): (c1, c2, end) = (p, e, e)
                case .quadratic(let q, let e):
                    c1 = Point(p.x + 2 / 3 * (q.x - p.x), p.y + 2 / 3 * (q.y - p.y))
                    c2 = Point(e.x + 2 / 3 * (q.x - e.x), e.y + 2 / 3 * (q.y - e.y))
                    end = e
                case .cubic(let a, let b, let e): (c1, c2, end) = (a, b, e)
                }
                o.append(Point(c1.x - p.x, c1.y - p.y))
                if c.isClosed && k == c.segments.count - 1 && abs(end.x - c.start.x) <= 1e-9 && abs(end.y - c.start.y) <= 1e-9 {
                    i[0] = Point(c2.x - end.x, c2.y - end.y)
                } else {
                    v.append(end)
                    i.append(Point(c2.x - end.x, c2.y - end.y))
                }
                p = end
            }
            // The last vertex's out tangent: a closed contour's straight closing line, or nothing.
            if o.count < v.count { o.append(.zero) }
            closed = c.isClosed
        }

        /// The numbers that change when the path moves: v, i and o, flattened.
        var numbers: [Double] { (v + i + o).flatMap { [$0.x, $0.y] } }

        /// The path from its numbers (as `numbers` writes them).
        init(numbers: [Double], closed: Bool) {
            let n = numbers.count / 6
            func points(_ k: Int) -> [Point] { (0..<n).map { Point(numbers[2 * (k * n + $0)], numbers[2 * (k * n + $0) + 1]) } }
            v = points(0); i = points(1); o = points(2)
            self.closed = closed
        }

        /// The Lottie shape value `{"i":…,"o":…,"v":…,"c":…}`.
        var json: String {
            func list(_ ps: [Point]) -> String { "[" + ps.map { "[\(formatFixed($0.x, 3)),\(formatFixed($0.y, 3))]" }.joined(separator: ",") + "]" }
            return "{\"i\":\(list(i)),\"o\":\(list(o)),\"v\":\(list(v)),\"c\":\(closed)}"
        }

        /// The same path with `count` vertices: the last one repeated, joined to itself by
        /// segments of no length, the closing segment leaving from the last copy.
        func padded(to count: Int) -> PathVertices {
            guard v.count < count, let lv = v.last, let lo = o.last else { return self }
            var p = self
            p.o[p.o.count - 1] = .zero
            for k in v.count..<count {
                p.v.append(lv); p.i.append(.zero); p.o.append(k == count - 1 ? lo : .zero)
            }
            return p
        }

        /// The same path with exactly `count` vertices: padded, or cut (which a fitted path
        /// needs only between frames, should an instant there have more vertices than every
        /// frame: anim's morphs resample to one count, so none does).
        func fitted(to count: Int) -> PathVertices {
            guard v.count > count else { return padded(to: count) }
            var p = self
            p.v = Array(v.prefix(count)); p.i = Array(i.prefix(count)); p.o = Array(o.prefix(count))
            return p
        }
    }

    /// The contours of the outline at `t`, as path vertices.
    func contours(_ t: Time) -> [PathVertices] {
        (snapshot(t).localOutline?.contours ?? []).filter { !$0.segments.isEmpty }.map(PathVertices.init)
    }

    /// The outline's paths (`sh`): static, fitted keys, or a hold key per frame (see the header).
    func outlinePaths(_ kind: ShapeKind) -> String {
        let start = firstTime()
        func item(_ n: Int, _ ks: String) -> String { "{\"ty\":\"sh\",\"nm\":\"path \(n)\",\"ks\":\(ks)}" }
        let first = contours(start)
        guard changes(Self.geometryProperties(kind)) else {
            return first.enumerated().map { item($0.offset, "{\"a\":0,\"k\":\($0.element.json)}") }.joined(separator: ",")
        }
        let grid = FrameGrid(fps: fps)
        // Each frame's outline (its number and contours), from the shape's first frame on.
        let frames = timeline.frameRange(on: grid).filter { grid.time(ofFrame: $0) >= start || grid.time(ofFrame: $0 + 1) > start }
        let perFrame = frames.map { (frame: $0, contours: contours(grid.time(ofFrame: $0))) }
        // The contours (their number, and whether each closes) the same at every frame: each is
        // one vector of its most vertices at any frame (the others padded), fitted. A morph's
        // resampling keeps one vertex count; one that starts from another (a square of 4
        // vertices resampled to 64) jumps from the padded one, within a sample of the instant.
        let all = [first] + perFrame.map(\.contours)
        if Set(all.map { $0.map(\.closed) }).count == 1 {
            return first.enumerated().map { n, c in
                let count = all.map { $0[n].v.count }.max() ?? c.v.count
                let keys = keyframes([.fitted(start, timeline.end)], format: Self.pixels) { t in
                    let cs = contours(t)
                    return (n < cs.count ? cs[n] : c).fitted(to: count).numbers
                }
                return item(n, pathKeys(keys, closed: c.closed))
            }.joined(separator: ",")
        }
        // Baked: a hold key per frame, as many paths as the most contours (an absent one is a
        // single point). Every key of a path has as many vertices as its largest (the others
        // padded, `padded(to:)`): lottie-web keeps a path's first vertex count and draws
        // nothing of a key with more.
        let most = perFrame.map(\.contours.count).max() ?? 0
        var items: [String] = []
        for n in 0..<most {
            // The absent contour's point closes when the contour does at some frame: lottie-web
            // draws every key of a path closed or open as its first key says (a morph that
            // grows a contour starts from its absence).
            let closes = perFrame.contains { n < $0.contours.count && $0.contours[n].closed }
            let lone = PathVertices(numbers: [0, 0, 0, 0, 0, 0], closed: closes)
            let paths = perFrame.map { n < $0.contours.count ? $0.contours[n] : lone }
            let count = paths.map(\.v.count).max() ?? 1
            var keys: [String] = []
            var last: String?
            for (k, path) in zip(perFrame.map(\.frame), paths) {
                let value = path.padded(to: count).json
                if value == last { continue }
                last = value
                keys.append("{\"t\":\(k),\"s\":[\(value)],\"h\":1}")
            }
            items.append(item(n, keys.count == 1 ? "{\"a\":0,\"k\":\(last ?? "")}" : "{\"a\":1,\"k\":[\(keys.joined(separator: ","))]}"))
        }
        return items.joined(separator: ",")
    }

    /// A path's keyframes from the fitted keys of its numbers: each key's `s` the path those
    /// numbers make, the handles written as scalars (a path is one value, which every player
    /// eases with one pair).
    func pathKeys(_ keys: [LottieKey], closed: Bool) -> String {
        guard keys.count > 1 else {
            return "{\"a\":0,\"k\":\(PathVertices(numbers: keys.first?.v ?? [], closed: closed).json)}"
        }
        var items: [String] = []
        for (n, k) in keys.enumerated() {
            var item = "{\"t\":\(formatFixed(k.t, k.digits)),\"s\":[\(PathVertices(numbers: k.v, closed: closed).json)]"
            if n + 1 < keys.count {
                if k.hold {
                    item += ",\"h\":1"
                } else {
                    let h = k.h ?? .linear
                    item += ",\"o\":{\"x\":\(formatFixed(h.x1, 6)),\"y\":\(formatFixed(h.y1, 6))}"
                    item += ",\"i\":{\"x\":\(formatFixed(h.x2, 6)),\"y\":\(formatFixed(h.y2, 6))}"
                }
            }
            items.append(item + "}")
        }
        return "{\"a\":1,\"k\":[\(items.joined(separator: ","))]}"
    }
}
