// The tick step of time axes (terminal chart and SVG strip): a 1-2-5 style step for any
// finite length of run, a few ticks per axis.
@testable import AnimCore
import Testing

@Suite("Axis ticks")
struct TicksTests {
    @Test("steps give at least the minimum spacing and at most length ÷ minimum ticks", arguments: [Double](arrayLiteral:
        0.001, 0.37, 4.1, 60, 3600, 86_400 * 58, 9e9, 1e18, 1e300
    ))
    func stepsForAnyEnd(end: Double) {
        let step = Ticks.step(end: end, length: 80, minimum: 8, multiples: [1, 2, 2.5, 5])
        #expect(80 * step / end >= 8)
        #expect(end / step <= 10)
    }

    @Test func smallRunsGetMillisecondsAndWholeNumbersAbove() {
        #expect(Ticks.step(end: 4.1, length: 80, minimum: 8, multiples: [1, 2, 2.5, 5]) == 0.5)
        #expect(Ticks.step(end: 0.004, length: 80, minimum: 8, multiples: [1, 2, 5]) == 0.001)
        #expect(Ticks.step(end: 9e9, length: 80, minimum: 8, multiples: [1, 2, 5]) == 1e9)
    }

    @Test func noEndGivesOneSecond() {
        #expect(Ticks.step(end: 0, length: 80, minimum: 8, multiples: [1]) == 1)
        #expect(Ticks.step(end: .infinity, length: 80, minimum: 8, multiples: [1]) == 1)
    }
}
