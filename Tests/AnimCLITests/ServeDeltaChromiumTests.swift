// `anim serve`'s deltas in a real Chromium: a save that changes a few shapes reaches the open
// page as a delta joined with the scene it shows (no fetch of /scene.json), and the page ends
// with exactly the data a fresh load of the same scene gives; a save that changes most of the
// scene is fetched whole, as before.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("anim serve deltas in Chromium", .serialized)
struct ServeDeltaChromiumTests {
    /// `count` rects, each moved by its own tween; `targets` overrides rect i's target x.
    static func script(count: Int, targets: [Int: Int] = [:], tag: String, extra: String = "") -> String {
        var s = "stage 400 x 300\n"
        for i in 0..<count { s += "rect r\(i) center (\(10 + i * 3), 20) size (10, 10) color #3366ff\n" }
        s += extra
        for i in 0..<count { s += "animate \(0.5 + Double(i % 4) * 0.25) ease ease-in-out < r\(i).center = (\(targets[i] ?? 100 + i * 2), 150) >\n" }
        s += "then < print \"\(tag)\" >\n"
        return s
    }

    /// The page's data (decoded tracks included) as JSON.
    static let dataJSON = "JSON.stringify(animPlayer.data)"

    @Test("a delta swap ends in the data a fresh load gives; a mostly new scene is fetched",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func deltaEqualsFreshLoad() throws {
        let dir = try Editor.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("delta.anim")
        try Editor.save(Self.script(count: 80, tag: "first"), to: file)
        let s = try ServeProcess(["delta.anim", "--port", "0", "--debounce", "5"], in: dir)
        do {
            let browser = try DevToolsBrowser(chromium: Consumers.chromium!)
            let url = "http://127.0.0.1:\(s.port)/#t=0.4"
            try browser.navigate(url)
            try browser.waitFor("document.documentElement.getAttribute('data-live')") { $0 as? String == "connected" }
            /// Saves `edit`, waits for swap number `swaps` on this page to show `tag`, and checks how it came.
            func save(_ edit: String, tag: String, swaps: Int, via: String) throws {
                try Editor.save(edit, to: file)
                try browser.waitFor("window.animSwaps.length === \(swaps) && animPlayer.data.prints[0][1]") { $0 as? String == tag }
                #expect(try browser.evaluate("window.animSwaps[\(swaps - 1)][3]") as? String == via, "'\(tag)' did not come by \(via)")
                #expect(try browser.evaluate("animPlayer.time") as? Double == 0.4, "the playhead stays")
            }
            /// Whether the page's data is a fresh load's of the same scene (the page is then that fresh one).
            func matchesFreshLoad(_ tag: String) throws {
                let swapped = try browser.evaluate(Self.dataJSON) as? String
                try browser.navigate("about:blank")
                try browser.waitFor("location.href") { $0 as? String == "about:blank" }
                try browser.navigate(url)
                try browser.waitFor("document.documentElement.getAttribute('data-live') === 'connected' && animPlayer.data.prints[0][1]") {
                    $0 as? String == tag
                }
                let fresh = try browser.evaluate(Self.dataJSON) as? String
                #expect(swapped != nil && swapped == fresh, "after '\(tag)' the swapped data differs from a fresh load's")
            }
            // One shape changed, from the page's own data, then from the text the first delta made.
            try save(Self.script(count: 80, targets: [17: 321], tag: "second"), tag: "second", swaps: 1, via: "delta")
            try save(Self.script(count: 80, targets: [17: 321, 60: 5], tag: "third"), tag: "third", swaps: 2, via: "delta")
            try matchesFreshLoad("third")
            // A shape added, then two removed.
            try save(Self.script(count: 80, targets: [17: 321], tag: "fourth", extra: "circle extra center (5, 5) radius 3\n"),
                     tag: "fourth", swaps: 1, via: "delta")
            try matchesFreshLoad("fourth")
            try save(Self.script(count: 78, targets: [17: 321, 40: 12], tag: "fifth"), tag: "fifth", swaps: 1, via: "delta")
            try matchesFreshLoad("fifth")
            // Every tween's target moved: the scene is fetched whole; the next small edit is a delta from the fetched text.
            let moved = Dictionary(uniqueKeysWithValues: (0..<78).map { ($0, 300 - $0) })
            try save(Self.script(count: 78, targets: moved, tag: "sixth"), tag: "sixth", swaps: 1, via: "fetch")
            var movedAgain = moved
            movedAgain[3] = 7
            try save(Self.script(count: 78, targets: movedAgain, tag: "seventh"), tag: "seventh", swaps: 2, via: "delta")
            try matchesFreshLoad("seventh")
            let errors = try browser.evaluate("document.documentElement.getAttribute('data-errors')")
            #expect(errors == nil || errors is NSNull, "the page recorded errors: \(String(describing: errors))")
            #expect(browser.problems.isEmpty, "console: \(browser.problems)")
        }
        #expect(s.stop() == 0)
    }
}
