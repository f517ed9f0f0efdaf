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
    /// `path [...] orient [A]`: the angle added to the tangent's (0 when none is written); the
    /// shape's rotation follows the path.
    public var orient: TypedExpr? = nil
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

/// A checked spring step. A class, as TweenSpec is, for the same reason.
public final class SpringSpec: Hashable, Sendable {
    /// The parameters.
    public let form: SpringForm
    /// `velocity V`: initial velocity (a number for every component, or the property's kind).
    public let velocity: TypedExpr?
    /// `epsilon E`: the settling threshold as a fraction of the displacement (default 0.001).
    public let epsilon: TypedExpr?
    /// `delay D`.
    public let delay: TypedExpr?
    /// The properties moved.
    public let writes: [PropertyWrite]
    /// The whole step.
    public let span: Span

    init(form: SpringForm, velocity: TypedExpr?, epsilon: TypedExpr?, delay: TypedExpr?, writes: [PropertyWrite], span: Span) {
        self.form = form
        self.velocity = velocity
        self.epsilon = epsilon
        self.delay = delay
        self.writes = writes
        self.span = span
    }

    public static func == (a: SpringSpec, b: SpringSpec) -> Bool {
        a === b || (a.form == b.form && a.velocity == b.velocity && a.epsilon == b.epsilon && a.delay == b.delay
                    && a.writes == b.writes && a.span == b.span)
    }

    public func hash(into h: inout Hasher) {
        h.combine(form); h.combine(velocity); h.combine(epsilon); h.combine(delay); h.combine(writes); h.combine(span)
    }
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
    /// `stagger amount A`: `interval` is the whole spread, not the offset per rank.
    public var amount = false
    /// `from N`: the member index it starts from (a number), instead of `order`.
    public var fromIndex: TypedExpr? = nil
    /// `ease E`: the start times follow this easing.
    public var easing: Easing? = nil
    /// `grid (ROWS, COLUMNS)` (numbers).
    public var grid: StaggerGrid? = nil
    /// The local slot of the index variable of `for c, k in …`.
    public var indexVariable: Int? = nil
}

/// A stagger's grid: its size and the axis distances are measured along (nil: both).
public struct StaggerGrid: Hashable, Sendable {
    public var rows: TypedExpr
    public var columns: TypedExpr
    public var axis: StaggerAxis?
}

/// `axis x` or `axis y` of a grid stagger.
public enum StaggerAxis: String, Hashable, Sendable, CaseIterable { case x, y }

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
    /// Whether the offset was written with `-` (its span covers the operand only).
    public var subtracts: Bool = false
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
    /// The time for `seek`; the rate (a number) for `speed`.
    public var time: TypedExpr?
    /// The whole step.
    public var span: Span
}

/// A tween's timing: decided once by the checker when every part of it is a constant (and then
/// valid: `TweenTiming.validated`), or the expressions the interpreter evaluates when it starts.
public enum TimingSource: Hashable, Sendable {
    /// Constant: the timing and the delay (nil when none was written, which `from` tells apart
    /// from `delay 0`).
    case constant(TweenTiming, delay: Time?)
    /// Computed when the tween starts.
    indirect case computed(ComputedTiming)
}

/// The parts of a tween's timing that some expression decides at run time.
public struct ComputedTiming: Hashable, Sendable {
    /// The duration of one iteration (a time).
    public var duration: TypedExpr
    /// The number of iterations (a number); nil means 1, or endless with `forever`.
    public var iterations: TypedExpr?
    /// `repeat forever`.
    public var forever: Bool
    /// Alternate direction on each iteration.
    public var yoyo: Bool
    /// The playback rate (a number).
    public var speed: TypedExpr?
    /// The delay before it starts (a time; negative starts it part-way).
    public var delay: TypedExpr?
    /// `direction D` (nil: normal, or alternate with `yoyo`).
    public var direction: PlaybackDirection? = nil
    /// `iteration-start F` (a number).
    public var iterationStart: TypedExpr? = nil
    /// `repeat-delay D` (a time).
    public var repeatDelay: TypedExpr? = nil
}

/// A checked tween: `animate D [options] < writes >`. Immutable; a class, so the checked step
/// and every graph node that plays it share one copy (a graph is built per chain, a node is
/// read at every start of its step).
public final class TweenSpec: Hashable, Sendable {
    /// Duration, iterations, direction, rate and delay.
    public let timing: TimingSource
    /// The easing.
    public let easing: Easing
    /// The properties written.
    public let writes: [PropertyWrite]
    /// The start value given with `from`, converted per write.
    public let from: [TypedExpr]?
    /// The whole step.
    public let span: Span
    /// `fill F` as written (nil: forwards, and backwards too with `from V` and a delay).
    public let fill: FillMode?
    /// `end-delay D` (a time; negative ends the tween before its active interval does).
    public let endDelay: TypedExpr?

    init(timing: TimingSource, easing: Easing, writes: [PropertyWrite], from: [TypedExpr]?, span: Span,
         fill: FillMode? = nil, endDelay: TypedExpr? = nil) {
        self.timing = timing
        self.easing = easing
        self.writes = writes
        self.from = from
        self.span = span
        self.fill = fill
        self.endDelay = endDelay
    }

    /// How many tracks it moves: one per write, and one more for the rotation of each
    /// `path [...] orient`.
    public var trackCount: Int { writes.count + writes.reduce(0) { $0 + ($1.orient == nil ? 0 : 1) } }

    /// Whether it needs the Web Animations timing beyond the plain one, as far as the checker
    /// knows: a `fill`, an `end-delay`, or a constant negative delay (a computed delay found
    /// negative when the step starts needs it too).
    public var hasTimingExtras: Bool {
        if fill != nil || endDelay != nil { return true }
        if case .constant(_, let d) = timing { return (d?.ticks ?? 0) < 0 }
        return false
    }

    /// Whether a delay was written (even `delay 0`).
    public var hasDelay: Bool {
        switch timing {
        case .constant(_, let d): d != nil
        case .computed(let c): c.delay != nil
        }
    }

    public static func == (a: TweenSpec, b: TweenSpec) -> Bool {
        a === b || (a.timing == b.timing && a.easing == b.easing && a.from == b.from && a.writes == b.writes && a.span == b.span
                    && a.fill == b.fill && a.endDelay == b.endDelay)
    }

    public func hash(into h: inout Hasher) {
        h.combine(timing); h.combine(easing); h.combine(from); h.combine(writes); h.combine(span)
    }
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
    /// `interrupt SHAPE` / `interrupt SHAPE.PROP`: stop what writes them (GSAP killTweensOf).
    case interruptShapes(InterruptSpec)
}

/// A checked `interrupt` of shapes or one shape's property (Grammar.md §6.13): every tween,
/// spring or replaying run writing them stops writing them; the values stay where they are.
public struct InterruptSpec: Hashable, Sendable {
    /// What is interrupted: one shape, or a list of shapes (an array, a group).
    public enum Target: Hashable, Sendable {
        case shape(ShapeRef)
        case shapes(TypedExpr)
    }
    public var target: Target
    /// The one property, for `interrupt SHAPE.PROP`; nil for every property of the shapes.
    public var property: PropertyID?
    /// The target as written, for labels.
    public var text: String
    /// The whole step.
    public var span: Span
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

/// A checked step. Cases with large payloads are boxed, so a chain's array of steps stays
/// small (tweens and springs are shared references already).
public enum CheckedStep: Hashable, Sendable {
    /// A tween.
    case tween(TweenSpec)
    /// A spring.
    case spring(SpringSpec)
    /// One chain per member, offset in time.
    indirect case stagger(StaggerSpec, body: [CheckedChain])
    /// A defined sequence, played.
    indirect case play(PlaySpec)
    /// A block started relative to a named step.
    indirect case relative(RelativeSpec, body: [CheckedChain])
    /// A delay of a time.
    indirect case wait(TypedExpr, Span)
    /// An instant action.
    indirect case action(ActionSpec, Span)
    /// A parallel group.
    case parallel([CheckedChain], Span)
    /// A loop: `count` passes (nil: forever) of a parallel group; `yoyo` plays odd passes backward.
    indirect case `repeat`(count: TypedExpr?, yoyo: Bool, body: [CheckedChain], span: Span, delay: TypedExpr? = nil, loop: RepeatLoop? = nil)
    /// `if`: the first branch whose condition (a bool; nil for `else`) holds when it begins.
    indirect case conditional([CheckedBranch], Span)
    /// `any < … >` (ends when its first chain does; the others go on) or `choose < … >` (one
    /// chain, drawn from the seeded generator).
    indirect case select(SelectStep.Mode, [CheckedChain], Span)
}

/// `repeat N for k` / `repeat while COND [for k]`: the pass index's local slot, and the
/// condition checked before each pass (nil: the count decides).
public struct RepeatLoop: Hashable, Sendable {
    public var variable: Int?
    public var condition: TypedExpr?
    /// Whether the body surely takes no time and nothing can change the condition, so passes
    /// would go on for ever at one instant once the condition holds.
    public var loopsAtOneInstant = false
    /// Whether nothing can change the condition (it reads no property, no `random()`, not the
    /// pass index): once it holds it holds for ever, so the repeat never ends.
    public var conditionNeverChanges = false

    /// Whether the run watches for still passes (`Interpreter.stillLoops`): a `while` whose
    /// condition can change (it reads a property) and that has no pass index (which changes
    /// every pass, and the body may read it).
    public var watchesForStillPasses: Bool {
        condition != nil && variable == nil && !conditionNeverChanges && !loopsAtOneInstant
    }
}

/// One branch of an `if` step.
public struct CheckedBranch: Hashable, Sendable {
    /// The condition; nil for `else`.
    public var condition: TypedExpr?
    /// The block.
    public var body: [CheckedChain]
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

/// One checked instance of a `define` for one signature of argument kinds: its body as a
/// checked chain, which GraphBuilder builds (`GraphBuilder.buildInstantiations`).
public struct CheckedInstantiation: Hashable, Sendable {
    /// The define's name.
    public var name: String
    /// The checked body (nil while it is being checked, for recursion).
    public var body: CheckedChain?
    /// Local slots the body uses (its parameters first).
    public var localCount: Int
}
