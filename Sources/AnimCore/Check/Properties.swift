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

extension PropertyID {
    /// Bit 30 marks the id of one component of a point property (`sq.center.x`), bit 29 says
    /// which (clear: x, set: y); the low bits are the point property's id. Components are owned
    /// apart from their point (Grammar.md, "Per-axis animation"); no table is indexed by them.
    static let componentFlag: Int32 = 1 << 30
    static let componentY: Int32 = 1 << 29

    /// The id of component `c` (0: x, 1: y) of this point property.
    public func component(_ c: Int) -> PropertyID {
        var id = PropertyID(0)
        id.raw = raw | PropertyID.componentFlag | (c == 0 ? 0 : PropertyID.componentY)
        return id
    }

    /// Whether this is the id of one component of a point property.
    @inline(__always)
    public var isComponent: Bool { raw & PropertyID.componentFlag != 0 }

    /// Which component (0: x, 1: y), or nil for a whole property.
    public var componentIndex: Int? { isComponent ? (raw & PropertyID.componentY != 0 ? 1 : 0) : nil }

    /// The point property a component belongs to (the id itself for a whole property).
    public var whole: PropertyID {
        var id = self
        id.raw &= ~(PropertyID.componentFlag | PropertyID.componentY)
        return id
    }
}

/// The built-in properties.
public enum BuiltinProperty: Int, CaseIterable, Sendable {
    case center, size, rotation, scale, offset, alpha, color, radius, z, text, font
    /// The transform origin as a fraction of the shape's box (Grammar.md, "Anchor").
    case anchor
    /// The drop shadow (Grammar.md, "Shadows"): offset, CSS blur radius, colour.
    case shadowOffset, shadowBlur, shadowColor
    // The outlines of issue 15: geometry of lines, polygons and paths, and the stroke.
    case from, to, points, d, stroke, strokeWidth, dash, dashOffset, lineCap, lineJoin, trimStart, trimEnd
    /// The PNG file an image shape draws (a path relative to the script's directory).
    case file
    /// A text shape's font (Grammar.md, "Text"): its family (fontconfig's name, "" the stage's
    /// default), its weight (`normal`, `bold`, `100` … `900`, CSS's font-weight) and where its
    /// line sits on `center` (`left`, `center`, `right`: SVG's text-anchor start, middle, end).
    case fontFamily, weight, align

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
        case .anchor: "anchor"
        case .shadowOffset: "shadow-offset"
        case .shadowBlur: "shadow-blur"
        case .shadowColor: "shadow-color"
        case .from: "from"
        case .to: "to"
        case .points: "points"
        case .d: "d"
        case .stroke: "stroke"
        case .strokeWidth: "stroke-width"
        case .dash: "dash"
        case .dashOffset: "dash-offset"
        case .lineCap: "line-cap"
        case .lineJoin: "line-join"
        case .trimStart: "trim-start"
        case .trimEnd: "trim-end"
        case .file: "file"
        case .fontFamily: "font-family"
        case .weight: "weight"
        case .align: "align"
        }
    }

    /// The kind of its values. `scale` is a point; a number given for it means (n, n).
    public var kind: Kind {
        switch self {
        case .center, .size, .scale, .offset, .anchor, .shadowOffset, .from, .to, .dash: .point
        case .rotation: .angle
        case .alpha, .radius, .z, .font, .shadowBlur, .strokeWidth, .dashOffset, .trimStart, .trimEnd: .number
        // A fill and a stroke are a colour or a gradient; a shadow is a colour (issue 15).
        case .color, .stroke: .paint
        case .shadowColor: .color
        case .text, .lineCap, .lineJoin, .file, .fontFamily, .weight, .align: .string
        case .points: .list(.point)
        case .d: .path
        }
    }

    /// Whether shapes of this kind have the property (`text` and `font` belong to text shapes).
    public func applies(to shape: ShapeKind) -> Bool {
        // A text's glyph has only its own transform, alpha and colour (Grammar.md §4.12).
        if shape == .glyph { return self == .offset || self == .rotation || self == .scale || self == .alpha || self == .color }
        return switch self {
        case .text, .font, .fontFamily, .weight, .align: shape == .text
        // Lines, polygons and paths are placed by their points: no box, no radius.
        case .center, .size: !shape.isPointBased
        case .radius: !shape.isPointBased && shape != .image
        case .file: shape == .image
        // An image's pixels are its colours: no fill, no stroke.
        case .color: shape != .image
        case .from, .to: shape == .line
        case .points: shape == .polygon || shape == .polyline
        case .d: shape == .path
        case .stroke, .strokeWidth, .dash, .dashOffset, .lineCap, .lineJoin, .trimStart, .trimEnd: shape != .text && shape != .image
        default: true
        }
    }

    /// The value before any declaration sets it.
    public func defaultValue(for shape: ShapeKind) -> Value {
        switch self {
        case .center: .point(.zero)
        case .size: .point(shape == .rect || shape == .circle || shape == .ellipse || shape == .image ? Point(100, 100) : .zero)
        case .rotation: .angle(Angle(degrees: 0))
        case .scale: .point(Point(1, 1))
        case .offset: .point(.zero)
        case .alpha: .number(1)
        // A glyph's colour is none (transparent) until set: it shows its text's colour.
        case .color: .color(Color(r: 0, g: 0, b: 0, a: shape == .glyph ? 0 : 1))
        case .radius: .number(shape == .circle ? 50 : 0)
        case .z: .number(0)
        case .text: .string("")
        case .font: .number(16)
        case .anchor: .point(Point(0.5, 0.5))
        case .shadowOffset: .point(.zero)
        case .shadowBlur: .number(0)
        // Black at half strength: a shadow shows as soon as it has an offset or a blur.
        case .shadowColor: .color(Color(r: 0, g: 0, b: 0, a: 0.5))
        case .from: .point(.zero)
        case .to: .point(.zero)
        case .points: .list([])
        case .d: .path(PathValue())
        // A line without a stroke would draw nothing: its stroke is black until set.
        case .stroke: .color(shape == .line ? Color(r: 0, g: 0, b: 0) : Color(r: 0, g: 0, b: 0, a: 0))
        case .strokeWidth: .number(1)
        case .dash: .point(.zero)
        case .dashOffset: .number(0)
        case .lineCap: .string("butt")
        case .lineJoin: .string("miter")
        case .trimStart: .number(0)
        case .trimEnd: .number(1)
        case .file: .string("")
        case .fontFamily: .string("")
        case .weight: .string("normal")
        case .align: .string("center")
        }
    }

    /// The built-in with this name.
    public static func named(_ name: String) -> BuiltinProperty? {
        if name == fillAlias { return .color }
        return allCases.first { $0.name == name }
    }

    /// `fill`, the name of `color` in SVG and CSS, accepted everywhere `color` is (issue 15).
    /// `color` stays the canonical name: messages and printed names use it.
    public static let fillAlias = "fill"

    /// The words `line-cap` takes (SVG's `stroke-linecap`).
    public static let lineCaps = ["butt", "round", "square"]
    /// The words `line-join` takes (SVG's `stroke-linejoin`).
    public static let lineJoins = ["miter", "round", "bevel"]

    /// The words `weight` takes (CSS's font-weight keywords and numbers; a number is
    /// written as a number, `weight 700`, and kept as its word).
    public static let weights = ["normal", "bold"] + (1...9).map { String($0 * 100) }
    /// The words `align` takes.
    public static let alignments = ["left", "center", "right"]

    /// The CSS weight (100 … 900) of one of `weights`.
    public static func weightValue(_ word: String) -> Int {
        switch word {
        case "bold": 700
        case "normal": 400
        default: Int(word) ?? 400
        }
    }

    /// The words a string-valued property takes, when it takes only some.
    public var words: [String]? {
        switch self {
        case .lineCap: BuiltinProperty.lineCaps
        case .lineJoin: BuiltinProperty.lineJoins
        case .weight: BuiltinProperty.weights
        case .align: BuiltinProperty.alignments
        default: nil
        }
    }
}
