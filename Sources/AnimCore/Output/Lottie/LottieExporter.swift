// LottieExporter: a run as a Lottie (Bodymovin 5) document — one shape layer per rect, circle or text
// with its fill, and keyframes for position, scale, rotation, opacity, size, corner radius and
// colour. Keyframes come straight from the property history (`Timeline.pieces(of:)`): a tween with a cubic-Bézier
// easing (CSS `ease*`, `cubic-bezier`, `linear`) played once forwards becomes two keyframes
// with the same Bézier handles, so a Lottie player eases it exactly as anim does; anything
// else (springs, steps, Penner curves, repeats, keyframe lists, paths, replays) is baked at
// the frame rate with linear keyframes. A jump (a `set`, a new start value) is a hold keyframe.
//
// Lottie cannot reorder layers, so when z-order changes each stacking position holds a copy
// of every shape that visits it, shown only then. Text shapes are glyph outlines
// (LottieText.swift), not Lottie text layers, which need font assets every player handles
// differently; with no font installed they are left out.

/// Exports Lottie documents.
public enum LottieExporter {
    /// What the export leaves out for now (issue 15's outlines are exported by a later
    /// change): the shapes of the outline kinds (line, ellipse, polygon, polyline, path), and
    /// the rects and circles whose stroke shows at their start or at the run's end (their
    /// fill is exported, their stroke is not). Names, for the command's warning.
    public static func leftOut(_ timeline: Timeline) -> (shapes: [String], strokes: [String]) {
        var shapes: [String] = [], strokes: [String] = []
        for info in timeline.shapes {
            if info.kind.isOutlineKind { shapes.append(info.name); continue }
            guard info.kind == .rect || info.kind == .circle else { continue }
            let times = [timeline.created(info.id), max(timeline.created(info.id), timeline.end)]
            let stroked = times.contains { t in
                let c = timeline.value(info.id, BuiltinProperty.stroke.id, at: t)?.frameColor
                let w = timeline.value(info.id, BuiltinProperty.strokeWidth.id, at: t)?.frameNumber ?? 0
                return (c?.a ?? 0) > 0 && w > 0
            }
            if stroked { strokes.append(info.name) }
        }
        return (shapes, strokes)
    }

    /// The Lottie JSON of a run; `fps` is the document's frame rate and the baking rate.
    public static func export(_ timeline: Timeline, fps: Int) -> String {
        let grid = FrameGrid(fps: fps)
        let frames = timeline.frameRange(on: grid).map { grid.time(ofFrame: $0) }
        let op = frames.count  // out point: one past the last frame
        let w = formatFixed(timeline.stageSize.x, 3), h = formatFixed(timeline.stageSize.y, 3)
        var layers: [String] = []
        // The paint order at every frame (by z, then declaration); text needs a font.
        let drawn = timeline.shapes.filter { ($0.kind != .text || StageText.face != nil) && !$0.kind.isOutlineKind }.map(\.id)
        let orders: [[ShapeID]] = frames.map { t in
            let zs: [(id: ShapeID, z: Double)] = drawn.map { id in
                let at = max(t, timeline.created(id))
                return (id, timeline.value(id, BuiltinProperty.z.id, at: at)?.frameNumber ?? 0)
            }
            return zs.sorted { $0.z != $1.z ? $0.z < $1.z : $0.id < $1.id }.map(\.id)
        }
        // Top layer first. Where the order changes, each stacking position holds a copy of
        // every shape that visits it, its group shown (opacity 100, hold keyframes) only then.
        let changes = Set(orders).count > 1
        for slot in (orders.first ?? []).indices.reversed() {
            var seen: [ShapeID] = []
            for order in orders where !seen.contains(order[slot]) { seen.append(order[slot]) }
            for id in seen {
                var builder = ChannelBuilder(timeline: timeline, shape: id, fps: fps)
                let visible = changes ? orders.map { $0[slot] == id } : nil
                layers.append(builder.layer(timeline.shapes[Int(id.index)], index: layers.count + 1, outPoint: op, visibility: visible))
            }
        }
        let bg = timeline.stageColor
        layers.append("""
        {"ddd":0,"ind":\(layers.count + 1),"ty":4,"nm":"stage","sr":1,\
        "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[\(formatFixed(timeline.stageSize.x / 2, 3)),\(formatFixed(timeline.stageSize.y / 2, 3)),0]},\
        "a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"ao":0,\
        "shapes":[{"ty":"gr","nm":"stage","it":[{"ty":"rc","nm":"box","d":1,"s":{"a":0,"k":[\(w),\(h)]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0}},\
        {"ty":"fl","nm":"fill","c":{"a":0,"k":[\(unit(bg.r)),\(unit(bg.g)),\(unit(bg.b)),1]},"o":{"a":0,"k":\(formatFixed(max(0, min(1, bg.a)) * 100, 3))},"r":1},\
        \(ChannelBuilder.identityGroupTransform)]}],"ip":0,"op":\(op),"st":0,"bm":0}
        """)
        return """
        {"v":"5.7.4","fr":\(fps),"ip":0,"op":\(op),"w":\(w),"h":\(h),"nm":"anim","ddd":0,"assets":[],"markers":[],"layers":[
        \(layers.joined(separator: ",\n"))
        ]}

        """
    }

    /// A 0...255 channel as 0...1.
    static func unit(_ c: Double) -> String { formatFixed(max(0, min(255, c)) / 255, 5) }
}

/// Builds one shape layer's animated properties from the history.
struct ChannelBuilder {
    let timeline: Timeline
    let shape: ShapeID
    let fps: Int

    /// One stretch of a channel: a held value, an exact cubic-Bézier tween, or samples.
    enum Stretch {
        case hold(Time, [Double])
        case bezier(start: Time, end: Time, from: [Double], to: [Double], handles: (Double, Double, Double, Double))
        case sampled(Time, Time)
    }

    /// A value's numbers as Lottie wants them.
    typealias Mapping = (Value) -> [Double]

    init(timeline: Timeline, shape: ShapeID, fps: Int) {
        self.timeline = timeline
        self.shape = shape
        self.fps = fps
    }

    static let identityGroupTransform = groupTransform(opacity: "{\"a\":0,\"k\":100}")

    /// A group transform that moves nothing, with this opacity property.
    static func groupTransform(opacity: String) -> String {
        "{\"ty\":\"tr\",\"p\":{\"a\":0,\"k\":[0,0]},\"a\":{\"a\":0,\"k\":[0,0]},\"s\":{\"a\":0,\"k\":[100,100]},\"r\":{\"a\":0,\"k\":0},\"o\":\(opacity)}"
    }

    /// The group transform: identity, or with its opacity switched by hold keyframes (100
    /// where the shape is visible at a frame, 0 elsewhere).
    func groupTransform(_ visible: [Bool]?) -> String {
        guard let visible, Set(visible).count > 1 else {
            return visible?.first == false ? Self.groupTransform(opacity: "{\"a\":0,\"k\":0}") : Self.identityGroupTransform
        }
        var keys: [String] = []
        for k in visible.indices where k == 0 || visible[k] != visible[k - 1] {
            keys.append("{\"t\":\(k),\"s\":[\(visible[k] ? 100 : 0)],\"h\":1}")
        }
        return Self.groupTransform(opacity: "{\"a\":1,\"k\":[\(keys.joined(separator: ","))]}")
    }

    /// The layer of a rect, circle or text.
    mutating func layer(_ info: Timeline.ShapeInfo, index: Int, outPoint: Int, visibility: [Bool]? = nil) -> String {
        let start = firstTime()
        let ip = formatFixed(start.seconds * Double(fps), 4)
        let position = positionChannel()
        let scale = channel(.scale) { v in let p = v.framePoint ?? Point(1, 1); return [p.x * 100, p.y * 100] }
        let rotation = channel(.rotation) { [$0.frameNumber ?? 0] }
        let opacity = channel(.alpha) { [max(0, min(1, $0.frameNumber ?? 1)) * 100] }
        let color = channel(.color) { v in let c = v.frameColor ?? Color(r: 0, g: 0, b: 0); return [c.r, c.g, c.b].map { max(0, min(255, $0)) / 255 } + [1] }
        let fillOpacity = channel(.color) { v in [max(0, min(1, v.frameColor?.a ?? 1)) * 100] }
        let fill = "{\"ty\":\"fl\",\"nm\":\"fill\",\"c\":\(color),\"o\":\(fillOpacity),\"r\":1}"
        let geometry: String
        if info.kind == .text, let face = StageText.face {
            // The strings' groups carry their own fills.
            geometry = textGroups(face: face, fill: fill)
        } else if info.kind == .circle {
            let size = channel(.radius) { v in let r = abs(v.frameNumber ?? 0); return [2 * r, 2 * r] }
            geometry = "{\"ty\":\"el\",\"nm\":\"circle\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]}}"
        } else {
            let size = channel(.size) { v in let p = v.framePoint ?? .zero; return [abs(p.x), abs(p.y)] }
            geometry = "{\"ty\":\"rc\",\"nm\":\"rect\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]},\"r\":\(cornerChannel())}"
        }
        return """
        {"ddd":0,"ind":\(index),"ty":4,"nm":\(jsonString(info.name)),"sr":1,\
        "ks":{"o":\(opacity),"r":\(rotation),"p":\(position),"a":{"a":0,"k":[0,0,0]},"s":\(scale)},"ao":0,\
        "shapes":[{"ty":"gr","nm":\(jsonString(info.name)),"it":[\(geometry.isEmpty ? "" : geometry + ",")\
        \(info.kind == .text ? "" : fill + ",")\(groupTransform(visibility))]}],\
        "ip":\(ip),"op":\(outPoint),"st":0,"bm":0}
        """
    }

    // MARK: - Channels

    /// The history key of a built-in property.
    func key(_ p: BuiltinProperty) -> PropertyKey { PropertyKey(shape, p.id) }

    /// When the shape was declared.
    func firstTime() -> Time { timeline.created(shape) }

    /// The value of a built-in property at `t`.
    func value(_ p: BuiltinProperty, _ t: Time) -> Value? { timeline.value(shape, p.id, at: t) }

    /// Whether a property never changes.
    func isConstant(_ p: BuiltinProperty) -> Bool {
        let pieces = timeline.pieces(of: key(p))
        let values = pieces.compactMap { piece -> Value? in if case .constant(let v) = piece.source { return v } else { return nil } }
        return values.count == pieces.count && Set(values).count <= 1
    }

    /// A property's channel, mapped to Lottie numbers (the mapping must be affine per
    /// component so that Bézier keyframes stay exact).
    func channel(_ p: BuiltinProperty, _ map: @escaping Mapping) -> String {
        animated(stretches(p, map), sample: { t in value(p, t).map(map) ?? [] })
    }

    /// Position: center plus offset. Exact keyframes follow whichever of the two moves; when
    /// both do, the sum is baked.
    func positionChannel() -> String {
        let sum: (Time) -> [Double] = { t in
            let c = value(.center, t)?.framePoint ?? .zero, o = value(.offset, t)?.framePoint ?? .zero
            return [c.x + o.x, c.y + o.y, 0]
        }
        let start = firstTime()
        if isConstant(.offset) {
            let o = value(.offset, start)?.framePoint ?? .zero
            return animated(stretches(.center) { v in let c = v.framePoint ?? .zero; return [c.x + o.x, c.y + o.y, 0] }, sample: sum)
        }
        if isConstant(.center) {
            let c = value(.center, start)?.framePoint ?? .zero
            return animated(stretches(.offset) { v in let o = v.framePoint ?? .zero; return [c.x + o.x, c.y + o.y, 0] }, sample: sum)
        }
        return animated([.sampled(start, timeline.end)], sample: sum)
    }

    /// Corner radius, clamped to half the shorter side: exact while no clamp is in play.
    func cornerChannel() -> String {
        let clamped: (Time) -> [Double] = { t in
            let s = value(.size, t)?.framePoint ?? .zero, r = value(.radius, t)?.frameNumber ?? 0
            return [max(0, min(r, min(abs(s.x), abs(s.y)) / 2))]
        }
        let sizes = sampleTimes(firstTime(), timeline.end, closing: true).map { value(.size, $0)?.framePoint ?? .zero }
        let radii = sampleTimes(firstTime(), timeline.end, closing: true).map { value(.radius, $0)?.frameNumber ?? 0 }
        let limit = sizes.map { min(abs($0.x), abs($0.y)) / 2 }.min() ?? 0
        if isConstant(.size), (radii.max() ?? 0) <= limit, (radii.min() ?? 0) >= 0 {
            return animated(stretches(.radius) { [$0.frameNumber ?? 0] }, sample: clamped)
        }
        return animated([.sampled(firstTime(), timeline.end)], sample: clamped)
    }

    /// The history of a property as stretches.
    func stretches(_ p: BuiltinProperty, _ map: Mapping) -> [Stretch] {
        let pieces = timeline.pieces(of: key(p))
        var out: [Stretch] = []
        for (i, piece) in pieces.enumerated() {
            let end = i + 1 < pieces.count ? pieces[i + 1].start : max(timeline.end, piece.start)
            switch piece.source {
            case .constant(let v):
                out.append(.hold(piece.start, map(v)))
            case .track(let m):
                if let b = bezier(m, from: piece.start, to: end, map) {
                    out += b
                } else {
                    out.append(.sampled(piece.start, end))
                }
            case .replay:
                out.append(.sampled(piece.start, end))
            }
        }
        return out
    }

    /// A tween piece as exact Bézier keyframes, or nil if it is not one cubic-Bézier tween
    /// played once forwards and seen whole.
    func bezier(_ tr: Timeline.TrackPiece, from start: Time, to end: Time, _ map: Mapping) -> [Stretch]? {
        let clock = tr.clock
        guard let (timing, easing) = tr.tween, clock.rate > 0,
              timing.iterations == 1, timing.iterationStart == 0, timing.direction == .normal,
              let active = timing.activeDuration else { return nil }
        guard tr.isStraight else { return nil }
        let handles: (Double, Double, Double, Double)
        switch easing {
        case .linear: handles = (0, 0, 1, 1)
        case .cubicBezier(let a, let b, let c, let d): handles = (a, b, c, d)
        default: return nil
        }
        // The active interval in global time.
        guard let begin = clock.inverse(tr.begin), let finish = clock.inverse(tr.begin + active), begin >= start, finish <= end else {
            return nil
        }
        var out: [Stretch] = []
        if begin > start { out.append(.hold(start, map(tr.from))) }
        out.append(.bezier(start: begin, end: finish, from: map(tr.from), to: map(tr.to), handles: handles))
        return out
    }

    // MARK: - Keyframes

    /// Frame times strictly inside (a, b), plus a itself; with `closing`, b too.
    func sampleTimes(_ a: Time, _ b: Time, closing: Bool = false) -> [Time] {
        var out = [a]
        var k = Int64((a.seconds * Double(fps)).rounded(.down)) + 1
        while true {
            let t = FrameGrid(fps: fps).time(ofFrame: k)
            if t >= b { break }
            if t > a { out.append(t) }
            k += 1
        }
        if closing && b > a { out.append(b) }
        return out
    }

    /// A Lottie property from stretches: static when nothing changes, else keyframes.
    func animated(_ stretches: [Stretch], sample: (Time) -> [Double]) -> String {
        // (time in frames, value, out/in handles, hold)
        var keys: [(t: Double, v: [Double], h: (Double, Double, Double, Double)?, hold: Bool)] = []
        func add(_ t: Time, _ v: [Double], _ h: (Double, Double, Double, Double)?, hold: Bool) {
            let f = t.seconds * Double(fps)
            if let last = keys.last, f <= last.t + 1e-9 { keys.removeLast() }
            keys.append((f, v, h, hold))
        }
        for s in stretches {
            switch s {
            case .hold(let t, let v): add(t, v, nil, hold: true)
            case .bezier(let a, let b, let from, let to, let h):
                add(a, from, h, hold: false)
                add(b, to, nil, hold: true)
            case .sampled(let a, let b):
                for t in sampleTimes(a, b) { add(t, sample(t), (0, 0, 1, 1), hold: false) }
                if b > a { add(b, sample(b), nil, hold: true) }
            }
        }
        // Drop repeats: a held key followed by another held key of the same value adds nothing.
        // (A key that starts a motion stays: it carries the motion's handles.)
        var compact: [(t: Double, v: [Double], h: (Double, Double, Double, Double)?, hold: Bool)] = []
        for k in keys {
            if let last = compact.last, last.hold, k.hold, last.v == k.v { continue }
            compact.append(k)
        }
        guard compact.count > 1 else {
            // A static scalar is a bare number; vectors stay arrays.
            let v = compact.first?.v ?? sample(.zero)
            return "{\"a\":0,\"k\":\(v.count == 1 ? formatFixed(v[0], 4) : vector(v))}"
        }
        var items: [String] = []
        for (i, k) in compact.enumerated() {
            var item = "{\"t\":\(formatFixed(k.t, 4)),\"s\":\(vector(k.v))"
            if i + 1 < compact.count {
                if k.hold {
                    item += ",\"h\":1"
                } else {
                    let h = k.h ?? (0, 0, 1, 1)
                    item += ",\"o\":{\"x\":[\(formatFixed(h.0, 6))],\"y\":[\(formatFixed(h.1, 6))]}"
                    item += ",\"i\":{\"x\":[\(formatFixed(h.2, 6))],\"y\":[\(formatFixed(h.3, 6))]}"
                }
            }
            items.append(item + "}")
        }
        return "{\"a\":1,\"k\":[" + items.joined(separator: ",") + "]}"
    }

    /// `[1,2.5]`.
    func vector(_ v: [Double]) -> String { "[" + v.map { formatFixed($0, 4) }.joined(separator: ",") + "]" }
}
