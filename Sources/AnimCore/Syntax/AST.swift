// AST: the typed views of the syntax tree the passes switch over. `Expr`, `Step` and `Stmt`
// are enums whose cases wrap one small struct each, every struct carrying its span; children
// are handles into the `SyntaxTree` (`tree[e]` reads a node as its view), lists are
// `SyntaxList`s. A view is plain data decoded from 16-byte nodes (SyntaxTree.swift), so reading
// one allocates nothing and retains nothing. A name is the text of its span.
// Passes switch over them exhaustively, so a new node breaks every pass at compile time.

// MARK: - Expressions

/// A name as written: its text is the span's.
public struct Identifier: Hashable, Sendable {
    /// Where it is.
    public var span: Span
    /// Creates an identifier.
    public init(_ span: Span) { self.span = span }
}

/// An expression.
public enum Expr: Hashable, Sendable {
    /// `1.5`, `300ms`, `90deg`
    case number(NumberLiteral)
    /// `"x is {sq.center.x}"`
    case string(StringLiteral)
    /// `#ff8800`
    case color(ColorLiteral)
    /// `true`, `false`
    case bool(BoolLiteral)
    /// `square`, `red`, `i`
    case name(Identifier)
    /// `square.center`, `p.x`
    case member(MemberExpr)
    /// `card[2]`
    case index(IndexExpr)
    /// `rgb(255, 0, 0)`, `min(a, b)`
    case call(CallExpr)
    /// `(x, y)`
    case pair(PairExpr)
    /// `[a, b, c]`
    case list(ListExpr)
    /// `-x`
    case unary(UnaryExpr)
    /// `a + b`, `a <= b`, `a and b`
    case binary(BinaryExpr)
    /// `not x`
    case not(NotExpr)
}

/// A number literal: its digits (`SyntaxTree.decimal(of:)` reads them exactly) and unit.
public struct NumberLiteral: Hashable, Sendable {
    /// The unit suffix.
    public var unit: NumberUnit
    /// Where it is, the unit included.
    public var span: Span
}

/// A string literal: text pieces and interpolated expressions (`SyntaxTree.parts(of:)`).
public struct StringLiteral: Hashable, Sendable {
    /// One piece of a string.
    public enum Part: Hashable, Sendable {
        case text(String)
        case interpolation(ExprID)
    }
    /// The pieces, as the tree keeps them.
    let parts: SyntaxList<ExprID>
    /// Where it is.
    public var span: Span
}

/// A hex color literal.
public struct ColorLiteral: Hashable, Sendable {
    /// The color.
    public var value: Color
    /// Where it is.
    public var span: Span
}

/// `true` or `false`.
public struct BoolLiteral: Hashable, Sendable {
    /// The value.
    public var value: Bool
    /// Where it is.
    public var span: Span
}

/// `base.name`
public struct MemberExpr: Hashable, Sendable {
    /// The expression before the dot.
    public var base: ExprID
    /// The name after it.
    public var member: Identifier
    /// The whole expression.
    public var span: Span
}

/// `base[index]`
public struct IndexExpr: Hashable, Sendable {
    /// The indexed expression.
    public var base: ExprID
    /// The index.
    public var index: ExprID
    /// The whole expression.
    public var span: Span
}

/// `callee(arguments)`
public struct CallExpr: Hashable, Sendable {
    /// The function's name.
    public var callee: Identifier
    /// The arguments.
    public var arguments: SyntaxList<ExprID>
    /// The whole expression.
    public var span: Span
}

/// `(x, y)`
public struct PairExpr: Hashable, Sendable {
    /// The first component.
    public var x: ExprID
    /// The second component.
    public var y: ExprID
    /// The whole expression.
    public var span: Span
}

/// `[a, b, c]`
public struct ListExpr: Hashable, Sendable {
    /// The elements.
    public var elements: SyntaxList<ExprID>
    /// The whole expression.
    public var span: Span
}

/// A prefix operator.
public struct UnaryExpr: Hashable, Sendable {
    /// The only prefix operator: negation.
    public enum Op: String, Hashable, Sendable { case negate = "-" }
    /// The operator.
    public var op: Op
    /// The operand.
    public var operand: ExprID
    /// The whole expression.
    public var span: Span
}

/// An infix operator: arithmetic, a comparison, or `and` / `or`.
public enum BinaryOperator: Hashable, Sendable {
    case arithmetic(ArithmeticOperator)
    case comparison(ComparisonOperator)
    case and, or
    /// `colour at position`: a gradient's colour stop, inside `linear-gradient(…)` and
    /// `radial-gradient(…)` only (the parser reads it in call arguments).
    case at

    /// The operator as written.
    public var text: String {
        switch self {
        case .arithmetic(let op): op.rawValue
        case .comparison(let op): op.rawValue
        case .and: "and"
        case .or: "or"
        case .at: "at"
        }
    }
}

/// `not x`
public struct NotExpr: Hashable, Sendable {
    /// The operand.
    public var operand: ExprID
    /// The whole expression.
    public var span: Span
}

/// An infix operator.
public struct BinaryExpr: Hashable, Sendable {
    /// The operators, with their precedence in `Parser.binaryOperator(_:)`.
    public typealias Op = BinaryOperator
    /// The operator.
    public var op: Op
    /// The operator token's span.
    public var opSpan: Span
    /// The left operand.
    public var lhs: ExprID
    /// The right operand.
    public var rhs: ExprID
    /// The whole expression.
    public var span: Span
}

// MARK: - Steps (the pieces of a chain)

/// A chain: steps joined by `then`, optionally named with `as NAME`.
public struct Chain: Hashable, Sendable {
    /// The steps in order.
    public var steps: SyntaxList<StepID>
    /// The name given with `as`.
    public var name: Identifier?
    /// The whole chain.
    public var span: Span
}

/// One step of a chain.
public enum Step: Hashable, Sendable {
    /// `animate D [options] < p = v; ... >`
    case animate(AnimateStep)
    /// `spring [params] < p = v; ... >`
    case spring(SpringStep)
    /// `wait D`, `wait`, `wait NAME`
    case wait(WaitStep)
    /// `print expr`
    case print(PrintStep)
    /// `set p = v`
    case set(SetStep)
    /// `expect a == b [within e]`
    case expect(ExpectStep)
    /// `< chain; chain >`
    case block(Block)
    /// `repeat N [yoyo] < ... >`, `repeat forever < ... >`
    case `repeat`(RepeatStep)
    /// `stagger D [from order] for c in cards < ... >`
    case stagger(StaggerStep)
    /// `play NAME(args) [reversed] [speed R]`
    case play(PlayStep)
    /// `after NAME [± D] < ... >`, `with NAME [± D] < ... >`
    case relative(RelativeStep)
    /// `pause NAME`, `resume NAME`, `seek NAME T`, `reverse NAME`, `interrupt NAME`, `save s`, `restore s`
    case control(ControlStep)
    /// `if COND < ... > else if COND < ... > else < ... >`
    case conditional(IfStep)
    /// `any < chain; chain >`, `choose < chain; chain >`
    case select(SelectStep)
}

/// `any < … >` (Motion Canvas `any`: the step ends when its first chain ends, the others go on)
/// and `choose < … >` (Ren'Py `choice`: one chain, drawn from the seeded generator, runs).
public struct SelectStep: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable { case any, choose }
    public var mode: Mode
    /// The chains.
    public var body: Block
    /// The word `any` or `choose`.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
}

/// `if COND < ... > [else if COND < ... >] [else < ... >]`: the first branch whose condition
/// holds when the step begins runs; `else` (a nil condition) when none does.
public struct IfStep: Hashable, Sendable {
    /// The branches in order: a condition (nil for `else`) and its block.
    public var branches: [(condition: ExprID?, body: Block)]
    /// The whole step.
    public var span: Span

    public static func == (a: IfStep, b: IfStep) -> Bool {
        a.span == b.span && a.branches.count == b.branches.count
            && zip(a.branches, b.branches).allSatisfy { $0.condition == $1.condition && $0.body == $1.body }
    }

    public func hash(into h: inout Hasher) { h.combine(span); h.combine(branches.count) }
}

/// `< chain; chain >`: a parallel group.
public struct Block: Hashable, Sendable {
    /// The chains, started together.
    public var chains: SyntaxList<ChainID>
    /// From `<` to `>`.
    public var span: Span
    /// Written without `< >`: the block the parser made around a step named mid-chain
    /// (`a as n then b` is `< a as n > then b`); its span is the step and its name.
    public var implicit = false
}

/// `target = value`, `target += value`, `target -= value` inside a tween block.
public struct Assignment: Hashable, Sendable {
    /// The assignment operators.
    public enum Op: String, Hashable, Sendable { case assign = "=", add = "+=", subtract = "-=" }
    /// The property written (`shape.prop`).
    public var target: ExprID
    /// The operator.
    public var op: Op
    /// The value (for keyframes, the list of their values).
    public var value: ExprID
    /// Keyframes `[v, v at 0.5, v ease ease-out]`, when the value is a list in a tween block.
    public var keyframes: SyntaxList<KeyframeID>?
    /// `path [p, p, ...]`: the points are followed along a smooth curve.
    public var isPath: Bool
    /// The whole assignment.
    public var span: Span
    /// `path [...] orient`: the shape's rotation follows the path's tangent.
    public var orient: Bool = false
    /// `orient A`: the angle added to the tangent's.
    public var orientAngle: ExprID? = nil
}

/// One keyframe: a value, an optional offset in [0, 1], an optional easing for the segment
/// that arrives at it.
public struct Keyframe: Hashable, Sendable {
    /// The value.
    public var value: ExprID
    /// `at OFFSET`.
    public var offset: ExprID?
    /// `ease E`.
    public var easing: EasingID?
    /// The whole keyframe.
    public var span: Span
}

/// An easing as written: `ease-in-out`, `cubic-bezier(0.2, 0, 0, 1)`, `steps(4, jump-end)`.
public struct EasingSyntax: Hashable, Sendable {
    /// One argument: a number or a word such as `jump-start`. A number written straight after
    /// another, with no comma between (`0.25 25%` in `linear(0, 0.25 25%, 1)`), is `joined` to
    /// it; `percent` says it was written with `%` (the value is as written: 25 for `25%`).
    public enum Argument: Hashable, Sendable {
        case number(Double, Span, percent: Bool, joined: Bool)
        case word(Span)

        /// Where it is.
        public var span: Span {
            switch self {
            case .number(_, let s, _, _), .word(let s): s
            }
        }
    }
    /// The (possibly hyphenated) name's span; the name is its text.
    public var nameSpan: Span
    /// The arguments in parentheses, if any were written.
    public var arguments: SyntaxList<EasingArgumentID>?
    /// The whole easing.
    public var span: Span
}

/// A tween option.
public enum TweenOption: Hashable, Sendable {
    /// `delay D`
    case delay(ExprID, Span)
    /// `ease E`
    case ease(EasingID, Span)
    /// `repeat N` (nil: `repeat forever`)
    case `repeat`(ExprID?, Span)
    /// `yoyo`
    case yoyo(Span)
    /// `speed R`
    case speed(ExprID, Span)
    /// `from V`
    case from(ExprID, Span)
    /// `direction normal | reverse | alternate | alternate-reverse` (the word's span)
    case direction(Span, Span)
    /// `iteration-start F`
    case iterationStart(ExprID, Span)
    /// `end-delay D`
    case endDelay(ExprID, Span)
    /// `fill none | forwards | backwards | both` (the word's span)
    case fill(Span, Span)
    /// `repeat-delay D`
    case repeatDelay(ExprID, Span)

    /// The span of the option.
    public var span: Span {
        switch self {
        case .delay(_, let s), .ease(_, let s), .repeat(_, let s), .yoyo(let s), .speed(_, let s), .from(_, let s),
             .direction(_, let s), .iterationStart(_, let s), .endDelay(_, let s), .fill(_, let s), .repeatDelay(_, let s): s
        }
    }
}

/// `animate D [options] < assignments >`
public struct AnimateStep: Hashable, Sendable {
    /// The duration of one iteration.
    public var duration: ExprID
    /// Options in the order written.
    public var options: SyntaxList<OptionID>
    /// The properties tweened together.
    public var assignments: SyntaxList<AssignmentID>
    /// The `animate` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
}

/// `spring [name value]* < assignments >`
public struct SpringStep: Hashable, Sendable {
    /// Parameters in the order written, such as `stiffness 170` or `damping-ratio 0.8`.
    public var parameters: SyntaxList<PropertyInitID>
    /// Tween-like options allowed on springs (`delay`).
    public var options: SyntaxList<OptionID>
    /// The properties moved.
    public var assignments: SyntaxList<AssignmentID>
    /// The `spring` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
    /// A SwiftUI preset's name (`smooth`, `snappy`, `bouncy`) written first, if one is.
    public var preset: Span? = nil
}

/// `wait D`, `wait` (until everything ends) or `wait NAME`.
public struct WaitStep: Hashable, Sendable {
    /// The duration or name; nil for a bare `wait`.
    public var argument: ExprID?
    /// The whole step.
    public var span: Span
}

/// `print expr`
public struct PrintStep: Hashable, Sendable {
    /// What to print.
    public var value: ExprID
    /// The whole step.
    public var span: Span
}

/// `set target = value` (also `+=`, `-=`)
public struct SetStep: Hashable, Sendable {
    /// The assignment.
    public var assignment: AssignmentID
    /// The whole step.
    public var span: Span
}

/// `expect lhs op rhs [within tolerance]`
public struct ExpectStep: Hashable, Sendable {
    /// The comparisons an expectation can make.
    public typealias Op = ComparisonOperator
    /// The actual value.
    public var lhs: ExprID
    /// The comparison.
    public var op: Op
    /// The expected value.
    public var rhs: ExprID
    /// The tolerance after `within`.
    public var tolerance: ExprID?
    /// The whole step.
    public var span: Span
}

/// `repeat N [yoyo] < ... >` or `repeat forever < ... >`
public struct RepeatStep: Hashable, Sendable {
    /// The number of passes; nil for `forever`.
    public var count: ExprID?
    /// Whether odd passes run backward.
    public var yoyo: Bool
    /// The body.
    public var body: Block
    /// The `repeat` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
    /// `repeat-delay D`: the pause between passes.
    public var repeatDelay: ExprID? = nil
    /// `repeat while COND`: checked before each pass (`count` is nil, as for `forever`).
    public var condition: ExprID? = nil
    /// `for k`: the pass index, from 0, in the body.
    public var passVariable: Identifier? = nil
}

/// `stagger [amount] D [grid (R, C)] [axis x|y] [from order|N] [ease E] for name[, k] in shapes < ... >`
public struct StaggerStep: Hashable, Sendable {
    /// The offset between members.
    public var interval: ExprID
    /// `start`, `end`, `center`, `edges` or `random`.
    public var order: Identifier?
    /// The loop variable.
    public var variable: Identifier
    /// The shapes.
    public var sequence: ExprID
    /// One chain per member.
    public var body: Block
    /// The whole step.
    public var span: Span
    /// `stagger amount A`: the interval is the whole spread.
    public var amount = false
    /// `from N`: the index the stagger starts from.
    public var fromIndex: ExprID? = nil
    /// `ease E`: the start times follow an easing.
    public var ease: EasingID? = nil
    /// `grid (ROWS, COLUMNS)`.
    public var gridRows: ExprID? = nil
    public var gridColumns: ExprID? = nil
    /// `axis x` or `axis y`.
    public var axis: Identifier? = nil
    /// The index variable of `for c, k in …`.
    public var index: Identifier? = nil
}

/// `play NAME(args) [reversed] [speed R]`
public struct PlayStep: Hashable, Sendable {
    /// The defined sequence.
    public var name: Identifier
    /// The arguments.
    public var arguments: SyntaxList<ExprID>
    /// Whether it plays backward.
    public var reversed: Bool
    /// The playback rate.
    public var speed: ExprID?
    /// The whole step.
    public var span: Span
}

/// `after NAME [± D] < ... >` or `with NAME [± D] < ... >`
public struct RelativeStep: Hashable, Sendable {
    /// Relative to the named step's end (`after`) or start (`with`).
    public enum Anchor: String, Hashable, Sendable { case after, with }
    /// Which end.
    public var anchor: Anchor
    /// The named step.
    public var target: Identifier
    /// The signed offset.
    public var offset: ExprID?
    /// Whether the offset was written with `-`.
    public var negative: Bool
    /// What runs.
    public var body: Block
    /// The whole step.
    public var span: Span
}

/// Control of a named graph or a shape's snapshot.
public struct ControlStep: Hashable, Sendable {
    /// The control verbs.
    public enum Verb: String, Hashable, Sendable, CaseIterable { case pause, resume, seek, reverse, interrupt, save, restore, speed }
    /// The verb.
    public var verb: Verb
    /// The graph or shape.
    public var target: ExprID
    /// The time for `seek`, the rate for `speed`.
    public var time: ExprID?
    /// The whole step.
    public var span: Span
}

// MARK: - Statements

/// A top-level statement.
public enum Stmt: Hashable, Sendable {
    /// `stage W x H [key value]*`
    case stage(StageDecl)
    /// `rect NAME[count] key value ...`
    case shape(ShapeDecl)
    /// `group NAME = [a, b]`
    case group(GroupDecl)
    /// `let NAME = expr`
    case `let`(LetStmt)
    /// `seed N`
    case seed(SeedStmt)
    /// `define NAME(params) = chain`
    case define(DefineStmt)
    /// `wait D`, `wait`, `wait NAME` at the top level: advances script time
    case wait(WaitStep)
    /// `at T < ... >`
    case at(AtStmt)
    /// `on change PROP < ... >`
    case onChange(OnChangeStmt)
    /// A chain of steps started at the current script time.
    case chain(ChainID)
}

/// A `key value` pair: a declaration's property or a spring's parameter.
public struct PropertyInit: Hashable, Sendable {
    /// The property or parameter name.
    public var name: Identifier
    /// The value.
    public var value: ExprID
}

/// `stage W x H [key value]*`
public struct StageDecl: Hashable, Sendable {
    /// The stage size.
    public var size: ExprID
    /// Other properties (`color`).
    public var properties: SyntaxList<PropertyInitID>
    /// The whole statement.
    public var span: Span
}

/// The kinds of shape.
public enum ShapeKind: String, Hashable, Sendable, CaseIterable {
    case rect, circle, text
    // Outlines (issue 15): an ellipse in a box, and shapes placed by their points.
    case line, ellipse, polygon, polyline, path
    /// A PNG picture drawn into its box (issue 15): `image NAME file "icon.png" …`.
    case image
    /// One character of a text shape (`title.glyphs[k]`), made by the text's declaration; its
    /// values are folded into the text's snapshot, so no output draws a glyph shape itself.
    case glyph

    /// Whether the shape is placed by its points (`from`/`to`, `points`, `d`) rather than a box.
    public var isPointBased: Bool {
        switch self {
        case .line, .polygon, .polyline, .path: true
        case .rect, .circle, .text, .ellipse, .image, .glyph: false
        }
    }

    /// Whether it is one of issue 15's outline kinds (not drawn by every exporter yet).
    public var isOutlineKind: Bool { self != .rect && self != .circle && self != .text && self != .image && self != .glyph }

    /// The shape kinds a statement starts with that are not keywords: `line l from …` is a
    /// declaration when the word is followed by a name (so scripts may still name things `line`).
    public static let contextualKinds: [ShapeKind] = [.line, .ellipse, .polygon, .polyline, .path, .image]
}

/// `rect NAME [count] key value ...`
public struct ShapeDecl: Hashable, Sendable {
    /// The kind of shape.
    public var kind: ShapeKind
    /// The name.
    public var name: Identifier
    /// For arrays (`card[5]`), the count.
    public var count: ExprID?
    /// The properties, in order.
    public var properties: SyntaxList<PropertyInitID>
    /// The whole statement.
    public var span: Span
}

/// `group NAME = [a, b]`
public struct GroupDecl: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The members.
    public var members: ExprID
    /// The whole statement.
    public var span: Span
}

/// `let NAME = expr`
public struct LetStmt: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The value.
    public var value: ExprID
    /// The whole statement.
    public var span: Span
}

/// `seed N`
public struct SeedStmt: Hashable, Sendable {
    /// The seed.
    public var value: ExprID
    /// The whole statement.
    public var span: Span
}

/// `define NAME(params) = chain`
public struct DefineStmt: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The parameter names.
    public var parameters: SyntaxList<IdentifierID>
    /// The body.
    public var body: ChainID
    /// The whole statement.
    public var span: Span
}

/// `at T < ... >`
public struct AtStmt: Hashable, Sendable {
    /// The absolute script time.
    public var time: ExprID
    /// What runs then.
    public var body: Block
    /// The whole statement.
    public var span: Span
}

/// `on change PROP < ... >`
public struct OnChangeStmt: Hashable, Sendable {
    /// The watched property.
    public var property: ExprID
    /// What runs on each frame it changes.
    public var body: Block
    /// The whole statement.
    public var span: Span
}
