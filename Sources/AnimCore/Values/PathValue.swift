// PathValue: SVG path data as a value — the `d` of a `path` shape. It is parsed once, by the
// grammar of SVG 2 §9.3.9 (the commands M L H V C S Q T A Z in absolute and relative forms,
// implicit repetition, numbers that need no separator, arc flags written without one), into
// absolute commands of four kinds: move, line, quadratic, cubic, and close. H and V become
// lines, S and T the curves they abbreviate (the reflected control point written out), and an
// arc the cubic Béziers that draw it (SVG 2 §B.2.4, endpoint to center parameterization), so
// every output draws the same curves and a morph sees plain points. Unlike a browser, which
// draws up to the first error, malformed data is rejected whole, with the character offset of
// the error. The canonical text is the normalized commands (`M 0 50 C 25 0 75 100 100 50`).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path data: absolute move, line, quadratic, cubic and close commands.
public struct PathValue: Hashable, Sendable {
    /// One command, in absolute coordinates.
    public enum Command: Hashable, Sendable {
        /// Starts a subpath at a point.
        case move(Point)
        /// A straight line to a point.
        case line(Point)
        /// A quadratic Bézier: control point, end point.
        case quadratic(Point, Point)
        /// A cubic Bézier: first control point, second control point, end point.
        case cubic(Point, Point, Point)
        /// Closes the subpath back to its start.
        case close

        /// The command's letter in the canonical text.
        public var letter: Character {
            switch self {
            case .move: "M"
            case .line: "L"
            case .quadratic: "Q"
            case .cubic: "C"
            case .close: "Z"
            }
        }

        /// Its points, in order (the end point last).
        public var points: [Point] {
            switch self {
            case .move(let p), .line(let p): [p]
            case .quadratic(let c, let p): [c, p]
            case .cubic(let c1, let c2, let p): [c1, c2, p]
            case .close: []
            }
        }

        /// The same command with each point mapped.
        func mapPoints(_ f: (Point) -> Point) -> Command {
            switch self {
            case .move(let p): .move(f(p))
            case .line(let p): .line(f(p))
            case .quadratic(let c, let p): .quadratic(f(c), f(p))
            case .cubic(let c1, let c2, let p): .cubic(f(c1), f(c2), f(p))
            case .close: .close
            }
        }
    }

    /// The commands, in order. The first is a move (or there are none).
    public var commands: [Command]

    /// Path data from commands.
    public init(_ commands: [Command] = []) { self.commands = commands }

    /// The most commands one path may hold (implicit repetitions count): enough for any icon
    /// or glyph (Grammar.md §11).
    public static let maxCommands = 10_000

    /// The canonical text: the normalized commands, numbers printed canonically.
    public var text: String {
        var out: [String] = []
        out.reserveCapacity(commands.count)
        for c in commands {
            let ps = c.points.map { formatNumber($0.x) + " " + formatNumber($0.y) }
            out.append(([String(c.letter)] + ps).joined(separator: " "))
        }
        return out.joined(separator: " ")
    }

    /// Whether every coordinate is finite.
    public var isFinite: Bool {
        commands.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
    }

    /// The shape of the data: each command's letter, for deciding whether two paths morph
    /// command by command.
    public var structure: [Character] { commands.map(\.letter) }
}

/// Why path data is malformed (`offset` counts characters from the start of the string).
public enum PathSyntaxError: Error, Hashable, Sendable {
    /// Something other than a command letter where one was expected.
    case expectedCommand(offset: Int, found: Character)
    /// Path data that does not begin with a moveto.
    case mustStartWithMove(offset: Int)
    /// A command whose numbers ran out.
    case incompleteCommand(offset: Int, command: Character, takes: Int)
    /// Something other than a number (or the next command) where a number was expected.
    case expectedNumber(offset: Int, found: Character)
    /// An arc flag that is not 0 or 1.
    case badArcFlag(offset: Int)
    /// A number too large to be finite.
    case numberOutOfRange(offset: Int)
    /// More commands than `PathValue.maxCommands`.
    case tooManyCommands(limit: Int)

    /// Where in the string the problem is (nil: the whole string).
    public var offset: Int? {
        switch self {
        case .expectedCommand(let o, _), .mustStartWithMove(let o), .incompleteCommand(let o, _, _), .expectedNumber(let o, _),
             .badArcFlag(let o), .numberOutOfRange(let o):
            o
        case .tooManyCommands: nil
        }
    }

    /// The message: lowercase, no final period, names in single quotes.
    public var message: String {
        switch self {
        case .expectedCommand(_, let c): "expected a path command (M, L, H, V, C, S, Q, T, A or Z), found '\(c)'"
        case .mustStartWithMove: "path data must start with a moveto ('M' or 'm')"
        case .incompleteCommand(_, let c, let n): "incomplete '\(c)' command: it takes \(n) number\(n == 1 ? "" : "s")"
        case .expectedNumber(_, let c): "expected a number in path data, found '\(c)'"
        case .badArcFlag: "an arc flag must be 0 or 1"
        case .numberOutOfRange: "number out of range in path data"
        case .tooManyCommands(let limit): "path data has more than \(limit.formatted) commands"
        }
    }

    /// The same error with a byte offset into `text` turned into a character offset.
    func inCharacters(of text: String) -> PathSyntaxError {
        func chars(_ o: Int) -> Int {
            let utf8 = Array(text.utf8)
            return String(decoding: utf8[..<min(o, utf8.count)], as: UTF8.self).count
        }
        switch self {
        case .expectedCommand(let o, let c): return .expectedCommand(offset: chars(o), found: c)
        case .mustStartWithMove(let o): return .mustStartWithMove(offset: chars(o))
        case .incompleteCommand(let o, let c, let n): return .incompleteCommand(offset: chars(o), command: c, takes: n)
        case .expectedNumber(let o, let c): return .expectedNumber(offset: chars(o), found: c)
        case .badArcFlag(let o): return .badArcFlag(offset: chars(o))
        case .numberOutOfRange(let o): return .numberOutOfRange(offset: chars(o))
        case .tooManyCommands: return self
        }
    }
}

private extension Int {
    /// `10,000`.
    var formatted: String {
        let s = String(self)
        var out = ""
        for (k, ch) in s.enumerated() {
            if k > 0 && (s.count - k) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }
}

extension PathValue {
    /// The path data in `text`, or why it is malformed.
    public static func parse(_ text: String) -> Result<PathValue, PathSyntaxError> {
        var p = Reader(Array(text.utf8))
        do throws(PathSyntaxError) {
            return .success(try p.parse())
        } catch {
            // Offsets are found in bytes; report them in characters.
            return .failure(error.inCharacters(of: text))
        }
    }

    /// Appends to `out` the cubic Béziers of an elliptical arc around `center` with radii
    /// `radii` whose x axis is turned by `rotation` radians, from angle `start` through `sweep`
    /// radians (positive: clockwise on screen), of at most 45° each: (control 1, control 2, end).
    /// Source: the control-point distance 4/3·tan(θ/4) of an arc of θ radians (Riškus,
    /// "Approximation of a cubic Bézier curve by circular arcs and vice versa", 2006); at 45°
    /// the radial error is under 5·10⁻⁶ of the radius.
    public static func arcCubics(center: Point, radii: Point, rotation: Double, start: Double, sweep: Double,
                                 _ out: (Point, Point, Point) -> Void) {
        let cr = cos(rotation), sr = sin(rotation)
        func at(_ t: Double) -> Point {
            let x = radii.x * cos(t), y = radii.y * sin(t)
            return Point(center.x + x * cr - y * sr, center.y + x * sr + y * cr)
        }
        func derivative(_ t: Double) -> Point {
            let x = -radii.x * sin(t), y = radii.y * cos(t)
            return Point(x * cr - y * sr, x * sr + y * cr)
        }
        guard sweep != 0, sweep.isFinite else { return }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 4) - 1e-9).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var t = start
        for _ in 0..<pieces {
            let p0 = at(t), p3 = at(t + step)
            let d0 = derivative(t), d3 = derivative(t + step)
            out(Point(p0.x + k * d0.x, p0.y + k * d0.y), Point(p3.x - k * d3.x, p3.y - k * d3.y), p3)
            t += step
        }
    }

    /// The reader's state: the bytes, a cursor, and the pen.
    struct Reader {
        let bytes: [UInt8]
        var i = 0
        var out: [Command] = []
        /// The current point and the start of the current subpath.
        var current = Point.zero, subpathStart = Point.zero
        /// The last command's second control point, for S (cubic) and T (quadratic) reflection.
        var lastCubicControl: Point?, lastQuadraticControl: Point?
        var commands = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// path := wsp* (moveto drawto*)? wsp*
        mutating func parse() throws(PathSyntaxError) -> PathValue {
            skipSpace()
            guard i < bytes.count else { return PathValue(out) }
            guard bytes[i] == UInt8(ascii: "M") || bytes[i] == UInt8(ascii: "m") else {
                if isCommand(bytes[i]) { throw .mustStartWithMove(offset: i) }
                throw .expectedCommand(offset: i, found: character(at: i))
            }
            while true {
                skipSpace()
                guard i < bytes.count else { break }
                let start = i
                let letter = bytes[i]
                guard isCommand(letter) else { throw .expectedCommand(offset: i, found: character(at: i)) }
                i += 1
                try command(letter, at: start)
            }
            return PathValue(out)
        }

        /// One command letter and all of its (implicitly repeated) argument groups.
        mutating func command(_ letter: UInt8, at start: Int) throws(PathSyntaxError) {
            let relative = letter >= UInt8(ascii: "a")
            let upper = relative ? letter - 32 : letter
            let name = Character(Unicode.Scalar(letter))
            if upper == UInt8(ascii: "Z") {
                try count()
                if !out.isEmpty, out.last != .close { out.append(.close) }
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
                            if i >= bytes.count || isCommand(bytes[i]) { throw .incompleteCommand(offset: start, command: name, takes: arity) }
                            throw .badArcFlag(offset: at)
                        }
                        n[k] = f
                    } else {
                        guard let v = try number() else {
                            // Something that is neither a number nor the next command: say what.
                            if i < bytes.count && !isCommand(bytes[i]) { throw .expectedNumber(offset: i, found: character(at: i)) }
                            throw .incompleteCommand(offset: start, command: name, takes: arity)
                        }
                        n[k] = v
                    }
                }
                let base = relative ? current : .zero
                switch upper {
                case UInt8(ascii: "M"):
                    let p = Point(base.x + n[0], base.y + n[1])
                    if first {
                        out.append(.move(p))
                        subpathStart = p
                    } else {
                        out.append(.line(p))
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
                // Another group follows if a number comes next.
                let mark = i
                skipCommaSpace()
                let more = i < bytes.count && startsNumber(bytes[i])
                i = more ? i : mark
                if !more { break }
            } while true
        }

        mutating func count() throws(PathSyntaxError) {
            commands += 1
            if commands > PathValue.maxCommands { throw .tooManyCommands(limit: PathValue.maxCommands) }
        }

        // MARK: Drawing

        /// A drawing command after a close starts a new subpath at the close's point, as SVG does.
        mutating func reopen() {
            if out.last == .close { out.append(.move(current)) }
        }

        mutating func lineTo(_ p: Point) {
            reopen()
            out.append(.line(p))
            current = p
            lastCubicControl = nil; lastQuadraticControl = nil
        }

        mutating func cubicTo(_ c1: Point, _ c2: Point, _ p: Point) {
            reopen()
            out.append(.cubic(c1, c2, p))
            current = p
            lastCubicControl = c2; lastQuadraticControl = nil
        }

        mutating func quadraticTo(_ c: Point, _ p: Point) {
            reopen()
            out.append(.quadratic(c, p))
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
            reopen()
            PathValue.arcCubics(center: center, radii: Point(rx, ry), rotation: phi, start: theta1, sweep: delta) { c1, c2, p in
                out.append(.cubic(c1, c2, p))
            }
            // Land exactly on the end point (the arc's own end differs by rounding).
            if case .cubic(let p1, let p2, _) = out.last { out[out.count - 1] = .cubic(p1, p2, end) }
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
        mutating func number() throws(PathSyntaxError) -> Double? {
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
            guard let v = Double(text), v.isFinite else { throw .numberOutOfRange(offset: start) }
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
