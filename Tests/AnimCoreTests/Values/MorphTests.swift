// Morph between outlines of different structure, contour by contour (Values/MorphContours.swift):
// how contours pair, how many pieces and points the in-between has, exact endpoints, no bridge
// between contours, holes that stay holes under the nonzero rule, and the assignment itself.
@testable import AnimCore
import Foundation
import Testing

private func path(_ s: String) throws -> PathValue { try PathValue.parse(s).get() }

/// A circle as path data: `n` line segments (clockwise on screen when `clockwise`).
private func circle(_ cx: Double, _ cy: Double, _ r: Double, n: Int = 24, clockwise: Bool = true) -> String {
    let pts = (0..<n).map { k -> String in
        let a = Double(k) / Double(n) * 2 * Double.pi * (clockwise ? 1 : -1)
        return "\(cx + r * cos(a)) \(cy + r * sin(a))"
    }
    return "M " + pts[0] + pts.dropFirst().map { " L " + $0 }.joined() + " Z"
}

/// A circle as four cubics (another command structure than `circle`).
private func cubicCircle(_ cx: Double, _ cy: Double, _ r: Double) -> String {
    let k = 0.5523 * r
    return "M \(cx + r) \(cy) C \(cx + r) \(cy + k) \(cx + k) \(cy + r) \(cx) \(cy + r) C \(cx - k) \(cy + r) \(cx - r) \(cy + k) \(cx - r) \(cy) "
        + "C \(cx - r) \(cy - k) \(cx - k) \(cy - r) \(cx) \(cy - r) C \(cx + k) \(cy - r) \(cx + r) \(cy - k) \(cx + r) \(cy) Z"
}

/// The subpaths of a path as point runs (curves taken at their end points), each with whether it closes.
private func subpaths(_ p: PathValue) -> [(points: [Point], closed: Bool)] {
    var out: [(points: [Point], closed: Bool)] = []
    for c in p.commands {
        switch c {
        case .move(let q): out.append(([q], false))
        case .close: out[out.count - 1].closed = true
        default: out[out.count - 1].points.append(c.points.last!)
        }
    }
    return out
}

/// The winding number of a polyline path around `q` (the nonzero rule fills where it is not 0).
private func winding(_ p: PathValue, _ q: Point) -> Int {
    var w = 0
    for s in subpaths(p) {
        let pts = s.points + [s.points[0]]
        for k in pts.indices.dropFirst() {
            let a = pts[k - 1], b = pts[k]
            let cross = (b.x - a.x) * (q.y - a.y) - (q.x - a.x) * (b.y - a.y)
            if a.y <= q.y, b.y > q.y, cross > 0 { w += 1 }
            if a.y > q.y, b.y <= q.y, cross < 0 { w -= 1 }
        }
    }
    return w
}

private func morphed(_ a: String, _ b: String, _ p: Double) throws -> PathValue {
    let m = try #require(Morph(from: .path(try path(a)), to: .path(try path(b))))
    guard case .path(let v) = m.value(p) else { Issue.record("not a path"); return PathValue() }
    return v
}

private func longestSegment(_ p: PathValue) -> Double {
    var most = 0.0
    for s in subpaths(p) {
        let pts = s.closed ? s.points + [s.points[0]] : s.points
        for k in pts.indices.dropFirst() {
            let a = pts[k - 1], b = pts[k]
            most = max(most, ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot())
        }
    }
    return most
}

// A ring (outer clockwise, hole anticlockwise), two dots, a square with a square hole, three dots.
private let ring = circle(100, 100, 60) + " " + circle(100, 100, 30, clockwise: false)
private let twoDots = cubicCircle(50, 100, 25) + " " + cubicCircle(150, 100, 25)
private let holedSquare = "M 40 40 H 160 V 160 H 40 Z M 70 70 V 130 H 130 V 70 Z"
private let threeDots = cubicCircle(40, 100, 20) + " " + cubicCircle(100, 100, 20) + " " + cubicCircle(160, 100, 20)

@Suite("Morph contours")
struct MorphTests {
    @Test("paths of several contours split into one flattened contour per subpath")
    func splitting() throws {
        let cs = Morph.contours(try path(holedSquare))
        #expect(cs.count == 2)
        #expect(cs.allSatisfy(\.closed) && cs.map(\.points.count) == [4, 4])
        #expect(cs[0].area > 0 && cs[1].area < 0, "the hole winds the other way: \(cs.map(\.area))")
        // A command after Z with no M starts a contour at the closed one's start.
        let again = Morph.contours(try path("M 0 0 L 10 0 L 10 10 Z L 0 -10 L -10 -10 Z"))
        #expect(again.count == 2 && again[1].points.first == Point(0, 0))
    }

    @Test("equal counts pair by the assignment that moves least, whatever their order")
    func pairing() throws {
        // The target lists the right dot first; the left dot pairs with it second.
        let a = Morph.contours(try path(twoDots))
        let b = Morph.contours(try path(circle(150, 100, 20) + " " + circle(50, 100, 20)))
        let pairs = Morph.pairing(a, b)
        #expect(pairs.map(\.0) == [0, 1] && pairs.map(\.1) == [1, 0])
        // Holes pair with holes: the hole of the square goes to the ring's hole, not its outside.
        let square = Morph.contours(try path(holedSquare)), r = Morph.contours(try path(ring))
        #expect(Morph.pairing(square, r).map(\.1) == [0, 1])
        // A hole never pairs with a solid contour: the ring's hole shrinks in place, the second dot grows.
        let ringToDots = Morph.pairing(r, Morph.contours(try path(twoDots)))
        #expect(ringToDots.count == 3 && ringToDots[0].1 != nil && ringToDots[1].1 == nil && ringToDots[2].0 == nil,
                "\(ringToDots)")
    }

    @Test("unequal counts: the extras grow from their own centroid, the small ones left over")
    func extras() throws {
        let one = cubicCircle(100, 100, 40)
        let m = try morphed(one, threeDots, 0.5)
        let subs = subpaths(m)
        #expect(subs.count == 3 && subs.allSatisfy(\.closed))
        // The middle dot is the partner (nearest); the outer two grow in place, half their size at p = 0.5.
        let pairs = Morph.pairing(Morph.contours(try path(one)), Morph.contours(try path(threeDots)))
        #expect(pairs.count == 3 && pairs[0].0 == 0 && pairs[0].1 == 1 && pairs[1].0 == nil && pairs[2].0 == nil)
        let left = subs[1].points
        let cx = left.map(\.x).reduce(0, +) / Double(left.count)
        let width = (left.map(\.x).max() ?? 0) - (left.map(\.x).min() ?? 0)
        #expect(abs(cx - 40) < 0.5 && abs(width - 20) < 0.5, "centre \(cx), width \(width)")
        // And back: three to one shrinks the extras to their centroids.
        let back = try morphed(threeDots, one, 0.999)
        #expect(subpaths(back).count == 3)
    }

    @Test("each pair has a common count, max(64, the larger point count); every piece keeps it")
    func counts() throws {
        let m = try #require(Morph(from: .path(try path(ring)), to: .path(try path(twoDots))))
        guard case .contours(let pieces) = m.form else { Issue.record("form \(m.form)"); return }
        let a = Morph.contours(try path(ring)), b = Morph.contours(try path(twoDots))
        let pairs = Morph.pairing(a, b)
        let wanted = pairs.map { max(Morph.minimumSamples, $0.0.map { a[$0].points.count } ?? 0, $0.1.map { b[$0].points.count } ?? 0) }
        #expect(pieces.count == 3 && pieces.map(\.count) == wanted && pieces.allSatisfy(\.closed), "\(pieces) \(wanted)")
        #expect(m.from.count == wanted.reduce(0, +) && m.to.count == m.from.count)
        // Many contours: the counts are scaled down to keep the whole within maximumSamples.
        let many = (0..<100).map { circle(Double($0 % 10) * 30, Double($0 / 10) * 30, 10, n: 8) }.joined(separator: " ")
        let big = try #require(Morph(from: .path(try path(many)), to: .path(try path(cubicCircle(150, 150, 100)))))
        #expect(big.from.count <= Morph.maximumSamples && big.from.count >= 400)
    }

    @Test("the endpoints are the values as written, bit for bit")
    func endpoints() throws {
        for (a, b) in [(ring, twoDots), (holedSquare, cubicCircle(100, 100, 60)), (cubicCircle(100, 100, 40), threeDots)] {
            let x = try path(a), y = try path(b)
            let m = try #require(Morph(from: .path(x), to: .path(y)))
            #expect(m.value(0) == .path(x) && m.value(1) == .path(y))
        }
    }

    @Test("no segment of an in-between path joins two contours", arguments: [0.25, 0.5, 0.75])
    func noBridge(p: Double) throws {
        for (a, b) in [(ring, twoDots), (holedSquare, cubicCircle(100, 100, 60)), (cubicCircle(100, 100, 40), threeDots)] {
            let m = try morphed(a, b, p)
            // Contours here are 25 px apart at least; resampled chords are under 7 px.
            #expect(longestSegment(m) < 10, "\(longestSegment(m)) px at p = \(p)")
        }
    }

    @Test("holes stay holes mid-morph under the nonzero rule")
    func holes() throws {
        let toCircle = try morphed(holedSquare, cubicCircle(100, 100, 60), 0.25)
        #expect(winding(toCircle, Point(100, 100)) == 0, "the hole is filled")
        #expect(winding(toCircle, Point(50, 100)) != 0, "the square's side is empty")
        let ringToRing = try morphed(ring, holedSquare, 0.5)
        #expect(winding(ringToRing, Point(100, 100)) == 0 && winding(ringToRing, Point(55, 100)) != 0)
        // A ring to two dots: its hole shrinks to where the outline goes (the dot it pairs with),
        // a hole inside it until it is gone.
        let dots = Morph.contours(try path(twoDots))
        let outer = try #require(Morph.pairing(Morph.contours(try path(ring)), dots)[0].1)
        for p in [0.25, 0.5, 0.9] {
            let centre = Point(100 + (dots[outer].centroid.x - 100) * p, 100)
            let m = try morphed(ring, twoDots, p)
            #expect(winding(m, centre) == 0, "the ring's hole is filled at \(p)")
        }
        // A target drawn the other way round is walked the start's way: no collapse mid-morph.
        let opposite = try morphed(circle(100, 100, 40), circle(100, 100, 40, n: 12, clockwise: false), 0.5)
        #expect(abs(winding(opposite, Point(100, 100))) == 1, "a pair of opposite windings collapses")
    }

    @Test("the assignment is the cheapest, against every permutation")
    func assignment() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let n = Int.random(in: 1...6, using: &rng)
            let cost = (0..<n).map { _ in (0..<n).map { _ in Double(Int.random(in: 0...20, using: &rng)) } }
            let got = Morph.assignment(cost)
            #expect(Set(got).count == n)
            func perms(_ xs: [Int]) -> [[Int]] {
                xs.count <= 1 ? [xs] : xs.indices.flatMap { i in perms(xs.enumerated().filter { $0.offset != i }.map(\.element)).map { [xs[i]] + $0 } }
            }
            let best = perms(Array(0..<n)).map { p in p.enumerated().reduce(0.0) { $0 + cost[$1.offset][$1.element] } }.min()!
            #expect(got.enumerated().reduce(0.0) { $0 + cost[$1.offset][$1.element] } == best)
        }
    }
}
