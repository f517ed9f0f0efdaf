// OutlineRasterizer: outlines into antialiased coverage through FreeType's "smooth" rasterizer
// (FT_Outline_Render in direct mode: a gray span callback, no bitmap), and strokes into
// outlines through FT_Stroker. It takes an Outline and an affine map to device pixels and
// hands back rows of spans (x, length, coverage 0…255), each coverage the exact area of the
// pixel inside the outline to 1/256 (FreeType computes cell areas from the edges, it does not
// sample), under the non-zero or even-odd rule.
//
// Why FreeType rather than growing Canvas's signed-distance rasterizer: a distance function is
// exact only for shapes that have a closed form (boxes, circles); arbitrary Bézier paths,
// strokes with joins and caps, dashes and glyphs have none, and the antialiasing of a distance
// (clamp(0.5 − d)) is right only where the edge is straight across the pixel. FreeType's
// rasterizer takes any outline of lines, quadratics and cubics, computes true area coverage
// (the same model as Skia's analytic AA, which Chromium draws with), and its stroker gives
// SVG's caps, joins and miter limit. It is already on every machine that has fonts, and it
// renders glyph outlines for text through the same path. Two of FreeType's own approximations
// are not exact enough and are done here instead: curves are flattened to 1/400 px before
// rendering (FreeType's chords lose 0.16 % of a disc), and to 1/100 px before stroking
// (FT_Stroker's offset curves stray 0.1 px on a circle); see `flattened`.
//
// Speed, Scripts/bench-vector at 1280 × 720 (shapes per second, one thread, a shared 2-core
// machine whose load varied between runs, so compare within a row): medium rects (120 × 80,
// turned) 52,093 filled against Canvas's 8,424, small rects (24 × 16) 239,787 against
// 156,023, medium circles (r 40) 34,985 against 21,862, small circles (r 10) 76,983 against
// 278,298 — the one case where the distance function, a handful of operations per pixel of a
// small box, beats flattening eight cubics into some 120 chords. Strokes run at 30–50 % of
// fills (FT_Stroker builds two offset outlines); Canvas cannot stroke.
//
// Coordinates: y runs down on the stage and up in FreeType; the outline goes to FreeType
// unflipped, so FreeType's scanline y is our pixel row y. Mirroring changes only contour
// orientation, which neither fill rule depends on. Points are 26.6 fixed point (1/64 px).
import CFreeType
import Synchronization

/// Which points an outline covers.
public enum FillRule: Hashable, Sendable {
    /// Covered where the contours wind around the point a non-zero number of times (SVG's default).
    case nonZero
    /// Covered where a ray from the point crosses the contours an odd number of times.
    case evenOdd
}

/// A rectangle of whole pixels, [x0, x1) × [y0, y1).
struct PixelRect: Hashable, Sendable {
    var x0: Int, y0: Int, x1: Int, y1: Int
    var isEmpty: Bool { x0 >= x1 || y0 >= y1 }
    var width: Int { max(0, x1 - x0) }
    var height: Int { max(0, y1 - y0) }

    func intersection(_ o: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }

    /// The pixels a box touches.
    init(covering b: Box) {
        func clampInt(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v))) }
        x0 = clampInt(b.x.rounded(.down)); y0 = clampInt(b.y.rounded(.down))
        x1 = clampInt(b.maxX.rounded(.up)); y1 = clampInt(b.maxY.rounded(.up))
    }

    init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }

    var box: Box { Box(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0)) }
}

/// The process's FreeType library. FreeType allows one library across threads as long as
/// faces are created and destroyed under a lock (FT_Library's documentation, "In multi-threaded
/// applications…"); FT_Outline_Render keeps its working memory on the stack, and each stroke
/// makes its own FT_Stroker, so drawing needs no lock.
final class FreeTypeLibrary: @unchecked Sendable {
    let handle: FT_Library
    /// Held while a face is created or destroyed.
    let faceLock = Mutex<Void>(())

    private init?() {
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { return nil }
        handle = lib
    }

    /// The library, made on first use (nil only if FreeType cannot allocate its tables).
    static let shared = FreeTypeLibrary()
}

/// An outline in FreeType's form, in device pixels: points in 26.6 fixed point, a tag per point
/// (on-curve, conic or cubic control), and the index of each contour's last point.
struct DeviceOutline {
    var points: [FT_Vector] = []
    var tags: [CChar] = []
    var ends: [Int16] = []

    var isEmpty: Bool { points.isEmpty }

    static let on = CChar(FT_CURVE_TAG_ON), conic = CChar(FT_CURVE_TAG_CONIC), cubic = CChar(FT_CURVE_TAG_CUBIC)

    /// 26.6 fixed point of a device coordinate (callers keep |v| ≤ maxCoordinate).
    @inline(__always)
    static func fixed(_ v: Double) -> FT_Pos { FT_Pos((v * 64).rounded()) }

    @inline(__always)
    mutating func add(_ p: Point, _ tag: CChar) {
        points.append(FT_Vector(x: DeviceOutline.fixed(p.x), y: DeviceOutline.fixed(p.y)))
        tags.append(tag)
    }

    mutating func endContour() {
        if let last = ends.last, Int(last) == points.count - 1 { return }
        if points.count > (ends.last.map { Int($0) + 1 } ?? 0) { ends.append(Int16(truncatingIfNeeded: points.count - 1)) }
    }

    /// Appends `outline` mapped by `m`, curves kept (every contour closed, as a fill needs).
    mutating func append(_ outline: Outline, _ m: Affine) {
        for c in outline.contours {
            add(m.apply(c.start), DeviceOutline.on)
            for s in c.segments {
                switch s {
                case .line(let p):
                    add(m.apply(p), DeviceOutline.on)
                case .quadratic(let p, let q):
                    add(m.apply(p), DeviceOutline.conic); add(m.apply(q), DeviceOutline.on)
                case .cubic(let p, let q, let r):
                    add(m.apply(p), DeviceOutline.cubic); add(m.apply(q), DeviceOutline.cubic); add(m.apply(r), DeviceOutline.on)
                }
            }
            endContour()
        }
    }

    /// Appends closed polygons given in device pixels.
    mutating func append(polygons: [[Point]]) {
        for poly in polygons where poly.count >= 3 {
            for p in poly { add(p, DeviceOutline.on) }
            endContour()
        }
    }

    /// The outline with its conic and cubic arcs replaced by chords within `tolerance` device
    /// pixels (Wang's formula on the 26.6 control points). FreeType's rasterizer flattens
    /// curves itself, but coarsely: its chords sit up to 1/25 px inside a circle of radius 32
    /// (a disc lost 0.16 % of its area, Tests/AnimCoreTests/Output/Vector), where chords
    /// within 1/400 px lose under 0.01 %. Nil when the result has more than `maxPoints`
    /// points (the caller then keeps the curves).
    func flattened(tolerance: Double) -> DeviceOutline? {
        var out = DeviceOutline()
        out.points.reserveCapacity(points.count * 2)
        let tol = tolerance * 64
        func mid(_ a: FT_Vector, _ b: FT_Vector) -> FT_Vector { FT_Vector(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        @inline(__always) func count(_ m2: Double, _ k: Double) -> Int {
            // Wang's formula: n = ⌈√(d(d−1)/8 · max |second difference| / tol)⌉, k = d(d−1)/8.
            Int(min(256, max(1, (k * m2.squareRoot() / tol).squareRoot().rounded(.up))))
        }
        @inline(__always) func norm2(_ x: FT_Pos, _ y: FT_Pos) -> Double { Double(x) * Double(x) + Double(y) * Double(y) }
        func conic(_ p0: FT_Vector, _ p1: FT_Vector, _ p2: FT_Vector) {
            let n = count(norm2(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y), 0.25)
            let x0 = Double(p0.x), y0 = Double(p0.y), x1 = Double(p1.x), y1 = Double(p1.y), x2 = Double(p2.x), y2 = Double(p2.y)
            for k in 1..<max(1, n) {
                let t = Double(k) / Double(n), u = 1 - t
                let a = u * u, b = 2 * u * t, c = t * t
                out.points.append(FT_Vector(x: FT_Pos((a * x0 + b * x1 + c * x2).rounded()), y: FT_Pos((a * y0 + b * y1 + c * y2).rounded())))
                out.tags.append(DeviceOutline.on)
            }
            out.points.append(p2); out.tags.append(DeviceOutline.on)
        }
        func cubic(_ p0: FT_Vector, _ p1: FT_Vector, _ p2: FT_Vector, _ p3: FT_Vector) {
            let n = count(max(norm2(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y), norm2(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y)), 0.75)
            let x0 = Double(p0.x), y0 = Double(p0.y), x1 = Double(p1.x), y1 = Double(p1.y)
            let x2 = Double(p2.x), y2 = Double(p2.y), x3 = Double(p3.x), y3 = Double(p3.y)
            for k in 1..<max(1, n) {
                let t = Double(k) / Double(n), u = 1 - t
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                out.points.append(FT_Vector(x: FT_Pos((a * x0 + b * x1 + c * x2 + d * x3).rounded()),
                                            y: FT_Pos((a * y0 + b * y1 + c * y2 + d * y3).rounded())))
                out.tags.append(DeviceOutline.on)
            }
            out.points.append(p3); out.tags.append(DeviceOutline.on)
        }
        var first = 0
        for e in ends {
            let last = Int(e)
            guard last >= first else { continue }
            let tag = { (k: Int) in self.tags[k] & 3 }
            if tag(first) != DeviceOutline.on {
                // A contour that starts off the curve (FreeType allows it): kept as it is.
                out.points += points[first...last]
                out.tags += tags[first...last]
            } else {
                out.points.append(points[first]); out.tags.append(DeviceOutline.on)
                var k = first + 1
                var pen = points[first]
                // Walk the contour once round, closing back to its first point.
                while k <= last + 1 {
                    let i = k > last ? first : k
                    if tag(i) == DeviceOutline.on {
                        if k <= last { out.points.append(points[i]); out.tags.append(DeviceOutline.on) }
                        pen = points[i]
                        k += 1
                    } else if tag(i) == DeviceOutline.cubic {
                        let c1 = points[i], c2 = points[k + 1 > last ? first : k + 1]
                        let endIndex = k + 2 > last ? first + (k + 2 - last - 1) : k + 2
                        let to = points[endIndex]
                        cubic(pen, c1, c2, to)
                        if k + 2 > last { out.points.removeLast(); out.tags.removeLast() }
                        pen = to
                        k += 3
                    } else {
                        // Conic: consecutive conic points imply on-curve points midway.
                        let c = points[i]
                        let ni = k + 1 > last ? first : k + 1
                        let to = tag(ni) == DeviceOutline.on ? points[ni] : mid(c, points[ni])
                        conic(pen, c, to)
                        if tag(ni) == DeviceOutline.on {
                            if k + 1 > last { out.points.removeLast(); out.tags.removeLast() }
                            k += 2
                        } else {
                            k += 1
                        }
                        pen = to
                    }
                }
            }
            out.ends.append(Int16(truncatingIfNeeded: out.points.count - 1))
            if out.points.count > OutlineRasterizer.maxPoints { return nil }
            first = last + 1
        }
        return out
    }

    /// Twice the signed area of the outline's polygon of points (x right, y as given).
    var signedArea2: Double {
        var area = 0.0
        var first = 0
        for e in ends {
            let last = Int(e)
            guard last >= first else { continue }
            for k in first...last {
                let p = points[k], q = points[k == last ? first : k + 1]
                area += Double(p.x) * Double(q.y) - Double(q.x) * Double(p.y)
            }
            first = last + 1
        }
        return area
    }

    /// Every contour reversed (each keeping its first point first): the same covered set under
    /// both fill rules.
    mutating func reverse() {
        var first = 0
        for e in ends {
            let last = Int(e)
            guard last > first + 1 else { first = last + 1; continue }
            points[(first + 1)...last].reverse()
            tags[(first + 1)...last].reverse()
            first = last + 1
        }
    }

    /// Calls `body` with FreeType's view of the outline.
    mutating func withFTOutline<R>(rule: FillRule, _ body: (inout FT_Outline) -> R) -> R {
        let n = points.count, nc = ends.count
        return points.withUnsafeMutableBufferPointer { p in
            tags.withUnsafeMutableBufferPointer { t in
                ends.withUnsafeMutableBufferPointer { e in
                    var o = FT_Outline()
                    o.n_points = Int16(truncatingIfNeeded: n)
                    o.n_contours = Int16(truncatingIfNeeded: nc)
                    o.points = p.baseAddress
                    o.tags = t.baseAddress
                    o.contours = e.baseAddress
                    o.flags = rule == .evenOdd ? Int32(FT_OUTLINE_EVEN_ODD_FILL) : 0
                    return body(&o)
                }
            }
        }
    }
}

/// Receives the spans of one render, a row at a time.
final class SpanSink {
    let body: (Int, UnsafeBufferPointer<FT_Span>) -> Void
    init(_ body: @escaping (Int, UnsafeBufferPointer<FT_Span>) -> Void) { self.body = body }
}

/// FreeType's gray span callback: hands a row to the sink in `user`.
private func graySpans(_ y: Int32, _ count: Int32, _ spans: UnsafePointer<FT_Span>?, _ user: UnsafeMutableRawPointer?) {
    guard let spans, let user, count > 0 else { return }
    let sink = Unmanaged<SpanSink>.fromOpaque(user).takeUnretainedValue()
    sink.body(Int(y), UnsafeBufferPointer(start: spans, count: Int(count)))
}

/// Rasterizes outlines and strokes with FreeType.
enum OutlineRasterizer {
    /// The most points one outline may have: FreeType's FT_OUTLINE_POINTS_MAX (its point count
    /// is a C short).
    static let maxPoints = 32_767

    /// The largest device coordinate handed to FreeType, in pixels. Geometry reaching further
    /// is flattened and clipped to the drawing region first (Sutherland–Hodgman, which keeps
    /// every winding number inside the region), so that no 26.6 value overflows FreeType's
    /// arithmetic (its cells are ints of 1/256 px).
    static let maxCoordinate: Double = 1_048_576

    /// The largest canvas side: FreeType's span x is a C short.
    static let maxSide = 32_767

    /// How far curves are flattened before FreeType rasterizes them, in device pixels.
    static let flatness = 1.0 / 400

    /// A span's coverage as a fraction. FreeType measures each cell's area in 1/256 of a
    /// pixel and clamps a full cell to 255. For cells swept one way (positive area in its
    /// terms) it truncates, so a value c is an area in [c, c + 1)/256; swept the other way it
    /// reports ⌈area⌉ − 1, so a half-covered pixel would read 127. `render` turns every
    /// outline to the first orientation, and c/256 is then exact for the areas that are
    /// whole 1/256ths (a pixel half, a quarter or 3/8 covered, as axis-aligned edges at
    /// fractions of a pixel give) and 1/512 low on average for the rest.
    @inline(__always)
    static func coverage(_ c: UInt8) -> Float { c == 255 ? 1 : Float(c) / 256 }

    /// Renders `outline` (device pixels) clipped to `clip`, calling `body` with each row's spans.
    /// Curves are flattened to `flatness` first when the result fits in one outline.
    static func render(_ outline: inout DeviceOutline, rule: FillRule, clip: PixelRect,
                       _ body: (Int, UnsafeBufferPointer<FT_Span>) -> Void) {
        guard !outline.isEmpty, !clip.isEmpty, let lib = FreeTypeLibrary.shared else { return }
        if outline.tags.contains(where: { $0 & 3 != DeviceOutline.on }), let flat = outline.flattened(tolerance: flatness) {
            outline = flat
        }
        if outline.signedArea2 > 0 { outline.reverse() }
        withoutActuallyEscaping(body) { body in
            let sink = SpanSink(body)
            _ = outline.withFTOutline(rule: rule) { o in
                var params = FT_Raster_Params()
                params.flags = Int32(FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP)
                params.gray_spans = graySpans
                params.user = Unmanaged.passUnretained(sink).toOpaque()
                params.clip_box = FT_BBox(xMin: FT_Pos(clip.x0), yMin: FT_Pos(clip.y0), xMax: FT_Pos(clip.x1), yMax: FT_Pos(clip.y1))
                return FT_Outline_Render(lib.handle, &o, &params)
            }
            withExtendedLifetime(sink) {}
        }
    }

    /// The device outline of a fill: `outline` mapped by `m`, clipped to `region` when it
    /// reaches beyond `maxCoordinate`. Nil when it has more than `maxPoints` points.
    static func fillOutline(_ outline: Outline, _ m: Affine, region: PixelRect) -> DeviceOutline? {
        var d = DeviceOutline()
        guard let cb = outline.controlBounds?.transformed(by: m) else { return d }
        let lim = maxCoordinate
        if cb.x >= -lim && cb.maxX <= lim && cb.y >= -lim && cb.maxY <= lim {
            guard outline.pointCount <= maxPoints else { return nil }
            d.append(outline, m)
        } else {
            let clip = region.box.expanded(2, 2)
            let polys = outline.contours.map { Clipping.polygon(flattenedClose: $0, m, within: clip) }
            guard polys.reduce(0, { $0 + $1.count }) <= maxPoints else { return nil }
            d.append(polygons: polys)
        }
        return d
    }
}

// MARK: - Clipping far-reaching geometry

/// Flattening and clipping for outlines that reach beyond FreeType's safe range.
enum Clipping {
    /// The contour (closed) mapped by `m` into device pixels, flattened to 1/20 px where it
    /// passes through `box` (a segment whose control points all lie beyond one side of the box
    /// becomes its chord: it cannot change a winding number inside), then clipped to `box`.
    static func polygon(flattenedClose c: Outline.Contour, _ m: Affine, within box: Box) -> [Point] {
        var pts: [Point] = [m.apply(c.start)]
        var p0 = c.start
        for s in c.segments {
            flatten(s, from: p0, m, box: box, into: &pts)
            p0 = s.end
        }
        return sutherlandHodgman(pts, box)
    }

    /// Appends the device points of one segment after its start.
    static func flatten(_ s: Outline.Segment, from p0: Point, _ m: Affine, box: Box, into pts: inout [Point]) {
        let ctrl: [Point]
        switch s {
        case .line(let p): pts.append(m.apply(p)); return
        case .quadratic(let p, let q): ctrl = [p0, p, q].map(m.apply)
        case .cubic(let p, let q, let r): ctrl = [p0, p, q, r].map(m.apply)
        }
        if ctrl.allSatisfy({ $0.x < box.x }) || ctrl.allSatisfy({ $0.x > box.maxX })
            || ctrl.allSatisfy({ $0.y < box.y }) || ctrl.allSatisfy({ $0.y > box.maxY }) {
            pts.append(ctrl[ctrl.count - 1])
            return
        }
        let dev: Outline.Segment = ctrl.count == 3 ? .quadratic(ctrl[1], ctrl[2]) : .cubic(ctrl[1], ctrl[2], ctrl[3])
        let table = OutlineMeasure.table(dev, from: ctrl[0], tolerance: 0.05)
        for t in table.ts.dropFirst() { pts.append(OutlineMeasure.point(dev, from: ctrl[0], at: t)) }
    }

    /// A closed polygon clipped to a box (Sutherland–Hodgman, 1974). The result may run along
    /// the box's edges, which keeps the winding number of every point inside the box.
    static func sutherlandHodgman(_ poly: [Point], _ b: Box) -> [Point] {
        var out = poly
        let edges: [(Point) -> Double] = [{ $0.x - b.x }, { b.maxX - $0.x }, { $0.y - b.y }, { b.maxY - $0.y }]
        for inside in edges {
            guard !out.isEmpty else { break }
            let input = out
            out = []
            var prev = input[input.count - 1]
            var prevIn = inside(prev) >= 0
            for p in input {
                let pIn = inside(p) >= 0
                if pIn != prevIn {
                    let dp = inside(prev), dq = inside(p)
                    let t = dp / (dp - dq)
                    out.append(Point(prev.x + (p.x - prev.x) * t, prev.y + (p.y - prev.y) * t))
                }
                if pIn { out.append(p) }
                prev = p
                prevIn = pIn
            }
        }
        return out
    }

    /// An open polyline cut to the parts inside a box (Liang–Barsky per segment, 1984).
    static func polylines(_ pts: [Point], within b: Box) -> [[Point]] {
        var out: [[Point]] = []
        var current: [Point] = []
        for k in 1..<max(1, pts.count) {
            let p = pts[k - 1], q = pts[k]
            let dx = q.x - p.x, dy = q.y - p.y
            var t0 = 0.0, t1 = 1.0
            var visible = true
            for (pk, qk) in [(-dx, p.x - b.x), (dx, b.maxX - p.x), (-dy, p.y - b.y), (dy, b.maxY - p.y)] {
                if pk == 0 {
                    if qk < 0 { visible = false; break }
                } else {
                    let r = qk / pk
                    if pk < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                    if t0 > t1 { visible = false; break }
                }
            }
            if !visible { if current.count > 1 { out.append(current) }; current = []; continue }
            let a = Point(p.x + dx * t0, p.y + dy * t0), e = Point(p.x + dx * t1, p.y + dy * t1)
            if current.isEmpty || t0 > 0 {
                if current.count > 1 { out.append(current) }
                current = [a]
            }
            current.append(e)
            if t1 < 1 { out.append(current); current = [] }
        }
        if current.count > 1 { out.append(current) }
        return out
    }
}
