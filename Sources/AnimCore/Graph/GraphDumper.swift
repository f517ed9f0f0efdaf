// GraphDumper: a sequencer graph as a deterministic tree (`anim check --dump graph`): each node
// with its kind, what it targets, and its static duration.

/// Dumps sequencer graphs.
public struct GraphDumper {
    let environment: Environment
    let sources: SourceMap

    /// Creates a dumper that names shapes and properties from an environment.
    public init(environment: Environment, sources: SourceMap) {
        self.environment = environment
        self.sources = sources
    }

    /// The graph as a tree, one node per line.
    public func dump(_ g: SequencerGraph) -> String {
        var out = ""
        func walk(_ id: NodeID, _ prefix: String, _ childPrefix: String) {
            let n = g[id]
            out += prefix + label(n) + "\n"
            let kids = g.children(of: id)
            for (i, c) in kids.enumerated() {
                let last = i == kids.count - 1
                walk(c, childPrefix + (last ? "└─ " : "├─ "), childPrefix + (last ? "   " : "│  "))
            }
        }
        walk(g.root, "", "")
        return out
    }

    /// `repeat 3`, `repeat while sq.alpha >= 0.5 yoyo`: a repeat node as written, without its
    /// duration or name (empty for another node).
    public func repeatWords(_ n: GraphNode) -> String {
        guard case .repeat(let count, let yoyo, _) = n.kind else { return "" }
        let what = n.repeatLoop?.condition.map { "while " + text($0.span) } ?? count.map { text($0.span) } ?? "forever"
        return "repeat \(what)\(yoyo ? " yoyo" : "")"
    }

    /// `tween square.center 1s [0..1s]`, `sequence 4.1s` …
    public func label(_ n: GraphNode) -> String {
        let name = n.name.map { " as \(environment.stepNames[$0.index])" } ?? ""
        let d = " (\(n.duration))"
        switch n.kind {
        case .sequence(let c): return "sequence of \(c.count)\(d)\(name)"
        case .parallel(let c): return "parallel of \(c.count)\(d)\(name)"
        case .repeat:
            return "\(repeatWords(n))\(d)\(name)"
        case .spring(let sp):
            return "spring \(sp.writes.map { text($0.span) }.joined(separator: "; "))\(d)\(name)"
        case .stagger(let st, _):
            let from = st.fromIndex.map { text($0.span) } ?? st.order.rawValue
            let grid = st.grid.map { " grid (\(text($0.rows.span)), \(text($0.columns.span)))" + ($0.axis.map { " axis \($0.rawValue)" } ?? "") } ?? ""
            return "stagger \(st.amount ? "amount " : "")\(text(st.interval.span))\(grid) from \(from)\(st.easing == nil ? "" : " eased")"
                + " over \(text(st.members.span))\(d)\(name)"
        case .play(let p):
            return "play \(text(p.span).dropFirst(5))\(d)\(name)"
        case .relative(let r, _):
            return "\(r.anchor.rawValue) \(r.nameText)\(r.offset.map { (r.subtracts ? " - " : " + ") + operandText($0.span) } ?? "")\(d)\(name)"
        case .spawn:
            return "instance\(d)\(name)"
        case .select(let mode, _):
            return mode.rawValue + "\(d)\(name)"
        case .conditional(let conditions, let branches):
            let words = conditions.map { "if " + text($0.span) } + (branches.count > conditions.count ? ["else"] : [])
            return words.joined(separator: " / ") + "\(d)\(name)"
        case .tween(let t):
            let targets = t.writes.map { text($0.span) }.joined(separator: "; ")
            return "tween \(targets)\(d)\(name)"
        case .wait(let e): return "wait \(text(e.span))\(d)\(name)"
        case .action(let a):
            switch a {
            case .print(let e): return "print \(text(e.span))\(name)"
            case .set(let w): return "set \(text(w.span))\(name)"
            case .expect(let x): return "expect \(text(x.span).dropFirst(7))\(name)"
            case .control(let c): return "\(c.verb.rawValue) \(c.nameText)\(c.time.map { " " + text($0.span) } ?? "")\(name)"
            case .save: return "save\(name)"
            case .restore: return "restore\(name)"
            case .interruptShapes(let x): return "interrupt \(x.text)\(name)"
            }
        }
    }

    func text(_ s: Span) -> String { sources[s.source]?.text(of: s) ?? "?" }

    /// An operand's text with the parentheses written around it, which its span leaves out
    /// (`after a + (2 * d)`).
    func operandText(_ s: Span) -> String {
        guard let file = sources[s.source] else { return "?" }
        let b = file.bytes
        var i = Int(s.start) - 1, j = Int(s.end)
        while i >= 0, b[i] == 0x20 || b[i] == 0x09 { i -= 1 }
        while j < b.count, b[j] == 0x20 || b[j] == 0x09 { j += 1 }
        let t = file.text(of: s)
        return i >= 0 && j < b.count && b[i] == UInt8(ascii: "(") && b[j] == UInt8(ascii: ")") ? "(\(t))" : t
    }
}
