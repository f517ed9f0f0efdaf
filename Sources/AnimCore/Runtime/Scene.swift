// Scene: the stage and the shapes with their base property values — the values a property has
// when no tween is writing it. Tweens in flight live in the interpreter; reading a property
// goes through `Interpreter.currentValue`, which asks the owning tween first.
//
// The built-in properties are plain numbers in one pool, a block of 26 per shape at fixed
// places (font's is unused but by text shapes), so a shape costs no allocation and setting a
// base value copies bytes. Anything else — text, custom properties, a value whose kind a built-in does not hold —
// sits in a side table by key.

/// The stage and its shapes.
public struct Scene: Sendable {
    /// One shape.
    public struct Shape: Sendable {
        /// `square`, `card[2]`.
        public var name: String
        /// Rect, circle or text.
        public var kind: ShapeKind
        /// How many property ids it was made with (custom properties past them are not its).
        public var propertyCount: Int32
    }

    /// Where a shape's values are: plain data, read on every property read.
    private struct Slot: Sendable {
        var kind: ShapeKind
        /// Where its built-ins' numbers start in `numbers`.
        var first: Int32
        var propertyCount: Int32
        /// The built-ins with a place in the block whose values sit in the side table (bit i for
        /// built-in i): a value of a kind the place does not hold.
        var elsewhere: UInt32
    }

    /// Every shape, by id (declaration order).
    public internal(set) var shapes: [Shape] = []
    /// Each shape's slot, by id.
    private var slots: [Slot] = []
    /// The stage's size.
    public internal(set) var stageSize = Point(400, 400)
    /// The stage's background color.
    public internal(set) var stageColor = Color(r: 255, g: 255, b: 255)
    /// The built-ins' numbers, shape by shape.
    private var numbers: [Double] = []
    /// Text, custom properties, and values a built-in's place does not hold.
    private var others = KeyMap<Value>()

    /// Creates an empty scene.
    public init() {}

    /// How many built-in properties there are.
    static let builtinCount = 15

    /// Where built-in `p` sits in a shape's block, and how (a switch, not a table: the reads of
    /// a base value stay free of lazily made globals, so the scene is read in place).
    @inline(__always)
    private static func place(_ p: Int) -> (offset: Int, layout: ValueLayout?) {
        switch p {
        case 0: (0, .point)     // center
        case 1: (2, .point)     // size
        case 2: (4, .angle)     // rotation
        case 3: (5, .point)     // scale
        case 4: (7, .point)     // offset
        case 5: (9, .number)    // alpha
        case 6: (10, .color)    // color
        case 7: (14, .number)   // radius
        case 8: (15, .number)   // z
        case 10: (16, .number)  // font
        case 11: (17, .point)   // anchor
        case 12: (19, .point)   // shadow-offset
        case 13: (21, .number)  // shadow-blur
        case 14: (22, .color)   // shadow-color
        default: (0, nil)       // text
        }
    }

    /// Whether property `p` has a place in a shape's block: a built-in the kind has, but text.
    @inline(__always)
    private static func holds(_ p: Int, _ kind: ShapeKind) -> Bool {
        p < builtinCount && p != BuiltinProperty.text.rawValue && (kind == .text || p != BuiltinProperty.font.rawValue)
            // Lines, polygons and paths have no center, size or radius (BuiltinProperty.applies).
            && !(kind.isPointBased && (p == 0 || p == 1 || p == BuiltinProperty.radius.rawValue))
            && (kind != .glyph || BuiltinProperty(rawValue: p)?.applies(to: .glyph) == true)
            // An image has no colour and no radius (its pixels are its colours).
            && !(kind == .image && (p == BuiltinProperty.color.rawValue || p == BuiltinProperty.radius.rawValue))
    }

    /// The block length of a kind.
    private static func blockLength(_ kind: ShapeKind) -> Int { 26 }

    /// Each kind's block of defaults (in `ShapeKind.allCases` order).
    private static let defaults: [[Double]] = ShapeKind.allCases.map { kind in
        var block = [Double](repeating: 0, count: blockLength(kind))
        for b in BuiltinProperty.allCases where b.applies(to: kind) {
            guard let layout = place(b.rawValue).layout, let n = NumericValue(b.defaultValue(for: kind)) else { continue }
            precondition(n.layout == layout)
            block.withUnsafeMutableBufferPointer { n.store(at: $0.baseAddress! + place(b.rawValue).offset) }
        }
        return block
    }

    private static func index(_ kind: ShapeKind) -> Int {
        switch kind {
        case .rect: 0
        case .circle: 1
        case .text: 2
        case .line: 3
        case .ellipse: 4
        case .polygon: 5
        case .polyline: 6
        case .path: 7
        case .image: 8
        case .glyph: 9
        }
    }

    /// The base value of a property (nil: the shape lacks it).
    public func base(_ shape: ShapeID, _ property: PropertyID) -> Value? { base(PropertyKey(shape, property)) }

    /// The base value of a property (nil: the shape lacks it).
    @inline(__always)
    public func base(_ key: PropertyKey) -> Value? {
        let s = slots[Int(key.shape.index)]
        let p = Int(key.property.raw)
        guard p < Int(s.propertyCount) else { return key.property.isComponent ? componentBase(key) : nil }
        // A built-in its kind lacks may still be declared (a custom property of that name).
        guard Scene.holds(p, s.kind), s.elsewhere & (1 << p) == 0 else { return others[key] ?? Scene.outsideDefault(p, s.kind) }
        return Scene.numeric(p, numbers, Int(s.first)).value
    }

    /// The base value of one component of a point property (`sq.center.x`): a number.
    @inline(never)
    private func componentBase(_ key: PropertyKey) -> Value? {
        guard case .point(let pt)? = base(PropertyKey(key.shape, key.property.whole)) else { return nil }
        return .number(key.property.componentIndex == 0 ? pt.x : pt.y)
    }

    /// The default of a built-in kept outside the block (the outline properties: stroke, dash,
    /// trim, points…), so that a shape that never sets them costs no side-table entries.
    private static func outsideDefault(_ p: Int, _ kind: ShapeKind) -> Value? {
        guard p >= builtinCount, let b = BuiltinProperty(rawValue: p), b.applies(to: kind) else { return nil }
        return b.defaultValue(for: kind)
    }

    /// Built-in `p`'s numbers in a block at `first` of `numbers`.
    @inline(__always)
    private static func numeric(_ p: Int, _ numbers: [Double], _ first: Int) -> NumericValue {
        let (offset, layout) = place(p)
        let i = first + offset
        var n = NumericValue(zero: layout!)
        n.c0 = numbers[i]
        switch layout! {
        case .number, .angle, .time: break
        case .point: n.c1 = numbers[i + 1]
        case .color: n.c1 = numbers[i + 1]; n.c2 = numbers[i + 2]; n.c3 = numbers[i + 3]
        }
        return n
    }

    /// `base(_:)` for a class holding the scene (the interpreter): mutating only so that it
    /// reads the scene in place; a non-mutating call from a class would copy the scene first.
    @inline(__always)
    mutating func read(_ key: PropertyKey) -> Value? { base(key) }

    /// The base value of a property as numbers, when it is a built-in held as numbers (nil
    /// otherwise: ask `base`). Mutating only so that a class holding the scene (the
    /// interpreter) reads it in place: a non-mutating call would copy the whole scene first.
    @inline(__always)
    mutating func numericBase(_ key: PropertyKey) -> NumericValue? {
        let s = slots[Int(key.shape.index)]
        let p = Int(key.property.raw)
        guard p < Int(s.propertyCount), Scene.holds(p, s.kind), s.elsewhere & (1 << p) == 0 else { return nil }
        return Scene.numeric(p, numbers, Int(s.first))
    }

    /// `setBase` for a value already in numbers (a track landing on its end): writes them
    /// where the shape keeps the property as numbers of that layout, without making a Value
    /// and reading it back (callgrind, lsp-5000: setBase 1.24 M instructions for 5,845 tracks
    /// landing). False, with nothing written, otherwise; `setBase` then takes `n.value`, which
    /// stores exactly these numbers (the conversion both ways is exact).
    @inline(__always)
    mutating func setNumericBase(_ key: PropertyKey, _ n: NumericValue) -> Bool {
        let p = Int(key.property.raw)
        guard !key.property.isComponent, Scene.holds(p, slots[Int(key.shape.index)].kind) else { return false }
        let (offset, layout) = Scene.place(p)
        guard let layout, n.layout == layout else { return false }
        let at = Int(slots[Int(key.shape.index)].first) + offset
        numbers[at] = n.c0
        switch layout {
        case .number, .angle, .time: break
        case .point: numbers[at + 1] = n.c1
        case .color: numbers[at + 1] = n.c1; numbers[at + 2] = n.c2; numbers[at + 3] = n.c3
        }
        let bit = UInt32(1) << p
        if slots[Int(key.shape.index)].elsewhere & bit != 0 {
            slots[Int(key.shape.index)].elsewhere &= ~bit
            others.removeValue(forKey: key)
        }
        return true
    }

    /// Sets the base value of a property the shape has.
    mutating func setBase(_ shape: ShapeID, _ property: PropertyID, _ v: Value) {
        if property.isComponent {
            // One component of a point: the point with that component replaced.
            guard case .point(var pt)? = base(PropertyKey(shape, property.whole)), case .number(let x) = v else { return }
            if property.componentIndex == 0 { pt.x = x } else { pt.y = x }
            setBase(shape, property.whole, .point(pt))
            return
        }
        let key = PropertyKey(shape, property)
        let p = Int(property.raw)
        if Scene.holds(p, slots[Int(shape.index)].kind) {
            let (offset, layout) = Scene.place(p)
            let bit = UInt32(1) << p
            if let layout, let n = NumericValue(v), n.layout == layout {
                let at = Int(slots[Int(shape.index)].first) + offset
                numbers[at] = n.c0
                switch layout {
                case .number, .angle, .time: break
                case .point: numbers[at + 1] = n.c1
                case .color: numbers[at + 1] = n.c1; numbers[at + 2] = n.c2; numbers[at + 3] = n.c3
                }
                if slots[Int(shape.index)].elsewhere & bit != 0 {
                    slots[Int(shape.index)].elsewhere &= ~bit
                    others.removeValue(forKey: key)
                }
                return
            }
            slots[Int(shape.index)].elsewhere |= bit
        }
        others[key] = v
    }

    /// Makes room at once for `n` more shapes, so that a script declaring many does not copy
    /// the scene's arrays as they grow (room not used is never touched, so never resident).
    mutating func reserve(shapes n: Int) {
        shapes.reserveRoom(for: n)
        slots.reserveRoom(for: n)
        numbers.reserveRoom(for: n * Scene.longestBlock)
    }

    /// The most numbers a shape's built-ins take.
    private static let longestBlock = defaults.map(\.count).max() ?? 0

    /// Adds a shape with default values for its kind and room for `propertyCount` ids.
    mutating func add(name: String, kind: ShapeKind, propertyCount: Int) -> ShapeID {
        let id = ShapeID(shapes.count)
        if kind == .text { others[PropertyKey(id, BuiltinProperty.text.id)] = BuiltinProperty.text.defaultValue(for: kind) }
        shapes.append(Shape(name: name, kind: kind, propertyCount: Int32(propertyCount)))
        slots.append(Slot(kind: kind, first: Int32(numbers.count), propertyCount: Int32(propertyCount), elsewhere: 0))
        numbers.append(contentsOf: Scene.defaults[Scene.index(kind)])
        return id
    }

    /// Gives every shape made with fewer than `propertyCount` property ids that many, as if
    /// it had been made when they were all known (`Session.checkExecuting` runs statements
    /// while later ones are still being checked, and a later shape may declare a custom
    /// property: the ids past a shape's own are never its, so only the count changes).
    mutating func widen(propertyCount: Int) {
        let n = Int32(propertyCount)
        for i in shapes.indices where shapes[i].propertyCount < n {
            shapes[i].propertyCount = n
            slots[i].propertyCount = n
        }
    }

    /// A shape's base values by property id (nil: the shape lacks the property).
    public func values(of shape: ShapeID) -> [Value?] {
        (0..<Int(shapes[Int(shape.index)].propertyCount)).map { base(shape, PropertyID($0)) }
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

extension Array {
    /// Makes room for `n` more elements at once: at least double the capacity when it grows,
    /// so that calls made again and again (a REPL entry at a time) stay linear in all.
    mutating func reserveRoom(for n: Int) {
        let need = count + n
        if capacity < need { reserveCapacity(Swift.max(need, 2 * capacity)) }
    }
}
