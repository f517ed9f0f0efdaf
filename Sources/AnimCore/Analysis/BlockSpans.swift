// BlockSpans: the spans an editor folds on — every block (`< … >` of a step, the body of an
// `at`, `on change`, `repeat`, `if`, `stagger`, `after`/`with`, `any`/`choose`) and every step
// with a tween block (`animate`/`spring`: the step's span, whose first line is the step's), read
// straight from the syntax tree. The same spans as SymbolIndex's `blocks`, in the same order,
// without resolving a name (folding needs none, and the index costs a pass over every node).

extension SyntaxTree {
    /// Every block and tween-block step, in the order SymbolIndex lists its `blocks`.
    public var blockSpans: [Span] {
        var out: [Span] = []
        for s in self[statements] {
            switch self[s] {
            case .define(let d): blockSpans(of: d.body, into: &out)
            case .at(let a): blockSpans(of: a.body, into: &out)
            case .onChange(let o): blockSpans(of: o.body, into: &out)
            case .chain(let c): blockSpans(of: c, into: &out)
            case .stage, .shape, .group, .let, .seed, .wait: break
            }
        }
        return out
    }

    private func blockSpans(of c: ChainID, into out: inout [Span]) {
        for s in self[self[c].steps] { blockSpans(of: s, into: &out) }
    }

    private func blockSpans(of b: Block, into out: inout [Span]) {
        out.append(b.span)
        for c in self[b.chains] { blockSpans(of: c, into: &out) }
    }

    private func blockSpans(of s: StepID, into out: inout [Span]) {
        switch self[s] {
        case .animate(let a): out.append(a.span)
        case .spring(let sp): out.append(sp.span)
        case .block(let b): blockSpans(of: b, into: &out)
        case .select(let x): blockSpans(of: x.body, into: &out)
        case .conditional(let c): for (_, body) in c.branches { blockSpans(of: body, into: &out) }
        case .repeat(let r): blockSpans(of: r.body, into: &out)
        case .stagger(let st): blockSpans(of: st.body, into: &out)
        case .relative(let r): blockSpans(of: r.body, into: &out)
        case .wait, .print, .set, .expect, .play, .control: break
        }
    }
}
