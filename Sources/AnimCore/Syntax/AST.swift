// AST: the syntax tree the parser produces, made of value types. `Expr` and `Step` are
// enums whose cases wrap one small struct each, every struct carrying its span. `Step` is
// indirect; in `Expr` only the cases that contain an expression directly are (a leaf such as
// a number or a name costs no allocation).
// Passes switch over them exhaustively, so a new node breaks every pass at compile time.

// MARK: - Expressions

/// A name as written, with its span.
public struct Identifier: Hashable, Sendable {
    /// The text.
    public var name: String
    /// Where it is.
    public var span: Span
    /// Creates an identifier.
    public init(_ name: String, _ span: Span) { self.name = name; self.span = span }
}

/// An expression.
public enum Expr: Hashable, Sendable {
    /// `1.5`, `300ms`, `90deg`
    case number(NumberLiteral)
    /// `"x is {sq.center.x}"`
    case string(StringLiteral)
    /// `#ff8800`
    indirect case color(ColorLiteral)
    /// `true`, `false`
    case bool(BoolLiteral)
    /// `square`, `red`, `i`
    case name(Identifier)
    /// `square.center`, `p.x`
    indirect case member(MemberExpr)
    /// `card[2]`
    indirect case index(IndexExpr)
    /// `rgb(255, 0, 0)`, `min(a, b)`
    case call(CallExpr)
    /// `(x, y)`
    indirect case pair(PairExpr)
    /// `[a, b, c]`
    case list(ListExpr)
    /// `-x`
    indirect case unary(UnaryExpr)
    /// `a + b`
    indirect case binary(BinaryExpr)

    /// The span of the whole expression.
    public var span: Span {
        switch self {
        case .number(let e): e.span
        case .string(let e): e.span
        case .color(let e): e.span
        case .bool(let e): e.span
        case .name(let e): e.span
        case .member(let e): e.span
        case .index(let e): e.span
        case .call(let e): e.span
        case .pair(let e): e.span
        case .list(let e): e.span
        case .unary(let e): e.span
        case .binary(let e): e.span
        }
    }
}

/// A number literal with its exact decimal digits and unit.
public struct NumberLiteral: Hashable, Sendable {
    /// The digits, read exactly.
    public var value: DecimalLiteral
    /// The unit suffix.
    public var unit: NumberUnit
    /// Where it is.
    public var span: Span
}

/// A string literal: text pieces and interpolated expressions.
public struct StringLiteral: Hashable, Sendable {
    /// One piece of a string.
    public enum Part: Hashable, Sendable {
        case text(String)
        case interpolation(Expr)
    }
    /// The pieces in order.
    public var parts: [Part]
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
    public var base: Expr
    /// The name after it.
    public var member: Identifier
    /// The whole expression.
    public var span: Span
}

/// `base[index]`
public struct IndexExpr: Hashable, Sendable {
    /// The indexed expression.
    public var base: Expr
    /// The index.
    public var index: Expr
    /// The whole expression.
    public var span: Span
}

/// `callee(arguments)`
public struct CallExpr: Hashable, Sendable {
    /// The function's name.
    public var callee: Identifier
    /// The arguments.
    public var arguments: [Expr]
    /// The whole expression.
    public var span: Span
}

/// `(x, y)`
public struct PairExpr: Hashable, Sendable {
    /// The first component.
    public var x: Expr
    /// The second component.
    public var y: Expr
    /// The whole expression.
    public var span: Span
}

/// `[a, b, c]`
public struct ListExpr: Hashable, Sendable {
    /// The elements.
    public var elements: [Expr]
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
    public var operand: Expr
    /// The whole expression.
    public var span: Span
}

/// An infix arithmetic operator.
public struct BinaryExpr: Hashable, Sendable {
    /// The operators, with their precedence in `Parser.precedence`.
    public typealias Op = ArithmeticOperator
    /// The operator.
    public var op: Op
    /// The operator token's span.
    public var opSpan: Span
    /// The left operand.
    public var lhs: Expr
    /// The right operand.
    public var rhs: Expr
    /// The whole expression.
    public var span: Span
}

// MARK: - Steps (the pieces of a chain)

/// A chain: steps joined by `then`, optionally named with `as NAME`.
public struct Chain: Hashable, Sendable {
    /// The steps in order.
    public var steps: [Step]
    /// The name given with `as`.
    public var name: Identifier?
    /// The whole chain.
    public var span: Span
}

/// One step of a chain.
public indirect enum Step: Hashable, Sendable {
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

    /// The span of the step.
    public var span: Span {
        switch self {
        case .animate(let s): s.span
        case .spring(let s): s.span
        case .wait(let s): s.span
        case .print(let s): s.span
        case .set(let s): s.span
        case .expect(let s): s.span
        case .block(let s): s.span
        case .repeat(let s): s.span
        case .stagger(let s): s.span
        case .play(let s): s.span
        case .relative(let s): s.span
        case .control(let s): s.span
        }
    }
}

/// `< chain; chain >`: a parallel group.
public struct Block: Hashable, Sendable {
    /// The chains, started together.
    public var chains: [Chain]
    /// From `<` to `>`.
    public var span: Span
}

/// `target = value`, `target += value`, `target -= value` inside a tween block.
public struct Assignment: Hashable, Sendable {
    /// The assignment operators.
    public enum Op: String, Hashable, Sendable { case assign = "=", add = "+=", subtract = "-=" }
    /// The property written (`shape.prop`).
    public var target: Expr
    /// The operator.
    public var op: Op
    /// The value (for keyframes, the whole list).
    public var value: Expr
    /// Keyframes `[v, v at 0.5, v ease ease-out]`, when the value is a list in a tween block.
    public var keyframes: [Keyframe]?
    /// `path [p, p, ...]`: the points are followed along a smooth curve.
    public var isPath: Bool = false
    /// The whole assignment.
    public var span: Span
}

/// One keyframe: a value, an optional offset in [0, 1], an optional easing for the segment
/// that arrives at it.
public struct Keyframe: Hashable, Sendable {
    /// The value.
    public var value: Expr
    /// `at OFFSET`.
    public var offset: Expr?
    /// `ease E`.
    public var easing: EasingSyntax?
    /// The whole keyframe.
    public var span: Span
}

/// An easing as written: `ease-in-out`, `cubic-bezier(0.2, 0, 0, 1)`, `steps(4, jump-end)`.
public struct EasingSyntax: Hashable, Sendable {
    /// One argument: a number or a word such as `jump-start`.
    public enum Argument: Hashable, Sendable {
        case number(Double, Span)
        case word(String, Span)
    }
    /// The (possibly hyphenated) name.
    public var name: String
    /// The name's span.
    public var nameSpan: Span
    /// The arguments in parentheses, if any were written.
    public var arguments: [Argument]?
    /// The whole easing.
    public var span: Span
}

/// A tween option.
public enum TweenOption: Hashable, Sendable {
    /// `delay D`
    case delay(Expr, Span)
    /// `ease E`
    case ease(EasingSyntax, Span)
    /// `repeat N` (nil: `repeat forever`)
    case `repeat`(Expr?, Span)
    /// `yoyo`
    case yoyo(Span)
    /// `speed R`
    case speed(Expr, Span)
    /// `from V`
    case from(Expr, Span)

    /// The span of the option.
    public var span: Span {
        switch self {
        case .delay(_, let s), .ease(_, let s), .repeat(_, let s), .yoyo(let s), .speed(_, let s), .from(_, let s): s
        }
    }
}

/// `animate D [options] < assignments >`
public struct AnimateStep: Hashable, Sendable {
    /// The duration of one iteration.
    public var duration: Expr
    /// Options in the order written.
    public var options: [TweenOption]
    /// The properties tweened together.
    public var assignments: [Assignment]
    /// The `animate` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
}

/// `spring [name value]* < assignments >`
public struct SpringStep: Hashable, Sendable {
    /// A parameter such as `stiffness 170` or `damping-ratio 0.8`.
    public struct Parameter: Hashable, Sendable {
        /// The (possibly hyphenated) name.
        public var name: Identifier
        /// The value.
        public var value: Expr
    }
    /// Parameters in the order written.
    public var parameters: [Parameter]
    /// Tween-like options allowed on springs (`delay`).
    public var options: [TweenOption]
    /// The properties moved.
    public var assignments: [Assignment]
    /// The `spring` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
}

/// `wait D`, `wait` (until everything ends) or `wait NAME`.
public struct WaitStep: Hashable, Sendable {
    /// The duration or name; nil for a bare `wait`.
    public var argument: Expr?
    /// The whole step.
    public var span: Span
}

/// `print expr`
public struct PrintStep: Hashable, Sendable {
    /// What to print.
    public var value: Expr
    /// The whole step.
    public var span: Span
}

/// `set target = value` (also `+=`, `-=`)
public struct SetStep: Hashable, Sendable {
    /// The assignment.
    public var assignment: Assignment
    /// The whole step.
    public var span: Span
}

/// `expect lhs op rhs [within tolerance]`
public struct ExpectStep: Hashable, Sendable {
    /// The comparisons an expectation can make.
    public enum Op: String, Hashable, Sendable { case equal = "==", notEqual = "!=", lessEqual = "<=", greaterEqual = ">=" }
    /// The actual value.
    public var lhs: Expr
    /// The comparison.
    public var op: Op
    /// The expected value.
    public var rhs: Expr
    /// The tolerance after `within`.
    public var tolerance: Expr?
    /// The whole step.
    public var span: Span
}

/// `repeat N [yoyo] < ... >` or `repeat forever < ... >`
public struct RepeatStep: Hashable, Sendable {
    /// The number of passes; nil for `forever`.
    public var count: Expr?
    /// Whether odd passes run backward.
    public var yoyo: Bool
    /// The body.
    public var body: Block
    /// The `repeat` keyword's span.
    public var keywordSpan: Span
    /// The whole step.
    public var span: Span
}

/// `stagger D [from order] for name in shapes < ... >`
public struct StaggerStep: Hashable, Sendable {
    /// The offset between members.
    public var interval: Expr
    /// `start`, `end`, `center`, `edges` or `random`.
    public var order: Identifier?
    /// The loop variable.
    public var variable: Identifier
    /// The shapes.
    public var sequence: Expr
    /// One chain per member.
    public var body: Block
    /// The whole step.
    public var span: Span
}

/// `play NAME(args) [reversed] [speed R]`
public struct PlayStep: Hashable, Sendable {
    /// The defined sequence.
    public var name: Identifier
    /// The arguments.
    public var arguments: [Expr]
    /// Whether it plays backward.
    public var reversed: Bool
    /// The playback rate.
    public var speed: Expr?
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
    public var offset: Expr?
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
    public enum Verb: String, Hashable, Sendable { case pause, resume, seek, reverse, interrupt, save, restore }
    /// The verb.
    public var verb: Verb
    /// The graph or shape.
    public var target: Expr
    /// The time for `seek`.
    public var time: Expr?
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
    case chain(Chain)

    /// The span of the statement.
    public var span: Span {
        switch self {
        case .stage(let s): s.span
        case .shape(let s): s.span
        case .group(let s): s.span
        case .let(let s): s.span
        case .seed(let s): s.span
        case .define(let s): s.span
        case .wait(let s): s.span
        case .at(let s): s.span
        case .onChange(let s): s.span
        case .chain(let s): s.span
        }
    }
}

/// A `key value` pair in a declaration.
public struct PropertyInit: Hashable, Sendable {
    /// The property name.
    public var name: Identifier
    /// The value.
    public var value: Expr
}

/// `stage W x H [key value]*`
public struct StageDecl: Hashable, Sendable {
    /// The stage size.
    public var size: Expr
    /// Other properties (`color`).
    public var properties: [PropertyInit]
    /// The whole statement.
    public var span: Span
}

/// The kinds of shape.
public enum ShapeKind: String, Hashable, Sendable, CaseIterable {
    case rect, circle, text
}

/// `rect NAME [count] key value ...`
public struct ShapeDecl: Hashable, Sendable {
    /// The kind of shape.
    public var kind: ShapeKind
    /// The name.
    public var name: Identifier
    /// For arrays (`card[5]`), the count.
    public var count: Expr?
    /// The properties, in order.
    public var properties: [PropertyInit]
    /// The whole statement.
    public var span: Span
}

/// `group NAME = [a, b]`
public struct GroupDecl: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The members.
    public var members: Expr
    /// The whole statement.
    public var span: Span
}

/// `let NAME = expr`
public struct LetStmt: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The value.
    public var value: Expr
    /// The whole statement.
    public var span: Span
}

/// `seed N`
public struct SeedStmt: Hashable, Sendable {
    /// The seed.
    public var value: Expr
    /// The whole statement.
    public var span: Span
}

/// `define NAME(params) = chain`
public struct DefineStmt: Hashable, Sendable {
    /// The name.
    public var name: Identifier
    /// The parameter names.
    public var parameters: [Identifier]
    /// The body.
    public var body: Chain
    /// The whole statement.
    public var span: Span
}

/// `at T < ... >`
public struct AtStmt: Hashable, Sendable {
    /// The absolute script time.
    public var time: Expr
    /// What runs then.
    public var body: Block
    /// The whole statement.
    public var span: Span
}

/// `on change PROP < ... >`
public struct OnChangeStmt: Hashable, Sendable {
    /// The watched property.
    public var property: Expr
    /// What runs on each frame it changes.
    public var body: Block
    /// The whole statement.
    public var span: Span
}

/// A parsed script.
public struct Program: Hashable, Sendable {
    /// The statements in order.
    public var statements: [Stmt]
}
