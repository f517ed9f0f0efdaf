// Scene: the stage and the shapes with their base property values — the values a property has
// when no tween is writing it. Tweens in flight live in the interpreter; reading a property
// goes through `Interpreter.currentValue`, which asks the owning tween first.

/// The stage and its shapes.
public struct Scene: Sendable {
    /// One shape's state.
    public struct Shape: Sendable {
        /// `square`, `card[2]`.
        public var name: String
        /// Rect, circle or text.
        public var kind: ShapeKind
        /// Base values by property id (`nil`: the shape lacks the property).
        public var values: [Value?]
    }

    /// Every shape, by id (declaration order).
    public internal(set) var shapes: [Shape] = []
    /// The stage's size.
    public internal(set) var stageSize = Point(400, 400)
    /// The stage's background color.
    public internal(set) var stageColor = Color(r: 255, g: 255, b: 255)

    /// Creates an empty scene.
    public init() {}

    /// The base value of a property.
    @inline(__always)
    public func base(_ shape: ShapeID, _ property: PropertyID) -> Value? {
        let vs = shapes[Int(shape.index)].values
        let i = Int(property.raw)
        return i < vs.count ? vs[i] : nil
    }

    /// The base value of a property.
    @inline(__always)
    public func base(_ key: PropertyKey) -> Value? { base(key.shape, key.property) }

    /// Sets the base value of a property the shape has.
    @inline(__always)
    mutating func setBase(_ shape: ShapeID, _ property: PropertyID, _ v: Value) {
        shapes[Int(shape.index)].values[Int(property.raw)] = v
    }

    /// Adds a shape with default values for its kind and room for `propertyCount` ids.
    mutating func add(name: String, kind: ShapeKind, propertyCount: Int) -> ShapeID {
        var values = [Value?](repeating: nil, count: propertyCount)
        for b in BuiltinProperty.allCases where b.applies(to: kind) { values[b.rawValue] = b.defaultValue(for: kind) }
        shapes.append(Shape(name: name, kind: kind, values: values))
        return ShapeID(shapes.count - 1)
    }

    /// Whether a shape id exists yet.
    public func contains(_ id: ShapeID) -> Bool { Int(id.index) < shapes.count }

    /// A value's canonical text, naming shapes.
    public func describe(_ v: Value) -> String {
        switch v {
        case .shape(let id): contains(id) ? shapes[Int(id.index)].name : v.description
        case .list(let vs): "[" + vs.map { if case .string(let s) = $0 { "\"" + s + "\"" } else { describe($0) } }
            .joined(separator: ", ") + "]"
        default: v.description
        }
    }
}
