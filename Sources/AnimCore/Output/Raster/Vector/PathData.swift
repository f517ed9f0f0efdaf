// PathData: SVG path data (`d="M 0 50 C 25 0, 75 100, 100 50"`) into an Outline, by the
// grammar of SVG 2 §9.3.9: the commands M L H V C S Q T A Z in absolute (upper case) and
// relative (lower case) forms, implicit repetition (numbers after M are lines), numbers with
// signs and exponents that need no separator (`1-2`, `.5.5`), and arc flags written without
// one (`a1 1 0 011 1`). Arcs become cubic Béziers (SVG 2 §B.2.4, endpoint to center
// parameterization). Unlike a browser, which draws up to the first error, malformed data is
// rejected whole, with the character offset of the error.
#if canImport(Glibc)
import Glibc
#endif

/// Parses SVG path data.
public enum PathData {
    /// The most commands one path may hold (implicit repetitions count): enough for any icon
    /// or glyph, and small enough that the outline stays within FreeType's 32,767 points in
    /// the common case (a path of arcs may still exceed it; that is `tooManyPoints`).
    public static let maxCommands = 10_000

    /// The outline of `text`, or why it is malformed.
    public static func parse(_ text: String) -> Result<Outline, VectorError> {
        var p = Parser(Array(text.utf8))
        do throws(VectorError) {
            let outline = try p.parse()
            let points = outline.pointCount
            guard points <= OutlineRasterizer.maxPoints else {
                return .failure(.tooManyPoints(count: points, limit: OutlineRasterizer.maxPoints))
            }
            return .success(outline)
        } catch {
            // Offsets are found in bytes; report them in characters.
            return .failure(error.inCharacters(of: text))
        }
    }

    /// The parser's state: the bytes, a cursor, and the pen.
    struct Parser {
        let bytes: [UInt8]
        var i = 0
        var outline = Outline()
        /// The current point and the start of the current subpath.
        var current = Point.zero, subpathStart = Point.zero
        /// The last command's second control point, for S (cubic) and T (quadratic) reflection.
        var lastCubicControl: Point?, lastQuadraticControl: Point?
        var commands = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// path := wsp* (moveto drawto*)? wsp*
        mutating func parse() throws(VectorError) -> Outline {
            skipSpace()
            guard i < bytes.count else { return outline }
            guard bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else {
                if isCommand(bytes[i]) { throw .pathMustStartWithMove(offset: i) }
                throw .pathExpectedCommand(offset: i, found: character(at: i))
            }
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                let start = i
                let letter = bytes[i]
                guard isCommand(letter) else { throw .pathExpectedCommand(offset: i, found: character(at: i)) }
                i += 1
                try command(letter, at: start)
            }
            return outline
        }

        /// One command letter and all of its (implicitly repeated) argument groups.
        mutating func command(_ letter: UInt8, at start: Int) throws(VectorError) {
            let relative = letter >= UInt8(ascii: "a")
            let upper = relative ? letter - 32 : letter
            let name = Character(Unicode.Scalar(letter))
            if upper == UInt8(ascii: "Z") {
                try count()
                outline.close()
                current = subpathStart
                lastCubicControl = nil; lastQuadraticControl = nil
                return
            }
            let arity: Int
            switch upper {
            case UInt8(ascii: "M"), UInt8(ascii: "L"), UInt8(ascii: "T"): arity = 2
            case UInt8(ascii: "H"), UInt8(ascii: "V"): arity = 1
            case UInt8(ascii: "S"), UInt8(ascii: "Q"): arity = 4
            case UInt8(ascii: "C"): arity = 6
            default: arity = 7  // A
            }
            var first = true
            repeat {
                try count()
                var n = [Double](repeating: 0, count: arity)
                for k in 0..<arity {
                    if k > 0 || !first { skipCommaSpace() } else { skipSpace() }
                    let at = i
                    if upper == UInt8(ascii: "A") && (k == 3 || k == 4) {
                        guard let f = flag() else {
                            if i >= bytes.count || isCommand(bytes[i]) { throw .pathIncompleteCommand(offset: start, command: name, takes: arity) }
                            throw .pathBadArcFlag(offset: at)
                        }
                        n[k] = f
                    } else {
                        guard let v = try number() else {
                            // Something that is neither a number nor the next command: say what.
                            if i < bytes.count && !isCommand(bytes[i]) { throw .pathExpectedNumber(offset: i, found: character(at: i)) }
                            throw .pathIncompleteCommand(offset: start, command: name, takes: arity)
                        }
                        n[k] = v
                    }
                }
                let base = relative ? current : .zero
                switch upper {
                case UInt8(ascii: "M"):
                    let p = Point(base.x + n[0], base.y + n[1])
                    if first {
                        outline.move(to: p)
                        subpathStart = p
                    } else {
                        outline.line(to: p)
                    }
                    current = p
                    lastCubicControl = nil; lastQuadraticControl = nil
                case UInt8(ascii: "L"):
                    lineTo(Point(base.x + n[0], base.y + n[1]))
                case UInt8(ascii: "H"):
                    lineTo(Point((relative ? current.x : 0) + n[0], current.y))
                case UInt8(ascii: "V"):
                    lineTo(Point(current.x, (relative ? current.y : 0) + n[0]))
                case UInt8(ascii: "C"):
                    cubicTo(Point(base.x + n[0], base.y + n[1]), Point(base.x + n[2], base.y + n[3]), Point(base.x + n[4], base.y + n[5]))
                case UInt8(ascii: "S"):
                    let c1 = reflected(lastCubicControl)
                    cubicTo(c1, Point(base.x + n[0], base.y + n[1]), Point(base.x + n[2], base.y + n[3]))
                case UInt8(ascii: "Q"):
                    quadraticTo(Point(base.x + n[0], base.y + n[1]), Point(base.x + n[2], base.y + n[3]))
                case UInt8(ascii: "T"):
                    quadraticTo(reflected(lastQuadraticControl), Point(base.x + n[0], base.y + n[1]))
                default:
                    arcTo(radii: Point(n[0], n[1]), rotation: n[2], large: n[3] != 0, sweep: n[4] != 0,
                          end: Point(base.x + n[5], base.y + n[6]))
                }
                first = false
                // Another group follows if a number (or, for arcs, anything but a command) comes next.
                let mark = i
                skipCommaSpace()
                let more = i < bytes.count && startsNumber(bytes[i])
                i = more ? i : mark
                if !more { break }
            } while true
        }

        mutating func count() throws(VectorError) {
            commands += 1
            if commands > PathData.maxCommands { throw .pathTooManyCommands(limit: PathData.maxCommands) }
        }

        // MARK: Drawing

        mutating func lineTo(_ p: Point) {
            outline.line(to: p)
            current = p
            lastCubicControl = nil; lastQuadraticControl = nil
        }

        mutating func cubicTo(_ c1: Point, _ c2: Point, _ p: Point) {
            outline.cubic(to: p, control1: c1, control2: c2)
            current = p
            lastCubicControl = c2; lastQuadraticControl = nil
        }

        mutating func quadraticTo(_ c: Point, _ p: Point) {
            outline.quadratic(to: p, control: c)
            current = p
            lastQuadraticControl = c; lastCubicControl = nil
        }

        /// The reflection of the previous control point about the current point, or the current
        /// point when the previous command was not of the same family (SVG 2 §9.3.6, §9.3.7).
        func reflected(_ control: Point?) -> Point {
            guard let c = control else { return current }
            return Point(2 * current.x - c.x, 2 * current.y - c.y)
        }

        /// An elliptical arc from the current point, by SVG 2 §B.2.4–B.2.5: zero radii make a
        /// line, radii too small are scaled up until the ellipse reaches, and the center comes
        /// from the endpoint parameterization (B.2.4, equations 5.1–5.6).
        mutating func arcTo(radii: Point, rotation degrees: Double, large: Bool, sweep: Bool, end: Point) {
            let start = current
            if start == end { current = end; lastCubicControl = nil; lastQuadraticControl = nil; return }
            var rx = abs(radii.x), ry = abs(radii.y)
            guard rx > 0, ry > 0 else { lineTo(end); return }
            let phi = degrees.truncatingRemainder(dividingBy: 360) * Double.pi / 180
            let cp = cos(phi), sp = sin(phi)
            let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
            let x1 = cp * dx + sp * dy, y1 = -sp * dx + cp * dy
            let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
            if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
            let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
            let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
            var coef = den > 0 ? (max(0, num) / den).squareRoot() : 0
            if large == sweep { coef = -coef }
            let cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx
            let center = Point(cp * cx1 - sp * cy1 + (start.x + end.x) / 2, sp * cx1 + cp * cy1 + (start.y + end.y) / 2)
            func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
                atan2(ux * vy - uy * vx, ux * vx + uy * vy)
            }
            let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
            var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
            if !sweep && delta > 0 { delta -= 2 * Double.pi }
            if sweep && delta < 0 { delta += 2 * Double.pi }
            outline.arc(center: center, radii: Point(rx, ry), rotation: phi, start: theta1, sweep: delta, join: .none)
            // Land exactly on the end point (the arc's own end differs by rounding).
            if var c = outline.contours.last, case .cubic(let p1, let p2, _) = c.segments.last {
                c.segments[c.segments.count - 1] = .cubic(p1, p2, end)
                outline.contours[outline.contours.count - 1] = c
            }
            current = end
            lastCubicControl = nil; lastQuadraticControl = nil
        }

        // MARK: Lexing

        func isCommand(_ b: UInt8) -> Bool {
            switch b | 0x20 {
            case UInt8(ascii: "m"), UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "c"),
                 UInt8(ascii: "s"), UInt8(ascii: "q"), UInt8(ascii: "t"), UInt8(ascii: "a"), UInt8(ascii: "z"):
                return true
            default:
                return false
            }
        }

        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }

        func startsNumber(_ b: UInt8) -> Bool {
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
        }

        mutating func skipSpace() { while i < bytes.count && isSpace(bytes[i]) { i += 1 } }

        /// comma-wsp := (wsp+ ","? wsp*) | ("," wsp*)
        mutating func skipCommaSpace() {
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: ",") { i += 1; skipSpace() }
        }

        /// flag := "0" | "1"
        mutating func flag() -> Double? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "0"): i += 1; return 0
            case UInt8(ascii: "1"): i += 1; return 1
            default: return nil
            }
        }

        /// number := sign? (digits ("." digits?)? | "." digits) (("e" | "E") sign? digits)?
        /// Returns nil (cursor unmoved) when no number starts here.
        mutating func number() throws(VectorError) -> Double? {
            let start = i
            var j = i
            if j < bytes.count && (bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-")) { j += 1 }
            var digits = 0
            while j < bytes.count && bytes[j] >= UInt8(ascii: "0") && bytes[j] <= UInt8(ascii: "9") { j += 1; digits += 1 }
            if j < bytes.count && bytes[j] == UInt8(ascii: ".") {
                let k = j + 1
                var frac = 0
                var m = k
                while m < bytes.count && bytes[m] >= UInt8(ascii: "0") && bytes[m] <= UInt8(ascii: "9") { m += 1; frac += 1 }
                if digits > 0 || frac > 0 { j = m; digits += frac }
            }
            guard digits > 0 else { return nil }
            if j < bytes.count && (bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E")) {
                var k = j + 1
                if k < bytes.count && (bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-")) { k += 1 }
                var exp = 0
                while k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9") { k += 1; exp += 1 }
                if exp > 0 { j = k }
            }
            let text = String(decoding: bytes[start..<j], as: UTF8.self)
            guard let v = Double(text), v.isFinite else { throw .pathNumberOutOfRange(offset: start) }
            i = j
            return v
        }

        func character(at k: Int) -> Character {
            // The character that starts at byte k (path data is ASCII; anything else is one scalar).
            var end = k + 1
            while end < bytes.count && (bytes[end] & 0xC0) == 0x80 { end += 1 }
            return String(decoding: bytes[k..<end], as: UTF8.self).first ?? "?"
        }
    }
}

extension VectorError {
    /// The same error with a byte offset into `text` turned into a character offset.
    func inCharacters(of text: String) -> VectorError {
        func chars(_ o: Int) -> Int {
            let utf8 = Array(text.utf8)
            return String(decoding: utf8[..<min(o, utf8.count)], as: UTF8.self).count
        }
        switch self {
        case .pathExpectedCommand(let o, let c): return .pathExpectedCommand(offset: chars(o), found: c)
        case .pathMustStartWithMove(let o): return .pathMustStartWithMove(offset: chars(o))
        case .pathIncompleteCommand(let o, let c, let n): return .pathIncompleteCommand(offset: chars(o), command: c, takes: n)
        case .pathExpectedNumber(let o, let c): return .pathExpectedNumber(offset: chars(o), found: c)
        case .pathBadArcFlag(let o): return .pathBadArcFlag(offset: chars(o))
        case .pathNumberOutOfRange(let o): return .pathNumberOutOfRange(offset: chars(o))
        default: return self
        }
    }
}
