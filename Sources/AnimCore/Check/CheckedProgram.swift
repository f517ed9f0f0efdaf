// CheckedProgram: what the checker hands on. Statements and steps with every name resolved,
// every value typed and every easing built; the graph builder flattens checked chains into a
// SequencerGraph. Nothing here is optional-filled-later: a value of these types is checked.

/// Identifies a `define`d sequence in the session.
public struct DefineID: Hashable, Sendable { public var index: Int }
/// Identifies a name given with `as NAME`.
public struct StepNameID: Hashable, Sendable { public var index: Int }

/// A checked property write: `shape.property op value`.
public struct PropertyWrite: Hashable, Sendable {
    /// The shape written.
    public var shape: ShapeRef
    /// The property.
    public var property: PropertyID
    /// `=`, `+=` or `-=`.
    public var op: Assignment.Op
    /// The value, converted to the property's kind.
    public var value: TypedExpr
    /// The property's kind.
    public var kind: Kind
    /// Keyframes, when the value is a list (`value` is then the last keyframe's value).
    public var keyframes: [CheckedKeyframe]?
    /// Whether the keyframes are points followed along a smooth path.
    public var isPath: Bool = false
    /// The assignment as written.
    public var span: Span
}

/// A checked keyframe.
public struct CheckedKeyframe: Hashable, Sendable {
    /// The value, of the property's kind.
    public var value: TypedExpr
    /// Its offset in [0, 1], when written.
    public var offset: Double?
    /// The easing of the segment arriving at it (default linear).
    public var easing: Easing?
}

/// The parameters of a spring, in one of the brief's three forms.
public enum SpringForm: Hashable, Sendable {
    /// The default: SwiftUI's `spring(response: 0.5, dampingFraction: 0.825)`, mass 1.
    case standard
    /// `stiffness K damping C [mass M]`.
    case physical(stiffness: TypedExpr, damping: TypedExpr, mass: TypedExpr?)
    /// SwiftUI's `duration D bounce B`.
    case duration(TypedExpr, bounce: TypedExpr?)
    /// SwiftUI's `response R damping-ratio Z`.
    case response(TypedExpr, dampingRatio: TypedExpr?)
}

/// A checked spring step.
public struct SpringSpec: Hashable, Sendable {
    /// The parameters.
    public var form: SpringForm
    /// `velocity V`: initial velocity (a number for every component, or the property's kind).
    public var velocity: TypedExpr?
    /// `epsilon E`: the settling threshold as a fraction of the displacement (default 0.001).
    public var epsilon: TypedExpr?
    /// `delay D`.
    public var delay: TypedExpr?
    /// The properties moved.
    public var writes: [PropertyWrite]
    /// The whole step.
    public var span: Span
}

/// The order of `stagger ... from ORDER`.
public enum StaggerOrder: String, Hashable, Sendable, CaseIterable {
    case start, end, center, edges, random
}

/// A checked `stagger`.
public struct StaggerSpec: Hashable, Sendable {
    /// The offset between consecutive ranks (a time).
    public var interval: TypedExpr
    /// How members are ranked.
    public var order: StaggerOrder
    /// The local slot of the loop variable.
    public var variable: Int
    /// The members (a list of shapes).
    public var members: TypedExpr
    /// The whole step.
    public var span: Span
}

/// A checked `play`.
public struct PlaySpec: Hashable, Sendable {
    /// The define instantiation played.
    public var instantiation: Int
    /// The define's name.
    public var name: String
    /// The arguments, bound to locals 0..<n of the instantiation.
    public var arguments: [TypedExpr]
    /// Played backward from its end.
    public var reversed: Bool
    /// The playback rate (a number).
    public var speed: TypedExpr?
    /// The whole step.
    public var span: Span
}

/// A checked `after NAME ± D` / `with NAME ± D`.
public struct RelativeSpec: Hashable, Sendable {
    /// After the named step's end, or with its start.
    public var anchor: RelativeStep.Anchor
    /// The named step.
    public var name: StepNameID
    /// Its name as written.
    public var nameText: String
    /// The signed offset (a time), if any.
    public var offset: TypedExpr?
    /// The whole step.
    public var span: Span
}

/// A checked control action on a named step.
public struct ControlSpec: Hashable, Sendable {
    /// pause, resume, seek, reverse or interrupt.
    public var verb: ControlStep.Verb
    /// The named step.
    public var name: StepNameID
    /// Its name as written.
    public var nameText: String
    /// The time for `seek`.
    public var time: TypedExpr?
    /// The whole step.
    public var span: Span
}

/// A checked tween: `animate D [options] < writes >`.
public struct TweenSpec: Hashable, Sendable {
    /// The duration of one iteration (a time).
    public var duration: TypedExpr
    /// The delay before it starts (a time).
    public var delay: TypedExpr?
    /// The easing.
    public var easing: Easing
    /// The number of iterations (a number); nil means 1.
    public var iterations: TypedExpr?
    /// `repeat forever`.
    public var forever: Bool
    /// Alternate direction on each iteration.
    public var yoyo: Bool
    /// The playback rate (a number).
    public var speed: TypedExpr?
    /// The start value given with `from`, converted per write.
    public var from: [TypedExpr]?
    /// The properties written.
    public var writes: [PropertyWrite]
    /// The whole step.
    public var span: Span
}

/// A checked instant action.
public enum ActionSpec: Hashable, Sendable {
    /// `print expr`
    case print(TypedExpr)
    /// `set shape.prop = value`
    case set(PropertyWrite)
    /// `expect ...`
    case expect(ExpectSpec)
    /// `pause NAME`, `resume`, `seek NAME T`, `reverse`, `interrupt`.
    case control(ControlSpec)
    /// `save shape`: snapshot its properties.
    case save(ShapeRef)
    /// `restore shape`: put the snapshot back.
    case restore(ShapeRef)
}

/// A checked `expect`.
public struct ExpectSpec: Hashable, Sendable {
    /// The actual value.
    public var lhs: TypedExpr
    /// The comparison.
    public var op: ExpectStep.Op
    /// The expected value.
    public var rhs: TypedExpr
    /// The tolerance (a number, or the kind of the values).
    public var tolerance: TypedExpr?
    /// The source text of the left side, for messages.
    public var lhsText: String
    /// The whole step.
    public var span: Span
}

/// A checked step.
public enum CheckedStep: Hashable, Sendable {
    /// A tween.
    case tween(TweenSpec)
    /// A spring.
    case spring(SpringSpec)
    /// One chain per member, offset in time.
    case stagger(StaggerSpec, body: [CheckedChain])
    /// A defined sequence, played.
    case play(PlaySpec)
    /// A block started relative to a named step.
    case relative(RelativeSpec, body: [CheckedChain])
    /// A delay of a time.
    case wait(TypedExpr, Span)
    /// An instant action.
    case action(ActionSpec, Span)
    /// A parallel group.
    case parallel([CheckedChain], Span)
    /// A loop: `count` passes (nil: forever) of a parallel group; `yoyo` plays odd passes backward.
    case `repeat`(count: TypedExpr?, yoyo: Bool, body: [CheckedChain], span: Span)
}

/// A checked chain.
public struct CheckedChain: Hashable, Sendable {
    /// Steps joined by `then`.
    public var steps: [CheckedStep]
    /// The name given with `as`.
    public var name: StepNameID?
    /// The whole chain.
    public var span: Span
}

/// One shape to create (arrays create several).
public struct ShapeCreation: Hashable, Sendable {
    /// The declared name (arrays name their members `name[k]`).
    public var name: String
    /// Whether it declares an array.
    public var isArray: Bool
    /// The first shape's id; arrays use consecutive ids.
    public var first: ShapeID
    /// How many shapes (1, or the array size).
    public var count: Int
    /// The kind of shape.
    public var kind: ShapeKind
    /// Initial values, evaluated per member with the index in `indexSlot`.
    public var properties: [(PropertyID, TypedExpr)]
    /// The local slot of the index variable `i` in the initial values.
    public var indexSlot: Int?
    /// Locals the initial values need.
    public var localCount: Int
    /// The declaration.
    public var span: Span

    public static func == (a: ShapeCreation, b: ShapeCreation) -> Bool {
        a.first == b.first && a.count == b.count && a.span == b.span
    }
    public func hash(into h: inout Hasher) { h.combine(first); h.combine(count); h.combine(span) }
}

/// How a top-level `wait` ends.
public enum WaitUntil: Hashable, Sendable {
    /// After a time.
    case duration(TypedExpr)
    /// When every running graph has finished.
    case allFinished
    /// When the graph started by the chain named so has finished.
    case named(StepNameID, String)
}

/// A checked top-level statement.
public enum CheckedStmt: Hashable, Sendable {
    /// `stage`: the size and background.
    case stage(size: TypedExpr, color: TypedExpr?, span: Span)
    /// A shape declaration.
    case shapes(ShapeCreation)
    /// `let`: store a value in a global slot.
    case bind(slot: Int, value: TypedExpr, span: Span)
    /// `seed`: reseed the random generator.
    case seed(TypedExpr, Span)
    /// A top-level `wait`.
    case wait(WaitUntil, Span)
    /// Start a graph now, or at an absolute time (`at`).
    case start(CheckedChain, at: TypedExpr?, localCount: Int, span: Span)
    /// `on change PROP < ... >`: run the body every frame the property changes.
    case observe(property: TypedExpr, body: CheckedChain, localCount: Int, span: Span)
    /// A declaration with no run-time effect (`group`, `define`).
    case declaration(Span)
}

/// One checked instance of a `define` for one signature of argument kinds.
public struct Instantiation: Hashable, Sendable {
    /// The define's name.
    public var name: String
    /// The graph of its body (nil while the body is being checked, for recursion).
    public var graph: SequencerGraph?
}
