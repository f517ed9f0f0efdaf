// Checker+Composition: steps that compose other steps — `stagger`, `define`/`play` (checked
// per signature of argument kinds, like a template), `after`/`with`, control of named steps,
// `save`/`restore`, and `on change` observers.

extension Checker {
    // MARK: - define / play

    /// `define NAME(params) = chain`: recorded; its body is checked when played.
    mutating func checkDefine(_ d: DefineStmt) -> CheckedStmt? {
        if env.preludeNames.remove(d.name.name) != nil {
            env.symbols[d.name.name] = nil
        } else if let existing = env.symbols[d.name.name] {
            error(.alreadyDeclared(d.name.name, what: describe(existing)), at: d.name.span)
            return nil
        }
        var seen: Set<String> = []
        for p in d.parameters where !seen.insert(p.name).inserted {
            diagnostics.error("parameter '\(p.name)' is given twice", at: p.span)
            failedNames.insert(d.name.name)
            return nil
        }
        // Names in the body must exist: parameters, locals it binds, or top-level names.
        var ok = true
        checkFreeNames(in: d.body, bound: Set(d.parameters.map(\.name)), ok: &ok)
        guard ok else { failedNames.insert(d.name.name); return nil }
        env.defines[d.name.name] = DefineInfo(name: d.name.name, parameters: d.parameters, body: d.body, span: d.span,
                                              fromPrelude: isPrelude)
        env.symbols[d.name.name] = .define(d.name.name)
        env.files[file.id] = file
        return .declaration(d.span)
    }

    /// `play NAME(args) [reversed] [speed R]`.
    mutating func checkPlay(_ p: PlayStep) -> CheckedStep? {
        guard let def = env.defines[p.name.name] else {
            if failedNames.contains(p.name.name) { return nil }  // the define's own error is reported
            let names = env.defines.keys.sorted()
            if let sym = env.symbols[p.name.name] {
                error(.alreadyDeclared(p.name.name, what: describe(sym)), at: p.name.span)
            } else {
                diagnostics.error("unknown sequence '\(p.name.name)'" + DidYouMean.suffix(p.name.name, from: names), at: p.name.span,
                                  help: names.isEmpty ? "define it first with 'define \(p.name.name)(...) = ...'" : nil)
            }
            return nil
        }
        guard p.arguments.count == def.parameters.count else {
            diagnostics.error("'\(def.name)' takes \(def.parameters.count) argument\(def.parameters.count == 1 ? "" : "s"), not \(p.arguments.count)",
                              at: p.span, notes: ["'\(def.name)' is defined as '\(text(def.span.prefixLine(of: env.files[def.span.source] ?? file)))'"])
            return nil
        }
        var args: [TypedExpr] = []
        var signature: [ArgumentSignature] = []
        for a in p.arguments {
            guard let t = check(a) else { return nil }
            var cands: [ShapeID] = []
            if t.kind == .shape, let (_, c) = shapeRef(t, writtenAt: a.span) { cands = c }
            if case .list(.shape) = t.kind { cands = shapeCandidates(ofList: t) }
            args.append(t)
            signature.append(ArgumentSignature(kind: t.kind, candidates: cands))
        }
        var speed: TypedExpr?
        if let s = p.speed {
            speed = checkAs(s, .number)
            if speed == nil { return nil }
            if case .constant(.number(let r))? = speed?.node, !(r > 0) {
                diagnostics.error("speed must be greater than 0, not \(formatNumber(r))", at: s.span)
                return nil
            }
        }
        guard let id = instantiate(def, signature: signature, at: p.span) else { return nil }
        return .play(PlaySpec(instantiation: id, name: def.name, arguments: args, reversed: p.reversed, speed: speed, span: p.span))
    }

    /// The instantiation of a define for a signature, checking its body the first time.
    mutating func instantiate(_ def: DefineInfo, signature: [ArgumentSignature], at call: Span) -> Int? {
        let key = InstantiationKey(name: def.name, arguments: signature)
        if let id = env.instantiationIndex[key] { return id }
        guard env.instantiations.count < Checker.maxInstantiations else {
            diagnostics.error("too many different uses of defined sequences (the limit is \(Checker.maxInstantiations))", at: call)
            return nil
        }
        let id = env.instantiations.count
        env.instantiations.append(Instantiation(name: def.name, graph: nil))
        env.instantiationIndex[key] = id
        // Check the body in a fresh scope whose first locals are the parameters.
        let saved = (scopes, localCount)
        scopes = [[:]]
        localCount = 0
        for (p, sig) in zip(def.parameters, signature) {
            _ = newLocal(p.name, kind: sig.kind, candidates: sig.candidates)
        }
        let errorsBefore = diagnostics.errorCount
        let body = checkChain(def.body)
        let locals = localCount
        (scopes, localCount) = saved
        if diagnostics.errorCount > errorsBefore {
            let pos = "\(text(call))"
            diagnostics.amendLast { $0.notes.append("in '\(def.name)', played by '\(pos)'") }
        }
        guard let chain = body else {
            env.instantiationIndex[key] = nil
            return nil
        }
        env.instantiations[id].graph = GraphBuilder.build(chain, localCount: locals, instantiations: env.instantiations)
        return id
    }

    /// The most instantiations of defines one session may create (each is a checked copy).
    public static let maxInstantiations = 10_000

    /// The shapes a list-of-shapes expression can contain.
    func shapeCandidates(ofList t: TypedExpr) -> [ShapeID] {
        if case .constant(.list(let vs)) = t.node {
            return vs.compactMap { if case .shape(let s) = $0 { return s } else { return nil } }
        }
        if case .variable(.local(let slot)) = t.node {
            return scopes.reversed().lazy.compactMap { $0.values.first { $0.slot == slot } }.first?.candidates ?? []
        }
        return []
    }

    /// Reports names in a define body that are neither bound nor declared.
    mutating func checkFreeNames(in chain: Chain, bound: Set<String>, ok: inout Bool) {
        func expr(_ e: Expr, _ bound: Set<String>) {
            switch e {
            case .name(let id):
                if !bound.contains(id.name), env.symbols[id.name] == nil, Color.named(id.name) == nil {
                    if !failedNames.contains(id.name) { reportUnknownName(id, candidates: (Array(bound) + env.allNames).sorted()) }
                    ok = false
                }
            case .member(let m): expr(m.base, bound)
            case .index(let i): expr(i.base, bound); expr(i.index, bound)
            case .call(let c): c.arguments.forEach { expr($0, bound) }
            case .pair(let p): expr(p.x, bound); expr(p.y, bound)
            case .list(let l): l.elements.forEach { expr($0, bound) }
            case .unary(let u): expr(u.operand, bound)
            case .binary(let b): expr(b.lhs, bound); expr(b.rhs, bound)
            case .string(let s):
                for part in s.parts { if case .interpolation(let x) = part { expr(x, bound) } }
            case .number, .color, .bool: break
            }
        }
        func assignments(_ list: [Assignment], _ bound: Set<String>) {
            for a in list { expr(a.target, bound); expr(a.value, bound); a.keyframes?.forEach { k in k.offset.map { expr($0, bound) } } }
        }
        func block(_ b: Block, _ bound: Set<String>) { b.chains.forEach { chainNames($0, bound) } }
        func chainNames(_ c: Chain, _ bound: Set<String>) {
            for s in c.steps {
                switch s {
                case .animate(let a):
                    expr(a.duration, bound); assignments(a.assignments, bound)
                case .spring(let sp): sp.parameters.forEach { expr($0.value, bound) }; assignments(sp.assignments, bound)
                case .wait(let w): w.argument.map { expr($0, bound) }
                case .print(let p): expr(p.value, bound)
                case .set(let st): assignments([st.assignment], bound)
                case .expect(let x): expr(x.lhs, bound); expr(x.rhs, bound); x.tolerance.map { expr($0, bound) }
                case .block(let b): block(b, bound)
                case .repeat(let r): r.count.map { expr($0, bound) }; block(r.body, bound)
                case .stagger(let st):
                    expr(st.interval, bound); expr(st.sequence, bound)
                    block(st.body, bound.union([st.variable.name]))
                case .play(let p): p.arguments.forEach { expr($0, bound) }
                case .relative(let r): r.offset.map { expr($0, bound) }; block(r.body, bound)
                case .control(let c):
                    if c.verb == .save || c.verb == .restore { expr(c.target, bound) }
                    c.time.map { expr($0, bound) }
                }
            }
        }
        chainNames(chain, bound)
    }

    // MARK: - stagger

    /// `stagger D [from ORDER] for NAME in SHAPES < body >`.
    mutating func checkStagger(_ s: StaggerStep) -> CheckedStep? {
        guard let interval = checkAs(s.interval, .time) else { return nil }
        var order = StaggerOrder.start
        if let o = s.order {
            guard let x = StaggerOrder(rawValue: o.name) else {
                diagnostics.error("unknown stagger order '\(o.name)'" + DidYouMean.suffix(o.name, from: StaggerOrder.allCases.map(\.rawValue)),
                                  at: o.span, help: "orders are start, end, center, edges and random")
                return nil
            }
            order = x
        }
        guard let members = check(s.sequence) else { return nil }
        guard case .list(let element) = members.kind, element == .shape || element == .empty else {
            diagnostics.error("'stagger' goes over a list of shapes, not \(members.kind.withArticle)", at: s.sequence.span,
                              help: "use a shape array ('cards'), a group, or a list such as '[a, b, c]'")
            return nil
        }
        let candidates = shapeCandidates(ofList: members)
        scopes.append([:])
        let slot = newLocal(s.variable.name, kind: .shape, candidates: candidates)
        let body = checkBlock(s.body)
        scopes.removeLast()
        guard let b = body else { return nil }
        return .stagger(StaggerSpec(interval: interval, order: order, variable: slot, members: members, span: s.span), body: b)
    }

    // MARK: - after / with, control, save / restore

    /// Resolves a step name, with did-you-mean.
    mutating func stepName(_ id: Identifier) -> StepNameID? {
        if case .stepName(let sid)? = env.symbols[id.name] { return sid }
        if let sym = env.symbols[id.name] {
            diagnostics.error("'\(id.name)' is \(describe(sym)), not a step name", at: id.span,
                              help: "name a step with 'as', as in 'animate 1 < ... > as \(id.name)'")
        } else {
            error(.unknownStepName(id.name, suggestion: DidYouMean.suggest(id.name, from: env.stepNames)), at: id.span,
                  help: env.stepNames.isEmpty ? "name a step with 'as', as in 'animate 1 < ... > as \(id.name)'" : nil)
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
        return .relative(RelativeSpec(anchor: r.anchor, name: name, nameText: r.target.name, offset: offset, subtracts: r.negative,
                                      span: r.span), body: body)
    }

    mutating func checkControl(_ c: ControlStep) -> CheckedStep? {
        switch c.verb {
        case .save, .restore:
            guard let (ref, _) = shapeRef(c.target) else { return nil }
            return .action(c.verb == .save ? .save(ref) : .restore(ref), c.span)
        case .pause, .resume, .seek, .reverse, .interrupt:
            guard case .name(let id) = c.target else {
                diagnostics.error("'\(c.verb.rawValue)' takes the name of a step", at: c.target.span,
                                  help: "name a step with 'as', as in 'animate 1 < ... > as intro'")
                return nil
            }
            guard let name = stepName(id) else { return nil }
            var time: TypedExpr?
            if let t = c.time { time = checkAs(t, .time); if time == nil { return nil } }
            return .action(.control(ControlSpec(verb: c.verb, name: name, nameText: id.name, time: time, span: c.span)), c.span)
        }
    }

    // MARK: - on change

    /// `on change PROP < body >`.
    mutating func checkObserver(_ o: OnChangeStmt) -> CheckedStmt? {
        guard let prop = check(o.property) else { return nil }
        guard case .property = prop.node else {
            diagnostics.error("'on change' watches a property, such as 'square.center'", at: o.property.span)
            return nil
        }
        let chain = Chain(steps: [.block(o.body)], name: nil, span: o.body.span)
        guard let body = checkChain(chain) else { return nil }
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
