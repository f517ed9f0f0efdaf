// LottieGlyphs: a text whose glyphs are set or animated (`title.glyphs`, Grammar.md §4.12) in
// the Lottie export, drawn glyph by glyph as the PNG frames, the player and the SVG draw it.
//
// Each laid-out glyph of such a text is its own group (`gr`) inside the string's group of the
// text's layer (LottieText.swift), with its outline, its own fill and a group transform: a
// group, not a layer, because a Lottie group transform has everything a glyph needs (position,
// anchor, rotation, scale, opacity) and nests under the string's group, whose scale is the font
// size, and under the layer's transform, which stays the whole text's; separate layers would
// have to repeat the text's transform and visibility and multiply its opacity into their own.
// StageText turns and scales a glyph about the centre of its advance box and then moves it by
// its offset, in layout units at the text's font size: translate(centre + offset) · rotate ·
// scale · translate(−centre), which is a Lottie transform with anchor `a` = the centre and
// position `p` = the centre + the offset, both at the layout's reference size (the offset
// × 100 / font). Its opacity is the glyph's alpha (the layer's is the text's, the fill's the
// text colour's alpha, so they multiply as anim's do), and its fill the glyph's colour laid over
// the text's (`GlyphSnapshot.fill(over:)`).
//
// The channels are keyed by the exporter's own machinery: a channel that follows one history
// through an affine map (the offset with a constant font, the rotation, the scale, the alpha,
// a colour over a constant one by a constant alpha) keeps that history's exact keys (hold keys,
// Bézier tweens, fits); one computed from several histories that move (the offset while the
// font changes, a glyph colour fading in over the text's) is held where all of them hold and
// fitted within the channel's bound elsewhere (`combinedStretches`).
//
// A fill in a Lottie group paints the paths of the groups before it too, so with glyph groups
// the string's group has no fill of its own: the glyphs that never change are runs of paths
// grouped under the text's fill. Groups are listed top first, the last glyph first, as anim
// paints later glyphs over earlier ones.

extension ChannelBuilder {
    /// A glyph's properties (Grammar.md §4.12).
    static let glyphProperties: [BuiltinProperty] = [.offset, .rotation, .scale, .alpha, .color]

    /// This text shape's glyph shapes by character index (made consecutively, in index order)
    /// when at least one of them is set or animated; nil otherwise (the text is drawn whole).
    func animatedGlyphShapes() -> [ShapeID]? {
        let owners = timeline.glyphOwners
        var out: [ShapeID] = [], moved = false
        for info in timeline.shapes where info.kind == .glyph && owners[Int(info.id.index)] == Int(shape.index) {
            out.append(info.id)
            if !moved { moved = ChannelBuilder(timeline: timeline, shape: info.id, fps: fps).isMovedGlyph() }
        }
        return moved ? out : nil
    }

    /// Whether this glyph shape is ever set or animated: a piece of its history that is not
    /// its default (a glyph's history starts with its declared defaults when it is made).
    func isMovedGlyph() -> Bool {
        Self.glyphProperties.contains { p in
            let rest = p.defaultValue(for: .glyph)
            return timeline.pieces(of: key(p)).contains { piece in
                if case .constant(let v) = piece.source { return v != rest }
                return true
            }
        }
    }

    /// A glyph's value at `t`: its default before it is made or set.
    func glyphValue(_ p: BuiltinProperty, _ t: Time) -> Value {
        value(p, t) ?? p.defaultValue(for: .glyph)
    }

    /// A glyph property's history as stretches from `start` (its text's declaration), held at
    /// its default until its first piece.
    func glyphStretches(_ p: BuiltinProperty, from start: Time, _ map: Mapping) -> [Stretch] {
        var out = stretches(p, map)
        if let first = timeline.pieces(of: key(p)).first?.start, first <= start { return out }
        out.insert(.hold(start, map(p.defaultValue(for: .glyph))), at: 0)
        return out
    }

    /// The values a property holds from `start` on when it only holds (constant pieces, and a
    /// glyph's default before its first piece); nil if a piece moves it.
    func heldValues(_ p: BuiltinProperty, from start: Time) -> [Value]? {
        let pieces = timeline.pieces(of: key(p))
        var out: [Value] = []
        if shapeKind == .glyph, pieces.first.map({ $0.start > start }) ?? true { out.append(p.defaultValue(for: .glyph)) }
        for piece in pieces {
            guard case .constant(let v) = piece.source else { return nil }
            if !out.contains(v) { out.append(v) }
        }
        return out
    }

    /// Whether a property keeps one value from `start` on.
    func isHeld(_ p: BuiltinProperty, from start: Time) -> Bool { heldValues(p, from: start).map { $0.count <= 1 } ?? false }

    /// This shape's kind.
    var shapeKind: ShapeKind { timeline.shapes[Int(shape.index)].kind }

    /// The stretches of a channel computed from several properties' histories (`inputs`, each
    /// with its shape's builder) from `start` on: held where every one of them holds a constant,
    /// fitted elsewhere (a fitted stretch that meets the next without a jump is one fit).
    func combinedStretches(_ inputs: [(ChannelBuilder, BuiltinProperty)], from start: Time,
                           sample: (Time) -> [Double]) -> [Stretch] {
        let histories = inputs.map { b, p in b.timeline.pieces(of: b.key(p)) }
        var cuts = [start]
        for pieces in histories { cuts += pieces.map(\.start).filter { $0 > start } }
        cuts = Array(Set(cuts)).sorted()
        var out: [Stretch] = []
        for (i, a) in cuts.enumerated() {
            let b = i + 1 < cuts.count ? cuts[i + 1] : max(timeline.end, a)
            let held = histories.allSatisfy { pieces in
                guard let piece = pieces.last(where: { $0.start <= a }) else { return true }
                if case .constant = piece.source { return true }
                return false
            }
            if held {
                out.append(.hold(a, sample(a)))
            } else if case .fitted(let s, let e) = out.last, e == a,
                      zip(sample(a - Time(ticks: 1)), sample(a)).allSatisfy({ abs($0 - $1) <= 1e-4 }) {
                out[out.count - 1] = .fitted(s, b)
            } else {
                out.append(.fitted(a, b))
            }
        }
        return out
    }

    /// The glyph groups of one string's layout (see the header): `text` is the string laid
    /// out, `central` the baseline's shift, `glyphs` the text's glyph shapes by character.
    func glyphGroups(_ layout: TextLayout, text: String, central: Double, glyphs: [ShapeID],
                     fill: String, fillOpacity: String, textGradient: String? = nil) -> String {
        let owner = StageText.characterIndices(text)
        let start = firstTime()
        // The offset is in layout units at the font size, the group's at the reference size.
        // Bounds: 0.25 of those (and at most 0.25 px: 25 / font above 100 px fonts), and for
        // scale 0.25 px at a distance of the largest font size from the glyph's centre.
        let fonts = sampleTimes(start, timeline.end, closing: true).map { max(0, value(.font, $0)?.frameNumber ?? 16) }
        let maxFont = max(1, fonts.max() ?? 16)
        let position = LottieChannelFormat(tolerance: min(0.25, 0.25 * Self.textReferenceSize / maxFont))
        let scale = LottieChannelFormat(tolerance: 25 / maxFont)
        let fontHeld = isHeld(.font, from: start)
        func perFont(_ t: Time) -> Double {
            let f = max(0, value(.font, t)?.frameNumber ?? 16)
            return f > 0 ? Self.textReferenceSize / f : 0
        }
        let k0 = perFont(start)
        let textColourHeld = isHeld(.color, from: start)
        let black = Color(r: 0, g: 0, b: 0)
        func mixed(_ glyph: Value, over text: Value) -> [Double] {
            var g = GlyphSnapshot()
            g.color = glyph.frameColor ?? Color(r: 0, g: 0, b: 0, a: 0)
            let c = g.fill(over: text.frameColor ?? black)
            return [c.r, c.g, c.b].map { max(0, min(255, $0)) / 255 } + [1]
        }

        var groups: [String] = []
        var run: [String] = [], runFirst = 0, runLast = 0
        func closeRun() {
            guard !run.isEmpty else { return }
            let name = runFirst == runLast ? "glyph \(runFirst)" : "glyphs \(runFirst)-\(runLast)"
            groups.append("{\"ty\":\"gr\",\"nm\":\(jsonString(name)),\"it\":[\(run.joined(separator: ",")),\(fill),\(Self.identityGroupTransform)]}")
            run = []
        }
        for (n, g) in layout.glyphs.enumerated() {
            let paths = g.outline.transformed(by: .translation(g.origin.x, g.origin.y + central)).contours.compactMap(Self.path)
            guard !paths.isEmpty else { continue }
            let glyph = n < owner.count && owner[n] < glyphs.count ? ChannelBuilder(timeline: timeline, shape: glyphs[owner[n]], fps: fps) : nil
            guard let glyph, glyph.isMovedGlyph() else {
                // Drawn as the plain text is, in a run with its unchanged neighbours.
                if run.isEmpty { runFirst = n }
                run += paths
                runLast = n
                continue
            }
            closeRun()
            let c = Point(g.box.center.x, g.box.center.y + central)
            func offset(_ v: Value, _ k: Double) -> [Double] { let o = v.framePoint ?? .zero; return [c.x + o.x * k, c.y + o.y * k] }
            let p: String
            if fontHeld {
                p = animated(glyph.glyphStretches(.offset, from: start) { offset($0, k0) }, format: position,
                             sample: { t in offset(glyph.glyphValue(.offset, t), k0) })
            } else {
                let sample: (Time) -> [Double] = { t in offset(glyph.glyphValue(.offset, t), perFont(t)) }
                p = animated(combinedStretches([(glyph, .offset), (self, .font)], from: start, sample: sample), format: position, sample: sample)
            }
            let r = glyph.glyphChannel(.rotation, from: start, Self.degrees) { [$0.frameNumber ?? 0] }
            let s = glyph.glyphChannel(.scale, from: start, scale) { v in let q = v.framePoint ?? Point(1, 1); return [q.x * 100, q.y * 100] }
            let o = glyph.glyphChannel(.alpha, from: start, Self.percent) { [max(0, min(1, $0.frameNumber ?? 1)) * 100] }
            // The glyph's colour over the text's: affine in whichever moves while the other and
            // the glyph colour's alpha hold, else computed from both.
            let colour: String
            let glyphAlphas = glyph.colourAlphas(from: start)
            if textColourHeld, let alphas = glyphAlphas, alphas.count <= 1 {
                let base = value(.color, start) ?? .color(black)
                colour = glyph.glyphChannel(.color, from: start, Self.colour) { mixed($0, over: base) }
            } else if glyph.isHeld(.color, from: start) {
                let over = glyph.glyphValue(.color, start)
                colour = animated(stretches(.color) { mixed(over, over: $0) }, format: Self.colour,
                                  sample: { t in mixed(over, over: value(.color, t) ?? .color(black)) })
            } else {
                let sample: (Time) -> [Double] = { t in mixed(glyph.glyphValue(.color, t), over: value(.color, t) ?? .color(black)) }
                colour = animated(combinedStretches([(glyph, .color), (self, .color)], from: start, sample: sample),
                                  format: Self.colour, sample: sample)
            }
            let anchor = "{\"a\":0,\"k\":\(vector([c.x, c.y], Self.pixels))}"
            let transform = "{\"ty\":\"tr\",\"p\":\(p),\"a\":\(anchor),\"s\":\(s),\"r\":\(r),\"o\":\(o)}"
            // A glyph whose own colour is never set shows its text's gradient (§4.11): the group's
            // coordinates are the string's at rest, so the text's box serves it.
            let fillItem = textGradient.flatMap { glyphAlphas == [0] ? $0 : nil }
                ?? "{\"ty\":\"fl\",\"nm\":\"fill\",\"c\":\(colour),\"o\":\(fillOpacity),\"r\":1}"
            groups.append("{\"ty\":\"gr\",\"nm\":\(jsonString("glyph \(n)")),\"it\":[\(paths.joined(separator: ",")),\(fillItem),\(transform)]}")
        }
        closeRun()
        // Top first: anim paints later glyphs over earlier ones.
        return groups.reversed().joined(separator: ",")
    }

    /// A glyph property's channel from `start` on, its default held until its first piece.
    func glyphChannel(_ p: BuiltinProperty, from start: Time, _ format: LottieChannelFormat, _ map: @escaping Mapping) -> String {
        animated(glyphStretches(p, from: start, map), format: format, sample: { t in map(glyphValue(p, t)) })
    }

    /// The alphas a glyph's colour takes (its default's, each constant's, each tween's ends);
    /// nil when a piece is not a straight tween or a constant (a spring, a keyframe list, a replay).
    func colourAlphas(from start: Time) -> [Double]? {
        let pieces = timeline.pieces(of: key(.color))
        var out: [Double] = []
        func add(_ v: Value) { let a = v.frameColor?.a ?? 0; if !out.contains(a) { out.append(a) } }
        if pieces.first.map({ $0.start > start }) ?? true { add(BuiltinProperty.color.defaultValue(for: .glyph)) }
        for piece in pieces {
            switch piece.source {
            case .constant(let v): add(v)
            case .track(let m) where m.isStraight && m.tween != nil: add(m.from); add(m.to)
            default: return nil
            }
        }
        return out
    }
}
