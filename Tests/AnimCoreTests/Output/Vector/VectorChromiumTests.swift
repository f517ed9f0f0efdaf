// The vector layer against headless Chromium: each scene is drawn once by VectorCanvas and
// once by Chromium from SVG or CSS meaning the same thing, side by side in one page (one
// browser start for all of them), and every scene must be within the project's tolerance —
// at most 0.5 % of its pixels off by more than 24/255 in a channel, mean difference under 1
// level — the acceptance test every output will be held to. CSS, not SVG, is the reference
// for what CSS defines (gradient angles, radial-gradient's default ellipse, box-shadow's blur).
// Text is drawn by Chromium with `text-rendering: geometricPrecision`, which turns hinting off
// and positions glyphs to a fraction of a pixel, as anim does (hinted text snaps stems to the
// pixel grid and moves as a title scales; anim's text never does).
//
// The reference is Chromium's page at 4 device pixels per CSS pixel, each 4 × 4 block
// averaged (`referenceScale`): the area coverage of each pixel, which is what anim computes.
// At 1 device pixel Chromium is not exact enough to be the reference: it draws glyphs from a
// cache whose coverage is quantized to quarter-pixel rows and whose baselines snap to whole
// pixels, and it supersamples some strokes. Measured on this page, Chromium at 1× against
// Chromium at 4× is itself outside the tolerance for text (0.83 % of pixels off by more than
// 24) and dashes (0.68 %); anim against the 4× reference is within 0.07 % on every scene.
// Chromium's SVG filters run in linearRGB by default; anim blends in sRGB as Canvas does, and
// CSS box-shadow and drop-shadow() are sRGB, so the SVG filters here say
// color-interpolation-filters="sRGB".
@testable import AnimCore
import Foundation
import Testing

@Suite("Vector drawing against Chromium", .serialized)
struct VectorChromiumTests {
    /// One drawing, in a cell of `Scene.size`.
    struct Scene: Sendable {
        var name: String
        /// What Chromium draws, placed at the cell's top-left.
        var html: String
        /// What VectorCanvas draws, on a white canvas of the cell's size.
        var draw: @Sendable (inout VectorCanvas) throws -> Void
    }

    static let cell = (w: 200, h: 150)
    /// Device pixels per CSS pixel of the reference screenshot (see the header).
    static let referenceScale = 4
    static let columns = 4

    static func svg(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"150\" viewBox=\"0 0 200 150\">\(body)</svg>"
    }

    static func color(_ hex: String) -> Color { Color(hex: hex.dropFirst())! }

    /// A five-pointed star (pentagram order) around (cx, cy).
    static func star(_ cx: Double, _ cy: Double, _ r: Double) -> [Point] {
        (0..<5).map { k in
            let t = (-90 + Double(k) * 144) * Double.pi / 180
            return Point(cx + r * cos(t), cy + r * sin(t))
        }
    }

    /// A hexagon of side 40 around (60, 90): perimeter 240, so a 30-long dash pattern ends
    /// mid-dash at the start and the dash through the starting corner is one, joined.
    static let hexagon: [Point] = (0..<6).map { k in
        let t = Double(k) * 60 * Double.pi / 180
        return Point(60 + 40 * cos(t), 90 + 40 * sin(t))
    }

    static func points(_ ps: [Point]) -> String { ps.map { "\($0.x),\($0.y)" }.joined(separator: " ") }

    /// A 16 × 12 test image: a colour ramp, a transparent column and a translucent one.
    static let smallImage: Canvas = {
        var rgba = [UInt8]()
        for y in 0..<12 {
            for x in 0..<16 {
                let a: UInt8 = x == 3 ? 0 : (x == 12 ? 128 : 255)
                rgba += [UInt8(x * 16), UInt8(y * 21), UInt8(255 - x * 12), a]
            }
        }
        return Canvas(width: 16, height: 12, rgba: rgba)
    }()

    /// A 128 × 128 image of rings, to check drawing it smaller than it is.
    static let ringImage: Canvas = {
        var rgba = [UInt8]()
        for y in 0..<128 {
            for x in 0..<128 {
                let d = (Double((x - 64) * (x - 64) + (y - 64) * (y - 64))).squareRoot()
                let v = UInt8(127.5 + 127.5 * cos(d / 3))
                rgba += [v, UInt8(255 - Int(v)), 200, 255]
            }
        }
        return Canvas(width: 128, height: 128, rgba: rgba)
    }()

    static func dataURI(_ c: Canvas) -> String { "data:image/png;base64," + Data(try! PNGFile.encode(c)).base64EncodedString() }

    static let fonts = FontCollection()

    /// Where `.middle` puts the alphabetic baseline below y = 0 for DejaVu Sans at `size`:
    /// (ascent − descent) / 2. The reference places Chromium's text there by its alphabetic
    /// baseline, because Blink computes `dominant-baseline: central` from ascent and descent
    /// rounded to whole pixels (and borrows a pixel from the ascent when the descent rounds
    /// down), up to a pixel away from the font's own metrics. The scene puts that baseline on
    /// a whole pixel (y = 133) because Chromium rounds baselines to whole device pixels.
    static func middleShift(_ size: Double) -> Double {
        let face = try! fonts.match(family: "DejaVu Sans").get().face
        return (face.ascender + face.descender) / face.unitsPerEm * size / 2
    }

    static let scenes: [Scene] = [
        Scene(name: "fills", html: svg("""
            <rect x="10.5" y="10.25" width="50" height="30.5" fill="#cc0000"/>
            <rect x="70" y="10" width="60" height="35" rx="10" fill="#00aa00"/>
            <circle cx="165" cy="28" r="20.3" fill="#0000cc"/>
            <ellipse cx="40" cy="100" rx="30" ry="15" fill="#ff8800" transform="rotate(30 40 100)"/>
            <polygon points="\(points(star(105, 102, 34)))" fill="#660066"/>
            <polygon points="\(points(star(165, 102, 30)))" fill="#660066" fill-rule="evenodd"/>
            """), draw: { v in
                try v.fill(.rect(Box(x: 10.5, y: 10.25, width: 50, height: 30.5)), paint: .solid(color("#cc0000")))
                try v.fill(.roundedRect(Box(x: 70, y: 10, width: 60, height: 35), rx: 10, ry: 10), paint: .solid(color("#00aa00")))
                try v.fill(.circle(center: Point(165, 28), radius: 20.3), paint: .solid(color("#0000cc")))
                try v.fill(.ellipse(center: Point(40, 100), radii: Point(30, 15)), paint: .solid(color("#ff8800")),
                           transform: .about(Point(40, 100), rotation: 30))
                try v.fill(.polygon(star(105, 102, 34)), paint: .solid(color("#660066")))
                try v.fill(.polygon(star(165, 102, 30)), paint: .solid(color("#660066")), rule: .evenOdd)
            }),
        Scene(name: "path data", html: svg("""
            <path d="M 20 140 Q 50 30 100 100 T 180 70 L 185 140 Z" fill="#4a90d9"/>
            <path d="m 15 15 h 50 v 40 h -50 z m 10 8 l 0 24 l 30 0 z" fill="#cc3333" fill-rule="evenodd"/>
            <path d="M 110 30 a 30 20 20 1 1 50 25 A 15 15 0 0 0 110 30 z" fill="#339933"/>
            <path d="M 80 20 c 10 -10 20 10 30 0 s 20 10 30 0" fill="none" stroke="#000" stroke-width="2"/>
            """), draw: { v in
                try v.fill(PathData.parse("M 20 140 Q 50 30 100 100 T 180 70 L 185 140 Z").get(), paint: .solid(color("#4a90d9")))
                try v.fill(PathData.parse("m 15 15 h 50 v 40 h -50 z m 10 8 l 0 24 l 30 0 z").get(), paint: .solid(color("#cc3333")),
                           rule: .evenOdd)
                try v.fill(PathData.parse("M 110 30 a 30 20 20 1 1 50 25 A 15 15 0 0 0 110 30 z").get(), paint: .solid(color("#339933")))
                try v.stroke(PathData.parse("M 80 20 c 10 -10 20 10 30 0 s 20 10 30 0").get(), style: StrokeStyle(width: 2),
                             paint: .solid(Ink.black))
            }),
        Scene(name: "caps", html: svg("""
            <line x1="40" y1="30" x2="160" y2="30" stroke="#222222" stroke-width="16"/>
            <line x1="40" y1="75" x2="160" y2="75" stroke="#222222" stroke-width="16" stroke-linecap="round"/>
            <line x1="40" y1="120" x2="160" y2="112" stroke="#222222" stroke-width="16" stroke-linecap="square"/>
            """), draw: { v in
                let ink = Paint.solid(color("#222222"))
                try v.stroke(.line(from: Point(40, 30), to: Point(160, 30)), style: StrokeStyle(width: 16), paint: ink)
                try v.stroke(.line(from: Point(40, 75), to: Point(160, 75)), style: StrokeStyle(width: 16, cap: .round), paint: ink)
                try v.stroke(.line(from: Point(40, 120), to: Point(160, 112)), style: StrokeStyle(width: 16, cap: .square), paint: ink)
            }),
        Scene(name: "joins", html: svg("""
            <polyline points="15,40 45,12 75,40 105,12 135,40" fill="none" stroke="#000" stroke-width="8"/>
            <polyline points="15,75 45,47 75,75 105,47 135,75" fill="none" stroke="#000" stroke-width="8" stroke-linejoin="round"/>
            <polyline points="15,110 45,82 75,110 105,82 135,110" fill="none" stroke="#000" stroke-width="8" stroke-linejoin="bevel"/>
            <polyline points="15,143 45,117 75,143 105,117 135,143" fill="none" stroke="#000" stroke-width="6" stroke-miterlimit="1.2"/>
            <polyline points="155,140 172,25 189,140" fill="none" stroke="#0000aa" stroke-width="6" stroke-miterlimit="10"/>
            """), draw: { v in
                func zig(_ y: Double, _ h: Double) -> Outline {
                    .polyline([Point(15, y), Point(45, y - h), Point(75, y), Point(105, y - h), Point(135, y)])
                }
                try v.stroke(zig(40, 28), style: StrokeStyle(width: 8), paint: .solid(Ink.black))
                try v.stroke(zig(75, 28), style: StrokeStyle(width: 8, join: .round), paint: .solid(Ink.black))
                try v.stroke(zig(110, 28), style: StrokeStyle(width: 8, join: .bevel), paint: .solid(Ink.black))
                try v.stroke(zig(143, 26), style: StrokeStyle(width: 6, miterLimit: 1.2), paint: .solid(Ink.black))
                try v.stroke(.polyline([Point(155, 140), Point(172, 25), Point(189, 140)]), style: StrokeStyle(width: 6, miterLimit: 10),
                             paint: .solid(color("#0000aa")))
            }),
        Scene(name: "dashes", html: svg("""
            <line x1="20" y1="18" x2="180" y2="18" stroke="#000" stroke-width="6" stroke-dasharray="12 6" stroke-dashoffset="5"/>
            <polygon points="\(points(hexagon))" fill="none" stroke="#cc0066" stroke-width="5" stroke-dasharray="20 10" stroke-linecap="round"/>
            <path d="M 120 50 L 190 50 L 190 140" fill="none" stroke="#000" stroke-width="5" stroke-dasharray="0 10" stroke-linecap="round"/>
            <path d="M 115 140 C 130 70, 160 140, 175 80" fill="none" stroke="#006600" stroke-width="3" stroke-dasharray="8 4 2 4"/>
            """), draw: { v in
                try v.stroke(.line(from: Point(20, 18), to: Point(180, 18)), style: StrokeStyle(width: 6, dash: Dash([12, 6], offset: 5)),
                             paint: .solid(Ink.black))
                try v.stroke(.polygon(hexagon), style: StrokeStyle(width: 5, cap: .round, dash: Dash([20, 10])),
                             paint: .solid(color("#cc0066")))
                try v.stroke(.polyline([Point(120, 50), Point(190, 50), Point(190, 140)]),
                             style: StrokeStyle(width: 5, cap: .round, dash: Dash([0, 10])), paint: .solid(Ink.black))
                try v.stroke(PathData.parse("M 115 140 C 130 70, 160 140, 175 80").get(), style: StrokeStyle(width: 3, dash: Dash([8, 4, 2, 4])),
                             paint: .solid(color("#006600")))
            }),
        Scene(name: "trim", html: svg("""
            <path d="M 20 130 C 60 20, 140 20, 180 130" pathLength="1" fill="none" stroke="#3366ff" stroke-width="10" stroke-linecap="round" stroke-dasharray="0.65 2" stroke-dashoffset="-0.15"/>
            <path d="M 60 60 H 140 V 110 H 60 Z" pathLength="1" fill="none" stroke="#000" stroke-width="4" stroke-dasharray="0.6 2" stroke-dashoffset="-0.3"/>
            """), draw: { v in
                try v.stroke(PathData.parse("M 20 130 C 60 20, 140 20, 180 130").get(),
                             style: StrokeStyle(width: 10, cap: .round, trimStart: 0.15, trimEnd: 0.8), paint: .solid(color("#3366ff")))
                try v.stroke(PathData.parse("M 60 60 H 140 V 110 H 60 Z").get(), style: StrokeStyle(width: 4, trimStart: 0.9, trimEnd: 0.3),
                             paint: .solid(Ink.black))
            }),
        Scene(name: "transformed strokes", html: svg("""
            <g transform="translate(100 75) rotate(20) scale(2 0.7)">
            <circle r="30" fill="none" stroke="#aa00aa" stroke-width="6"/>
            <rect x="-20" y="-10" width="40" height="20" fill="#ffcc00" stroke="#000" stroke-width="3"/></g>
            """), draw: { v in
                let m = Affine.translation(100, 75) * .rotation(degrees: 20) * .scale(2, 0.7)
                try v.stroke(.circle(center: .zero, radius: 30), style: StrokeStyle(width: 6), paint: .solid(color("#aa00aa")), transform: m)
                try v.draw(VectorShape(.rect(Box(x: -20, y: -10, width: 40, height: 20)), fill: .solid(color("#ffcc00")),
                                       stroke: StrokePaint(StrokeStyle(width: 3), .solid(Ink.black)), transform: m))
            }),
        Scene(name: "linear gradients (CSS)", html: """
            <div style="position:absolute;left:10px;top:10px;width:180px;height:60px;background:linear-gradient(45deg,#ff7a18,#af002d)"></div>
            <div style="position:absolute;left:10px;top:80px;width:180px;height:60px;background:linear-gradient(200deg,#0000cc 0%,#00cccc 30%,#ffff00 70%,#ff0000)"></div>
            """, draw: { v in
                let a = try Gradient([GradientStop(color("#ff7a18")), GradientStop(color("#af002d"))])
                let box1 = Box(x: 10, y: 10, width: 180, height: 60)
                try v.fill(.rect(box1), paint: .linear(LinearGradient(angle: 45, a)))
                let b = try Gradient([GradientStop(color("#0000cc"), at: 0), GradientStop(color("#00cccc"), at: 0.3),
                                      GradientStop(color("#ffff00"), at: 0.7), GradientStop(color("#ff0000"))])
                try v.fill(.rect(Box(x: 10, y: 80, width: 180, height: 60)), paint: .linear(LinearGradient(angle: 200, b)))
            }),
        Scene(name: "radial gradients (CSS)", html: """
            <div style="position:absolute;left:10px;top:10px;width:180px;height:60px;background:radial-gradient(#ffffff,#0000cc)"></div>
            <div style="position:absolute;left:10px;top:80px;width:120px;height:60px;background:radial-gradient(#ff0000 0%,#ffff00 40%,#00aa00 100%)"></div>
            """, draw: { v in
                let a = try Gradient([GradientStop(Ink.white), GradientStop(color("#0000cc"))])
                try v.fill(.rect(Box(x: 10, y: 10, width: 180, height: 60)), paint: .radial(RadialGradient(a)))
                let b = try Gradient([GradientStop(Ink.red, at: 0), GradientStop(color("#ffff00"), at: 0.4), GradientStop(color("#00aa00"), at: 1)])
                try v.fill(.rect(Box(x: 10, y: 80, width: 120, height: 60)), paint: .radial(RadialGradient(b)))
            }),
        Scene(name: "gradient alpha (SVG)", html: svg("""
            <defs><linearGradient id="ga" gradientUnits="userSpaceOnUse" x1="10" y1="0" x2="190" y2="0">
            <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff" stop-opacity="0"/></linearGradient></defs>
            <rect x="90" y="0" width="20" height="150" fill="#000"/>
            <rect x="10" y="20" width="180" height="110" fill="url(#ga)"/>
            """), draw: { v in
                try v.fill(.rect(Box(x: 90, y: 0, width: 20, height: 150)), paint: .solid(Ink.black))
                let g = try Gradient([GradientStop(Ink.red), GradientStop(Color(r: 0, g: 0, b: 255, a: 0))])
                try v.fill(.rect(Box(x: 10, y: 20, width: 180, height: 110)), paint: .linear(LinearGradient(angle: 90, g)),
                           paintBox: Box(x: 10, y: 0, width: 180, height: 150))
            }),
        Scene(name: "drop shadows (SVG)", html: svg("""
            <defs><filter id="s1" color-interpolation-filters="sRGB" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="5" dy="5" stdDeviation="4" flood-color="#000" flood-opacity="0.5"/></filter>
            <filter id="s2" color-interpolation-filters="sRGB" x="-50%" y="-50%" width="200%" height="200%"><feDropShadow dx="-3" dy="6" stdDeviation="1.5" flood-color="#0000ff" flood-opacity="0.8"/></filter></defs>
            <rect x="20" y="20" width="60" height="40" fill="#ffcc00" filter="url(#s1)"/>
            <circle cx="140" cy="45" r="25" fill="none" stroke="#000" stroke-width="6" filter="url(#s2)"/>
            <g filter="url(#s1)"><ellipse cx="60" cy="110" rx="40" ry="22" fill="#ff0000" fill-opacity="0.5"/></g>
            <g opacity="0.6" filter="url(#s1)"><rect x="120" y="90" width="60" height="40" rx="6" fill="#00aa00" stroke="#003300" stroke-width="4"/></g>
            """), draw: { v in
                let s1 = try Shadow(offset: Point(5, 5), blur: 8, color: Color(r: 0, g: 0, b: 0, a: 0.5))
                let s2 = try Shadow(offset: Point(-3, 6), blur: 3, color: Color(r: 0, g: 0, b: 255, a: 0.8))
                try v.draw(VectorShape(.rect(Box(x: 20, y: 20, width: 60, height: 40)), fill: .solid(color("#ffcc00")), shadow: s1))
                try v.draw(VectorShape(.circle(center: Point(140, 45), radius: 25), stroke: StrokePaint(StrokeStyle(width: 6), .solid(Ink.black)),
                                       shadow: s2))
                try v.draw(VectorShape(.ellipse(center: Point(60, 110), radii: Point(40, 22)), fill: .solid(Color(r: 255, g: 0, b: 0, a: 0.5)),
                                       shadow: s1))
                try v.draw(VectorShape(.roundedRect(Box(x: 120, y: 90, width: 60, height: 40), rx: 6, ry: 6), fill: .solid(color("#00aa00")),
                                       stroke: StrokePaint(StrokeStyle(width: 4), .solid(color("#003300"))), shadow: s1, opacity: 0.6))
            }),
        Scene(name: "box-shadow (CSS)", html: """
            <div style="position:absolute;left:30px;top:25px;width:140px;height:90px;border-radius:12px;background:#ffffff;box-shadow:0 4px 12px rgba(0,0,0,0.55)"></div>
            """, draw: { v in
                try v.draw(VectorShape(.roundedRect(Box(x: 30, y: 25, width: 140, height: 90), rx: 12, ry: 12), fill: .solid(Ink.white),
                                       shadow: try Shadow(offset: Point(0, 4), blur: 12, color: Color(r: 0, g: 0, b: 0, a: 0.55))))
            }),
        Scene(name: "images", html: svg("""
            <image x="10" y="10" width="120" height="90" preserveAspectRatio="none" href="\(dataURI(smallImage))"/>
            <image x="140" y="10" width="50" height="50" preserveAspectRatio="none" href="\(dataURI(ringImage))"/>
            <image x="-20" y="-15" width="40" height="30" preserveAspectRatio="none" transform="translate(160 115) rotate(30)" href="\(dataURI(smallImage))"/>
            """), draw: { v in
                let small = RasterImage(smallImage), rings = RasterImage(ringImage)
                v.draw(image: small, in: Box(x: 10, y: 10, width: 120, height: 90))
                v.draw(image: rings, in: Box(x: 140, y: 10, width: 50, height: 50))
                v.draw(image: small, in: Box(x: -20, y: -15, width: 40, height: 30), transform: .translation(160, 115) * .rotation(degrees: 30))
            }),
        Scene(name: "text", html: svg("""
            <g font-family="DejaVu Sans" text-rendering="geometricPrecision">
            <text x="10" y="40" font-size="28">Hello, AVA</text>
            <text x="100" y="85" font-size="30" font-weight="bold" text-anchor="middle">Typo!</text>
            <text x="190" y="133" font-size="22" text-anchor="end" fill="#aa0000">1.25 s</text></g>
            """), draw: { v in
                let regular = try fonts.match(family: "DejaVu Sans").get().face
                let bold = try fonts.match(family: "DejaVu Sans", weight: 700).get().face
                try v.draw(text: TextLayout("Hello, AVA", font: regular, size: 28), paint: .solid(Ink.black), transform: .translation(10, 40))
                try v.draw(text: TextLayout("Typo!", font: bold, size: 30, align: .center), paint: .solid(Ink.black), transform: .translation(100, 85))
                try v.draw(text: TextLayout("1.25 s", font: regular, size: 22, align: .right, baseline: .middle), paint: .solid(color("#aa0000")),
                           transform: .translation(190, 133 - middleShift(22)))
            }),
        Scene(name: "group opacity", html: svg("""
            <g opacity="0.5"><rect x="20" y="20" width="70" height="60" fill="#0066cc" stroke="#000" stroke-width="10"/></g>
            <rect x="110" y="20" width="70" height="60" fill="#0066cc" fill-opacity="0.5" stroke="#000" stroke-opacity="0.5" stroke-width="10"/>
            <g opacity="0.7" transform="translate(100 115) rotate(-10)"><path d="M -70 -20 H 70 L 50 20 H -50 Z" fill="#ff8800" stroke="#663300" stroke-width="6" stroke-dasharray="15 5"/></g>
            """), draw: { v in
                let fill = Paint.solid(color("#0066cc")), stroke = StrokePaint(try StrokeStyle(width: 10), .solid(Ink.black))
                try v.draw(VectorShape(.rect(Box(x: 20, y: 20, width: 70, height: 60)), fill: fill, stroke: stroke, opacity: 0.5))
                // Fill and stroke each at half alpha: the fill shows through the stroke's inner half.
                try v.fill(.rect(Box(x: 110, y: 20, width: 70, height: 60)), paint: fill, opacity: 0.5)
                try v.stroke(.rect(Box(x: 110, y: 20, width: 70, height: 60)), style: StrokeStyle(width: 10), paint: .solid(Ink.black), opacity: 0.5)
                try v.draw(VectorShape(.polygon([Point(-70, -20), Point(70, -20), Point(50, 20), Point(-50, 20)]), fill: .solid(color("#ff8800")),
                                       stroke: StrokePaint(StrokeStyle(width: 6, dash: Dash([15, 5])), .solid(color("#663300"))),
                                       transform: .translation(100, 115) * .rotation(degrees: -10), opacity: 0.7))
            }),
    ]

    @Test("every scene is within tolerance of Chromium's rendering",
          .enabled(if: Chromium.executable != nil, Chromium.skipNote))
    func scenesMatchChromium() throws {
        let rows = (Self.scenes.count + Self.columns - 1) / Self.columns
        let (w, h) = Self.cell
        var page = ""
        for (k, s) in Self.scenes.enumerated() {
            page += "<div style=\"position:absolute;left:\((k % Self.columns) * w)px;top:\((k / Self.columns) * h)px;"
                + "width:\(w)px;height:\(h)px;overflow:hidden\">\(s.html)</div>\n"
        }
        let shot = try Chromium.screenshot(page, width: Self.columns * w, height: rows * h, scale: Self.referenceScale)
        dump(shot, "chromium")
        var ours = VectorCanvas.white(Self.columns * w, rows * h)
        for (k, s) in Self.scenes.enumerated() {
            var v = VectorCanvas.white(w, h)
            try s.draw(&v)
            let x0 = (k % Self.columns) * w, y0 = (k / Self.columns) * h
            ours.draw(image: RasterImage(v.canvas), in: Box(x: Double(x0), y: Double(y0), width: Double(w), height: Double(h)))
            let d = PixelDifference.between(shot.crop(x: x0, y: y0, width: w, height: h), v.canvas)
            print("vector vs Chromium, \(s.name): \(d)")
            #expect(d.withinTolerance, "\(s.name): \(d)")
            if ProcessInfo.processInfo.environment["ANIM_VECTOR_SCENE"] == s.name {
                let ref = shot.crop(x: x0, y: y0, width: w, height: h)
                var bad: [String] = []
                for y in 0..<h { for x in 0..<w {
                    let a = ref.pixel(x, y), b = v.canvas.pixel(x, y)
                    let m = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    if m > 24 { bad.append("(\(x),\(y)):\(a.r),\(a.g),\(a.b)/\(b.r),\(b.g),\(b.b)") }
                } }
                print(bad.prefix(400).joined(separator: " "))
            }
        }
        dump(ours.canvas, "anim")
    }
}
