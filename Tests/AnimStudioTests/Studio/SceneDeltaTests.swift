// The delta `anim serve` sends an open page instead of the whole scene: joined with the text of
// the scene the page shows, it must give exactly the new scene's text (which the page then
// parses as it would parse `/scene.json`), and it must carry only what changed.
@testable import AnimStudio
import AnimCore
import Foundation
import Testing

@Suite("Scene deltas")
struct SceneDeltaTests {
    /// A script of `count` rects, each moved by a tween; `targets` overrides rect i's target x.
    static func script(count: Int, targets: [Int: Int] = [:], text: String = "done", extra: String = "") -> String {
        var s = "stage 400 x 300\n"
        for i in 0..<count { s += "rect r\(i) center (\(10 + i), 20) size (10, 10)\n" }
        s += extra
        for i in 0..<count { s += "animate \(0.5 + Double(i % 3) * 0.25) ease ease-in-out < r\(i).center = (\(targets[i] ?? 200 + i), 150) >\n" }
        s += "then < print \"\(text)\" >\n"
        return s
    }

    static func json(_ text: String) throws -> [UInt8] {
        let b = SceneBuilder.build(name: "live.anim", contents: Array(text.utf8), options: SessionOptions(), fps: 30)
        return Array(try #require(b.sceneJSON).utf8)
    }

    /// The new text's parts as the page joins them, from the old text.
    static func joined(_ delta: SceneDelta, old: [UInt8]) -> [UInt8] {
        Array(delta.applied(to: String(decoding: old, as: UTF8.self)).utf8)
    }

    @Test("the pieces are the scene's JSON, cut at its parts")
    func piecesCoverTheJSON() throws {
        let json = try Self.json(Self.script(count: 5))
        let pieces = ScenePieces(json)
        #expect(Array((0..<pieces.count).map(pieces.piece).joined()) == json)
        // A piece per top-level key, per shape, per lane and per bar at least.
        #expect(pieces.count > 5 * 3)
        #expect(pieces.units.last == String(decoding: json, as: UTF8.self).utf16.count)
        // Each shape starts a piece.
        let text = String(decoding: json, as: UTF8.self)
        for i in 0..<5 {
            let at = try #require(text.utf8.firstRange(of: Array("{\"name\":\"r\(i)\"".utf8)))
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: at.lowerBound)
            #expect(pieces.cuts.contains(offset), "shape r\(i) starts no piece")
        }
    }

    @Test("an edit of one tween: the delta joins to the new scene and carries little")
    func oneEdit() throws {
        let old = try Self.json(Self.script(count: 200))
        let new = try Self.json(Self.script(count: 200, targets: [57: 333]))
        #expect(old != new)
        let delta = try #require(SceneDelta.between(ScenePieces(old), ScenePieces(new)))
        let same = Self.joined(delta, old: old) == new
        #expect(same, "the join is not the new scene")
        let carried = delta.parts.reduce(0) { if case .new(let b) = $1 { return $0 + b.count }; return $0 }
        #expect(carried > 0 && carried * 20 < new.count, "\(carried) of \(new.count) bytes sent")
        // Its JSON is what the page reads: base, length, parts.
        let event = try #require(try JSONSerialization.jsonObject(with: Data(delta.json(base: 7).utf8)) as? [String: Any])
        #expect(event["base"] as? Int == 7)
        #expect(event["length"] as? Int == String(decoding: new, as: UTF8.self).utf16.count)
        #expect((event["parts"] as? [Any])?.count == delta.parts.count)
    }

    @Test("shapes added or removed, and text beyond ASCII: the join is still the new scene")
    func structureAndUnicode() throws {
        let base = try Self.json(Self.script(count: 60, text: "café ✓ 😀"))
        let cases = [
            Self.script(count: 60, text: "café ✓ 😀 𝄞", extra: "rect extra center (5, 5) size (4, 4)\n"),
            Self.script(count: 59, text: "café ✓ 😀"),
            Self.script(count: 60, targets: [0: 1, 30: 2, 59: 3], text: "café ✓ 😀"),
        ]
        for text in cases {
            let new = try Self.json(text)
            let delta = try #require(SceneDelta.between(ScenePieces(base), ScenePieces(new)))
            let same = Self.joined(delta, old: base) == new
            #expect(same, "the join is not the new scene")
        }
    }

    @Test("a scene mostly new is not sent as a delta")
    func largeChangesAreFetched() throws {
        let old = try Self.json(Self.script(count: 40))
        let new = try Self.json(Self.script(count: 40, targets: Dictionary(uniqueKeysWithValues: (0..<40).map { ($0, 5 * $0) })))
        #expect(SceneDelta.between(ScenePieces(old), ScenePieces(new)) == nil)
        // The same scene again: nothing new at all.
        let same = try #require(SceneDelta.between(ScenePieces(old), ScenePieces(old)))
        #expect(same.parts == [.old(start: 0, length: String(decoding: old, as: UTF8.self).utf16.count)])
    }
}
