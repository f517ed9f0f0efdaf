// Properties: the built-in properties every shape has (brief §3), their kinds and defaults,
// and the ids of custom properties. Property ids are global: a custom name gets one id for the
// whole session, and each shape records which custom ids it declared.

/// Identifies a property name: built-ins first, then custom names in order of first declaration.
public struct PropertyID: Hashable, Comparable, Sendable {
    /// The index in the session's property-name table.
    public var raw: Int32
    /// Creates an id.
    public init(_ raw: Int) { self.raw = Int32(raw) }
    public static func < (a: PropertyID, b: PropertyID) -> Bool { a.raw < b.raw }
}

/// The built-in properties.
public enum BuiltinProperty: Int, CaseIterable, Sendable {
    case center, size, rotation, scale, offset, alpha, color, radius, z, text, font

    /// The property's id.
    public var id: PropertyID { PropertyID(rawValue) }

    /// The name as written.
    public var name: String {
        switch self {
        case .center: "center"
        case .size: "size"
        case .rotation: "rotation"
        case .scale: "scale"
        case .offset: "offset"
        case .alpha: "alpha"
        case .color: "color"
        case .radius: "radius"
        case .z: "z"
        case .text: "text"
        case .font: "font"
        }
    }

    /// The kind of its values. `scale` is a point; a number given for it means (n, n).
    public var kind: Kind {
        switch self {
        case .center, .size, .scale, .offset: .point
        case .rotation: .angle
        case .alpha, .radius, .z, .font: .number
        case .color: .color
        case .text: .string
        }
    }

    /// Whether shapes of this kind have the property (`text` and `font` belong to text shapes).
    public func applies(to shape: ShapeKind) -> Bool {
        switch self {
        case .text, .font: shape == .text
        default: true
        }
    }

    /// The value before any declaration sets it.
    public func defaultValue(for shape: ShapeKind) -> Value {
        switch self {
        case .center: .point(.zero)
        case .size: .point(shape == .rect ? Point(100, 100) : shape == .circle ? Point(100, 100) : .zero)
        case .rotation: .angle(Angle(degrees: 0))
        case .scale: .point(Point(1, 1))
        case .offset: .point(.zero)
        case .alpha: .number(1)
        case .color: .color(Color(r: 0, g: 0, b: 0))
        case .radius: .number(shape == .circle ? 50 : 0)
        case .z: .number(0)
        case .text: .string("")
        case .font: .number(16)
        }
    }

    /// The built-in with this name.
    public static func named(_ name: String) -> BuiltinProperty? {
        allCases.first { $0.name == name }
    }
}
