// Checker+Motion: springs (the three parameter forms of the brief) and keyframes (values with
// optional offsets and per-segment easing; points followed along a smooth path).

extension Checker {
    /// The spring parameters a step may give (the parser knows them too, to tell a parameter
    /// from a preset).
    static let springParameters = ParseMessage.springParameters

    /// SwiftUI's presets and their bounce (SwiftUI `Spring.smooth`, `.snappy`, `.bouncy`: duration
    /// 0.5 and bounce 0, 0.15 and 0.3; `extraBounce` is added to the bounce).
    static let springPresets: [(name: String, bounce: Double)] = [("smooth", 0), ("snappy", 0.15), ("bouncy", 0.3)]
    /// The three forms and the parameters of each (one table, not built again per spring).
    static let springForms: [(String, [String])] = [("stiffness", ["stiffness", "damping", "mass"]), ("duration", ["duration", "bounce"]),
                                                    ("response", ["response", "damping-ratio"])]
    /// A preset's duration when none is given, in seconds.
    static let springPresetDuration = Time(ticks: 500_000_000)

    /// `spring [params] < writes >`.
    mutating func checkSpring(_ s: SpringStep) -> CheckedStep? {
        // Room for every parameter written, so neither list grows one entry at a time.
        let written = tree[s.parameters].count
        var given = FewByName<(TypedExpr, Span)>(capacity: written)
        // The parameters written, by name, whether or not their values check, and misspelt ones
        // under the name suggested for them: the form rules below judge what was meant, so a
        // misspelling or a bad value is one error, not also "needs 'stiffness' too".
        var named = FewByName<Span>(capacity: written)
        var unknownMeaning = false
        var ok = true
        var velocityExpr: ExprID?
        for p in tree[s.parameters] {
            let param = tree[p]
            let name = text(param.name)
            guard Checker.springParameters.contains(name) else {
                let suggestion = ForeignNames.springParameter(name) ?? DidYouMean.suggest(name, from: Checker.springParameters)
                error(.unknownSpringParameter(name, suggestion: suggestion), at: param.name.span)
                if let suggestion { named[suggestion] = named[suggestion] ?? param.name.span } else { unknownMeaning = true }
                ok = false; continue
            }
            if given[name] != nil || (name == "velocity" && velocityExpr != nil) {
                error(.springParameterGivenTwice(name), at: param.name.span); ok = false; continue
            }
            named[name] = param.name.span
            if name == "velocity" { velocityExpr = param.value; continue }
            let kind: Kind = name == "duration" || name == "response" ? .time : .number
            guard let v = checkAs(param.value, kind) else { ok = false; continue }
            given[name] = (v, param.name.span)
        }
        // One form only. A parameter whose meaning is unknown may be the missing one: no form rule then.
        var form = SpringForm.standard
        if let preset = s.preset {
            // A preset is the duration form: duration D (0.5 s), bounce = the preset's + extra-bounce.
            let word = text(preset)
            let base = Checker.springPresets.first { $0.name == word }?.bounce
            if base == nil {
                error(.unknownSpringPreset(word, suggestion: DidYouMean.suggest(word, from: Checker.springPresets.map(\.name))),
                      at: preset)
                ok = false
            }
            for p in ["stiffness", "damping", "mass", "bounce", "response", "damping-ratio"] {
                if let at = named[p] { error(.springPresetParameter(word, p), at: at); ok = false }
            }
            if let base {
                let d = given["duration"]?.0 ?? TypedExpr(.constant(.time(Checker.springPresetDuration)), .time, preset)
                var bounce = TypedExpr(.constant(.number(base)), .number, preset)
                if let extra = given["extra-bounce"]?.0 {
                    // A constant sum is folded, so the checked form matches `duration D bounce B`.
                    if case .number(let x)? = extra.constantValue {
                        bounce = TypedExpr(.constant(.number(base + x)), .number, extra.span)
                    } else {
                        bounce = TypedExpr(.binary(.add, bounce, extra), .number, extra.span)
                    }
                }
                form = .duration(d, bounce: bounce)
            }
        } else if let at = named["extra-bounce"] {
            error(.extraBounceNeedsPreset, at: at)
            ok = false
        }
        let used = Checker.springForms.filter { f in f.1.contains { named[$0] != nil } }
        if unknownMeaning || s.preset != nil {
            // Already reported, or a preset's parameters judged above.
        } else if used.count > 1 {
            let a = used[0].1.first { named[$0] != nil }!, b = used[1].1.first { named[$0] != nil }!
            error(.springFormsMixed(a, b), at: named[b]!)
            ok = false
        } else if named["stiffness"] != nil || named["damping"] != nil || named["mass"] != nil {
            guard named["stiffness"] != nil, named["damping"] != nil else {
                let missing = named["stiffness"] == nil ? "stiffness" : "damping"
                error(.springNeeds(missing == "stiffness" ? "damping" : "stiffness", missing), at: s.keywordSpan)
                return nil
            }
            if let k = given["stiffness"]?.0, let c = given["damping"]?.0 { form = .physical(stiffness: k, damping: c, mass: given["mass"]?.0) }
        } else if named["duration"] != nil {
            if let d = given["duration"]?.0 { form = .duration(d, bounce: given["bounce"]?.0) }
        } else if named["bounce"] != nil {
            error(.springParameterNeeds("bounce", "duration"), at: named["bounce"]!); ok = false
        } else if named["response"] != nil {
            if let r = given["response"]?.0 { form = .response(r, dampingRatio: given["damping-ratio"]?.0) }
        } else if named["damping-ratio"] != nil {
            error(.springParameterNeeds("damping-ratio", "response"), at: named["damping-ratio"]!); ok = false
        }
        var delay: TypedExpr?
        for o in tree[s.options] {
            if case .delay(let e, _) = tree[o] { delay = checkAs(e, .time); ok = ok && delay != nil }
        }
        let assignments = tree[s.assignments]
        var writes: [PropertyWrite] = []
        writes.reserveCapacity(assignments.count)
        for a in assignments {
            let asg = tree[a]
            if asg.keyframes != nil {
                error(.springKeyframes, at: tree.span(asg.value)); ok = false; continue
            }
            guard let w = checkWrite(a, animating: true) else { ok = false; continue }
            if w.kind == .time {
                error(.springMovesTime, at: tree.span(asg.target)); ok = false; continue
            }
            if w.kind == .path || w.kind == .list(.point) {
                error(.morphNeedsTween("a spring"), at: tree.span(asg.target)); ok = false; continue
            }
            if w.value.isGradient {
                error(.gradientNeedsTween("a spring"), at: w.value.span); ok = false; continue
            }
            writes.append(w)
        }
        var velocity: TypedExpr?
        if let v = velocityExpr {
            guard let t = check(v) else { return nil }
            let kinds = Set(writes.map(\.kind))
            if t.kind != .number && !(kinds.count == 1 && kinds.first == t.kind) {
                error(.springVelocityKind(t.kind), at: tree.span(v))
                return nil
            }
            velocity = t
        }
        guard ok else { return nil }
        return .spring(SpringSpec(form: form, velocity: velocity, epsilon: given["epsilon"]?.0, delay: delay, writes: writes,
                                  span: s.span))
    }

    /// Keyframes `[v, v at 0.5, v ease E]` or `path [p, p]` for one property.
    mutating func checkKeyframes(_ a: Assignment, _ frames: SyntaxList<KeyframeID>, shape: ShapeRef, property: PropertyID, kind: Kind,
                                 scaleLike: Bool) -> PropertyWrite? {
        guard a.op == .assign else {
            error(.keyframesOperator(a.op), at: a.span)
            return nil
        }
        if a.isPath && kind != .point {
            error(.pathKind(kind), at: tree.span(a.target))
            return nil
        }
        var out: [CheckedKeyframe] = []
        var lastOffset = -1.0
        for k in tree[frames] {
            let f = tree[k]
            guard let v = checkAs(f.value, kind, scaleLike: scaleLike) else { return nil }
            var offset: Double?
            if let o = f.offset {
                let oSpan = tree.span(o)
                if a.isPath {
                    error(.pathOffset, at: oSpan); return nil
                }
                guard let t = checkAs(o, .number) else { return nil }
                guard case .constant(.number(let x)) = t.node else {
                    error(.keyframeOffsetNotConstant, at: oSpan); return nil
                }
                guard x >= 0, x <= 1 else {
                    error(.keyframeOffsetRange(x), at: oSpan); return nil
                }
                guard x >= lastOffset else {
                    error(.keyframeOffsetsDecrease(x, after: lastOffset), at: oSpan)
                    return nil
                }
                lastOffset = x
                offset = x
            }
            var easing: Easing?
            if let e = f.easing {
                let syntax = tree[e]
                if a.isPath { error(.pathEasing, at: syntax.span); return nil }
                guard let x = resolveEasing(syntax) else { return nil }
                easing = x
            }
            out.append(CheckedKeyframe(value: v, offset: offset, easing: easing))
        }
        var orient: TypedExpr?
        if a.orient {
            // The rotation follows the tangent, plus the angle (a bare number is degrees).
            if let e = a.orientAngle {
                guard let t = checkAs(e, .angle) else { return nil }
                orient = t
            } else {
                orient = TypedExpr(.constant(.angle(Angle(degrees: 0))), .angle, a.span)
            }
        }
        return PropertyWrite(shape: shape, property: property, op: .assign, value: out.last!.value, kind: kind,
                             keyframes: out, isPath: a.isPath, span: a.span, orient: orient)
    }
}

/// A few values by name, searched in order. A spring names at most a handful of parameters, so
/// comparing short strings beats hashing them: with string-keyed dictionaries, hashing was
/// half of `checkSpring`'s instructions (callgrind, 450 springs of a 5,000-line script).
private struct FewByName<Value> {
    private var entries: [(name: String, value: Value)] = []

    /// An empty list with room for `capacity` entries (none allocated for 0).
    init(capacity: Int) {
        if capacity > 0 { entries.reserveCapacity(capacity) }
    }

    subscript(name: String) -> Value? {
        get { entries.first { $0.name == name }?.value }
        set {
            if let i = entries.firstIndex(where: { $0.name == name }) {
                if let newValue { entries[i].value = newValue } else { entries.remove(at: i) }
            } else if let newValue {
                entries.append((name, newValue))
            }
        }
    }
}
