// Environment: the checker's symbol table — shapes, their properties, let bindings, groups,
// step names and defines. It persists across REPL entries inside a Session, and the runtime
// allocates shapes and global slots in the same order, so ids agree by construction. Names are
// interned once (`names`) and every table is keyed by NameID; the first names are the built-in
// properties, in order, so that name k is BuiltinProperty k.

/// What a name refers to.
public enum Symbol: Hashable, Sendable {
    /// One shape.
    case shape(ShapeID)
    /// A shape array `card[5]`: its first member and size.
    case array(first: ShapeID, count: Int)
    /// A group of shapes.
    case group([ShapeID])
    /// A `let` binding.
    case global(slot: Int, kind: Kind)
    /// A name given with `as`.
    case stepName(StepNameID)
    /// A `define`d sequence.
    case define(String)
}

/// A `define`: its parameters and body, checked per signature when played.
public struct DefineInfo: Sendable {
    /// The name.
    public var name: String
    /// The parameter names.
    public var parameters: [NameID]
    /// The tree of the `define` statement alone (the rest of its script's tree is let go).
    public var tree: SyntaxTree
    /// The body as written, in `tree`.
    public var body: ChainID
    /// The whole definition.
    public var span: Span
    /// Whether it comes from the prelude (a script may define the name again).
    public var fromPrelude: Bool
}

/// What identifies an instantiation of a define: the define (by name, and by where it is
/// declared: a script may declare a prelude's define again, and a play after that plays the new
/// one, not the prelude's instantiation of the same signature) and the kinds (and possible
/// shapes) of its arguments.
struct InstantiationKey: Hashable, Sendable {
    var name: NameID
    var define: Span
    var arguments: [ArgumentSignature]
}

/// One argument's kind, and the shapes it can hold when it holds shapes.
struct ArgumentSignature: Hashable, Sendable {
    var kind: Kind
    var candidates: [ShapeID]
}

/// An instantiation whose checked body serves every signature that differs from its own only
/// in which one shape a shape argument is, when the shapes are alike for the checker (the same
/// kind and the same custom properties): the body reads such an argument only through its
/// shape's kind and properties (`Checker.property(_:of:)`, `writesGlyphs`) and names it as a
/// local, never as the shape, so checking it again for `play hop(s1, gap)` after
/// `play hop(s0, gap)` made the same body (callgrind: about 24,000 instructions a play on a
/// 5,000-line script). Recorded only for a body whose check left no trace but the body: no
/// diagnostic, no font family, no gradient tween, and no shape declared with a gradient (whose
/// writes are counted per check), so sharing it changes no output.
struct SharedInstantiation: Sendable {
    /// The instantiation's index in `Environment.instantiations`.
    var id: Int
    /// The shape each argument was checked with, nil for an argument kept whole in the key.
    var shapes: [ShapeID?]
    /// Where the define was written: a define declared again (the prelude's) shares nothing.
    var defineSpan: Span
}

/// The checker's facts about one shape.
public struct ShapeInfo: Hashable, Sendable {
    /// The name shown in messages and output (`square`, `card[2]`).
    public var name: String
    /// Rect, circle or text.
    public var kind: ShapeKind
    /// Custom properties and their kinds.
    public var custom: [PropertyID: Kind]
    /// Where it was declared.
    public var span: Span
}

/// Values by interned name: a dense array, so a lookup is an index.
struct NameMap<Value: Sendable>: Sendable {
    private var values: [Value?] = []

    subscript(id: NameID) -> Value? {
        get { Int(id.raw) < values.count ? values[Int(id.raw)] : nil }
        set {
            let i = Int(id.raw)
            if i >= values.count {
                guard newValue != nil else { return }
                values.append(contentsOf: repeatElement(nil, count: i + 1 - values.count))
            }
            values[i] = newValue
        }
    }

    /// Every name with a value, in id order.
    var entries: [(NameID, Value)] {
        values.indices.compactMap { i in values[i].map { (NameID(Int32(i)), $0) } }
    }
}

/// The symbol table.
public struct Environment: Sendable {
    /// Every shape, by id.
    public internal(set) var shapes: [ShapeInfo] = []
    /// Every name the checker has read.
    public internal(set) var names = NameTable()
    /// Top-level names.
    var symbols = NameMap<Symbol>()
    /// The kinds of the global slots, by slot.
    public internal(set) var globalKinds: [Kind] = []
    /// Property names by id: built-ins first.
    public internal(set) var propertyNames: [String] = BuiltinProperty.allCases.map(\.name)
    /// Property ids by name.
    var propertyIDs = NameMap<PropertyID>()
    /// Names given with `as`, by id.
    public internal(set) var stepNames: [String] = []
    /// Where each step name was given (a define body checked twice gives it once).
    var stepNameSpans: [Span] = []
    /// Whether a `stage` statement has been seen.
    public internal(set) var hasStage = false
    /// The defines, by name.
    var defines: [NameID: DefineInfo] = [:]
    /// Every checked instantiation of a define; `play` nodes refer to them by index.
    public internal(set) var instantiations: [CheckedInstantiation] = []
    var instantiationIndex: [InstantiationKey: Int] = [:]
    /// Instantiations another signature may share: by the key with each one-shape argument's
    /// shape left out (`SharedInstantiation`, `Checker.instantiate`).
    var sharedInstantiations: [InstantiationKey: [SharedInstantiation]] = [:]
    /// Names the prelude declared that a script has not declared again (they may be).
    var preludeNames: Set<NameID> = []
    /// Each text shape's glyphs (`title.glyphs`, Grammar.md §4.12) once a script has named them:
    /// the first glyph shape and how many (consecutive ids).
    public internal(set) var glyphs: [ShapeID: (first: ShapeID, count: Int)] = [:]
    /// How many glyphs each text declared with a constant string has (its characters).
    public internal(set) var glyphCounts: [ShapeID: Int] = [:]
    /// Sources that define bodies come from, for messages about them.
    public internal(set) var files: [SourceID: SourceFile] = [:]

    /// An empty environment: the built-in property names interned first.
    public init() {
        for b in BuiltinProperty.allCases {
            let id = names.intern(b.name)
            precondition(Int(id.raw) == b.rawValue, "built-in property names come first")
            propertyIDs[id] = b.id
        }
        // `fill` names `color` (issue 15); its name id comes right after the built-ins'.
        let fill = names.intern(BuiltinProperty.fillAlias)
        precondition(Int(fill.raw) == BuiltinProperty.allCases.count, "the fill alias comes after the built-ins")
        propertyIDs[fill] = BuiltinProperty.color.id
    }

    /// The id for a property name, interning custom names.
    mutating func internProperty(_ name: NameID) -> PropertyID {
        if let id = propertyIDs[name] { return id }
        let id = PropertyID(propertyNames.count)
        propertyNames.append(names[name])
        propertyIDs[name] = id
        return id
    }

    /// The kind of a property on a shape, if the shape has it.
    public func kind(of property: PropertyID, on shape: ShapeID) -> Kind? {
        let info = shapes[Int(shape.index)]
        if let b = BuiltinProperty(rawValue: Int(property.raw)) {
            return b.applies(to: info.kind) ? b.kind : nil
        }
        return info.custom[property]
    }

    /// A property's name as written: `center`, or `center.x` for a component.
    public func propertyName(_ id: PropertyID) -> String {
        if let c = id.componentIndex { return propertyName(id.whole) + (c == 0 ? ".x" : ".y") }
        return Int(id.raw) < propertyNames.count ? propertyNames[Int(id.raw)] : "#\(id.raw)"
    }

    /// The property names a shape has, built-ins first.
    public func propertyNames(of shape: ShapeID) -> [String] {
        let info = shapes[Int(shape.index)]
        let builtins = BuiltinProperty.allCases.filter { $0.applies(to: info.kind) }.map(\.name)
        let custom = info.custom.keys.sorted().map { propertyNames[Int($0.raw)] }
        return builtins + custom
    }

    // MARK: - By name, for the front ends

    /// What a top-level name refers to.
    public func symbol(named name: String) -> Symbol? { names.id(of: name).flatMap { symbols[$0] } }

    /// Sets what a top-level name refers to (nil: nothing).
    public mutating func setSymbol(_ symbol: Symbol?, named name: String) { symbols[names.intern(name)] = symbol }

    /// The id of a property name, if a shape has it.
    public func propertyID(named name: String) -> PropertyID? { names.id(of: name).flatMap { propertyIDs[$0] } }

    /// The define of a name.
    public func define(named name: String) -> DefineInfo? { names.id(of: name).flatMap { defines[$0] } }

    /// Marks every name declared so far as the prelude's: a script may declare it again.
    mutating func markDeclaredNamesAsPrelude() {
        preludeNames = Set(symbols.entries.map(\.0))
    }

    /// The names of shapes, arrays and groups (for completion and did-you-mean).
    public var shapeNames: [String] {
        symbols.entries.compactMap { id, sym in
            switch sym {
            case .shape, .array, .group: names[id]
            default: nil
            }
        }.sorted()
    }

    /// Every name in scope at the top level, sorted.
    public var allNames: [String] { symbols.entries.map { names[$0.0] }.sorted() }

    /// The defined sequences' names, sorted.
    public var defineNames: [String] { defines.keys.map { names[$0] }.sorted() }
}
