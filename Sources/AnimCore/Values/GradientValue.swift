// GradientValue: a `fill` that is a gradient (issue 15) — `linear-gradient(angle, c1 [at f], …)`
// or `radial-gradient(c1 [at f], …)`. The angle follows CSS (Images 3 §3.1: `0deg` points up,
// `90deg` runs left to right with the first stop on the left); a stop's position is a fraction
// of the gradient line, or nil to be placed as CSS places it (§3.4.3, Paint.swift resolves).
//
// Its numbers: the codec between a gradient and the Doubles a morph moves (Morph.swift) —
// the angle, then per stop r, g, b, a and its resolved position. Two gradients of the same form
// and stop count move stop by stop through these numbers; a colour meets a gradient as the
// gradient of that colour at every stop (`GradientValue(solid:like:)`).

/// A gradient paint.
public struct GradientValue: Hashable, Sendable {
    /// Linear along a CSS angle, or radial (CSS's default ellipse, farthest-corner, at center).
    public enum Form: UInt8, Hashable, Sendable {
        case linear, radial

        /// The function's name.
        public var name: String { self == .linear ? "linear-gradient" : "radial-gradient" }
    }

    /// A colour stop.
    public struct Stop: Hashable, Sendable {
        /// The colour.
        public var color: Color
        /// Where it sits (0 = the start of the line, 1 = its end), or nil for CSS's placement.
        public var position: Double?

        /// Creates a stop.
        public init(_ color: Color, at position: Double? = nil) { self.color = color; self.position = position }
    }

    /// The most stops a gradient takes (Grammar.md §11).
    public static let maxStops = 64
    /// CSS's default angle when none is written: `to bottom`.
    public static let defaultAngle = 180.0

    /// The form.
    public var form: Form
    /// The direction in degrees (linear only; 180 for a radial gradient, unused).
    public var angle: Double
    /// Two or more stops.
    public var stops: [Stop]

    /// Creates a gradient.
    public init(_ form: Form, angle: Double = GradientValue.defaultAngle, stops: [Stop]) {
        self.form = form; self.angle = angle; self.stops = stops
    }

    /// The gradient of `color` at every stop of `like` (same form, angle and positions): what a
    /// colour is when it animates to or from a gradient.
    public init(solid color: Color, like g: GradientValue) {
        form = g.form; angle = g.angle
        stops = g.stops.map { Stop(color, at: $0.position) }
    }

    /// Whether every number inside is finite.
    public var isFinite: Bool {
        angle.isFinite && stops.allSatisfy { s in
            s.color.r.isFinite && s.color.g.isFinite && s.color.b.isFinite && s.color.a.isFinite && (s.position?.isFinite ?? true)
        }
    }

    /// The stop positions resolved by CSS's fix-up (Images 3 §3.4.3 "Color stop fixup"): a
    /// missing first or last position is 0 or 1, a position before an earlier one moves up to
    /// it, and runs without positions are spread evenly between their neighbours.
    public var resolvedPositions: [Double] { GradientValue.resolve(stops.map(\.position)) }

    /// CSS Images 3 §3.4.3 "Color stop fixup" of positions as written (nil: none given); also
    /// what the vector layer's `Gradient` places its stops by.
    public static func resolve(_ given: [Double?]) -> [Double] {
        var ps = given
        guard !ps.isEmpty else { return [] }
        if ps[0] == nil { ps[0] = 0 }
        if ps[ps.count - 1] == nil { ps[ps.count - 1] = 1 }
        var highest = -Double.infinity
        for k in ps.indices {
            if let p = ps[k] { highest = max(highest, p); ps[k] = highest }
        }
        var k = 0
        while k < ps.count {
            if ps[k] == nil {
                let lo = k - 1
                var hi = k
                while ps[hi] == nil { hi += 1 }
                let a = ps[lo]!, b = ps[hi]!
                for j in k..<hi { ps[j] = a + (b - a) * Double(j - lo) / Double(hi - lo) }
                k = hi
            }
            k += 1
        }
        return ps.map { $0! }
    }

    // MARK: - Numbers

    /// How many numbers a gradient of `stops` stops is: the angle, then r, g, b, a, position each.
    public static func numberCount(stops: Int) -> Int { 1 + 5 * stops }

    /// The gradient as numbers (positions resolved).
    public var numbers: [Double] {
        var out = [angle]
        out.reserveCapacity(GradientValue.numberCount(stops: stops.count))
        for (s, p) in zip(stops, resolvedPositions) { out += [s.color.r, s.color.g, s.color.b, s.color.a, p] }
        return out
    }

    /// The gradient of `form` whose numbers are `ns` (as `numbers` lays them out).
    public init(_ form: Form, numbers ns: [Double]) {
        self.form = form
        angle = ns[0]
        var stops: [Stop] = []
        var k = 1
        while k + 4 < ns.count {
            stops.append(Stop(Color(r: ns[k], g: ns[k + 1], b: ns[k + 2], a: ns[k + 3]), at: ns[k + 4]))
            k += 5
        }
        self.stops = stops
    }

    // MARK: - Text

    /// `linear-gradient(90deg, #ff7a18, #af002d at 0.8)`: what `print` shows and the script
    /// reads back (positions as fractions, the angle in degrees; a radial gradient has none).
    public var cssText: String {
        var parts: [String] = []
        if form == .linear { parts.append(Angle(degrees: angle).description) }
        for s in stops { parts.append(s.position.map { "\(s.color) at \(formatNumber($0))" } ?? s.color.description) }
        return form.name + "(" + parts.joined(separator: ", ") + ")"
    }
}
