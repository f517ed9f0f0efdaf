// Checker+Steps: chains, blocks and steps — `as` names, the step dispatch with `if`,
// `repeat` (count, `yoyo`, `while`/`for`, its one-instant loops), `wait`, `print`, `set`,
// blocks, `any`/`choose`, and `expect` (Grammar.md 2.4 "Steps", 6.7 to 6.9, 6.11 "as",
// 6.16 "if", 6.17 "any and choose", 8.1 "expect").

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
                delay = t.expr
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
