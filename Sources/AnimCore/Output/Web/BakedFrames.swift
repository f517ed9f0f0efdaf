// BakedFrames: a run sampled at a frame rate for the web outputs — per shape, one track per
// drawing attribute holding the interpreter's value at every frame (a single value when it
// never changes). The samples are the frames of `Timeline.frames(on:_:)` before the run's end,
// then the stage at the end. The HTML player shows these samples as they are, so what it
// displays at any frame is exactly what the interpreter computed; the animated SVG
// interpolates linearly between them.

import Dispatch
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization

/// A run sampled at `fps`.
struct BakedFrames {
    /// The drawing attributes, in the order of `Shape.tracks`.
    enum Attribute: Int, CaseIterable {
        /// Position (center + offset), moved to the pivot when the anchor is not the center.
        case x, y
        /// Width and height of rects.
        case w, h
        /// Rotation, degrees clockwise.
        case rot
        /// Scale per axis.
        case sx, sy
        /// Opacity including the color's alpha; 0 where the shape does not exist yet.
        case op
        /// Corner radius of rects, radius of circles.
        case rad
        /// Stacking order.
        case z
        /// Fill color channels, 0...255.
        case r, g, b
        /// Font size of text.
        case font
        /// The box's center relative to the pivot before rotation and scale (the anchor's
        /// shift, ShapeSnapshot.anchorShift): where the element is drawn in its groups.
        case ax, ay
        /// The drop shadow: offset, CSS blur radius, colour channels 0...255 and alpha (all 0
        /// while the shape casts none: ShapeSnapshot.hasShadow).
        case shx, shy, shblur, shr, shg, shb, sha
        /// The fill's own alpha, for outlined samples (1 otherwise: `op` holds it).
        case fa
        /// Stroke colour channels (0...255), its alpha (0: no stroke), and its width.
        case sr, sg, sb, sa, sw

        /// The name used in the player's data (`staticKey`, which the data writes, as a String).
        var key: String { staticKey.description }

        /// Whether the player's data leaves the track out when it is 0 throughout (the
        /// attributes most shapes never use; the page reads a missing track as 0).
        var omittedWhenZero: Bool { rawValue >= Attribute.ax.rawValue }

        /// The decimals a sample keeps: opacities 4, everything else 3.
        var digits: Int { self == .op || self == .sha ? 4 : 3 }
    }

    /// The string attributes of outlines, per sample (see `Outlines`).
    enum Geometry: Int, CaseIterable {
        /// The outline as SVG path data in the shape's own coordinates (lines, polygons,
        /// polylines and paths; "" for the others, which keep their own elements).
        case d
        /// The stroke, when dashed or trimmed: the pieces the stroke draws, cut by the vector
        /// layer (OutlineMeasure), as path data ("" when the stroke is the outline's own).
        case sd
        /// `line-cap line-join`.
        case ls
        /// The fill's gradient ("" for a colour): `L angle;r g b a position;…` or `R;…`, the
        /// positions resolved (GradientValue.numbers), colour channels 0…255.
        /// A text's gradient is followed by `|cx cy hw hh`: the box it spans, the text's layout
        /// box (TextLayout.box) in the element's coordinates (`textPaintBox`).
        case gr
        /// The stroke's gradient ("" for a colour), as `gr`, over the same box as the fill's.
        case sg

        /// The name used in the player's data.
        var key: String { Geometry.keys[rawValue] }

        /// Every attribute's name, once.
        static let keys = ["d", "sd", "ls", "gr", "sg"]

        /// Whether the player's data leaves the strings out when they are all "" (the stroke's
        /// gradient: pages without one stay the bytes they were).
        var omittedWhenEmpty: Bool { self == .sg }
    }

    /// One shape's samples.
    struct Shape {
        var id: ShapeID
        var name: String
        var kind: ShapeKind
        /// One track per attribute: every frame's value, or one value if constant.
        var tracks: [[Double]]
        /// Text per frame, or one string if constant.
        var text: [String]
        /// A text shape's font per frame, or one string if constant (`textStyle(of:)`); empty
        /// for other shapes and for text in the stage's font, centred, throughout.
        var textStyle: [String] = []
        /// The outline attributes (`Geometry` order), each per frame or one string if constant;
        /// empty when the shape is never outlined (a plain rect, circle or text).
        var geometry: [[String]] = []
        /// An image shape's PNG as a data URI (empty for other shapes).
        var image = ""
        /// A text shape with glyphs (`title.glyphs`, Grammar.md §4.12): its laid-out glyphs,
        /// each drawn as its own element (empty: the text is drawn as one `<text>`).
        var glyphs: [Glyph] = []
    }

    /// One laid-out glyph of a text shape with glyphs, at every sample: where the rasterizer
    /// places it (StageText.glyphStyles, from TextLayout's placed glyphs), in the coordinates of
    /// the text's groups (after its pivot's translate · rotate · scale).
    struct Glyph {
        /// One track per `GlyphAttribute`: every sample's value, or one value if constant.
        var tracks: [[Double]]
        /// The outline as SVG path data about the centre of its advance box, per sample or one
        /// string if constant ("M 0 0" where the text has no glyph there).
        var d: [String]
        /// The text's gradient where the glyph shows it (its own colour unset), with the box it
        /// spans in the glyph's coordinates (Geometry.gr's `|cx cy hw hh`: the text's layout
        /// box, moved, turned and scaled with the glyph), "" where it is drawn in its colour;
        /// per sample or one string. Empty: never a gradient.
        var gr: [String] = []
    }

    /// A glyph's drawing attributes, in the order of `Glyph.tracks`.
    enum GlyphAttribute: Int, CaseIterable {
        /// The centre of its advance box plus its offset (the text's anchor shift and central
        /// baseline included).
        case x, y
        /// Its rotation (clockwise degrees) and scale about that centre.
        case rot, sx, sy
        /// Its alpha (0 where the text has no glyph there), multiplying the text's opacity.
        case op
        /// Its fill: its colour laid over the text's by its own alpha, 0...255.
        case r, g, b

        /// The name used in the player's data.
        var key: String { ["x", "y", "rot", "sx", "sy", "op", "r", "g", "b"][rawValue] }
        /// The decimals a sample keeps.
        var digits: Int { self == .op ? 4 : 3 }
    }

    /// A text sample's glyphs as the rasterizer draws them (StageText.glyphStyles): for each
    /// laid-out glyph, its `GlyphAttribute` values and its outline about its box's centre.
    static func glyphSamples(_ s: ShapeSnapshot) -> [([Double], String)] {
        guard let face = StageText.face(for: s), let layout = StageText.layout(s, face: face) else { return [] }
        let owner = StageText.characterIndices(s.text)
        let shift = s.anchorShift, central = StageText.centralShift(face, size: s.font)
        return layout.glyphs.indices.map { n in
            let placed = layout.glyphs[n], c = placed.box.center
            let g = n < owner.count && owner[n] < s.glyphs.count ? s.glyphs[owner[n]] : GlyphSnapshot()
            let fill = g.fill(over: s.color)
            let values = [shift.x + c.x + g.offset.x, shift.y + central + c.y + g.offset.y, g.rotation, g.scale.x, g.scale.y,
                          max(0, min(1, g.alpha)), max(0, min(255, fill.r)), max(0, min(255, fill.g)), max(0, min(255, fill.b))]
            let d = svgPathData(placed.outline.transformed(by: .translation(placed.origin.x - c.x, placed.origin.y - c.y)))
            return (values, d.isEmpty ? "M 0 0" : d)
        }
    }

    /// A text sample's glyph paints (Glyph.gr), one per laid-out glyph: the text's gradient over
    /// its layout box in the glyph's own coordinates, or "" where the glyph has its own colour
    /// (laid over the gradient's first stop, as over a plain text's colour) or the text has no
    /// gradient.
    static func glyphGradients(_ s: ShapeSnapshot) -> [String] {
        guard let gradient = s.gradient, let face = StageText.face(for: s), let layout = StageText.layout(s, face: face) else { return [] }
        let owner = StageText.characterIndices(s.text), data = gradientData(gradient)
        return layout.glyphs.indices.map { n in
            let g = n < owner.count && owner[n] < s.glyphs.count ? s.glyphs[owner[n]] : GlyphSnapshot()
            guard g.color.a <= 0 else { return "" }
            let c = layout.glyphs[n].box.center, b = layout.box
            return data + "|" + boxData(Box(x: b.x - c.x, y: b.y - c.y, width: b.width, height: b.height))
        }
    }

    /// The box a text sample's gradient spans in its element's coordinates: its layout box
    /// (TextLayout.box: the advance width, from the ascender to the descender line), moved by
    /// the anchor's shift and the central baseline as the rasterizer places the text; nil when
    /// nothing is laid out.
    static func textPaintBox(_ s: ShapeSnapshot) -> Box? {
        guard let face = StageText.face(for: s), let layout = StageText.layout(s, face: face) else { return nil }
        let shift = s.anchorShift, central = StageText.centralShift(face, size: s.font), b = layout.box
        return Box(x: b.x + shift.x, y: b.y + shift.y + central, width: b.width, height: b.height)
    }

    /// `cx cy hw hh` of a box (Geometry.gr's text box).
    static func boxData(_ b: Box) -> String {
        [b.x + b.width / 2, b.y + b.height / 2, b.width / 2, b.height / 2].map { formatFixed($0, 3) }.joined(separator: " ")
    }

    /// Frames per second.
    var fps: Int
    /// The time of every sample: the frames (k/fps) before the run's end, then the end itself,
    /// so the last sample is the run's final state at the instant it ends (not a frame after it).
    var times: [Time]
    /// Every shape declared during the run.
    var shapes: [Shape]

    /// The frames before the run's end (all but the last of `frameRange(on:)`, which is at or
    /// after the end), or nil when the run ends at 0.
    static func framesBeforeEnd(_ timeline: Timeline, _ grid: FrameGrid) -> ClosedRange<Int64>? {
        let upper = timeline.frameRange(on: grid).upperBound
        return upper >= 1 ? 0...(upper - 1) : nil
    }

    /// Samples a timeline at `fps`: the stage at every frame before the end, read from
    /// `Timeline.frames(on:_:)` in one pass, then the stage at the end.
    ///
    /// No buffer of every sample is kept: most tracks never change (a script moves a few
    /// attributes of each shape), so each track holds one value until a sample differs from it,
    /// and only then becomes an array of every sample (sized for them all, the held value
    /// repeated for the samples before). The samples are the same as a full grid's: where a
    /// shape does not exist yet it is drawn invisible with its first values, where it no longer
    /// exists every attribute is 0.
    /// How the frames before the end are sampled: in place, shape by shape (ShapeSampling,
    /// what the outputs use), or through the StageFrames every other output draws (the
    /// reference the first is checked against, byte for byte: BakedFramesEquivalenceTests).
    enum Source { case shapes, frames }

    /// `workers`: how many shape ranges are sampled at once (nil: one per core for a large
    /// scene, `parallelWorkers`); the data is the same for any number (BakedFramesParallelTests).
    init(_ timeline: Timeline, fps: Int, source: Source = .shapes, workers: Int? = nil) {
        self.fps = fps
        let grid = FrameGrid(fps: fps)
        let before = Self.framesBeforeEnd(timeline, grid)
        var times: [Time] = []
        times.reserveCapacity(before.map { $0.count + 1 } ?? 1)
        if let before { for f in before { times.append(grid.time(ofFrame: f)) } }
        times.append(max(.zero, timeline.end))
        self.times = times
        let end = timeline.frame(at: max(.zero, timeline.end))
        // The samples of one shape depend on no other's (a glyph's go into its text's), so
        // ranges of shapes are sampled apart and their shapes put one after another.
        let parts = source == .frames ? 1 : workers ?? Self.parallelWorkers(timeline, samples: times.count)
        let ranges = Self.shapeRanges(timeline, parts: parts)
        if ranges.count == 1 {
            shapes = Self.sample(timeline, grid: grid, before: before, samples: times.count, end: end, source: source, range: ranges[0])
        } else {
            let results = Mutex([[Shape]](repeating: [], count: ranges.count))
            let samples = times.count
            DispatchQueue.concurrentPerform(iterations: ranges.count) { w in
                let part = Self.sample(timeline, grid: grid, before: before, samples: samples, end: end, source: .shapes, range: ranges[w])
                results.withLock { $0[w] = part }
            }
            shapes = results.withLock { $0.flatMap { $0 } }
        }
    }

    /// The scenes worth sampling on several cores: below about 20,000 shape samples (20 shapes
    /// for 1,000 frames, 100 for 200) the threads' start costs about what they save.
    static func parallelWorkers(_ timeline: Timeline, samples: Int) -> Int {
        timeline.shapes.count * samples >= 20_000 ? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) : 1
    }

    /// The shapes split into at most `parts` ranges of about equal size, in order, none
    /// separating a text from its glyphs (which are sampled into the text's snapshot).
    static func shapeRanges(_ timeline: Timeline, parts: Int) -> [Range<Int>] {
        let count = timeline.shapes.count
        let parts = max(1, min(parts, count))
        guard parts > 1 else { return [0..<count] }
        // A range may start at p when no glyph from p on belongs to a text before p.
        let owners = timeline.glyphOwners
        var lowestOwner = [Int](repeating: Int.max, count: count + 1)
        for j in stride(from: count - 1, through: 0, by: -1) {
            lowestOwner[j] = min(lowestOwner[j + 1], owners[j] >= 0 ? owners[j] : Int.max)
        }
        var ranges: [Range<Int>] = []
        var start = 0
        for w in 1..<parts {
            var p = max(start, count * w / parts)
            while p < count && lowestOwner[p] < p { p += 1 }
            if p > start && p < count { ranges.append(start..<p); start = p }
        }
        ranges.append(start..<count)
        return ranges
    }

    /// The `Shape`s of the shapes in `range` (glyphs folded into their texts, which are in the
    /// same range), sampled at every frame of `before` and then at `end`, the stage at the end.
    private static func sample(_ timeline: Timeline, grid: FrameGrid, before: ClosedRange<Int64>?, samples: Int, end: StageFrame,
                               source: Source, range: Range<Int>) -> [Shape] {
        let count = timeline.shapes.count, attributes = Attribute.allCases.count
        // Track `i * attributes + a` (shape i, attribute a): its value while it has not changed
        // (`held`), or once it has, every sample so far (`grown`; empty while held). For each
        // shape the first sample at which it exists (-1: not yet) and the last one written.
        var held = [Double](repeating: 0, count: count * attributes)
        var grown = [[Double]](repeating: [], count: count * attributes)
        var firstSeen = [Int](repeating: -1, count: count)
        var written = [Int](repeating: -1, count: count)
        var texts = [[String]](repeating: [], count: count)
        var styles = [[String]](repeating: [], count: count)
        // The outline strings of each shape: held while constant, then one per sample.
        let geometries = Geometry.allCases.count
        var heldGeometry = [String?](repeating: nil, count: count * geometries)
        var grownGeometry = [[String]](repeating: [], count: count * geometries)
        var outlined = [Bool](repeating: false, count: count)
        func putGeometry(_ slot: Int, _ v: String, _ k: Int) {
            if grownGeometry[slot].isEmpty {
                guard let h = heldGeometry[slot] else { heldGeometry[slot] = v; return }
                if v == h { return }
                grownGeometry[slot] = Array(repeating: h, count: k) + [v]
            } else {
                grownGeometry[slot].append(v)
            }
        }
        let isText = timeline.shapes.map { $0.kind == .text }
        // The texts with glyph shapes (drawn glyph by glyph) and each one's glyphs per sample.
        let owners = timeline.glyphOwners
        var glyphed = [Bool](repeating: false, count: count)
        for o in owners where o >= 0 { glyphed[o] = true }
        var glyphRows = [[[([Double], String)]]](repeating: [], count: count)
        var glyphPaintRows = [[[String]]](repeating: [], count: count)
        let textShapes = range.filter { isText[$0] }
        // One sample's values, written in place: a buffer kept for the whole pass, not an array
        // written through a closure for each of 1,000 shapes × 300 frames.
        let row = UnsafeMutableBufferPointer<Double>.allocate(capacity: attributes)
        row.initialize(repeating: 0)
        defer { row.deallocate() }
        /// Sample `k` of track `slot` is `v` (samples come in order, each track's once). A grown
        /// track may lack the samples before `k` that a masked `take` left out: the attribute could
        /// not change there, so they repeat its last sample.
        func put(_ slot: Int, _ v: Double, _ k: Int) {
            if grown[slot].isEmpty {
                if v == held[slot] { return }
                var track = [Double]()
                track.reserveCapacity(samples)
                track.append(contentsOf: repeatElement(held[slot], count: k))
                track.append(v)
                grown[slot] = track
            } else {
                let n = grown[slot].count
                if n < k { grown[slot].append(contentsOf: repeatElement(grown[slot][n - 1], count: k - n)) }
                grown[slot].append(v)
            }
        }
        /// Samples `from..<to` of shape `i`, which no longer exists there: every attribute 0.
        func absent(_ i: Int, _ from: Int, _ to: Int) {
            for k in from..<to { for a in 0..<attributes { put(i * attributes + a, 0, k) } }
        }
        // The attributes each shape's animated properties can change (`changedBy`), and whether
        // they can make a plain sample outlined (a stroke or a gradient fill).
        let properties = BuiltinProperty.allCases.count
        var masks = [UInt32](repeating: 0, count: count)
        var mayOutline = [Bool](repeating: false, count: count)
        let outlining: [BuiltinProperty] = [.color, .stroke, .strokeWidth, .trimStart, .trimEnd]
        for i in range {
            for p in 0..<properties where timeline.builtinRows[i * properties + p] >= 0 { masks[i] |= Self.changedBy[p] }
            mayOutline[i] = outlining.contains { timeline.builtinRows[i * properties + $0.rawValue] >= 0 }
        }
        // Rects, circles and texts: the kinds drawn plain unless stroked or filled by a gradient.
        let boxed = timeline.shapes.map { $0.kind == .rect || $0.kind == .circle || $0.kind == .text }
        var k = 0
        /// Sample `k` of one shape, read in place (a copy per shape and frame retains its strings
        /// and arrays). Unless `full`, a plain sample (not outlined, no glyphs) right after the
        /// shape's last one writes only the attributes in its mask: the others are the same.
        func take(_ p: UnsafePointer<ShapeSnapshot>, full: Bool) {
            let i = Int(p.pointee.id.index)
            guard range.contains(i), written[i] < k else { return }
            if !full, written[i] >= 0, written[i] == k - 1, boxed[i], !outlined[i], !glyphed[i], !mayOutline[i] || !p.pointee.isOutlined {
                written[i] = k
                let mask = masks[i], base = i * attributes
                if mask & ~Self.positionBits == 0 {
                    // Only the pivot moves (or nothing): the other values are not worked out.
                    if mask != 0 {
                        let pivot = Self.boxPivot(p)
                        put(base + Attribute.x.rawValue, pivot.x, k)
                        put(base + Attribute.y.rawValue, pivot.y, k)
                    }
                } else {
                    Self.write(p.pointee, to: row, at: 0)
                    var m = mask
                    while m != 0 {
                        let a = m.trailingZeroBitCount
                        put(base + a, row[a], k)
                        m &= m - 1
                    }
                }
                if isText[i] { texts[i].append(p.pointee.text); styles[i].append(Self.textStyle(of: p.pointee)) }
                return
            }
            let s = p.pointee
            Self.write(s, to: row, at: 0)
            if firstSeen[i] < 0 {
                firstSeen[i] = k
                // Before it exists the shape is drawn with its first values, invisible.
                for a in 0..<attributes { held[i * attributes + a] = a == Attribute.op.rawValue && k > 0 ? 0 : row[a] }
            } else if written[i] < k - 1 {
                absent(i, written[i] + 1, k)
            }
            written[i] = k
            for a in 0..<attributes { put(i * attributes + a, row[a], k) }
            if isText[i] { texts[i].append(s.text); styles[i].append(Self.textStyle(of: s)) }
            if glyphed[i] { glyphRows[i].append(Self.glyphSamples(s)); glyphPaintRows[i].append(Self.glyphGradients(s)) }
            if s.isOutlined || outlined[i] {
                if !outlined[i] {
                    // Outlined from here on: the samples before held the defaults.
                    outlined[i] = true
                    let plain = Self.geometry(of: s, outlined: false)
                    if k > 0 { for g in 0..<geometries { heldGeometry[i * geometries + g] = plain[g] } }
                }
                let strings = Self.geometry(of: s, outlined: true)
                for g in 0..<geometries { putGeometry(i * geometries + g, strings[g], k) }
            }
        }
        /// The end of sample `k`: texts that do not exist there show nothing.
        func endSample() {
            for i in textShapes where texts[i].count == k { texts[i].append(""); styles[i].append(styles[i].last ?? Self.plainTextStyle) }
            for i in textShapes where glyphed[i] && glyphRows[i].count == k { glyphRows[i].append([]); glyphPaintRows[i].append([]) }
            k += 1
        }
        /// Sample `k` of every shape from a frame, each written in full.
        func take(_ frame: StageFrame) {
            frame.shapes.withUnsafeBufferPointer { list in
                guard let shapes = list.baseAddress else { return }
                for j in list.indices { take(shapes + j, full: true) }
            }
            endSample()
        }
        if let before {
            switch source {
            case .shapes:
                // Each shape read where the sampling keeps it, in declaration order (the
                // samples of one shape do not depend on the others, so paint order is moot).
                var sampling = ShapeSampling(timeline, grid: grid, shapes: range)
                for f in before {
                    sampling.sample(frame: f)
                    sampling.current.withUnsafeBufferPointer { list in
                        guard let shapes = list.baseAddress else { return }
                        for i in range where sampling.exists[i] && !sampling.isFolded(i) { take(shapes + i, full: false) }
                    }
                    endSample()
                }
            case .frames:
                for frame in timeline.frames(on: grid, before) { take(frame) }
            }
        }
        take(end)
        for i in range where firstSeen[i] >= 0 && written[i] < samples - 1 { absent(i, written[i] + 1, samples) }

        var shapes: [Shape] = []
        shapes.reserveCapacity(range.count)
        // Glyph shapes are not drawn as shapes: their values are in their text's glyphs.
        for i in range where timeline.shapes[i].kind != .glyph {
            let info = timeline.shapes[i]
            var tracks: [[Double]] = []
            tracks.reserveCapacity(attributes)
            let first = firstSeen[i]
            for a in 0..<attributes {
                let slot = i * attributes + a
                if first < 0 {
                    tracks.append([0])
                } else if grown[slot].isEmpty {
                    tracks.append([held[slot]])
                } else {
                    tracks.append(grown[slot])
                    grown[slot] = []
                }
            }
            var text = isText[i] ? texts[i] : [""]
            if first > 0, first < text.count {
                for j in 0..<first { text[j] = text[first] }
            }
            if text.count > 1, text.allSatisfy({ $0 == text[0] }) { text = [text[0]] }
            var style = isText[i] ? styles[i] : []
            if first > 0, first < style.count {
                for j in 0..<first { style[j] = style[first] }
            }
            if style.allSatisfy({ $0 == Self.plainTextStyle }) { style = [] }
            if style.count > 1, style.allSatisfy({ $0 == style[0] }) { style = [style[0]] }
            var geometry: [[String]] = []
            if outlined[i] {
                for g in 0..<geometries {
                    let slot = i * geometries + g
                    var track = grownGeometry[slot].isEmpty ? [heldGeometry[slot] ?? ""] : grownGeometry[slot]
                    if track.count > 1 && track.count < samples { track += Array(repeating: track[track.count - 1], count: samples - track.count) }
                    // Before the shape exists it is drawn with its first outline, invisible.
                    if first > 0, first < track.count { for j in 0..<first { track[j] = track[first] } }
                    if track.count > 1, track.allSatisfy({ $0 == track[0] }) { track = [track[0]] }
                    geometry.append(track)
                }
            }
            var shape = Shape(id: info.id, name: info.name, kind: info.kind, tracks: tracks, text: text, textStyle: style, geometry: geometry)
            if info.kind == .image { shape.image = StageImages.dataURI(timeline.imageFile(of: info.id)) }
            if glyphed[i] {
                shape.glyphs = Self.glyphTracks(glyphRows[i], first: first)
                Self.addGlyphGradients(&shape.glyphs, glyphPaintRows[i], first: first)
            }
            shapes.append(shape)
        }
        return shapes
    }

    /// Each glyph's paints (Glyph.gr) from the samples' `glyphGradients` (left empty for a
    /// glyph that never shows a gradient).
    static func addGlyphGradients(_ glyphs: inout [Glyph], _ rows: [[String]], first: Int) {
        var rows = rows
        if first > 0, first < rows.count { for k in 0..<first { rows[k] = rows[first] } }
        for n in glyphs.indices {
            var gr = rows.map { n < $0.count ? $0[n] : "" }
            guard gr.contains(where: { !$0.isEmpty }) else { continue }
            if gr.allSatisfy({ $0 == gr[0] }) { gr = [gr[0]] }
            glyphs[n].gr = gr
        }
    }

    /// A glyphed text's glyphs from its samples' glyphs (`glyphSamples`): as many as the most
    /// any sample lays out; a glyph a sample lacks is drawn invisible there, and before the text
    /// exists (`first`) every glyph is drawn with its first values.
    static func glyphTracks(_ rows: [[([Double], String)]], first: Int) -> [Glyph] {
        var rows = rows
        if first > 0, first < rows.count { for k in 0..<first { rows[k] = rows[first] } }
        let count = rows.map(\.count).max() ?? 0
        let attributes = GlyphAttribute.allCases.count
        var glyphs: [Glyph] = []
        for n in 0..<count {
            var tracks = [[Double]](repeating: [], count: attributes)
            var d: [String] = []
            for row in rows {
                let (values, path) = n < row.count ? row[n] : ([0, 0, 0, 1, 1, 0, 0, 0, 0], "M 0 0")
                for a in 0..<attributes { tracks[a].append(values[a]) }
                d.append(path)
            }
            for a in 0..<attributes where tracks[a].allSatisfy({ $0 == tracks[a][0] }) { tracks[a] = [tracks[a][0]] }
            if d.allSatisfy({ $0 == d[0] }) { d = [d[0]] }
            glyphs.append(Glyph(tracks: tracks, d: d))
        }
        return glyphs
    }

    /// The attributes (bits by `Attribute` raw value) that a built-in property's value can change
    /// in `write(_:to:at:)`, for a shape of any kind: what each attribute reads, through the
    /// snapshot's derived values (pivot, anchor box, opacity, `isOutlined`, `hasStroke`,
    /// `hasShadow`), turned round. Checked by changing each property alone (BakedFramesMaskTests)
    /// and, in use, by the sampling compared with the full writes of StageFrames
    /// (BakedFramesEquivalenceTests).
    static func attributes(changedBy p: BuiltinProperty) -> UInt32 {
        func bits(_ list: [Attribute]) -> UInt32 { list.reduce(0) { $0 | 1 << UInt32($1.rawValue) } }
        switch p {
        case .center, .offset: return bits([.x, .y])
        // The pivot and the anchor's shift are fractions of the anchor box: a rect's size, a
        // circle's radius, the box around a point shape's points (also its w × h).
        case .anchor: return bits([.x, .y, .ax, .ay])
        case .size: return bits([.x, .y, .w, .h, .rad, .ax, .ay])
        case .radius: return bits([.x, .y, .rad, .ax, .ay])
        case .from, .to, .points, .d: return bits([.x, .y, .w, .h, .rad, .ax, .ay])
        case .rotation: return bits([.rot])
        case .scale: return bits([.sx, .sy])
        case .alpha: return bits([.op])
        // A gradient fill makes the sample outlined: its opacity is then its alpha alone.
        case .color: return bits([.op, .r, .g, .b, .fa])
        case .z: return bits([.z])
        case .font: return bits([.font])
        case .shadowOffset, .shadowBlur, .shadowColor: return bits([.shx, .shy, .shblur, .shr, .shg, .shb, .sha])
        // Whether there is a stroke, which also makes the sample outlined.
        case .stroke, .strokeWidth, .trimStart, .trimEnd: return bits([.op, .fa, .sr, .sg, .sb, .sa, .sw])
        // Read by the outline strings, the text and its style, the image: none of the tracks.
        case .dash, .dashOffset, .lineCap, .lineJoin, .text, .file, .fontFamily, .weight, .align: return 0
        }
    }

    /// `attributes(changedBy:)` of every built-in property, by raw value.
    static let changedBy = BuiltinProperty.allCases.map(attributes(changedBy:))

    /// The attributes of the pivot alone (what moving a shape changes).
    static let positionBits: UInt32 = 1 << UInt32(Attribute.x.rawValue) | 1 << UInt32(Attribute.y.rawValue)

    /// `ShapeSnapshot.pivot` of a rect, circle or text, read field by field in place (the getter
    /// called on a pointer's snapshot copies it first, retaining its strings and arrays): the
    /// same operations in the same order (BakedFramesMaskTests).
    @inline(__always)
    static func boxPivot(_ s: UnsafePointer<ShapeSnapshot>) -> Point {
        let center = s.pointee.center, offset = s.pointee.offset, anchor = s.pointee.anchor
        let r = s.pointee.radius, size = s.pointee.size
        let box = s.pointee.kind == .circle ? Point(2 * abs(r), 2 * abs(r)) : Point(abs(size.x), abs(size.y))
        let x = (0.5 - anchor.x) * box.x, y = (0.5 - anchor.y) * box.y
        let dx = x.isFinite ? x : 0, dy = y.isFinite ? y : 0
        return Point(center.x + offset.x - dx, center.y + offset.y - dy)
    }

    /// Writes a snapshot's attribute values, in `Attribute` order, from `base`.
    @inline(__always)
    static func write(_ s: ShapeSnapshot, to buf: UnsafeMutableBufferPointer<Double>, at base: Int) {
        let p = s.pivot, shift = s.anchorShift
        let radius = s.kind == .circle ? abs(s.radius) : s.cornerRadius
        buf[base + Attribute.x.rawValue] = p.x
        buf[base + Attribute.y.rawValue] = p.y
        // A shape placed by points has no size: w × h is the box around its points, which
        // its anchor is a fraction of and its shadow's filter region is grown from.
        let box = s.kind.isPointBased ? s.anchorBox : Point(abs(s.size.x), abs(s.size.y))
        buf[base + Attribute.w.rawValue] = box.x
        buf[base + Attribute.h.rawValue] = box.y
        buf[base + Attribute.rot.rawValue] = s.rotation
        buf[base + Attribute.sx.rawValue] = s.scale.x
        buf[base + Attribute.sy.rawValue] = s.scale.y
        buf[base + Attribute.op.rawValue] = s.opacity
        buf[base + Attribute.rad.rawValue] = radius
        buf[base + Attribute.z.rawValue] = s.z
        buf[base + Attribute.r.rawValue] = max(0, min(255, s.color.r))
        buf[base + Attribute.g.rawValue] = max(0, min(255, s.color.g))
        buf[base + Attribute.b.rawValue] = max(0, min(255, s.color.b))
        buf[base + Attribute.font.rawValue] = max(0, s.font)
        buf[base + Attribute.ax.rawValue] = shift.x
        buf[base + Attribute.ay.rawValue] = shift.y
        let shadow = s.hasShadow
        buf[base + Attribute.shx.rawValue] = shadow ? s.shadowOffset.x : 0
        buf[base + Attribute.shy.rawValue] = shadow ? s.shadowOffset.y : 0
        buf[base + Attribute.shblur.rawValue] = shadow ? max(0, min(Shadow.maxBlur, s.shadowBlur)) : 0
        buf[base + Attribute.shr.rawValue] = shadow ? max(0, min(255, s.shadowColor.r)) : 0
        buf[base + Attribute.shg.rawValue] = shadow ? max(0, min(255, s.shadowColor.g)) : 0
        buf[base + Attribute.shb.rawValue] = shadow ? max(0, min(255, s.shadowColor.b)) : 0
        buf[base + Attribute.sha.rawValue] = shadow ? max(0, min(1, s.shadowColor.a)) : 0
        // An outlined sample's group opacity is its alpha alone: the fill's and the stroke's
        // alphas are their own, as the vector layer composites them.
        let outlined = s.isOutlined
        if outlined { buf[base + Attribute.op.rawValue] = max(0, min(1, s.alpha)) }
        // A line has no area to fill (SVG's `<line>` is never filled).
        buf[base + Attribute.fa.rawValue] = outlined ? (s.kind == .line ? 0 : max(0, min(1, s.color.a))) : 1
        let stroked = s.hasStroke
        buf[base + Attribute.sr.rawValue] = stroked ? max(0, min(255, s.stroke.r)) : 0
        buf[base + Attribute.sg.rawValue] = stroked ? max(0, min(255, s.stroke.g)) : 0
        buf[base + Attribute.sb.rawValue] = stroked ? max(0, min(255, s.stroke.b)) : 0
        buf[base + Attribute.sa.rawValue] = stroked ? max(0, min(1, s.stroke.a)) : 0
        buf[base + Attribute.sw.rawValue] = stroked ? min(s.strokeWidth, StrokeStyle.maxWidth) : 0
    }

    /// A sample's outline strings, in `Geometry` order (`outlined` false: what a shape not yet
    /// outlined shows, which draws nothing more than its plain element).
    static func geometry(of s: ShapeSnapshot, outlined: Bool) -> [String] {
        guard outlined else { return ["", "", "butt miter", "", ""] }
        let d = s.kind.isPointBased ? (s.localOutline.map(svgPathData) ?? "") : ""
        var sd = ""
        if let style = s.strokeStyle, style.dash != nil || !style.isUntrimmed, let outline = s.localOutline {
            let cut = (try? OutlineRasterizer.strokedPath(outline, style, tolerance: 0.01)) ?? Outline()
            // Nothing left to stroke: a path of no length, drawn as nothing.
            sd = cut.contours.isEmpty ? "M 0 0" : svgPathData(cut)
        }
        var gr = s.gradient.map(gradientData) ?? ""
        if s.kind == .text, !gr.isEmpty { gr += "|" + (textPaintBox(s).map(boxData) ?? "0 0 0 0") }
        return [d, sd, s.lineCap.word + " " + s.lineJoin.word, gr, s.hasStroke ? s.strokeGradient.map(gradientData) ?? "" : ""]
    }

    /// A gradient as the web outputs read it (Geometry.gr).
    static func gradientData(_ g: GradientValue) -> String {
        var out = g.form == .linear ? "L " + formatFixed(g.angle, 3) : "R"
        for (stop, p) in zip(g.stops, g.resolvedPositions) {
            let c = stop.color
            out += ";" + [max(0, min(255, c.r)), max(0, min(255, c.g)), max(0, min(255, c.b))].map { formatFixed($0, 3) }.joined(separator: " ")
                + " " + formatFixed(max(0, min(1, c.a)), 4) + " " + formatFixed(p, 4)
        }
        return out
    }

    /// A text sample's font as the web outputs write it: `WEIGHT ANCHOR[ FAMILIES]` — the CSS
    /// font-weight (100 … 900), SVG's text-anchor (start, middle, end) and, for a family the
    /// script names, the CSS font-family list that falls back as the rasterizer does
    /// (StageText.cssFamilies).
    static func textStyle(of s: ShapeSnapshot) -> String {
        "\(s.fontWeight) \(s.align.textAnchor)" + (s.fontFamily.isEmpty ? "" : " " + StageText.cssFamilies(s.fontFamily))
    }

    /// The font of text in the stage's family, normal, centred (the web outputs' default).
    static let plainTextStyle = "400 middle"

    /// The value of attribute `a` of shape `i` at frame `k`.
    func value(_ i: Int, _ a: Attribute, _ k: Int) -> Double {
        let t = shapes[i].tracks[a.rawValue]
        return t.count == 1 ? t[0] : t[k]
    }

    /// The paint order of the shapes at frame `k` (by z, then declaration).
    func order(at k: Int) -> [Int] {
        shapes.indices.sorted {
            let za = value($0, .z, k), zb = value($1, .z, k)
            return za != zb ? za < zb : $0 < $1
        }
    }
}

extension ShapeSnapshot {
    /// Whether the web outputs draw the sample as an outline: a kind placed by points or an
    /// ellipse, or any shape with a stroke (its group opacity is then its alpha alone).
    var isOutlined: Bool { !(kind == .rect || kind == .circle || kind == .text) || hasStroke || gradient != nil }
}
