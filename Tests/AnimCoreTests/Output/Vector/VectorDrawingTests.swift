// The vector drawing layer on its own terms: coverage is the exact area where it can be (a
// half-covered pixel is half covered, a disc's ink is πr²), strokes have the widths, caps and
// joins whose areas geometry gives, dashes and trims keep the lengths they were asked for,
// gradients have the colours CSS gives at known points, text is DejaVu laid out with its
// kerning, images scale bilinearly and average when drawn small, shadows fall off as the
// Gaussian of deviation blur/2, and bad input is an error with a message, never a crash.
// (VectorChromiumTests compares the same layer with Chromium.)
@testable import AnimCore
import Foundation
import Testing

/// |a − b| ≤ tol.
private func near(_ a: Double, _ b: Double, _ tol: Double) -> Bool { abs(a - b) <= tol }

/// The standard normal CDF.
private func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }

private let black = Paint.solid(Ink.black)

/// How far an ink sum may fall short for edges of total length `length` that are not
/// axis-aligned: FreeType measures a cell's area to 1/256 of a pixel (truncating), and an edge
/// of length L crosses at most 2L pixels.
private func curveTolerance(_ length: Double) -> Double { 2 * length / 256 }

// MARK: - Coverage

@Suite("Vector coverage")
struct VectorCoverageTests {
    @Test("a pixel half inside a rect is half covered, a quarter inside a quarter")
    func partialPixels() throws {
        var v = VectorCanvas.white(40, 40)
        try v.fill(.rect(Box(x: 10.5, y: 10.25, width: 10, height: 10)), paint: black)
        #expect(near(v.inkAt(10, 15), 0.5, 0.005))     // left edge at x = 10.5
        #expect(near(v.inkAt(11, 15), 1, 0.005))
        #expect(near(v.inkAt(20, 15), 0.5, 0.005))     // right edge at 20.5
        #expect(near(v.inkAt(21, 15), 0, 0.005))
        #expect(near(v.inkAt(15, 10), 0.75, 0.005))    // top edge at 10.25
        #expect(near(v.inkAt(15, 20), 0.25, 0.005))    // bottom edge at 20.25
        #expect(near(v.inkAt(10, 10), 0.375, 0.005))   // corner: 0.5 × 0.75
        #expect(near(v.ink(), 100, 0.05))
    }

    @Test("a pixel cut by its diagonal is half covered")
    func diagonal() throws {
        var v = VectorCanvas.white(8, 8)
        try v.fill(.polygon([Point(2, 2), Point(6, 2), Point(2, 6)]), paint: black)
        for k in 0..<4 { #expect(near(v.inkAt(2 + k, 5 - k), 0.5, 0.005)) }
        #expect(near(v.ink(), 8, 0.02))
    }

    @Test("a disc's ink is its area, and its edge pixels have the area inside")
    func disc() throws {
        var v = VectorCanvas.white(100, 100)
        try v.fill(.circle(center: Point(50.3, 49.6), radius: 31.7), paint: black)
        #expect(near(v.ink(), Double.pi * 31.7 * 31.7, curveTolerance(2 * Double.pi * 31.7)))
        var w = VectorCanvas.white(80, 80)
        try w.fill(.circle(center: Point(40, 40), radius: 28), paint: black)
        // Pixel (66, 32): 0.9519 of it inside (by 400 × 400 sampling); (13, 32) is its mirror image.
        #expect(near(w.inkAt(66, 32), 0.9519, 0.01))
        #expect(near(w.inkAt(13, 32), 0.9519, 0.01))
    }

    @Test("non-zero fills a same-direction inner square; even-odd leaves it empty")
    func fillRules() throws {
        var o = Outline.rect(Box(x: 0, y: 0, width: 30, height: 30))
        o = o.appending(.rect(Box(x: 10, y: 10, width: 10, height: 10)))
        var nz = VectorCanvas.white(40, 40), eo = VectorCanvas.white(40, 40)
        try nz.fill(o, paint: black, rule: .nonZero)
        try eo.fill(o, paint: black, rule: .evenOdd)
        #expect(near(nz.inkAt(15, 15), 1, 0.005))
        #expect(near(eo.inkAt(15, 15), 0, 0.005))
        #expect(near(nz.ink(), 900, 0.1))
        #expect(near(eo.ink(), 800, 0.1))
    }

    @Test("alpha and opacity weight coverage as Canvas.blend does")
    func alpha() throws {
        var v = VectorCanvas.white(20, 20)
        try v.fill(.rect(Box(x: 0, y: 0, width: 10.5, height: 20)), paint: .solid(Color(r: 0, g: 0, b: 0, a: 0.5)), opacity: 0.5)
        #expect(near(v.inkAt(5, 5), 0.25, 0.003))
        #expect(near(v.inkAt(10, 5), 0.125, 0.003))
        // The same as Canvas's own rule: c·a + dst·(1 − a) with a = alpha × coverage × opacity.
        var c = Canvas(width: 1, height: 1, fill: Ink.white)
        c.pixels.withUnsafeMutableBufferPointer { Canvas.blend($0, 0, (0, 0, 0), 0.125) }
        #expect(near(Double(v.canvas.pixels[(5 * 20 + 10) * 4]), Double(c.pixels[0]), 0.003))
    }

    @Test("a rotated and scaled square covers its area; about() turns about the anchor")
    func transforms() throws {
        var v = VectorCanvas.white(100, 100)
        let m = Affine.about(Point(50, 50), rotation: 30, scale: Point(2, 1.5))
        try v.fill(.rect(Box(x: 40, y: 40, width: 20, height: 20)), paint: black, transform: m)
        #expect(near(v.ink(), 20 * 20 * 2 * 1.5, curveTolerance(140)))
        #expect(near(v.inkAt(50, 50), 1, 0.005))
        // A square turned 45° about its center reaches √2·10 from it along the axes.
        var w = VectorCanvas.white(60, 60)
        try w.fill(.rect(Box(x: 20, y: 20, width: 20, height: 20)), paint: black, transform: .about(Point(30, 30), rotation: 45))
        #expect(w.inkAt(30, 16) > 0.3)      // 30 − 14.14 = 15.86: inside the turned square's top corner
        #expect(near(w.inkAt(21, 21), 0, 0.005))    // the unturned square's corner is now outside
    }

    @Test("geometry far beyond the canvas is clipped, not overflowed")
    func farGeometry() throws {
        var v = VectorCanvas.white(20, 20)
        try v.fill(.rect(Box(x: -1e9, y: 5, width: 2e9, height: 10)), paint: black)
        #expect(near(v.ink(), 200, 0.1))
        try v.stroke(.line(from: Point(-1e12, 2), to: Point(1e12, 2)), style: StrokeStyle(width: 2), paint: black)
        #expect(near(v.ink(), 240, 0.2))
    }
}

// MARK: - Strokes

@Suite("Vector strokes")
struct VectorStrokeTests {
    func ink(_ o: Outline, _ style: StrokeStyle, size: Int = 120) throws -> VectorCanvas {
        var v = VectorCanvas.white(size, size)
        try v.stroke(o, style: style, paint: black)
        return v
    }

    @Test("a stroke is its width wide: 4 px rows full, the next row empty; 3 px leaves half rows")
    func widths() throws {
        let even = try ink(.line(from: Point(10, 20), to: Point(50, 20)), StrokeStyle(width: 4))
        for y in 18..<22 { #expect(near(even.inkAt(30, y), 1, 0.005)) }
        #expect(near(even.inkAt(30, 17), 0, 0.005) && near(even.inkAt(30, 22), 0, 0.005))
        #expect(near(even.ink(), 160, 0.1))
        let odd = try ink(.line(from: Point(10, 20), to: Point(50, 20)), StrokeStyle(width: 3))
        #expect(near(odd.inkAt(30, 18), 0.5, 0.005) && near(odd.inkAt(30, 21), 0.5, 0.005))
        #expect(near(odd.ink(), 120, 0.1))
    }

    @Test("caps: butt adds nothing, square half the width at each end, round a disc in all")
    func caps() throws {
        let line = Outline.line(from: Point(20, 20), to: Point(60, 20))
        let butt = try ink(line, StrokeStyle(width: 4)).ink()
        let square = try ink(line, StrokeStyle(width: 4, cap: .square)).ink()
        let round = try ink(line, StrokeStyle(width: 4, cap: .round)).ink()
        #expect(near(butt, 160, 0.1))
        #expect(near(square, 176, 0.1))
        #expect(near(round, 160 + Double.pi * 4, 0.15))
    }

    @Test("joins at a right angle: a miter adds the corner square, a bevel half of it, round a quarter disc")
    func joins() throws {
        let corner = Outline.polyline([Point(10, 10), Point(40, 10), Point(40, 40)])
        let miter = try ink(corner, StrokeStyle(width: 6, join: .miter))
        let bevel = try ink(corner, StrokeStyle(width: 6, join: .bevel))
        let round = try ink(corner, StrokeStyle(width: 6, join: .round))
        #expect(near(miter.ink() - bevel.ink(), 4.5, 0.1))
        #expect(near(round.ink() - bevel.ink(), Double.pi * 9 / 4 - 4.5, 0.1))
        // The pixel in the miter's corner: full for miter, empty past the bevel.
        #expect(near(miter.inkAt(42, 7), 1, 0.005))
        #expect(near(bevel.inkAt(42, 7), 0, 0.005))
    }

    @Test("a miter past the limit becomes a bevel (SVG's ratio 1/sin(θ/2))")
    func miterLimit() throws {
        // Legs 30° apart: the miter ratio is 1/sin(15°) = 3.864.
        let t = 15 * Double.pi / 180
        let tip = Point(60, 20)
        let v = Outline.polyline([Point(tip.x - 60 * sin(t), tip.y + 60 * cos(t)), tip, Point(tip.x + 60 * sin(t), tip.y + 60 * cos(t))])
        let within = try ink(v, StrokeStyle(width: 4, miterLimit: 4)).ink()
        let past = try ink(v, StrokeStyle(width: 4, miterLimit: 3.8)).ink()
        let bevel = try ink(v, StrokeStyle(width: 4, join: .bevel)).ink()
        #expect(near(past, bevel, 0.05))
        // The miter's extra area past the bevel: the triangle of half-width w/2 = 2 and
        // miter length (w/2)/sin(θ/2) beyond the corner, less the bevel's segment.
        let h = 2.0, m = h / sin(t)
        let extra = h * h * (m / h) * cos(t) - h * h * sin(t) * cos(t)    // (m − h·sin t)·h·cos t
        #expect(near(within - bevel, extra, 0.3))
    }

    @Test("a circle's stroke is the exact ring (curves are flattened before FT_Stroker)")
    func ring() throws {
        var v = VectorCanvas.white(200, 100)
        try v.stroke(.circle(center: Point(140, 45), radius: 25), style: StrokeStyle(width: 6), paint: black)
        // By 400 × 400 sampling of the ring 22 ≤ r ≤ 28: 0.9519 and 0.6769.
        #expect(near(v.inkAt(166, 37), 0.9519, 0.012))
        #expect(near(v.inkAt(147, 18), 0.9519, 0.012))
        #expect(near(v.inkAt(113, 36), 0.6769, 0.012))
        #expect(near(v.ink(), Double.pi * (28 * 28 - 22 * 22), curveTolerance(2 * Double.pi * 50)))
    }

    @Test("a non-uniform scale widens the stroke along the stretched axis, as SVG does")
    func scaledStroke() throws {
        var v = VectorCanvas.white(120, 60)
        try v.stroke(.rect(Box(x: 10, y: 10, width: 20, height: 20)), style: StrokeStyle(width: 2), paint: black,
                     transform: .scale(3, 1))
        // Vertical sides are 6 px wide (x 27…33), horizontal ones 2 px tall (y 9…11).
        for x in 27..<33 { #expect(near(v.inkAt(x, 20), 1, 0.005)) }
        #expect(near(v.inkAt(26, 20), 0, 0.005) && near(v.inkAt(33, 20), 0, 0.005))
        #expect(near(v.inkAt(60, 9), 1, 0.005) && near(v.inkAt(60, 11), 0, 0.005))
    }
}

// MARK: - Dashes and trim

@Suite("Vector dashes and trim")
struct VectorDashTests {
    func stroke(_ o: Outline, _ style: StrokeStyle) throws -> VectorCanvas {
        var v = VectorCanvas.white(240, 240)
        try v.stroke(o, style: style, paint: black)
        return v
    }

    let line = Outline.line(from: Point(10, 20), to: Point(110, 20))

    @Test("dashes have their lengths: 10 on 30 off from an offset of 5 draws 5 + 10 + 10")
    func dashLengths() throws {
        let v = try stroke(line, StrokeStyle(width: 2, dash: Dash([10, 30], offset: 5)))
        #expect(near(v.ink(), 25 * 2, 0.1))
        // On: x 10…15, 45…55, 85…95.
        #expect(near(v.inkAt(12, 19), 1, 0.005) && near(v.inkAt(20, 19), 0, 0.005))
        #expect(near(v.inkAt(50, 19), 1, 0.005) && near(v.inkAt(60, 19), 0, 0.005))
        #expect(near(v.inkAt(94, 19), 1, 0.005) && near(v.inkAt(95, 19), 0, 0.005))
        // An odd pattern repeats once (SVG): [10] is [10, 10].
        let odd = try stroke(line, StrokeStyle(width: 2, dash: Dash([10])))
        #expect(near(odd.ink(), 100, 0.1))
        // A pattern of zero total length draws the stroke solid.
        let zero = try stroke(line, StrokeStyle(width: 2, dash: Dash([0, 0])))
        #expect(near(zero.ink(), 200, 0.1))
    }

    @Test("zero-length dashes with round caps are dots of the stroke's width")
    func dots() throws {
        // Dots at 0, 10, …, 90: a dash that would start exactly at the end is not drawn, as in
        // Chromium (VectorChromiumTests' "dashes" scene ends on one).
        let v = try stroke(line, StrokeStyle(width: 4, cap: .round, dash: Dash([0, 10])))
        #expect(near(v.ink(), 10 * Double.pi * 4, curveTolerance(10 * 2 * Double.pi * 2)))
        #expect(v.inkAt(109, 20) < 0.01 && v.inkAt(99, 20) > 0.5)
        let butt = try stroke(line, StrokeStyle(width: 4, dash: Dash([0, 10])))
        #expect(near(butt.ink(), 0, 0.01))
    }

    @Test("dashes run on around a closed contour's corners and across its start")
    func closedDashes() throws {
        // A 100 × 100 square: perimeter 400, dashes 30 on 20 off → 8 × 30 = 240 on.
        let v = try stroke(.rect(Box(x: 20, y: 20, width: 100, height: 100)), StrokeStyle(width: 2, join: .bevel, dash: Dash([30, 20])))
        // Ink: 240 × 2 along the centre line, plus the corners' bevel triangles where a dash turns.
        #expect(v.ink() > 480 - 1 && v.ink() < 480 + 4 * 0.5 + 1)
    }

    @Test("trim draws the fraction of the length: 0.25…0.75 of a 100 line is x 35…85")
    func trim() throws {
        let v = try stroke(line, StrokeStyle(width: 2, trimStart: 0.25, trimEnd: 0.75))
        #expect(near(v.ink(), 100, 0.1))
        #expect(near(v.inkAt(34, 19), 0, 0.005) && near(v.inkAt(36, 19), 1, 0.005))
        #expect(near(v.inkAt(84, 19), 1, 0.005) && near(v.inkAt(86, 19), 0, 0.005))
        // Start after end is swapped (Lottie's trim paths); equal ends draw nothing.
        let swapped = try stroke(line, StrokeStyle(width: 2, trimStart: 0.75, trimEnd: 0.25))
        #expect(near(swapped.ink(), 100, 0.1))
        let none = try stroke(line, StrokeStyle(width: 2, trimStart: 0.5, trimEnd: 0.5))
        #expect(near(none.ink(), 0, 0.01))
    }

    @Test("trim of a curve is measured by arc length: half a circle is half its ink")
    func trimCurve() throws {
        let c = Outline.circle(center: Point(100, 100), radius: 50)
        let whole = try stroke(c, StrokeStyle(width: 2)).ink()
        let half = try stroke(c, StrokeStyle(width: 2, trimStart: 0, trimEnd: 0.5)).ink()
        #expect(near(whole, Double.pi * (51 * 51 - 49 * 49), curveTolerance(2 * Double.pi * 100)))
        #expect(near(half, Double.pi * 100 * 2 / 2, curveTolerance(Double.pi * 100)))
        // The measured length itself, by flattening.
        #expect(near(OutlineMeasure(c, tolerance: 0.001).length, 2 * Double.pi * 50, 0.01))
        let cubic = try PathData.parse("M 0 0 C 0 100, 100 100, 100 0").get()
        // The length of this cubic (by Gauss–Legendre quadrature of |B′(t)|, 64 points): 200.0
        // to the nearest 0.01 is not a round number; 2.5 % above the chord polygon's.
        let len = OutlineMeasure(cubic, tolerance: 0.0001).length
        #expect(len > 199 && len < 201)
    }

    @Test("dash and trim together: the dash pattern runs from the trimmed start")
    func dashAndTrim() throws {
        let v = try stroke(line, StrokeStyle(width: 2, dash: Dash([10, 10]), trimStart: 0.5, trimEnd: 1))
        // Trimmed to x 60…110; the pattern counts from the contour's start (x 10), so the
        // dashes on are 70…80, 90…100 and 60 is the end of the 50…60 dash: on 60…60.
        #expect(v.ink() > 0)
        #expect(v.ink() <= 2 * 30 + 0.1)
    }
}

// MARK: - Gradients

@Suite("Vector gradients")
struct VectorGradientTests {
    static let redBlue = try! Gradient([GradientStop(Ink.red), GradientStop(Ink.blue)])

    func fill(_ paint: Paint, _ box: Box = Box(x: 0, y: 0, width: 100, height: 100)) throws -> VectorCanvas {
        var v = VectorCanvas.white(Int(box.maxX), Int(box.maxY))
        try v.fill(.rect(box), paint: paint)
        return v
    }

    func rgb(_ v: VectorCanvas, _ x: Int, _ y: Int) -> (Double, Double, Double) {
        let i = (y * v.canvas.width + x) * 4
        return (Double(v.canvas.pixels[i]) * 255, Double(v.canvas.pixels[i + 1]) * 255, Double(v.canvas.pixels[i + 2]) * 255)
    }

    @Test("90deg runs left to right, c1 on the left; the colour at a pixel is the mix at its center")
    func angle90() throws {
        let v = try fill(.linear(LinearGradient(angle: 90, Self.redBlue)))
        let c = rgb(v, 25, 50)   // t = 25.5 / 100
        #expect(near(c.0, 255 * 0.745, 0.5) && near(c.2, 255 * 0.255, 0.5) && near(c.1, 0, 0.01))
        #expect(near(rgb(v, 0, 0).0, 255 * 0.995, 0.5))
        #expect(near(rgb(v, 99, 99).2, 255 * 0.995, 0.5))
    }

    @Test("0deg runs bottom to top, 180deg top to bottom, 270deg right to left")
    func otherAngles() throws {
        let up = try fill(.linear(LinearGradient(angle: 0, Self.redBlue)))
        #expect(rgb(up, 50, 95).0 > 240 && rgb(up, 50, 4).2 > 240)
        let down = try fill(.linear(LinearGradient(angle: 180, Self.redBlue)))
        #expect(rgb(down, 50, 4).0 > 240 && rgb(down, 50, 95).2 > 240)
        let left = try fill(.linear(LinearGradient(angle: 270, Self.redBlue)))
        #expect(rgb(left, 95, 50).0 > 240 && rgb(left, 4, 50).2 > 240)
    }

    @Test("45deg on a wide box: the gradient line is long enough that the corners get the end colours (CSS)")
    func diagonal() throws {
        let box = Box(x: 0, y: 0, width: 200, height: 100)
        let v = try fill(.linear(LinearGradient(angle: 45, Self.redBlue)), box)
        // Along 45° the line's half length is (200·sin45 + 100·cos45)/2; the bottom-left corner
        // is at t = 0 and the top-right at t = 1; the center is the midpoint.
        let mid = rgb(v, 100, 50)
        #expect(near(mid.0, 127.5, 2.5) && near(mid.2, 127.5, 2.5))
        #expect(rgb(v, 0, 99).0 > 250 && rgb(v, 199, 0).2 > 250)
        // A pixel on the perpendicular through the center has the same colour.
        let same = rgb(v, 130, 80)
        #expect(near(same.0, mid.0, 2) && near(same.2, mid.2, 2))
    }

    @Test("stops with positions: a stop at 0.5 is met at the middle; missing positions spread evenly")
    func stops() throws {
        let g = try Gradient([GradientStop(Ink.red, at: 0), GradientStop(Color(r: 0, g: 255, b: 0), at: 0.2), GradientStop(Ink.blue)])
        let v = try fill(.linear(LinearGradient(angle: 90, g)))
        let c = rgb(v, 9, 50)   // t = 0.095: 0.475 of the way from red to green
        #expect(near(c.0, 255 * 0.525, 0.6) && near(c.1, 255 * 0.475, 0.6))
        let d = rgb(v, 59, 50)  // t = 0.595: 0.49375 of the way from green to blue
        #expect(near(d.1, 255 * 0.50625, 0.6) && near(d.2, 255 * 0.49375, 0.6))
        #expect(Gradient.resolve([nil, nil, 0.9, nil, nil]) == [0, 0.45, 0.9, 0.95, 1])
        #expect(Gradient.resolve([0.5, 0.2, nil]) == [0.5, 0.5, 1])    // a stop before a larger one moves up to it
    }

    @Test("radial: c1 at the center, the last colour on the ellipse through the box's corners (CSS farthest-corner)")
    func radial() throws {
        let v = try fill(.radial(RadialGradient(Self.redBlue)), Box(x: 0, y: 0, width: 100, height: 50))
        #expect(rgb(v, 50, 25).0 > 245)
        #expect(rgb(v, 0, 0).2 > 245 && rgb(v, 99, 49).2 > 245)
        // On the horizontal axis, the ellipse's x radius is 50·√2: t at x = 85.5 is 35.5/70.71.
        let t = 35.5 / (50 * 2.squareRoot())
        let c = rgb(v, 85, 25)
        #expect(near(c.2, 255 * t, 1.5))
    }

    @Test("straight (unpremultiplied) interpolation of alpha, as Canvas and SVG do")
    func alphaStops() throws {
        let g = try Gradient([GradientStop(Ink.red), GradientStop(Color(r: 0, g: 0, b: 255, a: 0))])
        let v = try fill(.linear(LinearGradient(angle: 90, g)))
        // At t = 0.505: colour (0.495, 0, 0.505) at alpha 0.495, over white.
        let c = rgb(v, 50, 50)
        let a = 0.495
        #expect(near(c.0, 255 * (0.495 * a + 1 - a), 0.8) && near(c.2, 255 * (0.505 * a + 1 - a), 0.8))
    }

    @Test("a gradient with one stop or none is an error with a message")
    func oneStop() {
        #expect(throws: VectorError.gradientNeedsTwoStops(found: 1)) { try Gradient([GradientStop(Ink.red)]) }
        #expect(throws: VectorError.gradientNeedsTwoStops(found: 0)) { try Gradient([]) }
        #expect(VectorError.gradientNeedsTwoStops(found: 1).message == "a gradient needs at least two colour stops, found 1")
        #expect(throws: VectorError.notFinite("a gradient stop position")) {
            try Gradient([GradientStop(Ink.red, at: .nan), GradientStop(Ink.blue)])
        }
    }
}

// MARK: - Shadows

@Suite("Vector shadows")
struct VectorShadowTests {
    @Test("a shadow's edge falls off as the Gaussian CDF of deviation blur/2 (within the box blurs' 2 %)")
    func falloff() throws {
        var v = VectorCanvas.white(200, 200)
        // The shape at y 10…40; its shadow 60 below, at y 70…100, blur 16: σ = 8.
        try v.draw(VectorShape(.rect(Box(x: 20, y: 10, width: 160, height: 30)), fill: .solid(Ink.red),
                               shadow: try Shadow(offset: Point(0, 60), blur: 16, color: Ink.black)))
        var worst = 0.0
        for y in 60..<140 {
            let yc = Double(y) + 0.5
            // The band's profile: Φ((yc − 70)/σ) − Φ((yc − 100)/σ).
            let want = phi((yc - 70) / 8) - phi((yc - 100) / 8)
            worst = max(worst, abs(v.inkAt(100, y) - want))
        }
        #expect(worst < 0.02, "worst difference from the Gaussian: \(worst)")
        // Half way up the edge at the edge itself, about 16 % at one σ outside.
        #expect(near(v.inkAt(100, 109) + v.inkAt(100, 108), 2 * phi(-8.5 / 8) + 0.0, 0.05))
    }

    @Test("blurring keeps the shadow's ink: its sum is the shape's area times the colour's alpha")
    func mass() throws {
        var v = VectorCanvas.white(200, 200)
        try v.draw(VectorShape(.circle(center: Point(60, 60), radius: 20), fill: .solid(Color(r: 255, g: 255, b: 255)),
                               shadow: try Shadow(offset: Point(70, 70), blur: 10, color: Color(r: 0, g: 0, b: 0, a: 0.5))))
        #expect(near(v.ink(), Double.pi * 400 * 0.5, 2))
    }

    @Test("no blur is a hard shadow: the shape's coverage, offset")
    func hard() throws {
        var v = VectorCanvas.white(60, 60)
        try v.draw(VectorShape(.rect(Box(x: 10, y: 10, width: 10, height: 10)), fill: .solid(Ink.white),
                               shadow: try Shadow(offset: Point(20.5, 20), blur: 0, color: Ink.black)))
        #expect(near(v.inkAt(30, 35), 0.5, 0.01) && near(v.inkAt(31, 35), 1, 0.01) && near(v.inkAt(40, 35), 0.5, 0.01))
        #expect(near(v.ink(), 100, 0.1))
    }

    @Test("the shadow turns and scales with the shape")
    func transformed() throws {
        var v = VectorCanvas.white(100, 100)
        try v.draw(VectorShape(.rect(Box(x: 0, y: 0, width: 10, height: 10)), fill: .solid(Ink.white),
                               shadow: try Shadow(offset: Point(10, 0), blur: 0, color: Ink.black),
                               transform: .translation(40, 20) * .rotation(degrees: 90) * .scale(2, 2)))
        // Turned 90°, the offset (10, 0) points down, and is 20 long at scale 2: the shadow
        // covers x 20…40, y 40…60.
        #expect(near(v.inkAt(30, 50), 1, 0.01) && near(v.inkAt(30, 30), 0, 0.01))
        #expect(near(v.ink(), 400, 0.5))
    }

    @Test("negative, too large or non-finite blurs are errors")
    func badShadows() {
        #expect(throws: VectorError.negativeShadowBlur(-1)) { try Shadow(offset: .zero, blur: -1, color: Ink.black) }
        #expect(throws: VectorError.shadowBlurTooLarge(300, limit: Shadow.maxBlur)) { try Shadow(offset: .zero, blur: 300, color: Ink.black) }
        #expect(throws: VectorError.notFinite("the shadow offset")) { try Shadow(offset: Point(.infinity, 0), blur: 1, color: Ink.black) }
        #expect(VectorError.negativeShadowBlur(-1).message == "shadow blur -1 is negative")
    }
}

// MARK: - Images

@Suite("Vector images")
struct VectorImageTests {
    /// 2 × 2: red, green / blue, white.
    static let quad = Canvas(width: 2, height: 2, rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])

    func rgb(_ v: VectorCanvas, _ x: Int, _ y: Int) -> (Double, Double, Double) {
        let i = (y * v.canvas.width + x) * 4
        return (Double(v.canvas.pixels[i]) * 255, Double(v.canvas.pixels[i + 1]) * 255, Double(v.canvas.pixels[i + 2]) * 255)
    }

    @Test("scaled up, an image is bilinear between texel centers and clamped at its edges")
    func bilinear() throws {
        var v = VectorCanvas.white(100, 100)
        v.draw(image: RasterImage(Self.quad), in: Box(x: 0, y: 0, width: 100, height: 100))
        let corner = rgb(v, 5, 5)
        #expect(near(corner.0, 255, 0.01) && near(corner.1, 0, 0.01))
        // Pixel (50, 10): image u = 1.01, between the texel centers 0.5 and 1.5: 0.51 green.
        let mid = rgb(v, 50, 10)
        #expect(near(mid.0, 255 * 0.49, 0.6) && near(mid.1, 255 * 0.51, 0.6))
        let centre = rgb(v, 49, 49)   // u = v = 0.99: 0.49 of the way along both axes
        let w = 0.49
        let want = (1 - w) * (1 - w) * 255 + w * w * 255    // red and white add to red
        #expect(near(centre.0, want, 0.8))
    }

    @Test("drawn small, an image averages its pixels instead of aliasing")
    func downscaled() throws {
        var rgba = [UInt8]()
        for y in 0..<64 { for x in 0..<64 { let c: UInt8 = (x + y) % 2 == 0 ? 0 : 255; rgba += [c, c, c, 255] } }
        var v = VectorCanvas.white(8, 8)
        v.draw(image: RasterImage(Canvas(width: 64, height: 64, rgba: rgba)), in: Box(x: 0, y: 0, width: 8, height: 8))
        for y in 0..<8 { for x in 0..<8 { #expect(near(rgb(v, x, y).0, 127.5, 2)) } }
    }

    @Test("alpha: a transparent pixel shows what is under it; the box's edges are antialiased")
    func alphaAndEdges() throws {
        let img = Canvas(width: 2, height: 1, rgba: [0, 0, 0, 0, 0, 0, 0, 255])
        var v = VectorCanvas.white(40, 20)
        v.draw(image: RasterImage(img), in: Box(x: 0.5, y: 0, width: 39, height: 20))
        #expect(near(v.inkAt(3, 10), 0, 0.01))
        #expect(near(v.inkAt(38, 10), 1, 0.01))
        #expect(near(v.inkAt(39, 10), 0.5, 0.01))
    }

    @Test("PNG bytes decode with libpng's simplified API; what is not PNG is an error")
    func decode() throws {
        let bytes = try PNGFile.encode(Self.quad)
        let img = try ImageFile.decode(bytes, name: "quad.png").get()
        #expect(img.width == 2 && img.height == 2 && img.levels[0].pixels == Self.quad.pixels)
        #expect(throws: VectorError.imageNotPNG(path: "x.txt")) { try ImageFile.decode(Array("hello".utf8), name: "x.txt").get() }
        let truncated = Array(bytes.prefix(40))
        #expect(throws: VectorError.self) { try ImageFile.decode(truncated, name: "t.png").get() }
        if case .failure(let e) = ImageFile.decode(truncated, name: "t.png") {
            guard case .imageCorrupt = e else { Issue.record("truncated PNG: \(e)"); return }
            #expect(e.message.hasPrefix("cannot decode PNG image 't.png': "))
        }
    }

    @Test("an image over the size limits is refused from its header")
    func tooLarge() throws {
        let wide = try PNGFile.encode(Canvas(width: ImageFile.maxSide + 1, height: 1))
        #expect(throws: VectorError.imageTooLarge(path: "wide.png", width: ImageFile.maxSide + 1, height: 1)) {
            try ImageFile.decode(wide, name: "wide.png").get()
        }
        #expect(VectorError.imageTooLarge(path: "w.png", width: 20_000, height: 1).message
            == "image 'w.png' is 20000 x 1 pixels; at most 16,384 on a side and 16,777,216 pixels are read")
    }

    @Test("files: a missing file and a directory are unreadable, with the reason")
    func files() throws {
        let missing = ImageFile.read("/nonexistent/anim-vector.png")
        #expect(throws: VectorError.imageUnreadable(path: "/nonexistent/anim-vector.png", reason: "No such file or directory")) {
            try missing.get()
        }
        #expect(throws: VectorError.imageUnreadable(path: "/tmp", reason: "it is a directory")) { try ImageFile.read("/tmp").get() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anim-vector-\(UUID().uuidString.prefix(8)).png").path
        try PNGFile.write(Self.quad, to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ImageFile.read(path).get().width == 2)
    }
}

// MARK: - Text

@Suite("Vector text")
struct VectorTextTests {
    static let fonts = FontCollection()
    static var dejavu: FontFace { try! fonts.match(family: "DejaVu Sans").get().face }

    @Test("DejaVu Sans is found through fontconfig by family and weight")
    func fontconfig() throws {
        let regular = try Self.fonts.match(family: "DejaVu Sans").get()
        #expect(regular.warning == nil)
        #expect(regular.face.family == "DejaVu Sans" && regular.face.path.hasSuffix("DejaVuSans.ttf"))
        let bold = try Self.fonts.match(family: "DejaVu Sans", weight: 700).get()
        #expect(bold.face.style == "Bold" && bold.face.path.hasSuffix("DejaVuSans-Bold.ttf"))
    }

    @Test("a missing family falls back to the default font with a warning")
    func fallback() throws {
        let m = try Self.fonts.match(family: "No Such Family Anim").get()
        guard case .fontFallback(let requested, let used) = m.warning else { Issue.record("no warning"); return }
        #expect(requested == "No Such Family Anim" && !used.isEmpty)
        #expect(m.warning?.message == "font family 'No Such Family Anim' is not installed; using '\(used)'")
        #expect(try Self.fonts.match(family: "sans-serif").get().warning == nil)
    }

    @Test("kerning: DejaVu's kern table pulls V under A, and the layout uses it")
    func kerning() throws {
        let f = Self.dejavu
        #expect(f.hasKerning)
        let a = f.glyphIndex("A"), v = f.glyphIndex("V")
        let kern = f.kerning(a, v)
        #expect(kern < 0)
        let t = try TextLayout("AV", font: f, size: 40)
        let k = 40 / f.unitsPerEm
        #expect(near(t.glyphs[1].origin.x, f.glyph(a).advance * k + kern * k, 1e-9))
        #expect(near(t.width, (f.glyph(a).advance + kern + f.glyph(v).advance) * k, 1e-9))
    }

    @Test("glyphs are drawn as outlines: the text's ink is the sum of its glyphs' inks at their places")
    func glyphsAsOutlines() throws {
        let t = try TextLayout("AV", font: Self.dejavu, size: 40)
        var whole = VectorCanvas.white(100, 60)
        try whole.draw(text: t, paint: black, transform: .translation(10, 45))
        var parts = [VectorCanvas]()
        for g in t.glyphs {
            var p = VectorCanvas.white(100, 60)
            try p.fill(g.outline, paint: black, transform: .translation(10 + g.origin.x, 45))
            parts.append(p)
        }
        #expect(whole.ink() > 300)
        // A and V overlap in x (kerned) but not in ink, so the inks add up.
        #expect(near(whole.ink(), parts[0].ink() + parts[1].ink(), 1))
        // The cap height of DejaVu Sans is 1493/2048 em: the A reaches 29.16 px above the baseline.
        let top = 45 - 1493.0 / 2048 * 40
        var ink = 0.0
        for x in 0..<100 { ink += whole.inkAt(x, Int(top.rounded(.down)) - 1) }
        #expect(ink < 0.05)
        var below = 0.0
        for x in 0..<100 { below += whole.inkAt(x, Int(top.rounded(.up))) }
        #expect(below > 0.5)
    }

    @Test("align: left starts at 0, center is centered on 0, right ends at 0; middle puts 0 between ascender and descender")
    func alignment() throws {
        let f = Self.dejavu
        let l = try TextLayout("Typo", font: f, size: 20)
        let c = try TextLayout("Typo", font: f, size: 20, align: .center)
        let r = try TextLayout("Typo", font: f, size: 20, align: .right)
        #expect(l.box.x == 0 && near(c.box.x, -l.width / 2, 1e-9) && near(r.box.maxX, 0, 1e-9))
        #expect(near(c.glyphs[2].origin.x - l.glyphs[2].origin.x, -l.width / 2, 1e-9))
        let m = try TextLayout("Typo", font: f, size: 20, baseline: .middle)
        #expect(near(m.box.y + m.box.height / 2, 0, 1e-9))
        #expect(near(m.glyphs[0].origin.y, (m.ascent - m.descent) / 2, 1e-9))
    }

    @Test("per-glyph styles move one glyph and leave the others")
    func perGlyph() throws {
        let t = try TextLayout("II", font: Self.dejavu, size: 40)
        var plain = VectorCanvas.white(100, 60), styled = VectorCanvas.white(100, 60)
        try plain.draw(text: t, paint: black, transform: .translation(10, 45))
        try styled.draw(text: t, paint: black, transform: .translation(10, 45),
                        glyphs: [GlyphStyle(transform: .translation(0, -10)), GlyphStyle(opacity: 0.5)])
        #expect(near(styled.ink(), plain.ink() * 0.75, 1))
        let first = t.glyphs[0].origin.x + 10 + t.glyphs[0].advance / 2
        #expect(styled.inkAt(Int(first), 8) > 0.5 && plain.inkAt(Int(first), 8) < 0.01)
    }

    @Test("characters the font lacks are drawn as its missing-glyph box, with a warning")
    func missingGlyphs() throws {
        let t = try TextLayout("a\u{F0000}b", font: Self.dejavu, size: 20)
        #expect(t.glyphs[1].index == 0)
        #expect(t.warnings == [.missingGlyphs(family: "DejaVu Sans", characters: "\u{F0000}")])
    }

    @Test("a text over the glyph limit is an error")
    func glyphLimit() throws {
        _ = try TextLayout(String(repeating: "i", count: TextLayout.maxGlyphs), font: Self.dejavu, size: 1)
        #expect(throws: VectorError.tooManyGlyphs(count: TextLayout.maxGlyphs + 1, limit: TextLayout.maxGlyphs)) {
            try TextLayout(String(repeating: "i", count: TextLayout.maxGlyphs + 1), font: Self.dejavu, size: 1)
        }
    }
}

// MARK: - Bad input

@Suite("Vector bad input")
struct VectorBadInputTests {
    func pathError(_ d: String) -> VectorError? {
        if case .failure(let e) = PathData.parse(d) { return e }
        return nil
    }

    @Test("malformed path data is an error at a character offset, with a message")
    func malformedPaths() {
        #expect(pathError("M 0 0 Q") == .pathIncompleteCommand(offset: 6, command: "Q", takes: 4))
        #expect(pathError("M 0 0 Q")?.message == "incomplete 'Q' command: it takes 4 numbers")
        #expect(pathError("L 10 10") == .pathMustStartWithMove(offset: 0))
        #expect(pathError("M 0 0 X 1") == .pathExpectedCommand(offset: 6, found: "X"))
        #expect(pathError("M 0 0 A 5 5 0 2 0 10 10") == .pathBadArcFlag(offset: 14))
        #expect(pathError("M 1e999 0") == .pathNumberOutOfRange(offset: 2))
        #expect(pathError("M é 0") == .pathExpectedNumber(offset: 2, found: "é"))
        #expect(pathError("M 0 0 L 1 #")?.message == "expected a number in path data, found '#'")
        #expect(pathError("M 0 0 L 1") == .pathIncompleteCommand(offset: 6, command: "L", takes: 2))
        #expect(pathError("") == nil && pathError("M 0 0 Z") == nil)
    }

    @Test("path data beyond the command limit is refused; at the limit it is read")
    func commandLimit() {
        let at = "M 0 0" + String(repeating: " L 1 1", count: PathData.maxCommands - 1)
        #expect(pathError(at) == nil)
        #expect(pathError(at + " L 2 2") == .pathTooManyCommands(limit: PathData.maxCommands))
        #expect(VectorError.pathTooManyCommands(limit: PathData.maxCommands).message == "path data has more than 10,000 commands")
    }

    @Test("an outline with more points than FreeType holds is an error when filled")
    func tooManyPoints() {
        let many = Outline.polygon((0..<(OutlineRasterizer.maxPoints + 1)).map { k in
            let t = Double(k) / Double(OutlineRasterizer.maxPoints + 1) * 2 * Double.pi
            return Point(50 + 40 * cos(t), 50 + 40 * sin(t))
        })
        var v = VectorCanvas.white(100, 100)
        #expect(throws: VectorError.tooManyPoints(count: many.pointCount, limit: OutlineRasterizer.maxPoints)) {
            try v.fill(many, paint: black)
        }
        // Its stroke is drawn (in pieces).
        #expect(throws: Never.self) { try v.stroke(many, style: StrokeStyle(width: 2), paint: black) }
        #expect(near(v.ink(), Double.pi * (41 * 41 - 39 * 39), curveTolerance(2 * Double.pi * 80)))
    }

    @Test("stroke styles and dashes check their numbers")
    func strokes() {
        #expect(throws: VectorError.negativeStrokeWidth(-2)) { try StrokeStyle(width: -2) }
        #expect(VectorError.negativeStrokeWidth(-2).message == "stroke width -2 is negative")
        #expect(throws: VectorError.strokeWidthTooLarge(1e6, limit: StrokeStyle.maxWidth)) { try StrokeStyle(width: 1e6) }
        #expect(throws: VectorError.miterLimitBelowOne(0.5)) { try StrokeStyle(width: 1, miterLimit: 0.5) }
        #expect(VectorError.miterLimitBelowOne(0.5).message == "miter limit 0.5 is below 1")
        #expect(throws: VectorError.notFinite("the stroke width")) { try StrokeStyle(width: .nan) }
        #expect(throws: VectorError.negativeDash(-1)) { try Dash([5, -1]) }
        #expect(throws: VectorError.notFinite("the dash offset")) { try Dash([5, 5], offset: .infinity) }
        #expect(throws: VectorError.notFinite("a trim fraction")) { try StrokeStyle(width: 1, trimEnd: .nan) }
    }

    @Test("a dash pattern that would cut too many dashes is an error, not a hang")
    func tooManyDashes() throws {
        var v = VectorCanvas.white(10, 10)
        let style = try StrokeStyle(width: 1, dash: Dash([1e-6, 1e-6]))
        #expect(throws: VectorError.tooManyDashes(limit: Dash.maxDashes)) {
            try v.stroke(.line(from: Point(0, 5), to: Point(10, 5)), style: style, paint: black)
        }
    }

    @Test("non-finite geometry and singular transforms draw nothing rather than crash")
    func degenerate() throws {
        var v = VectorCanvas.white(20, 20)
        try v.fill(.rect(Box(x: .nan, y: 0, width: 5, height: 5)), paint: black)
        try v.fill(.rect(Box(x: 0, y: 0, width: 5, height: 5)), paint: black, transform: .scale(0, 1))
        try v.stroke(.rect(Box(x: 0, y: 0, width: 5, height: 5)), style: StrokeStyle(width: 1), paint: black, transform: .scale(.infinity, 1))
        v.draw(image: RasterImage(VectorImageTests.quad), in: Box(x: 0, y: 0, width: 0, height: 5))
        #expect(v.ink() == 0)
    }
}
