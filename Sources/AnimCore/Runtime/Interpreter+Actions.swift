// Interpreter+Actions: instant actions — `print`, `set`, `expect` — and the top-level effects
// the Session asks for (creating shapes, binding values, reseeding, the stage).

extension Interpreter {
    /// Performs an instant action of frame `f` now (`activity`: its entry in the activity log).
    func perform(_ a: ActionSpec, frame f: Int32, span: Span, activity: Int = -1) throws(RuntimeError) {
        let env = frames[Int(f)].env
        let inst = frames[Int(f)].instance
        switch a {
        case .print(let e):
            let v = try eval(e, env: env)
            if !silent { sink.emit(.print(time: time, text: describe(v))) }
            recordAction(a, frame: f, span: span, activity: activity)
        case .set(let w):
            let shape = try resolve(w.shape, env: env)
            guard let current = currentValue(shape, w.property) else { throw missingProperty(shape, w) }
            let v = try targetValue(w, start: current, env: env)
            recordSet(PropertyKey(shape, w.property), from: current, to: v, instance: inst)
            writeProperty(shape, w.property, v, by: inst)
            logSetKey(PropertyKey(shape, w.property), activity: activity)
        case .expect(let x):
            recordAction(a, frame: f, span: span, activity: activity)
            if !silent { try check(x, env: env) }
        case .control(let c):
            try control(c, env: env)
        case .save(let ref):
            let shape = try resolve(ref, env: env)
            let n = Int(scene.shapes[Int(shape.index)].propertyCount)
            saved[shape] = (0..<n).map { currentValue(shape, PropertyID($0)) }
        case .interruptShapes(let x):
            try interrupt(x, env: env, by: inst)
        case .restore(let ref):
            let shape = try resolve(ref, env: env)
            guard let snapshot = saved[shape] else {
                throw RuntimeError("'\(scene.shapes[Int(shape.index)].name)' has no saved state", at: span,
                                   help: "save it first with 'save \(scene.shapes[Int(shape.index)].name)'")
            }
            for (k, v) in snapshot.enumerated() {
                guard let v, let current = currentValue(shape, PropertyID(k)) else { continue }
                if current == v && pool.owners[PropertyKey(shape, PropertyID(k))] == nil { continue }
                recordSet(PropertyKey(shape, PropertyID(k)), from: current, to: v, instance: inst)
                writeProperty(shape, PropertyID(k), v, by: inst)
            }
        }
    }

    /// `interrupt SHAPE[.PROP]`: every property of the shapes (or the one) that a tween, a
    /// spring or a replaying run writes is taken from it at its current value, as a `set` of
    /// that value would take it (§6.3), so the writer goes on with its other properties and
    /// still ends on time. Properties nothing writes are left alone.
    func interrupt(_ x: InterruptSpec, env: Int32, by inst: Int32) throws(RuntimeError) {
        var shapes: [ShapeID] = []
        switch x.target {
        case .shape(let ref): shapes = [try resolve(ref, env: env)]
        case .shapes(let e):
            guard case .list(let vs) = try eval(e, env: env) else { return }
            for v in vs { if case .shape(let s) = v { shapes.append(s) } }
        }
        for shape in shapes {
            let props = x.property.map { [$0] } ?? (0..<Int(scene.shapes[Int(shape.index)].propertyCount)).map { PropertyID($0) }
            for p in props {
                let key = PropertyKey(shape, p)
                guard isMoving(key), let v = currentValue(key) else { continue }
                recordSet(key, from: v, to: v, instance: inst)
                writeProperty(shape, p, v, by: inst)
            }
        }
    }

    /// Evaluates an expectation and reports it if it fails.
    func check(_ x: ExpectSpec, env: Int32) throws(RuntimeError) {
        let actual = try eval(x.lhs, env: env)
        let expected = try eval(x.rhs, env: env)
        var tolerance = 1e-6
        var tolText: String?
        if let t = x.tolerance {
            let tv = try eval(t, env: env)
            if let n = NumericValue(tv), n.layout.components == 1 { tolerance = n.arithmetic(0) }
            tolText = describe(tv)
        }
        let ok: Bool
        switch x.op {
        case .equal: ok = Interpreter.approximatelyEqual(actual, expected, tolerance: tolerance)
        case .notEqual: ok = !Interpreter.approximatelyEqual(actual, expected, tolerance: tolerance)
        case .lessEqual: ok = NumericValue.scalar(actual) <= NumericValue.scalar(expected) + (x.tolerance == nil ? 0 : tolerance)
        case .greaterEqual: ok = NumericValue.scalar(actual) >= NumericValue.scalar(expected) - (x.tolerance == nil ? 0 : tolerance)
        }
        guard !ok else { return }
        expectFailures += 1
        let a = describe(actual), e = describe(expected)
        let want: String
        switch x.op {
        case .equal: want = e + (tolText.map { " within \($0)" } ?? "")
        case .notEqual: want = "anything but " + e
        case .lessEqual: want = "at most " + e
        case .greaterEqual: want = "at least " + e
        }
        let message = "expectation failed at \(time.eventStamp)s: \(x.lhsText) is \(a), expected \(want)"
        sink.emit(.expectFailed(time: time, diagnostic: .error(message, at: x.span)))
    }

    /// Equality within a tolerance per component; exact for strings, bools and shapes.
    static func approximatelyEqual(_ a: Value, _ b: Value, tolerance: Double) -> Bool {
        ValueOps.approximatelyEqual(a, b, tolerance: tolerance)
    }

    // MARK: - Top-level effects

    /// Evaluates a top-level expression now (no locals).
    public func evaluate(_ e: TypedExpr) throws(RuntimeError) -> Value {
        try eval(e, env: scratchEnv(count: 0))
    }

    /// The environment for top-level evaluation (slot 0, reused), with room for `count` locals.
    func scratchEnv(count: Int) -> Int32 {
        if envs[0].count < count { envs[0] = [Value](repeating: .number(0), count: count) }
        return 0
    }

    /// Creates the shapes of a declaration. Shapes are created even if an initial value fails,
    /// so ids stay in step with the checker; the first error is rethrown after. The history
    /// notes each shape's declaration with its values, not a piece per property.
    public func create(_ c: ShapeCreation) throws(RuntimeError) {
        var firstError: RuntimeError?
        let env = scratchEnv(count: c.localCount)
        for k in 0..<c.count {
            let display = c.isArray ? "\(c.name)[\(k)]" : c.name
            let id = scene.add(name: display, kind: c.kind, propertyCount: propertyNames.count)
            if let slot = c.indexSlot { envs[Int(env)][slot] = .number(Double(k)) }
            let first = recorder.declaredValue.count
            for (p, e) in c.properties {
                do throws(RuntimeError) {
                    let v = try eval(e, env: env)
                    scene.setBase(id, p, v)
                    if recorder.isOn { recorder.declaredProperty.append(p); recorder.declaredValue.append(v) }
                } catch {
                    if firstError == nil { firstError = error }
                }
            }
            if recorder.isOn { recorder.declare(id, kind: c.kind, at: time, from: first) }
        }
        if let e = firstError { throw e }
    }

    /// Stores a top-level binding.
    public func bind(slot: Int, _ v: Value) {
        if slot == globals.count { globals.append(v) } else {
            while globals.count <= slot { globals.append(.number(0)) }
            globals[slot] = v
        }
    }

    /// Reseeds the generator (`seed N`); `--seed` mixes in, so it still changes the run.
    public func reseed(_ n: Double) {
        let s = RandomGenerator.seed(from: n)
        rng = RandomGenerator(seed: seedOverride.map { RandomGenerator.mix($0, s) } ?? s)
    }

    /// Sets the stage.
    public func setStage(size: Point, color: Color?) {
        scene.stageSize = size
        if let c = color { scene.stageColor = c }
    }
}
