// Checker+Names: what names denote — variables, shapes and arrays, `shape.property` members
// and `title.glyphs`, indexing (`cards[i]`), and the shape lists of groups and arrays; with the
// unknown-name and unknown-property reports and their suggestions (Grammar.md 4.5 "Arrays",
// 4.6 "Groups and lists of shapes", 4.7 "Names", 4.12 "Glyphs").

extension Checker {
    mutating func checkName(_ id: Identifier) -> TypedExpr? {
        let n = name(id)
        if let l = lookupLocal(n) {
            return TypedExpr(.variable(.local(l.slot)), l.kind, id.span)
        }
        if let sym = env.symbols[n] {
            switch sym {
            case .shape(let s): return TypedExpr(.constant(.shape(s)), .shape, id.span)
            case .array(let first, let count):
                let members = (0..<count).map { Value.shape(ShapeID(Int(first.index) + $0)) }
                return TypedExpr(.constant(.list(members)), .list(.shape), id.span)
            case .group(let ids):
                return TypedExpr(.constant(.list(ids.map { .shape($0) })), .list(.shape), id.span)
            case .global(let slot, let kind):
                return TypedExpr(.variable(.global(slot)), kind, id.span)
            case .stepName:
                error(.stepNameAsValue(text(id)), at: id.span)
                return nil
            case .define:
                error(.defineAsValue(text(id)), at: id.span)
                return nil
            }
        }
        // A colour named before (`red`, again and again): its value without the name's text,
        // the CSS table's hashing or the parse of its hex (callgrind: about 2,400 instructions
        // saved a name; `checkName` 2.9 → 0.7 M for the 900 colour names of a 5,000-line script).
        if let c = namedColors[n] { return TypedExpr(.constant(.color(c)), .color, id.span) }
        let nameText = text(id)
        // The constants, beneath every declared name (a `let pi` shadows them).
        if nameText == "pi" { return TypedExpr(.constant(.number(Double.pi)), .number, id.span) }
        if nameText == "tau" { return TypedExpr(.constant(.number(2 * Double.pi)), .number, id.span) }
        if let c = Color.named(nameText) {
            namedColors[n] = c
            return TypedExpr(.constant(.color(c)), .color, id.span)
        }
        // `fill none`, `stroke none` (SVG's word): no paint, the colour `transparent`.
        if nameText == "none" { return TypedExpr(.constant(.color(Color(r: 0, g: 0, b: 0, a: 0))), .color, id.span) }
        if failedNames.contains(n) { return nil }  // its declaration's error is reported
        var candidates = localNames
        candidates += env.allNames
        candidates += ["pi", "tau"]
        if DidYouMean.suggest(nameText, from: candidates) == nil { candidates = CSSColors.table.keys.sorted() }
        reportUnknownName(id, candidates: candidates)
        return nil
    }

    /// Resolves an expression that must denote a shape, with the shapes it may be.
    mutating func shapeRef(_ e: ExprID) -> (ShapeRef, [ShapeID])? {
        guard let t = check(e) else { return nil }
        return shapeRef(t, writtenAt: tree.span(e))
    }

    /// `span` (where the expression is written) is read only to report an error.
    mutating func shapeRef(_ t: TypedExpr, writtenAt span: Span) -> (ShapeRef, [ShapeID])? {
        switch t.node {
        case .shape(let ref):
            switch ref {
            case .fixed(let s): return (ref, [s])
            case .element(let first, let count, _, _):
                return (ref, (0..<count).map { ShapeID(Int(first.index) + $0) })
            case .dynamic: return (ref, [])
            }
        case .constant(.shape(let s)):
            return (.fixed(s), [s])
        case .index(let base, let index) where t.kind == .shape:
            // `group[k]`: a constant index picks the member; otherwise any member may come.
            let members = shapeCandidates(ofList: base)
            if case .constant(.number(let k)) = index.node, k == k.rounded(), k >= 0, k < Double(members.count) {
                return (.fixed(members[Int(k)]), [members[Int(k)]])
            }
            return (.dynamic(t), members)
        case .variable(.local(let slot)) where t.kind == .shape:
            return (.dynamic(t), local(inSlot: slot)?.candidates ?? [])
        default:
            if t.kind == .shape { return (.dynamic(t), []) }
            error(.notAShape(text(span), kind: t.kind), at: t.span)
            return nil
        }
    }

    mutating func checkMember(_ m: MemberExpr) -> TypedExpr? {
        guard let base = check(m.base) else { return nil }
        switch base.kind {
        case .shape:
            let baseSpan = tree.span(m.base)
            if case .constant(.shape(let s)) = base.node {
                if let glyphs = glyphList(m, of: s, baseWrittenAt: baseSpan) { return glyphs }
                guard let (id, kind) = property(m.member, ofShape: s, baseWrittenAt: baseSpan) else { return nil }
                return TypedExpr(.property(.fixed(s), id), kind, m.span)
            }
            guard let (ref, cands) = shapeRef(base, writtenAt: baseSpan) else { return nil }
            guard let (id, kind) = property(m.member, of: cands, baseWrittenAt: baseSpan) else { return nil }
            return TypedExpr(.property(ref, id), kind, m.span)
        case .point:
            // `.x` and `.y` read without making the member's text (a String per read).
            let isX = spells(m.member, "x")
            if isX || spells(m.member, "y") {
                if case .constant(.point(let p)) = base.node {
                    return TypedExpr(.constant(.number(isX ? p.x : p.y)), .number, m.span)
                }
                return TypedExpr(.component(base, isX: isX), .number, m.span)
            }
            let member = text(m.member)
            error(.unknownMember(member, kind: .point), at: m.member.span,
                  help: CheckError.pointMembersHelp(suggestion: DidYouMean.suggest(member, from: ["x", "y"])))
            return nil
        default:
            let member = text(m.member)
            if case .list = base.kind {
                error(.unknownMember(member, kind: base.kind), at: m.member.span,
                      help: CheckError.listMemberHelp(base: text(tree.span(m.base)), member: member))
                return nil
            }
            // `sq.alpha.x`: components belong to points.
            let help = member == "x" || member == "y" ? CheckError.componentOfNonPointHelp(base: text(tree.span(m.base)), kind: base.kind) : nil
            error(.unknownMember(member, kind: base.kind), at: m.member.span, help: help)
            return nil
        }
    }

    /// `title.glyphs`: the list of a text's glyph shapes, as an array's name is (the outer nil:
    /// `member` is not `glyphs`, or a property of that name; the inner: an error, reported).
    mutating func glyphList(_ m: MemberExpr, of s: ShapeID, baseWrittenAt base: Span) -> (TypedExpr?)? {
        guard spells(m.member, "glyphs"), env.propertyIDs[name(m.member)].flatMap({ env.kind(of: $0, on: s) }) == nil else { return nil }
        let info = env.shapes[Int(s.index)]
        if env.glyphs[s] == nil, let count = env.glyphCounts[s] {
            // Named for the first time: made just before this statement, with the next ids.
            guard makesGlyphs else {
                error(.glyphsNotMade(text(base)), at: m.span)
                return .some(nil)
            }
            guard env.shapes.count + count <= Checker.maxShapes else {
                error(.tooManyShapes(env.shapes.count + count, limit: Checker.maxShapes), at: m.span)
                return .some(nil)
            }
            let first = ShapeID(env.shapes.count)
            for g in 0..<count {
                env.shapes.append(ShapeInfo(name: "\(info.name).glyphs[\(g)]", kind: .glyph, custom: [:], span: info.span))
            }
            env.glyphs[s] = (first, count)
            pendingGlyphs.append(ShapeCreation(name: "\(info.name).glyphs", isArray: true, first: first, count: count, kind: .glyph,
                                               properties: [], indexSlot: nil, localCount: 0, span: m.span))
        }
        if let (first, count) = env.glyphs[s] {
            let members = (0..<count).map { Value.shape(ShapeID(Int(first.index) + $0)) }
            return .some(TypedExpr(.constant(.list(members)), .list(.shape), m.span))
        }
        if info.kind == .text {
            error(.glyphsOfComputedText(text(base)), at: m.span)
        } else {
            error(.glyphsOfNonText(text(base), shapeKind: info.kind), at: base)
        }
        return .some(nil)
    }

    /// The id and kind of a property on every candidate shape; reports unknown names (naming
    /// the shape as written at `base`, which is read only then).
    mutating func property(_ member: Identifier, of cands: [ShapeID], baseWrittenAt base: Span,
                           writing: Bool = false) -> (PropertyID, Kind)? {
        guard let id = env.propertyIDs[name(member)] else {
            reportUnknownProperty(text(member), of: cands, baseText: text(base), at: member.span, writing: writing)
            return nil
        }
        guard !cands.isEmpty else {
            // Unknown shape (a dynamic value): built-ins only.
            if let b = BuiltinProperty(rawValue: Int(id.raw)) { return (id, b.kind) }
            reportUnknownProperty(text(member), of: cands, baseText: text(base), at: member.span, writing: writing)
            return nil
        }
        var kind: Kind?
        for s in cands {
            guard let k = env.kind(of: id, on: s) else {
                reportUnknownProperty(text(member), of: [s], baseText: cands.count == 1 ? text(base) : env.shapes[Int(s.index)].name,
                                      at: member.span, writing: writing)
                return nil
            }
            if let prev = kind, prev != k { error(.mixedShapeKinds(text(member)), at: member.span); return nil }
            kind = k
        }
        return (id, kind!)
    }

    /// `property(_:of:baseWrittenAt:writing:)` for one known shape, without a list of them.
    mutating func property(_ member: Identifier, ofShape s: ShapeID, baseWrittenAt base: Span, writing: Bool = false) -> (PropertyID, Kind)? {
        // A script writes the same property again and again: the last one, known by its bytes.
        var id: PropertyID?
        if let last = lastProperty, last.file === tree.file, sameBytes(last.span, member.span) { id = last.id } else {
            id = env.propertyIDs[name(member)]
            if let id { lastProperty = LastProperty(file: tree.file, span: member.span, id: id) }
        }
        if let id, let k = env.kind(of: id, on: s) { return (id, k) }
        return property(member, of: [s], baseWrittenAt: base, writing: writing)
    }

    /// Reports `name` as no property of the candidate shapes, with the anim name when another
    /// tool's name was used (`sq.width`), else the closest property name.
    mutating func reportUnknownProperty(_ name: String, of cands: [ShapeID], baseText: String, at span: Span, writing: Bool = false) {
        let names = cands.first.map { env.propertyNames(of: $0) } ?? BuiltinProperty.allCases.map(\.name)
        var suggestion = DidYouMean.suggest(name, from: names)
        var help: String?
        if let hint = ForeignNames.property(name) {
            help = ForeignNames.help(hint, use: writing ? .write(base: baseText) : .read(base: baseText))
            if let p = hint.property, names.contains(p.name) { suggestion = p.name }
        }
        if cands.allSatisfy({ env.shapes[Int($0.index)].kind == .glyph }), !cands.isEmpty, help == nil {
            let text = env.shapes[Int(cands[0].index)].name.split(separator: ".").first.map(String.init) ?? "title"
            help = "a glyph has only offset, rotation, scale, alpha and color; set the text's other properties on '\(text)'"
        }
        if cands.count == 1 {
            let info = env.shapes[Int(cands[0].index)]
            error(.unknownProperty(name, shapeKind: info.kind, shape: baseText, suggestion: suggestion), at: span, help: help)
        } else {
            error(.unknownPropertyOfMany(name, shapes: "'\(baseText)'", suggestion: suggestion), at: span, help: help)
        }
    }

    mutating func checkIndex(_ ix: IndexExpr) -> TypedExpr? {
        // `card[k]` on a shape array resolves to a shape.
        if case .name(let id) = tree[ix.base] {
            let n = name(id)
            if lookupLocal(n) == nil, case .array(let first, let count)? = env.symbols[n] {
                guard let index = checkAs(ix.index, .number) else { return nil }
                if case .constant(.number(let k)) = index.node {
                    guard k == k.rounded(), k >= 0, k < Double(count) else {
                        if k == k.rounded() && k.magnitude < 1e15 {
                            error(.indexOutOfRange(Int(k), name: text(id), count: count), at: tree.span(ix.index))
                        } else {
                            error(.indexNotWhole(k), at: tree.span(ix.index))
                        }
                        return nil
                    }
                    return TypedExpr(.constant(.shape(ShapeID(Int(first.index) + Int(k)))), .shape, ix.span)
                }
                return TypedExpr(.shape(.element(first: first, count: count, index: index, name: text(id))), .shape, ix.span)
            }
        }
        guard let base = check(ix.base), let index = checkAs(ix.index, .number) else { return nil }
        // `title.glyphs[k]`: a constant index is checked against the glyph count, as an array's is.
        if case .member(let m) = tree[ix.base], text(m.member) == "glyphs", case .constant(.list(let vs)) = base.node,
           case .constant(.number(let k)) = index.node {
            guard k == k.rounded(), k >= 0, k < Double(vs.count) else {
                if k == k.rounded() && k.magnitude < 1e15 {
                    error(.indexOutOfRange(Int(k), name: text(tree.span(ix.base)), count: vs.count), at: tree.span(ix.index))
                } else {
                    error(.indexNotWhole(k), at: tree.span(ix.index))
                }
                return nil
            }
            if case .shape(let g) = vs[Int(k)] { return TypedExpr(.constant(.shape(g)), .shape, ix.span) }
        }
        guard case .list = base.kind else {
            error(.notIndexable(base.kind), at: tree.span(ix.base))
            return nil
        }
        let kind = base.kind.elementKind ?? .number
        if base.kind.elementKind == nil {
            error(.indexMixedList, at: tree.span(ix.base))
            return nil
        }
        return TypedExpr(.index(base, index), kind, ix.span)
    }

    /// Flattens an expression of shapes (`[a, b]`, an array, a group) into ids.
    mutating func shapeList(_ e: ExprID) -> [ShapeID]? {
        guard let t = check(e) else { return nil }
        var out: [ShapeID] = []
        func collect(_ v: Value) -> Bool {
            switch v {
            case .shape(let s): out.append(s); return true
            case .list(let vs): return vs.allSatisfy(collect)
            default: return false
            }
        }
        if case .shape(.fixed(let s)) = t.node { return [s] }
        if case .list(let items) = t.node {
            for item in items {
                if case .constant(.shape(let s)) = item.node { out.append(s); continue }
                if item.kind == .shape {
                    error(.groupMemberNotByName, at: item.span)
                } else {
                    error(.groupMemberKind(item.kind), at: item.span)
                }
                return nil
            }
            return out
        }
        if case .constant(.list(let vs)) = t.node, case .list(let written) = tree[e] {
            for (v, el) in zip(vs, tree[written.elements]) where !collect(v) {
                error(.groupMemberKind(v.kind), at: tree.span(el))
                return nil
            }
            return out
        }
        guard let v = t.constantValue, collect(v) else {
            error(.groupMemberKind(t.kind), at: t.span)
            return nil
        }
        return out
    }
}
