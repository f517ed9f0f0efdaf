// Time: exact virtual time in integer nanoseconds. Decimal literals convert from their text,
// never through Double, so sums of decimals are exact; printing has an event form ([1.300])
// and an exact form (JSON). Also the Web Animations timing of one tween (TweenTiming).
@testable import AnimCore
import Testing

private func t(_ s: String) -> Time { SessionOptions.parseTime(s)! }

@Suite("Time")
struct TimeTests {
    @Test("decimal text converts exactly", arguments: [
        ("0.1", Int64(100_000_000)), ("0.2", 200_000_000), ("0.3", 300_000_000), ("1.5", 1_500_000_000),
        ("300ms", 300_000_000), ("0.5ms", 500_000), ("1e-9", 1), ("2.5e1", 25_000_000_000),
        ("0.0000000004", 0), ("0.0000000005", 1), ("-1.5", -1_500_000_000), ("0", 0), (".25", 250_000_000),
    ])
    func decimalConversion(text: String, ticks: Int64) {
        #expect(t(text).ticks == ticks)
    }

    @Test func decimalSumsAreExact() {
        #expect(t("0.1").adding(t("0.2")) == t("0.3"))
        var sum = Time.zero
        for _ in 0..<1000 { sum = sum + t("0.001") }
        #expect(sum == Time(seconds: 1))
        // The same sums in Double are not exact, which is why time is an integer.
        #expect(0.1 + 0.2 != 0.3)
    }

    @Test func doubleConversionRoundsToTheNearestTick() {
        #expect(Time(seconds: 1.0 / 3)?.ticks == 333_333_333)
        #expect(Time(seconds: 2.0 / 3)?.ticks == 666_666_667)
        #expect(Time(seconds: .infinity) == nil)
        #expect(Time(seconds: 1e10) == nil)  // beyond about 292 years
    }

    @Test func scaling() {
        #expect(t("1").scaled(by: 1.0 / 3) == Time(ticks: 333_333_333))
        #expect(t("0.3").scaled(by: 1) == t("0.3"))
        #expect(t("1").scaled(by: 1e30) == nil)
    }

    @Test func overflow() {
        #expect(Time.max.adding(Time(ticks: 1)) == nil)
        #expect(Time.max + Time(ticks: 1) == .max)  // saturates
        #expect(Time(ticks: .min) - Time(ticks: 1) == Time(ticks: .min))
        #expect(DecimalLiteral("99999999999999999999").flatMap { Time(decimal: $0, unitPower: 9) } == nil)
    }

    @Test("the event stamp has exactly 3 decimals, rounded half up", arguments: [
        ("0", "0.000"), ("1.3", "1.300"), ("4.1", "4.100"), ("0.0005", "0.001"), ("0.0004999", "0.000"),
        ("1.2345", "1.235"), ("59.9999", "60.000"), ("12", "12.000"), ("-1.5", "-1.500"),
    ])
    func eventStamp(text: String, stamp: String) {
        #expect(t(text).eventStamp == stamp)
    }

    @Test("descriptions", arguments: [
        ("1.5", "1.5s", "1.5"), ("0.3", "0.3s", "0.3"), ("90", "90s", "90"), ("1e-9", "0s", "0.000000001"),
        ("0.0000005", "0.000001s", "0.0000005"), ("1.25", "1.25s", "1.25"), ("-2", "-2s", "-2"),
    ])
    func descriptions(text: String, canonical: String, exact: String) {
        #expect(t(text).description == canonical)
        #expect(t(text).exactSeconds == exact)
    }

    @Test("decimal literals", arguments: [
        ("123", [UInt8]([1, 2, 3]), 0), ("1.5", [1, 5], -1), (".5", [5], -1), ("0.05", [5], -2),
        ("2e-3", [2], -3), ("1E+20", [1], 20), ("0", [], 0), ("000.000", [], 0), ("1.50", [1, 5, 0], -2),
    ])
    func decimalLiterals(text: String, digits: [UInt8], exponent: Int) {
        let d = DecimalLiteral(text)
        #expect(d?.digits == digits)
        #expect(d?.exponent == exponent)
    }

    @Test("malformed decimal literals", arguments: ["", ".", "e5", "1.2.3", "abc", "1e", "1e1e1", "1e999999", "-1"])
    func malformed(text: String) {
        #expect(DecimalLiteral(text) == nil)
    }

    @Test func scaledIntegerRoundsHalfUp() {
        #expect(DecimalLiteral("0.0000005")?.scaledInteger(shift: 6) == 1)
        #expect(DecimalLiteral("0.00000049")?.scaledInteger(shift: 6) == 0)
        #expect(DecimalLiteral("2.5")?.scaledInteger(shift: 0) == 3)
        #expect(DecimalLiteral("1e30")?.scaledInteger(shift: 0) == nil)
    }

    // MARK: - TweenTiming (Web Animations Level 1, §4.8)

    @Test func progressOfOneIteration() {
        let timing = TweenTiming(iterationDuration: t("2"))
        let ps = ["0", "0.5", "1", "2", "3"].map { timing.progress(at: t($0)).directed }
        #expect(ps == [0, 0.25, 0.5, 1, 1])
        #expect(timing.progress(at: t("-1")).directed == 0)
    }

    @Test func iterationsEndAtProgressOne() {
        let timing = TweenTiming(iterationDuration: t("1"), iterations: 3)
        #expect(timing.activeDuration == t("3"))
        #expect(timing.progress(at: t("1")) == (iteration: 1, directed: 0))
        #expect(timing.progress(at: t("3")) == (iteration: 2, directed: 1))  // 1.0 at the end, not 0.0
        #expect(timing.progress(at: t("3.5")) == (iteration: 2, directed: 1))
    }

    @Test func alternateRunsOddIterationsBackward() {
        let timing = TweenTiming(iterationDuration: t("1"), iterations: 2, alternate: true)
        let ps = ["0.25", "1", "1.25", "2"].map { timing.progress(at: t($0)).directed }
        #expect(ps == [0.25, 1, 0.75, 0])
    }

    @Test func fractionalZeroAndInfiniteIterations() {
        #expect(TweenTiming(iterationDuration: t("1"), iterations: 1.5).progress(at: t("2")).directed == 0.5)
        let none = TweenTiming(iterationDuration: t("1"), iterations: 0)
        #expect(none.activeDuration == .zero)
        #expect(none.progress(at: .zero).directed == 0)
        #expect(TweenTiming(iterationDuration: t("1"), iterations: .infinity).activeDuration == nil)
        let instant = TweenTiming(iterationDuration: .zero)
        #expect(instant.progress(at: .zero).directed == 1)
    }

    @Test func rateDividesTheActiveDuration() {
        #expect(TweenTiming(iterationDuration: t("1"), iterations: 3, rate: 2).activeDuration == t("1.5"))
        #expect(TweenTiming(iterationDuration: t("1"), rate: 3).activeDuration == Time(ticks: 333_333_333))
    }
}
