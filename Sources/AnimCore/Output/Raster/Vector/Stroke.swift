// Stroke: the stroke of an outline — width, caps, joins and miter limit as SVG defines them
// (SVG 2 §13.5), with dashes and trim applied first — turned into fillable outlines by
// FreeType's FT_Stroker. SVG's miter limit is FreeType's (both bound 1/sin(θ/2)), and
// FT_STROKER_LINEJOIN_MITER_FIXED falls back to a bevel past it, as SVG does.
//
// The stroke is computed in the shape's local space scaled by the transform's largest stretch,
// then mapped by the rest of the transform: a non-uniformly scaled shape's stroke is wider
// along the stretched axis, as in SVG, and FreeType's 26.6 grid stays finer than 1/64 of a
// device pixel. Zero-length pieces (a dot of a dash pattern, `M 10 10 Z`) get SVG's caps:
// a disc for round, a square turned the way the path runs for square, nothing for butt.
import CFreeType

/// How an open contour's ends are drawn.
public enum LineCap: Hashable, Sendable {
    /// The stroke stops at the end point.
    case butt
    /// A half disc around the end point.
    case round
    /// A half square around the end point.
    case square
}

extension LineCap {
    /// The cap named by `line-cap`'s word (SVG's `stroke-linecap`).
    public init?(word: String) {
        switch word {
        case "butt": self = .butt
        case "round": self = .round
        case "square": self = .square
        default: return nil
        }
    }

    /// The word, as SVG writes it.
    public var word: String {
        switch self {
        case .butt: "butt"
        case .round: "round"
        case .square: "square"
        }
    }
}

/// How two segments meet at a corner.
public enum LineJoin: Hashable, Sendable {
    /// The outer edges extended until they meet, or a bevel past the miter limit.
    case miter
    /// A circular arc around the corner.
    case round
    /// A straight line across the outer corners.
    case bevel
}

extension LineJoin {
    /// The join named by `line-join`'s word (SVG's `stroke-linejoin`).
    public init?(word: String) {
        switch word {
        case "miter": self = .miter
        case "round": self = .round
        case "bevel": self = .bevel
        default: return nil
        }
    }

    /// The word, as SVG writes it.
    public var word: String {
        switch self {
        case .miter: "miter"
        case .round: "round"
        case .bevel: "bevel"
        }
    }
}

/// A dash pattern: lengths of on and off, in the outline's units, from each contour's start.
public struct Dash: Hashable, Sendable {
    /// The lengths: on, off, on, off, … (an odd count is repeated once, as SVG does).
    public let pattern: [Double]
    /// How far into the pattern the contour starts (SVG's `stroke-dashoffset`).
    public let offset: Double

    /// The most dashes one stroke may be cut into: each becomes a capped contour, and the
    /// count stays well within what a frame can draw.
    public static let maxDashes = 100_000

    /// A dash pattern; negative or non-finite lengths are errors. A pattern of zero total
    /// length draws the stroke solid (SVG).
    public init(_ pattern: [Double], offset: Double = 0) throws(VectorError) {
        for d in pattern {
            guard d.isFinite else { throw .notFinite("a dash length") }
            guard d >= 0 else { throw .negativeDash(d) }
        }
        guard offset.isFinite else { throw .notFinite("the dash offset") }
        self.pattern = pattern
        self.offset = offset
    }
}

/// Everything about a stroke but its paint.
public struct StrokeStyle: Hashable, Sendable {
    /// The width, in the outline's units (0 draws nothing).
    public let width: Double
    /// End caps of open contours.
    public let cap: LineCap
    /// Corner joins.
    public let join: LineJoin
    /// The miter limit (≥ 1): the ratio of miter length to width past which a miter is bevelled.
    public let miterLimit: Double
    /// The dash pattern, if dashed.
    public let dash: Dash?
    /// Trim: the stroked part runs from `trimStart` to `trimEnd`, fractions of the outline's
    /// whole length (clamped to 0…1; swapped when start > end, as Lottie's trim paths do).
    public let trimStart: Double, trimEnd: Double

    /// The widest stroke, in pixels of the outline's units: wider strokes cover any stage.
    public static let maxWidth = 100_000.0

    /// A stroke style (SVG's defaults: butt caps, miter joins, miter limit 4, no dash, no trim).
    public init(width: Double, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4,
                dash: Dash? = nil, trimStart: Double = 0, trimEnd: Double = 1) throws(VectorError) {
        guard width.isFinite else { throw .notFinite("the stroke width") }
        guard width >= 0 else { throw .negativeStrokeWidth(width) }
        guard width <= StrokeStyle.maxWidth else { throw .strokeWidthTooLarge(width, limit: StrokeStyle.maxWidth) }
        guard miterLimit.isFinite else { throw .notFinite("the miter limit") }
        guard miterLimit >= 1 else { throw .miterLimitBelowOne(miterLimit) }
        guard trimStart.isFinite, trimEnd.isFinite else { throw .notFinite("a trim fraction") }
        self.width = width
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.dash = dash
        self.trimStart = trimStart
        self.trimEnd = trimEnd
    }

    /// Whether trim keeps the whole outline.
    var isUntrimmed: Bool {
        let s = max(0, min(1, trimStart)), e = max(0, min(1, trimEnd))
        return min(s, e) == 0 && max(s, e) == 1
    }
}

extension OutlineRasterizer {
    /// The part of `outline` a stroke draws: trimmed, then dashed, measured in local units to
    /// within `tolerance`. Throws when the dashes would be too many.
    static func strokedPath(_ outline: Outline, _ style: StrokeStyle, tolerance: Double) throws(VectorError) -> Outline {
        guard style.dash != nil || !style.isUntrimmed else { return outline }
        let measure = OutlineMeasure(outline, tolerance: tolerance)
        var s = max(0, min(1, style.trimStart)), e = max(0, min(1, style.trimEnd))
        if s > e { swap(&s, &e) }
        guard let dash = style.dash else { return measure.trimmed(start: s, end: e) }
        guard e > s else { return Outline() }
        guard let out = measure.dashed(dash.pattern, offset: dash.offset, from: s * measure.length, to: e * measure.length,
                                       limit: Dash.maxDashes) else { throw .tooManyDashes(limit: Dash.maxDashes) }
        return out
    }

    /// The stroke of `outline` (local units) under `m`, as device outlines to fill with the
    /// non-zero rule; several when the stroke has more points than one FreeType outline holds
    /// (their union is the stroke). Each contour's stroke is turned to the same orientation, so
    /// overlapping pieces add up instead of cancelling.
    static func strokeOutlines(_ outline: Outline, _ style: StrokeStyle, _ m: Affine, region: PixelRect) throws(VectorError) -> [DeviceOutline] {
        guard style.width > 0, m.isFinite, outline.isFinite, m.inverted != nil, let lib = FreeTypeLibrary.shared else { return [] }
        let s = m.stretch.max
        guard s > 0, s.isFinite else { return [] }
        let path = try strokedPath(outline, style, tolerance: 0.01 / s)
        // Stroke at `precision` × device resolution in local orientation, curves flattened
        // (see `flattened`); R maps the result to the device.
        let k = s * strokePrecision
        var scaled = flattened(path.transformed(by: .scale(k, k)), tolerance: 0.01 * strokePrecision,
                               minStep: strokeMinStep * strokePrecision)
        let r = m * .scale(1 / k, 1 / k)
        let width = style.width * k
        let reach = width / 2 * max(style.miterLimit, 1.5) + 2
        if let cb = scaled.controlBounds, let rInv = r.inverted,
           cb.x < -maxCoordinate || cb.maxX > maxCoordinate || cb.y < -maxCoordinate || cb.maxY > maxCoordinate {
            var clip = region.box.expanded(2, 2).transformed(by: rInv).expanded(reach, reach)
            let lim = maxCoordinate
            let x0 = max(clip.x, -lim), y0 = max(clip.y, -lim)
            clip = Box(x: x0, y: y0, width: max(0, min(clip.maxX, lim) - x0), height: max(0, min(clip.maxY, lim) - y0))
            scaled = clipped(scaled, to: clip)
        }

        var stroker: FT_Stroker?
        guard FT_Stroker_New(lib.handle, &stroker) == 0, let stroker else { return [] }
        defer { FT_Stroker_Done(stroker) }
        let cap: FT_Stroker_LineCap = switch style.cap {
        case .butt: FT_STROKER_LINECAP_BUTT
        case .round: FT_STROKER_LINECAP_ROUND
        case .square: FT_STROKER_LINECAP_SQUARE
        }
        let join: FT_Stroker_LineJoin = switch style.join {
        case .miter: FT_STROKER_LINEJOIN_MITER_FIXED
        case .round: FT_STROKER_LINEJOIN_ROUND
        case .bevel: FT_STROKER_LINEJOIN_BEVEL
        }
        FT_Stroker_Set(stroker, FT_Fixed((width / 2 * 64).rounded()), cap, join, FT_Fixed((style.miterLimit * 65536).rounded()))

        var batches: [DeviceOutline] = []
        var batch = DeviceOutline()
        func emit(_ piece: DeviceOutline) {
            if batch.points.count + piece.points.count > maxPoints && !batch.isEmpty {
                batches.append(batch)
                batch = DeviceOutline()
            }
            batch.appendNormalized(piece)
        }
        var work = scaled.contours.reversed() as [Outline.Contour]
        while let c = work.popLast() {
            guard !c.segments.isEmpty || c.isClosed else { continue }
            if let dot = capOutline(c, width: width, cap: style.cap) {
                var d = DeviceOutline()
                d.append(dot, r)
                emit(d)
                continue
            }
            guard let piece = strokeContour(c, stroker, r) else {
                // Too many points for one outline: stroke the halves (open) one after the other.
                if c.segments.count >= 2 {
                    let mid = c.segments.count / 2
                    var all = c.segments
                    if c.isClosed && c.end != c.start { all.append(.line(c.start)) }
                    let first = Outline.Contour(start: c.start, segments: Array(all[..<mid]))
                    let second = Outline.Contour(start: all[mid - 1].end, segments: Array(all[mid...]))
                    work.append(second)
                    work.append(first)
                }
                continue
            }
            emit(piece)
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    /// How many stroker units make a device pixel's 1/64: FreeType's 26.6 grid is too coarse
    /// for the directions of short chords, so strokes are computed at 16 × device resolution
    /// (1/1024 px) and mapped back.
    static let strokePrecision = 16.0

    /// The shortest chord handed to the stroker, in device pixels: closer vertices are merged
    /// (the contour's ends are kept). A chord's direction is known to the grid over its
    /// length, and the stroker offsets every chord by the half width along its normal, so a
    /// run of tiny chords (a polygon of 32,768 points on a circle of radius 40 has chords of
    /// 1/130 px) would wobble the stroke's edges by the half width times that error. At 1/8 px
    /// and 1/1024 px the direction is within 1/128 rad.
    static let strokeMinStep = 0.125

    /// `o` with its curves replaced by chords within `tolerance`, and vertices nearer than
    /// `minStep` to the last one kept merged. FT_Stroker offsets a curve by approximating the
    /// offset curve with a few Béziers, which strays up to a tenth of a pixel from the true
    /// offset on a circle of radius 28 (measured against the exact ring,
    /// Tests/AnimCoreTests/Output/Vector); the offset of a chain of chords is exact, and
    /// chords within 1/100 px of the curve turn by so little at each vertex that every join
    /// style meets the true offset to within 1/1000 px there.
    static func flattened(_ o: Outline, tolerance: Double, minStep: Double) -> Outline {
        var out = Outline()
        let step2 = minStep * minStep
        for c in o.contours {
            var segs: [Outline.Segment] = []
            var last = c.start
            func add(_ p: Point) {
                let dx = p.x - last.x, dy = p.y - last.y
                guard dx * dx + dy * dy >= step2 else { return }
                segs.append(.line(p))
                last = p
            }
            var p0 = c.start
            for seg in c.segments {
                if case .line(let p) = seg {
                    add(p)
                } else {
                    let t = OutlineMeasure.table(seg, from: p0, tolerance: tolerance)
                    for u in t.ts.dropFirst() { add(OutlineMeasure.point(seg, from: p0, at: u)) }
                }
                p0 = seg.end
            }
            // The contour ends where it ended: the last kept vertex moves there (or, when every
            // vertex was merged, one chord goes there, so that a short dash keeps its length).
            if p0 != last {
                if segs.isEmpty || c.isClosed { segs.append(.line(p0)) } else { segs[segs.count - 1] = .line(p0) }
            }
            out.contours.append(Outline.Contour(start: c.start, segments: segs, isClosed: c.isClosed))
        }
        return out
    }

    /// One contour through the stroker, mapped by `r` into device 26.6; nil if its stroke has
    /// more than `maxPoints` points.
    static func strokeContour(_ c: Outline.Contour, _ stroker: FT_Stroker, _ r: Affine) -> DeviceOutline? {
        func v(_ p: Point) -> FT_Vector { FT_Vector(x: DeviceOutline.fixed(p.x), y: DeviceOutline.fixed(p.y)) }
        var start = v(c.start)
        FT_Stroker_BeginSubPath(stroker, &start, c.isClosed ? 0 : 1)
        for s in c.segments {
            switch s {
            case .line(let p):
                var to = v(p)
                FT_Stroker_LineTo(stroker, &to)
            case .quadratic(let p, let q):
                var ctl = v(p), to = v(q)
                FT_Stroker_ConicTo(stroker, &ctl, &to)
            case .cubic(let p, let q, let e):
                var c1 = v(p), c2 = v(q), to = v(e)
                FT_Stroker_CubicTo(stroker, &c1, &c2, &to)
            }
        }
        FT_Stroker_EndSubPath(stroker)
        defer { FT_Stroker_Rewind(stroker) }
        var np: FT_UInt = 0, nc: FT_UInt = 0
        guard FT_Stroker_GetCounts(stroker, &np, &nc) == 0 else { return DeviceOutline() }
        guard np <= FT_UInt(maxPoints), nc <= FT_UInt(maxPoints) else { return nil }
        var out = DeviceOutline()
        out.points = [FT_Vector](repeating: FT_Vector(), count: Int(np))
        out.tags = [CChar](repeating: 0, count: Int(np))
        out.ends = [Int16](repeating: 0, count: Int(nc))
        let exported: (Int, Int) = out.points.withUnsafeMutableBufferPointer { p in
            out.tags.withUnsafeMutableBufferPointer { t in
                out.ends.withUnsafeMutableBufferPointer { e in
                    var o = FT_Outline()
                    o.points = p.baseAddress; o.tags = t.baseAddress; o.contours = e.baseAddress
                    FT_Stroker_Export(stroker, &o)
                    return (Int(o.n_points), Int(o.n_contours))
                }
            }
        }
        out.points.removeSubrange(exported.0...)
        out.tags.removeSubrange(exported.0...)
        out.ends.removeSubrange(exported.1...)
        // Into device space: x' = a·x + c·y + tx·64, y' = b·x + d·y + ty·64 (26.6 in and out).
        for k in out.points.indices {
            let x = Double(out.points[k].x), y = Double(out.points[k].y)
            out.points[k] = FT_Vector(x: FT_Pos((r.a * x + r.c * y + r.tx * 64).rounded()),
                                      y: FT_Pos((r.b * x + r.d * y + r.ty * 64).rounded()))
        }
        return out
    }

    /// The caps of a contour too short for the stroker (every point within 1/64 px of its start):
    /// SVG draws a disc (round) or a square along the path's direction (square) for a
    /// zero-length subpath, nothing for butt. Nil when the contour is long enough to stroke.
    static func capOutline(_ c: Outline.Contour, width: Double, cap: LineCap) -> Outline? {
        let s = DeviceOutline.fixed(c.start.x), t = DeviceOutline.fixed(c.start.y)
        var direction = Point(1, 0)
        for seg in c.segments {
            let pts: [Point] = switch seg {
            case .line(let p): [p]
            case .quadratic(let p, let q): [p, q]
            case .cubic(let p, let q, let e): [p, q, e]
            }
            for p in pts {
                if DeviceOutline.fixed(p.x) != s || DeviceOutline.fixed(p.y) != t { return nil }
            }
            let d = Point(seg.end.x - c.start.x, seg.end.y - c.start.y)
            let n = (d.x * d.x + d.y * d.y).squareRoot()
            if n > 0 { direction = Point(d.x / n, d.y / n) }
        }
        let h = width / 2
        switch cap {
        case .butt:
            return Outline()
        case .round:
            return .circle(center: c.start, radius: h)
        case .square:
            let u = Point(direction.x * h, direction.y * h), w = Point(-direction.y * h, direction.x * h)
            let p = c.start
            return .polygon([Point(p.x - u.x - w.x, p.y - u.y - w.y), Point(p.x + u.x - w.x, p.y + u.y - w.y),
                             Point(p.x + u.x + w.x, p.y + u.y + w.y), Point(p.x - u.x + w.x, p.y - u.y + w.y)])
        }
    }

    /// The parts of an outline inside `box`, flattened, as open polylines (closed contours that
    /// lie wholly inside stay closed). For strokes reaching beyond FreeType's range; the box
    /// includes the stroke's reach, so the caps at the cuts fall outside the drawing region.
    static func clipped(_ o: Outline, to box: Box) -> Outline {
        var out = Outline()
        for c in o.contours {
            var pts = [c.start]
            var p0 = c.start
            var all = c.segments
            if c.isClosed { all.append(.line(c.start)) }
            for s in all {
                Clipping.flatten(s, from: p0, .identity, box: box, into: &pts)
                p0 = s.end
            }
            let pieces = Clipping.polylines(pts, within: box)
            if c.isClosed, pieces.count == 1, pieces[0].count == pts.count {
                out.contours.append(Outline.Contour(start: pts[0], segments: pts.dropFirst().map { .line($0) }, isClosed: true))
                continue
            }
            for piece in pieces {
                out.contours.append(Outline.Contour(start: piece[0], segments: piece.dropFirst().map { .line($0) }))
            }
        }
        return out
    }
}

extension DeviceOutline {
    /// Appends another outline's contours, reversed if needed so that its largest contour
    /// runs clockwise on screen (positive area with y down): the stroke of one contour then
    /// always has winding +1, and strokes that overlap fill under the non-zero rule.
    mutating func appendNormalized(_ o: DeviceOutline) {
        var first = 0
        var largest = 0.0, sign = 1.0
        for e in o.ends {
            let last = Int(e)
            guard last >= first else { continue }
            var area = 0.0
            for k in first...last {
                let p = o.points[k], q = o.points[k == last ? first : k + 1]
                area += Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            }
            if abs(area) > largest { largest = abs(area); sign = area < 0 ? -1 : 1 }
            first = last + 1
        }
        first = 0
        for e in o.ends {
            let last = Int(e)
            guard last >= first else { continue }
            if sign < 0 {
                // Reverse in place but keep the first (on-curve) point first.
                points.append(o.points[first]); tags.append(o.tags[first])
                var k = last
                while k > first { points.append(o.points[k]); tags.append(o.tags[k]); k -= 1 }
            } else {
                points.append(contentsOf: o.points[first...last]); tags.append(contentsOf: o.tags[first...last])
            }
            ends.append(Int16(truncatingIfNeeded: points.count - 1))
            first = last + 1
        }
    }
}
