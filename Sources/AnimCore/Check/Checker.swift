// Checker: syntax tree → checked statements. Resolves names (shapes, properties, bindings, step
// names), gives every expression a kind and inserts the implicit conversions, resolves easings,
// and reports misspellings with a did-you-mean (CheckError). Names are read as interned ids
// (the environment's NameTable), so resolving one is an array index. It updates an Environment
// that outlives one program (the REPL checks entry by entry). Expressions: Checker+Expressions,
// +Coercion, +Names, +Calls; steps: Checker+Steps, +Writes, +Tweens, +Motion, +Composition. A
// program with errors is never run.

/// Checks programs against an environment.
public struct Checker {
    /// The symbol table, updated as declarations are checked.
    public internal(set) var env: Environment
    /// What the checker found.
    public internal(set) var diagnostics = DiagnosticBag()
    /// The program being checked.
    let program: SyntaxTree
    /// The tree being read: the program's, or a define's while its body is checked.
    var tree: SyntaxTree

    /// A local name in the current graph scope.
    struct Local {
        var name: NameID
        var slot: Int
        var kind: Kind
        /// For shape-valued locals, the shapes it can hold.
        var candidates: [ShapeID]
    }
    /// The locals in scope, innermost last (a later one hides an earlier one of its name).
    var locals: [Local] = []
    /// Where each scope's locals start in `locals`.
    var scopeStarts: [Int] = []
    var localCount = 0
    /// Easings resolved so far, by name: a script names the same few easings again and again,
    /// so a short list beats hashing.
    var easingsByName: [(name: NameID, easing: Easing)] = []
    /// The last easing without arguments resolved, and where its name is written.
    var lastEasing: LastEasing?
    /// The last easing with arguments resolved, and where it is written (name and arguments).
    var lastArgumentEasing: LastEasing?
    /// The last property name resolved, and where it is written.
    var lastProperty: LastProperty?
    /// What `lastEasing` holds: a struct, as is `LastProperty`, not a tuple, because copying
    /// an optional tuple went through the runtime's generic tuple copy (callgrind: about 210
    /// instructions a copy, two per `ease` checked).
    struct LastEasing { var file: SourceFile; var span: Span; var easing: Easing }
    /// What `lastProperty` holds.
    struct LastProperty { var file: SourceFile; var span: Span; var id: PropertyID }
    /// The colours names not declared in the program denote (`red`), by name, once read.
    var namedColors = NameMap<Color>()
    /// Easings with arguments resolved so far.
    var resolvedEasings: [ResolvedEasingKey: Easing] = [:]
    /// The property names of the declaration being checked (reused: no allocation per shape).
    var seenNames: [NameID] = []
    /// Glyph shapes made by the statement being checked (`title.glyphs` named for the first
    /// time), which `check(_:environment:)` puts before it.
    var pendingGlyphs: [ShapeCreation] = []
    /// Whether the streaming check was given up before the program's end (`check(_:environment:stops:each:)`).
    public internal(set) var stopped = false
    /// Whether naming a text's glyphs may make them (false where no statement runs: an
    /// expression typed at the REPL, a `--trace`).
    public var makesGlyphs = true

    /// An easing with arguments, without its spans.
    struct ResolvedEasingKey: Hashable {
        var name: NameID
        var arguments: [EasingArgument]
    }
    /// Set while checking the prelude: its defines may be redefined by scripts.
    public var isPrelude = false
    /// Names whose declaration had an error (`let x = bleu`, a define whose body names an
    /// unknown shape): already reported, so a use of them is not reported again.
    var failedNames: Set<NameID> = []
    /// Where each top-level name of the program is first declared, so that a name used before
    /// its declaration can point at it; found the first time a name is unknown.
    var declarations: [NameID: Span]?

    /// The largest shape array, so a typo like `card[1e9]` is an error, not an out-of-memory.
    public static let maxArraySize = 100_000
    /// The most shapes one session may declare (arrays count each member): about 100 bytes of
    /// scene state each, so at most a few hundred megabytes.
    public static let maxShapes = 1_000_000

    /// The `font-family` strings written as constants, where (declarations and writes): the
    /// session warns at each family fontconfig does not have.
    public internal(set) var fontFamilies: [(family: String, span: Span)] = []

    /// A shape's fill or stroke (the static check of gradient tweens, `checkGradientTweens`).
    struct PaintKey: Hashable {
        var shape: ShapeID
        var property: PropertyID
    }
    /// The constant gradients shapes are declared with, and where.
    var declaredPaints: [PaintKey: (GradientValue, Span)] = [:]
    /// How many writes of each shape's fill or stroke the program has, and the properties
    /// written on shapes known only at run time.
    var paintWriteCounts: [PaintKey: Int] = [:]
    var paintWritesOfAnyShape: Set<PropertyID> = []
    /// The tweens to a constant gradient.
    var paintTweens: [(PaintKey, GradientValue, Span)] = []
    /// The values of the `let`s this check bound to constants, by slot (a slot is bound once).
    var globalConstants: [Int: Value] = [:]

    /// The value of an expression known before the run: a constant, or a `let` of one.
    func knownValue(_ t: TypedExpr) -> Value? {
        switch t.node {
        case .constant(let v): return v
        case .variable(.global(let slot)): return globalConstants[slot]
        default: return nil
        }
    }

    /// Creates a checker for a parsed program against an environment.
    public init(tree: SyntaxTree, environment: Environment) {
        self.program = tree
        self.tree = tree
        self.env = environment
    }

    /// The program's source.
    var file: SourceFile { program.file }

    /// Checks a program; returns the checked statements and the updated environment.
    public static func check(_ tree: SyntaxTree, environment: Environment, isPrelude: Bool = false)
        -> (statements: [CheckedStmt], environment: Environment, diagnostics: DiagnosticBag, fontFamilies: [(family: String, span: Span)]) {
        var out: [CheckedStmt] = []
        out.reserveCapacity(tree[tree.statements].count)
        let c = check(tree, environment: environment, isPrelude: isPrelude) { s, _ in out.append(s) }
        return (out, c.env, c.diagnostics, c.fontFamilies)
    }

    /// Checks a program statement by statement, handing each checked statement to `each` as
    /// soon as its top-level statement is checked (glyph shapes a statement names first come
    /// just before it), with the checker as it is then (its environment has every define
    /// instantiation the statement plays, whole). Returns the checker at the end, after the
    /// checks of the whole program (`checkGradientTweens`).
    /// `stops`, asked before each top-level statement, gives the check up when true: the
    /// checker returned has checked only the statements before (and not the whole program's
    /// checks), and `stopped` says so.
    static func check(_ tree: SyntaxTree, environment: Environment, isPrelude: Bool = false, stops: (() -> Bool)? = nil,
                      each: (consuming CheckedStmt, borrowing Checker) -> Void) -> Checker {
        var c = Checker(tree: tree, environment: environment)
        c.isPrelude = isPrelude
        for s in tree[tree.statements] {
            if let stops, stops() {
                c.stopped = true
                return c
            }
            let checked = c.check(s)
            // Glyph shapes the statement names first (`title.glyphs`) are made just before it.
            if !c.pendingGlyphs.isEmpty {
                let glyphs = c.pendingGlyphs
                c.pendingGlyphs.removeAll()
                for g in glyphs { each(.shapes(g), c) }
            }
            if let checked { each(checked, c) }
        }
        c.checkGradientTweens()
        return c
    }

    /// Checks one statement.
    public mutating func check(_ stmt: StmtID) -> CheckedStmt? {
        if !locals.isEmpty { locals.removeAll(keepingCapacity: true) }
        if !scopeStarts.isEmpty { scopeStarts.removeAll(keepingCapacity: true) }
        localCount = 0
        switch tree[stmt] {
        case .stage(let s): return checkStage(s)
        case .shape(let s): return checkShape(s)
        case .group(let g): return checkGroup(g)
        case .let(let l): return checkLet(l)
        case .seed(let s):
            guard let v = checkAs(s.value, .number) else { return nil }
            return .seed(v, s.span)
        case .define(let d): return checkDefine(d, statement: stmt)
        case .wait(let w): return checkTopLevelWait(w)
        case .at(let a):
            guard let t = checkAs(a.time, .time) else { return nil }
            guard let c = checkBlockAsChain(a.body) else { return nil }
            return .start(c, at: t, localCount: localCount, span: a.span)
        case .onChange(let o): return checkObserver(o)
        case .chain(let chain):
            guard let c = checkChain(chain) else { return nil }
            return .start(c, at: nil, localCount: localCount, span: tree.span(chain))
        }
    }

    // MARK: - Declarations

    mutating func checkStage(_ s: StageDecl) -> CheckedStmt? {
        let size = checkAs(s.size, .point)
        var color: TypedExpr?
        var ok = size != nil
        for p in tree[s.properties] {
            let prop = tree[p]
            if name(prop.name) == BuiltinProperty.color.nameID {
                color = checkAs(prop.value, .color)
                ok = ok && color != nil
            } else {
                let key = text(prop.name)
                let hint = ForeignNames.property(key)
                var sugg = DidYouMean.suggest(key, from: ["color"])
                if hint?.property == .color { sugg = "color" }
                error(.unknownStageProperty(key, suggestion: sugg, hint: hint?.property), at: prop.name.span)
                ok = false
            }
        }
        env.hasStage = true
        guard ok, let size else { return nil }
        return .stage(size: size, color: color, span: s.span)
    }

    mutating func checkShape(_ d: ShapeDecl) -> CheckedStmt? {
        let shapeName = name(d.name)
        var ok = declareName(shapeName, at: d.name.span)
        var count = 1
        var isArray = false
        if let c = d.count {
            isArray = true
            if let t = checkAs(c, .number) {
                if case .constant(.number(let n)) = t.node {
                    if n != n.rounded() || n < 1 {
                        error(.arraySize(.notWhole(n)), at: tree.span(c)); ok = false
                    } else if n > Double(Checker.maxArraySize) {
                        error(.arraySize(.overLimit(n, limit: Checker.maxArraySize)), at: tree.span(c)); ok = false
                    } else { count = Int(n) }
                } else {
                    error(.arraySize(.notConstant), at: tree.span(c)); ok = false
                }
            } else { ok = false }
        }
        if env.shapes.count + count > Checker.maxShapes {
            error(.tooManyShapes(env.shapes.count + count, limit: Checker.maxShapes), at: d.span)
            count = 1
            ok = false
        }
        let first = ShapeID(env.shapes.count)
        // Declare custom properties first, so every member has the same property set.
        var custom: [PropertyID: Kind] = [:]
        let properties = tree[d.properties]
        var inits: [(PropertyID, TypedExpr)] = []
        inits.reserveCapacity(properties.count)
        pushScope()
        var indexSlot: Int?
        if isArray {
            indexSlot = newLocal(env.names.intern("i"), kind: .number, candidates: [])
        }
        seenNames.removeAll(keepingCapacity: true)
        for p in properties {
            let prop = tree[p]
            if contains(prop.name.span, byte: 0x2D /* - */), BuiltinProperty(nameID: name(prop.name)) == nil {
                // `border-radius`: the parser reads a hyphenated key whole so that it can be named
                // here (the built-ins `shadow-blur` and the like are CSS names, hyphens and all).
                reportHyphenatedKey(prop.name, shapeKind: d.kind); ok = false
                continue
            }
            let id = name(prop.name)
            if seenNames.contains(id) {
                error(.propertyGivenTwice(text(prop.name)), at: prop.name.span); ok = false
                continue
            }
            seenNames.append(id)
            if let b = BuiltinProperty(nameID: id), b.applies(to: d.kind) {
                guard let v = checkPropertyValue(prop.value, b.kind, property: b.id, scaleLike: b == .scale) else { ok = false; continue }
                inits.append((b.id, v))
            } else {
                guard let v = check(prop.value) else { ok = false; continue }
                if case .list = v.kind {
                    error(.propertyHoldsList, at: tree.span(prop.value)); ok = false; continue
                }
                if v.kind == .shape {
                    error(.propertyHoldsShape, at: tree.span(prop.value)); ok = false; continue
                }
                let key = text(prop.name)
                if BuiltinProperty(nameID: id) != nil {
                    // `text`/`font` on a rect: a custom property, but say so.
                    warning(.builtinOfOtherKind(key, shapeKind: d.kind), at: prop.name.span)
                } else if let hint = ForeignNames.property(key) {
                    // `width`, `opacity`, `stroke`: another tool's name for a built-in, or for nothing anim draws.
                    let meant = hint.property.flatMap { $0.applies(to: d.kind) ? $0.name : nil }
                    warning(.foreignCustomProperty(key, meant: meant, drawn: hint.property != nil), at: prop.name.span,
                            help: ForeignNames.help(hint, use: .declaration))
                } else if let near = DidYouMean.suggest(key, from: BuiltinProperty.allCases.filter { $0.applies(to: d.kind) }.map(\.name)),
                          DidYouMean.distance(key, near) <= 2 {
                    warning(.customPropertyNearBuiltin(key, near), at: prop.name.span)
                }
                let pid = env.internProperty(id)
                custom[pid] = v.kind
                inits.append((pid, v))
            }
        }
        if d.kind == .image, !inits.contains(where: { $0.0 == BuiltinProperty.file.id }), ok {
            error(.imageWithoutFile(text(d.name)), at: d.name.span); ok = false
        }
        // A text written as a constant string may have glyph shapes (`title.glyphs`), one per
        // character; they are made when a script first names them (`glyphList`).
        var glyphCount: Int?
        let textInit = inits.first(where: { $0.0 == BuiltinProperty.text.id })?.1
        if d.kind == .text, textInit == nil { glyphCount = 0 }  // "": no glyphs
        if d.kind == .text, let t = textInit, case .constant(.string(let str)) = t.node { glyphCount = str.count }
        let plainName = isArray ? text(d.name) : nil
        for k in 0..<count {
            let display = isArray ? "\(plainName!)[\(k)]" : text(d.name)
            env.shapes.append(ShapeInfo(name: display, kind: d.kind, custom: custom, span: d.span))
        }
        if let glyphCount { for k in 0..<count { env.glyphCounts[ShapeID(Int(first.index) + k)] = glyphCount } }
        // Constant gradient fills and strokes, for the static check of the tweens from them.
        for (pid, v) in inits where pid == BuiltinProperty.color.id || pid == BuiltinProperty.stroke.id {
            guard case .gradient(let g)? = knownValue(v) else { continue }
            for k in 0..<count { declaredPaints[PaintKey(shape: ShapeID(Int(first.index) + k), property: pid)] = (g, v.span) }
        }
        env.symbols[shapeName] = isArray ? .array(first: first, count: count) : .shape(first)
        guard ok else { return nil }
        return .shapes(ShapeCreation(name: plainName ?? env.shapes[Int(first.index)].name, isArray: isArray, first: first, count: count,
                                     kind: d.kind, properties: inits, indexSlot: indexSlot, localCount: localCount, span: d.span))
    }

    mutating func checkGroup(_ g: GroupDecl) -> CheckedStmt? {
        let id = name(g.name)
        guard declareName(id, at: g.name.span) else { return nil }
        guard let members = shapeList(g.members) else {
            env.symbols[id] = .group([])
            return nil
        }
        env.symbols[id] = .group(members)
        return .declaration(g.span)
    }

    mutating func checkLet(_ l: LetStmt) -> CheckedStmt? {
        let id = name(l.name)
        if env.preludeNames.remove(id) != nil { env.symbols[id] = nil }
        if let existing = env.symbols[id] {
            if case .global = existing {} else {
                error(.alreadyDeclared(text(l.name), what: describe(existing)), at: l.name.span)
                return nil
            }
        }
        guard let v = check(l.value) else { failedNames.insert(id); return nil }
        let slot = env.globalKinds.count
        env.globalKinds.append(v.kind)
        env.symbols[id] = .global(slot: slot, kind: v.kind)
        if case .constant(let c) = v.node { globalConstants[slot] = c }
        return .bind(slot: slot, value: v, span: l.span)
    }

    mutating func checkTopLevelWait(_ w: WaitStep) -> CheckedStmt? {
        guard let arg = w.argument else { return .wait(.allFinished, w.span) }
        if case .name(let n) = tree[arg], case .stepName(let sid)? = env.symbols[name(n)] {
            return .wait(.named(sid, text(n)), w.span)
        }
        guard let t = checkAs(arg, .time) else { return nil }
        return .wait(.duration(t), w.span)
    }

    /// A declaration key written with hyphens (`border-radius`), which cannot name a property:
    /// the anim name for it when another tool uses it, else how to write the custom name.
    mutating func reportHyphenatedKey(_ key: Identifier, shapeKind: ShapeKind) {
        let keyText = text(key)
        let hint = ForeignNames.property(keyText)
        let builtins = BuiltinProperty.allCases.filter { $0.applies(to: shapeKind) }.map(\.name)
        let near = DidYouMean.suggest(keyText, from: builtins.filter { $0.contains("-") })
        let meant = hint?.property.flatMap { $0.applies(to: shapeKind) ? $0.name : nil } ?? near
        let help = hint.map { ForeignNames.help($0, use: .declaration) }
            ?? near.map { "'\($0)' is a built-in property; a custom property's name is one word" }
            ?? CheckError.oneWordHelp(ForeignNames.camelCase(keyText), keyText.replacingHyphens(with: "_"))
        error(.hyphenatedKey(keyText, suggestion: meant), at: key.span, help: help)
    }

    /// Reserves a new top-level name, reporting a clash with an existing declaration.
    mutating func declareName(_ id: NameID, at span: Span) -> Bool {
        if env.preludeNames.remove(id) != nil {
            env.symbols[id] = nil
            return true
        }
        if let existing = env.symbols[id] {
            var d = Diagnostic.error(CheckError.alreadyDeclared(env.names[id], what: describe(existing)).message, at: span)
            if case .shape(let s) = existing { d.secondary.append(.init(span: env.shapes[Int(s.index)].span, text: CheckError.declaredHere)) }
            diagnostics.report(d)
            return false
        }
        return true
    }

    /// What a name is, as messages say it (`a rect`, `a step name`).
    func describe(_ s: Symbol) -> String {
        if case .shape(let id) = s { return CheckError.describe(s, shapeKind: env.shapes[Int(id.index)].kind) }
        return CheckError.describe(s, shapeKind: nil)
    }

    // MARK: - Names

    /// The interned id of the name an identifier spells (in the tree being read).
    mutating func name(_ id: Identifier) -> NameID { name(id.span) }

    /// The interned id of the text of a span of the tree being read.
    mutating func name(_ span: Span) -> NameID {
        let file = tree.file
        return file.bytes.withUnsafeBufferPointer { b in
            env.names.intern(UnsafeBufferPointer(rebasing: b[Int(span.start)..<Int(span.end)]))
        }
    }

    /// The text of an identifier.
    func text(_ id: Identifier) -> String { text(id.span) }

    /// The source text of a span (in the tree being read, the program, or a define's source).
    func text(_ span: Span) -> String {
        if span.source == tree.file.id { return tree.file.text(of: span) }
        if span.source == program.file.id { return program.file.text(of: span) }
        return env.files[span.source]?.text(of: span) ?? "?"
    }

    /// Whether an identifier is spelt `word` (ASCII), compared byte by byte in the tree being
    /// read, without making its text (a String); `text(_:)` decides for a span of another file.
    func spells(_ id: Identifier, _ word: StaticString) -> Bool {
        let span = id.span
        guard span.source == tree.file.id else { return text(span) == word.description }
        let n = Int(span.end &- span.start)
        guard n == word.utf8CodeUnitCount else { return false }
        return tree.file.bytes.withUnsafeBufferPointer { b in
            word.withUTF8Buffer { w in
                var i = 0
                while i < n, b[Int(span.start) &+ i] == w[i] { i &+= 1 }
                return i == n
            }
        }
    }

    /// Whether the text of a span holds a byte.
    func contains(_ span: Span, byte: UInt8) -> Bool {
        tree.file.bytes[Int(span.start)..<Int(span.end)].contains(byte)
    }

    // MARK: - Scopes and errors

    /// Opens a scope for locals.
    mutating func pushScope() { scopeStarts.append(locals.count) }

    /// Closes the innermost scope.
    mutating func popScope() { locals.removeSubrange(scopeStarts.removeLast()...) }

    mutating func newLocal(_ name: NameID, kind: Kind, candidates: [ShapeID]) -> Int {
        let slot = localCount
        localCount += 1
        if scopeStarts.isEmpty { pushScope() }
        locals.append(Local(name: name, slot: slot, kind: kind, candidates: candidates))
        return slot
    }

    func lookupLocal(_ name: NameID) -> Local? {
        locals.last { $0.name == name }
    }

    /// The local in a slot, if it is in scope.
    func local(inSlot slot: Int) -> Local? {
        locals.last { $0.slot == slot }
    }

    /// The names of the locals in scope, sorted (for did-you-mean).
    var localNames: [String] { locals.map { env.names[$0.name] }.sorted() }

    /// Reports an unknown name, with a did-you-mean from `candidates`; when the program declares
    /// the name later on, points at that declaration instead.
    mutating func reportUnknownName(_ id: Identifier, candidates: [String]) {
        let n = name(id)
        let nameText = text(id)
        if let later = firstDeclaration(of: n), later.source == id.span.source, later.start > id.span.start {
            var d = Diagnostic.error(CheckError.unknownName(nameText, suggestion: nil).message, at: id.span,
                                     help: CheckError.declareBeforeUse(nameText))
            d.secondary.append(.init(span: later, text: CheckError.declaredAfterUse))
            diagnostics.report(d)
            return
        }
        error(.unknownName(nameText, suggestion: DidYouMean.suggest(nameText, from: candidates)), at: id.span)
    }

    /// Where the program first declares a top-level name (a shape, group, `let` or define).
    mutating func firstDeclaration(of n: NameID) -> Span? {
        if declarations == nil {
            var found: [NameID: Span] = [:]
            let saved = tree
            tree = program
            for s in program[program.statements] {
                let declared: Identifier?
                switch program[s] {
                case .shape(let d): declared = d.name
                case .group(let g): declared = g.name
                case .let(let l): declared = l.name
                case .define(let d): declared = d.name
                case .stage, .seed, .wait, .at, .onChange, .chain: declared = nil
                }
                if let declared {
                    let id = name(declared)
                    if found[id] == nil { found[id] = declared.span }
                }
            }
            tree = saved
            declarations = found
        }
        return declarations![n]
    }

    mutating func error(_ e: CheckError, at span: Span, help: String? = nil) {
        diagnostics.error(e.message, at: span, label: e.label, help: help ?? e.help)
    }

    mutating func warning(_ e: CheckError, at span: Span, help: String? = nil) {
        diagnostics.warning(e.message, at: span, label: e.label, help: help ?? e.help)
    }
}

extension String {
    /// The string with each `-` replaced.
    func replacingHyphens(with s: String) -> String { split(separator: "-", omittingEmptySubsequences: false).joined(separator: s) }
}

extension Span {
    /// The first `n` bytes of the span (a keyword at its start).
    func prefix(_ n: Int) -> Span { Span(source: source, start: Int(start), end: Int(min(end, start + UInt32(n)))) }
}

extension BuiltinProperty {
    /// The built-in property a name is, if any (the built-in names are interned first, in order).
    init?(nameID: NameID) {
        if Int(nameID.raw) == BuiltinProperty.allCases.count { self = .color; return }  // `fill`
        guard nameID.raw >= 0, let b = BuiltinProperty(rawValue: Int(nameID.raw)) else { return nil }
        self = b
    }

    /// Its name's id in every environment.
    var nameID: NameID { NameID(Int32(rawValue)) }
}
