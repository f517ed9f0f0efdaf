// Value: the runtime values of the language, one case per kind of the brief (§2), each a
// small struct. Kind is the static type the checker works with. Printing is canonical so that
// golden output is stable (see ValueFormatting.swift); interpolation lives in Interpolation.swift.

/// A 2-D point or size.
public struct Point: Hashable, Sendable {
    /// The x component.
    public var x: Double
    /// The y component.
    public var y: Double
    /// Creates a point.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The origin.
    public static let zero = Point(0, 0)
}

/// An angle, held in degrees.
public struct Angle: Hashable, Sendable {
    /// The angle in degrees.
    public var degrees: Double
    /// Creates an angle from degrees.
    public init(degrees: Double) { self.degrees = degrees }
    /// Creates an angle from radians.
    public init(radians: Double) { self.degrees = radians * 180 / Double.pi }
    /// The angle in radians.
    public var radians: Double { degrees * Double.pi / 180 }
}

/// An sRGB color: channels in 0...255, alpha in 0...1 (not premultiplied).
public struct Color: Hashable, Sendable {
    /// Red, 0...255.
    public var r: Double
    /// Green, 0...255.
    public var g: Double
    /// Blue, 0...255.
    public var b: Double
    /// Alpha, 0...1.
    public var a: Double
    /// Creates a color.
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// Parses the hex digits after `#`: 3, 4, 6 or 8 of them.
    public init?(hex: some StringProtocol) {
        // ASCII digits are read as bytes (every `#` color of a script, and every named color, is
        // parsed here); any other text goes through Character.hexDigitValue, which also knows
        // the fullwidth digits.
        var packed: UInt32 = 0, n = 0, ascii = true
        bytes: for c in hex.utf8 {
            let d: UInt8
            switch c {
            case 0x30...0x39: d = c &- 0x30
            case 0x41...0x46: d = c &- 0x37
            case 0x61...0x66: d = c &- 0x57
            case 0x80...:
                ascii = false
                break bytes
            default: return nil  // an ASCII byte that is no hex digit: no Character of it is one
            }
            n += 1
            guard n <= 8 else { return nil }
            packed = packed << 4 | UInt32(d)
        }
        let ds: [Int]
        if ascii {
            var digits = [Int](repeating: 0, count: n)
            for i in 0..<n { digits[i] = Int((packed >> UInt32(4 * (n - 1 - i))) & 0xF) }
            ds = digits
        } else {
            ds = hex.compactMap { $0.hexDigitValue }
            guard ds.count == hex.count else { return nil }
        }
        switch ds.count {
        case 3, 4:
            r = Double(ds[0] * 17); g = Double(ds[1] * 17); b = Double(ds[2] * 17)
            a = ds.count == 4 ? Double(ds[3] * 17) / 255 : 1
        case 6, 8:
            r = Double(ds[0] * 16 + ds[1]); g = Double(ds[2] * 16 + ds[3]); b = Double(ds[4] * 16 + ds[5])
            a = ds.count == 8 ? Double(ds[6] * 16 + ds[7]) / 255 : 1
        default: return nil
        }
    }

    /// A color from CSS `hsl()` components: hue in degrees, saturation and lightness in 0...1.
    /// Formula: CSS Color Module Level 4, §7.1 "Converting HSL Colors to sRGB".
    public init(hue: Double, saturation s: Double, lightness l: Double, alpha: Double = 1) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        r = f(0) * 255; g = f(8) * 255; b = f(4) * 255; a = alpha
    }

    /// The named color with this CSS name, if any.
    public static func named(_ name: String) -> Color? {
        CSSColors.table[name].map { Color(hex: $0)! }
    }
}

/// The static kind of a value, as the checker sees it.
public enum Kind: Hashable, Sendable, CustomStringConvertible {
    case number, time, angle, point, color, string, bool, shape
    /// SVG path data (a `path` shape's `d`).
    case path
    /// A fill: a colour or a gradient (the kind of `color`/`fill` and of the gradient
    /// functions; a colour fits where a paint is expected).
    case paint
    /// A list; the element kind when known and uniform.
    case list(ElementKind)

    /// The element kind of a list (boxed to keep `Kind` non-recursive).
    public enum ElementKind: Hashable, Sendable {
        case number, time, angle, point, color, string, bool, shape, path, paint, mixed, empty
    }

    public var description: String {
        switch self {
        case .number: "number"
        case .time: "time"
        case .angle: "angle"
        case .point: "point"
        case .color: "color"
        case .string: "string"
        case .bool: "bool"
        case .shape: "shape"
        case .path: "path"
        case .paint: "paint"
        case .list: "list"
        }
    }

    /// Whether a tween can interpolate values of this kind.
    public var isInterpolable: Bool {
        switch self {
        case .number, .time, .angle, .point, .color, .path, .paint: true
        case .list(.point): true
        case .string, .bool, .shape, .list: false
        }
    }

    /// The list kind whose elements have this kind.
    public var listOf: Kind {
        switch self {
        case .number: .list(.number)
        case .time: .list(.time)
        case .angle: .list(.angle)
        case .point: .list(.point)
        case .color: .list(.color)
        case .string: .list(.string)
        case .bool: .list(.bool)
        case .shape: .list(.shape)
        case .path: .list(.path)
        case .paint: .list(.paint)
        case .list: .list(.mixed)
        }
    }

    /// The element kind of a list kind, when uniform.
    public var elementKind: Kind? {
        guard case .list(let e) = self else { return nil }
        switch e {
        case .number: return .number
        case .time: return .time
        case .angle: return .angle
        case .point: return .point
        case .color: return .color
        case .string: return .string
        case .bool: return .bool
        case .shape: return .shape
        case .path: return .path
        case .paint: return .paint
        case .mixed, .empty: return nil
        }
    }
}

/// Identifies a shape in the scene (its index in declaration order).
public struct ShapeID: Hashable, Comparable, Sendable {
    /// The index in the scene's shape table.
    public var index: Int32
    /// Creates an id.
    public init(_ index: Int) { self.index = Int32(index) }
    public static func < (a: ShapeID, b: ShapeID) -> Bool { a.index < b.index }
}

/// A runtime value.
public enum Value: Hashable, Sendable {
    case number(Double)
    case time(Time)
    case angle(Angle)
    case point(Point)
    case color(Color)
    case string(String)
    case bool(Bool)
    case list([Value])
    case shape(ShapeID)
    /// SVG path data, parsed.
    case path(PathValue)
    /// A gradient fill (GradientValue.swift).
    case gradient(GradientValue)

    /// The kind of this value.
    public var kind: Kind {
        switch self {
        case .number: .number
        case .time: .time
        case .angle: .angle
        case .point: .point
        case .color: .color
        case .string: .string
        case .bool: .bool
        case .shape: .shape
        case .path: .path
        case .gradient: .paint
        case .list(let vs):
            if vs.isEmpty { .list(.empty) } else {
                vs.dropFirst().allSatisfy { $0.kind == vs[0].kind } ? vs[0].kind.listOf : .list(.mixed)
            }
        }
    }

    /// Whether every number inside is finite.
    public var isFinite: Bool {
        switch self {
        case .number(let d): d.isFinite
        case .angle(let a): a.degrees.isFinite
        case .point(let p): p.x.isFinite && p.y.isFinite
        case .color(let c): c.r.isFinite && c.g.isFinite && c.b.isFinite && c.a.isFinite
        case .list(let vs): vs.allSatisfy(\.isFinite)
        case .path(let p): p.isFinite
        case .gradient(let g): g.isFinite
        case .time, .string, .bool, .shape: true
        }
    }
}

// MARK: - Size limits

extension Value {
    /// The largest value a script may build: a string of this many bytes, or a list holding
    /// this many members and string bytes in all (nested lists counted through). Each `let`
    /// can double a string or a list (`let b = a + a`, `let b = [a, a]`), so without a bound
    /// thirty lines exhaust memory, or print for hours. A mebibyte is far above any real
    /// label or keyframe list, and printing it stays instant.
    public static let maxSize = 1 << 20
    /// The deepest nesting of lists in a value. Printing and comparing a list recurse once per
    /// level, and a chain of `let`s can nest one level per line.
    public static let maxListDepth = 100

    /// The size of a value in the sense of `maxSize` (a string counts its bytes, a list its
    /// members and theirs, anything else 1) and its list nesting depth. Counting stops soon
    /// after `maxSize` or `maxListDepth` is passed, so a value that is too large costs no more
    /// to measure than one at the limit.
    func measure() -> (size: Int, depth: Int) {
        switch self {
        case .string(let s): return (max(1, s.utf8.count), 0)
        case .list(let vs):
            var size = vs.count, depth = 0
            for v in vs {
                let (s, d) = v.measure()
                size += s
                depth = max(depth, d)
                if size > Value.maxSize || depth >= Value.maxListDepth { break }
            }
            return (size, depth + 1)
        case .path(let p): return (max(1, p.commands.count), 0)
        case .gradient(let g): return (max(1, g.stops.count), 0)
        case .number, .time, .angle, .point, .color, .bool, .shape: return (1, 0)
        }
    }
}

extension Kind {
    /// The kind's name with its indefinite article: "a number", "an angle".
    public var withArticle: String {
        let s = description
        return (["a", "e", "i", "o", "u"].contains(s.first.map(String.init) ?? "") ? "an " : "a ") + s
    }
}
