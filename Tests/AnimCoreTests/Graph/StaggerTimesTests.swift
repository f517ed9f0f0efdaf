// Stagger start times (Grammar.md §6.10). The grid vectors are worked out by hand from GSAP's
// documented distribute() (gsap.com/docs/v3/GSAP/UtilityMethods/distribute, GSAP 3's
// gsap.utils.distribute): cell (j mod C, j div C); origin at ratio r of the box, x₀ =
// min(C, n)·r − ½, y₀ = n·r/C − ½, or member N's cell; distance √(dx² + dy²) or one axis;
// u = (d − min)/(max − min); `edges` reverses u; the start is amount × ease(u).
@testable import AnimCore
import Testing

private func close(_ a: [Double], _ b: [Double], within e: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= e }
}

@Suite("Stagger times")
struct StaggerTimesTests {
    @Test func ranksWithoutOptionsAreTheDenseRanks() {
        #expect(Stagger.multiples(count: 5, origin: .order(.center), amount: false, grid: nil, easing: nil) == [2, 1, 0, 1, 2])
        #expect(Stagger.multiples(count: 4, origin: .order(.edges), amount: false, grid: nil, easing: nil) == [0, 1, 1, 0])
        // from 1 over 5: |k − 1| = 1 0 1 2 3.
        #expect(Stagger.multiples(count: 5, origin: .index(1), amount: false, grid: nil, easing: nil) == [1, 0, 1, 2, 3])
        #expect(Stagger.multiples(count: 4, origin: .index(3), amount: false, grid: nil, easing: nil) == [3, 2, 1, 0])
    }

    @Test func amountAndEaseSpreadTheRanks() {
        // amount: rank ÷ largest rank.
        let third = 1.0 / 3
        let spread: [Double] = [third, 0, third, 2 * third, 1]
        #expect(close(Stagger.multiples(count: 5, origin: .index(1), amount: true, grid: nil, easing: nil), spread))
        #expect(Stagger.multiples(count: 1, origin: .order(.start), amount: true, grid: nil, easing: nil) == [0])
        // ease with D: R × E(r/R); power1-in is a quad: 4 × (r/4)².
        let quad = try! Easing.resolve(name: "power1-in", arguments: nil).get()
        let eased: [Double] = [0, 0.25, 1, 2.25, 4]
        #expect(close(Stagger.multiples(count: 5, origin: .order(.start), amount: false, grid: nil, easing: quad), eased))
    }

    @Test func gridFromCenterIsTheDistanceInCells() {
        // 3 × 3, n = 9: origin (3·½ − ½, 9·½/3 − ½) = (1, 1).
        let r2 = 2.0.squareRoot()
        let g = Stagger.Grid(rows: 3, columns: 3, axis: nil)
        let centre: [Double] = [r2, 1, r2, 1, 0, 1, r2, 1, r2]
        #expect(close(Stagger.multiples(count: 9, origin: .order(.center), amount: false, grid: g, easing: nil), centre))
        // amount 1: u = d/√2; edges: 1 − u.
        let side: Double = 1 - 1 / r2
        let edges: [Double] = [0, side, 0, side, 1, side, 0, side, 0]
        #expect(close(Stagger.multiples(count: 9, origin: .order(.edges), amount: true, grid: g, easing: nil), edges))
    }

    @Test func gridFromStartAndEndAreTheBoxCorners() {
        // 2 × 3 from start: origin (−½, −½); d = √((x + ½)² + (row + ½)²).
        let squares: [Double] = [0.5, 2.5, 6.5, 2.5, 4.5, 8.5]
        let d = squares.map { $0.squareRoot() }
        let g = Stagger.Grid(rows: 2, columns: 3, axis: nil)
        let u: [Double] = d.map { ($0 - d[0]) / (d[5] - d[0]) }
        #expect(close(Stagger.multiples(count: 6, origin: .order(.start), amount: true, grid: g, easing: nil), u))
        let worked: [Double] = [0, 0.395_782, 0.834_282, 0.395_782, 0.640_388, 1]
        #expect(close(u, worked, within: 1e-6))
        // from end: origin (3 − ½, 6/3 − ½) = (2.5, 1.5), the opposite corner: the same
        // distances, mirrored.
        #expect(close(Stagger.multiples(count: 6, origin: .order(.end), amount: true, grid: g, easing: nil), u.reversed()))
        // axis x from end: |x − 2.5| − 0.5 = 2, 1, 0 per column.
        let gx = Stagger.Grid(rows: 2, columns: 3, axis: .x)
        let columns: [Double] = [2, 1, 0, 2, 1, 0]
        #expect(close(Stagger.multiples(count: 6, origin: .order(.end), amount: false, grid: gx, easing: nil), columns))
    }

    @Test func gridFromAnIndexAndAPartialLastRow() {
        // 3 × 3 from 5 (cell (2, 1)), axis y: |row − 1| = 1 1 1 0 0 0 1 1 1.
        let gy = Stagger.Grid(rows: 3, columns: 3, axis: .y)
        let rows: [Double] = [1, 1, 1, 0, 0, 0, 1, 1, 1]
        #expect(Stagger.multiples(count: 9, origin: .index(5), amount: false, grid: gy, easing: nil) == rows)
        // 7 members in 3 columns, from center: x₀ = 3·½ − ½ = 1, y₀ = 7·½/3 − ½ = 2/3 (GSAP
        // takes the count, not the rows).
        let g = Stagger.Grid(rows: 3, columns: 3, axis: nil)
        let y0 = 7.0 / 6 - 0.5
        let d: [Double] = (0..<7).map { j -> Double in
            let dx = Double(j % 3) - 1, dy = y0 - Double(j / 3)
            return (dx * dx + dy * dy).squareRoot()
        }
        let nearest = d.min()!
        #expect(close(Stagger.multiples(count: 7, origin: .order(.center), amount: false, grid: g, easing: nil), d.map { $0 - nearest }))
    }

    @Test func randomShufflesTheDistancesAndKeepsTheLargest() {
        let g = Stagger.Grid(rows: 2, columns: 2, axis: nil)
        let plain = Stagger.multiples(count: 4, origin: .order(.random), amount: false, grid: g, easing: nil)
        let reversed = Stagger.multiples(count: 4, origin: .order(.random), amount: false, grid: g, easing: nil) { $0.reverse() }
        #expect(close(reversed, plain.reversed()))
        #expect(plain.max() == reversed.max())
    }

    @Test func problemsAreNamed() {
        #expect(Stagger.problem(count: 5, origin: .order(.center), grid: Stagger.Grid(rows: 2, columns: 2, axis: nil))
            == "a grid of (2, 2) holds 4 members, not the stagger's 5")
        #expect(Stagger.problem(count: 3, origin: .index(3), grid: nil) == "'from 3' is not a member's index: the stagger has 3 members (0 … 2)")
        #expect(Stagger.problem(count: 3, origin: .order(.start), grid: Stagger.Grid(rows: 0, columns: 3, axis: nil)) != nil)
        #expect(Stagger.problem(count: 4, origin: .index(0), grid: Stagger.Grid(rows: 2, columns: 2, axis: .x)) == nil)
    }
}
