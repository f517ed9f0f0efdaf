// Checker+Coercion: the kind an expression is checked as — `checkAs` and the values of built-in
// properties (outline words, path data, non-negative widths), the implicit conversions between
// kinds (numbers as times, angles and scale points), and literals read exactly without
// building checked expressions (Grammar.md 1.6 "Numbers and units", 3.3 "Conversions").

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
}
