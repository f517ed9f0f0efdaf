// ForeignNames: what other tools call anim's properties, easings and spring parameters (CSS,
// SVG, UIKit and Core Animation, GSAP, easings.net, Tween.js, react-spring, SwiftUI), so a
// diagnostic can name the anim spelling. Only hints: nothing here changes what a name means.

/// Names from other animation tools, and their anim equivalents.
enum ForeignNames {
    // MARK: - Properties

    /// What a foreign property name means in anim.
    struct PropertyHint {
        /// The built-in property meant, or nil when anim has none (`stroke`).
        var property: BuiltinProperty?
        /// The component of that point property meant (`width` is `size.x`), if one.
        var component: String?
        /// One sentence on anim's way, such as "a shape's width and height are its 'size'".
        var explanation: String
    }

    /// Where a foreign property name was written, for the help line's example.
    enum PropertyUse {
        /// As a key of a shape declaration.
        case declaration
        /// Read as `base.name`.
        case read(base: String)
        /// Written as `base.name = …`.
        case write(base: String)
    }

    /// The hint for a property name another tool uses; CSS's kebab-case (`border-radius`) is
    /// looked up as camelCase (`borderRadius`).
    static func property(_ written: String) -> PropertyHint? {
        let name = camelCase(written.replacingUnderscores)
        let position = "a shape's position is the point 'center'"
        let size = "a shape's width and height are the point 'size'"
        switch name {
        case "x", "cx", "left", "right": return PropertyHint(property: .center, component: "x", explanation: position)
        case "y", "cy", "top", "bottom": return PropertyHint(property: .center, component: "y", explanation: position)
        case "position", "pos": return PropertyHint(property: .center, explanation: position)
        case "width", "w": return PropertyHint(property: .size, component: "x", explanation: size)
        case "height", "h": return PropertyHint(property: .size, component: "y", explanation: size)
        case "bounds": return PropertyHint(property: .size, explanation: size)
        case "opacity", "fillOpacity":
            return PropertyHint(property: .alpha, explanation: "anim calls opacity 'alpha', from 0 (transparent) to 1")
        case "visible", "hidden", "visibility", "display":
            return PropertyHint(property: .alpha, explanation: "anim hides a shape with 'alpha 0'")
        case "backgroundColor", "background", "bgColor", "fillColor":
            return PropertyHint(property: .color, explanation: "a shape's fill color is its 'color'")
        case "cornerRadius", "borderRadius", "r", "rx":
            return PropertyHint(property: .radius, explanation: "a rect's corner radius and a circle's radius are its 'radius'")
        case "rotate", "angle", "rotationZ":
            return PropertyHint(property: .rotation, explanation: "a shape's angle is its 'rotation', such as 90deg")
        case "scaleX": return PropertyHint(property: .scale, component: "x", explanation: "the scale is the point 'scale'")
        case "scaleY": return PropertyHint(property: .scale, component: "y", explanation: "the scale is the point 'scale'")
        case "translate", "translation", "translateX", "translateY":
            return PropertyHint(property: .offset, explanation: "a shape's translation is the point 'offset'")
        case "transform":
            return PropertyHint(property: nil, explanation: "anim splits a transform into 'offset', 'rotation' and 'scale'")
        case "src", "url", "source", "href", "imageUrl", "backgroundImage":
            return PropertyHint(property: .file, explanation: "an image's PNG is its 'file', a path relative to the script")
        case "zIndex", "zPosition":
            return PropertyHint(property: .z, explanation: "the stacking order is 'z'")
        case "fontSize":
            return PropertyHint(property: .font, explanation: "a text shape's font size is its 'font'")
        case "fontFamily", "fontName", "typeface", "family", "face":
            return PropertyHint(property: .fontFamily, explanation: "a text shape's typeface is its 'font-family', as in 'font-family \"DejaVu Sans\"'")
        case "fontWeight", "bold":
            return PropertyHint(property: .weight, explanation: "a text shape's boldness is its 'weight': normal, bold or 100 … 900")
        case "textAlign", "textAnchor", "alignment", "justify", "textAlignment":
            return PropertyHint(property: .align, explanation: "where a text's line sits on its 'center' is its 'align': left, center or right")
        case "strokeWidth", "borderWidth", "lineWidth", "outlineWidth":
            return PropertyHint(property: .strokeWidth, explanation: "a shape's outline is its 'stroke' colour and its 'stroke-width'")
        case "strokeColor", "border", "borderColor", "outline", "outlineColor", "lineColor":
            return PropertyHint(property: .stroke, explanation: "a shape's outline is its 'stroke' colour and its 'stroke-width'")
        case "strokeDasharray", "dashArray", "dashPattern", "lineDash", "lineDashPattern":
            return PropertyHint(property: .dash, explanation: "a dashed stroke's pattern is the point 'dash', as in 'dash (6, 4)'")
        case "strokeDashoffset", "dashOffset", "dashPhase", "lineDashOffset", "lineDashPhase":
            return PropertyHint(property: .dashOffset, explanation: "where the dash pattern starts is 'dash-offset'")
        case "strokeLinecap", "lineCap", "strokeCap", "cap":
            return PropertyHint(property: .lineCap, explanation: "the ends of a stroke are its 'line-cap': butt, round or square")
        case "strokeLinejoin", "lineJoin", "strokeJoin", "join":
            return PropertyHint(property: .lineJoin, explanation: "the corners of a stroke are its 'line-join': miter, round or bevel")
        case "trimStart", "strokeStart", "start":
            return PropertyHint(property: .trimStart, explanation: "the drawn part of a stroke runs from 'trim-start' to 'trim-end', fractions of its length")
        case "trimEnd", "strokeEnd", "end":
            return PropertyHint(property: .trimEnd, explanation: "the drawn part of a stroke runs from 'trim-start' to 'trim-end', fractions of its length")
        case "shadowColor", "shadowOpacity":
            return PropertyHint(property: .shadowColor, explanation: "a shadow's colour and opacity are its 'shadow-color', such as #00000055")
        case "shadowOffset":
            return PropertyHint(property: .shadowOffset, explanation: "a shadow's offset is the point 'shadow-offset'")
        case "shadowRadius", "shadowBlur", "blur":
            return PropertyHint(property: .shadowBlur, explanation: "a shadow's blur is 'shadow-blur', CSS's blur radius")
        case "shadow", "boxShadow", "dropShadow", "filter":
            return PropertyHint(property: nil, explanation: "a shadow is 'shadow-offset', 'shadow-blur' and 'shadow-color'")
        case "anchorPoint", "transformOrigin", "origin", "pivot", "registration":
            return PropertyHint(property: .anchor, explanation: "the transform origin is 'anchor', a fraction of the size such as (0.5, 1)")
        default: return nil
        }
    }

    /// The help line for a foreign property name: the explanation, and for a point's component
    /// how to read or write it (`sq.size.x`).
    static func help(_ hint: PropertyHint, use: PropertyUse) -> String {
        guard let p = hint.property, p.kind == .point else { return hint.explanation }
        let example = p == .size ? "(w, h)" : "(x, y)"
        switch use {
        case .declaration:
            return hint.explanation + ", as in '\(p.name) \(example)'"
        case .read(let base):
            guard let c = hint.component else { return hint.explanation }
            return hint.explanation + ": read '\(base).\(p.name).\(c)'"
        case .write(let base):
            // One component is written on its own (Grammar.md §6.3, "Per-axis animation").
            if let c = hint.component { return hint.explanation + ": write '\(base).\(p.name).\(c)'" }
            return hint.explanation + ": write it whole, as in '\(base).\(p.name) = \(example)'"
        }
    }

    /// `border-radius` → `borderRadius`; other names unchanged (`stroke_width` is read as
    /// `stroke-width` first, see `replacingUnderscores`).
    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "-")
        guard parts.count > 1 else { return name }
        return String(parts[0]) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    // MARK: - Easings

    /// The anim easing for a name written as GSAP (`power2.out`, `Power2.easeOut`, `sine.inOut`,
    /// `back.out`), easings.net and jQuery (`easeInOutCubic`), Tween.js (`Quadratic.InOut`),
    /// Svelte and Popmotion (`cubicOut`), CSS and UIKit in camelCase (`easeInOut`), or snake
    /// case (`ease_in_out`) write it; nil when the words do not name one. GSAP's powers are
    /// power0 = linear, power1 = quad, power2 = cubic, power3 = quart, power4 = quint (GSAP's
    /// easing docs), which anim also reads as `power0` … `power4-in-out`, so a name written with
    /// a power keeps it (`power2.out` → `power2-out`); a family without a mode is `-out`, GSAP's
    /// default.
    static func easing(_ written: String) -> String? {
        var family: String?
        var power: String?
        var modes: [String] = []
        for word in words(written) {
            switch word {
            case "ease", "easing": continue
            case "in", "out": modes.append(word)
            case "inout": modes += ["in", "out"]
            default:
                guard let f = easingFamilies[word], family == nil || family == f else { return nil }  // `power0.none`
                family = f
                if word.hasPrefix("power") { power = word }
            }
        }
        let mode: String
        switch modes {
        case []: mode = "out"
        case ["in"]: mode = "in"
        case ["out"]: mode = "out"
        case ["in", "out"]: mode = "in-out"
        default: return nil
        }
        let name: String
        switch family {
        case _ where power != nil: name = power == "power0" && modes.isEmpty ? "power0" : "\(power!)-\(mode)"
        case "linear"?: name = "linear"
        case let f?: name = "\(f)-\(mode)"
        case nil:
            guard !modes.isEmpty else { return nil }
            name = "ease-\(mode)"
        }
        return name == written ? nil : name
    }

    /// The anim function for another language's math function (JavaScript's `Math.atan`, C's
    /// `atan`, Python's `math.copysign`…), when anim spells it differently.
    static func function(_ written: String) -> String? {
        switch written.lowercased() {
        case "atan", "arctan": "atan2"
        case "ln", "log2", "log10": "log"
        case "power", "powf": "pow"
        case "signum", "sgn", "copysign": "sign"
        case "exp2", "expf": "exp"
        case "tanf": "tan"
        default: nil
        }
    }

    /// Whether the written name uses GSAP's `powerN` names (so the help can give the mapping).
    static func usesPowerNames(_ written: String) -> Bool {
        words(written).contains { $0.hasPrefix("power") }
    }

    /// Family words of other libraries, by their anim family.
    private static let easingFamilies: [String: String] = [
        "linear": "linear", "none": "linear", "power0": "linear",
        "power1": "quad", "quad": "quad", "quadratic": "quad",
        "power2": "cubic", "cubic": "cubic",
        "power3": "quart", "quart": "quart", "quartic": "quart",
        "power4": "quint", "quint": "quint", "quintic": "quint", "strong": "quint",
        "sine": "sine", "sinusoidal": "sine", "expo": "expo", "exponential": "expo",
        "circ": "circ", "circular": "circ", "back": "back", "elastic": "elastic", "bounce": "bounce",
    ]

    /// The lowercase words of a name: split at `.`, `-`, `_` and before each capital letter.
    private static func words(_ name: String) -> [String] {
        var out: [String] = []
        var word = ""
        for c in name {
            if c == "." || c == "-" || c == "_" {
                if !word.isEmpty { out.append(word); word = "" }
            } else if c.isUppercase, !word.isEmpty {
                out.append(word); word = String(c).lowercased()
            } else {
                word += c.lowercased()
            }
        }
        if !word.isEmpty { out.append(word) }
        return out
    }

    // MARK: - Spring parameters

    /// The anim spring parameter for a name other tools use: react-spring's and Rebound's
    /// `tension`/`friction`, SwiftUI's `dampingFraction`, Motion's `visualDuration`, and any
    /// camelCase or snake_case spelling of an anim parameter (`dampingRatio`).
    static func springParameter(_ written: String) -> String? {
        switch written {
        case "tension": return "stiffness"
        case "friction": return "damping"
        case "dampingFraction": return "damping-ratio"
        case "initialVelocity": return "velocity"
        case "visualDuration": return "duration"
        default:
            let kebab = words(written).joined(separator: "-")
            return kebab != written && Checker.springParameters.contains(kebab) ? kebab : nil
        }
    }
}

extension String {
    /// `stroke_width` → `stroke-width`: snake case read as CSS's kebab case.
    fileprivate var replacingUnderscores: String {
        contains("_") ? split(separator: "_", omittingEmptySubsequences: false).joined(separator: "-") : self
    }
}
