// Checker+Steps: chains, blocks and steps — property writes, tween options, expectations.

extension Checker {
    /// Checks a chain; registers its `as` name.
    mutating func checkChain(_ chain: Chain) -> CheckedChain? {
        var steps: [CheckedStep] = []
        steps.reserveCapacity(chain.steps.count)
        var ok = true
        for s in chain.steps {
            if let c = checkStep(s) { steps.append(c) } else { ok = false }
        }
        var name: StepNameID?
        if let n = chain.name {
            if case .stepName(let id)? = env.symbols[n.name], env.stepNameSpans[id.index] == n.span {
                // The same `as` in a define body, checked again for another signature.
                name = id
            } else if let existing = env.symbols[n.name] {
                if case .stepName = existing { error(.duplicateStepName(n.name), at: n.span) } else {
                    error(.alreadyDeclared(n.name, what: describe(existing)), at: n.span)
                }
                ok = false
            } else {
                let id = StepNameID(index: env.stepNames.count)
                env.stepNames.append(n.name)
                env.stepNameSpans.append(n.span)
                env.symbols[n.name] = .stepName(id)
                name = id
            }
        }
        guard ok else { return nil }
        return CheckedChain(steps: steps, name: name, span: chain.span)
    }

    mutating func checkBlock(_ b: Block) -> [CheckedChain]? {
        var chains: [CheckedChain] = []
        var ok = true
        for c in b.chains {
            if let x = checkChain(c) { chains.append(x) } else { ok = false }
        }
        return ok ? chains : nil
    }

    mutating func checkStep(_ step: Step) -> CheckedStep? {
        switch step {
        case .animate(let a): return checkAnimate(a).map { .tween($0) }
        case .spring(let s): return checkSpring(s)
        case .wait(let w):
            guard let arg = w.argument else { error(.waitNeedsDuration, at: w.span); return nil }
            if case .name(let id) = arg, case .stepName? = env.symbols[id.name] {
                error(.waitNameInChain(id.name), at: w.span, help: "use 'after \(id.name) < ... >' to start steps when it ends")
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
        case .repeat(let r):
            var count: TypedExpr?
            if let c = r.count {
                guard let t = checkAs(c, .number) else { return nil }
                if case .constant(.number(let n)) = t.node, !(n >= 0 && n == n.rounded()) {
                    diagnostics.error("a repeat count must be a whole number of at least 0, not \(formatNumber(n))", at: c.span)
                    return nil
                }
                count = t
            }
            guard let body = checkBlock(r.body) else { return nil }
            return .repeat(count: count, yoyo: r.yoyo, body: body, span: r.span)
        case .stagger(let s): return checkStagger(s)
        case .play(let p): return checkPlay(p)
        case .relative(let r): return checkRelative(r)
        case .control(let c): return checkControl(c)
        }
    }

    /// Checks `target op value` where target is `shape.property`.
    mutating func checkWrite(_ a: Assignment, animating: Bool) -> PropertyWrite? {
        guard case .member(let m) = a.target else {
            error(.notAProperty(text(a.target.span)), at: a.target.span,
                  help: "write 'shape.property', as in 'square.center'")
            return nil
        }
        guard let base = check(m.base) else { return nil }
        guard base.kind == .shape else {
            if base.kind == .point, m.member.name == "x" || m.member.name == "y" {
                diagnostics.error("cannot write one component of a point", at: a.target.span,
                                  help: "write the whole point, as in '\(text(m.base.span)) = (x, y)'")
            } else {
                error(.notAShape(text(m.base.span), kind: base.kind), at: m.base.span)
            }
            return nil
        }
        guard let (ref, cands) = shapeRef(base, writtenAt: m.base.span),
              let (prop, kind) = property(m.member.name, of: cands, baseWrittenAt: m.base.span, at: m.member.span, writing: true)
        else { return nil }
        if animating && !kind.isInterpolable {
            let propText = text(a.target.span)
            error(.cannotAnimate(propText, kind), at: a.target.span, help: "use 'set \(propText) = ...' to change it at once")
            return nil
        }
        if a.op != .assign && !(kind == .number || kind == .time || kind == .angle || kind == .point) {
            error(.relativeKind(a.op, kind), at: a.span)
            return nil
        }
        let scaleLike = prop == BuiltinProperty.scale.id
        if let frames = a.keyframes {
            guard animating else {
                diagnostics.error("keyframes need a tween: 'set' changes a property at once", at: a.value.span)
                return nil
            }
            return checkKeyframes(a, frames, shape: ref, property: prop, kind: kind, scaleLike: scaleLike)
        }
        guard let value = checkAs(a.value, kind, scaleLike: scaleLike) else { return nil }
        return PropertyWrite(shape: ref, property: prop, op: a.op, value: value, kind: kind, span: a.span)
    }

    mutating func checkAnimate(_ a: AnimateStep) -> TweenSpec? {
        var ok = true
        let duration = checkAs(a.duration, .time)
        ok = ok && duration != nil
        let spec = TweenSpec(duration: duration ?? TypedExpr(.constant(.time(.zero)), .time, a.span), span: a.span)
        var fromExpr: Expr?
        var seenOptions: [String] = []  // at most six: a list beats hashing
        for o in a.options {
            let key: String
            switch o {
            case .delay(let e, _):
                key = "delay"
                spec.delay = checkAs(e, .time); ok = ok && spec.delay != nil
            case .ease(let e, _):
                key = "ease"
                if let easing = resolveEasing(e) { spec.easing = easing } else { ok = false }
            case .repeat(let e, _):
                key = "repeat"
                if let e {
                    spec.iterations = checkAs(e, .number); ok = ok && spec.iterations != nil
                    if case .constant(.number(let n))? = spec.iterations?.node, !(n >= 0) {
                        diagnostics.error("a repeat count must be 0 or more, not \(formatNumber(n))", at: e.span); ok = false
                    }
                } else { spec.forever = true }
            case .yoyo:
                key = "yoyo"; spec.yoyo = true
            case .speed(let e, _):
                key = "speed"
                spec.speed = checkAs(e, .number); ok = ok && spec.speed != nil
                if case .constant(.number(let r))? = spec.speed?.node, !(r > 0) {
                    diagnostics.error("speed must be greater than 0, not \(formatNumber(r))", at: e.span); ok = false
                }
            case .from(let e, _):
                key = "from"; fromExpr = e
            }
            if seenOptions.contains(key) {
                diagnostics.error("option '\(key)' is given twice", at: o.span); ok = false
            }
            seenOptions.append(key)
        }
        var seen: [String: Span] = [:]
        for asg in a.assignments {
            guard let w = checkWrite(asg, animating: true) else { ok = false; continue }
            spec.writes.append(w)
            guard a.assignments.count > 1 else { continue }  // one write cannot be written twice
            let key = compactText(asg.target.span)
            if let prev = seen[key] {
                var d = Diagnostic.error(CheckError.writtenTwice(key).message, at: asg.target.span)
                d.secondary.append(.init(span: prev, text: "first written here"))
                diagnostics.report(d)
                ok = false
            }
            seen[key] = asg.target.span
        }
        if let fe = fromExpr, ok {
            var froms: [TypedExpr] = []
            for w in spec.writes {
                guard let t = check(fe) else { ok = false; break }
                let scaleLike = w.property == BuiltinProperty.scale.id
                if t.kind != w.kind && !(t.kind == .number && (w.kind == .time || w.kind == .angle || scaleLike && w.kind == .point)) {
                    error(.fromKind(t.kind, property: env.propertyNames[Int(w.property.raw)], propertyKind: w.kind), at: fe.span)
                    ok = false; break
                }
                guard let c = checkAs(fe, w.kind, scaleLike: scaleLike) else { ok = false; break }
                froms.append(c)
            }
            spec.from = froms
        }
        return ok ? spec : nil
    }

    /// The text of a span without whitespace (`card[ i ].x` and `card[i].x` are one target).
    func compactText(_ span: Span) -> String {
        guard span.source == file.id else { return text(span).filter { !$0.isWhitespace } }
        let bytes = file.bytes[Int(span.start)..<min(Int(span.end), file.bytes.count)]
        // ASCII text: the whitespace Characters are exactly the bytes 0x09–0x0D and 0x20.
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text(span).filter { !$0.isWhitespace } }
        return String(decoding: bytes.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }, as: UTF8.self)
    }

    /// Resolves `ease E`; an error points at the argument at fault when there is one.
    mutating func resolveEasing(_ e: EasingSyntax) -> Easing? {
        let args = e.arguments?.map { a -> EasingArgument in
            switch a {
            case .number(let d, _): .number(d)
            case .word(let w, _): .word(w)
            }
        }
        let key = ResolvedEasingKey(name: e.name, arguments: args)
        if let known = resolvedEasings[key] { return known }
        switch Easing.resolve(name: e.name, arguments: args) {
        case .success(let easing):
            resolvedEasings[key] = easing
            return easing
        case .failure(var err):
            var span = e.span
            var help: String?, notes: [String] = []
            if case .unknown(let name, _) = err {
                span = e.nameSpan
                // Another library's name (`power2.out`, `easeInOut`): the anim one.
                if let anim = ForeignNames.easing(name) {
                    err = .unknown(name, suggestion: anim)
                    if ForeignNames.usesPowerNames(name) {
                        help = "GSAP's power0 is anim's linear, and power1 to power4 are quad, cubic, quart and quint"
                    }
                    if anim == "back-in-out", e.arguments != nil {
                        notes.append("GSAP's back.inOut(s) is anim's back-in-out(s / 1.525)")
                    }
                }
            }
            if let i = err.argumentIndex, let written = e.arguments, i < written.count {
                switch written[i] {
                case .number(_, let s), .word(_, let s): span = s
                }
            }
            diagnostics.error(CheckError.easing(err).message, at: span, notes: notes, help: help)
            return nil
        }
    }

    mutating func checkExpect(_ e: ExpectStep) -> ExpectSpec? {
        guard var l = check(e.lhs) else { return nil }
        guard var r = check(e.rhs) else { return nil }
        // Numbers meet times and angles as seconds and degrees, and points as (n, n).
        if l.kind != r.kind {
            if r.kind == .number, l.kind == .time || l.kind == .angle || l.kind == .point, let x = coerce(r, to: l.kind, scaleLike: true) {
                r = x
            } else if l.kind == .number, r.kind == .time || r.kind == .angle || r.kind == .point,
                      let x = coerce(l, to: r.kind, scaleLike: true) {
                l = x
            } else {
                var d = Diagnostic.error("cannot compare \(l.kind.withArticle) with \(r.kind.withArticle)", at: e.rhs.span)
                d.secondary.append(.init(span: e.lhs.span, text: l.kind.withArticle))
                diagnostics.report(d)
                return nil
            }
        }
        if e.op == .lessEqual || e.op == .greaterEqual {
            guard l.kind == .number || l.kind == .time || l.kind == .angle else {
                // Only points have components to compare instead.
                error(.comparisonKind(e.op, l.kind), at: e.span,
                      help: l.kind == .point ? "compare components, as in 'p.x <= 10'" : nil)
                return nil
            }
        }
        var tol: TypedExpr?
        if let t = e.tolerance {
            guard let c = check(t) else { return nil }
            guard c.kind == .number || c.kind == l.kind && (c.kind == .time || c.kind == .angle) else {
                error(.kindMismatch(expected: "a number", got: c.kind), at: t.span)
                return nil
            }
            tol = c
        }
        return ExpectSpec(lhs: l, op: e.op, rhs: r, tolerance: tol, lhsText: text(e.lhs.span), span: e.span)
    }
}
