// Checker+Expressions: the kinds of expressions — `check(_:)`'s dispatch over literals,
// operators, calls, names and the rest; comparisons and logic (`== != <= >=`, `and`, `or`,
// `not`) and arithmetic (`+ - * /`) (Grammar.md 2.5 "Expressions", 3.4 "Arithmetic",
// 3.9 "Comparisons and logic").

extension Checker {
    /// Checks an expression and infers its kind.
    mutating func check(_ e: ExprID) -> TypedExpr? {
        switch tree[e] {
        case .number(let n):
            let value = tree.decimal(of: n)
            let v = value.doubleValue
            switch n.unit {
            case .none:
                guard v.isFinite else {
                    error(.numberTooLarge(text(n.span)), at: n.span); return nil
                }
                return TypedExpr(.constant(.number(v)), .number, n.span)
            case .s, .ms:
                guard let t = Time(decimal: value, unitPower: n.unit == .s ? 9 : 6) else {
                    error(.timeTooLong(text(n.span)), at: n.span)
                    return nil
                }
                return TypedExpr(.constant(.time(t)), .time, n.span)
            case .deg: return TypedExpr(.constant(.angle(Angle(degrees: v))), .angle, n.span)
            case .rad: return TypedExpr(.constant(.angle(Angle(radians: v))), .angle, n.span)
            case .turn: return TypedExpr(.constant(.angle(Angle(degrees: v * 360))), .angle, n.span)
            case .percent:
                error(.percentOutsideLinear(text(n.span)), at: n.span); return nil
            }
        case .string(let s):
            var parts: [TypedExpr.InterpolationPart] = []
            var ok = true
            for p in tree.parts(of: s) {
                switch p {
                case .text(let t): parts.append(.text(t))
                case .interpolation(let x):
                    if let c = check(x) { parts.append(.value(c)) } else { ok = false }
                }
            }
            guard ok else { return nil }
            if parts.count == 1, case .text(let t) = parts[0] { return TypedExpr(.constant(.string(t)), .string, s.span) }
            return TypedExpr(.interpolation(parts), .string, s.span)
        case .color(let c):
            return TypedExpr(.constant(.color(c.value)), .color, c.span)
        case .bool(let b):
            return TypedExpr(.constant(.bool(b.value)), .bool, b.span)
        case .name(let id):
            return checkName(id)
        case .member(let m):
            return checkMember(m)
        case .index(let ix):
            return checkIndex(ix)
        case .call(let c):
            return checkCall(c)
        case .pair(let p):
            // Most points are written as two numbers: no checked expression for each.
            if let a = literalNumber(p.x), let b = literalNumber(p.y) {
                return TypedExpr(.constant(.point(Point(a, b))), .point, p.span)
            }
            guard let x = checkAs(p.x, .number), let y = checkAs(p.y, .number) else { return nil }
            if case .constant(.number(let a)) = x.node, case .constant(.number(let b)) = y.node {
                return TypedExpr(.constant(.point(Point(a, b))), .point, p.span)
            }
            return TypedExpr(.pair(x, y), .point, p.span)
        case .list(let l):
            var items: [TypedExpr] = []
            for el in tree[l.elements] {
                guard let c = check(el) else { return nil }
                items.append(c)
            }
            let kind: Kind
            if items.isEmpty { kind = .list(.empty) } else if items.allSatisfy({ $0.kind == items[0].kind }) {
                kind = items[0].kind.listOf
            } else {
                kind = .list(.mixed)
            }
            if items.allSatisfy({ $0.constantValue != nil }) {
                return TypedExpr(.constant(.list(items.map { $0.constantValue! })), kind, l.span)
            }
            return TypedExpr(.list(items), kind, l.span)
        case .unary(let u):
            guard let x = check(u.operand) else { return nil }
            switch x.kind {
            case .number, .time, .angle, .point:
                if let v = x.constantValue, let r = try? ValueOps.negate(v, span: u.span) {
                    return TypedExpr(.constant(r), x.kind, u.span)
                }
                return TypedExpr(.negate(x), x.kind, u.span)
            default:
                error(.negateKind(x.kind), at: u.span)
                return nil
            }
        case .binary(let b):
            switch b.op {
            case .arithmetic(let op): return checkBinary(b, op)
            case .comparison(let op): return checkComparison(b, op)
            case .and, .or: return checkLogical(b)
            case .at:
                error(.stopOutsideGradient, at: b.opSpan)
                return nil
            }
        case .not(let n):
            guard let x = check(n.operand) else { return nil }
            guard x.kind == .bool else {
                var d = Diagnostic.error(CheckError.boolOperand("not", x.kind).message, at: n.span)
                d.secondary = [.init(span: x.span, text: x.kind.withArticle)]
                d.help = CheckError.boolOperand("not", x.kind).help
                diagnostics.report(d)
                return nil
            }
            if case .constant(.bool(let v)) = x.node { return TypedExpr(.constant(.bool(!v)), .bool, n.span) }
            return TypedExpr(.not(x), .bool, n.span)
        }
    }

    // MARK: - Comparisons and logic

    /// Brings two compared operands to one kind as `expect` does: numbers meet times and angles
    /// as seconds and degrees, and points as (n, n). False when their kinds cannot be compared.
    mutating func coerceComparable(_ l: inout TypedExpr, _ r: inout TypedExpr) -> Bool {
        if l.kind == r.kind { return true }
        if l.kind == .paint && r.kind == .color { r = TypedExpr(r.node, .paint, r.span); return true }
        if l.kind == .color && r.kind == .paint { l = TypedExpr(l.node, .paint, l.span); return true }
        if r.kind == .number, l.kind == .time || l.kind == .angle || l.kind == .point, let x = coerce(r, to: l.kind, scaleLike: true) {
            r = x
        } else if l.kind == .number, r.kind == .time || r.kind == .angle || r.kind == .point, let x = coerce(l, to: r.kind, scaleLike: true) {
            l = x
        } else {
            return false
        }
        return true
    }

    /// `== != <= >=` giving a bool, with the kinds `expect` compares (Grammar.md, "Comparisons").
    mutating func checkComparison(_ b: BinaryExpr, _ op: ComparisonOperator) -> TypedExpr? {
        guard var l = check(b.lhs), var r = check(b.rhs) else { return nil }
        if !coerceComparable(&l, &r) {
            var d = Diagnostic.error(CheckError.incomparableKinds(l.kind, r.kind).message, at: b.opSpan)
            d.secondary = [.init(span: l.span, text: l.kind.withArticle), .init(span: r.span, text: r.kind.withArticle)]
            diagnostics.report(d)
            return nil
        }
        if op == .lessEqual || op == .greaterEqual {
            guard l.kind == .number || l.kind == .time || l.kind == .angle else {
                var d = Diagnostic.error(CheckError.comparisonKind(op, l.kind).message, at: b.opSpan)
                d.secondary = [.init(span: l.span, text: l.kind.withArticle), .init(span: r.span, text: r.kind.withArticle)]
                d.help = CheckError.comparisonKind(op, l.kind).help
                diagnostics.report(d)
                return nil
            }
        }
        if let lv = l.constantValue, let rv = r.constantValue {
            return TypedExpr(.constant(.bool(ValueOps.compare(op, lv, rv))), .bool, b.span)
        }
        return TypedExpr(.compare(op, l, r), .bool, b.span)
    }

    /// `and` / `or`: both operands bools.
    mutating func checkLogical(_ b: BinaryExpr) -> TypedExpr? {
        guard let l = check(b.lhs), let r = check(b.rhs) else { return nil }
        for x in [l, r] where x.kind != .bool {
            var d = Diagnostic.error(CheckError.boolOperand(b.op.text, x.kind).message, at: b.opSpan)
            d.secondary = [.init(span: x.span, text: x.kind.withArticle)]
            d.help = CheckError.boolOperand(b.op.text, x.kind).help
            diagnostics.report(d)
            return nil
        }
        let isAnd = b.op == .and
        if case .constant(.bool(let a)) = l.node {
            // A constant left side decides alone or gives the right side.
            if a != isAnd { return TypedExpr(.constant(.bool(a)), .bool, b.span) }
            if case .constant = r.node { return TypedExpr(r.node, .bool, b.span) }
        }
        return TypedExpr(.logical(isAnd: isAnd, l, r), .bool, b.span)
    }

    // MARK: - Arithmetic

    /// The kind rules of `+ - * /` (Grammar.md, "Arithmetic"). A bare number meets a time as
    /// seconds and an angle as degrees; points work component-wise and scale by numbers.
    mutating func checkBinary(_ b: BinaryExpr, _ op: ArithmeticOperator) -> TypedExpr? {
        guard var l = check(b.lhs), var r = check(b.rhs) else { return nil }
        var result: Kind?
        switch (l.kind, r.kind, op) {
        case (.number, .number, _): result = .number
        case (.time, .time, .add), (.time, .time, .subtract): result = .time
        case (.time, .time, .divide): result = .number
        case (.time, .number, .multiply), (.time, .number, .divide), (.number, .time, .multiply): result = .time
        case (.time, .number, .add), (.time, .number, .subtract):
            r = coerce(r, to: .time)!; result = .time
        case (.number, .time, .add), (.number, .time, .subtract):
            l = coerce(l, to: .time)!; result = .time
        case (.angle, .angle, .add), (.angle, .angle, .subtract): result = .angle
        case (.angle, .angle, .divide): result = .number
        case (.angle, .number, .multiply), (.angle, .number, .divide), (.number, .angle, .multiply): result = .angle
        case (.angle, .number, .add), (.angle, .number, .subtract):
            r = coerce(r, to: .angle)!; result = .angle
        case (.number, .angle, .add), (.number, .angle, .subtract):
            l = coerce(l, to: .angle)!; result = .angle
        case (.point, .point, _): result = .point
        case (.point, .number, .multiply), (.point, .number, .divide), (.number, .point, .multiply): result = .point
        case (.string, _, .add), (_, .string, .add): result = .string
        default: result = nil
        }
        guard let kind = result else {
            var d = Diagnostic.error(CheckError.operandKinds(op, l.kind, r.kind).message, at: b.opSpan)
            d.secondary = [.init(span: l.span, text: l.kind.withArticle), .init(span: r.span, text: r.kind.withArticle)]
            diagnostics.report(d)
            return nil
        }
        let t = TypedExpr(.binary(op, l, r), kind, b.span)
        if let lv = l.constantValue, let rv = r.constantValue, kind != .string,
           let v = try? ValueOps.binary(op, lv, rv, span: b.span), v.isFinite {
            return TypedExpr(.constant(v), kind, b.span)
        }
        return t
    }
}
