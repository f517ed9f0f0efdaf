// LottieExporter: a run as a Lottie (Bodymovin 5) document — one shape layer per shape with its
// fill and stroke (outlines and strokes: LottieOutline.swift), and keyframes for position, scale, rotation, opacity, size, corner radius and
// colour. Keyframes come straight from the property history (`Timeline.pieces(of:)`): a tween with a cubic-Bézier
// easing (CSS `ease*`, `cubic-bezier`, `linear`) played once forwards becomes two keyframes
// with the same Bézier handles, so a Lottie player eases it exactly as anim does; a `steps()`
// tween becomes hold keyframes, one per step; anything else (springs, Penner curves, linear(),
// repeats, keyframe lists, paths, replays) becomes cubic keyframes fitted within each channel's
// bound at every instant (LottieFit.swift). A jump (a `set`, a new start value) is a hold keyframe.
//
// Lottie cannot reorder layers, so when z-order changes each stacking position holds a copy
// of every shape that visits it, shown only then. Text shapes are glyph outlines
// (LottieText.swift), not Lottie text layers, which need font assets every player handles
// differently, each glyph a group of its own where `title.glyphs` moves it (LottieGlyphs.swift);
// with no font installed they are left out. An anchor is the layer's anchor point
// (`anchoredPosition`). Drop shadows are left out, with a warning (`shadowedShapes`).

/// Exports Lottie documents.
public enum LottieExporter {
    /// The shapes whose line caps or line joins change during the run: Lottie's stroke
    /// (`lc`, `lj`) does not animate them, so the export draws each with its caps and joins
    /// at its declaration. Names, for the command's warning.
    public static func leftOut(_ timeline: Timeline) -> [String] {
        timeline.shapes.filter { info in
            [BuiltinProperty.lineCap, .lineJoin].contains { p in
                let pieces = timeline.pieces(of: PropertyKey(info.id, p.id))
                let values = pieces.compactMap { piece -> Value? in if case .constant(let v) = piece.source { return v } else { return nil } }
                return values.count != pieces.count || Set(values).count > 1
            }
        }.map(\.name)
    }

    /// The translucent shapes (an alpha below 1 at some time) with both a stroke and a fill:
    /// rlottie and lottie-web's canvas renderer show their fill through the inner half of
    /// the stroke (see `ChannelBuilder.layers`). Names, for the command's warning.
    public static func translucentStrokes(_ timeline: Timeline) -> [String] {
        timeline.shapes.filter { info in
            guard info.kind != .text, info.kind != .line, info.kind != .glyph else { return false }
            let b = ChannelBuilder(timeline: timeline, shape: info.id, fps: 60)
            return b.hasStroke() && !b.isOpaque() && !b.isUnfilled()
        }.map(\.name)
    }

    /// The shapes the Lottie export paints with their gradient's first colour, by name: a fill
    /// or stroke that changes gradient function or stop count during the run (a Lottie gradient
    /// fill or stroke keeps its stop count). A warning names them.
    public static func gradientFills(_ timeline: Timeline, fps: Int) -> [String] {
        timeline.shapes.filter { info in
            let b = ChannelBuilder(timeline: timeline, shape: info.id, fps: fps)
            if let (_, uniform) = b.gradientSamples(stroke: true), !uniform { return true }
            guard let (_, uniform) = b.gradientSamples() else { return false }
            return !uniform || info.kind == .image
        }.map(\.name)
    }

    /// The shapes with a radial gradient over a box that is not square at some frame: Lottie's
    /// radial gradients are circles, so the export draws CSS's ellipse as the circle of its x
    /// radius. Names, for the command's warning.
    public static func ellipticalGradients(_ timeline: Timeline, fps: Int) -> [String] {
        timeline.shapes.filter { info in
            let b = ChannelBuilder(timeline: timeline, shape: info.id, fps: fps)
            return b.sampleTimes(b.firstTime(), timeline.end, closing: true).contains { t in
                let s = b.snapshot(t)
                guard s.gradient?.form == .radial else { return false }
                switch info.kind {
                case .circle: return false
                case .line, .polygon, .polyline, .path: return abs(abs(s.anchorBox.x) - abs(s.anchorBox.y)) > 0.01
                default: return abs(abs(s.size.x) - abs(s.size.y)) > 0.01
                }
            }
        }.map(\.name)
    }

    /// The image shapes the export leaves out (LottieImage: when some shape's `z` changes), by
    /// name, for the command's warning.
    public static func leftOutImages(_ timeline: Timeline, fps: Int) -> [String] {
        let exported = exportedImages(timeline, fps: fps)
        return timeline.shapes.filter { $0.kind == .image && !exported.contains($0.id) }.map(\.name)
    }

    /// The Lottie JSON of a run; `fps` is the document's frame rate and the baking rate.
    public static func export(_ timeline: Timeline, fps: Int) -> String {
        let grid = FrameGrid(fps: fps)
        let frames = timeline.frameRange(on: grid).map { grid.time(ofFrame: $0) }
        let op = frames.count  // out point: one past the last frame
        let w = formatFixed(timeline.stageSize.x, 3), h = formatFixed(timeline.stageSize.y, 3)
        var layers: [String] = []
        // The paint order at every frame (by z, then declaration); text needs a font.
        let images = exportedImages(timeline, fps: fps)
        // A glyph is not a layer: its text's layer draws it (LottieGlyphs.swift).
        let drawn = timeline.shapes.filter { $0.kind != .glyph && ($0.kind != .text || StageText.face != nil)
            && ($0.kind != .image || images.contains($0.id)) }.map(\.id)
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
                if images.contains(id), case .success(let asset) = StageImages.load(timeline.imageFile(of: id)) {
                    // One paint order throughout (exportedImages): no visibility to switch.
                    layers += builder.imageLayers(timeline.shapes[Int(id.index)], index: layers.count + 1, outPoint: op,
                                                  pixels: (asset.width, asset.height))
                    continue
                }
                let visible = changes ? orders.map { $0[slot] == id } : nil
                layers += builder.layers(timeline.shapes[Int(id.index)], index: layers.count + 1, outPoint: op, visibility: visible)
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
        {"v":"5.7.4","fr":\(fps),"ip":0,"op":\(op),"w":\(w),"h":\(h),"nm":"anim","ddd":0,"assets":[\(images.compactMap { imageAsset(timeline, $0) }.joined(separator: ","))],"markers":[],"layers":[
        \(layers.joined(separator: ",\n"))
        ]}

        """
    }

    /// The shapes that cast a drop shadow at some time (a shadow-offset or shadow-blur other
    /// than 0 declared or set, or tweened), which the export leaves out: Lottie's drop-shadow
    /// effect (ty 25) is not drawn by rlottie nor by lottie-web's canvas renderer, and
    /// lottie-web's SVG renderer cuts it to the layer's bounding box (its default filterSize;
    /// tried on Tests/Pictures-style scenes: 4–6 % of pixels off), so a document with it would
    /// not show the same picture in any player.
    public static func shadowedShapes(_ timeline: Timeline) -> [String] {
        timeline.shapes.filter { info in
            [BuiltinProperty.shadowOffset, .shadowBlur].contains { p in
                let zero = p.defaultValue(for: info.kind)
                return timeline.pieces(of: PropertyKey(info.id, p.id)).contains { piece in
                    if case .constant(let v) = piece.source { return v != zero && v != .number(0) }
                    return true
                }
            }
        }.map(\.name)
    }

    /// A 0...255 channel as 0...1, never written below its value: players truncate c × 255
    /// (lottie-web's `bm_floor`, rlottie's `uchar(255 * r)`), so 244 written as 0.95686 would
    /// be drawn as 243; 0.956863 is drawn as 244.
    static func unit(_ c: Double) -> String { ChannelBuilder.colour.string(max(0, min(255, c)) / 255) }
}

/// Builds one shape layer's animated properties from the history.
struct ChannelBuilder {
    let timeline: Timeline
    let shape: ShapeID
    let fps: Int

    /// One stretch of a channel: a held value, an exact cubic-Bézier tween, a run of held
    /// values (a `steps()` tween), or any other curve, fitted within the channel's bound.
    enum Stretch {
        case hold(Time, [Double])
        case bezier(start: Time, end: Time, from: [Double], to: [Double], handles: LottieHandles)
        case stepped(Time, Time)
        case fitted(Time, Time)
    }

    /// The bounds (LottieFit.swift) in each channel's Lottie units: 0.25 px for position, size
    /// and corner radius, 0.1 degree, 0.001 of opacity (0.1 %), a quarter of a level (of 255)
    /// per colour channel, and for scale 0.25 px at the corner of the shape's largest box.
    static let pixels = LottieChannelFormat(tolerance: 0.25)
    static let degrees = LottieChannelFormat(tolerance: 0.1)
    static let percent = LottieChannelFormat(tolerance: 0.1)
    static let colour = LottieChannelFormat(decimals: 6, roundsUp: true, tolerance: 0.25 / 255)

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

    /// The layer of a shape (a list: the z-order's copies are appended one after another).
    ///
    /// anim draws a shape's fill and stroke as one group under its alpha, so a translucent
    /// shape's fill does not show through its stroke. lottie-web's SVG renderer composites a
    /// layer so too, but rlottie and lottie-web's canvas renderer draw each item with the
    /// layer's opacity, and there the inner half of a translucent shape's stroke shows its
    /// fill through. (An inverted alpha matte of the stroke over the fill was tried: rlottie
    /// then hides the whole fill and lottie-web 5.7.4's canvas renderer draws the matte layer
    /// as a layer.) `LottieExporter.translucentStrokes` names such shapes for a warning.
    mutating func layers(_ info: Timeline.ShapeInfo, index: Int, outPoint: Int, visibility: [Bool]? = nil) -> [String] {
        let start = firstTime()
        let ip = formatFixed(start.seconds * Double(fps), 4)
        let (position, anchor) = anchoredPosition(info.kind)
        let scale = channel(.scale, LottieChannelFormat(tolerance: 25 / max(1, reach(info)))) { v in let p = v.framePoint ?? Point(1, 1); return [p.x * 100, p.y * 100] }
        let rotation = channel(.rotation, Self.degrees) { [$0.frameNumber ?? 0] }
        let opacity = channel(.alpha, Self.percent) { [max(0, min(1, $0.frameNumber ?? 1)) * 100] }
        let color = channel(.color, Self.colour) { v in let c = v.frameColor ?? Color(r: 0, g: 0, b: 0); return [c.r, c.g, c.b].map { max(0, min(255, $0)) / 255 } + [1] }
        let fillOpacity = channel(.color, Self.percent) { v in [max(0, min(1, v.frameColor?.a ?? 1)) * 100] }
        let fill = gradientFill(info.kind) ?? "{\"ty\":\"fl\",\"nm\":\"fill\",\"c\":\(color),\"o\":\(fillOpacity),\"r\":1}"
        func layer(_ n: Int, _ items: String, opacity: String) -> String {
            """
            {"ddd":0,"ind":\(index + n),"ty":4,"nm":\(jsonString(info.name)),"sr":1,\
            "ks":{"o":\(opacity),"r":\(rotation),"p":\(position),"a":\(anchor),"s":\(scale)},"ao":0,\
            "shapes":[{"ty":"gr","nm":\(jsonString(info.name)),"it":[\(items.isEmpty ? "" : items + ",")\(groupTransform(visibility))]}],\
            "ip":\(ip),"op":\(outPoint),"st":0,"bm":0}
            """
        }
        if info.kind == .text, StageText.face != nil {
            // The strings' groups carry their own fills.
            return [layer(0, textGroups(fill: fill, fillOpacity: fillOpacity), opacity: opacity)]
        }
        if info.kind.isOutlineKind || hasStroke() {
            // Fill and stroke groups (LottieOutline.swift).
            let (stroke, filled) = outlineGroups(info, fill: fill)
            return [layer(0, [stroke, filled].compactMap { $0 }.joined(separator: ","), opacity: opacity)]
        }
        let geometry: String
        if info.kind == .circle {
            let size = channel(.radius, Self.pixels) { v in let r = abs(v.frameNumber ?? 0); return [2 * r, 2 * r] }
            geometry = "{\"ty\":\"el\",\"nm\":\"circle\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]}}"
        } else {
            let size = channel(.size, Self.pixels) { v in let p = v.framePoint ?? .zero; return [abs(p.x), abs(p.y)] }
            geometry = "{\"ty\":\"rc\",\"nm\":\"rect\",\"d\":1,\"s\":\(size),\"p\":{\"a\":0,\"k\":[0,0]},\"r\":\(cornerChannel())}"
        }
        return [layer(0, geometry + "," + fill, opacity: opacity)]
    }

    /// The gradients the fill (or with `stroke`, the stroke) shows at the frames (nil where it
    /// is a colour), and whether they share one function and stop count (all a Lottie gradient
    /// fill or stroke can animate between).
    func gradientSamples(stroke: Bool = false) -> (first: GradientValue, uniform: Bool)? {
        let times = sampleTimes(firstTime(), timeline.end, closing: true)
        let gradients = times.compactMap { t in let s = snapshot(t); return stroke ? (s.hasStroke ? s.strokeGradient : nil) : s.gradient }
        guard let first = gradients.first else { return nil }
        return (first, gradients.allSatisfy { $0.form == first.form && $0.stops.count == first.stops.count })
    }

    /// A gradient fill (`gf`) for a shape whose fill is a gradient at some frame, all of one
    /// function and stop count (nil otherwise: the colour fill, and a warning,
    /// `LottieExporter.gradientFills`), over the shape's box (`gradientParts`).
    func gradientFill(_ kind: ShapeKind) -> String? {
        guard kind != .text, kind != .image, let parts = gradientParts(kind, stroke: false) else { return nil }
        return "{\"ty\":\"gf\",\"nm\":\"fill\",\"o\":{\"a\":0,\"k\":100},\"r\":1,\"bm\":0," + parts + "}"
    }

    /// The fill item of one of a text's glyph groups (LottieText), whose outlines are laid out
    /// in `box`'s coordinates: a gradient fill (`gf`) over `box` — the text's layout box, the
    /// one the rasterizer, the player and the SVG fill a gradient text over — when the text's
    /// fill is a gradient at some frame, all of one function and stop count; else `fill`.
    func glyphGroupFill(box: Box, else fill: String) -> String {
        guard let parts = gradientParts(.text, stroke: false, box: { _ in box }) else { return fill }
        return "{\"ty\":\"gf\",\"nm\":\"fill\",\"o\":{\"a\":0,\"k\":100},\"r\":1,\"bm\":0," + parts + "}"
    }

    /// The gradient parts of a `gf` or `gs` item ("g", "s", "e", "t", "h", "a") for a shape
    /// whose fill (or stroke) is a gradient at some frame, all of one function and stop count;
    /// nil otherwise. Type 1 (linear) runs from the start to the end of CSS's gradient line over
    /// the shape's box (centred on the layer's 0; or `box` at each time); type 2 (radial) is a
    /// circle at the centre through the farthest corner's ellipse's x radius — CSS's ellipse
    /// exactly when the box is square (`LottieExporter.ellipticalGradients` names the others).
    /// `g.k` holds the colour stops (position, r, g, b in 0…1) then the opacity stops
    /// (position, alpha); where the paint is a colour every stop is that colour. The stops and
    /// the points are fitted to anim's values as every channel is.
    func gradientParts(_ kind: ShapeKind, stroke: Bool, box given: ((Time) -> Box)? = nil) -> String? {
        guard let (first, uniform) = gradientSamples(stroke: stroke), uniform else { return nil }
        func gradient(_ t: Time) -> (GradientValue, Box) {
            let s = snapshot(t)
            let g = (stroke ? s.strokeGradient : s.gradient) ?? GradientValue(solid: stroke ? s.stroke : s.color, like: first)
            if let given { return (g, given(t)) }
            let box: Point
            switch kind {
            case .circle: box = Point(2 * abs(s.radius), 2 * abs(s.radius))
            case .line, .polygon, .polyline, .path: box = s.anchorBox
            default: box = Point(abs(s.size.x), abs(s.size.y))
            }
            return (g, Box(x: -box.x / 2, y: -box.y / 2, width: box.x, height: box.y))
        }
        func line(_ t: Time) -> (Point, Point) {
            let (g, b) = gradient(t)
            if g.form == .radial {
                let (c, r) = RadialGradient(try! Gradient([GradientStop(Color(r: 0, g: 0, b: 0)), GradientStop(Color(r: 0, g: 0, b: 0))]))
                    .ellipse(in: b)
                return (c, Point(c.x + r.x, c.y))
            }
            return LinearGradient.line(angle: g.angle, in: b)
        }
        let stops: (Time) -> [Double] = { t in
            let g = gradient(t).0, ps = g.resolvedPositions
            var colours: [Double] = [], alphas: [Double] = []
            for (s, p) in zip(g.stops, ps) {
                colours += [p] + [s.color.r, s.color.g, s.color.b].map { max(0, min(255, $0)) / 255 }
                alphas += [p, max(0, min(1, s.color.a))]
            }
            return colours + alphas
        }
        let paint: BuiltinProperty = stroke ? .stroke : .color
        let span: [Stretch] = isConstant(paint) && isConstant(.size) && isConstant(.radius) && isConstant(.points) && isConstant(.d)
            && (stroke ? isConstant(.strokeWidth) : true)
            ? [.hold(firstTime(), stops(firstTime()))] : [.fitted(firstTime(), timeline.end)]
        let k = animated(span, format: Self.colour, sample: stops)
        let start = animated(span.map { if case .hold(let t, _) = $0 { .hold(t, { let p = line(t).0; return [p.x, p.y] }()) } else { $0 } },
                             format: Self.pixels, sample: { t in let p = line(t).0; return [p.x, p.y] })
        let end = animated(span.map { if case .hold(let t, _) = $0 { .hold(t, { let p = line(t).1; return [p.x, p.y] }()) } else { $0 } },
                           format: Self.pixels, sample: { t in let p = line(t).1; return [p.x, p.y] })
        return "\"g\":{\"p\":\(first.stops.count),\"k\":\(k)},"
            + "\"s\":\(start),\"e\":\(end),\"t\":\(first.form == .linear ? 1 : 2),\"h\":{\"a\":0,\"k\":0},\"a\":{\"a\":0,\"k\":0}"
    }

    /// Whether the shape's alpha is 1 (or more) throughout: every piece of its history a
    /// constant of at least 1.
    func isOpaque() -> Bool {
        timeline.pieces(of: key(.alpha)).allSatisfy { piece in
            if case .constant(let v) = piece.source { return (v.frameNumber ?? 1) >= 1 } else { return false }
        }
    }

    /// Whether the fill is transparent throughout (`fill none`).
    func isUnfilled() -> Bool {
        isConstant(.color) && (value(.color, firstTime())?.frameColor?.a ?? 1) <= 0
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
    /// component so that Bézier keyframes stay exact), written and bounded as `format` says.
    func channel(_ p: BuiltinProperty, _ format: LottieChannelFormat, _ map: @escaping Mapping) -> String {
        animated(stretches(p, map), format: format, sample: { t in value(p, t).map(map) ?? [] })
    }

    /// How far the corner of the shape's box reaches from its centre at most (px): the scale
    /// channel's bound is 0.25 px there. Text, whose box the export does not measure, counts
    /// as large as the stage.
    func reach(_ info: Timeline.ShapeInfo) -> Double {
        let times = sampleTimes(firstTime(), timeline.end, closing: true)
        switch info.kind {
        case .circle: return times.map { abs(value(.radius, $0)?.frameNumber ?? 0) }.max() ?? 0
        case .rect, .ellipse, .image: return times.map { let s = value(.size, $0)?.framePoint ?? .zero; return (s.x * s.x + s.y * s.y).squareRoot() / 2 }.max() ?? 0
        // The box around a point shape's points, about whose centre its path lies.
        case .line, .polygon, .polyline, .path: return times.map { let s = snapshot($0).anchorBox; return (s.x * s.x + s.y * s.y).squareRoot() / 2 }.max() ?? 0
        case .text: let s = timeline.stageSize; return (s.x * s.x + s.y * s.y).squareRoot() / 2
        // Not a layer: its text's (the exporter leaves glyph shapes out).
        case .glyph: return 0
        }
    }

    /// Position: center plus offset. Exact keyframes follow whichever of the two moves; when
    /// both do, the sum is baked. `shift` is added throughout (a constant anchor's).
    func positionChannel(shift: Point = .zero, pointBased: Bool = false) -> String {
        let sum: (Time) -> [Double] = { t in
            let c = pointBased ? .zero : value(.center, t)?.framePoint ?? .zero, o = value(.offset, t)?.framePoint ?? .zero
            return [c.x + o.x + shift.x, c.y + o.y + shift.y, 0]
        }
        let start = firstTime()
        if pointBased {
            // The shift holds the points' box centre; only offset moves.
            return animated(stretches(.offset) { v in let o = v.framePoint ?? .zero; return [o.x + shift.x, o.y + shift.y, 0] }, format: Self.pixels, spatial: true, sample: sum)
        }
        if isConstant(.offset) {
            let o = value(.offset, start)?.framePoint ?? .zero
            return animated(stretches(.center) { v in let c = v.framePoint ?? .zero; return [c.x + o.x + shift.x, c.y + o.y + shift.y, 0] }, format: Self.pixels, spatial: true, sample: sum)
        }
        if isConstant(.center) {
            let c = value(.center, start)?.framePoint ?? .zero
            return animated(stretches(.offset) { v in let o = v.framePoint ?? .zero; return [c.x + o.x + shift.x, c.y + o.y + shift.y, 0] }, format: Self.pixels, spatial: true, sample: sum)
        }
        return animated([.fitted(start, timeline.end)], format: Self.pixels, spatial: true, sample: sum)
    }

    /// The layer's position and anchor point. Lottie turns and scales a layer about its
    /// anchor point `a` (layer coordinates, where the shape's box is centred on 0) placed at
    /// `p`; anim's anchor (a fraction of the box) is the point (anchor − ½) × box, so `a` is
    /// that and `p` the pivot: center + offset + the same. With the anchor and the box both
    /// constant the shift is constant and the position keeps its exact keyframes; otherwise
    /// both are baked.
    func anchoredPosition(_ kind: ShapeKind) -> (position: String, anchor: String) {
        let box: (Time) -> Point = { t in
            switch kind {
            case .circle: let r = abs(value(.radius, t)?.frameNumber ?? 0); return Point(2 * r, 2 * r)
            case .rect, .text, .ellipse, .image: let s = value(.size, t)?.framePoint ?? .zero; return Point(abs(s.x), abs(s.y))
            case .line, .polygon, .polyline, .path: return snapshot(t).anchorBox
            case .glyph: return .zero
            }
        }
        let shift: (Time) -> Point = { t in
            let a = value(.anchor, t)?.framePoint ?? Point(0.5, 0.5), b = box(t)
            let x = (a.x - 0.5) * b.x, y = (a.y - 0.5) * b.y
            return Point(x.isFinite ? x : 0, y.isFinite ? y : 0)
        }
        let start = firstTime()
        // A point shape's box centre is its points' (ShapeSnapshot.boxCenter): constant while
        // they are, and then the position keeps its exact keyframes from offset's.
        let pointBased = kind.isPointBased, geometryConstant = !changes(Self.geometryProperties(kind))
        let center: (Time) -> Point = { t in pointBased ? snapshot(t).boxCenter : value(.center, t)?.framePoint ?? .zero }
        let boxConstant = pointBased ? geometryConstant : kind == .circle ? isConstant(.radius) : isConstant(.size)
        if isConstant(.anchor) && (boxConstant || value(.anchor, start)?.framePoint == Point(0.5, 0.5)) && (!pointBased || geometryConstant) {
            let d = shift(start)
            let position: String
            if pointBased {
                let c = snapshot(start).boxCenter
                position = positionChannel(shift: Point(c.x + d.x, c.y + d.y), pointBased: true)
            } else {
                position = positionChannel(shift: d)
            }
            return (position, "{\"a\":0,\"k\":\(vector([d.x, d.y, 0], Self.pixels))}")
        }
        let pivot: (Time) -> [Double] = { t in
            let c = center(t), o = value(.offset, t)?.framePoint ?? .zero, d = shift(t)
            return [c.x + o.x + d.x, c.y + o.y + d.y, 0]
        }
        let all: [Stretch] = [.fitted(start, timeline.end)]
        return (animated(all, format: Self.pixels, spatial: true, sample: pivot), animated(all, format: Self.pixels) { t in let d = shift(t); return [d.x, d.y, 0] })
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
            return animated(stretches(.radius) { [$0.frameNumber ?? 0] }, format: Self.pixels, sample: clamped)
        }
        return animated([.fitted(firstTime(), timeline.end)], format: Self.pixels, sample: clamped)
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
                } else if m.isStraight, let (_, easing) = m.tween, case .steps = easing {
                    out.append(.stepped(piece.start, end))
                } else {
                    fitted(piece.start, end)
                }
            case .replay:
                fitted(piece.start, end)
            }
        }
        return out

        // Fitted pieces that meet without a jump are one curve to the fit: a spring retargeted
        // at every frame (`on change`) becomes a few keys, not one or more a piece.
        func fitted(_ a: Time, _ b: Time) {
            if case .fitted(let start, let end) = out.last, end == a, a > Time(ticks: Int64.min + 1),
               let before = value(p, a - Time(ticks: 1)).map(map), let at = value(p, a).map(map),
               zip(before, at).allSatisfy({ abs($0 - $1) <= 1e-4 }) {
                out[out.count - 1] = .fitted(start, b)
            } else {
                out.append(.fitted(a, b))
            }
        }
    }

    /// A tween piece as exact Bézier keyframes, or nil if it is not one cubic-Bézier tween
    /// played once forwards and seen whole.
    func bezier(_ tr: Timeline.TrackPiece, from start: Time, to end: Time, _ map: Mapping) -> [Stretch]? {
        let clock = tr.clock
        guard let (timing, easing) = tr.tween, clock.rate > 0,
              timing.iterations == 1, timing.iterationStart == 0, timing.direction == .normal,
              let active = timing.activeDuration else { return nil }
        guard tr.isStraight else { return nil }
        let handles: LottieHandles
        switch easing {
        case .linear: handles = .linear
        case .cubicBezier(let a, let b, let c, let d): handles = LottieHandles(a, b, c, d)
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
    func animated(_ stretches: [Stretch], format: LottieChannelFormat, spatial: Bool = false,
                  sample: @escaping (Time) -> [Double]) -> String {
        let compact = keyframes(stretches, format: format, spatial: spatial, sample: sample)
        guard compact.count > 1 else {
            // A static scalar is a bare number; vectors stay arrays.
            let v = compact.first?.v ?? sample(.zero)
            return "{\"a\":0,\"k\":\(v.count == 1 ? format.string(v[0]) : vector(v, format))}"
        }
        var items: [String] = []
        for (i, k) in compact.enumerated() {
            var item = "{\"t\":\(formatFixed(k.t, k.digits)),\"s\":\(vector(k.v, format))"
            if i + 1 < compact.count {
                if k.hold {
                    item += ",\"h\":1"
                } else if let (to, ti) = k.tangents, let h = k.h {
                    // A spatial key's ease is one curve (scalars, as After Effects writes it).
                    item += ",\"o\":{\"x\":\(formatFixed(h.x1, 6)),\"y\":\(formatFixed(h.y1, 6))}"
                    item += ",\"i\":{\"x\":\(formatFixed(h.x2, 6)),\"y\":\(formatFixed(h.y2, 6))}"
                    item += ",\"to\":\(vector(to, format)),\"ti\":\(vector(ti, format))"
                } else {
                    let h = k.h ?? .linear
                    item += ",\"o\":{\"x\":[\(formatFixed(h.x1, 6))],\"y\":[\(formatFixed(h.y1, 6))]}"
                    item += ",\"i\":{\"x\":[\(formatFixed(h.x2, 6))],\"y\":[\(formatFixed(h.y2, 6))]}"
                }
            }
            items.append(item + "}")
        }
        return "{\"a\":1,\"k\":[" + items.joined(separator: ",") + "]}"
    }

    /// A channel's keyframes from stretches, quantized, with repeated holds dropped.
    func keyframes(_ stretches: [Stretch], format: LottieChannelFormat, spatial: Bool = false,
                   sample: @escaping (Time) -> [Double]) -> [LottieKey] {
        var keys: [LottieKey] = []
        func add(_ k: LottieKey) {
            if let last = keys.last, k.t <= last.t + 1e-9 { keys.removeLast() }
            keys.append(LottieKey(t: k.t, digits: k.digits, v: k.v.map(format.quantized), h: k.h, hold: k.hold, tangents: k.tangents))
        }
        func add(_ t: Time, _ v: [Double], _ h: LottieHandles?, hold: Bool) {
            add(LottieKey(t: t.seconds * Double(fps), digits: 4, v: v, h: h, hold: hold))
        }
        let fitter = LottieFitter(fps: fps, format: format, sample: sample, spatial: spatial)
        for s in stretches {
            switch s {
            case .hold(let t, let v): add(t, v, nil, hold: true)
            case .bezier(let a, let b, let from, let to, let h):
                add(a, from, h, hold: false)
                add(b, to, nil, hold: true)
            case .stepped(let a, let b):
                fitter.stepped(a, b).forEach(add)
                if b > a { add(b, sample(b), nil, hold: true) }
            case .fitted(let a, let b):
                fitter.fitted(a, b).forEach(add)
                if b > a { add(b, sample(b), nil, hold: true) }
            }
        }
        // Drop repeats: a held key followed by another held key of the same value adds nothing.
        // (A key that starts a motion stays: it carries the motion's handles.)
        var compact: [LottieKey] = []
        for k in keys {
            if let last = compact.last, last.hold, k.hold, last.v == k.v { continue }
            compact.append(k)
        }
        return compact
    }

    /// `[1,2.5]`.
    func vector(_ v: [Double], _ format: LottieChannelFormat) -> String { "[" + v.map(format.string).joined(separator: ",") + "]" }
}
