// Checker+Expressions: kinds of expressions, implicit conversions, and the resolution of names,
// shapes and properties.

extension Checker {
    /// Checks an expression and coerces it to `kind`. Number literals in time and angle slots
    /// convert exactly from their decimal text (`0.1` seconds is exactly 100 ms).
    /// `scaleLike`: a number n is accepted for a point as (n, n).
    mutating func checkAs(_ e: ExprID, _ kind: Kind, scaleLike: Bool = false) -> TypedExpr? {
        // Literals, the usual case: their value, with no checked expression in between.
        if kind == .time, let t = literalTime(e) { return TypedExpr(.constant(.time(t)), .time, tree.span(e)) }
        if kind == .number, let v = literalNumber(e) { return TypedExpr(.constant(.number(v)), .number, tree.span(e)) }
        if kind == .point, let p = literalPoint(e) { return TypedExpr(.constant(.point(p)), .point, tree.span(e)) }
        if let exact = exactLiteral(e, kind) { return exact }
        if kind == .time {
            var inner = e
            if case .unary(let u) = tree[e] { inner = u.operand }
            if case .number(let lit) = tree[inner], lit.unit == .none {
                // The only bare number exactLiteral turns down in a time slot: one too long.
                error(.timeTooLong(text(tree.span(e))), at: tree.span(e))
                return nil
            }
        }
        guard let t = check(e) else { return nil }
        return coerce(t, to: kind, scaleLike: scaleLike)
    }

    /// A value for a built-in property: `checkAs`, and what the outline properties add — the
    /// words of `line-cap` and `line-join` written bare (`line-cap round`), path data parsed
    /// once (a malformed string is an error pointing into it), and no negative stroke width or
    /// dash written as a constant.
    mutating func checkPropertyValue(_ e: ExprID, _ kind: Kind, property: PropertyID, scaleLike: Bool = false) -> TypedExpr? {
        guard let b = BuiltinProperty(rawValue: Int(property.raw)) else { return checkAs(e, kind, scaleLike: scaleLike) }
        if let words = b.words {
            var word: String?, span = tree.span(e)
            // A bare word the property takes is that word even where a built-in has its name
            // (`align left`, not the point `left`); a local of that name still wins.
            if case .name(let id) = tree[e], env.symbols[name(id)] == nil || words.contains(text(id)), lookupLocal(name(id)) == nil {
                word = text(id); span = id.span
            }
            // `weight 700`: CSS's numeric weights are written as numbers and kept as words.
            if word == nil, b == .weight, let n = literalNumber(e) { word = n == n.rounded() && abs(n) < 1e6 ? String(Int(n)) : formatNumber(n) }
            if word == nil, b == .weight {
                // A number worked out (`let w = 700`, `weight w`) is a weight too, as a literal is:
                // a constant one checked now, any other when the run reads it.
                guard let t = check(e) else { return nil }
                if t.kind == .number {
                    guard case .number(let n)? = t.constantValue else { return TypedExpr(.convert(t, .weightWord), .string, t.span) }
                    word = n == n.rounded() && abs(n) < 1e6 ? String(Int(n)) : formatNumber(n)
                } else {
                    guard let s = coerce(t, to: kind) else { return nil }
                    if case .constant(.string(let w)) = s.node { word = w } else { return s }
                }
            }
            if word == nil { guard let t = checkAs(e, kind) else { return nil }; if case .constant(.string(let w)) = t.node { word = w } else { return t } }
            guard let w = word, words.contains(w) else {
                let w = word ?? ""
                // SVG's text-anchor words and CSS's `start`/`end` name the alignments too.
                let svg = b == .align ? ["start": "left", "middle": "center", "end": "right", "centre": "center"][w] : nil
                error(.unknownWord(w, what: b.name, suggestion: svg ?? CheckError.suggestWord(w, from: words)), at: span)
                return nil
            }
            return TypedExpr(.constant(.string(w)), .string, tree.span(e))
        }
        if b == .shadowColor {
            // A shadow is one colour (CSS's and SVG's drop shadows take no gradient).
            guard let t = check(e) else { return nil }
            if t.kind == .paint {
                error(.kindMismatch(expected: kind.withArticle, got: t.kind), at: t.span,
                      help: "a shadow is one colour, as CSS's box-shadow is: write 'shadow-color #00000055' (gradients paint 'fill' and 'stroke')")
                return nil
            }
            return coerce(t, to: kind)
        }
        if b == .file {
            // Read when the script is checked (Session.checkImages): known before it runs.
            guard let t = check(e) else { return nil }
            guard t.kind == .string else { return coerce(t, to: .string) }
            guard case .constant(.string) = t.node else {
                error(.imageFileNotConstant, at: t.span)
                return nil
            }
            return t
        }
        if b == .d, case .string(let lit) = tree[e] {
            let parts = tree.parts(of: lit)
            guard parts.allSatisfy({ if case .text = $0 { true } else { false } }) else {
                error(.pathNotConstant, at: lit.span)
                return nil
            }
            let data = parts.map { if case .text(let s) = $0 { s } else { "" } }.joined()
            switch PathValue.parse(data) {
            case .success(let p): return TypedExpr(.constant(.path(p)), .path, lit.span)
            case .failure(let err):
                // Point into the string (past its opening quote) where the data goes wrong.
                var at = lit.span
                if let o = err.offset {
                    let start = Int(lit.span.start) + 1 + String(data.prefix(o)).utf8.count
                    let end = min(Int(lit.span.end), start + max(1, data.dropFirst(o).first.map { String($0).utf8.count } ?? 1))
                    at = Span(source: lit.span.source, start: min(start, Int(lit.span.end) - 1), end: max(end, min(start, Int(lit.span.end) - 1) + 1))
                }
                error(.malformedPath(err.message), at: at)
                return nil
            }
        }
        if b == .d {
            // A string held by a `let` or a parameter: parsed when it is a constant.
            guard let t = check(e) else { return nil }
            guard t.kind == .string else { return coerce(t, to: .path) }
            guard case .constant(.string(let data)) = t.node else {
                error(.pathNotConstant, at: t.span)
                return nil
            }
            switch PathValue.parse(data) {
            case .success(let p): return TypedExpr(.constant(.path(p)), .path, t.span)
            case .failure(let err):
                error(.malformedPath(err.message), at: t.span)
                return nil
            }
        }
        guard let t = checkAs(e, kind, scaleLike: scaleLike) else { return nil }
        if b == .strokeWidth, case .constant(.number(let w)) = t.node, w < 0 {
            error(.negativeStrokeWidth(w), at: t.span)
            return nil
        }
        if b == .dash, case .constant(.point(let p)) = t.node, p.x < 0 || p.y < 0 {
            error(.negativeDash(p), at: t.span)
            return nil
        }
        // Looked up in fontconfig by the session (Session.checkFonts), which Check is below.
        if b == .fontFamily, case .constant(.string(let f)) = t.node, !f.isEmpty { fontFamilies.append((f, t.span)) }
        return t
    }

    /// A literal (optionally negated) converted exactly to a time or angle.
    func exactLiteral(_ e: ExprID, _ kind: Kind) -> TypedExpr? {
        guard kind == .time || kind == .angle else { return nil }
        var negative = false
        var inner = tree[e]
        if case .unary(let u) = inner { negative = true; inner = tree[u.operand] }
        guard case .number(let lit) = inner, lit.unit == .none else { return nil }
        switch kind {
        case .time:
            guard let t = Time(decimal: tree.decimal(of: lit), unitPower: 9) else { return nil }
            return TypedExpr(.constant(.time(negative ? Time(ticks: -t.ticks) : t)), .time, tree.span(e))
        default:
            let d = tree.decimal(of: lit).doubleValue
            return TypedExpr(.constant(.angle(Angle(degrees: negative ? -d : d))), .angle, tree.span(e))
        }
    }

    /// Converts a checked expression to `kind`, or reports a mismatch.
    mutating func coerce(_ t: TypedExpr, to kind: Kind, scaleLike: Bool = false) -> TypedExpr? {
        if t.kind == kind { return t }
        switch (t.kind, kind) {
        case (.number, .time): return fold(TypedExpr(.convert(t, .secondsToTime), .time, t.span))
        case (.number, .angle): return fold(TypedExpr(.convert(t, .degreesToAngle), .angle, t.span))
        case (.number, .point) where scaleLike: return fold(TypedExpr(.convert(t, .uniformPoint), .point, t.span))
        case (.list, .list) where kind == .list(.mixed): return t
        case (.list(.empty), .list): return TypedExpr(t.node, kind, t.span)
        // A colour is a paint (a fill); the value stays the colour.
        case (.color, .paint): return TypedExpr(t.node, .paint, t.span)
        default:
            error(.kindMismatch(expected: kind.withArticle, got: t.kind), at: t.span)
            return nil
        }
    }

    /// Folds a conversion of a constant.
    func fold(_ t: TypedExpr) -> TypedExpr {
        guard case .convert(let inner, let conv) = t.node, case .constant(let v) = inner.node,
              let r = ValueOps.convert(v, conv) else { return t }
        return TypedExpr(.constant(r), t.kind, t.span)
    }

    /// The value of a number written without a unit, negated or not (`12`, `-0.5`): what
    /// checking it gives, found without building checked expressions (most numbers of a script
    /// are written so). Nil when the literal is not that simple: checking then reads it.
    func literalNumber(_ e: ExprID) -> Double? {
        guard let (m, exponent, unit, negative) = tree.plainNumber(e), unit == .none else { return nil }
        // Clinger's fast path, as DecimalLiteral.doubleValue: an exact mantissa and power of ten.
        guard m < 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let x = Double(m)
        let v = exponent >= 0 ? x * Checker.powersOfTen[exponent] : x / Checker.powersOfTen[-exponent]
        return negative ? -v : v
    }

    /// The point a pair of number literals gives (`(12, -3)`), as checking it would.
    func literalPoint(_ e: ExprID) -> Point? {
        guard case .pair(let p) = tree[e], let x = literalNumber(p.x), let y = literalNumber(p.y) else { return nil }
        return Point(x, y)
    }

    /// The shape a name denotes when it names one shape (`square`): what checking it gives,
    /// without a checked expression. Nil for anything else, a local of the name included.
    mutating func namedShape(_ e: ExprID) -> ShapeID? {
        guard case .name(let id) = tree[e] else { return nil }
        let n = name(id)
        guard lookupLocal(n) == nil, case .shape(let s)? = env.symbols[n] else { return nil }
        return s
    }

    /// The time a literal in a time slot gives (`0.5`, `300ms`, `-2s`): its digits scaled
    /// exactly to nanoseconds, as `Time(decimal:unitPower:)` does, when no rounding is needed.
    func literalTime(_ e: ExprID) -> Time? {
        guard let (m, exponent, unit, negative) = tree.plainNumber(e) else { return nil }
        let power: Int
        switch unit {
        case .none, .s: power = 9
        case .ms: power = 6
        case .deg, .rad, .turn, .percent: return nil
        }
        let shift = exponent + power
        guard shift >= 0, shift <= 18 else { return nil }
        let (ticks, overflow) = m.multipliedReportingOverflow(by: Checker.integerPowersOfTen[shift])
        guard !overflow, ticks <= UInt64(Int64.max) else { return nil }
        return Time(ticks: negative ? -Int64(ticks) : Int64(ticks))
    }

    /// 10^0 … 10^22, each exactly a Double.
    static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { x, _ in x * 10 } }
    /// 10^0 … 10^18, each an exact UInt64.
    static let integerPowersOfTen: [UInt64] = (0...18).map { k in (0..<k).reduce(UInt64(1)) { x, _ in x * 10 } }

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

    // MARK: - Names, members, indexing

    mutating func checkName(_ id: Identifier) -> TypedExpr? {
        let n = name(id)
        if let l = lookupLocal(n) {
            return TypedExpr(.variable(.local(l.slot)), l.kind, id.span)
        }
        if let sym = env.symbols[n] {
            switch sym {
            case .shape(let s): return TypedExpr(.constant(.shape(s)), .shape, id.span)
            case .array(let first, let count):
                let members = (0..<count).map { Value.shape(ShapeID(Int(first.index) + $0)) }
                return TypedExpr(.constant(.list(members)), .list(.shape), id.span)
            case .group(let ids):
                return TypedExpr(.constant(.list(ids.map { .shape($0) })), .list(.shape), id.span)
            case .global(let slot, let kind):
                return TypedExpr(.variable(.global(slot)), kind, id.span)
            case .stepName:
                error(.stepNameAsValue(text(id)), at: id.span)
                return nil
            case .define:
                error(.defineAsValue(text(id)), at: id.span)
                return nil
            }
        }
        let nameText = text(id)
        // The constants, beneath every declared name (a `let pi` shadows them).
        if nameText == "pi" { return TypedExpr(.constant(.number(Double.pi)), .number, id.span) }
        if nameText == "tau" { return TypedExpr(.constant(.number(2 * Double.pi)), .number, id.span) }
        if let c = Color.named(nameText) {
            return TypedExpr(.constant(.color(c)), .color, id.span)
        }
        // `fill none`, `stroke none` (SVG's word): no paint, the colour `transparent`.
        if nameText == "none" { return TypedExpr(.constant(.color(Color(r: 0, g: 0, b: 0, a: 0))), .color, id.span) }
        if failedNames.contains(n) { return nil }  // its declaration's error is reported
        var candidates = localNames
        candidates += env.allNames
        candidates += ["pi", "tau"]
        if DidYouMean.suggest(nameText, from: candidates) == nil { candidates = CSSColors.table.keys.sorted() }
        reportUnknownName(id, candidates: candidates)
        return nil
    }

    /// Resolves an expression that must denote a shape, with the shapes it may be.
    mutating func shapeRef(_ e: ExprID) -> (ShapeRef, [ShapeID])? {
        guard let t = check(e) else { return nil }
        return shapeRef(t, writtenAt: tree.span(e))
    }

    /// `span` (where the expression is written) is read only to report an error.
    mutating func shapeRef(_ t: TypedExpr, writtenAt span: Span) -> (ShapeRef, [ShapeID])? {
        switch t.node {
        case .shape(let ref):
            switch ref {
            case .fixed(let s): return (ref, [s])
            case .element(let first, let count, _, _):
                return (ref, (0..<count).map { ShapeID(Int(first.index) + $0) })
            case .dynamic: return (ref, [])
            }
        case .constant(.shape(let s)):
            return (.fixed(s), [s])
        case .index(let base, let index) where t.kind == .shape:
            // `group[k]`: a constant index picks the member; otherwise any member may come.
            let members = shapeCandidates(ofList: base)
            if case .constant(.number(let k)) = index.node, k == k.rounded(), k >= 0, k < Double(members.count) {
                return (.fixed(members[Int(k)]), [members[Int(k)]])
            }
            return (.dynamic(t), members)
        case .variable(.local(let slot)) where t.kind == .shape:
            return (.dynamic(t), local(inSlot: slot)?.candidates ?? [])
        default:
            if t.kind == .shape { return (.dynamic(t), []) }
            error(.notAShape(text(span), kind: t.kind), at: t.span)
            return nil
        }
    }

    mutating func checkMember(_ m: MemberExpr) -> TypedExpr? {
        guard let base = check(m.base) else { return nil }
        switch base.kind {
        case .shape:
            let baseSpan = tree.span(m.base)
            if case .constant(.shape(let s)) = base.node {
                if let glyphs = glyphList(m, of: s, baseWrittenAt: baseSpan) { return glyphs }
                guard let (id, kind) = property(m.member, ofShape: s, baseWrittenAt: baseSpan) else { return nil }
                return TypedExpr(.property(.fixed(s), id), kind, m.span)
            }
            guard let (ref, cands) = shapeRef(base, writtenAt: baseSpan) else { return nil }
            guard let (id, kind) = property(m.member, of: cands, baseWrittenAt: baseSpan) else { return nil }
            return TypedExpr(.property(ref, id), kind, m.span)
        case .point:
            let member = text(m.member)
            if member == "x" || member == "y" {
                if case .constant(.point(let p)) = base.node {
                    return TypedExpr(.constant(.number(member == "x" ? p.x : p.y)), .number, m.span)
                }
                return TypedExpr(.component(base, isX: member == "x"), .number, m.span)
            }
            error(.unknownMember(member, kind: .point), at: m.member.span,
                  help: CheckError.pointMembersHelp(suggestion: DidYouMean.suggest(member, from: ["x", "y"])))
            return nil
        default:
            let member = text(m.member)
            if case .list = base.kind {
                error(.unknownMember(member, kind: base.kind), at: m.member.span,
                      help: CheckError.listMemberHelp(base: text(tree.span(m.base)), member: member))
                return nil
            }
            // `sq.alpha.x`: components belong to points.
            let help = member == "x" || member == "y" ? CheckError.componentOfNonPointHelp(base: text(tree.span(m.base)), kind: base.kind) : nil
            error(.unknownMember(member, kind: base.kind), at: m.member.span, help: help)
            return nil
        }
    }

    /// `title.glyphs`: the list of a text's glyph shapes, as an array's name is (the outer nil:
    /// `member` is not `glyphs`, or a property of that name; the inner: an error, reported).
    mutating func glyphList(_ m: MemberExpr, of s: ShapeID, baseWrittenAt base: Span) -> (TypedExpr?)? {
        guard text(m.member) == "glyphs", env.propertyIDs[name(m.member)].flatMap({ env.kind(of: $0, on: s) }) == nil else { return nil }
        let info = env.shapes[Int(s.index)]
        if env.glyphs[s] == nil, let count = env.glyphCounts[s] {
            // Named for the first time: made just before this statement, with the next ids.
            guard makesGlyphs else {
                error(.glyphsNotMade(text(base)), at: m.span)
                return .some(nil)
            }
            guard env.shapes.count + count <= Checker.maxShapes else {
                error(.tooManyShapes(env.shapes.count + count, limit: Checker.maxShapes), at: m.span)
                return .some(nil)
            }
            let first = ShapeID(env.shapes.count)
            for g in 0..<count {
                env.shapes.append(ShapeInfo(name: "\(info.name).glyphs[\(g)]", kind: .glyph, custom: [:], span: info.span))
            }
            env.glyphs[s] = (first, count)
            pendingGlyphs.append(ShapeCreation(name: "\(info.name).glyphs", isArray: true, first: first, count: count, kind: .glyph,
                                               properties: [], indexSlot: nil, localCount: 0, span: m.span))
        }
        if let (first, count) = env.glyphs[s] {
            let members = (0..<count).map { Value.shape(ShapeID(Int(first.index) + $0)) }
            return .some(TypedExpr(.constant(.list(members)), .list(.shape), m.span))
        }
        if info.kind == .text {
            error(.glyphsOfComputedText(text(base)), at: m.span)
        } else {
            error(.glyphsOfNonText(text(base), shapeKind: info.kind), at: base)
        }
        return .some(nil)
    }

    /// The id and kind of a property on every candidate shape; reports unknown names (naming
    /// the shape as written at `base`, which is read only then).
    mutating func property(_ member: Identifier, of cands: [ShapeID], baseWrittenAt base: Span,
                           writing: Bool = false) -> (PropertyID, Kind)? {
        guard let id = env.propertyIDs[name(member)] else {
            reportUnknownProperty(text(member), of: cands, baseText: text(base), at: member.span, writing: writing)
            return nil
        }
        guard !cands.isEmpty else {
            // Unknown shape (a dynamic value): built-ins only.
            if let b = BuiltinProperty(rawValue: Int(id.raw)) { return (id, b.kind) }
            reportUnknownProperty(text(member), of: cands, baseText: text(base), at: member.span, writing: writing)
            return nil
        }
        var kind: Kind?
        for s in cands {
            guard let k = env.kind(of: id, on: s) else {
                reportUnknownProperty(text(member), of: [s], baseText: cands.count == 1 ? text(base) : env.shapes[Int(s.index)].name,
                                      at: member.span, writing: writing)
                return nil
            }
            if let prev = kind, prev != k { error(.mixedShapeKinds(text(member)), at: member.span); return nil }
            kind = k
        }
        return (id, kind!)
    }

    /// `property(_:of:baseWrittenAt:writing:)` for one known shape, without a list of them.
    mutating func property(_ member: Identifier, ofShape s: ShapeID, baseWrittenAt base: Span, writing: Bool = false) -> (PropertyID, Kind)? {
        // A script writes the same property again and again: the last one, known by its bytes.
        var id: PropertyID?
        if let last = lastProperty, last.file === tree.file, sameBytes(last.span, member.span) { id = last.id } else {
            id = env.propertyIDs[name(member)]
            if let id { lastProperty = (tree.file, member.span, id) }
        }
        if let id, let k = env.kind(of: id, on: s) { return (id, k) }
        return property(member, of: [s], baseWrittenAt: base, writing: writing)
    }

    /// Reports `name` as no property of the candidate shapes, with the anim name when another
    /// tool's name was used (`sq.width`), else the closest property name.
    mutating func reportUnknownProperty(_ name: String, of cands: [ShapeID], baseText: String, at span: Span, writing: Bool = false) {
        let names = cands.first.map { env.propertyNames(of: $0) } ?? BuiltinProperty.allCases.map(\.name)
        var suggestion = DidYouMean.suggest(name, from: names)
        var help: String?
        if let hint = ForeignNames.property(name) {
            help = ForeignNames.help(hint, use: writing ? .write(base: baseText) : .read(base: baseText))
            if let p = hint.property, names.contains(p.name) { suggestion = p.name }
        }
        if cands.allSatisfy({ env.shapes[Int($0.index)].kind == .glyph }), !cands.isEmpty, help == nil {
            let text = env.shapes[Int(cands[0].index)].name.split(separator: ".").first.map(String.init) ?? "title"
            help = "a glyph has only offset, rotation, scale, alpha and color; set the text's other properties on '\(text)'"
        }
        if cands.count == 1 {
            let info = env.shapes[Int(cands[0].index)]
            error(.unknownProperty(name, shapeKind: info.kind, shape: baseText, suggestion: suggestion), at: span, help: help)
        } else {
            error(.unknownPropertyOfMany(name, shapes: "'\(baseText)'", suggestion: suggestion), at: span, help: help)
        }
    }

    mutating func checkIndex(_ ix: IndexExpr) -> TypedExpr? {
        // `card[k]` on a shape array resolves to a shape.
        if case .name(let id) = tree[ix.base] {
            let n = name(id)
            if lookupLocal(n) == nil, case .array(let first, let count)? = env.symbols[n] {
                guard let index = checkAs(ix.index, .number) else { return nil }
                if case .constant(.number(let k)) = index.node {
                    guard k == k.rounded(), k >= 0, k < Double(count) else {
                        if k == k.rounded() && k.magnitude < 1e15 {
                            error(.indexOutOfRange(Int(k), name: text(id), count: count), at: tree.span(ix.index))
                        } else {
                            error(.indexNotWhole(k), at: tree.span(ix.index))
                        }
                        return nil
                    }
                    return TypedExpr(.constant(.shape(ShapeID(Int(first.index) + Int(k)))), .shape, ix.span)
                }
                return TypedExpr(.shape(.element(first: first, count: count, index: index, name: text(id))), .shape, ix.span)
            }
        }
        guard let base = check(ix.base), let index = checkAs(ix.index, .number) else { return nil }
        // `title.glyphs[k]`: a constant index is checked against the glyph count, as an array's is.
        if case .member(let m) = tree[ix.base], text(m.member) == "glyphs", case .constant(.list(let vs)) = base.node,
           case .constant(.number(let k)) = index.node {
            guard k == k.rounded(), k >= 0, k < Double(vs.count) else {
                if k == k.rounded() && k.magnitude < 1e15 {
                    error(.indexOutOfRange(Int(k), name: text(tree.span(ix.base)), count: vs.count), at: tree.span(ix.index))
                } else {
                    error(.indexNotWhole(k), at: tree.span(ix.index))
                }
                return nil
            }
            if case .shape(let g) = vs[Int(k)] { return TypedExpr(.constant(.shape(g)), .shape, ix.span) }
        }
        guard case .list = base.kind else {
            error(.notIndexable(base.kind), at: tree.span(ix.base))
            return nil
        }
        let kind = base.kind.elementKind ?? .number
        if base.kind.elementKind == nil {
            error(.indexMixedList, at: tree.span(ix.base))
            return nil
        }
        return TypedExpr(.index(base, index), kind, ix.span)
    }

    /// Flattens an expression of shapes (`[a, b]`, an array, a group) into ids.
    mutating func shapeList(_ e: ExprID) -> [ShapeID]? {
        guard let t = check(e) else { return nil }
        var out: [ShapeID] = []
        func collect(_ v: Value) -> Bool {
            switch v {
            case .shape(let s): out.append(s); return true
            case .list(let vs): return vs.allSatisfy(collect)
            default: return false
            }
        }
        if case .shape(.fixed(let s)) = t.node { return [s] }
        if case .list(let items) = t.node {
            for item in items {
                if case .constant(.shape(let s)) = item.node { out.append(s); continue }
                if item.kind == .shape {
                    error(.groupMemberNotByName, at: item.span)
                } else {
                    error(.groupMemberKind(item.kind), at: item.span)
                }
                return nil
            }
            return out
        }
        if case .constant(.list(let vs)) = t.node, case .list(let written) = tree[e] {
            for (v, el) in zip(vs, tree[written.elements]) where !collect(v) {
                error(.groupMemberKind(v.kind), at: tree.span(el))
                return nil
            }
            return out
        }
        guard let v = t.constantValue, collect(v) else {
            error(.groupMemberKind(t.kind), at: t.span)
            return nil
        }
        return out
    }
}
