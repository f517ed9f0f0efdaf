// Interpreter+Evaluate: computes checked expressions at the current instant. Property reads
// sample running tweens; `random` draws from the seeded generator; every error carries the span
// of the expression that failed.

extension Interpreter {
    /// The value of an expression now, with locals from environment `env`.
    func eval(_ e: TypedExpr, env: Int32) throws(RuntimeError) -> Value {
        switch e.node {
        case .constant(let v):
            return v
        case .variable(.global(let slot)):
            return globals[slot]
        case .variable(.local(let slot)):
            return envs[Int(env)][slot]
        case .property(let ref, let p):
            let s = try resolve(ref, env: env)
            // Only `--trace` expressions, checked against the whole script, can name a shape
            // its declaration has not made yet (a trace frame before it): no value then.
            guard Int(s.index) < scene.shapes.count else {
                throw RuntimeError("the shape does not exist yet at \(time.eventStamp)s", at: e.span)
            }
            guard let v = currentValue(s, p) else {
                let shape = scene.shapes[Int(s.index)]
                throw RuntimeError("\(shape.kind.rawValue) '\(shape.name)' has no property '\(propertyName(p))'", at: e.span)
            }
            return v
        case .shape(let ref):
            return .shape(try resolve(ref, env: env))
        case .negate(let x):
            let v = try eval(x, env: env)
            do { return try ValueOps.negate(v, span: e.span) } catch { throw RuntimeError(error) }
        case .binary(let op, let l, let r):
            let a = try eval(l, env: env), b = try eval(r, env: env)
            if e.kind == .string, op == .add {
                return try checkedString(describe(a) + describe(b), at: e.span)
            }
            do { return try ValueOps.binary(op, a, b, span: e.span) } catch { throw RuntimeError(error) }
        case .compare(let op, let l, let r):
            return .bool(ValueOps.compare(op, try eval(l, env: env), try eval(r, env: env)))
        case .logical(let isAnd, let l, let r):
            guard case .bool(let a) = try eval(l, env: env) else { return .bool(false) }
            if a != isAnd { return .bool(a) }
            return try eval(r, env: env)
        case .not(let x):
            guard case .bool(let a) = try eval(x, env: env) else { return .bool(false) }
            return .bool(!a)
        case .component(let x, let isX):
            guard case .point(let p) = try eval(x, env: env) else { return .number(.nan) }
            return .number(isX ? p.x : p.y)
        case .call(let f, let args):
            var vs: [Value] = []
            vs.reserveCapacity(args.count)
            for a in args { vs.append(try eval(a, env: env)) }
            if f == .random { return try random(vs, span: e.span) }
            if f == .velocity, case .property(let ref, let p) = args[0].node {
                let s = try resolve(ref, env: env)
                return velocity(s, p) ?? .number(0)
            }
            do { return try ValueOps.call(f, vs, span: e.span) } catch { throw RuntimeError(error) }
        case .pair(let x, let y):
            guard case .number(let a) = try eval(x, env: env), case .number(let b) = try eval(y, env: env) else {
                return .point(.zero)
            }
            return .point(Point(a, b))
        case .list(let items):
            var vs: [Value] = []
            for i in items { vs.append(try eval(i, env: env)) }
            let (size, depth) = Value.list(vs).measure()
            if depth > Value.maxListDepth {
                throw RuntimeError("lists would nest deeper than the limit of \(Value.maxListDepth) levels", at: e.span)
            }
            if size > Value.maxSize {
                throw RuntimeError("the list would be larger than the limit of \(Value.maxSize) members and string bytes", at: e.span)
            }
            return .list(vs)
        case .index(let base, let index):
            guard case .list(let vs) = try eval(base, env: env), case .number(let k) = try eval(index, env: env) else {
                return .number(.nan)
            }
            guard k == k.rounded(), k >= 0, k < Double(vs.count) else {
                throw RuntimeError("index \(formatNumber(k)) is out of range for a list of \(vs.count)", at: index.span)
            }
            return vs[Int(k)]
        case .interpolation(let parts):
            var s = ""
            for p in parts {
                switch p {
                case .text(let t): s += t
                case .value(let x): s += describe(try eval(x, env: env))
                }
                if s.utf8.count > Value.maxSize { break }
            }
            return try checkedString(s, at: e.span)
        case .convert(let x, let c):
            let v = try eval(x, env: env)
            guard let r = ValueOps.convert(v, c) else {
                if c == .weightWord {
                    throw RuntimeError("a weight is normal, bold or 100, 200, … 900, not \(describe(v))", at: e.span,
                                       help: "CSS's numeric font weights go in hundreds")
                }
                throw RuntimeError("\(describe(v)) is out of range for \(c == .secondsToTime ? "a time" : "this value")", at: e.span)
            }
            return r
        }
    }

    /// A value's canonical text, with shapes by name.
    public func describe(_ v: Value) -> String { scene.describe(v) }

    /// A string built at run time, unless it is longer than `Value.maxSize`.
    func checkedString(_ s: String, at span: Span) throws(RuntimeError) -> Value {
        guard s.utf8.count <= Value.maxSize else {
            throw RuntimeError("the string would be longer than the limit of \(Value.maxSize) bytes", at: span)
        }
        return .string(s)
    }

    /// The shape a reference denotes now.
    func resolve(_ ref: ShapeRef, env: Int32) throws(RuntimeError) -> ShapeID {
        switch ref {
        case .fixed(let s): return s
        case .element(let first, let count, let index, let name):
            guard case .number(let k) = try eval(index, env: env) else { return first }
            guard k == k.rounded(), k >= 0, k < Double(count) else {
                throw RuntimeError("index \(formatNumber(k)) is out of range for '\(name)' (it has \(count) members)", at: index.span)
            }
            return ShapeID(Int(first.index) + Int(k))
        case .dynamic(let e):
            guard case .shape(let s) = try eval(e, env: env) else {
                throw RuntimeError("expected a shape", at: e.span)
            }
            return s
        }
    }

    /// The key of the property a `shape.p` expression reads now, or nil if it reads no
    /// property of an existing shape.
    public func propertyKey(of e: TypedExpr) -> PropertyKey? {
        if case .component(let point, let isX) = e.node, let k = propertyKey(of: point) {
            return PropertyKey(k.shape, k.property.component(isX ? 0 : 1))
        }
        guard case .property(let ref, let p) = e.node, let s = try? resolve(ref, env: 0),
              Int(s.index) < scene.shapes.count else { return nil }
        return PropertyKey(s, p)
    }

    /// `random()`, `random(max)`, `random(min, max)`: uniform, from the seeded generator.
    func random(_ args: [Value], span: Span) throws(RuntimeError) -> Value {
        let u = rng.nextUnit()
        if args.isEmpty { return .number(u) }
        let lo: Value = args.count == 2 ? args[0] : zeroLike(args[0])
        let hi = args.count == 2 ? args[1] : args[0]
        let v = Value.interpolate(lo, hi, u)
        // `interpolate` returns the endpoint unchanged at u == 0, so draws stay in [lo, hi).
        return v
    }

    func zeroLike(_ v: Value) -> Value {
        switch v {
        case .time: .time(.zero)
        case .angle: .angle(Angle(degrees: 0))
        case .point: .point(.zero)
        default: .number(0)
        }
    }

    /// Evaluates a time that must not be negative.
    func duration(_ e: TypedExpr, env: Int32, what: String) throws(RuntimeError) -> Time {
        guard case .time(let t) = try eval(e, env: env) else { return .zero }
        if t.ticks < 0 { throw RuntimeError("\(what) cannot last a negative time (\(t))", at: e.span) }
        return t
    }

    /// Evaluates a number.
    func number(_ e: TypedExpr, env: Int32) throws(RuntimeError) -> Double {
        guard case .number(let n) = try eval(e, env: env) else { return .nan }
        return n
    }
}
