// Checker+Tweens: `animate` steps — targets and `from`, keyframes, tween options and their
// timing (duration, delay, repeat, speed, direction, fill; decided now when constant), and
// easings (`ease E`, with arguments) (Grammar.md 6.1 "animate", 6.2 "Start values", 6.4
// "Keyframes", 7 "Easing reference").

extension Checker {
    mutating func checkAnimate(_ a: AnimateStep) -> TweenSpec? {
        var ok = true
        let duration = timePart(a.duration)
        ok = ok && duration != nil
        var easing = Easing.easeInOut
        var delay: TimePart?, iterations: NumberPart?, speed: NumberPart?
        var forever = false, yoyo = false
        var fromExpr: ExprID?
        var direction: (PlaybackDirection, Span)?, fill: FillMode?
        var iterationStart: NumberPart?, endDelay: TimePart?, repeatDelay: TimePart?
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
        // The targets written so far, with where (later entries win, as a dictionary's
        // overwrites did): a tween writes one to a few properties, so a short list searched from
        // its end beats hashing strings (callgrind: 2.7 M → 0.5 M instructions for the 450
        // two-write tweens of a 5,000-line script, with `compactText` below).
        var seen: [(key: String, at: Span)] = []
        let tweensBefore = paintTweens.count
        for asg in assignments {
            guard let w = checkWrite(asg, animating: true) else { ok = false; continue }
            // Appended as its last use and consumed, so the write is moved into the array:
            // without `consume` the optimizer copied every write (callgrind: about 140
            // instructions a write, 0.6 M for the 4,497 writes of a 5,000-line script).
            let orients = w.orient != nil
            writes.append(consume w)
            guard assignments.count > 1 else { continue }  // one write cannot be written twice
            let targetSpan = tree.span(tree[asg].target)
            let key = compactText(targetSpan)
            if orients, case .member(let m) = tree[tree[asg].target] {
                // `path [...] orient` writes the shape's rotation too.
                let rotation = compactText(tree.span(m.base)) + ".rotation"
                if let prev = seen.last(where: { $0.key == rotation })?.at {
                    var d = Diagnostic.error(CheckError.writtenTwice(rotation).message, at: tree[asg].span)
                    d.secondary.append(.init(span: prev, text: CheckError.firstWrittenHere))
                    diagnostics.report(d)
                    ok = false
                }
                seen.append((rotation, tree[asg].span))
            }
            if let prev = seen.last(where: { $0.key == key })?.at {
                var d = Diagnostic.error(CheckError.writtenTwice(key).message, at: targetSpan)
                d.secondary.append(.init(span: prev, text: CheckError.firstWrittenHere))
                diagnostics.report(d)
                ok = false
            }
            if seen.isEmpty { seen.reserveCapacity(assignments.count) }
            seen.append((key, targetSpan))
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
        return TweenSpec(timing: timing, easing: easing, writes: writes, from: from, span: a.span, fill: fill, endDelay: endDelay?.expr)
    }

    /// A time part of a tween's timing as checked (its duration, delay, end delay or repeat
    /// delay): the value of a literal, read without building a checked expression (the usual
    /// case), or the checked expression. Two concrete enums (this and `NumberPart`), not one
    /// generic over the value: copies and destroys of the generic one's optionals went through
    /// the runtime's generic value witnesses and its constant through a dynamic cast (callgrind:
    /// about 130 instructions a destroy, three destroys per tween checked).
    enum TimePart {
        case literal(Time, Span)
        case checked(TypedExpr)

        /// The value, when it is a constant.
        var constant: Time? {
            switch self {
            case .literal(let v, _): return v
            case .checked(let t):
                if case .constant(.time(let v)) = t.node { return v }
                return nil
            }
        }

        /// Where it is written.
        var span: Span {
            switch self {
            case .literal(_, let s): s
            case .checked(let t): t.span
            }
        }

        /// The part as a checked expression (a literal becomes a constant).
        var expr: TypedExpr {
            switch self {
            case .literal(let t, let s): TypedExpr(.constant(.time(t)), .time, s)
            case .checked(let t): t
            }
        }
    }

    /// A number part of a tween's timing as checked (its repeat count, speed or iteration
    /// start): as `TimePart`, for numbers.
    enum NumberPart {
        case literal(Double, Span)
        case checked(TypedExpr)

        /// The value, when it is a constant.
        var constant: Double? {
            switch self {
            case .literal(let v, _): return v
            case .checked(let t):
                if case .constant(.number(let v)) = t.node { return v }
                return nil
            }
        }

        /// Where it is written.
        var span: Span {
            switch self {
            case .literal(_, let s): s
            case .checked(let t): t.span
            }
        }

        /// The part as a checked expression (a literal becomes a constant).
        var expr: TypedExpr {
            switch self {
            case .literal(let n, let s): TypedExpr(.constant(.number(n)), .number, s)
            case .checked(let t): t
            }
        }
    }

    /// Checks a time part of a tween's timing (its duration or delay): its literal's value,
    /// else the expression checked as a time.
    mutating func timePart(_ e: ExprID) -> TimePart? {
        if let t = literalTime(e) { return .literal(t, tree.span(e)) }
        return checkAs(e, .time).map { .checked($0) }
    }

    /// Checks a number part of a tween's timing (its repeat count or speed): its literal's
    /// value, else the expression checked as a number.
    mutating func numberPart(_ e: ExprID) -> NumberPart? {
        if let n = literalNumber(e) { return .literal(n, tree.span(e)) }
        return checkAs(e, .number).map { .checked($0) }
    }

    /// The timing of a tween whose parts all check: decided now when they are constants
    /// (reporting what `TweenTiming.validated` rejects, at the part it is about), else left to
    /// the interpreter to compute when the tween starts.
    mutating func decideTiming(duration: TimePart, iterations: NumberPart?, forever: Bool, yoyo: Bool,
                               speed: NumberPart?, delay: TimePart?, direction: PlaybackDirection? = nil,
                               iterationStart: NumberPart? = nil, repeatDelay: TimePart? = nil,
                               span: Span) -> TimingSource? {
        var computed: TimingSource {
            .computed(ComputedTiming(duration: duration.expr, iterations: iterations?.expr, forever: forever, yoyo: yoyo,
                                     speed: speed?.expr, delay: delay?.expr, direction: direction,
                                     iterationStart: iterationStart?.expr, repeatDelay: repeatDelay?.expr))
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
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }
        // A target is usually written without spaces: its bytes as they are, no filtered copy.
        guard bytes.contains(where: isSpace) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.filter { !isSpace($0) }, as: UTF8.self)
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
            if let easing { lastEasing = LastEasing(file: tree.file, span: e.nameSpan, easing: easing) }
            return easing
        }
        // An easing with arguments is written only with literals: the same bytes are the same
        // easing, so the last one is known without making its arguments and hashing them
        // (`steps(4)` on every line of a script: about 1,200 instructions an easing, callgrind).
        if let last = lastArgumentEasing, last.file === tree.file, sameBytes(last.span, e.span) { return last.easing }
        let nameID = name(e.nameSpan)
        let args = easingArguments(written).map(\.argument)
        let key = ResolvedEasingKey(name: nameID, arguments: args)
        var easing = resolvedEasings[key]
        if easing == nil {
            easing = resolveEasing(e, name: nameID, arguments: args)
            if let easing { resolvedEasings[key] = easing }
        }
        if let easing { lastArgumentEasing = LastEasing(file: tree.file, span: e.span, easing: easing) }
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
}
