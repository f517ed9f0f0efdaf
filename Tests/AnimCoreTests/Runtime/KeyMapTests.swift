// KeyMap against Dictionary: the same answers after any sequence of inserts, updates and
// removals (removal shifts entries back, which is where open addressing goes wrong).
@testable import AnimCore
import Testing

@Suite("KeyMap")
struct KeyMapTests {
    @Test("agrees with Dictionary under random inserts and removals")
    func agreesWithDictionary() {
        var rng = RandomGenerator(seed: 7)
        var map = KeyMap<Int>()
        var dict: [PropertyKey: Int] = [:]
        for step in 0..<20_000 {
            // Few distinct keys, so probe runs collide and removals shift entries.
            let key = PropertyKey(ShapeID(Int(rng.next() % 300)), PropertyID(Int(rng.next() % 7)))
            if rng.next() % 3 == 0 {
                #expect(map.removeValue(forKey: key) == dict.removeValue(forKey: key))
            } else {
                map[key] = step
                dict[key] = step
            }
            #expect(map.count == dict.count)
        }
        for (k, v) in dict { #expect(map[k] == v) }
        var seen = 0
        for (k, v) in map { #expect(dict[k] == v); seen += 1 }
        #expect(seen == dict.count)
        #expect(map[PropertyKey(ShapeID(12345), PropertyID(0))] == nil)
    }

    @Test("an empty map answers before its table is made")
    func emptyMapAnswers() {
        var map = KeyMap<Int>()
        let key = PropertyKey(ShapeID(3), PropertyID(1))
        #expect(map[key] == nil)
        #expect(map.removeValue(forKey: key) == nil)
        #expect(!map.removeValue(forKey: key) { _ in true })
        #expect(map.isEmpty)
        #expect(Array(map).isEmpty)
        map[key] = 5
        #expect(map[key] == 5)
        #expect(map.count == 1)
    }
}
