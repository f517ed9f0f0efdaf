// ValueOps: the pure operations on values — arithmetic, conversions and the pure built-in
// functions. The checker folds constants with them and the runtime evaluates with them, so
// both agree. Every result is finite or an error; nothing traps.

/// An error from a value operation, with the span to blame.
public struct ValueError: Error, Hashable, Sendable {
    /// What went wrong.
    public var message: String
    /// The expression that failed.
    public var span: Span
}

/// Pure operations on values.
public enum ValueOps {
    /// Applies a conversion; nil if the value does not convert (or the time is out of range).
    public static func convert(_ v: Value, _ c: Conversion) -> Value? {
        guard case .number(let n) = v else { return nil }
        switch c {
        case .secondsToTime: return Time(seconds: n).map { .time($0) }
        case .degreesToAngle: return .angle(Angle(degrees: n))
        case .uniformPoint: return .point(Point(n, n))
        case .weightWord:
            guard n == n.rounded(), n >= 100, n <= 900, Int(n) % 100 == 0 else { return nil }
            return .string(String(Int(n)))
        }
    }

    /// `-v`.
    public static func negate(_ v: Value, span: Span) throws(ValueError) -> Value {
        switch v {
        case .number(let n): return .number(-n)
        case .time(let t): return .time(Time(ticks: t.ticks == .min ? .max : -t.ticks))
        case .angle(let a): return .angle(Angle(degrees: -a.degrees))
        case .point(let p): return .point(Point(-p.x, -p.y))
        default: throw ValueError(message: "cannot negate \(v.kind.withArticle)", span: span)
        }
    }

    /// `a op b` for the kind pairs the checker allows.
    public static func binary(_ op: ArithmeticOperator, _ a: Value, _ b: Value, span: Span) throws(ValueError) -> Value {
        func num(_ x: Double, _ y: Double) throws(ValueError) -> Double {
            switch op {
            case .add: return x + y
            case .subtract: return x - y
            case .multiply: return x * y
            case .divide:
                if y == 0 { throw ValueError(message: "division by zero", span: span) }
                return x / y
            }
        }
        func time(_ d: Double) throws(ValueError) -> Value {
            guard let t = Time(seconds: d) else {
                throw ValueError(message: "time \(formatNumber(d))s is out of the clock's range", span: span)
            }
            return .time(t)
        }
        let r: Value
        switch (a, b) {
        case (.number(let x), .number(let y)): r = .number(try num(x, y))
        case (.time(let x), .time(let y)):
            switch op {
            case .add:
                guard let s = x.adding(y) else { throw ValueError(message: "time is out of the clock's range", span: span) }
                r = .time(s)
            case .subtract:
                guard let s = x.adding(Time(ticks: -y.ticks)) else { throw ValueError(message: "time is out of the clock's range", span: span) }
                r = .time(s)
            default: r = .number(try num(x.seconds, y.seconds))
            }
        case (.time(let x), .number(let y)): r = try time(try num(x.seconds, y))
        case (.number(let x), .time(let y)): r = try time(try num(x, y.seconds))
        case (.angle(let x), .angle(let y)):
            let v = try num(x.degrees, y.degrees)
            r = op == .divide ? .number(v) : .angle(Angle(degrees: v))
        case (.angle(let x), .number(let y)): r = .angle(Angle(degrees: try num(x.degrees, y)))
        case (.number(let x), .angle(let y)): r = .angle(Angle(degrees: try num(x, y.degrees)))
        case (.point(let p), .point(let q)): r = .point(Point(try num(p.x, q.x), try num(p.y, q.y)))
        case (.point(let p), .number(let y)): r = .point(Point(try num(p.x, y), try num(p.y, y)))
        case (.number(let x), .point(let q)): r = .point(Point(try num(x, q.x), try num(x, q.y)))
        case (.string(let s), _) where op == .add: r = .string(s + b.description)
        case (_, .string(let s)) where op == .add: r = .string(a.description + s)
        default:
            throw ValueError(message: "cannot combine \(a.kind.withArticle) and \(b.kind.withArticle)", span: span)
        }
        guard r.isFinite else { throw ValueError(message: "the result is not a finite number", span: span) }
        return r
    }

    /// Calls a pure built-in (everything but `random` and `velocity`).
    public static func call(_ f: Builtin, _ args: [Value], span: Span) throws(ValueError) -> Value {
        func n(_ i: Int) -> Double {
            switch args[i] {
            case .number(let d): return d
            case .time(let t): return t.seconds
            case .angle(let a): return a.degrees
            default: return .nan
            }
        }
        /// Rewraps a Double in the kind of argument 0.
        func same(_ d: Double) throws(ValueError) -> Value {
            switch args[0] {
            case .time:
                guard let t = Time(seconds: d) else {
                    throw ValueError(message: "time \(formatNumber(d))s is out of the clock's range", span: span)
                }
                return .time(t)
            case .angle: return .angle(Angle(degrees: d))
            default: return .number(d)
            }
        }
        switch f {
        case .min: return try same(args.indices.map(n).min()!)
        case .max: return try same(args.indices.map(n).max()!)
        case .abs: return try same(Swift.abs(n(0)))
        case .sqrt:
            if n(0) < 0 { throw ValueError(message: "square root of a negative number (\(formatNumber(n(0))))", span: span) }
            return .number(n(0).squareRoot())
        case .floor: return .number(n(0).rounded(.down))
        case .ceil: return .number(n(0).rounded(.up))
        case .round: return .number(n(0).rounded(.toNearestOrAwayFromZero))
        case .mod:
            // The result has the sign of the divisor, so `mod(-1, 4)` is 3 (a grid column).
            if n(1) == 0 { throw ValueError(message: "'mod' by zero", span: span) }
            let r = n(0).truncatingRemainder(dividingBy: n(1))
            return try same(r != 0 && (r < 0) != (n(1) < 0) ? r + n(1) : r)
        case .sin:
            return .number(sinDegrees(n(0)))
        case .cos:
            return .number(sinDegrees(n(0) + 90))
        case .lerp:
            guard case .number(let t) = args[2] else { return args[0] }
            return Value.interpolate(args[0], args[1], t)
        case .clamp:
            let lo = n(1), hi = n(2)
            if lo > hi { throw ValueError(message: "clamp's lower bound is above its upper bound", span: span) }
            return try same(Swift.min(Swift.max(n(0), lo), hi))
        case .rgb, .rgba:
            return .color(Color(r: clamp255(n(0)), g: clamp255(n(1)), b: clamp255(n(2)),
                                a: f == .rgba ? Swift.min(1, Swift.max(0, n(3))) : 1))
        case .hsl, .hsla:
            // Saturation and lightness are percentages written without '%', as CSS allows.
            return .color(Color(hue: n(0), saturation: Swift.min(100, Swift.max(0, n(1))) / 100,
                                lightness: Swift.min(100, Swift.max(0, n(2))) / 100,
                                alpha: f == .hsla ? Swift.min(1, Swift.max(0, n(3))) : 1))
        case .pow:
            let r = powDouble(n(0), n(1))
            guard r.isFinite else {
                let why = n(0) < 0 ? "a negative number to a fractional power" : n(0) == 0 ? "zero to a negative power" : "too large"
                throw ValueError(message: "pow(\(formatNumber(n(0))), \(formatNumber(n(1)))) is not a number: \(why)", span: span)
            }
            return .number(r)
        case .exp:
            let r = expDouble(n(0))
            guard r.isFinite else { throw ValueError(message: "exp(\(formatNumber(n(0)))) is too large", span: span) }
            return .number(r)
        case .log:
            guard n(0) > 0 else {
                throw ValueError(message: "log of \(n(0) == 0 ? "zero" : "a negative number (\(formatNumber(n(0))))")", span: span)
            }
            return .number(logDouble(n(0)))
        case .tan:
            guard let r = tanDegrees(n(0)) else {
                throw ValueError(message: "tan(\(formatNumber(n(0)))°) is undefined (a right angle plus a multiple of 180°)", span: span)
            }
            return .number(r)
        case .atan2:
            // atan2(0, 0) is 0°, as in C and JavaScript.
            return .angle(Angle(degrees: atan2Double(n(0), n(1)) * 180 / Double.pi))
        case .hypot:
            return try same(hypotDouble(n(0), n(1)))
        case .sign:
            let x = n(0)
            return .number(x > 0 ? 1 : x < 0 ? -1 : 0)
        case .linearGradient, .radialGradient:
            return .gradient(try gradient(f == .linearGradient ? .linear : .radial, args, span: span))
        case .random, .velocity:
            throw ValueError(message: "'\(f.rawValue)' is not a pure function", span: span)
        }
    }

    /// A gradient from the checker's argument layout: the angle (degrees), then per stop its
    /// colour and its position (a number, or an empty list when none is written).
    static func gradient(_ form: GradientValue.Form, _ args: [Value], span: Span) throws(ValueError) -> GradientValue {
        guard case .angle(let a) = args.first, args.count % 2 == 1 else {
            throw ValueError(message: "'\(form.name)' takes an angle and its stops", span: span)
        }
        var stops: [GradientValue.Stop] = []
        var k = 1
        while k + 1 < args.count {
            guard case .color(let c) = args[k] else {
                throw ValueError(message: "a gradient stop is a colour, not \(args[k].kind.withArticle) (\(args[k]))", span: span)
            }
            var position: Double?
            if case .number(let p) = args[k + 1] {
                guard p.isFinite else { throw ValueError(message: "a gradient stop position is not a finite number", span: span) }
                position = p
            }
            stops.append(GradientValue.Stop(c, at: position))
            k += 2
        }
        guard stops.count >= 2 else {
            throw ValueError(message: "a gradient needs at least two colour stops, not \(stops.count)", span: span)
        }
        return GradientValue(form, angle: a.degrees, stops: stops)
    }

    /// tan of an angle in degrees: exact at multiples of 45°, nil at 90° plus a multiple of 180°.
    static func tanDegrees(_ d: Double) -> Double? {
        var r = d.truncatingRemainder(dividingBy: 180)
        if r < 0 { r += 180 }
        switch r {
        case 0: return 0
        case 45: return 1
        case 90: return nil
        case 135: return -1
        default: return tanRadians(r * Double.pi / 180)
        }
    }

    /// A comparison of two values of one kind (the checker has unified them): `==` and `!=`
    /// within `tolerance` per component (exact for strings, bools and shapes), `<=` and `>=`
    /// on the scalar value exactly, as `expect` compares without `within`.
    public static func compare(_ op: ComparisonOperator, _ a: Value, _ b: Value, tolerance: Double = 1e-6) -> Bool {
        switch op {
        case .equal: return approximatelyEqual(a, b, tolerance: tolerance)
        case .notEqual: return !approximatelyEqual(a, b, tolerance: tolerance)
        case .lessEqual: return NumericValue.scalar(a) <= NumericValue.scalar(b)
        case .greaterEqual: return NumericValue.scalar(a) >= NumericValue.scalar(b)
        }
    }

    /// Equality within a tolerance per component; exact for strings, bools and shapes.
    public static func approximatelyEqual(_ a: Value, _ b: Value, tolerance: Double) -> Bool {
        func close(_ x: Double, _ y: Double) -> Bool { x == y || Swift.abs(x - y) <= tolerance }
        switch (a, b) {
        case (.number(let x), .number(let y)): return close(x, y)
        case (.time(let x), .time(let y)): return close(x.seconds, y.seconds)
        case (.angle(let x), .angle(let y)): return close(x.degrees, y.degrees)
        case (.point(let p), .point(let q)): return close(p.x, q.x) && close(p.y, q.y)
        case (.color(let c), .color(let d)):
            return close(c.r, d.r) && close(c.g, d.g) && close(c.b, d.b) && close(c.a * 255, d.a * 255)
        case (.list(let xs), .list(let ys)):
            return xs.count == ys.count && zip(xs, ys).allSatisfy { approximatelyEqual($0, $1, tolerance: tolerance) }
        default: return a == b
        }
    }

    static func clamp255(_ x: Double) -> Double { Swift.min(255, Swift.max(0, x)) }

    /// sin of an angle in degrees, exact at multiples of 90° (so `sin(180deg)` prints 0).
    static func sinDegrees(_ d: Double) -> Double {
        var r = d.truncatingRemainder(dividingBy: 360)
        if r < 0 { r += 360 }
        switch r {
        case 0: return 0
        case 90: return 1
        case 180: return 0
        case 270: return -1
        default: return sinRadians(r * Double.pi / 180)
        }
    }
}
