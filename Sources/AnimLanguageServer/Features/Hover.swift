// Hover (`textDocument/hover`), as markdown:
// - a shape (its name anywhere): its kind, the properties its declaration gives, and every
//   property it has with its kind;
// - `shape.prop`: the property's kind, and inside a step its value when that step starts and
//   when it ends in the timing run; `.x` or `.y` after a point property: which component;
// - a step (its first word, or `<` of a block): when it starts and ends in the run, its
//   duration, and how often it ran;
// - an easing: what it is; a spring: its parameters and settling time, and its time in the run;
// - a define: its signature and how long a play of it lasts; a step name: the named chain's
//   times; a let, a group, a parameter, a loop variable, a built-in function: what it is.
import AnimCore

struct HoverFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["hoverProvider"] = true
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/hover": { ctx throws(ResponseError) in
                let (a, offset) = try ctx.requestedSourcePosition()
                guard let (text, span) = Hover.hover(a, at: offset) else { return .null }
                return ["contents": ["kind": "markdown", "value": .string(text)], "range": a.range(of: span, encoding: ctx.encoding).json]
            },
        ]
    }
}

enum Hover {
    static func hover(_ a: DocumentAnalysis, at offset: UInt32) -> (String, Span)? {
        let s = a.script.symbols
        let tree = a.script.tree
        if let r = s.reference(at: offset) {
            switch r.role {
            case .property(let base): return (property(a, r.span, base: base), r.span)
            case .function:
                let name = a.text(of: r.span)
                guard let f = FunctionSignature.named(name) else { return nil }
                return ("```anim\n\(f.label)\n```\nbuilt-in function: \(f.summary)", r.span)
            case .name(let d): return (declaration(a, d), r.span)
            case .unresolved:
                let name = a.text(of: r.span)
                if Vocabulary.colorNameSet.contains(name) { return ("CSS colour `\(name)`", r.span) }
                if let d = Vocabulary.preludeDefines.first(where: { $0.name == name }) {
                    return ("```anim\ndefine \(name)(\(d.parameters.joined(separator: ", ")))\n```\nfrom the prelude", r.span)
                }
                return nil
            }
        }
        if let d = s.declarations.firstIndex(where: { $0.nameSpan.covers(offset) }) {
            return (declaration(a, d), s.declarations[d].nameSpan)
        }
        for e in s.easings where tree[e].span.covers(offset) {
            return ("easing " + tree.describeEasing(e), tree[e].span)
        }
        // The innermost step whose first word (or `<`) is here.
        for st in s.steps.reversed() {
            let span = tree.span(st)
            let head = headSpan(a, span)
            guard head.covers(offset) else { continue }
            var text = ""
            if case .spring = tree[st] { text = tree.describeSpring(st) + "\n\n" }
            text += timing(a, span)
            return (text, head)
        }
        return nil
    }

    /// A step's first word, or its `<`.
    static func headSpan(_ a: DocumentAnalysis, _ span: Span) -> Span {
        let b = a.script.tree.file.bytes
        var k = Int(span.start)
        if k < b.count, b[k] == UInt8(ascii: "<") { return Span(source: span.source, start: k, end: k + 1) }
        while k < Int(span.end), k < b.count, (b[k] >= 0x61 && b[k] <= 0x7A) { k += 1 }
        return Span(source: span.source, start: Int(span.start), end: k)
    }

    /// When the step with this span ran.
    static func timing(_ a: DocumentAnalysis, _ span: Span) -> String {
        guard a.script.timeline != nil else { return "not timed: the script does not check" }
        guard let t = a.script.stepTimes.time(of: span) else {
            return a.stoppedByBudget ? "not reached before the work budget stopped the timing run" : "never runs in the timing run"
        }
        var out = "starts at \(stamp(t.start))"
        if let e = t.end { out += ", ends at \(stamp(e)), lasts \(stamp(e - t.start))" } else { out += ", still running when the run stops" }
        if t.runs > 1 { out += " (\(t.runs) runs: the first start and the last end)" }
        return out
    }

    static func stamp(_ t: Time) -> String { "\(t.eventStamp)s" }

    static func declaration(_ a: DocumentAnalysis, _ d: Int) -> String {
        let s = a.script.symbols
        let decl = s.declarations[d]
        let env = a.script.environment
        switch decl.kind {
        case .shape, .array:
            var out = "```anim\n\(decl.shapeKind?.rawValue ?? "shape") \(decl.name)"
            if decl.kind == .array, case .shape(let sd) = a.script.tree[stmtAt(a, decl.span)!], let c = sd.count {
                out += "[\(a.text(of: a.script.tree.span(c)))]"
            }
            out += "\n```\n"
            if !decl.properties.isEmpty {
                out += "declared: " + decl.properties.map { "`\(a.text(of: $0.name)) \(a.text(of: $0.value))`" }.joined(separator: ", ") + "\n\n"
            }
            if let env, let id = shapeID(env, decl.name) {
                out += "properties: " + env.propertyNames(of: id).map { p in
                    "`\(p)` \(env.propertyID(named: p).flatMap { env.kind(of: $0, on: id) }?.description ?? "?")"
                }.joined(separator: ", ")
            }
            return out
        case .group:
            return "```anim\ngroup \(decl.name)\n```\n" + (stmtAt(a, decl.span).flatMap { st in
                if case .group(let g) = a.script.tree[st] { "members: `\(a.text(of: a.script.tree.span(g.members)))`" } else { nil }
            } ?? "")
        case .let:
            var kind = ""
            if let env, case .global(_, let k)? = env.symbol(named: decl.name) { kind = ": \(k)" }
            let value = stmtAt(a, decl.span).flatMap { st -> String? in
                if case .let(let l) = a.script.tree[st] { a.text(of: a.script.tree.span(l.value)) } else { nil }
            } ?? ""
            return "```anim\nlet \(decl.name) = \(value)\n```\n" + (kind.isEmpty ? "" : "a \(kind.dropFirst(2))")
        case .define:
            let params = decl.parameters.map { s.declarations[$0].name }
            var out = "```anim\ndefine \(decl.name)(\(params.joined(separator: ", ")))\n```\n"
            // How long it lasts: its plays in the run.
            let plays = s.uses(of: d).compactMap { u in s.steps.first { a.script.tree.span($0).contains(u) && isPlay(a, $0) } }
            if let p = plays.first, let t = a.script.stepTimes.time(of: a.script.tree.span(p)), let e = t.end {
                let line = a.text.line(ofOffset: a.documentOffset(a.script.tree.span(p).start)) + 1
                out += "lasts \(stamp(e - t.start)) as played on line \(line)"
            } else {
                out += plays.isEmpty ? "never played" : "its plays did not run to their end in the timing run"
            }
            return out
        case .parameter:
            let owner = s.declarations.first { $0.parameters.contains(d) }?.name ?? "?"
            return "parameter `\(decl.name)` of `define \(owner)`"
        case .loopVariable:
            if decl.isStaggerIndex { return "loop variable `\(decl.name)`: the index of each shape of the stagger, from 0" }
            return "loop variable `\(decl.name)`: each shape of the stagger in turn"
        case .stepName:
            return "step name `\(decl.name)`\n\n" + timing(a, decl.span)
        }
    }

    static func isPlay(_ a: DocumentAnalysis, _ s: StepID) -> Bool {
        if case .play = a.script.tree[s] { return true }
        return false
    }

    /// The top-level statement with this span.
    static func stmtAt(_ a: DocumentAnalysis, _ span: Span) -> StmtID? {
        let tree = a.script.tree
        return tree[tree.statements].first { tree.span($0) == span }
    }

    /// The first shape a name stands for.
    static func shapeID(_ env: Environment, _ name: String) -> ShapeID? {
        switch env.symbol(named: name) {
        case .shape(let id): id
        case .array(let first, _): first
        case .group(let ids): ids.first
        default: nil
        }
    }

    /// What a text's `glyphs` is (Grammar.md §4.12) when `name` is a text shape whose glyphs
    /// a script may name (its string a constant; how many, from the check when it passed, else
    /// from the declaration alone): nil otherwise.
    static func glyphsDetail(_ a: DocumentAnalysis, _ name: String) -> String? {
        guard let env = a.script.environment else {
            return a.script.symbols.declarations.last(where: { $0.name == name && $0.kind == .shape })?.shapeKind == .text ? "list of glyph shapes" : nil
        }
        guard let id = shapeID(env, name), env.shapes[Int(id.index)].kind == .text, let count = env.glyphCounts[id] else { return nil }
        return "list of \(count) glyph shape\(count == 1 ? "" : "s")"
    }

    /// `title.glyphs`: what it is.
    static func glyphs(_ a: DocumentAnalysis, text: String, detail: String) -> String {
        "`\(text).glyphs`: \(detail), one per character of its text, each with `offset` point, `rotation` angle, "
            + "`scale` point, `alpha` number and `color` color (Grammar.md §4.12)"
    }

    /// `shape.prop`: its kind, and its values at the start and end of the step around it.
    static func property(_ a: DocumentAnalysis, _ span: Span, base: Int?) -> String {
        let name = a.text(of: span)
        if base == nil, name == "x" || name == "y", let c = component(a, span) { return c }
        let builtin = BuiltinProperty.named(name).map { "built-in property `\(name)`: \($0.kind)" } ?? "property `\(name)`"
        // A text's glyphs, unless a property of its own has that name.
        if name == "glyphs", let base, a.script.symbols.declarations[base].properties.allSatisfy({ a.text(of: $0.name) != name }),
           let detail = glyphsDetail(a, a.script.symbols.declarations[base].name) {
            return glyphs(a, text: a.script.symbols.declarations[base].name, detail: detail)
        }
        guard let base, let env = a.script.environment else { return builtin }
        let decl = a.script.symbols.declarations[base]
        guard let id = shapeID(env, decl.name), let prop = env.propertyID(named: name), let kind = env.kind(of: prop, on: id) else {
            return builtin
        }
        var out = "`\(decl.name).\(name)`: \(kind)"
        let tree = a.script.tree
        guard decl.kind == .shape, a.script.timeline != nil, let timeline = a.history,
              let step = a.script.symbols.steps.last(where: { tree.span($0).contains(span) && isTween(a, $0) }) else { return out }
        guard let t = a.script.stepTimes.time(of: tree.span(step)) else { return out + "\n\nthe step around it never runs in the timing run" }
        let v0 = timeline.value(id, prop, at: t.start).map { "\($0)" } ?? "?"
        out += "\n\nat the step's start (\(stamp(t.start))): `\(v0)`"
        if let e = t.firstEnd {
            out += "\n\nat its end (\(stamp(e))): `\(timeline.value(id, prop, at: e).map { "\($0)" } ?? "?")`"
        }
        if t.runs > 1 { out += "\n\n(the first of \(t.runs) runs)" }
        return out
    }

    /// `.x` or `.y` of `name.prop` where the property is a point: which component it is.
    static func component(_ a: DocumentAnalysis, _ span: Span) -> String? {
        let line = a.text.line(ofOffset: Int(span.start))
        let before = Array(a.text.bytes[a.text.lineStarts[line]..<Int(span.start)])
        guard before.last == UInt8(ascii: ".") else { return nil }
        let base = Array(before.dropLast())
        let property = Completion.lastWord(base)
        guard Completion.pointComponents(CompletionSource(a), base: base, property: property) != nil else { return nil }
        // The point as written, `row[2].size` too.
        var shape = Array(base.dropLast(property.utf8.count).dropLast())
        if shape.last == UInt8(ascii: "]"), let open = shape.lastIndex(of: UInt8(ascii: "[")) { shape = Array(shape[..<open]) }
        let point = String(decoding: base[(shape.count - Completion.lastWord(shape).utf8.count)...], as: UTF8.self)
        var out = "`\(a.text(of: span))`: number, the \(a.text(of: span)) component of the point `\(point)`"
        out += componentValues(a, span, propertyEnd: span.start - 1, property: property)
        return out
    }

    /// Inside a tween, spring or `set` that writes or reads `name.prop.x`: the component's value
    /// when the step starts and ends in the timing run (components are owned apart, §6.3).
    static func componentValues(_ a: DocumentAnalysis, _ span: Span, propertyEnd: UInt32, property: String) -> String {
        let tree = a.script.tree
        guard let env = a.script.environment, a.script.timeline != nil, let timeline = a.history,
              let r = a.script.symbols.reference(at: propertyEnd - 1), case .property(let base?) = r.role else { return "" }
        let decl = a.script.symbols.declarations[base]
        guard decl.kind == .shape, let id = shapeID(env, decl.name), let prop = env.propertyID(named: property),
              let step = a.script.symbols.steps.last(where: { tree.span($0).contains(span) && isTween(a, $0) }),
              let t = a.script.stepTimes.time(of: tree.span(step)) else { return "" }
        let c = a.text(of: span) == "x" ? 0 : 1
        func at(_ time: Time) -> String {
            guard case .point(let p)? = timeline.value(id, prop, at: time) else { return "?" }
            return formatNumber(c == 0 ? p.x : p.y)
        }
        var out = "\n\nat the step's start (\(stamp(t.start))): `\(at(t.start))`"
        if let e = t.firstEnd { out += "\n\nat its end (\(stamp(e))): `\(at(e))`" }
        return out
    }

    static func isTween(_ a: DocumentAnalysis, _ s: StepID) -> Bool {
        switch a.script.tree[s] {
        case .animate, .spring, .set: true
        default: false
        }
    }
}
