// A bar's label names the property its tween moved, without the shape when its lane moves one
// shape. A tween whose shape is decided as it runs (a define's parameter), named from its
// write, has no shape in front: its label is the whole property, not the property with its
// first letter cut ("enter" for "center"), and a component keeps its point ("center.x").
@testable import AnimCore
import Testing

@Suite("Timeline lanes: labels")
struct LaneLabelTests {
    @Test("a bar's label drops the shape in front of its property, and only that")
    func labels() {
        #expect(TimelineLanes.withoutShape("center", named: false) == "center")
        #expect(TimelineLanes.withoutShape("center.x", named: false) == "center.x")
        #expect(TimelineLanes.withoutShape("sq.center", named: true) == "center")
        #expect(TimelineLanes.withoutShape("sq.center.x", named: true) == "center.x")
        #expect(TimelineLanes.withoutShape("cards[].alpha", named: true) == "alpha")
    }
}
