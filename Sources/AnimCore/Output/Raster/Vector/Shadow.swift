// Shadow: a drop shadow — the shape's own alpha (fill and stroke together, after its paint's
// alpha), offset, blurred and tinted, drawn under the shape, as CSS `filter: drop-shadow()`,
// SVG's feDropShadow, Core Animation's layer shadow and Lottie's drop-shadow effect do (not
// CSS box-shadow, which is cut away under the box: a translucent shape shows its shadow
// through itself here). The blur follows CSS: a blur of B is a Gaussian of standard deviation
// B/2. The shadow belongs to the shape, so its offset and blur turn and scale with the shape's
// transform (exactly for rotation and uniform scale; under a non-uniform scale each device
// axis gets the deviation of the transformed Gaussian along it).
//
// The blur is three box blurs, as SVG specifies for feGaussianBlur (Filter Effects 1 §9.12):
// boxes of width d = ⌊σ·3·√(2π)/4 + 0.5⌋ (d even: two of d, offset half a pixel each way, and
// one of d + 1), whose result is within 2 % of the Gaussian's step response, at three additions
// per pixel whatever σ is (an exact kernel costs 6σ). Skia, and so Chromium, uses the same
// boxes for every σ, down to the small ones where the spec allows an exact kernel (and where
// d ≤ 1, σ < 0.8, means no blur at all); anim does too, so that its shadows agree with the
// browser's to the level (measured: Tests/AnimCoreTests/Output/Vector).
#if canImport(Glibc)
import Glibc
#endif

/// A drop shadow.
public struct Shadow: Hashable, Sendable {
    /// The offset, in the shape's local units.
    public let offset: Point
    /// The blur, CSS's blur radius in local units: a Gaussian of standard deviation blur / 2.
    public let blur: Double
    /// The colour (its alpha scales the shadow).
    public let color: Color

    /// The largest blur: a deviation of 128 px, past which a shadow is a faint haze and its
    /// layer would cost more memory than the frame.
    public static let maxBlur = 256.0

    /// A shadow; a negative or too large blur, or a non-finite number, is an error.
    public init(offset: Point, blur: Double, color: Color) throws(VectorError) {
        guard offset.x.isFinite, offset.y.isFinite else { throw .notFinite("the shadow offset") }
        guard blur.isFinite else { throw .notFinite("the shadow blur") }
        guard blur >= 0 else { throw .negativeShadowBlur(blur) }
        guard blur <= Shadow.maxBlur else { throw .shadowBlurTooLarge(blur, limit: Shadow.maxBlur) }
        guard color.r.isFinite, color.g.isFinite, color.b.isFinite, color.a.isFinite else { throw .notFinite("the shadow colour") }
        self.offset = offset
        self.blur = blur
        self.color = color
    }

    /// The shadow in device pixels under `m`.
    func device(_ m: Affine) -> DeviceShadow {
        let sigma = blur / 2
        let off = m.applyLinear(offset)
        let cap = Shadow.maxBlur / 2
        return DeviceShadow(dx: off.x, dy: off.y,
                            sigmaX: min(cap, sigma * (m.a * m.a + m.c * m.c).squareRoot()),
                            sigmaY: min(cap, sigma * (m.b * m.b + m.d * m.d).squareRoot()),
                            color: Gradient.channels(color))
    }
}

/// A shadow in device pixels.
struct DeviceShadow {
    var dx: Double, dy: Double
    var sigmaX: Double, sigmaY: Double
    var color: (Float, Float, Float, Float)

    /// How far the blur spreads past the shape, in whole pixels, per axis.
    var reach: (x: Int, y: Int) { (Blur.reach(sigmaX), Blur.reach(sigmaY)) }
}

/// Separable blurs of an alpha plane.
enum Blur {
    /// Pixels a blur of deviation σ spreads a point over, each way.
    static func reach(_ sigma: Double) -> Int {
        guard sigma > 0 else { return 0 }
        let d = boxWidth(sigma)
        return (3 * d) / 2 + 2
    }

    /// SVG's box width for a deviation σ: ⌊σ·3·√(2π)/4 + 0.5⌋.
    static func boxWidth(_ sigma: Double) -> Int {
        Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
    }

    /// Blurs `plane` (w × h, row-major) in place, along x with σx and along y with σy. Values
    /// beyond the plane are zero: callers pad it by `reach`.
    static func blur(_ plane: inout [Float], width w: Int, height h: Int, sigmaX: Double, sigmaY: Double) {
        guard w > 0, h > 0 else { return }
        var line = [Float](repeating: 0, count: max(w, h))
        var out = [Float](repeating: 0, count: max(w, h))
        if sigmaX > 0 {
            for y in 0..<h {
                for x in 0..<w { line[x] = plane[y * w + x] }
                blurLine(&line, &out, count: w, sigma: sigmaX)
                for x in 0..<w { plane[y * w + x] = line[x] }
            }
        }
        if sigmaY > 0 {
            for x in 0..<w {
                for y in 0..<h { line[y] = plane[y * w + x] }
                blurLine(&line, &out, count: h, sigma: sigmaY)
                for y in 0..<h { plane[y * w + x] = line[y] }
            }
        }
    }

    /// One row or column: SVG's three boxes.
    static func blurLine(_ line: inout [Float], _ tmp: inout [Float], count n: Int, sigma: Double) {
        let d = boxWidth(sigma)
        guard d > 1 else { return }
        if d % 2 == 1 {
            let h = d / 2
            box(&line, &tmp, n, -h, h); box(&line, &tmp, n, -h, h); box(&line, &tmp, n, -h, h)
        } else {
            let h = d / 2
            // Centered on the boundary to the left, then to the right, then d + 1 centered.
            box(&line, &tmp, n, -h, h - 1); box(&line, &tmp, n, -h + 1, h); box(&line, &tmp, n, -h, h)
        }
    }

    /// A box blur averaging line[i + lo … i + hi] into line[i] (zero outside).
    static func box(_ line: inout [Float], _ tmp: inout [Float], _ n: Int, _ lo: Int, _ hi: Int) {
        let scale = 1 / Float(hi - lo + 1)
        // Running sum in Double so that long rows do not drift.
        var acc = 0.0
        for j in max(0, lo)...min(n - 1, max(0, hi)) where j >= lo && j <= hi { acc += Double(line[j]) }
        for i in 0..<n {
            tmp[i] = Float(acc) * scale
            let add = i + 1 + hi, drop = i + lo
            if add >= 0 && add < n { acc += Double(line[add]) }
            if drop >= 0 && drop < n { acc -= Double(line[drop]) }
        }
        for i in 0..<n { line[i] = max(0, tmp[i]) }
    }
}
