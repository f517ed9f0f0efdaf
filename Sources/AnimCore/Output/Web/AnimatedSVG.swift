// AnimatedSVG: `anim render x.anim -o x.svg` — an SVG that plays by itself in a browser, with
// SMIL animations (`<animate>`, `<animateTransform>`) whose values are the run baked at the
// frame rate (BakedFrames), thinned where the motion is linear to within a hundredth of a
// pixel. It loops, holding the final frame for a second. Each shape is three nested groups
// (translate, rotate, scale) around its rect, circle or text.
//
// SMIL cannot reorder elements, so when the paint order changes (z) each stacking position
// holds a copy of every shape that visits it, shown only while it is there. Limit of the
// format: text shows the string it has at time 0.

/// Writes animated SVG.
public enum AnimatedSVG {
    /// How long the last frame is held before the animation loops (README, "See the
    /// animation"), so the end can be seen before it starts again.
    static let hold = 1.0

    /// The SVG document of a run sampled at `fps`.
    public static func render(_ timeline: Timeline, fps: Int) -> String {
        let baked = BakedFrames(timeline, fps: fps)
        let w = n(timeline.stageSize.x), h = n(timeline.stageSize.y)
        let bg = timeline.stageColor
        let last = baked.times.last?.seconds ?? 0
        let total = last + hold
        let keyTimes = baked.times.map { $0.seconds / total } + [1]
        var o = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" font-family="Helvetica, Arial, sans-serif">
        <title>anim: \(TimelineLanes.seconds(timeline.end)), then its last frame for \(formatFixed(hold, 3))s, looping</title>
        <rect width="\(w)" height="\(h)" fill="\(hexColor(bg.r, bg.g, bg.b))"/>

        """
        let animation = Animation(keyTimes: keyTimes, duration: total)
        let orders = baked.times.indices.map { baked.order(at: $0) }
        if Set(orders).count <= 1 {
            for i in orders.first ?? [] { o += shape(baked, i, animation) }
        } else {
            // SMIL cannot reorder elements, so each stacking position holds a copy of every
            // shape that ever occupies it, shown (visibility, discrete) only while it does.
            for slot in orders[0].indices {
                var seen: [Int] = []
                for order in orders where !seen.contains(order[slot]) { seen.append(order[slot]) }
                for i in seen {
                    let visible = orders.map { $0[slot] == i }
                    o += shape(baked, i, animation, visibility: visible, copy: seen.count > 1 ? slot : nil)
                }
            }
        }
        return o + "</svg>\n"
    }

    /// A discrete `visibility` animation for a shape shown only at some frames, with its
    /// initial attribute.
    static func visibility(_ visible: [Bool], _ anim: Animation) -> (String, String) {
        let initial = visible.first == false ? " visibility=\"hidden\"" : ""
        guard Set(visible).count > 1 else { return (initial, "") }
        // Keep the frames where it changes; discrete values hold until the next key time.
        var kept = [0]
        for k in visible.indices.dropFirst() where visible[k] != visible[k - 1] { kept.append(k) }
        let times = kept.map { formatFixed(anim.keyTimes[$0], 6) }
        let values = kept.map { visible[$0] ? "visible" : "hidden" }
        return (initial, "<animate attributeName=\"visibility\" calcMode=\"discrete\" values=\"\(values.joined(separator: ";"))\" "
                + "keyTimes=\"\(times.joined(separator: ";"))\" dur=\"\(formatFixed(anim.duration, 6))s\" repeatCount=\"indefinite\"/>")
    }

    /// Timing shared by every animation element.
    struct Animation {
        /// The key times (fraction of `duration`) of every frame, then 1 for the hold.
        var keyTimes: [Double]
        /// Seconds per loop.
        var duration: Double

        /// The `<animate*>` attributes for values at the kept frames.
        func attributes(_ values: [String], kept: [Int]) -> String {
            let times = kept.map { formatFixed(keyTimes[$0], 6) } + ["1"]
            let vs = kept.map { values[$0] } + [values[values.count - 1]]
            return "values=\"\(vs.joined(separator: ";"))\" keyTimes=\"\(times.joined(separator: ";"))\" dur=\"\(formatFixed(duration, 6))s\" repeatCount=\"indefinite\""
        }
    }

    /// One shape: groups for opacity and translate, rotate, scale, then the element.
    static func shape(_ baked: BakedFrames, _ i: Int, _ anim: Animation, visibility visible: [Bool]? = nil, copy: Int? = nil) -> String {
        let s = baked.shapes[i]
        typealias A = BakedFrames.Attribute
        func track(_ a: A) -> [Double] { s.tracks[a.rawValue] }
        let (hidden, toggle) = visible.map { visibility($0, anim) } ?? ("", "")
        let id = idName(s.name) + (copy.map { "-z\($0)" } ?? "")
        var o = "<g id=\"\(xmlEscaped(id))\" opacity=\"\(formatFixed(track(.op)[0], 4))\"\(hidden)>"
        o += animate("opacity", [track(.op)], anim, tolerance: 0.001) + toggle + "\n"
        o += "<g transform=\"translate(\(n(track(.x)[0])) \(n(track(.y)[0])))\">"
        o += animateTransform("translate", [track(.x), track(.y)], anim)
        o += "<g transform=\"rotate(\(n(track(.rot)[0])))\">"
        o += animateTransform("rotate", [track(.rot)], anim)
        o += "<g transform=\"scale(\(n(track(.sx)[0])) \(n(track(.sy)[0])))\">"
        o += animateTransform("scale", [track(.sx), track(.sy)], anim) + "\n"
        var fill = "fill=\"\(hexColor(track(.r)[0], track(.g)[0], track(.b)[0]))\""
        var fillAnimation = animateColor([track(.r), track(.g), track(.b)], anim)
        if s.glyphs.isEmpty, let g = gradientFill(s, id: id, anim) {
            // A gradient fill: paint servers whose stops (and line) animate; the fill names them.
            o += g.defs
            fill = g.fill
            fillAnimation = g.animation
        }
        // The anchor's shift: the element's box center relative to the pivot (the groups' origin).
        let axs = track(.ax), ays = track(.ay)
        let (filter, filterAttribute) = shadowFilter(s, id: id, anim)
        o += filter
        fill += filterAttribute
        var strokePath = ""
        if !s.geometry.isEmpty {
            // A gradient stroke: its paint servers, named by the stroke.
            let strokePaint = gradientStroke(s, id: id, anim)
            if let p = strokePaint { o += p.defs }
            let (attributes, animations, separate) = outlineAttributes(s, anim, stroke: strokePaint.map { ($0.stroke, $0.animation) })
            fill += attributes
            fillAnimation += animations
            // A dashed or trimmed stroke's pieces cast the shadow too.
            strokePath = separate.isEmpty ? "" : "<path" + filterAttribute + " " + separate.dropFirst("<path ".count)
        }
        // An ellipse and the shapes placed by points draw in a group moved by the anchor's shift.
        let shifted = (s.kind == .ellipse || s.kind.isPointBased) && (axs != [0] || ays != [0])
        if shifted {
            o += "<g transform=\"translate(\(n(axs[0])) \(n(ays[0])))\">" + animateTransform("translate", [axs, ays], anim)
        }
        switch s.kind {
        case .rect:
            let ws = track(.w), hs = track(.h), rs = track(.rad)
            let xs = combined(ws, axs) { $1 - $0 / 2 }, ys = combined(hs, ays) { $1 - $0 / 2 }
            o += "<rect x=\"\(n(xs[0]))\" y=\"\(n(ys[0]))\" width=\"\(n(ws[0]))\" height=\"\(n(hs[0]))\" rx=\"\(n(rs[0]))\" ry=\"\(n(rs[0]))\" \(fill)>"
            o += animate("x", [xs], anim) + animate("y", [ys], anim)
            o += animate("width", [ws], anim) + animate("height", [hs], anim)
            o += animate("rx", [rs], anim) + animate("ry", [rs], anim) + fillAnimation + "</rect>"
        case .image:
            // Embedded once, stretched into the box as the rasterizer draws it.
            let ws = track(.w), hs = track(.h)
            let xs = combined(ws, axs) { $1 - $0 / 2 }, ys = combined(hs, ays) { $1 - $0 / 2 }
            o += "<image x=\"\(n(xs[0]))\" y=\"\(n(ys[0]))\" width=\"\(n(ws[0]))\" height=\"\(n(hs[0]))\" preserveAspectRatio=\"none\" href=\"\(s.image)\"\(filterAttribute)>"
            o += animate("x", [xs], anim) + animate("y", [ys], anim)
            o += animate("width", [ws], anim) + animate("height", [hs], anim) + "</image>"
        case .circle:
            o += "<circle r=\"\(n(track(.rad)[0]))\"\(at("cx", axs) + at("cy", ays)) \(fill)>" + animate("r", [track(.rad)], anim)
            o += animate("cx", [axs], anim) + animate("cy", [ays], anim) + fillAnimation + "</circle>"
        case .text where !s.glyphs.isEmpty:
            // Glyph by glyph (`title.glyphs`): each laid-out glyph's outline where the rasterizer
            // places it, turned and scaled about its advance box's centre, its alpha and fill its own.
            o += "<g\(filterAttribute)>"
            for (k, g) in s.glyphs.enumerated() { o += glyph(g, s, id: id + "-glyph-\(k)", anim) }
            o += "</g>"
        case .text:
            // The font (BakedFrames.textStyle): weight, anchor and family, switched where they change.
            let styles = (s.textStyle.isEmpty ? [BakedFrames.plainTextStyle] : s.textStyle).map(textStyleParts)
            let weights = styles.map(\.weight), anchors = styles.map(\.anchor)
            let families = styles.map { $0.family.isEmpty ? StageText.families.joined(separator: ", ") : $0.family }
            var font = weights.allSatisfy({ $0 == "400" }) ? "" : " font-weight=\"\(weights[0])\""
            if styles.contains(where: { !$0.family.isEmpty }) { font += " font-family=\"\(xmlEscaped(families[0]))\"" }
            o += "<text text-anchor=\"\(anchors[0])\" dominant-baseline=\"central\"\(at("x", axs) + at("y", ays)) font-size=\"\(n(track(.font)[0]))\"\(font) \(fill)>"
            o += xmlEscaped(s.text.first ?? "") + animate("font-size", [track(.font)], anim)
            o += discrete("font-weight", weights, anim) + discrete("text-anchor", anchors, anim)
            o += discrete("font-family", families.map(xmlEscaped), anim)
            o += animate("x", [axs], anim) + animate("y", [ays], anim) + fillAnimation + "</text>"
        case .ellipse:
            let ws = track(.w), hs = track(.h)
            o += "<ellipse rx=\"\(n(ws[0] / 2))\" ry=\"\(n(hs[0] / 2))\" \(fill)>"
            o += animate("rx", [ws.map { $0 / 2 }], anim) + animate("ry", [hs.map { $0 / 2 }], anim) + fillAnimation + "</ellipse>"
        case .line, .polygon, .polyline, .path:
            let ds = s.geometry[BakedFrames.Geometry.d.rawValue]
            o += "<path d=\"\(ds[0])\" \(fill)>" + discrete("d", ds, anim) + fillAnimation + "</path>"
        // Folded into its text's frames (StageFrame.glyphs): never a baked shape.
        case .glyph: break
        }
        return o + strokePath + (shifted ? "</g>" : "") + "\n</g></g></g></g>\n"
    }

    /// One glyph of a glyphed text (BakedFrames.Glyph): translate, rotate, scale groups about
    /// its box's centre around its outline, with its opacity and fill — its colour, or where it
    /// shows the text's gradient (Glyph.gr), that gradient over the text's layout box in the
    /// glyph's coordinates (the fill switched discretely at the samples where that changes).
    static func glyph(_ g: BakedFrames.Glyph, _ text: BakedFrames.Shape, id: String, _ anim: Animation) -> String {
        typealias G = BakedFrames.GlyphAttribute
        func track(_ a: G) -> [Double] { g.tracks[a.rawValue] }
        var o = "<g transform=\"translate(\(n(track(.x)[0])) \(n(track(.y)[0])))\">" + animateTransform("translate", [track(.x), track(.y)], anim)
        o += "<g transform=\"rotate(\(n(track(.rot)[0])))\">" + animateTransform("rotate", [track(.rot)], anim)
        o += "<g transform=\"scale(\(n(track(.sx)[0])) \(n(track(.sy)[0])))\">" + animateTransform("scale", [track(.sx), track(.sy)], anim)
        var fill = "fill=\"\(hexColor(track(.r)[0], track(.g)[0], track(.b)[0]))\"", fillAnimation = animateColor([track(.r), track(.g), track(.b)], anim)
        if let p = gradientPaint(g.gr, text, colour: [track(.r), track(.g), track(.b)], id: id + "-gradient", anim) {
            o += p.defs
            let count = max(p.urls.count, g.gr.count, g.tracks.map(\.count).max() ?? 1)
            func at(_ t: [Double], _ k: Int) -> Double { t.count == 1 ? t[0] : t[k] }
            func at(_ t: [String], _ k: Int) -> String { t.count == 1 ? t[0] : t[k] }
            // Per sample: the gradient's server, or the glyph's own colour.
            let values = (0..<count).map { k in
                at(g.gr, k).isEmpty ? hexColor(at(track(.r), k), at(track(.g), k), at(track(.b), k)) : at(p.urls, k)
            }
            fill = "fill=\"\(values[0])\""
            fillAnimation = discrete("fill", values, anim)
        }
        o += "<path d=\"\(g.d[0])\" \(fill) opacity=\"\(formatFixed(track(.op)[0], 4))\">"
        o += discrete("d", g.d, anim) + fillAnimation
        o += animate("opacity", [track(.op)], anim, tolerance: 0.001) + "</path></g></g></g>"
        return o
    }

    /// An outlined shape's paint attributes and their animations: the fill's own alpha and the
    /// stroke on the element, and — when some sample's stroke is dashed or trimmed — a second
    /// path that draws the stroke's pieces as the vector layer cut them (BakedFrames.Geometry.sd),
    /// each shown (stroke-opacity) at the samples it is the stroke of.
    /// A gradient `stroke` (its attribute and animation) replaces the stroke's colour.
    static func outlineAttributes(_ s: BakedFrames.Shape, _ anim: Animation, stroke gradient: (String, String)? = nil) -> (String, String, String) {
        typealias A = BakedFrames.Attribute
        func track(_ a: A) -> [Double] { s.tracks[a.rawValue] }
        let count = s.tracks.map(\.count).max() ?? 1
        func at(_ t: [Double], _ k: Int) -> Double { t.count == 1 ? t[0] : t[k] }
        func at(_ t: [String], _ k: Int) -> String { t.count == 1 ? t[0] : t[k] }
        let sd = s.geometry[BakedFrames.Geometry.sd.rawValue], ls = s.geometry[BakedFrames.Geometry.ls.rawValue]
        var attributes = " fill-opacity=\"\(formatFixed(track(.fa)[0], 4))\""
        var animations = animate("fill-opacity", [track(.fa)], anim, tolerance: 0.001)
        let stroked = track(.sa).contains { $0 > 0 }
        guard stroked else { return (attributes, animations, "") }
        let color = gradient?.0 ?? "stroke=\"\(hexColor(track(.sr)[0], track(.sg)[0], track(.sb)[0]))\""
        let colorAnimation = gradient?.1 ?? animateColor([track(.sr), track(.sg), track(.sb)], anim, attribute: "stroke")
        let caps = (0..<max(count, ls.count)).map { String(at(ls, $0).split(separator: " ").first ?? "butt") }
        let joins = (0..<max(count, ls.count)).map { String(at(ls, $0).split(separator: " ").last ?? "miter") }
        let style = "\(color) stroke-width=\"\(n(track(.sw)[0]))\" stroke-linecap=\"\(caps[0])\" stroke-linejoin=\"\(joins[0])\""
        let styleAnimation = colorAnimation + animate("stroke-width", [track(.sw)], anim)
            + discrete("stroke-linecap", caps, anim) + discrete("stroke-linejoin", joins, anim)
        let cut = sd.contains { !$0.isEmpty }
        let samples = max(count, sd.count)
        // The element's own stroke shows where no sample is cut; the pieces where one is.
        let own = cut ? (0..<samples).map { at(sd, $0).isEmpty ? at(track(.sa), $0) : 0 } : track(.sa)
        attributes += " \(style) stroke-opacity=\"\(formatFixed(own[0], 4))\""
        animations += styleAnimation + animate("stroke-opacity", [own], anim, tolerance: 0.001)
        guard cut else { return (attributes, animations, "") }
        let pieces = (0..<samples).map { at(sd, $0).isEmpty ? 0 : at(track(.sa), $0) }
        let ds = (0..<samples).map { at(sd, $0).isEmpty ? "M 0 0" : at(sd, $0) }
        let compact = Set(ds).count == 1 ? [ds[0]] : ds
        let separate = "<path d=\"\(compact[0])\" fill=\"none\" \(style) stroke-opacity=\"\(formatFixed(pieces[0], 4))\">"
            + discrete("d", compact, anim) + styleAnimation + animate("stroke-opacity", [pieces], anim, tolerance: 0.001) + "</path>"
        return (attributes, animations, separate)
    }

    /// The gradient fill of a shape that has one at some sample (BakedFrames.Geometry.gr), or
    /// nil (`gradientPaint`). A text's spans its layout box (given after `|`).
    static func gradientFill(_ s: BakedFrames.Shape, id: String, _ anim: Animation) -> (defs: String, fill: String, animation: String)? {
        guard s.kind != .image, s.geometry.count > BakedFrames.Geometry.gr.rawValue else { return nil }
        typealias A = BakedFrames.Attribute
        guard let p = gradientPaint(s.geometry[BakedFrames.Geometry.gr.rawValue], s,
                                    colour: [s.tracks[A.r.rawValue], s.tracks[A.g.rawValue], s.tracks[A.b.rawValue]], id: id + "-gradient", anim) else { return nil }
        return (p.defs, "fill=\"\(p.urls[0])\"", discrete("fill", p.urls, anim))
    }

    /// The gradient stroke of a shape that has one at some sample (BakedFrames.Geometry.sg), or
    /// nil: as the fill's, over the same box.
    static func gradientStroke(_ s: BakedFrames.Shape, id: String, _ anim: Animation) -> (defs: String, stroke: String, animation: String)? {
        guard s.geometry.count > BakedFrames.Geometry.sg.rawValue else { return nil }
        typealias A = BakedFrames.Attribute
        guard let p = gradientPaint(s.geometry[BakedFrames.Geometry.sg.rawValue], s,
                                    colour: [s.tracks[A.sr.rawValue], s.tracks[A.sg.rawValue], s.tracks[A.sb.rawValue]], id: id + "-stroke-gradient", anim) else { return nil }
        return (p.defs, "stroke=\"\(p.urls[0])\"", discrete("stroke", p.urls, anim))
    }

    /// A gradient paint of a shape (the strings of BakedFrames.Geometry.gr or sg, or a glyph's
    /// Glyph.gr), or nil when no sample is a gradient: one paint server per gradient function and
    /// stop count the run uses, each stop's offset, colour and opacity animated, a linear
    /// gradient's line (userSpaceOnUse, CSS's line through the box's center, |w·sin θ| + |h·cos θ|
    /// long) animated with the box; a radial one is CSS's farthest-corner ellipse at the center,
    /// which in objectBoundingBox units is the circle of radius √2/2 at (0.5, 0.5) — or, over a
    /// box given after `|` (a text's layout box, which is not the `<text>`'s bounding box), the
    /// unit circle in userSpaceOnUse placed by gradientTransform `translate(c) scale(√2 · half
    /// extents)`. At samples where the paint is a colour (`colour`'s channels) the server shown
    /// paints that colour at every stop. `urls` names the server of each sample.
    static func gradientPaint(_ gr: [String], _ s: BakedFrames.Shape, colour: [[Double]], id: String,
                              _ anim: Animation) -> (defs: String, urls: [String])? {
        guard gr.contains(where: { !$0.isEmpty }) else { return nil }
        typealias A = BakedFrames.Attribute
        func track(_ a: A) -> [Double] { s.tracks[a.rawValue] }
        let count = max(s.tracks.map(\.count).max() ?? 1, gr.count)
        func at(_ t: [Double], _ k: Int) -> Double { t.count == 1 ? t[0] : t[k] }
        struct Sample { var linear: Bool; var angle: Double; var stops: [[Double]]; var box: [Double]? }
        func parse(_ text: String) -> Sample? {
            guard !text.isEmpty else { return nil }
            let boxed = text.split(separator: "|")
            let parts = boxed[0].split(separator: ";")
            let head = parts[0].split(separator: " ")
            return Sample(linear: head[0] == "L", angle: head.count > 1 ? Double(head[1]) ?? 180 : 180,
                          stops: parts.dropFirst().map { $0.split(separator: " ").map { Double($0) ?? 0 } },
                          box: boxed.count > 1 ? boxed[1].split(separator: " ").map { Double($0) ?? 0 } : nil)
        }
        let samples = (0..<count).map { parse(gr.count == 1 ? gr[0] : gr[$0]) }
        let givenBox = samples.contains { $0?.box != nil }
        struct Signature: Hashable { var linear: Bool; var stops: Int }
        var signatures: [Signature] = []
        for case let g? in samples where !signatures.contains(Signature(linear: g.linear, stops: g.stops.count)) {
            signatures.append(Signature(linear: g.linear, stops: g.stops.count))
        }
        // The server each sample shows: its own, or at a colour, the last one shown (the first before any).
        var shown = [Int](repeating: 0, count: count), last: Sample?
        var held = [Sample?](repeating: nil, count: count)
        for k in 0..<count {
            if let g = samples[k] { last = g }
            held[k] = last
        }
        let firstGradient = samples.first { $0 != nil }!!
        for k in 0..<count {
            let g = held[k] ?? firstGradient
            shown[k] = signatures.firstIndex(of: Signature(linear: g.linear, stops: g.stops.count))!
        }
        // The box of each sample in the element's user space: the one given, else BakedFrames'
        // w × h and anchor shift.
        func box(_ k: Int) -> (cx: Double, cy: Double, hw: Double, hh: Double) {
            if let b = (held[k] ?? firstGradient).box, b.count == 4 { return (b[0], b[1], b[2], b[3]) }
            switch s.kind {
            case .rect: return (at(track(.ax), k), at(track(.ay), k), at(track(.w), k) / 2, at(track(.h), k) / 2)
            case .circle: return (at(track(.ax), k), at(track(.ay), k), at(track(.rad), k), at(track(.rad), k))
            default: return (0, 0, at(track(.w), k) / 2, at(track(.h), k) / 2)
            }
        }
        func compact(_ t: [Double]) -> [Double] { Set(t).count == 1 ? [t[0]] : t }
        var defs = ""
        for (index, sig) in signatures.enumerated() {
            // Each sample's gradient of this signature: its own, a colour at every stop, or held.
            var values: [Sample] = []
            var previous = samples.first { $0.map { Signature(linear: $0.linear, stops: $0.stops.count) == sig } ?? false }!!
            for k in 0..<count {
                if let g = samples[k] {
                    if Signature(linear: g.linear, stops: g.stops.count) == sig { previous = g }
                    values.append(previous)
                } else {
                    var c = previous
                    c.stops = c.stops.map { [at(colour[0], k), at(colour[1], k), at(colour[2], k), 1, $0[4]] }
                    values.append(c)
                }
            }
            let gid = xmlEscaped(id) + "-\(index)"
            if sig.linear {
                var x1: [Double] = [], y1: [Double] = [], x2: [Double] = [], y2: [Double] = []
                for k in 0..<count {
                    let b = box(k)
                    let (p, q) = LinearGradient.line(angle: values[k].angle, in: Box(x: b.cx - b.hw, y: b.cy - b.hh, width: 2 * b.hw, height: 2 * b.hh))
                    x1.append(p.x); y1.append(p.y); x2.append(q.x); y2.append(q.y)
                }
                let (a, b, c, d) = (compact(x1), compact(y1), compact(x2), compact(y2))
                defs += "<linearGradient id=\"\(gid)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(a[0]))\" y1=\"\(n(b[0]))\" x2=\"\(n(c[0]))\" y2=\"\(n(d[0]))\">"
                defs += animate("x1", [a], anim) + animate("y1", [b], anim) + animate("x2", [c], anim) + animate("y2", [d], anim)
            } else if givenBox {
                let boxes = (0..<count).map(box)
                let cx = compact(boxes.map(\.cx)), cy = compact(boxes.map(\.cy))
                let rx = compact(boxes.map { $0.hw * 2.squareRoot() }), ry = compact(boxes.map { $0.hh * 2.squareRoot() })
                defs += "<radialGradient id=\"\(gid)\" gradientUnits=\"userSpaceOnUse\" cx=\"0\" cy=\"0\" r=\"1\" "
                    + "gradientTransform=\"translate(\(n(cx[0])) \(n(cy[0]))) scale(\(formatFixed(rx[0], 4)) \(formatFixed(ry[0], 4)))\">"
                if cx.count > 1 || cy.count > 1 || rx.count > 1 || ry.count > 1 {
                    // The translate replaces the attribute, then the scale is added after it
                    // (SMIL's additive sum): both, so that neither adds to the static value.
                    func transform(_ type: String, _ tracks: [[Double]], additive: Bool) -> String {
                        let full = tracks.map { $0.count == 1 ? Array(repeating: $0[0], count: count) : $0 }
                        let values = (0..<count).map { k in full.map { formatFixed($0[k], 4) }.joined(separator: " ") }
                        return "<animateTransform attributeName=\"gradientTransform\" type=\"\(type)\"\(additive ? " additive=\"sum\"" : "") "
                            + anim.attributes(values, kept: thin(full, tolerance: 0.001)) + "/>"
                    }
                    defs += transform("translate", [cx, cy], additive: false) + transform("scale", [rx, ry], additive: true)
                }
            } else {
                defs += "<radialGradient id=\"\(gid)\" gradientUnits=\"objectBoundingBox\" cx=\"0.5\" cy=\"0.5\" r=\"\(formatFixed(0.5.squareRoot(), 6))\">"
            }
            for j in 0..<sig.stops {
                func column(_ c: Int) -> [Double] {
                    let t = values.map { $0.stops[j][c] }
                    return Set(t).count == 1 ? [t[0]] : t
                }
                let offsets = column(4), alphas = column(3), rgb = [column(0), column(1), column(2)]
                defs += "<stop offset=\"\(formatFixed(offsets[0], 4))\" stop-color=\"\(hexColor(rgb[0][0], rgb[1][0], rgb[2][0]))\" "
                    + "stop-opacity=\"\(formatFixed(alphas[0], 4))\">"
                defs += animate("offset", [offsets], anim, tolerance: 0.0005) + animate("stop-opacity", [alphas], anim, tolerance: 0.001)
                    + animateColor(rgb, anim, attribute: "stop-color") + "</stop>"
            }
            defs += sig.linear ? "</linearGradient>" : "</radialGradient>"
        }
        return (defs, shown.map { "url(#\(xmlEscaped(id))-\($0))" })
    }

    /// A discrete `<animate>` of a string attribute (path data, a cap), or "" if it never
    /// changes: each value holds from its frame until the next change.
    static func discrete(_ attribute: String, _ values: [String], _ anim: Animation) -> String {
        guard values.count > 1, Set(values).count > 1 else { return "" }
        var kept = [0]
        for k in values.indices.dropFirst() where values[k] != values[k - 1] { kept.append(k) }
        let times = kept.map { formatFixed(anim.keyTimes[$0], 6) }
        return "<animate attributeName=\"\(attribute)\" calcMode=\"discrete\" values=\"\(kept.map { values[$0] }.joined(separator: ";"))\" "
            + "keyTimes=\"\(times.joined(separator: ";"))\" dur=\"\(formatFixed(anim.duration, 6))s\" repeatCount=\"indefinite\"/>"
    }

    /// A text sample's font string (BakedFrames.textStyle) in its parts ("" family: the stage's).
    static func textStyleParts(_ style: String) -> (weight: String, anchor: String, family: String) {
        let parts = style.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "middle", parts.count > 2 ? parts[2] : "")
    }

    /// ` name="v"` for the first value of a track, or "" when it is 0 throughout.
    static func at(_ name: String, _ track: [Double]) -> String {
        track == [0] ? "" : " \(name)=\"\(n(track[0]))\""
    }

    /// Two tracks combined sample by sample (one value when both are constant).
    static func combined(_ a: [Double], _ b: [Double], _ f: (Double, Double) -> Double) -> [Double] {
        let count = max(a.count, b.count)
        return (0..<count).map { k in f(a.count == 1 ? a[0] : a[k], b.count == 1 ? b[0] : b[k]) }
    }

    /// The drop shadow of a shape that ever casts one: a `<filter>` holding an feDropShadow in
    /// the element's own units (CSS's blur radius B as stdDeviation B/2, sRGB as CSS's shadows
    /// are), its region the box grown by the largest offset and 3σ of the run, each attribute
    /// animated; and the `filter` attribute that applies it. ("", "") when it never has one.
    static func shadowFilter(_ s: BakedFrames.Shape, id: String, _ anim: Animation) -> (String, String) {
        typealias A = BakedFrames.Attribute
        func track(_ a: A) -> [Double] { s.tracks[a.rawValue] }
        let alphas = track(.sha)
        guard alphas.contains(where: { $0 > 0 }) else { return ("", "") }
        let dx = track(.shx), dy = track(.shy), blur = track(.shblur)
        // The largest extent of the box about the pivot, whatever the frame.
        var hw = 0.0, hh = 0.0
        switch s.kind {
        case .rect, .image: hw = track(.w).max()! / 2; hh = track(.h).max()! / 2
        case .circle: hw = track(.rad).max()!; hh = hw
        case .text:
            let longest = s.text.map(\.count).max() ?? 0
            hw = track(.font).max()! * Double(longest) * 0.7 + 2; hh = track(.font).max()!
        // An ellipse's size, or the box around a point shape's points (BakedFrames writes it as w × h).
        case .ellipse, .line, .polygon, .polyline, .path: hw = track(.w).max()! / 2; hh = track(.h).max()! / 2
        // Folded into its text's frames (StageFrame.glyphs): never a baked shape.
        case .glyph: break
        }
        let ax = track(.ax).map(abs).max()!, ay = track(.ay).map(abs).max()!
        // The blur's reach, and a stroke's (miter joins reach 2 widths out at most).
        let m = 1.5 * blur.max()! + 2 + 2 * track(.sw).max()!
        let fx = -(hw + ax + m + dx.map(abs).max()!), fy = -(hh + ay + m + dy.map(abs).max()!)
        let fid = xmlEscaped(id) + "-shadow"
        var o = "<filter id=\"\(fid)\" filterUnits=\"userSpaceOnUse\" color-interpolation-filters=\"sRGB\" "
        o += "x=\"\(n(fx))\" y=\"\(n(fy))\" width=\"\(n(-2 * fx))\" height=\"\(n(-2 * fy))\">"
        o += "<feDropShadow dx=\"\(n(dx[0]))\" dy=\"\(n(dy[0]))\" stdDeviation=\"\(n(blur[0] / 2))\" "
        o += "flood-color=\"\(hexColor(track(.shr)[0], track(.shg)[0], track(.shb)[0]))\" flood-opacity=\"\(formatFixed(alphas[0], 4))\">"
        o += animate("dx", [dx], anim) + animate("dy", [dy], anim) + animate("stdDeviation", [blur.map { $0 / 2 }], anim)
        o += animate("flood-opacity", [alphas], anim, tolerance: 0.001)
        o += animateColor([track(.shr), track(.shg), track(.shb)], anim, attribute: "flood-color")
        o += "</feDropShadow></filter>"
        return (o, " filter=\"url(#\(fid))\"")
    }

    /// An `<animate>` of one numeric attribute, or "" if it never changes.
    static func animate(_ attribute: String, _ tracks: [[Double]], _ anim: Animation, tolerance: Double = 0.01) -> String {
        guard let values = joined(tracks, separator: " ") else { return "" }
        let kept = thin(tracks, tolerance: tolerance)
        return "<animate attributeName=\"\(attribute)\" \(anim.attributes(values, kept: kept))/>"
    }

    /// An `<animateTransform>` of one transform type, or "" if it never changes.
    static func animateTransform(_ type: String, _ tracks: [[Double]], _ anim: Animation) -> String {
        guard let values = joined(tracks, separator: " ") else { return "" }
        let kept = thin(tracks, tolerance: type == "scale" ? 0.0001 : 0.01)
        return "<animateTransform attributeName=\"transform\" type=\"\(type)\" \(anim.attributes(values, kept: kept))/>"
    }

    /// An `<animate>` of the fill color (or another colour attribute), or "" if it never changes.
    static func animateColor(_ rgb: [[Double]], _ anim: Animation, attribute: String = "fill") -> String {
        guard rgb.contains(where: { $0.count > 1 }) else { return "" }
        let count = rgb.map(\.count).max() ?? 1
        let full = rgb.map { $0.count == 1 ? Array(repeating: $0[0], count: count) : $0 }
        let values = (0..<count).map { hexColor(full[0][$0], full[1][$0], full[2][$0]) }
        return "<animate attributeName=\"\(attribute)\" \(anim.attributes(values, kept: thin(full, tolerance: 0.5)))/>"
    }

    /// Per-frame value strings of several components, or nil if none changes.
    static func joined(_ tracks: [[Double]], separator: String) -> [String]? {
        guard tracks.contains(where: { $0.count > 1 }) else { return nil }
        let count = tracks.map(\.count).max() ?? 1
        return (0..<count).map { k in tracks.map { n($0.count == 1 ? $0[0] : $0[k]) }.joined(separator: separator) }
    }

    /// The frames to keep so that linear interpolation between them reproduces every frame of
    /// every component within `tolerance`: a greedy pass that extends each straight run as far
    /// as it stays within tolerance.
    static func thin(_ tracks: [[Double]], tolerance: Double) -> [Int] {
        let count = tracks.map(\.count).max() ?? 1
        guard count > 2 else { return Array(0..<count) }
        func v(_ c: Int, _ k: Int) -> Double { tracks[c].count == 1 ? tracks[c][0] : tracks[c][k] }
        var kept = [0]
        var anchor = 0
        var k = 2
        while k < count {
            // Can frames anchor+1 ..< k all be dropped, with a line from anchor to k?
            var fits = true
            check: for m in (anchor + 1)..<k {
                let f = Double(m - anchor) / Double(k - anchor)
                for c in tracks.indices where abs(v(c, anchor) + (v(c, k) - v(c, anchor)) * f - v(c, m)) > tolerance {
                    fits = false
                    break check
                }
            }
            if !fits {
                anchor = k - 1
                kept.append(anchor)
            }
            k += 1
        }
        kept.append(count - 1)
        return kept
    }

    /// A name usable as an XML id: `card[2]` → `card-2`.
    static func idName(_ s: String) -> String {
        String(s.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "-" }).replacingDashRuns()
    }

    static func n(_ x: Double) -> String { formatFixed(x, 3) }
}

extension String {
    /// Collapses runs of `-` and drops a trailing one.
    fileprivate func replacingDashRuns() -> String {
        var o = ""
        for ch in self where !(ch == "-" && o.last == "-") { o.append(ch) }
        while o.last == "-" { o.removeLast() }
        return o
    }
}
