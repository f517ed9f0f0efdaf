// DOTWriter: the sequencer graphs of a run in Graphviz DOT (`anim graph`). Each top-level graph
// is a cluster (the runs of one observer's block share one); each node is labelled with its
// kind and target (GraphDumper's words), its static duration, and when it ran. Edges say how
// children are composed: `then` (sequence) edges are solid and chain the children in order;
// block (parallel) edges are dashed and fan out from the block; other containers (repeat,
// stagger, after/with, named instances) are dotted.
// A graph's steps include those its child instances ran: a named chain's and a yoyo pass's
// steps are nodes of the same graph, and a `play` ran when its sequence did.

/// Writes DOT.
public enum DOTWriter {
    /// The DOT text of every top-level graph of a run: `dumper` labels the nodes, `line` gives
    /// the source line of a span (Session.dot(_:) supplies both).
    public static func render(_ timeline: Timeline, dumper: GraphDumper, line: (Span) -> Int?) -> String {
        var out = """
        digraph anim {
          graph [rankdir=TB, fontname="Helvetica", fontsize=11, labeljust=l];
          node [shape=box, style="rounded,filled", fillcolor="#f2f4f7", fontname="Helvetica", fontsize=10];
          edge [fontname="Helvetica", fontsize=9];

        """
        let homes = homes(timeline)
        // The runs of one graph (an `on change` observer starts its block every frame it fires)
        // are one cluster, its times those of every run.
        var runsOfGraph: [[Int]] = []
        var groupOfSpan: [Span: Int] = [:]
        for (i, run) in timeline.graphs.enumerated() where run.topLevel {
            let root = run.graph.nodes.first?.span
            if let r = root, let g = groupOfSpan[r], timeline.graphs[runsOfGraph[g][0]].graph == run.graph {
                runsOfGraph[g].append(i)
            } else {
                if let r = root { groupOfSpan[r] = runsOfGraph.count }
                runsOfGraph.append([i])
            }
        }
        for (cluster, group) in runsOfGraph.enumerated() {
            let run = timeline.graphs[group[0]]
            let times = spans(timeline, homes: homes, instances: Set(group))
            let where_ = run.graph.nodes.first.flatMap { line($0.span) }.map { "line \($0)" } ?? "graph"
            let ends = group.map { timeline.graphs[$0].end }
            let end = ends.contains(nil) ? "…" : TimelineLanes.seconds(ends.map { $0! }.max()!)
            let count = group.count > 1 ? ", \(group.count) runs" : ""
            out += "  subgraph cluster_\(cluster) {\n"
            out += "    label=\(quote("graph \(cluster + 1) (\(where_)): \(TimelineLanes.seconds(run.start))–\(end)\(count)"));\n"
            out += "    style=rounded; color=\"#9aa3ad\";\n"
            for (n, node) in run.graph.nodes.enumerated() {
                var lines = [dumper.label(node)]
                if let t = times[n] {
                    lines.append(t.0 == t.1 ? "at \(TimelineLanes.seconds(t.0))" : "\(formatFixed(t.0.seconds, 3))–\(TimelineLanes.seconds(t.1))")
                } else {
                    lines.append("did not run")
                }
                out += "    \(id(cluster, n)) [label=\(quote(lines.joined(separator: "\n")))\(style(node.kind))];\n"
            }
            for (n, node) in run.graph.nodes.enumerated() {
                switch node.kind {
                case .sequence(let list):
                    let c = run.graph[list]
                    guard let first = c.first else { break }
                    out += "    \(id(cluster, n)) -> \(id(cluster, Int(first.index))) [style=solid, color=\"#1f5fa8\"];\n"
                    for (a, b) in zip(c, c.dropFirst()) {
                        out += "    \(id(cluster, Int(a.index))) -> \(id(cluster, Int(b.index))) [style=solid, penwidth=2, color=\"#1f5fa8\", label=\"then\"];\n"
                    }
                case .parallel(let c):
                    for k in run.graph[c] {
                        out += "    \(id(cluster, n)) -> \(id(cluster, Int(k.index))) [style=dashed, color=\"#c0392b\", label=\"block\"];\n"
                    }
                case .repeat(_, _, let b), .stagger(_, let b), .relative(_, let b), .spawn(let b):
                    out += "    \(id(cluster, n)) -> \(id(cluster, Int(b.index))) [style=dotted];\n"
                case .select(let mode, let list):
                    for b in run.graph[list] {
                        out += "    \(id(cluster, n)) -> \(id(cluster, Int(b.index))) [style=dotted, label=\"\(mode.rawValue)\"];\n"
                    }
                case .conditional(let conditions, let list):
                    for (k, b) in run.graph[list].enumerated() {
                        let label = k < conditions.count ? (k == 0 ? "if" : "else if") : "else"
                        out += "    \(id(cluster, n)) -> \(id(cluster, Int(b.index))) [style=dotted, label=\"\(label)\"];\n"
                    }
                case .tween, .wait, .action, .spring, .play:
                    break
                }
            }
            out += "  }\n"
        }
        return out + "}\n"
    }

    /// `g0_n3`.
    static func id(_ graph: Int, _ node: Int) -> String { "g\(graph)_n\(node)" }

    /// Node attributes by kind: containers plain, tweens blue, springs violet, actions amber.
    static func style(_ k: NodeKind) -> String {
        switch k {
        case .sequence, .parallel, .repeat, .stagger, .relative, .spawn, .conditional, .select: ", fillcolor=\"#ffffff\""
        case .tween: ", fillcolor=\"#dbe9f8\""
        case .spring: ", fillcolor=\"#eadcf8\""
        case .wait: ", fillcolor=\"#eeeeee\", style=\"rounded,dashed,filled\""
        case .action: ", shape=note, fillcolor=\"#fdf0c8\""
        case .play: ", fillcolor=\"#dff3e4\""
        }
    }

    /// For each instance, the top-level instance whose cluster it belongs to and, when its
    /// nodes are not that graph's (it runs a `play`'s sequence), the node it counts for.
    /// Parents come before their children in `Timeline.graphs`.
    static func homes(_ timeline: Timeline) -> [(top: Int, node: Int?)] {
        var out: [(top: Int, node: Int?)] = []
        out.reserveCapacity(timeline.graphs.count)
        for (j, run) in timeline.graphs.enumerated() {
            guard let p = run.parent, p.instance < j else { out.append((j, nil)); continue }
            let up = out[p.instance]
            if let n = up.node {
                out.append((up.top, n))
            } else if case .play = timeline.graphs[p.instance].graph[p.node].kind {
                out.append((up.top, Int(p.node.index)))
            } else {
                out.append((up.top, nil))  // a named chain or a yoyo pass: the same graph
            }
        }
        return out
    }

    /// When each node of the top-level runs `runs` of one graph ran: its leaves' first begin and
    /// last end (with their child instances' leaves), a `play`, a named chain and a yoyo
    /// `repeat` while their instance ran, and for other containers the span of the nodes below them.
    static func spans(_ timeline: Timeline, homes: [(top: Int, node: Int?)], instances runs: Set<Int>) -> [Int: (Time, Time)] {
        var out: [Int: (Time, Time)] = [:]
        func note(_ n: Int, _ begin: Time, _ end: Time) {
            out[n] = out[n].map { (min($0.0, begin), max($0.1, end)) } ?? (begin, end)
        }
        for a in timeline.activities where runs.contains(homes[a.instance].top) {
            note(homes[a.instance].node ?? Int(a.node.index), a.begin, a.end ?? timeline.end)
        }
        for (j, run) in timeline.graphs.enumerated() where runs.contains(homes[j].top) {
            guard let p = run.parent else { continue }
            note(homes[j].node ?? Int(p.node.index), run.start, run.end ?? timeline.end)
        }
        // Containers: fold children into parents, last node first (pre-order reversed). An
        // `any` ends with its first chain (the others go on past it).
        let g = timeline.graphs[runs.min()!].graph
        for n in g.nodes.indices.reversed() {
            if case .select(.any, _) = g.nodes[n].kind {
                let ts = g.children(of: NodeID(n)).compactMap { out[Int($0.index)] }
                if let b = ts.map(\.0).min(), let e = ts.map(\.1).min() { out[n] = (b, e) }
                continue
            }
            for k in g.children(of: NodeID(n)) {
                guard let t = out[Int(k.index)] else { continue }
                out[n] = out[n].map { (min($0.0, t.0), max($0.1, t.1)) } ?? t
            }
        }
        return out
    }

    /// A DOT string literal.
    static func quote(_ s: String) -> String {
        var o = "\""
        for ch in s {
            switch ch {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case "\n": o += "\\n"
            default: o.append(ch)
            }
        }
        return o + "\""
    }
}
