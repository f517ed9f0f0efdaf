// PropertyLogTests: a log finds each property's row the same way whether it compares the few
// rows it has in order or, past `PropertyLog.rowsSearchedInOrder`, looks them up in its map,
// and the map, made when the rows outgrow the search, holds the rows written before it too.

import Testing
@testable import AnimCore

@Suite("PropertyLog finds rows before and past the in-order search")
struct PropertyLogTests {
    /// Property `k`'s key: shapes and properties both vary, so keys share neither.
    private func key(_ k: Int) -> PropertyKey { PropertyKey(ShapeID(k / 3), PropertyID(k % 3)) }

    @Test func rowsAndValuesAgreeAsTheLogGrows() {
        var log = PropertyLog()
        let n = PropertyLog.rowsSearchedInOrder * 3
        #expect(log.row(of: key(0)) == nil)
        for k in 0..<n {
            log.addConstant(key(k), at: Time(ticks: Int64(k)), .number(Double(k)))
            // Every row so far, including those added before the map was made.
            for j in 0...k { #expect(log.row(of: key(j)) == j) }
            #expect(log.row(of: key(k + 1)) == nil)
        }
        // A second piece for each property goes in its own row, not a new one.
        for k in 0..<n { log.addConstant(key(k), at: Time(ticks: Int64(n + k)), .number(Double(100 + k))) }
        #expect(log.propertyCount == n)
        #expect(log.pieceCount == 2 * n)
        log.index()
        let tables = TrackTables()
        for k in 0..<n {
            #expect(log.value(key(k), at: Time(ticks: Int64(k)), tables: tables) == .number(Double(k)))
            #expect(log.value(key(k), at: Time(ticks: Int64(2 * n)), tables: tables) == .number(Double(100 + k)))
        }
    }
}
