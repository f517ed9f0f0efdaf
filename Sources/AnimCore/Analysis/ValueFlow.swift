// ValueFlow: where the value of a top-level `let` can go, read from the syntax tree, so that an
// editor may know that changing its number (`let gap = 12` → `125`) changes no diagnostic and
// no time of the timing run — only values that are written to properties and never read back.
//
// What the passes read of a value (and so what must never be reached): the checker folds only
// constants written in place (a `let` is a slot of its kind, never folded into its uses); the
// runtime reads values for durations, delays, counts, speeds, conditions, indices, keyframe
// offsets, spring parameters, string interpolations, calls (which may fail: `sqrt`, `mod`, …),
// declarations' initial values, and properties read back (`s.offset.x`, `velocity`, `on
// change`, `expect`, a relative write `+=`, a spring's start and settling time, which depend
// on the distance it moves). Arithmetic fails only on a result that is not finite.
//
// So a `let` is a pure value when every use of its name (and, transitively, of every `let` and
// define parameter it flows into) is, through negation, pairs, `+`, `-` and `*` by constants of
// at most 10⁶, either the value of another `let`, an argument of a `play` of a define of the
// script (then the parameter's name is followed the same way), or the target value of a plain
// `=` write of a point, angle or number property (`center`, `offset`, `rotation`, `scale`) in an
// `animate` or a `set` — a property no expression reads and no spring moves. Names are matched by
// their text wherever they appear (a parameter `h` of one define is followed into every `h`), an
// over-approximation that never misses a use. The walk also bounds how much the value can grow
// on its way (the amplification), so that a caller can tell a finite result from an overflow.

/// Where a `let`'s value flows.
public enum ValueFlow {
    /// The properties a pure value may be written to: values the runtime interpolates without
    /// checking them (no range, no morph, no layout).
    static let writable: Set<String> = ["center", "offset", "rotation", "scale"]
    /// The largest constant a pure value may be added to or multiplied by.
    static let maxConstant = 1e6
    /// How many times the walk may go round (names flowing into names) before giving up.
    static let maxRounds = 16

    /// Nil when the value of the top-level `let` `stmt` (a number written alone) may reach
    /// anything but values written to properties; else the amplification: the largest factor
    /// by which a written value can exceed `max(1, |the let's value|)` in magnitude.
    public static func amplification(ofLet stmt: StmtID, in tree: SyntaxTree) -> Double? {
        guard case .let(let l) = tree[stmt], case .number = tree[l.value] else { return nil }
        // What no pure value may meet anywhere: an `expect`, an observer; and every name and
        // property read, to be checked against the walk.
        var names: [Int32] = [], members: [Int32] = []
        for raw in 0..<Int32(tree.nodes.count) {
            switch tree.nodes[Int(raw)].kind {
            case .name: names.append(raw)
            case .member: members.append(raw)
            case .expect, .onChange: return nil
            default: break
            }
        }
        var defines: [String: [String]] = [:]
        for s in tree[tree.statements] {
            if case .define(let d) = tree[s] { defines[tree.text(d.name.span)] = tree[d.parameters].map { tree.text(tree[$0].span) } }
        }
        var walk = Walk(tree: tree, defines: defines, tainted: [tree.text(l.name.span): 1])
        var converged = false
        for _ in 0..<maxRounds {
            let before = walk.tainted
            walk.round()
            if walk.failed { return nil }
            if walk.tainted == before { converged = true; break }
        }
        guard converged else { return nil }
        // Every use of a followed name is one the walk allowed.
        for raw in names where walk.tainted[tree.text(tree.span(ofNode: raw))] != nil && !walk.allowed.contains(raw) { return nil }
        // No property a pure value is written to is named anywhere but as a plain write's
        // target: not read, not moved by a spring, not written relatively or by keyframes (their
        // targets are not `targets`), not interrupted.
        for raw in members where !walk.targets.contains(raw) {
            guard case .member(let m) = tree[ExprID(raw: raw)] else { continue }
            if walk.written.contains(tree.text(m.member.span)) { return nil }
        }
        return walk.amplification
    }

    /// One walk over the program with the names followed so far.
    struct Walk {
        let tree: SyntaxTree
        let defines: [String: [String]]
        /// The names followed, with their amplification.
        var tainted: [String: Double]
        /// The `name` nodes of followed names in allowed places (of the last round).
        var allowed: Set<Int32> = []
        /// The properties written with a pure value.
        var written: Set<String> = []
        /// The member nodes that are the targets of plain writes in `animate` and `set` (not
        /// reads).
        var targets: Set<Int32> = []
        var amplification = 1.0
        var failed = false

        /// What an expression is, for the walk.
        enum Flow { case constant(Double), opaque, pure(Double) }

        mutating func round() {
            allowed = []; written = []; targets = []; amplification = 1
            for s in tree[tree.statements] {
                switch tree[s] {
                case .let(let l): flowsInto(name: tree.text(l.name.span), value(l.value))
                case .define(let d): chain(d.body)
                case .at(let a): block(a.body)
                case .chain(let c): chain(c)
                case .stage, .shape, .group, .seed, .wait, .onChange: break
                }
                if failed { return }
            }
        }

        mutating func flowsInto(name: String, _ f: Flow) {
            guard case .pure(let k) = f else { return }
            if k > (tainted[name] ?? 0) { tainted[name] = k }
        }

        mutating func block(_ b: Block) { for c in tree[b.chains] { chain(c) } }

        mutating func chain(_ c: ChainID) { for s in tree[tree[c].steps] { step(s) } }

        mutating func step(_ s: StepID) {
            switch tree[s] {
            case .animate(let a): for w in tree[a.assignments] { write(w) }
            case .set(let st): write(st.assignment)
            case .spring:
                // A spring's duration depends on where it starts and ends: its values are not
                // walked (a name there is not allowed) and its targets are reads.
                break
            case .block(let b): block(b)
            case .repeat(let r): block(r.body)
            case .stagger(let st): block(st.body)
            case .relative(let r): block(r.body)
            case .conditional(let i): for b in i.branches { block(b.body) }
            case .select(let sel): block(sel.body)
            case .play(let p):
                for (i, arg) in tree[p.arguments].enumerated() {
                    let f = value(arg)
                    guard case .pure = f else { continue }
                    guard let params = defines[tree.text(p.name.span)], i < params.count else { failed = true; return }
                    flowsInto(name: params[i], f)
                }
            case .wait, .print, .expect, .control: break
            }
        }

        /// A write in an `animate` or a `set`: only `=` without keyframes is a pure write.
        mutating func write(_ id: AssignmentID) {
            let w = tree[id]
            guard w.op == .assign, w.keyframes == nil, !w.isPath, !w.orient, case .member(let m) = tree[w.target] else { return }
            targets.insert(w.target.raw)
            guard case .pure(let k) = value(w.value) else { return }
            let property = tree.text(m.member.span)
            guard ValueFlow.writable.contains(property) else { failed = true; return }
            written.insert(property)
            amplification = max(amplification, k)
        }

        /// How an expression carries followed names; marks their nodes allowed. Forms other than
        /// negation, pairs, `+`, `-` and `*` are opaque and their names are not marked.
        mutating func value(_ e: ExprID) -> Flow {
            switch tree[e] {
            case .number:
                guard let (m, exponent, _, negative) = tree.plainNumber(e) else { return .opaque }
                let v = Double(m) * pow10(exponent)
                return .constant(negative ? -v : v)
            case .name(let n):
                guard let k = tainted[tree.text(n.span)] else { return .opaque }
                allowed.insert(e.raw)
                return .pure(k)
            case .unary(let u):
                switch value(u.operand) {
                case .constant(let c): return .constant(-c)
                case let f: return f
                }
            case .pair(let p):
                let x = value(p.x), y = value(p.y)
                switch (x, y) {
                case (.pure(let a), .pure(let b)): return .pure(max(a, b))
                case (.pure(let a), .constant), (.constant, .pure(let a)): return .pure(a)
                case (.pure, .opaque), (.opaque, .pure): failed = true; return .opaque
                default: return .opaque
                }
            case .binary(let b):
                guard case .arithmetic(let op) = b.op, op != .divide else { return .opaque }
                let x = value(b.lhs), y = value(b.rhs)
                switch (x, y) {
                case (.constant(let a), .constant(let c)):
                    return .constant(op == .add ? a + c : op == .subtract ? a - c : a * c)
                case (.pure(let a), .pure(let c)):
                    guard op != .multiply else { failed = true; return .opaque }
                    return .pure(a + c)
                case (.pure(let a), .constant(let c)), (.constant(let c), .pure(let a)):
                    guard abs(c) <= ValueFlow.maxConstant else { failed = true; return .opaque }
                    return .pure(op == .multiply ? a * max(1, abs(c)) : a + abs(c))
                case (.pure, .opaque), (.opaque, .pure): failed = true; return .opaque
                default: return .opaque
                }
            default:
                return .opaque
            }
        }

        func pow10(_ k: Int) -> Double {
            var r = 1.0
            for _ in 0..<abs(k) { r *= 10 }
            return k < 0 ? 1 / r : r
        }
    }
}
