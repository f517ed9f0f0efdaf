// TypedExpr: the checked form of expressions. Every node has a kind and a span; names are
// resolved to slots, shapes and property ids; implicit conversions (a bare number in a time or
// angle slot) are explicit `convert` nodes. The runtime evaluates these, never the raw AST.

/// Where a let binding or local lives.
public enum Slot: Hashable, Sendable {
    /// A top-level `let`, by index in the session's globals.
    case global(Int)
    /// A local of the current graph scope (loop variable, array index, define parameter).
    case local(Int)
}

/// A reference to a shape, resolved as far as the checker can.
public enum ShapeRef: Hashable, Sendable {
    /// One known shape.
    case fixed(ShapeID)
    /// A member of a shape array picked at run time: `card[i]`.
    indirect case element(first: ShapeID, count: Int, index: TypedExpr, name: String)
    /// A shape-valued expression (a loop variable or parameter).
    indirect case dynamic(TypedExpr)
}

/// A checked expression.
public struct TypedExpr: Hashable, Sendable {
    /// The node kinds.
    public enum Node: Hashable, Sendable {
        case constant(Value)
        case variable(Slot)
        case property(ShapeRef, PropertyID)
        case shape(ShapeRef)
        indirect case negate(TypedExpr)
        indirect case binary(ArithmeticOperator, TypedExpr, TypedExpr)
        /// A comparison giving a bool; its operands have one kind.
        indirect case compare(ComparisonOperator, TypedExpr, TypedExpr)
        /// `and` / `or` of bools, the right operand evaluated only when it decides.
        indirect case logical(isAnd: Bool, TypedExpr, TypedExpr)
        indirect case not(TypedExpr)
        indirect case component(TypedExpr, isX: Bool)
        case call(Builtin, [TypedExpr])
        indirect case pair(TypedExpr, TypedExpr)
        case list([TypedExpr])
        indirect case index(TypedExpr, TypedExpr)
        case interpolation([InterpolationPart])
        indirect case convert(TypedExpr, Conversion)
    }

    /// One piece of an interpolated string.
    public enum InterpolationPart: Hashable, Sendable {
        case text(String)
        case value(TypedExpr)
    }

    /// The node.
    public var node: Node
    /// The static kind of its value.
    public var kind: Kind
    /// Where it was written.
    public var span: Span

    /// Creates a typed expression.
    public init(_ node: Node, _ kind: Kind, _ span: Span) {
        self.node = node
        self.kind = kind
        self.span = span
    }

    /// The constant value, if the expression is one.
    public var constantValue: Value? {
        if case .constant(let v) = node { return v }
        return nil
    }
}

extension TypedExpr {
    /// Whether the expression is a gradient for certain (a constant one, or a call of a gradient
    /// function): what keyframes and springs cannot move (a fill read from a shape may be one
    /// too; the runtime reports that).
    var isGradient: Bool {
        switch node {
        case .constant(.gradient): true
        case .call(let f, _): f == .linearGradient || f == .radialGradient
        default: false
        }
    }
}
