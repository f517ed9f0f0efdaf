// TrackTablesTests: interning a timing gives each distinct timing one index, the same whether
// the tables find it by comparing the few they have in order or, past
// `TrackTables.timingsSearchedInOrder`, by hashing.

import Testing
@testable import AnimCore

@Suite("track tables intern each timing once")
struct TrackTablesTests {
    /// A distinct tween timing for each `k`, easings alternating.
    private func timing(_ k: Int) -> TrackTiming {
        .tween(TweenTiming(iterationDuration: Time(ticks: Int64(k + 1) * 1_000)), k % 2 == 0 ? .linear : .easeInOut)
    }

    @Test func eachTimingKeepsItsIndexBeforeAndPastTheInOrderSearch() {
        var tables = TrackTables()
        let n = TrackTables.timingsSearchedInOrder * 3
        #expect((0..<n).map { tables.intern(timing($0)) } == (0..<n).map(Int32.init))
        // Again, backwards: the last timing interned is no shortcut for these.
        for k in (0..<n).reversed() { #expect(tables.intern(timing(k)) == Int32(k)) }
        #expect(tables.timings.count == n)
        let spring = TrackTiming.spring(duration: Time(ticks: 5_000))
        #expect(tables.intern(spring) == Int32(n))
        #expect(tables.intern(timing(1)) == 1)
        #expect(tables.intern(spring) == Int32(n))
        #expect(tables.timings.count == n + 1)
        // Each tween's easing is interned once too: two easings in all.
        #expect(tables.easings.count == 2)
    }

    @Test func aCopyInternsApartFromItsOriginal() {
        var tables = TrackTables()
        for k in 0..<4 { _ = tables.intern(timing(k)) }
        var copy = tables
        #expect(copy.intern(timing(9)) == 4)
        #expect(tables.timings.count == 4)
        #expect(tables.intern(timing(2)) == 2)
    }

    @Test func eachEasingIsKeptOnceBeforeAndPastTheInOrderSearch() {
        var tables = TrackTables()
        let n = TrackTables.timingsSearchedInOrder * 3
        // Two timings per easing: the second finds the easing its first one added.
        func timing(_ k: Int, _ e: Int) -> TrackTiming {
            .tween(TweenTiming(iterationDuration: Time(ticks: Int64(k + 1) * 1_000)), .cubicBezier(0.1, Double(e) / 100, 0.5, 1))
        }
        for e in 0..<n {
            _ = tables.intern(timing(2 * e, e))
            _ = tables.intern(timing(2 * e + 1, e))
        }
        #expect(tables.easings.count == n)
        #expect(tables.timingEasing == (0..<2 * n).map { Int32($0 / 2) })
    }
}
