// Checker: AST → checked statements. Resolves names (shapes, properties, bindings, step names),
// gives every expression a kind and inserts the implicit conversions, resolves easings, and
// reports misspellings with a did-you-mean. It updates an Environment that outlives one program
// (the REPL checks entry by entry). Expressions: Checker+Expressions.swift; steps:
// Checker+Steps.swift. A program with errors is never run.

/// Checks programs against an environment.
public struct Checker {
    /// The symbol table, updated as declarations are checked.
    public internal(set) var env: Environment
    /// What the checker found.
    public internal(set) var diagnostics = DiagnosticBag()
    let file: SourceFile

    /// A local name in the current graph scope.
    struct Local {
        var slot: Int
        var kind: Kind
        /// For shape-valued locals, the shapes it can hold.
        var candidates: [ShapeID]
    }
    var scopes: [[String: Local]] = []
    var localCount = 0
    /// Easings resolved so far: a script names the same few easings again and again.
    var resolvedEasings: [ResolvedEasingKey: Easing] = [:]

    /// An easing as written, without its spans.
    struct ResolvedEasingKey: Hashable {
        var name: String
        var arguments: [EasingArgument]?
    }
    /// Set while checking the prelude: its defines may be redefined by scripts.
    public var isPrelude = false
    /// Names whose declaration had an error (`let x = bleu`, a define whose body names an
    /// unknown shape): already reported, so a use of them is not reported again.
    var failedNames: Set<String> = []
    /// Where each top-level name of the program being checked is declared, so that a name used
    /// before its declaration can point at it.
    var declarations: [String: Span] = [:]

    /// The largest shape array, so a typo like `card[1e9]` is an error, not an out-of-memory.
    public static let maxArraySize = 100_000
    /// The most shapes one session may declare (arrays count each member): about 100 bytes of
    /// scene state each, so at most a few hundred megabytes.
    public static let maxShapes = 1_000_000

    /// Creates a checker for one source against an environment.
    public init(file: SourceFile, environment: Environment) {
        self.file = file
        self.env = environment
    }

    /// Checks a program; returns the checked statements and the updated environment. Each
    /// statement's syntax tree is let go once it is checked, so (when the caller hands the
    /// program over) the tree and the checked program are never both whole in memory.
    public static func check(_ program: consuming Program, file: SourceFile, environment: Environment, isPrelude: Bool = false)
        -> (statements: [CheckedStmt], environment: Environment, diagnostics: DiagnosticBag) {
        var c = Checker(file: file, environment: environment)
        c.isPrelude = isPrelude
        var pending = Array(program.statements.reversed())
        _ = consume program
        for s in pending.reversed() {
            let name: Identifier?
            switch s {
            case .shape(let d): name = d.name
            case .group(let g): name = g.name
            case .let(let l): name = l.name
            case .define(let d): name = d.name
            case .stage, .seed, .wait, .at, .onChange, .chain: name = nil
            }
            if let name, c.declarations[name.name] == nil { c.declarations[name.name] = name.span }
        }
        var out: [CheckedStmt] = []
        out.reserveCapacity(pending.count)
        while let s = pending.popLast() {
            if let checked = c.check(s) { out.append(checked) }
        }
        return (out, c.env, c.diagnostics)
    }

    /// Checks one statement.
    mutating func check(_ stmt: Stmt) -> CheckedStmt? {
        scopes = []
        localCount = 0
        switch stmt {
        case .stage(let s): return checkStage(s)
        case .shape(let s): return checkShape(s)
        case .group(let g): return checkGroup(g)
        case .let(let l): return checkLet(l)
        case .seed(let s):
            guard let v = checkAs(s.value, .number) else { return nil }
            return .seed(v, s.span)
        case .define(let d): return checkDefine(d)
        case .wait(let w): return checkTopLevelWait(w)
        case .at(let a):
            guard let t = checkAs(a.time, .time) else { return nil }
            let chain = Chain(steps: [.block(a.body)], name: nil, span: a.body.span)
            guard let c = checkChain(chain) else { return nil }
            return .start(c, at: t, localCount: localCount, span: a.span)
        case .onChange(let o): return checkObserver(o)
        case .chain(let chain):
            guard let c = checkChain(chain) else { return nil }
            return .start(c, at: nil, localCount: localCount, span: chain.span)
        }
    }

    // MARK: - Declarations

    mutating func checkStage(_ s: StageDecl) -> CheckedStmt? {
        let size = checkAs(s.size, .point)
        var color: TypedExpr?
        var ok = size != nil
        for p in s.properties {
            if p.name.name == "color" {
                color = checkAs(p.value, .color)
                ok = ok && color != nil
            } else {
                let hint = ForeignNames.property(p.name.name)
                var sugg = DidYouMean.suggest(p.name.name, from: ["color"])
                var help = "the stage has a size and a 'color'"
                if hint?.property == .color {
                    sugg = "color"
                    help = "the stage's background is its 'color'"
                } else if hint?.property == .size {
                    help = "the stage's size comes first, as in 'stage 400 x 700'"
                }
                diagnostics.error("unknown stage property '\(p.name.name)'" + (sugg.map { "; did you mean '\($0)'?" } ?? ""),
                                  at: p.name.span, help: help)
                ok = false
            }
        }
        env.hasStage = true
        guard ok, let size else { return nil }
        return .stage(size: size, color: color, span: s.span)
    }

    mutating func checkShape(_ d: ShapeDecl) -> CheckedStmt? {
        var ok = declareName(d.name)
        var count = 1
        var isArray = false
        if let c = d.count {
            isArray = true
            if let t = checkAs(c, .number) {
                if case .constant(.number(let n)) = t.node {
                    if n != n.rounded() || n < 1 {
                        error(.arraySize("'\(formatNumber(n))' is not a whole number of at least 1"), at: c.span); ok = false
                    } else if n > Double(Checker.maxArraySize) {
                        error(.arraySize("\(formatNumber(n)) is more than the limit of \(Checker.maxArraySize)"), at: c.span); ok = false
                    } else { count = Int(n) }
                } else {
                    error(.arraySize("the size must be a number written in the declaration"), at: c.span); ok = false
                }
            } else { ok = false }
        }
        if env.shapes.count + count > Checker.maxShapes {
            diagnostics.error("too many shapes: this declaration would make \(env.shapes.count + count), more than the limit of \(Checker.maxShapes)",
                              at: d.span)
            count = 1
            ok = false
        }
        let first = ShapeID(env.shapes.count)
        // Declare custom properties first, so every member has the same property set.
        var custom: [PropertyID: Kind] = [:]
        var inits: [(PropertyID, TypedExpr)] = []
        scopes = [[:]]
        var indexSlot: Int?
        if isArray {
            indexSlot = newLocal("i", kind: .number, candidates: [])
        }
        var seen: Set<String> = []
        for p in d.properties {
            let name = p.name.name
            if name.contains("-") {
                // `border-radius`: the parser reads a hyphenated key whole so that it can be named here.
                reportHyphenatedKey(p.name, shapeKind: d.kind); ok = false
                continue
            }
            if !seen.insert(name).inserted {
                diagnostics.error("property '\(name)' is given twice", at: p.name.span); ok = false
                continue
            }
            if let b = BuiltinProperty.named(name), b.applies(to: d.kind) {
                guard let v = checkAs(p.value, b.kind, scaleLike: b == .scale) else { ok = false; continue }
                inits.append((b.id, v))
            } else {
                guard let v = check(p.value) else { ok = false; continue }
                if case .list = v.kind {
                    diagnostics.error("a property cannot hold a list", at: p.value.span); ok = false; continue
                }
                if v.kind == .shape {
                    diagnostics.error("a property cannot hold a shape", at: p.value.span); ok = false; continue
                }
                if BuiltinProperty.named(name) != nil {
                    // `text`/`font` on a rect: a custom property, but say so.
                    diagnostics.warning("'\(name)' is not a property of \(d.kind.rawValue) shapes; it declares a custom property",
                                        at: p.name.span)
                } else if let hint = ForeignNames.property(name) {
                    // `width`, `opacity`, `stroke`: another tool's name for a built-in, or for nothing anim draws.
                    let meant = hint.property.flatMap { $0.applies(to: d.kind) ? $0.name : nil }
                    let message = meant.map { "'\(name)' declares a custom property; did you mean '\($0)'?" }
                        ?? "'\(name)' declares a custom property\(hint.property == nil ? ", which is not drawn" : "")"
                    diagnostics.warning(message, at: p.name.span, help: ForeignNames.help(hint, use: .declaration))
                } else if let near = DidYouMean.suggest(name, from: BuiltinProperty.allCases.filter { $0.applies(to: d.kind) }.map(\.name)),
                          DidYouMean.distance(name, near) <= 2 {
                    diagnostics.warning("'\(name)' declares a custom property; did you mean '\(near)'?", at: p.name.span)
                }
                let id = env.internProperty(name)
                custom[id] = v.kind
                inits.append((id, v))
            }
        }
        for k in 0..<count {
            let display = isArray ? "\(d.name.name)[\(k)]" : d.name.name
            env.shapes.append(ShapeInfo(name: display, kind: d.kind, custom: custom, span: d.span))
        }
        env.symbols[d.name.name] = isArray ? .array(first: first, count: count) : .shape(first)
        guard ok else { return nil }
        return .shapes(ShapeCreation(name: d.name.name, isArray: isArray, first: first, count: count, kind: d.kind, properties: inits, indexSlot: indexSlot,
                                     localCount: localCount, span: d.span))
    }

    mutating func checkGroup(_ g: GroupDecl) -> CheckedStmt? {
        guard declareName(g.name) else { return nil }
        guard let members = shapeList(g.members) else {
            env.symbols[g.name.name] = .group([])
            return nil
        }
        env.symbols[g.name.name] = .group(members)
        return .declaration(g.span)
    }

    mutating func checkLet(_ l: LetStmt) -> CheckedStmt? {
        if env.preludeNames.remove(l.name.name) != nil { env.symbols[l.name.name] = nil }
        if let existing = env.symbols[l.name.name] {
            if case .global = existing {} else {
                error(.alreadyDeclared(l.name.name, what: describe(existing)), at: l.name.span)
                return nil
            }
        }
        guard let v = check(l.value) else { failedNames.insert(l.name.name); return nil }
        let slot = env.globalKinds.count
        env.globalKinds.append(v.kind)
        env.symbols[l.name.name] = .global(slot: slot, kind: v.kind)
        return .bind(slot: slot, value: v, span: l.span)
    }

    mutating func checkTopLevelWait(_ w: WaitStep) -> CheckedStmt? {
        guard let arg = w.argument else { return .wait(.allFinished, w.span) }
        if case .name(let id) = arg, case .stepName(let sid)? = env.symbols[id.name] {
            return .wait(.named(sid, id.name), w.span)
        }
        guard let t = checkAs(arg, .time) else { return nil }
        return .wait(.duration(t), w.span)
    }

    /// A declaration key written with hyphens (`border-radius`), which cannot name a property:
    /// the anim name for it when another tool uses it, else how to write the custom name.
    mutating func reportHyphenatedKey(_ key: Identifier, shapeKind: ShapeKind) {
        let hint = ForeignNames.property(key.name)
        let meant = hint?.property.flatMap { $0.applies(to: shapeKind) ? $0.name : nil }
        let oneWord = ForeignNames.camelCase(key.name)
        let help = hint.map { ForeignNames.help($0, use: .declaration) }
            ?? "a custom property's name is one word, such as '\(oneWord)' or '\(key.name.replacingHyphens(with: "_"))'"
        diagnostics.error("'\(key.name)' is not a property name" + (meant.map { "; did you mean '\($0)'?" } ?? ""),
                          at: key.span, label: "names cannot contain '-'", help: help)
    }

    /// Reserves a new top-level name, reporting a clash with an existing declaration.
    mutating func declareName(_ id: Identifier) -> Bool {
        if env.preludeNames.remove(id.name) != nil {
            env.symbols[id.name] = nil
            return true
        }
        if let existing = env.symbols[id.name] {
            var d = Diagnostic.error(CheckError.alreadyDeclared(id.name, what: describe(existing)).message, at: id.span)
            if case .shape(let s) = existing { d.secondary.append(.init(span: env.shapes[Int(s.index)].span, text: "declared here")) }
            diagnostics.report(d)
            return false
        }
        return true
    }

    func describe(_ s: Symbol) -> String {
        switch s {
        case .shape(let id): "a \(env.shapes[Int(id.index)].kind.rawValue)"
        case .array: "a shape array"
        case .group: "a group"
        case .global: "a 'let' binding"
        case .stepName: "a step name"
        case .define: "a defined sequence"
        }
    }

    // MARK: - Scopes and errors

    mutating func newLocal(_ name: String, kind: Kind, candidates: [ShapeID]) -> Int {
        let slot = localCount
        localCount += 1
        if scopes.isEmpty { scopes.append([:]) }
        scopes[scopes.count - 1][name] = Local(slot: slot, kind: kind, candidates: candidates)
        return slot
    }

    func lookupLocal(_ name: String) -> Local? {
        for s in scopes.reversed() { if let l = s[name] { return l } }
        return nil
    }

    /// The source text of a span (in this source or a define's).
    func text(_ span: Span) -> String {
        if span.source == file.id { return file.text(of: span) }
        return env.files[span.source]?.text(of: span) ?? "?"
    }

    /// Reports an unknown name, with a did-you-mean from `candidates`; when the program declares
    /// the name later on, points at that declaration instead.
    mutating func reportUnknownName(_ id: Identifier, candidates: [String]) {
        if let later = declarations[id.name], later.source == id.span.source, later.start > id.span.start {
            var d = Diagnostic.error(CheckError.unknownName(id.name, suggestion: nil).message, at: id.span,
                                     help: "declare '\(id.name)' before the line that uses it")
            d.secondary.append(.init(span: later, text: "declared here, after its use"))
            diagnostics.report(d)
            return
        }
        error(.unknownName(id.name, suggestion: DidYouMean.suggest(id.name, from: candidates)), at: id.span)
    }

    mutating func error(_ e: CheckError, at span: Span, label: String? = nil, help: String? = nil) {
        diagnostics.error(e.message, at: span, label: label, help: help)
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
