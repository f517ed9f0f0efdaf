// NumericValue: a number, time, angle, point or color — the kinds that interpolate — as plain
// data: its layout and up to four Doubles. Running tween tracks hold their endpoints this
// way, so that copying a track copies bytes and retains nothing. Converting to and from a
// Value is exact (a time keeps its ticks bit for bit).

/// How a value is laid out as Doubles (in tween tracks, the sampler's tables and its output).
public enum ValueLayout: UInt8, Sendable {
    /// One component.
    case number
    /// Degrees.
    case angle
    /// x, y (points and sizes).
    case point
    /// r, g, b, a.
    case color
    /// Ticks.
    case time

    /// The layout of a value's kind; nil for kinds that never animate (strings, bools, lists).
    init?(of v: Value) {
        switch v {
        case .number: self = .number
        case .angle: self = .angle
        case .point: self = .point
        case .color: self = .color
        case .time: self = .time
        case .string, .bool, .list, .shape: return nil
        }
    }

    /// How many Doubles a value takes.
    public var components: Int {
        switch self {
        case .number, .angle, .time: 1
        case .point: 2
        case .color: 4
        }
    }
}

/// A value of a kind that interpolates, as plain data.
struct NumericValue: Hashable, Sendable {
    var layout: ValueLayout
    var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0

    /// Zero, as a number.
    static let zero = NumericValue(.number(0))!

    /// The value as plain data; nil for strings, bools, lists and shapes.
    init?(_ v: Value) {
        switch v {
        case .number(let n): layout = .number; c0 = n
        case .angle(let a): layout = .angle; c0 = a.degrees
        case .point(let p): layout = .point; c0 = p.x; c1 = p.y
        case .color(let c): layout = .color; c0 = c.r; c1 = c.g; c2 = c.b; c3 = c.a
        case .time(let t): layout = .time; c0 = Double(bitPattern: UInt64(bitPattern: t.ticks))
        case .string, .bool, .list, .shape: return nil
        }
    }

    /// Equal when the bits are: a time's ticks live in a Double's bits, which may spell NaN.
    static func == (a: NumericValue, b: NumericValue) -> Bool {
        a.layout == b.layout && a.c0.bitPattern == b.c0.bitPattern && a.c1.bitPattern == b.c1.bitPattern
            && a.c2.bitPattern == b.c2.bitPattern && a.c3.bitPattern == b.c3.bitPattern
    }

    func hash(into h: inout Hasher) {
        h.combine(layout)
        h.combine(c0.bitPattern); h.combine(c1.bitPattern); h.combine(c2.bitPattern); h.combine(c3.bitPattern)
    }

    /// The value.
    var value: Value {
        switch layout {
        case .number: .number(c0)
        case .angle: .angle(Angle(degrees: c0))
        case .point: .point(Point(c0, c1))
        case .color: .color(Color(r: c0, g: c1, b: c2, a: c3))
        case .time: .time(Time(ticks: Int64(bitPattern: c0.bitPattern)))
        }
    }
}
