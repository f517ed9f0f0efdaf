// ForeignNames: other tools' names for anim's easings, properties and spring parameters. The
// easing cases are GSAP's documented names (power0–4, .in/.out/.inOut, the named families) and
// the camelCase forms of CSS, UIKit, easings.net, Tween.js and Svelte; every suggestion must be
// an easing anim resolves.
@testable import AnimCore
import Testing

@Suite("ForeignNames")
struct ForeignNamesTests {
    static let easingCases: [(String, String?)] = [
        // GSAP's powers keep their names, which anim reads too: only the '-' is anim's.
        ("power0.out", "power0-out"), ("power0.none", "power0"), ("none", "linear"), ("power0", nil),
        ("power1.in", "power1-in"), ("power1.out", "power1-out"), ("power1.inOut", "power1-in-out"),
        ("power2.out", "power2-out"), ("power2-out", nil), ("power3.inOut", "power3-in-out"),
        ("power4.in", "power4-in"), ("strong.out", "quint-out"), ("Power2.easeOut", "power2-out"),
        ("power2", "power2-out"),                   // a family alone is GSAP's default, .out
        ("sine.inOut", "sine-in-out"), ("expo.out", "expo-out"), ("back.out", "back-out"),
        ("elastic.out", "elastic-out"), ("bounce.out", "bounce-out"), ("circ.in", "circ-in"),
        ("easeInOut", "ease-in-out"), ("easeIn", "ease-in"), ("easeOut", "ease-out"),
        ("easeInEaseOut", "ease-in-out"), ("ease_in_out", "ease-in-out"),
        ("easeInOutCubic", "cubic-in-out"), ("easeOutBack", "back-out"), ("Quadratic.InOut", "quad-in-out"),
        ("cubicOut", "cubic-out"), ("quintIn", "quint-in"),
        ("ease-in-out", nil),                       // already anim's name
        ("fancy.out", nil), ("power2.sideways", nil), ("out.in", nil), ("power2.quad", nil), ("ease", nil),
    ]

    @Test("easing names of other libraries", arguments: easingCases)
    func easing(written: String, expected: String?) throws {
        #expect(ForeignNames.easing(written) == expected)
        if let name = expected {
            guard case .success = Easing.resolve(name: name, arguments: nil) else {
                Issue.record("'\(name)' is not an anim easing")
                return
            }
        }
    }

    @Test func propertyNames() {
        #expect(ForeignNames.property("width")?.property == .size)
        #expect(ForeignNames.property("border-radius")?.property == .radius)   // kebab-case as camelCase
        #expect(ForeignNames.property("z-index")?.property == .z)
        // `stroke` is a built-in now (issue 15); other tools' stroke names point at anim's.
        #expect(ForeignNames.property("stroke") == nil)
        #expect(ForeignNames.property("strokeWidth")?.property == .strokeWidth)
        #expect(ForeignNames.property("stroke_width")?.property == .strokeWidth)   // snake case as kebab case
        #expect(ForeignNames.property("transform")?.property == nil)
        #expect(ForeignNames.property("transform") != nil)
        #expect(ForeignNames.property("glow") == nil)
        #expect(ForeignNames.property("tint") == nil)                          // a custom color, not a fill
        let width = ForeignNames.property("width")!
        #expect(ForeignNames.help(width, use: .read(base: "sq")) == "a shape's width and height are the point 'size': read 'sq.size.x'")
        #expect(ForeignNames.help(width, use: .write(base: "sq")) == "a shape's width and height are the point 'size': write 'sq.size.x'")
        #expect(ForeignNames.help(ForeignNames.property("bounds")!, use: .write(base: "sq")).hasSuffix("write it whole, as in 'sq.size = (w, h)'"))
    }

    @Test func springParameters() {
        #expect(ForeignNames.springParameter("tension") == "stiffness")
        #expect(ForeignNames.springParameter("friction") == "damping")
        #expect(ForeignNames.springParameter("dampingRatio") == "damping-ratio")
        #expect(ForeignNames.springParameter("damping_ratio") == "damping-ratio")
        #expect(ForeignNames.springParameter("dampingFraction") == "damping-ratio")
        #expect(ForeignNames.springParameter("stifness") == nil)
    }
}
