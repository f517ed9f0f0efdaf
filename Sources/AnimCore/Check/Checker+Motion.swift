// Checker+Motion: springs (the three parameter forms of the brief) and keyframes (values with
// optional offsets and per-segment easing; points followed along a smooth path).

extension Checker {
    /// The spring parameters a step may give.
    static let springParameters = ["stiffness", "damping", "mass", "duration", "bounce", "response", "damping-ratio",
                                   "velocity", "epsilon"]

    /// `spring [params] < writes >`.
    mutating func checkSpring(_ s: SpringStep) -> CheckedStep? {
        var given: [String: (TypedExpr, Span)] = [:]
        // The parameters written, by name, whether or not their values check, and misspelt ones
        // under the name suggested for them: the form rules below judge what was meant, so a
        // misspelling or a bad value is one error, not also "needs 'stiffness' too".
        var named: [String: Span] = [:]
        var unknownMeaning = false
        var ok = true
        var velocityExpr: Expr?
        for p in s.parameters {
            let name = p.name.name
            guard Checker.springParameters.contains(name) else {
                let suggestion = ForeignNames.springParameter(name) ?? DidYouMean.suggest(name, from: Checker.springParameters)
                diagnostics.error("unknown spring parameter '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
                                  at: p.name.span,
                                  help: "write 'stiffness K damping C [mass M]', 'duration D bounce B' or 'response R damping-ratio Z'")
                if let suggestion { named[suggestion] = named[suggestion] ?? p.name.span } else { unknownMeaning = true }
                ok = false; continue
            }
            if given[name] != nil || (name == "velocity" && velocityExpr != nil) {
                diagnostics.error("spring parameter '\(name)' is given twice", at: p.name.span); ok = false; continue
            }
            named[name] = p.name.span
            if name == "velocity" { velocityExpr = p.value; continue }
            let kind: Kind = name == "duration" || name == "response" ? .time : .number
            guard let v = checkAs(p.value, kind) else { ok = false; continue }
            given[name] = (v, p.name.span)
        }
        // One form only. A parameter whose meaning is unknown may be the missing one: no form rule then.
        var form = SpringForm.standard
        let forms: [(String, [String])] = [("stiffness", ["stiffness", "damping", "mass"]), ("duration", ["duration", "bounce"]),
                                           ("response", ["response", "damping-ratio"])]
        let used = forms.filter { f in f.1.contains { named[$0] != nil } }
        if unknownMeaning {
            // Already reported; the form cannot be judged.
        } else if used.count > 1 {
            let a = used[0].1.first { named[$0] != nil }!, b = used[1].1.first { named[$0] != nil }!
            diagnostics.error("spring parameters '\(a)' and '\(b)' belong to different forms", at: named[b]!,
                              help: "write 'stiffness K damping C [mass M]', 'duration D bounce B' or 'response R damping-ratio Z'")
            ok = false
        } else if named["stiffness"] != nil || named["damping"] != nil || named["mass"] != nil {
            guard named["stiffness"] != nil, named["damping"] != nil else {
                let missing = named["stiffness"] == nil ? "stiffness" : "damping"
                diagnostics.error("a spring with '\(missing == "stiffness" ? "damping" : "stiffness")' needs '\(missing)' too", at: s.keywordSpan)
                return nil
            }
            if let k = given["stiffness"]?.0, let c = given["damping"]?.0 { form = .physical(stiffness: k, damping: c, mass: given["mass"]?.0) }
        } else if named["duration"] != nil {
            if let d = given["duration"]?.0 { form = .duration(d, bounce: given["bounce"]?.0) }
        } else if named["bounce"] != nil {
            diagnostics.error("'bounce' needs 'duration'", at: named["bounce"]!); ok = false
        } else if named["response"] != nil {
            if let r = given["response"]?.0 { form = .response(r, dampingRatio: given["damping-ratio"]?.0) }
        } else if named["damping-ratio"] != nil {
            diagnostics.error("'damping-ratio' needs 'response'", at: named["damping-ratio"]!); ok = false
        }
        var delay: TypedExpr?
        for o in s.options {
            if case .delay(let e, _) = o { delay = checkAs(e, .time); ok = ok && delay != nil }
        }
        var writes: [PropertyWrite] = []
        for a in s.assignments {
            if a.keyframes != nil {
                diagnostics.error("a spring moves to one target, not keyframes", at: a.value.span); ok = false; continue
            }
            guard let w = checkWrite(a, animating: true) else { ok = false; continue }
            if w.kind == .time {
                diagnostics.error("a spring cannot move a time", at: a.target.span); ok = false; continue
            }
            writes.append(w)
        }
        var velocity: TypedExpr?
        if let v = velocityExpr {
            guard let t = check(v) else { return nil }
            let kinds = Set(writes.map(\.kind))
            if t.kind != .number && !(kinds.count == 1 && kinds.first == t.kind) {
                diagnostics.error("a spring's velocity is a number (for every component) or a value of the property's kind, not \(t.kind.withArticle)",
                                  at: v.span)
                return nil
            }
            velocity = t
        }
        guard ok else { return nil }
        return .spring(SpringSpec(form: form, velocity: velocity, epsilon: given["epsilon"]?.0, delay: delay, writes: writes,
                                  span: s.span))
    }

    /// Keyframes `[v, v at 0.5, v ease E]` or `path [p, p]` for one property.
    mutating func checkKeyframes(_ a: Assignment, _ frames: [Keyframe], shape: ShapeRef, property: PropertyID, kind: Kind,
                                 scaleLike: Bool) -> PropertyWrite? {
        guard a.op == .assign else {
            diagnostics.error("keyframes take '=', not '\(a.op.rawValue)'", at: a.span)
            return nil
        }
        if a.isPath && kind != .point {
            diagnostics.error("a path moves a point property, not \(kind.withArticle)", at: a.target.span)
            return nil
        }
        var out: [CheckedKeyframe] = []
        var lastOffset = -1.0
        for f in frames {
            guard let v = checkAs(f.value, kind, scaleLike: scaleLike) else { return nil }
            var offset: Double?
            if let o = f.offset {
                if a.isPath {
                    diagnostics.error("a path's points take no offsets", at: o.span); return nil
                }
                guard let t = checkAs(o, .number) else { return nil }
                guard case .constant(.number(let x)) = t.node else {
                    diagnostics.error("a keyframe offset is a number written in the script", at: o.span); return nil
                }
                guard x >= 0, x <= 1 else {
                    diagnostics.error("a keyframe offset must be between 0 and 1, not \(formatNumber(x))", at: o.span); return nil
                }
                guard x >= lastOffset else {
                    diagnostics.error("keyframe offsets must not decrease (\(formatNumber(x)) comes after \(formatNumber(lastOffset)))",
                                      at: o.span)
                    return nil
                }
                lastOffset = x
                offset = x
            }
            var easing: Easing?
            if let e = f.easing {
                if a.isPath { diagnostics.error("a path's points take no easing", at: e.span); return nil }
                guard let x = resolveEasing(e) else { return nil }
                easing = x
            }
            out.append(CheckedKeyframe(value: v, offset: offset, easing: easing))
        }
        return PropertyWrite(shape: shape, property: property, op: .assign, value: out.last!.value, kind: kind,
                             keyframes: out, isPath: a.isPath, span: a.span)
    }
}
