// ASTDumper: deterministic text dumps of tokens and syntax trees (`anim check --dump`), drawn
// with `├─` like swift-markdown's MarkupTreeDumper. Golden tests of the lexer and parser
// compare these dumps.

/// Dumps tokens and ASTs as text.
public struct ASTDumper {
    let file: SourceFile

    /// Creates a dumper for one source.
    public init(file: SourceFile) { self.file = file }

    /// One line per token: `line:col kind text`.
    public func dump(tokens: [Token]) -> String {
        var out = ""
        for t in tokens {
            let loc = file.location(of: Int(t.span.start))
            var text = t.kind == .newline ? "" : " " + file.text(of: t.span)
            if t.kind == .number, t.unit != .none { text += " (unit \(t.unit.suffix))" }
            out += "\(loc.line):\(loc.column) \(t.kind == .keyword ? "keyword" : String(describing: t.kind))\(text)\n"
        }
        return out
    }

    /// The program as a tree.
    public func dump(_ program: Program) -> String {
        var tree = Tree(label: "Program")
        tree.children = program.statements.map(node)
        return tree.render()
    }

    /// A labelled tree.
    struct Tree {
        var label: String
        var children: [Tree] = []

        func render() -> String {
            var out = label + "\n"
            for (i, c) in children.enumerated() { out += c.render(prefix: "", last: i == children.count - 1) }
            return out
        }

        func render(prefix: String, last: Bool) -> String {
            var out = prefix + (last ? "└─ " : "├─ ") + label + "\n"
            let p = prefix + (last ? "   " : "│  ")
            for (i, c) in children.enumerated() { out += c.render(prefix: p, last: i == children.count - 1) }
            return out
        }
    }

    func text(_ s: Span) -> String { file.text(of: s) }

    func node(_ s: Stmt) -> Tree {
        switch s {
        case .stage(let d): return Tree(label: "Stage", children: [expr(d.size)] + d.properties.map(prop))
        case .shape(let d):
            var t = Tree(label: "Shape \(d.kind.rawValue) \(d.name.name)")
            if let c = d.count { t.children.append(Tree(label: "count", children: [expr(c)])) }
            t.children += d.properties.map(prop)
            return t
        case .group(let g): return Tree(label: "Group \(g.name.name)", children: [expr(g.members)])
        case .let(let l): return Tree(label: "Let \(l.name.name)", children: [expr(l.value)])
        case .seed(let s): return Tree(label: "Seed", children: [expr(s.value)])
        case .define(let d):
            return Tree(label: "Define \(d.name.name)(\(d.parameters.map(\.name).joined(separator: ", ")))", children: [chain(d.body)])
        case .wait(let w): return Tree(label: "Wait", children: w.argument.map { [expr($0)] } ?? [])
        case .at(let a): return Tree(label: "At", children: [expr(a.time), block(a.body)])
        case .onChange(let o): return Tree(label: "OnChange", children: [expr(o.property), block(o.body)])
        case .chain(let c): return chain(c)
        }
    }

    func prop(_ p: PropertyInit) -> Tree { Tree(label: "Property \(p.name.name)", children: [expr(p.value)]) }

    func chain(_ c: Chain) -> Tree {
        let label = "Chain" + (c.name.map { " as \($0.name)" } ?? "")
        return Tree(label: label, children: c.steps.map(step))
    }

    func block(_ b: Block) -> Tree { Tree(label: "Block", children: b.chains.map(chain)) }

    func assignment(_ a: Assignment) -> Tree {
        Tree(label: "Assign \(a.op.rawValue)", children: [expr(a.target), expr(a.value)])
    }

    func step(_ s: Step) -> Tree {
        switch s {
        case .animate(let a):
            return Tree(label: "Animate", children: [expr(a.duration)] + a.options.map(option) + a.assignments.map(assignment))
        case .spring(let sp):
            return Tree(label: "Spring", children: sp.parameters.map { Tree(label: "Param \($0.name.name)", children: [expr($0.value)]) }
                        + sp.options.map(option) + sp.assignments.map(assignment))
        case .wait(let w): return Tree(label: "Wait", children: w.argument.map { [expr($0)] } ?? [])
        case .print(let p): return Tree(label: "Print", children: [expr(p.value)])
        case .set(let st): return Tree(label: "Set", children: [assignment(st.assignment)])
        case .expect(let e):
            var t = Tree(label: "Expect \(e.op.rawValue)", children: [expr(e.lhs), expr(e.rhs)])
            if let tol = e.tolerance { t.children.append(Tree(label: "within", children: [expr(tol)])) }
            return t
        case .block(let b): return block(b)
        case .repeat(let r):
            let label = "Repeat" + (r.count == nil ? " forever" : "") + (r.yoyo ? " yoyo" : "")
            return Tree(label: label, children: (r.count.map { [expr($0)] } ?? []) + [block(r.body)])
        case .stagger(let st):
            return Tree(label: "Stagger for \(st.variable.name)" + (st.order.map { " from \($0.name)" } ?? ""),
                        children: [expr(st.interval), expr(st.sequence), block(st.body)])
        case .play(let p):
            var label = "Play \(p.name.name)"
            if p.reversed { label += " reversed" }
            return Tree(label: label, children: p.arguments.map(expr) + (p.speed.map { [Tree(label: "speed", children: [expr($0)])] } ?? []))
        case .relative(let r):
            return Tree(label: "\(r.anchor.rawValue.capitalizedFirst) \(r.target.name)" + (r.negative ? " -" : r.offset != nil ? " +" : ""),
                        children: (r.offset.map { [expr($0)] } ?? []) + [block(r.body)])
        case .control(let c):
            return Tree(label: "Control \(c.verb.rawValue)", children: [expr(c.target)] + (c.time.map { [expr($0)] } ?? []))
        }
    }

    func option(_ o: TweenOption) -> Tree {
        switch o {
        case .delay(let e, _): Tree(label: "delay", children: [expr(e)])
        case .ease(let e, _): Tree(label: "ease \(text(e.span))")
        case .repeat(let e, _): Tree(label: "repeat" + (e == nil ? " forever" : ""), children: e.map { [expr($0)] } ?? [])
        case .yoyo: Tree(label: "yoyo")
        case .speed(let e, _): Tree(label: "speed", children: [expr(e)])
        case .from(let e, _): Tree(label: "from", children: [expr(e)])
        }
    }

    func expr(_ e: Expr) -> Tree {
        switch e {
        case .number(let n): return Tree(label: "Number \(text(n.span))")
        case .string(let s): return Tree(label: "String \(text(s.span))")
        case .color(let c): return Tree(label: "Color \(text(c.span))")
        case .bool(let b): return Tree(label: "Bool \(b.value)")
        case .name(let n): return Tree(label: "Name \(n.name)")
        case .member(let m): return Tree(label: "Member .\(m.member.name)", children: [expr(m.base)])
        case .index(let i): return Tree(label: "Index", children: [expr(i.base), expr(i.index)])
        case .call(let c): return Tree(label: "Call \(c.callee.name)", children: c.arguments.map(expr))
        case .pair(let p): return Tree(label: "Pair", children: [expr(p.x), expr(p.y)])
        case .list(let l): return Tree(label: "List", children: l.elements.map(expr))
        case .unary(let u): return Tree(label: "Unary \(u.op.rawValue)", children: [expr(u.operand)])
        case .binary(let b): return Tree(label: "Binary \(b.op.rawValue)", children: [expr(b.lhs), expr(b.rhs)])
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
