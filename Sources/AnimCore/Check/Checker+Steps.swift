// Checker+Steps: chains, blocks and steps — property writes, tween options and timing,
// expectations.

extension Checker {
    /// Checks a chain; registers its `as` name.
    mutating func checkChain(_ id: ChainID) -> CheckedChain? {
        let chain = tree[id]
        var steps: [CheckedStep] = []
        let written = tree[chain.steps]
        steps.reserveCapacity(written.count)
        var ok = true
        for s in written {
            if let c = checkStep(s) { steps.append(c) } else { ok = false }
        }
        var name: StepNameID?
        if let n = chain.name {
            let nid = self.name(n)
            if case .stepName(let sid)? = env.symbols[nid], env.stepNameSpans[sid.index] == n.span {
                // The same `as` in a define body, checked again for another signature.
                name = sid
            } else if let existing = env.symbols[nid] {
                if case .stepName = existing { error(.duplicateStepName(text(n)), at: n.span) } else {
                    error(.alreadyDeclared(text(n), what: describe(existing)), at: n.span)
                }
                ok = false
            } else {
                let sid = StepNameID(index: env.stepNames.count)
                env.stepNames.append(text(n))
                env.stepNameSpans.append(n.span)
                env.symbols[nid] = .stepName(sid)
                name = sid
            }
        }
        guard ok else { return nil }
        return CheckedChain(steps: steps, name: name, span: chain.span)
    }

    /// A block as a chain of one step (the body of `at` and `on change`).
    mutating func checkBlockAsChain(_ b: Block) -> CheckedChain? {
        guard let chains = checkBlock(b) else { return nil }
        return CheckedChain(steps: [.parallel(chains, b.span)], name: nil, span: b.span)
    }

    mutating func checkBlock(_ b: Block) -> [CheckedChain]? {
        var chains: [CheckedChain] = []
        var ok = true
        for c in tree[b.chains] {
            if let x = checkChain(c) { chains.append(x) } else { ok = false }
        }
        return ok ? chains : nil
    }

    mutating func checkStep(_ step: StepID) -> CheckedStep? {
        switch tree[step] {
        case .animate(let a): return checkAnimate(a).map { .tween($0) }
        case .spring(let s): return checkSpring(s)
        case .wait(let w):
            guard let arg = w.argument else { error(.waitNeedsDuration, at: w.span); return nil }
            if case .name(let id) = tree[arg], case .stepName? = env.symbols[name(id)] {
                error(.waitNameInChain(text(id)), at: w.span)
                return nil
            }
            guard let t = checkAs(arg, .time) else { return nil }
            return .wait(t, w.span)
        case .print(let p):
            guard let v = check(p.value) else { return nil }
            return .action(.print(v), p.span)
        case .set(let s):
            guard let w = checkWrite(s.assignment, animating: false) else { return nil }
            return .action(.set(w), s.span)
        case .expect(let e):
            return checkExpect(e).map { .action(.expect($0), e.span) }
        case .block(let b):
            guard let chains = checkBlock(b) else { return nil }
            return .parallel(chains, b.span)
        case .select(let s):
            guard let chains = checkBlock(s.body) else { return nil }
            return .select(s.mode, chains, s.span)
        case .conditional(let c):
            var branches: [CheckedBranch] = []
            var ok = true
            for (condition, body) in c.branches {
                var cond: TypedExpr?
                if let e = condition {
                    if let t = check(e) {
                        if t.kind == .bool { cond = t } else {
                            var d = Diagnostic.error(CheckError.ifConditionKind(t.kind).message, at: t.span, help: CheckError.ifConditionKind(t.kind).help)
                            d.label = t.kind.withArticle
                            diagnostics.report(d)
                            ok = false
                        }
                    } else { ok = false }
                }
                // Each block is checked even after an error, so all its errors are reported.
                guard let chains = checkBlock(body) else { ok = false; continue }
                branches.append(CheckedBranch(condition: cond, body: chains))
            }
            return ok ? .conditional(branches, c.span) : nil
        case .repeat(let r):
            var count: TypedExpr?
            if let c = r.count {
                guard let t = checkAs(c, .number) else { return nil }
                if case .constant(.number(let n)) = t.node, !(n >= 0 && n == n.rounded()) {
                    error(.passCount(n), at: tree.span(c))
                    return nil
                }
                count = t
            }
            var delay: TypedExpr?
            if let d = r.repeatDelay {
                guard let t = timePart(d) else { return nil }
                if let x = t.constant, x.ticks < 0 {
                    error(.timing(.negativeRepeatDelay(x)), at: tree.span(d))
                    return nil
                }
                switch t {
                case .literal(let x, let s): delay = TypedExpr(.constant(.time(x)), .time, s)
                case .checked(let e): delay = e
                }
            }
            if r.yoyo, r.condition != nil || r.passVariable != nil {
                // Later yoyo passes replay the first: no condition or index to read again.
                error(.yoyoWithLoop(r.condition != nil ? "while" : "for"), at: r.keywordSpan)
                return nil
            }
            // `for k`: the pass index, a number local to the body (and to `while`'s condition).
            var loop: RepeatLoop?
            if r.condition != nil || r.passVariable != nil {
                pushScope()
                loop = RepeatLoop(variable: r.passVariable.map { newLocal(name($0), kind: .number, candidates: []) })
            }
            defer { if loop != nil { popScope() } }
            if let c = r.condition {
                guard let t = check(c) else { return nil }
                guard t.kind == .bool else {
                    var d = Diagnostic.error(CheckError.repeatConditionKind(t.kind).message, at: t.span,
                                             help: CheckError.repeatConditionKind(t.kind).help)
                    d.label = t.kind.withArticle
                    diagnostics.report(d)
                    return nil
                }
                loop?.condition = t
            }
            guard let body = checkBlock(r.body) else { return nil }
            if let c = loop?.condition, c.constantValue != .bool(false), Checker.neverChanges(c, passVariable: loop?.variable) {
                loop?.conditionNeverChanges = true
            }
            if let c = loop?.condition, c.constantValue != .bool(false), Checker.neverChanges(c, passVariable: loop?.variable),
               Checker.isInstant(body) {
                // Nothing in the body takes time or can change the condition: once it holds, it
                // holds for ever at one instant. Constant true is an error now; otherwise the run
                // reports it as soon as the condition holds.
                if c.constantValue == .bool(true) {
                    error(.repeatWhileNeverChanges, at: c.span)
                    return nil
                }
                loop?.loopsAtOneInstant = true
            }
            return .repeat(count: count, yoyo: r.yoyo, body: body, span: r.span, delay: delay, loop: loop)
        case .stagger(let s): return checkStagger(s)
        case .play(let p): return checkPlay(p)
        case .relative(let r): return checkRelative(r)
        case .control(let c): return checkControl(c)
        }
    }

    /// Checks `target op value` where target is `shape.property`.
    mutating func checkWrite(_ id: AssignmentID, animating: Bool) -> PropertyWrite? {
        let w = checkOneWrite(id, animating: animating)
        if let w { notePaintWrite(w, animating: animating) }
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
        let key = PaintKey(shape: shape, property: w.property)
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

    mutating func checkAnimate(_ a: AnimateStep) -> TweenSpec? {
        var ok = true
        let duration = timePart(a.duration)
        ok = ok && duration != nil
        var easing = Easing.easeInOut
        var delay: TimingPart<Time>?, iterations: TimingPart<Double>?, speed: TimingPart<Double>?
        var forever = false, yoyo = false
        var fromExpr: ExprID?
        var direction: (PlaybackDirection, Span)?, fill: FillMode?
        var iterationStart: TimingPart<Double>?, endDelay: TimingPart<Time>?, repeatDelay: TimingPart<Time>?
        var yoyoSpan: Span?
        var seenOptions: UInt16 = 0  // one bit per option
        for o in tree[a.options] {
            let option = tree[o]
            let bit: UInt16, key: String
            switch option {
            case .direction(let w, let span):
                bit = 64; key = "direction"
                let word = text(w)
                if let d = PlaybackDirection(rawValue: word) { direction = (d, span) } else {
                    error(.unknownWord(word, what: "direction", suggestion: CheckError.suggestWord(word, from: PlaybackDirection.allCases.map(\.rawValue))),
                          at: w)
                    ok = false
                }
            case .iterationStart(let e, _):
                bit = 128; key = "iteration-start"
                iterationStart = numberPart(e); ok = ok && iterationStart != nil
                if let f = iterationStart?.constant {
                    do throws(TimingError) { _ = try TweenTiming.validated(iterationStart: f) } catch {
                        self.error(.timing(error), at: tree.span(e)); ok = false
                    }
                }
            case .endDelay(let e, _):
                bit = 256; key = "end-delay"
                endDelay = timePart(e); ok = ok && endDelay != nil
            case .repeatDelay(let e, _):
                bit = 1024; key = "repeat-delay"
                repeatDelay = timePart(e); ok = ok && repeatDelay != nil
            case .fill(let w, _):
                bit = 512; key = "fill"
                let word = text(w)
                if let f = FillMode(rawValue: word) { fill = f } else {
                    error(.unknownWord(word, what: "fill", suggestion: CheckError.suggestWord(word, from: FillMode.allCases.map(\.rawValue))),
                          at: w)
                    ok = false
                }
            case .delay(let e, _):
                bit = 1; key = "delay"
                delay = timePart(e); ok = ok && delay != nil
            case .ease(let e, _):
                bit = 2; key = "ease"
                if let x = resolveEasing(tree[e]) { easing = x } else { ok = false }
            case .repeat(let e, _):
                bit = 4; key = "repeat"
                if let e {
                    iterations = numberPart(e); ok = ok && iterations != nil
                    if let n = iterations?.constant {
                        do throws(TimingError) { _ = try TweenTiming.validated(iterations: n) } catch {
                            self.error(.timing(error), at: tree.span(e)); ok = false
                        }
                    }
                } else { forever = true }
            case .yoyo(let span):
                bit = 8; key = "yoyo"; yoyo = true; yoyoSpan = span
            case .speed(let e, _):
                bit = 16; key = "speed"
                speed = numberPart(e); ok = ok && speed != nil
                if let r = speed?.constant {
                    do throws(TimingError) { _ = try TweenTiming.validated(rate: r) } catch {
                        self.error(.timing(error), at: tree.span(e)); ok = false
                    }
                }
            case .from(let e, _):
                bit = 32; key = "from"; fromExpr = e
            }
            if seenOptions & bit != 0 {
                error(.optionGivenTwice(key), at: option.span); ok = false
            }
            seenOptions |= bit
        }
        let assignments = tree[a.assignments]
        var writes: [PropertyWrite] = []
        writes.reserveCapacity(assignments.count)
        var seen: [String: Span] = [:]
        let tweensBefore = paintTweens.count
        for asg in assignments {
            guard let w = checkWrite(asg, animating: true) else { ok = false; continue }
            writes.append(w)
            guard assignments.count > 1 else { continue }  // one write cannot be written twice
            let targetSpan = tree.span(tree[asg].target)
            let key = compactText(targetSpan)
            if w.orient != nil, case .member(let m) = tree[tree[asg].target] {
                // `path [...] orient` writes the shape's rotation too.
                let rotation = compactText(tree.span(m.base)) + ".rotation"
                if let prev = seen[rotation] {
                    var d = Diagnostic.error(CheckError.writtenTwice(rotation).message, at: tree[asg].span)
                    d.secondary.append(.init(span: prev, text: CheckError.firstWrittenHere))
                    diagnostics.report(d)
                    ok = false
                }
                seen[rotation] = tree[asg].span
            }
            if let prev = seen[key] {
                var d = Diagnostic.error(CheckError.writtenTwice(key).message, at: targetSpan)
                d.secondary.append(.init(span: prev, text: CheckError.firstWrittenHere))
                diagnostics.report(d)
                ok = false
            }
            seen[key] = targetSpan
        }
        var from: [TypedExpr]?
        // A tween `from` a value does not start from the declaration (checked below instead).
        if fromExpr != nil { paintTweens.removeSubrange(tweensBefore...) }
        if let fe = fromExpr, ok {
            var froms: [TypedExpr] = []
            for w in writes {
                guard let t = check(fe) else { ok = false; break }
                let scaleLike = w.property == BuiltinProperty.scale.id
                if t.kind != w.kind && !(t.kind == .number && (w.kind == .time || w.kind == .angle || scaleLike && w.kind == .point))
                    && !(t.kind == .color && w.kind == .paint) {
                    error(.fromKind(t.kind, property: env.propertyName(w.property), propertyKind: w.kind), at: tree.span(fe))
                    ok = false; break
                }
                guard let c = checkAs(fe, w.kind, scaleLike: scaleLike) else { ok = false; break }
                // `from` and target gradients that cannot animate into each other, both constant.
                if let f = knownValue(c), let target = knownValue(w.value), w.keyframes == nil,
                   let why = Morph.gradientMismatch(f, target) {
                    var written = ""
                    if case .fixed(let id) = w.shape {
                        written = "'\(env.shapes[Int(id.index)].name).\(w.property == BuiltinProperty.stroke.id ? "stroke" : "fill")': "
                    }
                    diagnostics.error(written + CheckError.gradientMismatch(why).message, at: w.value.span, label: nil,
                                      help: CheckError.gradientMismatch(why).help)
                    ok = false; break
                }
                froms.append(c)
            }
            from = froms
        }
        if let (_, span) = direction, let y = yoyoSpan {
            var d = Diagnostic.error(CheckError.yoyoAndDirection.message, at: span)
            d.secondary.append(.init(span: y, text: CheckError.yoyoIsAlternate))
            d.help = CheckError.yoyoAndDirection.help
            diagnostics.report(d)
            ok = false
        }
        guard ok, let duration else { return nil }
        guard let timing = decideTiming(duration: duration, iterations: iterations, forever: forever, yoyo: yoyo, speed: speed,
                                        delay: delay, direction: direction?.0, iterationStart: iterationStart,
                                        repeatDelay: repeatDelay, span: a.span) else { return nil }
        let endDelayExpr: TypedExpr? = endDelay.map {
            switch $0 {
            case .literal(let t, let s): TypedExpr(.constant(.time(t)), .time, s)
            case .checked(let t): t
            }
        }
        return TweenSpec(timing: timing, easing: easing, writes: writes, from: from, span: a.span, fill: fill, endDelay: endDelayExpr)
    }

    /// A part of a tween's timing as checked: the value of a literal, read without building a
    /// checked expression (the usual case), or the checked expression.
    enum TimingPart<Value> {
        case literal(Value, Span)
        case checked(TypedExpr)

        /// The value, when it is a constant.
        var constant: Value? {
            switch self {
            case .literal(let v, _): v
            case .checked(let t): t.constantValue.flatMap(TimingPart.value(of:))
            }
        }

        /// The value of a part the checker folded to a constant.

        /// Where it is written.
        var span: Span {
            switch self {
            case .literal(_, let s): s
            case .checked(let t): t.span
            }
        }

        static func value(of v: AnimCore.Value) -> Value? {
            switch v {
            case .time(let t): t as? Value
            case .number(let n): n as? Value
            default: nil
            }
        }
    }

    /// Checks a time part of a tween's timing (its duration or delay): its literal's value,
    /// else the expression checked as a time.
    mutating func timePart(_ e: ExprID) -> TimingPart<Time>? {
        if let t = literalTime(e) { return .literal(t, tree.span(e)) }
        return checkAs(e, .time).map { .checked($0) }
    }

    /// Checks a number part of a tween's timing (its repeat count or speed): its literal's
    /// value, else the expression checked as a number.
    mutating func numberPart(_ e: ExprID) -> TimingPart<Double>? {
        if let n = literalNumber(e) { return .literal(n, tree.span(e)) }
        return checkAs(e, .number).map { .checked($0) }
    }

    /// The timing of a tween whose parts all check: decided now when they are constants
    /// (reporting what `TweenTiming.validated` rejects, at the part it is about), else left to
    /// the interpreter to compute when the tween starts.
    mutating func decideTiming(duration: TimingPart<Time>, iterations: TimingPart<Double>?, forever: Bool, yoyo: Bool,
                               speed: TimingPart<Double>?, delay: TimingPart<Time>?, direction: PlaybackDirection? = nil,
                               iterationStart: TimingPart<Double>? = nil, repeatDelay: TimingPart<Time>? = nil,
                               span: Span) -> TimingSource? {
        func expr(_ p: TimingPart<Time>) -> TypedExpr {
            switch p {
            case .literal(let t, let s): TypedExpr(.constant(.time(t)), .time, s)
            case .checked(let t): t
            }
        }
        func expr(_ p: TimingPart<Double>) -> TypedExpr {
            switch p {
            case .literal(let n, let s): TypedExpr(.constant(.number(n)), .number, s)
            case .checked(let t): t
            }
        }
        var computed: TimingSource {
            .computed(ComputedTiming(duration: expr(duration), iterations: iterations.map(expr), forever: forever, yoyo: yoyo,
                                     speed: speed.map(expr), delay: delay.map(expr), direction: direction,
                                     iterationStart: iterationStart.map(expr), repeatDelay: repeatDelay.map(expr)))
        }
        guard let d = duration.constant else { return computed }
        var n: Double? = 1
        if forever { n = nil } else if let p = iterations {
            guard let x = p.constant else { return computed }
            n = x
        }
        var rate = 1.0
        if let p = speed {
            guard let x = p.constant else { return computed }
            rate = x
        }
        var delayTime: Time?
        if let p = delay {
            guard let x = p.constant else { return computed }
            delayTime = x
        }
        var start = 0.0
        if let p = iterationStart {
            guard let x = p.constant else { return computed }
            start = x
        }
        var pause = Time.zero
        if let p = repeatDelay {
            guard let x = p.constant else { return computed }
            pause = x
        }
        do throws(TimingError) {
            // A tween's delay may be negative: it starts part-way (Web Animations).
            let timing = try TweenTiming.validated(duration: d, iterations: n, alternate: yoyo, rate: rate,
                                                   direction: direction, iterationStart: start, repeatDelay: pause)
            return .constant(timing, delay: delayTime)
        } catch {
            let at: Span? = switch error.part {
            case .duration: duration.span
            case .delay: delay?.span
            case .iterations: iterations?.span
            case .speed: speed?.span
            case .iterationStart: iterationStart?.span
            case .repeatDelay: repeatDelay?.span
            case .whole: span
            }
            self.error(.timing(error), at: at ?? span)
            return nil
        }
    }

    /// The text of a span without whitespace (`card[ i ].x` and `card[i].x` are one target).
    func compactText(_ span: Span) -> String {
        guard span.source == tree.file.id else { return text(span).filter { !$0.isWhitespace } }
        let bytes = tree.file.bytes[Int(span.start)..<min(Int(span.end), tree.file.bytes.count)]
        // ASCII text: the whitespace Characters are exactly the bytes 0x09–0x0D and 0x20.
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text(span).filter { !$0.isWhitespace } }
        return String(decoding: bytes.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }, as: UTF8.self)
    }

    /// Resolves `ease E`; an error points at the argument at fault when there is one.
    mutating func resolveEasing(_ e: EasingSyntax) -> Easing? {
        guard let written = e.arguments else {
            // A script writes the same easing again and again: the last one, known by its bytes.
            if let last = lastEasing, last.file === tree.file, sameBytes(last.span, e.nameSpan) { return last.easing }
            let nameID = name(e.nameSpan)
            var easing = easingsByName.first(where: { $0.name == nameID })?.easing
            if easing == nil {
                easing = resolveEasing(e, name: nameID, arguments: nil)
                if let easing { easingsByName.append((nameID, easing)) }
            }
            if let easing { lastEasing = (tree.file, e.nameSpan, easing) }
            return easing
        }
        let nameID = name(e.nameSpan)
        let args = easingArguments(written).map(\.argument)
        let key = ResolvedEasingKey(name: nameID, arguments: args)
        if let known = resolvedEasings[key] { return known }
        let easing = resolveEasing(e, name: nameID, arguments: args)
        if let easing { resolvedEasings[key] = easing }
        return easing
    }

    /// An easing's arguments as `Easing.resolve` takes them (`SyntaxTree.easingArguments`).
    func easingArguments(_ written: SyntaxList<EasingArgumentID>) -> [(argument: EasingArgument, span: Span)] {
        tree.easingArguments(written)
    }

    /// Whether two spans of the tree being read hold the same bytes.
    func sameBytes(_ a: Span, _ b: Span) -> Bool {
        let n = Int(a.end &- a.start)
        guard n == Int(b.end &- b.start) else { return false }
        return tree.file.bytes.withUnsafeBufferPointer { p in
            var i = 0
            while i < n, p[Int(a.start) &+ i] == p[Int(b.start) &+ i] { i &+= 1 }
            return i == n
        }
    }

    /// Resolves an easing that is not known yet, reporting why when it does not resolve.
    mutating func resolveEasing(_ e: EasingSyntax, name nameID: NameID, arguments args: [EasingArgument]?) -> Easing? {
        let name = env.names[nameID]
        switch Easing.resolve(name: name, arguments: args) {
        case .success(let easing):
            return easing
        case .failure(var err):
            var span = e.span
            var help: String?, notes: [String] = []
            if case .unknown(let name, _) = err {
                span = e.nameSpan
                // Another library's name (`power2.out`, `easeInOut`): the anim one.
                if let anim = ForeignNames.easing(name) {
                    err = .unknown(name, suggestion: anim)
                    if ForeignNames.usesPowerNames(name) { help = CheckError.gsapPowerNames }
                    if anim == "back-in-out", e.arguments != nil { notes.append(CheckError.gsapBackNote) }
                }
            }
            if let i = err.argumentIndex, let written = e.arguments {
                let args = easingArguments(written)
                if i < args.count { span = args[i].span }
            }
            diagnostics.error(CheckError.easing(err).message, at: span, notes: notes, help: help)
            return nil
        }
    }

    mutating func checkExpect(_ e: ExpectStep) -> ExpectSpec? {
        guard var l = check(e.lhs) else { return nil }
        guard var r = check(e.rhs) else { return nil }
        if !coerceComparable(&l, &r) {
            var d = Diagnostic.error(CheckError.incomparableKinds(l.kind, r.kind).message, at: tree.span(e.rhs))
            d.secondary.append(.init(span: tree.span(e.lhs), text: l.kind.withArticle))
            diagnostics.report(d)
            return nil
        }
        if e.op == .lessEqual || e.op == .greaterEqual {
            guard l.kind == .number || l.kind == .time || l.kind == .angle else {
                // Only points have components to compare instead.
                error(.comparisonKind(e.op, l.kind), at: e.span)
                return nil
            }
        }
        var tol: TypedExpr?
        if let t = e.tolerance {
            guard let c = check(t) else { return nil }
            guard c.kind == .number || c.kind == l.kind && (c.kind == .time || c.kind == .angle) else {
                error(.kindMismatch(expected: CheckError.Expected.number, got: c.kind), at: tree.span(t))
                return nil
            }
            tol = c
        }
        return ExpectSpec(lhs: l, op: e.op, rhs: r, tolerance: tol, lhsText: text(tree.span(e.lhs)), span: e.span)
    }
}

extension Checker {
    /// Whether a `repeat while` condition is sure to keep its value over passes that take no
    /// time: it reads no property, no random draw or velocity, and not the pass index (a `let`
    /// cannot change while the clock stands still).
    static func neverChanges(_ e: TypedExpr, passVariable: Int?) -> Bool {
        switch e.node {
        case .constant, .shape: return true
        case .property: return false
        case .variable(.local(let slot)): return slot != passVariable
        case .variable(.global): return true
        case .call(let f, let args):
            if f == .random || f == .velocity { return false }
            return args.allSatisfy { neverChanges($0, passVariable: passVariable) }
        case .negate(let a), .not(let a), .component(let a, _), .convert(let a, _):
            return neverChanges(a, passVariable: passVariable)
        case .binary(_, let a, let b), .compare(_, let a, let b), .logical(_, let a, let b), .pair(let a, let b), .index(let a, let b):
            return neverChanges(a, passVariable: passVariable) && neverChanges(b, passVariable: passVariable)
        case .list(let xs): return xs.allSatisfy { neverChanges($0, passVariable: passVariable) }
        case .interpolation(let parts):
            return parts.allSatisfy { if case .value(let v) = $0 { neverChanges(v, passVariable: passVariable) } else { true } }
        }
    }

    /// Whether chains surely take no time: only instant actions, in blocks, `if`s, `any`s,
    /// `choose`s and repeats of them (a tween, spring, wait, stagger, play or `after`/`with`
    /// may take time, so it is not counted as instant).
    static func isInstant(_ chains: [CheckedChain]) -> Bool {
        chains.allSatisfy { c in
            c.steps.allSatisfy { s in
                switch s {
                case .action: true
                case .parallel(let b, _), .select(_, let b, _): isInstant(b)
                case .conditional(let branches, _): branches.allSatisfy { isInstant($0.body) }
                case .repeat(_, let yoyo, let b, _, let delay, let loop):
                    !yoyo && loop?.condition == nil && (delay == nil || delay?.constantValue == .time(.zero)) && isInstant(b)
                default: false
                }
            }
        }
    }
}
