// PropertyKey: one property of one shape — what the interpreter's per-property tables, the
// run's log and the activity log are keyed by. It packs into one Int64 (the shape in the high
// half) only where a table needs a single integer to hash or to order.

/// A property of a shape.
public struct PropertyKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The shape.
    public var shape: ShapeID
    /// The property.
    public var property: PropertyID

    /// The key of `property` of `shape`.
    @inline(__always)
    public init(_ shape: ShapeID, _ property: PropertyID) {
        self.shape = shape
        self.property = property
    }

    /// The key as one integer, shape first: it orders as the keys do.
    @inline(__always)
    var packed: Int64 { Int64(shape.index) << 32 | Int64(UInt32(bitPattern: property.raw)) }

    /// The key `packed` stands for.
    @inline(__always)
    init(packed: Int64) {
        shape = ShapeID(Int(packed >> 32))
        property = PropertyID(Int(UInt32(truncatingIfNeeded: packed)))
    }

    public static func < (a: PropertyKey, b: PropertyKey) -> Bool {
        a.shape != b.shape ? a.shape < b.shape : a.property < b.property
    }

    public var description: String { "#\(shape.index).\(property.raw)" }
}
