// Checker+Calls: the built-in functions, their arity and the kinds they take and give.

extension Checker {
    mutating func checkCall(_ c: CallExpr) -> TypedExpr? {
        let name = text(c.callee)
        if CheckError.unsupportedGradients.contains(name) {
            error(.unsupportedGradient(name), at: c.callee.span)
            return nil
        }
        guard let f = Builtin(rawValue: name) else {
            let known = Builtin.allCases.map(\.rawValue)
            error(.unknownFunction(name, suggestion: ForeignNames.function(name) ?? DidYouMean.suggest(name, from: known)), at: c.callee.span)
            return nil
        }
        if f == .velocity { return checkVelocity(c) }
        if f == .linearGradient || f == .radialGradient { return checkGradient(c, f) }
        var args: [TypedExpr] = []
        for a in tree[c.arguments] {
            guard let t = check(a) else { return nil }
            args.append(t)
        }
        func arity(_ ok: Bool, _ expected: String) -> Bool {
            if !ok { error(.arity(f, expected: expected, got: args.count), at: c.span) }
            return ok
        }
        func want(_ i: Int, _ kinds: [Kind], _ what: String) -> TypedExpr? {
            let a = args[i]
            if kinds.contains(a.kind) { return a }
            // A bare number fits a time or angle slot.
            if a.kind == .number, let k = kinds.first(where: { $0 == .time || $0 == .angle }) { return coerce(a, to: k) }
            error(.argumentKind(f, index: i, expected: what, got: a.kind), at: a.span)
            return nil
        }
        /// Makes all arguments share the kind of the first non-number one (numbers convert).
        func unify(_ allowed: [Kind], _ what: String) -> (Kind, [TypedExpr])? {
            let k = args.first { $0.kind != .number }?.kind ?? .number
            guard allowed.contains(k) else {
                let bad = args.firstIndex { $0.kind == k }!
                error(.argumentKind(f, index: bad, expected: what, got: k), at: args[bad].span)
                return nil
            }
            var out: [TypedExpr] = []
            for (i, a) in args.enumerated() {
                if a.kind == k { out.append(a); continue }
                if a.kind == .number, k == .time || k == .angle, let x = coerce(a, to: k) { out.append(x); continue }
                error(.argumentKind(f, index: i, expected: k.withArticle, got: a.kind), at: a.span)
                return nil
            }
            return (k, out)
        }
        let numeric: [Kind] = [.number, .time, .angle]
        switch f {
        case .min, .max:
            guard arity(args.count >= 2, "2 or more") else { return nil }
            guard let (k, xs) = unify(numeric, CheckError.Expected.numeric) else { return nil }
            return TypedExpr(.call(f, xs), k, c.span)
        case .abs:
            guard arity(args.count == 1, "1") else { return nil }
            guard let x = want(0, [.number, .time, .angle], CheckError.Expected.numeric) else { return nil }
            return TypedExpr(.call(f, [x]), x.kind, c.span)
        case .sqrt:
            guard arity(args.count == 1, "1"), let x = want(0, [.number], CheckError.Expected.number) else { return nil }
            return TypedExpr(.call(f, [x]), .number, c.span)
        case .floor, .ceil, .round:
            guard arity(args.count == 1, "1"), let x = want(0, [.number], CheckError.Expected.number) else { return nil }
            return TypedExpr(.call(f, [x]), .number, c.span)
        case .mod:
            guard arity(args.count == 2, "2") else { return nil }
            guard let (k, xs) = unify(numeric, CheckError.Expected.numeric) else { return nil }
            return TypedExpr(.call(f, xs), k, c.span)
        case .sin, .cos:
            guard arity(args.count == 1, "1"), let x = want(0, [.angle], CheckError.Expected.angle) else { return nil }
            return TypedExpr(.call(f, [x]), .number, c.span)
        case .tan:
            guard arity(args.count == 1, "1"), let x = want(0, [.angle], CheckError.Expected.angle) else { return nil }
            return folded(TypedExpr(.call(f, [x]), .number, c.span))
        case .pow:
            guard arity(args.count == 2, "2"), let x = want(0, [.number], CheckError.Expected.number),
                  let y = want(1, [.number], CheckError.Expected.number) else { return nil }
            return folded(TypedExpr(.call(f, [x, y]), .number, c.span))
        case .exp, .log:
            guard arity(args.count == 1, "1"), let x = want(0, [.number], CheckError.Expected.number) else { return nil }
            return folded(TypedExpr(.call(f, [x]), .number, c.span))
        case .atan2:
            // atan2(y, x): two numbers (or two times, or two angles: only their ratio counts).
            guard arity(args.count == 2, "2") else { return nil }
            guard let (_, xs) = unify(numeric, CheckError.Expected.numeric) else { return nil }
            return folded(TypedExpr(.call(f, xs), .angle, c.span))
        case .hypot:
            guard arity(args.count == 2, "2") else { return nil }
            guard let (k, xs) = unify(numeric, CheckError.Expected.numeric) else { return nil }
            return folded(TypedExpr(.call(f, xs), k, c.span))
        case .sign:
            guard arity(args.count == 1, "1"), let x = want(0, numeric, CheckError.Expected.numeric) else { return nil }
            return folded(TypedExpr(.call(f, [x]), .number, c.span))
        case .lerp:
            guard arity(args.count == 3, "3") else { return nil }
            let t = args.removeLast()
            guard let (k, xs) = unify([.number, .time, .angle, .point, .color], CheckError.Expected.interpolating) else { return nil }
            args.append(t)
            guard let tt = want(2, [.number], CheckError.Expected.number) else { return nil }
            return TypedExpr(.call(f, xs + [tt]), k, c.span)
        case .clamp:
            guard arity(args.count == 3, "3") else { return nil }
            guard let (k, xs) = unify(numeric, CheckError.Expected.numeric) else { return nil }
            return TypedExpr(.call(f, xs), k, c.span)
        case .random:
            guard arity(args.count <= 2, "0, 1 or 2") else { return nil }
            if args.isEmpty { return TypedExpr(.call(f, []), .number, c.span) }
            guard let (k, xs) = unify([.number, .time, .angle, .point], CheckError.Expected.randomRange) else { return nil }
            return TypedExpr(.call(f, xs), k, c.span)
        case .rgb, .rgba, .hsl, .hsla:
            let n = f == .rgb || f == .hsl ? 3 : 4
            guard arity(args.count == n, String(n)) else { return nil }
            var xs: [TypedExpr] = []
            for i in 0..<n {
                let kinds: [Kind] = (f == .hsl || f == .hsla) && i == 0 ? [.angle] : [.number]
                guard let x = want(i, kinds, kinds == [.angle] ? CheckError.Expected.hue : CheckError.Expected.number) else { return nil }
                xs.append(x)
            }
            let t = TypedExpr(.call(f, xs), .color, c.span)
            if xs.allSatisfy({ $0.constantValue != nil }), let v = try? ValueOps.call(f, xs.map { $0.constantValue! }, span: c.span) {
                return TypedExpr(.constant(v), .color, c.span)
            }
            return t
        case .velocity, .linearGradient, .radialGradient:
            return nil
        }
    }

    /// `linear-gradient([angle,] stop, stop, …)` and `radial-gradient(stop, stop, …)`, a stop
    /// being `colour [at position]`, the position a fraction or a percentage. The arguments are
    /// laid out for ValueOps.gradient: the angle (CSS's 180deg when none is written; a bare
    /// number is degrees), then per stop its colour and its position (an empty list when none).
    /// A gradient is a paint; constant ones are folded.
    mutating func checkGradient(_ c: CallExpr, _ f: Builtin) -> TypedExpr? {
        var raw = Array(tree[c.arguments])
        var xs: [TypedExpr] = []
        var angle = TypedExpr(.constant(.angle(Angle(degrees: GradientValue.defaultAngle))), .angle, c.callee.span)
        if let first = raw.first, !isStop(first) {
            guard let t = check(first) else { return nil }
            if t.kind == .angle || t.kind == .number {
                guard f == .linearGradient else {
                    error(.radialGradientAngle, at: t.span)
                    return nil
                }
                guard let a = coerce(t, to: .angle) else { return nil }
                angle = a
                raw.removeFirst()
            } else if t.kind != .color && t.kind != .paint {
                error(f == .linearGradient ? .gradientAngleKind(t.kind) : .gradientStopKind(t.kind), at: t.span)
                return nil
            }
        }
        xs.append(angle)
        for a in raw {
            var colour = a, position: ExprID?
            if case .binary(let b) = tree[a], b.op == .at { colour = b.lhs; position = b.rhs }
            guard let t = check(colour) else { return nil }
            guard t.kind == .color || t.kind == .paint else {
                error(.gradientStopKind(t.kind), at: t.span)
                return nil
            }
            xs.append(t)
            if let p = position {
                if case .number(let lit) = tree[p], lit.unit == .percent {
                    xs.append(TypedExpr(.constant(.number(tree.decimal(of: lit).doubleValue / 100)), .number, lit.span))
                    continue
                }
                guard let pt = check(p) else { return nil }
                guard pt.kind == .number else {
                    error(.gradientPositionKind(pt.kind), at: pt.span)
                    return nil
                }
                xs.append(pt)
            } else {
                xs.append(TypedExpr(.constant(.list([])), .list(.empty), t.span))
            }
        }
        let stops = (xs.count - 1) / 2
        guard stops >= 2 else {
            error(.gradientStopCount(stops), at: c.span)
            return nil
        }
        guard stops <= GradientValue.maxStops else {
            error(.tooManyGradientStops(stops, limit: GradientValue.maxStops), at: c.span)
            return nil
        }
        if xs.allSatisfy({ $0.constantValue != nil }) {
            do {
                return TypedExpr(.constant(try ValueOps.call(f, xs.map { $0.constantValue! }, span: c.span)), .paint, c.span)
            } catch {
                diagnostics.report(.error(error.message, at: error.span))
                return nil
            }
        }
        return TypedExpr(.call(f, xs), .paint, c.span)
    }

    /// Whether a gradient argument is written as a stop for certain: `colour at position`, or a
    /// colour literal.
    func isStop(_ e: ExprID) -> Bool {
        switch tree[e] {
        case .binary(let b): b.op == .at
        case .color: true
        default: false
        }
    }

    /// A call of constant arguments as its value, when it has one; the call itself otherwise
    /// (the runtime then reports its error, such as the log of zero, where it is reached).
    func folded(_ t: TypedExpr) -> TypedExpr {
        guard case .call(let f, let xs) = t.node, xs.allSatisfy({ $0.constantValue != nil }),
              let v = try? ValueOps.call(f, xs.map { $0.constantValue! }, span: t.span) else { return t }
        return TypedExpr(.constant(v), t.kind, t.span)
    }

    /// `velocity(shape.prop)`: the property's rate of change per second, of its own kind.
    mutating func checkVelocity(_ c: CallExpr) -> TypedExpr? {
        let arguments = tree[c.arguments]
        guard arguments.count == 1 else {
            error(.arity(.velocity, expected: "1", got: arguments.count), at: c.span)
            return nil
        }
        guard var p = check(arguments[0]) else { return nil }
        // `velocity(sq.center.x)`: one component of a point property, read as its own property
        // (the runtime's per-axis key), so its velocity is that component's (Grammar.md §6.15).
        if case .component(let whole, let isX) = p.node, case .property(let ref, let id) = whole.node, !id.isComponent {
            p = TypedExpr(.property(ref, id.component(isX ? 0 : 1)), .number, p.span)
        }
        guard case .property = p.node else {
            error(.velocityOfNonProperty, at: tree.span(arguments[0]))
            return nil
        }
        guard p.kind == .number || p.kind == .point || p.kind == .angle else {
            error(.velocityKind(p.kind), at: tree.span(arguments[0]))
            return nil
        }
        return TypedExpr(.call(.velocity, [p]), p.kind, c.span)
    }
}
