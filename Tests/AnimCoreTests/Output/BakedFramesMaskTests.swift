// The attributes BakedFrames writes for a shape after its first sample are only those its
// animated properties can change (BakedFrames.attributes(changedBy:)): the rest would never
// differ. Here every property is changed alone, and every pair together, from snapshots of every
// kind — plain, stroked, with a shadow, anchored off centre, with a gradient, and with the
// conditions that gate other values switched off — and every attribute `write` gives differently
// must be in the changed properties' masks. (In use, the sampling is also compared with the
// full writes of StageFrames on every golden script: BakedFramesEquivalenceTests.)
@testable import AnimCore
import Testing

@Suite("The attributes a property can change (BakedFrames' masks)")
struct BakedFramesMaskTests {
    /// Snapshots of `kind` to change properties from.
    static func bases(_ kind: ShapeKind) -> [ShapeSnapshot] {
        var plain = ShapeSnapshot(id: ShapeID(0), kind: kind)
        plain.center = Point(30, 40)
        plain.size = Point(20, 10)
        plain.radius = 6
        plain.color = Color(r: 200, g: 100, b: 50, a: 1)
        plain.text = "ab"
        plain.from = Point(1, 2); plain.to = Point(21, 12)
        plain.points = [Point(0, 0), Point(10, 0), Point(5, 8)]
        plain.path = PathValue([.move(Point(0, 0)), .line(Point(10, 4)), .cubic(Point(12, 8), Point(3, 9), Point(1, 1)), .close])
        var stroked = plain
        stroked.stroke = Color(r: 0, g: 0, b: 255, a: 1)
        stroked.strokeWidth = 3
        var shadowed = plain
        shadowed.shadowOffset = Point(3, 4)
        shadowed.shadowBlur = 2
        var anchored = stroked
        anchored.anchor = Point(0, 1)
        anchored.offset = Point(2, -3)
        anchored.scale = Point(2, 0.5)
        anchored.rotation = 15
        var painted = anchored
        painted.gradient = GradientValue(.linear, stops: [.init(Color(r: 1, g: 2, b: 3, a: 0.5)), .init(Color(r: 9, g: 8, b: 7))])
        // Gates closed: a stroke of width 0, a shadow with no colour, no offset nor blur, a trim
        // of no length, a transparent fill.
        var gated = plain
        gated.stroke = Color(r: 0, g: 0, b: 0, a: 0)
        gated.strokeWidth = 0
        gated.shadowColor = Color(r: 0, g: 0, b: 0, a: 0)
        gated.trimStart = 0.5; gated.trimEnd = 0.5
        gated.color.a = 0
        gated.alpha = 0
        return [plain, stroked, shadowed, anchored, painted, gated]
    }

    /// Ways of changing property `p` of a snapshot.
    static func changes(_ p: BuiltinProperty) -> [(inout ShapeSnapshot) -> Void] {
        switch p {
        case .center: [{ $0.center = Point($0.center.x + 5, $0.center.y - 3) }]
        case .size: [{ $0.size = Point($0.size.x + 7, $0.size.y + 3) }, { $0.size = Point(-4, 0) }]
        case .rotation: [{ $0.rotation += 30 }]
        case .scale: [{ $0.scale = Point(3, 0.25) }]
        case .offset: [{ $0.offset = Point(4, 6) }]
        case .alpha: [{ $0.alpha = 0.3 }, { $0.alpha = 1 }]
        case .color: [{ $0.color = Color(r: 10, g: 220, b: 30, a: 0.5); $0.gradient = nil },
                      { $0.gradient = GradientValue(.radial, stops: [.init(Color(r: 5, g: 6, b: 7)), .init(Color(r: 0, g: 0, b: 0))])
                        $0.color = Color(r: 5, g: 6, b: 7) },
                      { $0.color = Color(r: 0, g: 0, b: 0, a: 1); $0.gradient = nil }]
        case .radius: [{ $0.radius += 4 }, { $0.radius = 0 }]
        case .z: [{ $0.z = 3 }]
        case .text: [{ $0.text = "other" }]
        case .font: [{ $0.font = 30 }]
        case .anchor: [{ $0.anchor = Point(1, 0.25) }]
        case .shadowOffset: [{ $0.shadowOffset = Point(2, 2) }, { $0.shadowOffset = .zero }]
        case .shadowBlur: [{ $0.shadowBlur = 5 }]
        case .shadowColor: [{ $0.shadowColor = Color(r: 90, g: 80, b: 70, a: 0.8) }]
        case .from: [{ $0.from = Point(-3, 7) }]
        case .to: [{ $0.to = Point(40, 30) }]
        case .points: [{ $0.points = [Point(-5, 0), Point(10, 20)] }, { $0.points = [] }]
        case .d: [{ $0.path = PathValue([.move(Point(-8, 3)), .quadratic(Point(4, 40), Point(9, 9))]) }]
        case .stroke: [{ $0.stroke = Color(r: 255, g: 128, b: 0, a: 1); $0.strokeGradient = nil }, { $0.stroke = Color(r: 0, g: 0, b: 0, a: 0) }]
        case .strokeWidth: [{ $0.strokeWidth = 5 }, { $0.strokeWidth = 0 }, { $0.strokeWidth = 1e9 }]
        case .dash: [{ $0.dash = Point(3, 2) }]
        case .dashOffset: [{ $0.dashOffset = 1 }]
        case .lineCap: [{ $0.lineCap = .round }]
        case .lineJoin: [{ $0.lineJoin = .round }]
        case .trimStart: [{ $0.trimStart = 0.25 }, { $0.trimStart = 1 }]
        case .trimEnd: [{ $0.trimEnd = 0.75 }, { $0.trimEnd = 0 }]
        case .file: [{ $0.file = "other.png" }]
        case .fontFamily: [{ $0.fontFamily = "Serif" }]
        case .weight: [{ $0.fontWeight = 700 }]
        case .align: [{ $0.align = .left }]
        }
    }

    /// The attributes `write` gives differently for two snapshots, as `Attribute` bits.
    static func differing(_ a: ShapeSnapshot, _ b: ShapeSnapshot) -> UInt32 {
        let n = BakedFrames.Attribute.allCases.count
        let x = UnsafeMutableBufferPointer<Double>.allocate(capacity: 2 * n)
        defer { x.deallocate() }
        BakedFrames.write(a, to: x, at: 0)
        BakedFrames.write(b, to: x, at: n)
        var bits: UInt32 = 0
        for k in 0..<n where x[k].bitPattern != x[n + k].bitPattern { bits |= 1 << UInt32(k) }
        return bits
    }

    /// The attributes named, for messages.
    static func names(_ bits: UInt32) -> String {
        BakedFrames.Attribute.allCases.filter { bits & 1 << UInt32($0.rawValue) != 0 }.map(\.key).joined(separator: " ")
    }

    @Test("each property changed alone changes only attributes in its mask")
    func single() {
        var seen: UInt32 = 0
        for kind in ShapeKind.allCases where kind != .glyph {
            for base in Self.bases(kind) {
                for p in BuiltinProperty.allCases {
                    for change in Self.changes(p) {
                        var s = base
                        change(&s)
                        let d = Self.differing(base, s)
                        seen |= d
                        let missed = d & ~BakedFrames.attributes(changedBy: p)
                        #expect(missed == 0, "\(kind) \(p): \(Self.names(missed)) changed outside the mask")
                    }
                }
            }
        }
        // The changes reach every attribute: the check is not vacuous.
        #expect(seen == (1 << UInt32(BakedFrames.Attribute.allCases.count)) - 1, "never changed: \(Self.names(~seen))")
    }

    @Test("two properties changed together change only attributes in their masks")
    func pairs() {
        let properties = BuiltinProperty.allCases
        for kind in ShapeKind.allCases where kind != .glyph {
            for base in Self.bases(kind) {
                for (n, p) in properties.enumerated() {
                    for q in properties[(n + 1)...] {
                        for first in Self.changes(p) {
                            for second in Self.changes(q) {
                                var s = base
                                first(&s)
                                second(&s)
                                let missed = Self.differing(base, s) & ~(BakedFrames.attributes(changedBy: p) | BakedFrames.attributes(changedBy: q))
                                #expect(missed == 0, "\(kind) \(p) and \(q): \(Self.names(missed)) changed outside their masks")
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("the pivot read in place is the snapshot's, for the kinds it is read for")
    func pivot() {
        for kind in [ShapeKind.rect, .circle, .text] {
            for base in Self.bases(kind) {
                for p in BuiltinProperty.allCases {
                    for change in Self.changes(p) + [{ $0.anchor = Point(.infinity, 0.2); $0.radius = -3 }] {
                        var s = base
                        change(&s)
                        let pivot = withUnsafePointer(to: s) { BakedFrames.boxPivot($0) }
                        #expect(pivot.x.bitPattern == s.pivot.x.bitPattern && pivot.y.bitPattern == s.pivot.y.bitPattern, "\(kind) \(p)")
                    }
                }
            }
        }
    }
}
