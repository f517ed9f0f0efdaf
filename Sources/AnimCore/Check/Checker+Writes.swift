// Checker+Writes: property writes — `shape.property op value` for `set` and tweens, the
// shapes a write may reach (fixed, an element, a loop variable), glyph writes, and the
// static check of gradient tweens against the gradients shapes were declared with
// (Grammar.md 4.3 "Built-in properties", 4.11 "Gradient fills", 6.7 "set").

extension Checker {
    /// Checks `target op value` where target is `shape.property`.
    mutating func checkWrite(_ id: AssignmentID, animating: Bool) -> PropertyWrite? {
        // Unwrapped once and returned as the last use: moved out, not copied (an `if let` on
        // the way out copied every write, callgrind: about 140 instructions a write).
        guard let w = checkOneWrite(id, animating: animating) else { return nil }
        notePaintWrite(w, animating: animating)
        return w
    }

    /// Whether an expression is a call or a name (what a gradient constant is written as).
    func isCallOrName(_ e: ExprID) -> Bool {
        switch tree[e] {
        case .call, .name: return true
        default: return false
        }
    }

    /// Whether a write's shape is a text's glyph (or every shape a loop variable may be is).
    func writesGlyphs(_ ref: ShapeRef) -> Bool {
        func glyph(_ s: ShapeID) -> Bool { Int(s.index) < env.shapes.count && env.shapes[Int(s.index)].kind == .glyph }
        switch ref {
        case .fixed(let s): return glyph(s)
        case .element(let first, _, _, _): return glyph(first)
        case .dynamic(let t):
            guard case .variable(.local(let slot)) = t.node, let l = locals.last(where: { $0.slot == slot }), !l.candidates.isEmpty else { return false }
            return l.candidates.allSatisfy(glyph)
        }
    }

    /// Notes a write of a fill or stroke for the static check of gradient tweens
    /// (`checkGradientTweens`): which shape it writes (or that it is not known), and a tween's
    /// constant gradient target.
    mutating func notePaintWrite(_ w: PropertyWrite, animating: Bool) {
        guard w.property == BuiltinProperty.color.id || w.property == BuiltinProperty.stroke.id else { return }
        guard case .fixed(let shape) = w.shape else { paintWritesOfAnyShape.insert(w.property); return }
        // Only a shape this program declared with a constant gradient can be found at fault, and
        // its declaration comes before every write of it: other writes need no count (most
        // programs declare no gradient, and counting every fill written by hashing its key cost
        // 1.3 M instructions for the 900 colour tweens of a 5,000-line script, callgrind).
        guard !declaredPaints.isEmpty else { return }
        let key = PaintKey(shape: shape, property: w.property)
        guard declaredPaints[key] != nil else { return }
        paintWriteCounts[key, default: 0] += 1
        if animating, w.keyframes == nil, case .gradient(let g)? = knownValue(w.value) {
            paintTweens.append((key, g, w.value.span))
        }
    }

    /// Two gradients that cannot animate into each other, known before the run: a tween's
    /// constant gradient target (a literal or a `let`) against the constant gradient its shape
    /// was declared with, when that tween is the only write of the property in the program (so
    /// it starts from the declaration's value), found at the end of a check. (A `from` gradient
    /// is checked against the target in `checkAnimate`; other starts are known only at run
    /// time, where the same mismatch is a run-time error.)
    mutating func checkGradientTweens() {
        for (key, target, span) in paintTweens {
            guard paintWriteCounts[key] == 1, !paintWritesOfAnyShape.contains(key.property),
                  let (declared, declaredAt) = declaredPaints[key],
                  let why = Morph.gradientMismatch(.gradient(declared), .gradient(target)) else { continue }
            let written = "'\(env.shapes[Int(key.shape.index)].name).\(key.property == BuiltinProperty.stroke.id ? "stroke" : "fill")': "
            var d = Diagnostic.error(written + CheckError.gradientMismatch(why).message, at: span)
            d.secondary.append(.init(span: declaredAt, text: "the tween starts from the gradient declared here"))
            d.help = CheckError.gradientMismatch(why).help
            diagnostics.report(d)
        }
    }

    mutating func checkOneWrite(_ id: AssignmentID, animating: Bool) -> PropertyWrite? {
        let a = tree[id]
        guard case .member(let m) = tree[a.target] else {
            error(.notAProperty(text(tree.span(a.target))), at: tree.span(a.target))
            return nil
        }
        if let s = namedShape(m.base) {
            // `square.center = …`, the usual target: its shape known by name.
            return write(a, to: .fixed(s), prop: property(m.member, ofShape: s, baseWrittenAt: tree.span(m.base), writing: true),
                         animating: animating)
        }
        guard let base = check(m.base) else { return nil }
        let baseSpan = tree.span(m.base)
        guard base.kind == .shape else {
            let member = text(m.member)
            if base.kind == .point, case .property(let ref, let id) = base.node {
                // `sq.center.x = 300`: one component of a point property, owned apart from the
                // other (Grammar.md, "Per-axis animation").
                guard member == "x" || member == "y" else {
                    error(.unknownMember(member, kind: .point), at: m.member.span,
                          help: CheckError.pointMembersHelp(suggestion: DidYouMean.suggest(member, from: ["x", "y"])))
                    return nil
                }
                return write(a, to: ref, prop: (id.component(member == "x" ? 0 : 1), .number), animating: animating)
            }
            if case .property = base.node, member == "x" || member == "y" {
                // `sq.alpha.x = 1`: components belong to points.
                error(.unknownMember(member, kind: base.kind), at: m.member.span,
                      help: CheckError.componentOfNonPointHelp(base: text(baseSpan), kind: base.kind))
                return nil
            }
            if base.kind == .point, member == "x" || member == "y" {
                error(.pointComponentWrite(base: text(baseSpan), component: member, op: a.op.rawValue, value: text(tree.span(a.value))),
                      at: tree.span(a.target))
            } else {
                error(.notAShape(text(baseSpan), kind: base.kind), at: baseSpan)
            }
            return nil
        }
        if case .constant(.shape(let s)) = base.node {
            return write(a, to: .fixed(s), prop: property(m.member, ofShape: s, baseWrittenAt: baseSpan, writing: true), animating: animating)
        }
        guard let (ref, cands) = shapeRef(base, writtenAt: baseSpan) else { return nil }
        return write(a, to: ref, prop: property(m.member, of: cands, baseWrittenAt: baseSpan, writing: true), animating: animating)
    }

    /// The rest of `checkWrite`, once the shape and the property are known (`prop` nil: the
    /// property is unknown, already reported).
    mutating func write(_ a: Assignment, to ref: ShapeRef, prop resolved: (PropertyID, Kind)?, animating: Bool) -> PropertyWrite? {
        guard let (prop, kind) = resolved else { return nil }
        // A glyph's colour is one colour laid over its text's paint (Grammar.md §4.12): a
        // gradient there is the text's to give.
        if prop == BuiltinProperty.color.id, a.keyframes == nil, writesGlyphs(ref), isCallOrName(a.value) {
            // Probed quietly: the value is checked (and reported) again below.
            let kept = diagnostics
            let v = check(a.value)
            diagnostics = kept
            if let v, case .gradient? = knownValue(v) {
                error(.kindMismatch(expected: Kind.color.withArticle, got: .paint), at: v.span,
                      help: "a glyph's colour is one colour: give the gradient to its text ('title.fill = linear-gradient(...)'), which its glyphs share")
                return nil
            }
        }
        if prop == BuiltinProperty.file.id {
            error(.imageFileWritten, at: tree.span(a.target))
            return nil
        }
        if animating && !kind.isInterpolable {
            error(.cannotAnimate(text(tree.span(a.target)), kind), at: tree.span(a.target))
            return nil
        }
        if a.op != .assign && !(kind == .number || kind == .time || kind == .angle || kind == .point) {
            error(.relativeKind(a.op, kind), at: a.span)
            return nil
        }
        let scaleLike = prop == BuiltinProperty.scale.id
        // `tri.points = [(0, 0), (40, 0), (20, 30)]` in a tween is the list the points move to
        // (a morph), not keyframes of points: a point list's keyframes would be lists.
        if let frames = a.keyframes, kind == .list(.point),
           tree[frames].allSatisfy({ let f = tree[$0]; if case .list = tree[f.value] { return false }; return f.offset == nil && f.easing == nil }) {
            guard let value = checkPropertyValue(a.value, kind, property: prop) else { return nil }
            return PropertyWrite(shape: ref, property: prop, op: a.op, value: value, kind: kind, span: a.span)
        }
        if a.keyframes != nil, kind == .path || kind == .list(.point) {
            error(.morphNeedsTween("keyframes"), at: tree.span(a.value))
            return nil
        }
        if let frames = a.keyframes {
            guard animating else {
                error(.keyframesNeedTween, at: tree.span(a.value))
                return nil
            }
            let w = checkKeyframes(a, frames, shape: ref, property: prop, kind: kind, scaleLike: scaleLike)
            if let g = w?.keyframes?.first(where: { $0.value.isGradient }) {
                error(.gradientNeedsTween("keyframes"), at: g.value.span)
                return nil
            }
            return w
        }
        guard let value = checkPropertyValue(a.value, kind, property: prop, scaleLike: scaleLike) else { return nil }
        return PropertyWrite(shape: ref, property: prop, op: a.op, value: value, kind: kind, span: a.span)
    }
}
