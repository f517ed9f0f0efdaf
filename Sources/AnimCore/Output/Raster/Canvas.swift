// Canvas: an RGBA pixel buffer and the rasterizer that paints a StageFrame into it. Shapes are
// filled by coverage from a signed distance (rounded box or circle, in the shape's own
// rotated and scaled coordinates), which antialiases edges the way browsers do: a pixel whose
// center lies half a pixel inside an edge is fully covered. Compositing is source-over in
// sRGB with premultiplied alpha, as in SVG and CSS. Text shapes are drawn by the vector layer
// (StageText), in the same paint order.

/// An RGBA image with premultiplied float channels in 0...1.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied r, g, b, a per pixel, row-major from the top-left.
    public var pixels: [Float]

    /// A canvas filled with one color.
    public init(width: Int, height: Int, fill: Color = Color(r: 0, g: 0, b: 0, a: 0)) {
        self.width = max(0, width)
        self.height = max(0, height)
        let a = Float(max(0, min(1, fill.a)))
        let r = Float(fill.r / 255) * a, g = Float(fill.g / 255) * a, b = Float(fill.b / 255) * a
        pixels = [Float](repeating: 0, count: self.width * self.height * 4)
        pixels.withUnsafeMutableBufferPointer { buf in
            var i = 0
            let n = buf.count
            while i < n {
                buf[i] = r; buf[i + 1] = g; buf[i + 2] = b; buf[i + 3] = a
                i += 4
            }
        }
    }

    /// A canvas from 8-bit straight-alpha RGBA bytes.
    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: min(rgba.count, pixels.count), by: 4) {
            let a = Float(rgba[i + 3]) / 255
            pixels[i] = Float(rgba[i]) / 255 * a
            pixels[i + 1] = Float(rgba[i + 1]) / 255 * a
            pixels[i + 2] = Float(rgba[i + 2]) / 255 * a
            pixels[i + 3] = a
        }
    }

    /// The pixels as 8-bit straight-alpha RGBA, rounded to nearest.
    public var rgba: [UInt8] {
        var out: [UInt8] = []
        _ = writeBytes(into: &out, dropOpaqueAlpha: false)
        return out
    }

    /// Writes the pixels as 8-bit straight-alpha RGBA, rounded to nearest (half up), into
    /// `out`, resized to fit (a renderer reuses one buffer for every frame). With
    /// `dropOpaqueAlpha`, when every pixel is opaque it writes RGB instead, three bytes a
    /// pixel; returns whether it did.
    public func writeBytes(into out: inout [UInt8], dropOpaqueAlpha: Bool) -> Bool {
        let n = pixels.count / 4
        if dropOpaqueAlpha {
            if out.count != n * 3 { out = [UInt8](repeating: 0, count: n * 3) }
            // Optimistic: RGB until a pixel that is not opaque, then RGBA from the start.
            let opaque = pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for p in 0..<n {
                        let i = p * 4, o = p * 3
                        guard src[i + 3] >= 1 else { return false }
                        dst[o] = Canvas.opaqueByte(src[i]); dst[o + 1] = Canvas.opaqueByte(src[i + 1]); dst[o + 2] = Canvas.opaqueByte(src[i + 2])
                    }
                    return true
                }
            }
            if opaque { return true }
        }
        if out.count != n * 4 { out = [UInt8](repeating: 0, count: n * 4) }
        // Unsafe buffers and plain arithmetic: this runs for every pixel of every frame.
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for p in 0..<n {
                    let i = p * 4
                    let a = src[i + 3]
                    if a >= 1 {
                        dst[i] = Canvas.opaqueByte(src[i]); dst[i + 1] = Canvas.opaqueByte(src[i + 1])
                        dst[i + 2] = Canvas.opaqueByte(src[i + 2]); dst[i + 3] = 255
                    } else if a > 0 {
                        let k = 255 / a
                        dst[i] = UInt8(min(255, src[i] * k + 0.5)); dst[i + 1] = UInt8(min(255, src[i + 1] * k + 0.5))
                        dst[i + 2] = UInt8(min(255, src[i + 2] * k + 0.5)); dst[i + 3] = UInt8(a * 255 + 0.5)
                    } else {
                        dst[i] = 0; dst[i + 1] = 0; dst[i + 2] = 0; dst[i + 3] = 0
                    }
                }
            }
        }
        return false
    }

    /// ⌊x × 255 + ½⌋ for a channel of an opaque pixel (0 ≤ x ≤ 1, give or take rounding), as
    /// `UInt8(x * 255 + 0.5)` gives it, through a 32-bit conversion whose range check never
    /// fails here (the 8-bit one's must compare against 255 on every channel).
    @inline(__always)
    static func opaqueByte(_ x: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int32(min(255, max(0, x * 255 + 0.5))))
    }

    /// A 0...1 channel as a byte.
    @inline(__always)
    static func byte(_ x: Float) -> UInt8 { UInt8(max(0, min(255, (x * 255).rounded()))) }

    /// The straight-alpha 8-bit color of the pixel at (x, y).
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        let a = pixels[i + 3]
        let inv: Float = a > 0 ? 1 / a : 0
        return (Canvas.byte(pixels[i] * inv), Canvas.byte(pixels[i + 1] * inv), Canvas.byte(pixels[i + 2] * inv), Canvas.byte(a))
    }

    // MARK: - Painting

    /// Paints a stage frame with its top-left at (`left`, `top`), scaled by `scale`.
    public mutating func draw(_ frame: StageFrame, left: Int = 0, top: Int = 0, scale: Double = 1) {
        let w = Int((frame.size.x * scale).rounded()), h = Int((frame.size.y * scale).rounded())
        if left == 0 && top == 0 && w == width && h == height && frame.background.a >= 1 {
            // An opaque stage covering the canvas replaces it: no blending needed.
            clear(to: frame.background)
        } else {
            fillRect(x: left, y: top, width: w, height: h, color: frame.background)
        }
        let clip = (x0: left, y0: top, x1: left + w, y1: top + h)
        for s in frame.shapes {
            if s.kind == .text {
                drawText(s, originX: Double(left), originY: Double(top), scale: scale, clip: clip)
            } else if s.kind == .image {
                drawImage(s, path: frame.imagePath(s.file), originX: Double(left), originY: Double(top), scale: scale, clip: clip)
            } else if s.isPlainFill {
                fill(s, originX: Double(left), originY: Double(top), scale: scale, clip: clip)
            } else {
                drawOutline(s, originX: Double(left), originY: Double(top), scale: scale, clip: clip)
            }
        }
    }

    /// Draws a text shape through the vector layer (StageText), clipped to `clip`.
    mutating func drawText(_ s: ShapeSnapshot, originX: Double, originY: Double, scale: Double,
                           clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        guard !s.text.isEmpty, s.opacity > 0, let face = StageText.face(for: s) else { return }
        withVector(clip: clip) { $0.drawText(s, face: face, originX: originX, originY: originY, scale: scale) }
    }

    /// Fills the whole canvas with one color, in place (a renderer reuses one canvas for
    /// every frame).
    public mutating func clear(to color: Color) {
        let a = Float(max(0, min(1, color.a)))
        let r = Float(color.r / 255) * a, g = Float(color.g / 255) * a, b = Float(color.b / 255) * a
        pixels.withUnsafeMutableBufferPointer { buf in
            // One 16-byte pixel at a time.
            UnsafeMutableRawBufferPointer(buf).withMemoryRebound(to: SIMD4<Float>.self) { $0.update(repeating: SIMD4(r, g, b, a)) }
        }
    }

    /// Fills an axis-aligned pixel rectangle (clipped to the canvas) with a color, source-over.
    public mutating func fillRect(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let a = Float(max(0, min(1, color.a)))
        let src: (Float, Float, Float) = (Float(color.r / 255), Float(color.g / 255), Float(color.b / 255))
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buf in
            for py in y0..<y1 {
                for px in x0..<x1 {
                    Canvas.blend(buf, (py * width + px) * 4, src, a)
                }
            }
        }
    }

    /// Source-over of a straight color with coverage-weighted alpha `a` at offset `i`.
    @inline(__always)
    static func blend(_ buf: UnsafeMutableBufferPointer<Float>, _ i: Int, _ c: (Float, Float, Float), _ a: Float) {
        let k = 1 - a
        buf[i] = c.0 * a + buf[i] * k
        buf[i + 1] = c.1 * a + buf[i + 1] * k
        buf[i + 2] = c.2 * a + buf[i + 2] * k
        buf[i + 3] = a + buf[i + 3] * k
    }

    /// Fills one rect or circle, antialiased.
    ///
    /// Each pixel's coverage is 0.5 − d (clamped to 0…1), d being the signed distance from
    /// its center to the shape's edge in canvas pixels. Only pixels near the edge need d: on
    /// each row the pixels certainly outside (d ≥ ½ px, coverage 0) are skipped and those
    /// certainly inside (d ≤ −½ px, coverage exactly 1) are filled without it. Both spans are
    /// solved from the row's line in the shape's coordinates — against the box (or, for a
    /// circle, the disk) grown or shrunk by half a pixel — and then kept a pixel clear of the
    /// bounds, so every pixel the distance would have decided still gets it: the result is
    /// the same as evaluating d everywhere.
    mutating func fill(_ s: ShapeSnapshot, originX: Double, originY: Double, scale: Double,
                       clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let opacity = Float(s.opacity)
        let half = s.halfExtents
        let sx = s.scale.x, sy = s.scale.y
        guard opacity > 0, half.x > 0, half.y > 0, abs(sx) > 1e-12, abs(sy) > 1e-12 else { return }
        let r = s.cornerRadius
        let theta = s.rotation * Double.pi / 180
        let cosT = cos(theta), sinT = sin(theta)
        // Canvas pixel → stage: (p - origin)/scale. Stage → local: R⁻¹ then S⁻¹ around position.
        // An anchored shape is the same box turned about its own center, drawn elsewhere.
        let at = s.drawnCenter
        let cx = originX + at.x * scale, cy = originY + at.y * scale
        // Local distances become canvas pixels through the smaller of the two axis scales.
        let toPixels = min(abs(sx), abs(sy)) * scale
        // The bounding box of the transformed shape, in canvas pixels.
        let ex = (abs(half.x * sx * cosT) + abs(half.y * sy * sinT)) * scale
        let ey = (abs(half.x * sx * sinT) + abs(half.y * sy * cosT)) * scale
        // Beyond the floating-point range there is nothing sensible to draw (a shape can be
        // bigger than the canvas, but not at an infinite position).
        guard cx.isFinite, cy.isFinite, !ex.isNaN, !ey.isNaN, toPixels.isFinite else { return }
        // The box, clamped in floating point before it becomes whole pixels.
        func pixel(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(max(Double(lo), min(Double(hi), v))) }
        let x0 = pixel((cx - ex).rounded(.down) - 1, max(clip.x0, 0), min(clip.x1, width))
        let x1 = pixel((cx + ex).rounded(.up) + 1, max(clip.x0, 0), min(clip.x1, width))
        let y0 = pixel((cy - ey).rounded(.down) - 1, max(clip.y0, 0), min(clip.y1, height))
        let y1 = pixel((cy + ey).rounded(.up) + 1, max(clip.y0, 0), min(clip.y1, height))
        guard x0 < x1, y0 < y1 else { return }
        let color: (Float, Float, Float) = (Float(s.color.r / 255), Float(s.color.g / 255), Float(s.color.b / 255))
        let invScale = 1 / scale
        let width = self.width
        // Along a row, the local coordinates are affine in u = px + 0.5 − cx:
        // lx = ax·u + bx, ly = ay·u + by, with bx and by depending on the row.
        let ax = invScale * cosT / sx, ay = -invScale * sinT / sy
        // Half a pixel in local units: coverage is 0 where d ≥ margin and 1 where d ≤ −margin.
        let margin = 0.5 / toPixels
        // A box whose corner radius is its half size is a disk (a circle, mostly).
        let disk = r == half.x && r == half.y
        // d ≥ max(|x| − hx, |y| − hy), so nothing outside the box grown by the margin is
        // covered; and two crossed boxes, |x| ≤ hx − m, |y| ≤ hy − max(r, m) and the same with
        // x and y swapped, hold only points at d ≤ −m.
        let inner = max(r, margin)
        let wide = (x: half.x - margin, y: half.y - inner), tall = (x: half.x - inner, y: half.y - margin)
        pixels.withUnsafeMutableBufferPointer { buf in
            @inline(__always) func edgePixel(_ px: Int, _ py: Int, _ dy: Double) {
                let dx = (Double(px) + 0.5 - cx) * invScale
                // Undo the rotation (clockwise on screen, y down), then the scale.
                let lx = (dx * cosT + dy * sinT) / sx
                let ly = (-dx * sinT + dy * cosT) / sy
                let d = Canvas.roundedBoxDistance(lx, ly, half.x, half.y, r) * toPixels
                let coverage = Float(max(0, min(1, 0.5 - d)))
                if coverage > 0 { Canvas.blend(buf, (py * width + px) * 4, color, coverage * opacity) }
            }
            for py in y0..<y1 {
                let dy = (Double(py) + 0.5 - cy) * invScale
                let bx = dy * sinT / sx, by = dy * cosT / sy
                // The pixels whose centers have u in [u0, u1], widened by one each side.
                func pixels(_ u: (Double, Double)?, widen: Int) -> (Int, Int) {
                    guard let (u0, u1) = u, u0 <= u1 else { return (x0, x0) }
                    let lo = pixel((u0 + cx - 0.5).rounded(.up), x0 - 1, x1 + 1) - widen
                    let hi = pixel((u1 + cx - 0.5).rounded(.down), x0 - 1, x1 + 1) + 1 + widen
                    return (max(x0, lo), min(x1, hi))
                }
                let outer = pixels(disk ? Canvas.disk(ax, bx, ay, by, r + margin)
                                        : Canvas.slabs(ax, bx, ay, by, half.x + margin, half.y + margin), widen: 1)
                guard outer.0 < outer.1 else { continue }
                var core = (outer.0, outer.0)
                if disk {
                    if r > margin { core = pixels(Canvas.disk(ax, bx, ay, by, r - margin), widen: -1) }
                } else {
                    // The longer of the two crossed boxes' spans (they may not meet on this row).
                    if wide.x > 0 && wide.y > 0 { core = pixels(Canvas.slabs(ax, bx, ay, by, wide.x, wide.y), widen: -1) }
                    if tall.x > 0 && tall.y > 0 {
                        let span = pixels(Canvas.slabs(ax, bx, ay, by, tall.x, tall.y), widen: -1)
                        if span.1 - span.0 > core.1 - core.0 { core = span }
                    }
                }
                core = (max(outer.0, core.0), min(outer.1, core.1))
                if core.0 >= core.1 { core = (outer.1, outer.1) }
                for px in outer.0..<core.0 { edgePixel(px, py, dy) }
                if core.0 < core.1 {
                    let row = py * width
                    if opacity >= 1 {
                        for px in core.0..<core.1 {
                            let i = (row + px) * 4
                            buf[i] = color.0; buf[i + 1] = color.1; buf[i + 2] = color.2; buf[i + 3] = 1
                        }
                    } else {
                        for px in core.0..<core.1 { Canvas.blend(buf, (row + px) * 4, color, opacity) }
                    }
                }
                for px in max(core.1, outer.0)..<outer.1 { edgePixel(px, py, dy) }
            }
        }
    }

    /// The u where |ax·u + bx| ≤ lx and |ay·u + by| ≤ ly (nil: none).
    @inline(__always)
    static func slabs(_ ax: Double, _ bx: Double, _ ay: Double, _ by: Double, _ lx: Double, _ ly: Double) -> (Double, Double)? {
        var lo = -Double.infinity, hi = Double.infinity
        @inline(__always) func slab(_ a: Double, _ b: Double, _ l: Double) -> Bool {
            if a == 0 { return abs(b) <= l }
            let p = (-l - b) / a, q = (l - b) / a
            lo = max(lo, min(p, q))
            hi = min(hi, max(p, q))
            return true
        }
        guard slab(ax, bx, lx), slab(ay, by, ly) else { return nil }
        return lo <= hi ? (lo, hi) : nil
    }

    /// The u where (ax·u + bx)² + (ay·u + by)² ≤ ρ² (nil: none).
    @inline(__always)
    static func disk(_ ax: Double, _ bx: Double, _ ay: Double, _ by: Double, _ rho: Double) -> (Double, Double)? {
        let a = ax * ax + ay * ay, b = ax * bx + ay * by, c = bx * bx + by * by - rho * rho
        guard a > 0 else { return c <= 0 ? (-.infinity, .infinity) : nil }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let root = disc.squareRoot()
        return ((-b - root) / a, (-b + root) / a)
    }

    /// Signed distance from (x, y) to a box of half extents (hx, hy) centered at the origin,
    /// with corner radius r: negative inside. Source: Quílez, "2D distance functions"
    /// (sdRoundedBox).
    @inline(__always)
    static func roundedBoxDistance(_ x: Double, _ y: Double, _ hx: Double, _ hy: Double, _ r: Double) -> Double {
        let qx = abs(x) - hx + r, qy = abs(y) - hy + r
        let ox = max(qx, 0), oy = max(qy, 0)
        return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - r
    }
}

#if canImport(Glibc)
import Glibc
#endif
