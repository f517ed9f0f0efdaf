// SymbolIndex: every name a script declares and every place it is used, with spans, read from
// the syntax tree (so it exists even when the check fails). One walk over the tree: each
// declaration (shapes, arrays, groups, lets, defines, their parameters, step names, stagger
// variables) is noted with its name's span and its scope; each use of a name is noted with
// the declaration it means. Top-level names share one namespace, as the checker's
// Environment has it; a use means the last declaration of its name before it (a name may be
// declared again), else the first after it (`after B` before `… as B`). A define's parameters
// and a stagger's variable are local to their body and hide top-level names there.

/// What a declared name is.
public enum DeclarationKind: String, Hashable, Sendable {
    case shape, array, group, `let`, define, parameter, stepName = "step name", loopVariable = "loop variable"
}

/// One declared name.
public struct Declaration: Hashable, Sendable {
    /// The name.
    public var name: String
    /// What it is.
    public var kind: DeclarationKind
    /// The name as written in the declaration.
    public var nameSpan: Span
    /// The whole declaration (a shape's statement, a define, a named chain).
    public var span: Span
    /// Where the name can be used: nil for the whole script (top-level names).
    public var scope: Span?
    /// For a shape or an array: rect, circle or text.
    public var shapeKind: ShapeKind?
    /// For a shape or an array: the properties its declaration gives (name and value spans).
    public var properties: [(name: Span, value: Span)] = []
    /// For a define: its parameters, in order (indices into `SymbolIndex.declarations`).
    public var parameters: [Int] = []

    /// Whether it is the index variable `k` of a stagger's `for c, k in` (its declaration spans
    /// `c, k`; the member's spans only `c`).
    public var isStaggerIndex: Bool { kind == .loopVariable && span.start < nameSpan.start }

    public static func == (a: Declaration, b: Declaration) -> Bool { a.nameSpan == b.nameSpan && a.kind == b.kind }
    public func hash(into h: inout Hasher) { h.combine(nameSpan); h.combine(kind.rawValue) }
}

/// One use of a name.
public struct Reference: Hashable, Sendable {
    /// What a use is.
    public enum Role: Hashable, Sendable {
        /// A declared name (the declaration's index).
        case name(Int)
        /// A property after `.`: the declaration of the name before the dot, when it is one.
        case property(base: Int?)
        /// A built-in function's name in a call.
        case function
        /// A name that is no declaration of the script (a colour, a prelude name, a mistake).
        case unresolved
    }
    /// Where it is.
    public var span: Span
    /// What it is.
    public var role: Role
}

/// The names of a script and their uses.
public struct SymbolIndex: Sendable {
    /// Every declaration, in source order.
    public var declarations: [Declaration] = []
    /// Every use, in source order (declarations are not uses).
    public var references: [Reference] = []
    /// Where the contextual words `and`, `or` and `not` are written as operators, and `any` and
    /// `choose` as the words of their steps.
    public var operatorWords: [Span] = []
    /// Easings as written (`ease NAME(args)`, in options and keyframes), in source order.
    public var easings: [EasingID] = []
    /// Spring steps, in source order.
    public var springs: [StepID] = []
    /// Every step of every chain with the chain holding it, in source order.
    public var steps: [StepID] = []
    /// Blocks (`< … >` of steps, tween blocks, bodies) as spans, for folding.
    public var blocks: [Span] = []

    /// Indexes a parsed tree.
    public init(_ tree: SyntaxTree) {
        var w = Walker(tree: tree)
        for s in tree[tree.statements] { w.statement(s) }
        w.resolve()
        self = w.index
    }

    init() {}

    /// The uses of declaration `d`, in source order.
    public func uses(of d: Int) -> [Span] {
        references.compactMap { r in if case .name(d) = r.role { r.span } else { nil } }
    }

    /// The declaration whose name, or a use of which, covers byte `offset`.
    public func declaration(at offset: UInt32) -> Int? {
        if let k = declarations.firstIndex(where: { $0.nameSpan.covers(offset) }) { return k }
        for r in references where r.span.covers(offset) {
            if case .name(let d) = r.role { return d }
        }
        return nil
    }

    /// The reference covering byte `offset`, if any.
    public func reference(at offset: UInt32) -> Reference? {
        references.first { $0.span.covers(offset) }
    }
}

extension Span {
    /// Whether an offset is in the span or at its end (a cursor right after a name is on it).
    public func covers(_ offset: UInt32) -> Bool { start <= offset && offset <= end }
    /// Whether another span lies within this one.
    public func contains(_ other: Span) -> Bool { source == other.source && start <= other.start && other.end <= end }
}

/// The walk that makes an index.
private struct Walker {
    let tree: SyntaxTree
    var index = SymbolIndex()
    /// Local names in scope, innermost last.
    var locals: [(name: String, declaration: Int)] = []
    /// Top-level declarations by name, in order.
    var globals: [String: [Int]] = [:]
    /// Uses of top-level names, resolved once every declaration is known: (reference, name).
    var pending: [(Int, String)] = []

    init(tree: SyntaxTree) { self.tree = tree }

    func text(_ s: Span) -> String { tree.text(s) }

    mutating func declare(_ d: Declaration) -> Int {
        let k = index.declarations.count
        index.declarations.append(d)
        if d.scope == nil { globals[d.name, default: []].append(k) }
        return k
    }

    /// A use of a name: a local in scope, else a top-level name (resolved later).
    mutating func use(_ span: Span) {
        let name = text(span)
        if let l = locals.last(where: { $0.name == name }) {
            index.references.append(Reference(span: span, role: .name(l.declaration)))
            return
        }
        pending.append((index.references.count, name))
        index.references.append(Reference(span: span, role: .unresolved))
    }

    mutating func resolve() {
        for (r, name) in pending {
            guard let ds = globals[name] else { continue }
            let at = index.references[r].span.start
            let d = ds.last { index.declarations[$0].nameSpan.start <= at } ?? ds[0]
            index.references[r].role = .name(d)
        }
        // Property uses whose base is a name now resolved.
        for k in index.references.indices {
            guard case .property(nil) = index.references[k].role, let base = baseOf[k] else { continue }
            if case .name(let d) = index.references[base].role { index.references[k].role = .property(base: d) }
        }
        index.references.sort { $0.span.start < $1.span.start }
    }

    /// For property references: the reference of the name before the dot.
    var baseOf: [Int: Int] = [:]

    // MARK: Statements

    mutating func statement(_ s: StmtID) {
        switch tree[s] {
        case .stage(let d):
            expr(d.size)
            for p in tree[d.properties] { expr(tree[p].value) }
        case .shape(let d):
            if let c = d.count { expr(c) }
            var decl = Declaration(name: text(d.name.span), kind: d.count == nil ? .shape : .array, nameSpan: d.name.span, span: d.span,
                                   scope: nil, shapeKind: d.kind)
            for p in tree[d.properties] {
                let pi = tree[p]
                decl.properties.append((pi.name.span, tree.span(pi.value)))
                expr(pi.value)
            }
            _ = declare(decl)
        case .group(let g):
            expr(g.members)
            _ = declare(Declaration(name: text(g.name.span), kind: .group, nameSpan: g.name.span, span: g.span, scope: nil))
        case .let(let l):
            expr(l.value)
            _ = declare(Declaration(name: text(l.name.span), kind: .let, nameSpan: l.name.span, span: l.span, scope: nil))
        case .seed(let x):
            expr(x.value)
        case .define(let d):
            let k = declare(Declaration(name: text(d.name.span), kind: .define, nameSpan: d.name.span, span: d.span, scope: nil))
            let body = tree.span(d.body)
            let mark = locals.count
            for p in tree[d.parameters] {
                let span = tree[p].span
                let pk = declare(Declaration(name: text(span), kind: .parameter, nameSpan: span, span: span, scope: body))
                index.declarations[k].parameters.append(pk)
                locals.append((text(span), pk))
            }
            chain(d.body)
            locals.removeSubrange(mark...)
        case .wait(let w):
            if let a = w.argument { expr(a) }
        case .at(let a):
            expr(a.time)
            block(a.body)
        case .onChange(let o):
            expr(o.property)
            block(o.body)
        case .chain(let c):
            chain(c)
        }
    }

    // MARK: Steps

    mutating func chain(_ c: ChainID) {
        let ch = tree[c]
        for s in tree[ch.steps] { step(s) }
        if let n = ch.name {
            _ = declare(Declaration(name: text(n.span), kind: .stepName, nameSpan: n.span, span: ch.span, scope: nil))
        }
    }

    mutating func block(_ b: Block) {
        index.blocks.append(b.span)
        for c in tree[b.chains] { chain(c) }
    }

    mutating func step(_ s: StepID) {
        index.steps.append(s)
        switch tree[s] {
        case .animate(let a):
            expr(a.duration)
            options(a.options)
            assignments(a.assignments, block: a.span)
        case .spring(let sp):
            index.springs.append(s)
            for p in tree[sp.parameters] { expr(tree[p].value) }
            options(sp.options)
            assignments(sp.assignments, block: sp.span)
        case .wait(let w):
            if let a = w.argument { expr(a) }
        case .print(let p):
            expr(p.value)
        case .set(let x):
            assignment(x.assignment)
        case .expect(let e):
            expr(e.lhs); expr(e.rhs)
            if let t = e.tolerance { expr(t) }
        case .block(let b):
            block(b)
        case .select(let s):
            index.operatorWords.append(s.keywordSpan)  // `any` / `choose`, a word read as a keyword here
            block(s.body)
        case .conditional(let c):
            for (condition, body) in c.branches {
                if let e = condition { expr(e) }
                block(body)
            }
        case .repeat(let r):
            if let c = r.count { expr(c) }
            if let d = r.repeatDelay { expr(d) }
            if let v = r.passVariable {
                // `repeat … for k`: the pass index, a local of the condition and the body.
                let k = declare(Declaration(name: text(v.span), kind: .loopVariable, nameSpan: v.span, span: v.span, scope: r.span))
                locals.append((text(v.span), k))
            }
            if let c = r.condition { expr(c) }
            block(r.body)
            if r.passVariable != nil { locals.removeLast() }
        case .stagger(let st):
            expr(st.interval)
            for e in [st.fromIndex, st.gridRows, st.gridColumns].compactMap({ $0 }) { expr(e) }
            expr(st.sequence)
            let k = declare(Declaration(name: text(st.variable.span), kind: .loopVariable, nameSpan: st.variable.span,
                                        span: st.variable.span, scope: st.body.span))
            locals.append((text(st.variable.span), k))
            if let index = st.index {
                // Its declaration is `c, k`: what tells the index from the member (`isStaggerIndex`).
                let i = declare(Declaration(name: text(index.span), kind: .loopVariable, nameSpan: index.span,
                                            span: st.variable.span.merged(with: index.span), scope: st.body.span))
                locals.append((text(index.span), i))
            }
            block(st.body)
            locals.removeLast(st.index == nil ? 1 : 2)
        case .play(let p):
            use(p.name.span)
            for a in tree[p.arguments] { expr(a) }
            if let x = p.speed { expr(x) }
        case .relative(let r):
            use(r.target.span)
            if let o = r.offset { expr(o) }
            block(r.body)
        case .control(let c):
            expr(c.target)
            if let t = c.time { expr(t) }
        }
    }

    mutating func options(_ list: SyntaxList<OptionID>) {
        for o in tree[list] {
            switch tree[o] {
            case .delay(let e, _), .speed(let e, _), .from(let e, _), .iterationStart(let e, _), .endDelay(let e, _),
                 .repeatDelay(let e, _): expr(e)
            case .repeat(let e, _): if let e { expr(e) }
            case .ease(let e, _): index.easings.append(e)
            case .yoyo, .direction, .fill: break
            }
        }
    }

    mutating func assignments(_ list: SyntaxList<AssignmentID>, block span: Span) {
        // The tween block is the part from the first `<` on; the step's span is close enough
        // to fold on (its first line is the step's).
        index.blocks.append(span)
        for a in tree[list] { assignment(a) }
    }

    mutating func assignment(_ a: AssignmentID) {
        let asg = tree[a]
        expr(asg.target)
        expr(asg.value)
        if let ks = asg.keyframes {
            for k in tree[ks] {
                let kf = tree[k]
                expr(kf.value)
                if let o = kf.offset { expr(o) }
                if let e = kf.easing { index.easings.append(e) }
            }
        }
    }

    // MARK: Expressions

    mutating func expr(_ e: ExprID) {
        switch tree[e] {
        case .number, .color, .bool: break
        case .string(let s):
            for p in tree.parts(of: s) { if case .interpolation(let x) = p { expr(x) } }
        case .name(let id):
            use(id.span)
        case .member(let m):
            // `name.prop` and `name[i].prop`: the name's reference is the next one noted.
            var baseRef: Int?
            if case .name = tree[m.base] { baseRef = index.references.count }
            if case .index(let ix) = tree[m.base], case .name = tree[ix.base] { baseRef = index.references.count }
            expr(m.base)
            let k = index.references.count
            index.references.append(Reference(span: m.member.span, role: .property(base: nil)))
            if let b = baseRef {
                if case .name(let d) = index.references[b].role { index.references[k].role = .property(base: d) } else { baseOf[k] = b }
            }
        case .index(let ix):
            expr(ix.base); expr(ix.index)
        case .call(let c):
            if Builtin(rawValue: text(c.callee.span)) != nil {
                index.references.append(Reference(span: c.callee.span, role: .function))
            } else {
                use(c.callee.span)
            }
            for a in tree[c.arguments] { expr(a) }
        case .pair(let p):
            expr(p.x); expr(p.y)
        case .list(let l):
            for x in tree[l.elements] { expr(x) }
        case .unary(let u):
            expr(u.operand)
        case .binary(let b):
            if b.op == .and || b.op == .or { index.operatorWords.append(b.opSpan) }
            expr(b.lhs); expr(b.rhs)
        case .not(let n):
            index.operatorWords.append(Span(source: n.span.source, start: Int(n.span.start), end: Int(n.span.start) + 3))
            expr(n.operand)
        }
    }
}
