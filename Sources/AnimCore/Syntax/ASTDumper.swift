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
    public func dump(_ tree: SyntaxTree) -> String {
        let d = TreeDumper(tree: tree)
        var root = Tree(label: "Program")
        root.children = tree[tree.statements].map(d.node)
        return root.render()
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

    /// The walk of one tree.
    struct TreeDumper {
        let tree: SyntaxTree

        func text(_ s: Span) -> String { tree.text(s) }
        func name(_ id: Identifier) -> String { tree.text(id.span) }

        func node(_ id: StmtID) -> Tree {
            switch tree[id] {
            case .stage(let d): return Tree(label: "Stage", children: [expr(d.size)] + tree[d.properties].map(prop))
            case .shape(let d):
                var t = Tree(label: "Shape \(d.kind.rawValue) \(name(d.name))")
                if let c = d.count { t.children.append(Tree(label: "count", children: [expr(c)])) }
                t.children += tree[d.properties].map(prop)
                return t
            case .group(let g): return Tree(label: "Group \(name(g.name))", children: [expr(g.members)])
            case .let(let l): return Tree(label: "Let \(name(l.name))", children: [expr(l.value)])
            case .seed(let s): return Tree(label: "Seed", children: [expr(s.value)])
            case .define(let d):
                let params = tree[d.parameters].map { name(tree[$0]) }.joined(separator: ", ")
                return Tree(label: "Define \(name(d.name))(\(params))", children: [chain(d.body)])
            case .wait(let w): return Tree(label: "Wait", children: w.argument.map { [expr($0)] } ?? [])
            case .at(let a): return Tree(label: "At", children: [expr(a.time), block(a.body)])
            case .onChange(let o): return Tree(label: "OnChange", children: [expr(o.property), block(o.body)])
            case .chain(let c): return chain(c)
            }
        }

        func prop(_ id: PropertyInitID) -> Tree {
            let p = tree[id]
            return Tree(label: "Property \(name(p.name))", children: [expr(p.value)])
        }

        func chain(_ id: ChainID) -> Tree {
            let c = tree[id]
            let label = "Chain" + (c.name.map { " as \(name($0))" } ?? "")
            return Tree(label: label, children: tree[c.steps].map(step))
        }

        func block(_ b: Block) -> Tree { Tree(label: "Block", children: tree[b.chains].map(chain)) }

        func assignment(_ id: AssignmentID) -> Tree {
            let a = tree[id]
            return Tree(label: "Assign \(a.op.rawValue)", children: [expr(a.target), expr(a.value)])
        }

        func step(_ id: StepID) -> Tree {
            switch tree[id] {
            case .animate(let a):
                return Tree(label: "Animate", children: [expr(a.duration)] + tree[a.options].map(option) + tree[a.assignments].map(assignment))
            case .spring(let sp):
                return Tree(label: sp.preset.map { "Spring \(text($0))" } ?? "Spring", children: tree[sp.parameters].map { p in
                    Tree(label: "Param \(name(tree[p].name))", children: [expr(tree[p].value)])
                } + tree[sp.options].map(option) + tree[sp.assignments].map(assignment))
            case .wait(let w): return Tree(label: "Wait", children: w.argument.map { [expr($0)] } ?? [])
            case .print(let p): return Tree(label: "Print", children: [expr(p.value)])
            case .set(let st): return Tree(label: "Set", children: [assignment(st.assignment)])
            case .expect(let e):
                var t = Tree(label: "Expect \(e.op.rawValue)", children: [expr(e.lhs), expr(e.rhs)])
                if let tol = e.tolerance { t.children.append(Tree(label: "within", children: [expr(tol)])) }
                return t
            case .block(let b): return block(b)
            case .conditional(let c):
                return Tree(label: "If", children: c.branches.map { b in
                    b.condition.map { Tree(label: "when", children: [expr($0), block(b.body)]) } ?? Tree(label: "else", children: [block(b.body)])
                })
            case .select(let s):
                return Tree(label: s.mode == .any ? "Any" : "Choose", children: [block(s.body)])
            case .repeat(let r):
                let label = "Repeat" + (r.count == nil ? " forever" : "") + (r.yoyo ? " yoyo" : "")
                return Tree(label: label, children: (r.count.map { [expr($0)] } ?? []) + [block(r.body)])
            case .stagger(let st):
                var label = "Stagger\(st.amount ? " amount" : "") for \(name(st.variable))" + (st.index.map { ", \(name($0))" } ?? "")
                if let o = st.order { label += " from \(name(o))" }
                if let a = st.axis { label += " axis \(name(a))" }
                var options: [Tree] = []
                if let f = st.fromIndex { options.append(Tree(label: "from", children: [expr(f)])) }
                if let r = st.gridRows, let c = st.gridColumns { options.append(Tree(label: "grid", children: [expr(r), expr(c)])) }
                if let e = st.ease { options.append(Tree(label: "ease \(text(tree.span(e)))", children: [])) }
                return Tree(label: label, children: [expr(st.interval)] + options + [expr(st.sequence), block(st.body)])
            case .play(let p):
                var label = "Play \(name(p.name))"
                if p.reversed { label += " reversed" }
                return Tree(label: label, children: tree[p.arguments].map(expr) + (p.speed.map { [Tree(label: "speed", children: [expr($0)])] } ?? []))
            case .relative(let r):
                return Tree(label: "\(r.anchor.rawValue.capitalizedFirst) \(name(r.target))" + (r.negative ? " -" : r.offset != nil ? " +" : ""),
                            children: (r.offset.map { [expr($0)] } ?? []) + [block(r.body)])
            case .control(let c):
                return Tree(label: "Control \(c.verb.rawValue)", children: [expr(c.target)] + (c.time.map { [expr($0)] } ?? []))
            }
        }

        func option(_ id: OptionID) -> Tree {
            switch tree[id] {
            case .delay(let e, _): Tree(label: "delay", children: [expr(e)])
            case .ease(let e, _): Tree(label: "ease \(text(tree[e].span))")
            case .repeat(let e, _): Tree(label: "repeat" + (e == nil ? " forever" : ""), children: e.map { [expr($0)] } ?? [])
            case .yoyo: Tree(label: "yoyo")
            case .speed(let e, _): Tree(label: "speed", children: [expr(e)])
            case .from(let e, _): Tree(label: "from", children: [expr(e)])
            case .direction(let w, _): Tree(label: "direction \(text(w))")
            case .iterationStart(let e, _): Tree(label: "iteration-start", children: [expr(e)])
            case .endDelay(let e, _): Tree(label: "end-delay", children: [expr(e)])
            case .fill(let w, _): Tree(label: "fill \(text(w))")
            case .repeatDelay(let e, _): Tree(label: "repeat-delay", children: [expr(e)])
            }
        }

        func expr(_ id: ExprID) -> Tree {
            switch tree[id] {
            case .number(let n): return Tree(label: "Number \(text(n.span))")
            case .string(let s): return Tree(label: "String \(text(s.span))")
            case .color(let c): return Tree(label: "Color \(text(c.span))")
            case .bool(let b): return Tree(label: "Bool \(b.value)")
            case .name(let n): return Tree(label: "Name \(name(n))")
            case .member(let m): return Tree(label: "Member .\(name(m.member))", children: [expr(m.base)])
            case .index(let i): return Tree(label: "Index", children: [expr(i.base), expr(i.index)])
            case .call(let c): return Tree(label: "Call \(name(c.callee))", children: tree[c.arguments].map(expr))
            case .pair(let p): return Tree(label: "Pair", children: [expr(p.x), expr(p.y)])
            case .list(let l): return Tree(label: "List", children: tree[l.elements].map(expr))
            case .unary(let u): return Tree(label: "Unary \(u.op.rawValue)", children: [expr(u.operand)])
            case .binary(let b): return Tree(label: "Binary \(b.op.text)", children: [expr(b.lhs), expr(b.rhs)])
            case .not(let n): return Tree(label: "Not", children: [expr(n.operand)])
            }
        }
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
