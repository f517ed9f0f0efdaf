// Environment: the checker's symbol table — shapes, their properties, let bindings, groups,
// step names and defines. It persists across REPL entries inside a Session, and the runtime
// allocates shapes and global slots in the same order, so ids agree by construction.

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
public struct DefineInfo: Hashable, Sendable {
    /// The name.
    public var name: String
    /// The parameter names.
    public var parameters: [Identifier]
    /// The body as written.
    public var body: Chain
    /// The whole definition.
    public var span: Span
    /// Whether it comes from the prelude (a script may define the name again).
    public var fromPrelude: Bool
}

/// What identifies an instantiation of a define: the kinds (and possible shapes) of its arguments.
struct InstantiationKey: Hashable, Sendable {
    var name: String
    var arguments: [ArgumentSignature]
}

/// One argument's kind, and the shapes it can hold when it holds shapes.
struct ArgumentSignature: Hashable, Sendable {
    var kind: Kind
    var candidates: [ShapeID]
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

/// The symbol table.
public struct Environment: Sendable {
    /// Every shape, by id.
    public internal(set) var shapes: [ShapeInfo] = []
    /// Top-level names.
    public internal(set) var symbols: [String: Symbol] = [:]
    /// The kinds of the global slots, by slot.
    public internal(set) var globalKinds: [Kind] = []
    /// Property names by id: built-ins first.
    public internal(set) var propertyNames: [String] = BuiltinProperty.allCases.map(\.name)
    /// Property ids by name.
    public internal(set) var propertyIDs: [String: PropertyID] =
        Dictionary(uniqueKeysWithValues: BuiltinProperty.allCases.map { ($0.name, $0.id) })
    /// Names given with `as`, by id.
    public internal(set) var stepNames: [String] = []
    /// Where each step name was given (a define body checked twice gives it once).
    var stepNameSpans: [Span] = []
    /// Whether a `stage` statement has been seen.
    public internal(set) var hasStage = false
    /// The defines, by name.
    public internal(set) var defines: [String: DefineInfo] = [:]
    /// Every checked instantiation of a define; `play` nodes refer to them by index.
    public internal(set) var instantiations: [Instantiation] = []
    var instantiationIndex: [InstantiationKey: Int] = [:]
    /// Names the prelude declared that a script has not declared again (they may be).
    public internal(set) var preludeNames: Set<String> = []
    /// Sources that define bodies come from, for messages about them.
    public internal(set) var files: [SourceID: SourceFile] = [:]

    /// An empty environment.
    public init() {}

    /// The id for a property name, interning custom names.
    mutating func internProperty(_ name: String) -> PropertyID {
        if let id = propertyIDs[name] { return id }
        let id = PropertyID(propertyNames.count)
        propertyNames.append(name)
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

    /// The property names a shape has, built-ins first.
    public func propertyNames(of shape: ShapeID) -> [String] {
        let info = shapes[Int(shape.index)]
        let builtins = BuiltinProperty.allCases.filter { $0.applies(to: info.kind) }.map(\.name)
        let custom = info.custom.keys.sorted().map { propertyNames[Int($0.raw)] }
        return builtins + custom
    }

    /// The names of shapes, arrays and groups (for completion and did-you-mean).
    public var shapeNames: [String] {
        symbols.compactMap { name, sym in
            switch sym {
            case .shape, .array, .group: name
            default: nil
            }
        }.sorted()
    }

    /// Every name in scope at the top level, sorted.
    public var allNames: [String] { symbols.keys.sorted() }
}
