// SyntaxTree+Views: how the 16-byte nodes of a SyntaxTree decode into the typed views of
// AST.swift (`tree[e]`, `tree[s]`, …), and the codes the small enums keep in a node's flags.

// MARK: - Reading nodes as views

extension SyntaxTree {
    /// An expression node as its view.
    public subscript(e: ExprID) -> Expr {
        let n = node(e.raw)
        let span = span(ofNode: e.raw)
        switch n.kind {
        case .number: return .number(NumberLiteral(unit: NumberUnit(rawValue: n.flags)!, span: span))
        case .string: return .string(StringLiteral(parts: SyntaxList(offset: n.a), span: span))
        case .color: return .color(ColorLiteral(value: colors[Int(n.a - colorBase)], span: span))
        case .bool: return .bool(BoolLiteral(value: n.flags != 0, span: span))
        case .name: return .name(Identifier(span))
        case .member:
            return .member(MemberExpr(base: ExprID(raw: n.a), member: Identifier(Span(source: span.source, start: Int(n.b), end: Int(span.end))),
                                      span: span))
        case .index: return .index(IndexExpr(base: ExprID(raw: n.a), index: ExprID(raw: n.b), span: span))
        case .call:
            return .call(CallExpr(callee: Identifier(Span(source: span.source, start: Int(span.start), end: Int(n.a))),
                                  arguments: SyntaxList(offset: n.b), span: span))
        case .pair: return .pair(PairExpr(x: ExprID(raw: n.a), y: ExprID(raw: n.b), span: span))
        case .list: return .list(ListExpr(elements: SyntaxList(offset: n.a), span: span))
        case .unary: return .unary(UnaryExpr(op: .negate, operand: ExprID(raw: n.a), span: span))
        case .binary:
            let opStart = Int(field(n.b, 1))
            let op = BinaryOperator(code: n.flags)
            return .binary(BinaryExpr(op: op, opSpan: Span(source: span.source, start: opStart, end: opStart + op.text.utf8.count),
                                      lhs: ExprID(raw: n.a), rhs: ExprID(raw: field(n.b, 0)), span: span))
        case .not: return .not(NotExpr(operand: ExprID(raw: n.a), span: span))
        default: preconditionFailure("node \(e.raw) is a \(n.kind), not an expression")
        }
    }

    /// The exact digits of a number literal (the parser has checked that they read).
    public func decimal(of n: NumberLiteral) -> DecimalLiteral {
        file.bytes.withUnsafeBufferPointer { b in
            DecimalLiteral(bytes: UnsafeBufferPointer(rebasing: b[Int(n.span.start)..<(Int(n.span.end) - n.unit.suffixLength)]))!
        }
    }

    /// A number written as at most 19 digits with at most a point (`12`, `0.5`, `-3`), read
    /// straight from the source: its digits as an integer, its power of ten, and whether a
    /// `-` is written before it. Nil for any other expression (the checker then reads it the
    /// general way, through `decimal(of:)`, which gives the same digits).
    @inline(__always)
    public func plainNumber(_ e: ExprID) -> (mantissa: UInt64, exponent: Int, unit: NumberUnit, negative: Bool)? {
        var n = node(e.raw)
        var negative = false
        if n.kind == .unary { negative = true; n = node(n.a) }
        guard n.kind == .number, let unit = NumberUnit(rawValue: n.flags) else { return nil }
        let digits = Int(n.length) &- unit.suffixLength
        guard digits <= 19 else { return nil }
        return file.bytes.withUnsafeBufferPointer { b in
            var m: UInt64 = 0, count = 0, exponent = 0, point = false
            var i = Int(n.start)
            let end = i &+ digits
            while i < end {
                let c = b[i]
                let d = c &- 0x30
                if d < 10 {
                    if count != 0 || d != 0 { m = m &* 10 &+ UInt64(d); count &+= 1 }
                    if point { exponent &-= 1 }
                } else if c == 0x2E, !point {
                    point = true
                } else {
                    return nil
                }
                i &+= 1
            }
            return (m, count == 0 ? 0 : exponent, unit, negative)
        }
    }

    /// The pieces of a string literal, in order, escapes decoded.
    public func parts(of s: StringLiteral) -> [StringLiteral.Part] {
        self[s.parts].map { p in p.raw >= 0 ? .interpolation(p) : .text(strings[Int(-p.raw - 1 - stringBase)]) }
    }

    /// A step node as its view.
    public subscript(s: StepID) -> Step {
        let n = node(s.raw)
        let span = span(ofNode: s.raw)
        switch n.kind {
        case .animate:
            return .animate(AnimateStep(duration: ExprID(raw: n.a), options: SyntaxList(offset: field(n.b, 0)),
                                        assignments: SyntaxList(offset: field(n.b, 1)), keywordSpan: span.prefix(7), span: span))
        case .spring:
            let preset = field(n.a, 3)
            return .spring(SpringStep(parameters: SyntaxList(offset: field(n.a, 0)), options: SyntaxList(offset: field(n.a, 1)),
                                      assignments: SyntaxList(offset: field(n.a, 2)), keywordSpan: span.prefix(6), span: span,
                                      preset: preset < 0 ? nil : self.span(ofNode: preset)))
        case .wait: return .wait(WaitStep(argument: optional(n.a), span: span))
        case .print: return .print(PrintStep(value: ExprID(raw: n.a), span: span))
        case .set: return .set(SetStep(assignment: AssignmentID(raw: n.a), span: span))
        case .expect:
            return .expect(ExpectStep(lhs: ExprID(raw: n.a), op: ExpectStep.Op(code: n.flags), rhs: ExprID(raw: field(n.b, 0)),
                                      tolerance: optional(field(n.b, 1)), span: span))
        case .block: return .block(Block(chains: SyntaxList(offset: n.a), span: span, implicit: n.flags & SyntaxTree.implicitBlock != 0))
        case .conditional:
            // `a`: a list of condition (−1 for `else`) and block pairs.
            let at = Int(n.a &- extraBase)
            let count = Int(extra[at]) / 2
            var branches: [(condition: ExprID?, body: Block)] = []
            for k in 0..<count {
                let c: ExprID? = optional(extra[at + 1 + 2 * k])
                branches.append((condition: c, body: block(extra[at + 2 + 2 * k])))
            }
            return .conditional(IfStep(branches: branches, span: span))
        case .repeat where n.flags & 4 != 0:
            // Flag 4: `b` is a record of the body, the delay and the pass variable; flag 8: `a` is `while`'s condition.
            let isWhile = n.flags & 8 != 0
            var r = RepeatStep(count: isWhile ? nil : optional(n.a), yoyo: n.flags & 1 != 0, body: block(field(n.b, 0)),
                               keywordSpan: span.prefix(6), span: span, repeatDelay: optional(field(n.b, 1)))
            r.condition = isWhile ? ExprID(raw: n.a) : nil
            r.passVariable = self.span(field(n.b, 2), field(n.b, 3)).map(Identifier.init)
            return .repeat(r)
        case .repeat:
            // Flag 2: `b` is a record of the body and the `repeat-delay`.
            let delayed = n.flags & 2 != 0
            return .repeat(RepeatStep(count: optional(n.a), yoyo: n.flags & 1 != 0, body: block(delayed ? field(n.b, 0) : n.b),
                                      keywordSpan: span.prefix(6), span: span, repeatDelay: delayed ? ExprID(raw: field(n.b, 1)) : nil))
        case .stagger:
            let r = n.a
            var st = StaggerStep(interval: ExprID(raw: field(r, 0)), order: self.span(field(r, 1), field(r, 2)).map(Identifier.init),
                                 variable: Identifier(self.span(field(r, 3), field(r, 4))!), sequence: ExprID(raw: field(r, 5)),
                                 body: block(field(r, 6)), span: span)
            st.amount = n.flags & 1 != 0
            if n.b >= 0 {
                let o = n.b
                st.fromIndex = optional(field(o, 0))
                st.ease = optional(field(o, 1))
                st.gridRows = optional(field(o, 2))
                st.gridColumns = optional(field(o, 3))
                st.axis = self.span(field(o, 4), field(o, 5)).map(Identifier.init)
                st.index = self.span(field(o, 6), field(o, 7)).map(Identifier.init)
            }
            return .stagger(st)
        case .play:
            let r = n.a
            return .play(PlayStep(name: Identifier(self.span(field(r, 0), field(r, 1))!), arguments: SyntaxList(offset: field(r, 2)),
                                  reversed: n.flags != 0, speed: optional(field(r, 3)), span: span))
        case .relative:
            let r = n.a
            return .relative(RelativeStep(anchor: n.flags & 1 == 0 ? .after : .with, target: Identifier(self.span(field(r, 0), field(r, 1))!),
                                          offset: optional(field(r, 2)), negative: n.flags & 2 != 0, body: block(field(r, 3)), span: span))
        case .select:
            let mode: SelectStep.Mode = n.flags == 0 ? .any : .choose
            return .select(SelectStep(mode: mode, body: block(n.a), keywordSpan: span.prefix(mode == .any ? 3 : 6), span: span))
        case .control:
            return .control(ControlStep(verb: ControlStep.Verb(code: n.flags), target: ExprID(raw: n.a), time: optional(n.b), span: span))
        default: preconditionFailure("node \(s.raw) is a \(n.kind), not a step")
        }
    }

    /// A block node (a step that is `< … >`) as its view.
    func block(_ raw: Int32) -> Block {
        let n = node(raw)
        return Block(chains: SyntaxList(offset: n.a), span: span(ofNode: raw), implicit: n.flags & SyntaxTree.implicitBlock != 0)
    }

    /// A chain node as its view.
    public subscript(c: ChainID) -> Chain {
        let n = node(c.raw)
        return Chain(steps: SyntaxList(offset: n.a), name: n.b < 0 ? nil : span(field(n.b, 0), field(n.b, 1)).map(Identifier.init),
                     span: span(ofNode: c.raw))
    }

    /// An assignment node as its view.
    public subscript(a: AssignmentID) -> Assignment {
        let n = node(a.raw)
        let hasKeyframes = n.flags & 8 != 0
        return Assignment(target: ExprID(raw: n.a), op: Assignment.Op(code: n.flags & 3),
                          value: ExprID(raw: hasKeyframes ? field(n.b, 0) : n.b),
                          keyframes: hasKeyframes ? SyntaxList(offset: field(n.b, 1)) : nil,
                          isPath: n.flags & 4 != 0, span: span(ofNode: a.raw), orient: n.flags & 16 != 0,
                          orientAngle: n.flags & 16 != 0 ? optional(field(n.b, 2)) : nil)
    }

    /// A keyframe node as its view.
    public subscript(k: KeyframeID) -> Keyframe {
        let n = node(k.raw)
        return Keyframe(value: ExprID(raw: n.a), offset: n.b < 0 ? nil : optional(field(n.b, 0)),
                        easing: n.b < 0 ? nil : optional(field(n.b, 1)), span: span(ofNode: k.raw))
    }

    /// An easing node as its view.
    public subscript(e: EasingID) -> EasingSyntax {
        let n = node(e.raw)
        let span = span(ofNode: e.raw)
        return EasingSyntax(nameSpan: Span(source: span.source, start: Int(span.start), end: Int(n.a)),
                            arguments: n.b < 0 ? nil : SyntaxList(offset: n.b), span: span)
    }

    /// An easing argument node as its view.
    public subscript(a: EasingArgumentID) -> EasingSyntax.Argument {
        let n = node(a.raw)
        let span = span(ofNode: a.raw)
        guard n.kind == .easingNumber else { return .word(span) }
        return .number(Double(bitPattern: UInt64(UInt32(bitPattern: n.a)) | UInt64(UInt32(bitPattern: n.b)) << 32), span,
                       percent: n.flags & 1 != 0, joined: n.flags & 2 != 0)
    }

    /// A tween option node as its view.
    public subscript(o: OptionID) -> TweenOption {
        let n = node(o.raw)
        let span = span(ofNode: o.raw)
        switch n.flags {
        case 0: return .delay(ExprID(raw: n.a), span)
        case 1: return .ease(EasingID(raw: n.a), span)
        case 2: return .repeat(optional(n.a), span)
        case 3: return .yoyo(span)
        case 4: return .speed(ExprID(raw: n.a), span)
        case 5: return .from(ExprID(raw: n.a), span)
        case 6: return .direction(self.span(ofNode: n.a), span)
        case 7: return .iterationStart(ExprID(raw: n.a), span)
        case 8: return .endDelay(ExprID(raw: n.a), span)
        case 9: return .fill(self.span(ofNode: n.a), span)
        default: return .repeatDelay(ExprID(raw: n.a), span)
        }
    }

    /// A `key value` node as its view.
    public subscript(p: PropertyInitID) -> PropertyInit {
        PropertyInit(name: Identifier(span(ofNode: p.raw)), value: ExprID(raw: node(p.raw).a))
    }

    /// A lone name node as its view.
    public subscript(i: IdentifierID) -> Identifier { Identifier(span(ofNode: i.raw)) }

    /// A statement node as its view.
    public subscript(s: StmtID) -> Stmt {
        let n = node(s.raw)
        let span = span(ofNode: s.raw)
        switch n.kind {
        case .stage: return .stage(StageDecl(size: ExprID(raw: n.a), properties: SyntaxList(offset: n.b), span: span))
        case .shape:
            let r = n.a
            return .shape(ShapeDecl(kind: ShapeKind(code: n.flags), name: Identifier(self.span(field(r, 0), field(r, 1))!),
                                    count: optional(field(r, 2)), properties: SyntaxList(offset: field(r, 3)), span: span))
        case .group: return .group(GroupDecl(name: Identifier(self.span(field(n.a, 0), field(n.a, 1))!), members: ExprID(raw: n.b), span: span))
        case .let: return .let(LetStmt(name: Identifier(self.span(field(n.a, 0), field(n.a, 1))!), value: ExprID(raw: n.b), span: span))
        case .seed: return .seed(SeedStmt(value: ExprID(raw: n.a), span: span))
        case .define:
            let r = n.a
            return .define(DefineStmt(name: Identifier(self.span(field(r, 0), field(r, 1))!), parameters: SyntaxList(offset: field(r, 2)),
                                      body: ChainID(raw: field(r, 3)), span: span))
        case .topWait:
            guard case .wait(let w) = self[StepID(raw: n.a)] else { preconditionFailure("a top-level wait holds a wait") }
            return .wait(w)
        case .at: return .at(AtStmt(time: ExprID(raw: n.a), body: block(n.b), span: span))
        case .onChange: return .onChange(OnChangeStmt(property: ExprID(raw: n.a), body: block(n.b), span: span))
        case .topChain: return .chain(ChainID(raw: n.a))
        default: preconditionFailure("node \(s.raw) is a \(n.kind), not a statement")
        }
    }
}

// MARK: - Codes of the small enums kept in a node's flags

extension ArithmeticOperator {
    var code: UInt8 {
        switch self {
        case .add: 0
        case .subtract: 1
        case .multiply: 2
        case .divide: 3
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .add
        case 1: self = .subtract
        case 2: self = .multiply
        default: self = .divide
        }
    }
}

extension BinaryOperator {
    var code: UInt8 {
        switch self {
        case .arithmetic(let op): op.code
        case .comparison(let op): 4 + op.code
        case .and: 8
        case .or: 9
        case .at: 10
        }
    }

    init(code: UInt8) {
        switch code {
        case 0..<4: self = .arithmetic(ArithmeticOperator(code: code))
        case 4..<8: self = .comparison(ComparisonOperator(code: code - 4))
        case 8: self = .and
        case 10: self = .at
        default: self = .or
        }
    }
}

extension Assignment.Op {
    var code: UInt8 {
        switch self {
        case .assign: 0
        case .add: 1
        case .subtract: 2
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .assign
        case 1: self = .add
        default: self = .subtract
        }
    }
}

extension ExpectStep.Op {
    var code: UInt8 {
        switch self {
        case .equal: 0
        case .notEqual: 1
        case .lessEqual: 2
        case .greaterEqual: 3
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .equal
        case 1: self = .notEqual
        case 2: self = .lessEqual
        default: self = .greaterEqual
        }
    }
}

extension ShapeKind {
    var code: UInt8 {
        switch self {
        case .rect: 0
        case .circle: 1
        case .text: 2
        case .line: 3
        case .ellipse: 4
        case .polygon: 5
        case .polyline: 6
        case .path: 7
        case .image: 8
        case .glyph: 9
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .rect
        case 1: self = .circle
        case 3: self = .line
        case 4: self = .ellipse
        case 5: self = .polygon
        case 6: self = .polyline
        case 7: self = .path
        case 8: self = .image
        default: self = .text
        }
    }
}

extension ControlStep.Verb {
    var code: UInt8 {
        switch self {
        case .pause: 0
        case .resume: 1
        case .seek: 2
        case .reverse: 3
        case .interrupt: 4
        case .save: 5
        case .restore: 6
        case .speed: 7
        }
    }

    init(code: UInt8) {
        switch code {
        case 0: self = .pause
        case 1: self = .resume
        case 2: self = .seek
        case 3: self = .reverse
        case 4: self = .interrupt
        case 5: self = .save
        case 7: self = .speed
        default: self = .restore
        }
    }
}
