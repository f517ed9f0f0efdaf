// NumericValue: the one codec between values and numbers. A number, time, angle, point or
// color — the kinds that interpolate — as plain data: its layout and up to four Doubles, so
// copying one copies bytes and retains nothing. Tracks hold their endpoints this way, the run's
// log keeps them in a pool of Doubles, and the sampler writes its output in the same layout.
//
// One time encoding: a time's components hold its ticks, bit for bit, in a Double's bits, so
// converting to and from a Value is exact. The arithmetic view (`arithmetic(_:)`, for springs,
// velocities and tolerances) reads a time in seconds; the drawing view (`point`, `scalar`,
// `color`) is what renderers take from a value.

/// How a value is laid out as Doubles.
public enum ValueLayout: UInt8, Sendable {
    /// One component.
    case number
    /// Degrees.
    case angle
    /// x, y (points and sizes).
    case point
    /// r, g, b, a.
    case color
    /// Ticks, as the bits of one Double.
    case time

    /// The layout of a value's kind; nil for kinds that never animate (strings, bools, lists).
    public init?(of v: Value) {
        switch v {
        case .number: self = .number
        case .angle: self = .angle
        case .point: self = .point
        case .color: self = .color
        case .time: self = .time
        case .string, .bool, .list, .shape, .path, .gradient: return nil
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
public struct NumericValue: Hashable, Sendable {
    /// The layout.
    public internal(set) var layout: ValueLayout
    /// The components, as stored (a time's are its ticks' bits); unused ones are 0.
    var c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0

    /// Zero, as a number.
    static var zero: NumericValue { NumericValue(zero: .number) }

    /// Zero of a layout (a time of 0 ticks).
    init(zero layout: ValueLayout) { self.layout = layout }

    /// The value as plain data; nil for strings, bools, lists and shapes.
    public init?(_ v: Value) {
        switch v {
        case .number(let n): layout = .number; c0 = n
        case .angle(let a): layout = .angle; c0 = a.degrees
        case .point(let p): layout = .point; c0 = p.x; c1 = p.y
        case .color(let c): layout = .color; c0 = c.r; c1 = c.g; c2 = c.b; c3 = c.a
        case .time(let t): layout = .time; c0 = Double(bitPattern: UInt64(bitPattern: t.ticks))
        case .string, .bool, .list, .shape, .path, .gradient: return nil
        }
    }

    /// The value.
    public var value: Value {
        switch layout {
        case .number: .number(c0)
        case .angle: .angle(Angle(degrees: c0))
        case .point: .point(Point(c0, c1))
        case .color: .color(Color(r: c0, g: c1, b: c2, a: c3))
        case .time: .time(time)
        }
    }

    /// A time's ticks.
    var time: Time { Time(ticks: Int64(bitPattern: c0.bitPattern)) }

    // MARK: - Storage

    /// The value whose components are stored at `p`.
    @inline(__always)
    init(_ layout: ValueLayout, at p: UnsafePointer<Double>) {
        self.layout = layout
        c0 = p[0]
        switch layout {
        case .number, .angle, .time: break
        case .point: c1 = p[1]
        case .color: c1 = p[1]; c2 = p[2]; c3 = p[3]
        }
    }

    /// The value whose components are `pool[offset...]`.
    init(_ layout: ValueLayout, in pool: [Double], at offset: Int) {
        self = pool.withUnsafeBufferPointer { NumericValue(layout, at: $0.baseAddress! + offset) }
    }

    /// Stores the components at `p` (`layout.components` of them).
    @inline(__always)
    func store(at p: UnsafeMutablePointer<Double>) {
        p[0] = c0
        switch layout {
        case .number, .angle, .time: break
        case .point: p[1] = c1
        case .color: p[1] = c1; p[2] = c2; p[3] = c3
        }
    }

    /// Appends the components to a pool.
    @inline(__always)
    func append(to pool: inout [Double]) {
        pool.append(c0)
        switch layout {
        case .number, .angle, .time: break
        case .point: pool.append(c1)
        case .color: pool.append(c1); pool.append(c2); pool.append(c3)
        }
    }

    /// Equal when the bits are: a time's ticks live in a Double's bits, which may spell NaN.
    public static func == (a: NumericValue, b: NumericValue) -> Bool {
        a.layout == b.layout && a.c0.bitPattern == b.c0.bitPattern && a.c1.bitPattern == b.c1.bitPattern
            && a.c2.bitPattern == b.c2.bitPattern && a.c3.bitPattern == b.c3.bitPattern
    }

    public func hash(into h: inout Hasher) {
        h.combine(layout)
        h.combine(c0.bitPattern); h.combine(c1.bitPattern); h.combine(c2.bitPattern); h.combine(c3.bitPattern)
    }

    // MARK: - Arithmetic

    /// Component `i` as a number to compute with: a time in seconds, an angle in degrees.
    @inline(__always)
    func arithmetic(_ i: Int) -> Double {
        switch i {
        case 0: layout == .time ? time.seconds : c0
        case 1: c1
        case 2: c2
        default: c3
        }
    }

    /// Sets component `i` from a number computed with (a time from seconds, rounded to the
    /// tick; zero when out of range).
    @inline(__always)
    mutating func setArithmetic(_ i: Int, _ x: Double) {
        switch i {
        case 0:
            if layout == .time {
                c0 = Double(bitPattern: UInt64(bitPattern: (Time(seconds: x) ?? .zero).ticks))
            } else {
                c0 = x
            }
        case 1: c1 = x
        case 2: c2 = x
        default: c3 = x
        }
    }

    /// The value a fraction `p` of the way from `a` to `b` — the rule of `Value.interpolate`,
    /// which goes through here: `b` unchanged at p = 1 and `a` at p = 0, so tweens land exactly;
    /// numbers, angles, points and colors component by component (`lerp`); times through their
    /// seconds, rounded to the tick. Endpoints of different layouts switch at the end.
    @inline(__always)
    static func interpolate(_ a: NumericValue, _ b: NumericValue, _ p: Double) -> NumericValue {
        if p == 1 { return b }
        if p == 0 { return a }
        guard a.layout == b.layout else { return p < 1 ? a : b }
        var r = a
        switch a.layout {
        case .number, .angle:
            r.c0 = lerp(a.c0, b.c0, p)
        case .point:
            r.c0 = lerp(a.c0, b.c0, p); r.c1 = lerp(a.c1, b.c1, p)
        case .color:
            r.c0 = lerp(a.c0, b.c0, p); r.c1 = lerp(a.c1, b.c1, p); r.c2 = lerp(a.c2, b.c2, p); r.c3 = lerp(a.c3, b.c3, p)
        case .time:
            let t = Time(seconds: lerp(a.time.seconds, b.time.seconds, p)) ?? b.time
            r.c0 = Double(bitPattern: UInt64(bitPattern: t.ticks))
        }
        return r
    }

    /// One number for comparing (`expect a <= b`): a number, a time in seconds, an angle in
    /// degrees; NaN for points and colors.
    static func scalar(_ v: Value) -> Double {
        guard let n = NumericValue(v), n.layout.components == 1 else { return .nan }
        return n.arithmetic(0)
    }

    // MARK: - Drawing

    /// A point (a number n reads as (n, n), as `scale 2` does).
    public var point: Point? {
        switch layout {
        case .point: Point(c0, c1)
        case .number: Point(c0, c0)
        default: nil
        }
    }

    /// A number (an angle in degrees, a time in seconds).
    public var number: Double? {
        switch layout {
        case .number, .angle: c0
        case .time: time.seconds
        default: nil
        }
    }

    /// A color.
    public var color: Color? { layout == .color ? Color(r: c0, g: c1, b: c2, a: c3) : nil }
}
