// Checker+Composition: steps that compose other steps — `stagger`, `define`/`play` (checked
// per signature of argument kinds, like a template), `after`/`with`, control of named steps,
// `save`/`restore`, and `on change` observers.

extension Checker {
    // MARK: - define / play

    /// `define NAME(params) = chain`: recorded with its own copy of the statement's tree; its
    /// body is checked when played.
    mutating func checkDefine(_ d: DefineStmt, statement: StmtID) -> CheckedStmt? {
        let id = name(d.name)
        if env.preludeNames.remove(id) != nil {
            env.symbols[id] = nil
        } else if let existing = env.symbols[id] {
            error(.alreadyDeclared(text(d.name), what: describe(existing)), at: d.name.span)
            return nil
        }
        var parameters: [NameID] = []
        for p in tree[d.parameters] {
            let param = tree[p]
            let pid = name(param)
            if parameters.contains(pid) {
                error(.parameterGivenTwice(text(param)), at: param.span)
                failedNames.insert(id)
                return nil
            }
            parameters.append(pid)
        }
        // Names in the body must exist: parameters, locals it binds, or top-level names.
        var ok = true
        checkFreeNames(in: d.body, bound: parameters, ok: &ok)
        guard ok else { failedNames.insert(id); return nil }
        env.defines[id] = DefineInfo(name: text(d.name), parameters: parameters, tree: tree.subtree(of: statement), body: d.body,
                                     span: d.span, fromPrelude: isPrelude)
        env.symbols[id] = .define(text(d.name))
        env.files[file.id] = file
        return .declaration(d.span)
    }

    /// `play NAME(args) [reversed] [speed R]`.
    mutating func checkPlay(_ p: PlayStep) -> CheckedStep? {
        let defineName = name(p.name)
        guard let def = env.defines[defineName] else {
            if failedNames.contains(defineName) { return nil }  // the define's own error is reported
            if let sym = env.symbols[defineName] {
                error(.alreadyDeclared(text(p.name), what: describe(sym)), at: p.name.span)
            } else {
                let names = env.defineNames
                error(.unknownSequence(text(p.name), suggestion: DidYouMean.suggest(text(p.name), from: names), noneDefined: names.isEmpty),
                      at: p.name.span)
            }
            return nil
        }
        let arguments = tree[p.arguments]
        guard arguments.count == def.parameters.count else {
            let defined = def.tree.text(def.span.prefixLine(of: def.tree.file))
            diagnostics.error(CheckError.argumentCount(def.name, parameters: def.parameters.count, arguments: arguments.count).message,
                              at: p.span, notes: [CheckError.definedAs(def.name, defined)])
            return nil
        }
        // One entry per argument: reserved, so neither array grows one argument at a time.
        var args: [TypedExpr] = []
        var signature: [ArgumentSignature] = []
        args.reserveCapacity(arguments.count)
        signature.reserveCapacity(arguments.count)
        for a in arguments {
            guard let t = check(a) else { return nil }
            var cands: [ShapeID] = []
            if t.kind == .shape, let (_, c) = shapeRef(t, writtenAt: tree.span(a)) { cands = c }
            if case .list(.shape) = t.kind { cands = shapeCandidates(ofList: t) }
            args.append(t)
            signature.append(ArgumentSignature(kind: t.kind, candidates: cands))
        }
        var speed: TypedExpr?
        if let s = p.speed {
            speed = checkAs(s, .number)
            if speed == nil { return nil }
            if case .constant(.number(let r))? = speed?.node {
                do throws(TimingError) { _ = try TweenTiming.validated(rate: r) } catch {
                    self.error(.timing(error), at: tree.span(s))
                    return nil
                }
            }
        }
        guard let id = instantiate(def, name: defineName, signature: signature, at: p.span) else { return nil }
        return .play(PlaySpec(instantiation: id, name: def.name, arguments: args, reversed: p.reversed, speed: speed, span: p.span))
    }

    /// The instantiation of a define for a signature, checking its body the first time (in the
    /// define's tree). The graph is built by GraphBuilder from the checked body.
    mutating func instantiate(_ def: DefineInfo, name: NameID, signature: [ArgumentSignature], at call: Span) -> Int? {
        let key = InstantiationKey(name: name, define: def.span, arguments: signature)
        if let id = env.instantiationIndex[key] { return id }
        let (sharedKey, shapes) = sharingKey(name: name, define: def.span, signature: signature)
        if let sharedKey, declaredPaints.isEmpty, let candidates = env.sharedInstantiations[sharedKey],
           let shared = candidates.first(where: { $0.defineSpan == def.span && alike($0.shapes, shapes) }) {
            return shared.id
        }
        guard env.instantiations.count < Checker.maxInstantiations else {
            error(.tooManyInstantiations(Checker.maxInstantiations), at: call)
            return nil
        }
        let id = env.instantiations.count
        env.instantiations.append(CheckedInstantiation(name: def.name, body: nil, localCount: 0))
        env.instantiationIndex[key] = id
        // Check the body in a fresh scope whose first locals are the parameters.
        let saved = (locals, scopeStarts, localCount, tree)
        locals = []
        scopeStarts = []
        localCount = 0
        tree = def.tree
        pushScope()
        for (p, sig) in zip(def.parameters, signature) {
            _ = newLocal(p, kind: sig.kind, candidates: sig.candidates)
        }
        // Counted by the bag's length, not `errorCount` (which filters the whole bag into an
        // array per call): only the diagnostics this body adds are looked at.
        let diagnosticsBefore = diagnostics.all.count
        let fontFamiliesBefore = fontFamilies.count, paintTweensBefore = paintTweens.count
        let body = checkChain(def.body)
        let bodyLocals = localCount
        (locals, scopeStarts, localCount, tree) = saved
        let added = diagnostics.all[diagnosticsBefore...]
        if added.contains(where: { $0.severity == .error }) {
            // The call's text is made only for the note (the tree is the caller's again).
            let callText = text(call)
            diagnostics.amendLast { $0.notes.append(CheckError.inDefine(def.name, playedBy: callText)) }
        }
        guard let chain = body else {
            env.instantiationIndex[key] = nil
            return nil
        }
        env.instantiations[id].body = chain
        env.instantiations[id].localCount = bodyLocals
        if let sharedKey, added.isEmpty, fontFamilies.count == fontFamiliesBefore, paintTweens.count == paintTweensBefore,
           declaredPaints.isEmpty {
            // One entry per kind of shape met (a script's rects and circles): a short list.
            env.sharedInstantiations[sharedKey, default: []].append(SharedInstantiation(id: id, shapes: shapes, defineSpan: def.span))
        }
        return id
    }

    /// The key under which an instantiation may be shared (`SharedInstantiation`): the
    /// signature with each argument that is one known shape written without it, and those
    /// shapes by argument; nil when no argument is one shape (the exact key is the only one).
    func sharingKey(name: NameID, define: Span, signature: [ArgumentSignature]) -> (InstantiationKey?, [ShapeID?]) {
        guard signature.contains(where: { $0.kind == .shape && $0.candidates.count == 1 }) else { return (nil, []) }
        var arguments = signature
        var shapes: [ShapeID?] = []
        shapes.reserveCapacity(signature.count)
        for i in arguments.indices {
            if arguments[i].kind == .shape, arguments[i].candidates.count == 1 {
                shapes.append(arguments[i].candidates[0])
                arguments[i].candidates = []
            } else {
                shapes.append(nil)
            }
        }
        return (InstantiationKey(name: name, define: define, arguments: arguments), shapes)
    }

    /// Whether two arguments' shapes are alike for the checker, argument by argument: both
    /// left in the key (nil), or shapes of the same kind with the same custom properties.
    func alike(_ a: [ShapeID?], _ b: [ShapeID?]) -> Bool {
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (nil, nil): continue
            case (let x?, let y?):
                if x == y { continue }
                let p = env.shapes[Int(x.index)], q = env.shapes[Int(y.index)]
                guard p.kind == q.kind, p.custom == q.custom else { return false }
            default: return false
            }
        }
        return true
    }

    /// The most instantiations of defines one session may create (each is a checked copy).
    public static let maxInstantiations = 10_000

    /// The shapes a list-of-shapes expression can contain.
    func shapeCandidates(ofList t: TypedExpr) -> [ShapeID] {
        if case .constant(.list(let vs)) = t.node {
            return vs.compactMap { if case .shape(let s) = $0 { return s } else { return nil } }
        }
        if case .variable(.local(let slot)) = t.node {
            return local(inSlot: slot)?.candidates ?? []
        }
        return []
    }

    /// Reports names in a define body that are neither bound nor declared.
    mutating func checkFreeNames(in chain: ChainID, bound: [NameID], ok: inout Bool) {
        var bound = bound
        checkFreeNames(chain: chain, bound: &bound, ok: &ok)
    }

    private mutating func checkFreeNames(chain id: ChainID, bound: inout [NameID], ok: inout Bool) {
        for s in tree[tree[id].steps] {
            switch tree[s] {
            case .animate(let a):
                freeNames(a.duration, bound, &ok); freeNames(a.assignments, bound, &ok)
            case .spring(let sp):
                for p in tree[sp.parameters] { freeNames(tree[p].value, bound, &ok) }
                freeNames(sp.assignments, bound, &ok)
            case .wait(let w): if let e = w.argument { freeNames(e, bound, &ok) }
            case .print(let p): freeNames(p.value, bound, &ok)
            case .set(let st): freeNames(assignment: st.assignment, bound, &ok)
            case .expect(let x):
                freeNames(x.lhs, bound, &ok); freeNames(x.rhs, bound, &ok)
                if let t = x.tolerance { freeNames(t, bound, &ok) }
            case .block(let b): freeNames(block: b, &bound, &ok)
            case .select(let s):
                freeNames(block: s.body, &bound, &ok)
            case .conditional(let c):
                for (condition, body) in c.branches {
                    if let e = condition { freeNames(e, bound, &ok) }
                    freeNames(block: body, &bound, &ok)
                }
            case .repeat(let r):
                if let c = r.count { freeNames(c, bound, &ok) }
                if let d = r.repeatDelay { freeNames(d, bound, &ok) }
                if let v = r.passVariable { bound.append(name(v)) }
                if let c = r.condition { freeNames(c, bound, &ok) }
                freeNames(block: r.body, &bound, &ok)
                if r.passVariable != nil { bound.removeLast() }
            case .stagger(let st):
                freeNames(st.interval, bound, &ok); freeNames(st.sequence, bound, &ok)
                bound.append(name(st.variable))
                freeNames(block: st.body, &bound, &ok)
                bound.removeLast()
            case .play(let p): for a in tree[p.arguments] { freeNames(a, bound, &ok) }
            case .relative(let r):
                if let o = r.offset { freeNames(o, bound, &ok) }
                freeNames(block: r.body, &bound, &ok)
            case .control(let c):
                if c.verb == .save || c.verb == .restore || (c.verb == .interrupt && !namesStep(c.target)) {
                    freeNames(c.target, bound, &ok)
                }
                if let t = c.time { freeNames(t, bound, &ok) }
            }
        }
    }

    private mutating func freeNames(block b: Block, _ bound: inout [NameID], _ ok: inout Bool) {
        for c in tree[b.chains] { checkFreeNames(chain: c, bound: &bound, ok: &ok) }
    }

    private mutating func freeNames(_ list: SyntaxList<AssignmentID>, _ bound: [NameID], _ ok: inout Bool) {
        for a in tree[list] { freeNames(assignment: a, bound, &ok) }
    }

    private mutating func freeNames(assignment id: AssignmentID, _ bound: [NameID], _ ok: inout Bool) {
        let a = tree[id]
        freeNames(a.target, bound, &ok)
        freeNames(a.value, bound, &ok)
        if let frames = a.keyframes {
            for k in tree[frames] { if let o = tree[k].offset { freeNames(o, bound, &ok) } }
        }
    }

    private mutating func freeNames(_ e: ExprID, _ bound: [NameID], _ ok: inout Bool) {
        switch tree[e] {
        case .name(let id):
            let n = name(id)
            if !bound.contains(n), env.symbols[n] == nil, Color.named(text(id)) == nil {
                if !failedNames.contains(n) {
                    reportUnknownName(id, candidates: (bound.map { env.names[$0] } + env.allNames).sorted())
                }
                ok = false
            }
        case .member(let m): freeNames(m.base, bound, &ok)
        case .index(let i): freeNames(i.base, bound, &ok); freeNames(i.index, bound, &ok)
        case .call(let c): for a in tree[c.arguments] { freeNames(a, bound, &ok) }
        case .pair(let p): freeNames(p.x, bound, &ok); freeNames(p.y, bound, &ok)
        case .list(let l): for x in tree[l.elements] { freeNames(x, bound, &ok) }
        case .unary(let u): freeNames(u.operand, bound, &ok)
        case .binary(let b): freeNames(b.lhs, bound, &ok); freeNames(b.rhs, bound, &ok)
        case .not(let n): freeNames(n.operand, bound, &ok)
        case .string(let s):
            for part in tree.parts(of: s) { if case .interpolation(let x) = part { freeNames(x, bound, &ok) } }
        case .number, .color, .bool: break
        }
    }

    // MARK: - stagger

    /// `stagger D [from ORDER] for NAME in SHAPES < body >`.
    mutating func checkStagger(_ s: StaggerStep) -> CheckedStep? {
        guard let interval = checkAs(s.interval, .time) else { return nil }
        var order = StaggerOrder.start
        if let o = s.order {
            guard let x = StaggerOrder(rawValue: text(o)) else {
                error(.unknownStaggerOrder(text(o), suggestion: DidYouMean.suggest(text(o), from: StaggerOrder.allCases.map(\.rawValue))),
                      at: o.span)
                return nil
            }
            order = x
        }
        guard let members = check(s.sequence) else { return nil }
        guard case .list(let element) = members.kind, element == .shape || element == .empty else {
            error(.staggerOverNonShapes(members.kind), at: tree.span(s.sequence))
            return nil
        }
        var fromIndex: TypedExpr?, easing: Easing?, grid: StaggerGrid?
        if let f = s.fromIndex { guard let x = checkAs(f, .number) else { return nil }; fromIndex = x }
        if let e = s.ease { guard let x = resolveEasing(tree[e]) else { return nil }; easing = x }
        if let r = s.gridRows, let c = s.gridColumns {
            guard let rows = checkAs(r, .number), let columns = checkAs(c, .number) else { return nil }
            var axis: StaggerAxis?
            if let a = s.axis {
                guard let x = StaggerAxis(rawValue: text(a)) else {
                    error(.unknownStaggerAxis(text(a), suggestion: DidYouMean.suggest(text(a), from: StaggerAxis.allCases.map(\.rawValue))),
                          at: a.span)
                    return nil
                }
                axis = x
            }
            grid = StaggerGrid(rows: rows, columns: columns, axis: axis)
        } else if let a = s.axis {
            error(.staggerAxisWithoutGrid, at: a.span)
            return nil
        }
        if let k = s.index, text(k) == text(s.variable) {
            error(.staggerIndexSameName(text(k)), at: k.span)
            return nil
        }
        let candidates = shapeCandidates(ofList: members)
        pushScope()
        let slot = newLocal(name(s.variable), kind: .shape, candidates: candidates)
        let indexSlot = s.index.map { newLocal(name($0), kind: .number, candidates: []) }
        let body = checkBlock(s.body)
        popScope()
        guard let b = body else { return nil }
        var spec = StaggerSpec(interval: interval, order: order, variable: slot, members: members, span: s.span)
        spec.amount = s.amount
        spec.fromIndex = fromIndex
        spec.easing = easing
        spec.grid = grid
        spec.indexVariable = indexSlot
        return .stagger(spec, body: b)
    }

    // MARK: - after / with, control, save / restore

    /// Resolves a step name, with did-you-mean.
    mutating func stepName(_ id: Identifier) -> StepNameID? {
        let n = name(id)
        if case .stepName(let sid)? = env.symbols[n] { return sid }
        if let sym = env.symbols[n] {
            error(.notAStepName(text(id), what: describe(sym)), at: id.span)
        } else {
            error(.unknownStepName(text(id), suggestion: DidYouMean.suggest(text(id), from: env.stepNames), noneNamed: env.stepNames.isEmpty),
                  at: id.span)
        }
        return nil
    }

    mutating func checkRelative(_ r: RelativeStep) -> CheckedStep? {
        guard let name = stepName(r.target) else { return nil }
        var offset: TypedExpr?
        if let o = r.offset {
            guard var t = checkAs(o, .time) else { return nil }
            if r.negative, let v = t.constantValue, let n = try? ValueOps.negate(v, span: t.span) {
                t = TypedExpr(.constant(n), .time, t.span)
            } else if r.negative {
                t = TypedExpr(.negate(t), .time, t.span)
            }
            offset = t
        }
        guard let body = checkBlock(r.body) else { return nil }
        return .relative(RelativeSpec(anchor: r.anchor, name: name, nameText: text(r.target), offset: offset, subtracts: r.negative,
                                      span: r.span), body: body)
    }

    mutating func checkControl(_ c: ControlStep) -> CheckedStep? {
        switch c.verb {
        case .save, .restore:
            guard let (ref, _) = shapeRef(c.target) else { return nil }
            return .action(c.verb == .save ? .save(ref) : .restore(ref), c.span)
        case .interrupt where !namesStep(c.target):
            return checkInterruptShapes(c)
        case .pause, .resume, .seek, .reverse, .interrupt, .speed:
            guard case .name(let id) = tree[c.target] else {
                error(.controlNeedsStepName(c.verb), at: tree.span(c.target))
                return nil
            }
            guard let name = stepName(id) else { return nil }
            var time: TypedExpr?
            if let t = c.time, c.verb == .speed {
                // `speed NAME R`: a rate, a number greater than 0.
                guard let r = checkAs(t, .number) else { return nil }
                if case .constant(.number(let x)) = r.node, !(x > 0 && x.isFinite) {
                    error(.speedRate(x), at: r.span)
                    return nil
                }
                time = r
            } else if let t = c.time { time = checkAs(t, .time); if time == nil { return nil } }
            return .action(.control(ControlSpec(verb: c.verb, name: name, nameText: text(id), time: time, span: c.span)), c.span)
        }
    }

    /// Whether a control target is a bare name that names a step: the one namespace of
    /// top-level names (§4.7) keeps a step and a shape from sharing a name, and a local (a
    /// define's parameter, a stagger's variable) hides a step name, as it hides every
    /// top-level name.
    mutating func namesStep(_ e: ExprID) -> Bool {
        guard case .name(let id) = tree[e] else { return false }
        let n = name(id)
        guard lookupLocal(n) == nil else { return false }
        if case .stepName? = env.symbols[n] { return true }
        return false
    }

    /// `interrupt SHAPE`, `interrupt LIST` or `interrupt SHAPE.PROP` (GSAP `killTweensOf`).
    mutating func checkInterruptShapes(_ c: ControlStep) -> CheckedStep? {
        let written = text(tree.span(c.target))
        if case .name(let id) = tree[c.target], lookupLocal(name(id)) == nil, env.symbols[name(id)] == nil,
           Color.named(text(id)) == nil, text(id) != "pi", text(id) != "tau" {
            let candidates = env.stepNames + env.shapeNames
            error(.unknownInterruptTarget(text(id), suggestion: DidYouMean.suggest(text(id), from: candidates)), at: id.span)
            return nil
        }
        guard let t = check(c.target) else { return nil }
        let spec: InterruptSpec
        switch (t.node, t.kind) {
        case (.property(let ref, let p), _):
            spec = InterruptSpec(target: .shape(ref), property: p, text: written, span: c.span)
        case (.component(let point, let isX), _) where { if case .property = point.node { true } else { false } }():
            // `interrupt sq.center.x`: one component of a point property.
            guard case .property(let ref, let p) = point.node else { return nil }
            spec = InterruptSpec(target: .shape(ref), property: p.component(isX ? 0 : 1), text: written, span: c.span)
        case (_, .shape):
            guard let (ref, _) = shapeRef(t, writtenAt: tree.span(c.target)) else { return nil }
            spec = InterruptSpec(target: .shape(ref), property: nil, text: written, span: c.span)
        case (_, .list(.shape)), (_, .list(.empty)):
            spec = InterruptSpec(target: .shapes(t), property: nil, text: written, span: c.span)
        default:
            error(.interruptTarget(written, what: t.kind.withArticle), at: t.span)
            return nil
        }
        return .action(.interruptShapes(spec), c.span)
    }

    // MARK: - on change

    /// `on change PROP < body >`.
    mutating func checkObserver(_ o: OnChangeStmt) -> CheckedStmt? {
        guard let prop = check(o.property) else { return nil }
        // `on change sq.center.x` watches one component of a point property.
        var watched = prop.node
        if case .component(let point, _) = prop.node, case .property = point.node { watched = point.node }
        guard case .property = watched else {
            // `on change sq.center.x`: the whole point is what changes.
            var help: String?
            if case .component(let point, isX: let isX) = prop.node, case .property = point.node {
                let p = text(point.span)
                help = "watch the whole point, '\(p)', and read '\(p).\(isX ? "x" : "y")' in the body"
            }
            error(.observesNonProperty, at: tree.span(o.property), help: help)
            return nil
        }
        guard let body = checkBlockAsChain(o.body) else { return nil }
        return .observe(property: prop, body: body, localCount: localCount, span: o.span)
    }
}

extension Span {
    /// The span from this span's start to the end of its first line.
    func prefixLine(of file: SourceFile) -> Span {
        var e = Int(start)
        let bytes = file.bytes
        while e < bytes.count, e < Int(end), bytes[e] != 0x0A { e += 1 }
        return Span(source: source, start: Int(start), end: e)
    }
}
