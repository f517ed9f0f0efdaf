// A scene swapped into an open player (`animPlayer.swap`, what `anim serve` does on a save) draws
// exactly what a fresh page of that scene draws: the stage and the lanes, element for element.
// The swap keeps what did not change — each shape's decoded tracks whose samples the new scene
// sends unchanged, and each lane in sight that would be drawn the same (issue 14's save path) —
// so this checks that what it keeps is only what is the same, and that it writes only what changed
// (a kept lane moved, or an attribute written again with its own value, is laid out and painted
// anew by the browser).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("A swapped scene draws as a fresh page", .serialized)
struct PlayerSwapChromiumTests {
    /// Forty shapes, each with its own lane; `edit` changes the targets and timing of a few.
    static func script(_ edit: Int) -> String {
        var s = "stage 400 x 300\ntext title text \"v\(edit)\" center (200, 20)\n"
        for i in 0..<40 { s += "rect r\(i) center (\(10 * i), 50) size (8, 8)\n" }
        for i in 0..<40 {
            // Shapes 0, 7 and 30 move elsewhere, and 7's tween eases otherwise, in the edit (the
            // run's length stays: the samples are as many, so the tracks sent unchanged are kept).
            let moved = edit > 0 && (i == 0 || i == 7 || i == 30)
            let easing = edit > 0 && i == 7 ? "linear" : "cubic-in-out"
            s += "animate 0.5 ease \(easing) < r\(i).center = (\(10 * i + (moved ? 55 : 5)), \(moved ? 280 : 250)) >"
            s += " then animate 0.5 < r\(i).rotation = \(i)deg >\n"
        }
        return s
    }

    /// Renders both versions of the script into `dir` (s0.html, s1.html) and returns each page's
    /// data, the JSON its `anim-data` element holds.
    static func renderBoth(_ dir: ScratchDirectory) throws -> [String] {
        try (0...1).map { k in
            try Self.script(k).write(toFile: dir.path("s\(k).anim"), atomically: true, encoding: .utf8)
            let r = try runAnim(["render", dir.path("s\(k).anim"), "-o", dir.path("s\(k).html")])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            let page = try String(contentsOfFile: dir.path("s\(k).html"), encoding: .utf8)
            let open = "<script type=\"application/json\" id=\"anim-data\">"
            let a = try #require(page.range(of: open)), b = try #require(page[a.upperBound...].range(of: "</script>"))
            return String(page[a.upperBound..<b.lowerBound])
        }
    }

    /// The stage's and the timeline's markup.
    static func markup(_ browser: ChromiumDriver) throws -> (stage: String, lanes: String) {
        (try browser.string("document.getElementById('shapes').innerHTML"), try browser.string("document.getElementById('strip').innerHTML"))
    }

    @Test("the stage and the lanes after a swap are a fresh page's",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func swapDrawsAsFresh() throws {
        let dir = try ScratchDirectory("player-swap")
        defer { dir.remove() }
        let scenes = try Self.renderBoth(dir)
        let data = scenes[1]
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        for t in ["0.3", "0.75"] {
            try browser.open("file://\(dir.path("s1.html"))#t=\(t)")
            let fresh = try Self.markup(browser)
            try browser.open("file://\(dir.path("s0.html"))#t=\(t)")
            let before = try Self.markup(browser)
            #expect(before.stage != fresh.stage && before.lanes != fresh.lanes, "the edit changes what is drawn")
            #expect(try browser.evaluate("animPlayer.data.times.length") as? Int == Int(try browser.string("String(\(data).times.length)")))
            _ = try browser.evaluate("animPlayer.swap(\(data)), 0")
            let swapped = try Self.markup(browser)
            #expect(swapped.stage == fresh.stage, "at \(t) s the stage differs from a fresh page's")
            #expect(swapped.lanes == fresh.lanes, "at \(t) s the lanes differ from a fresh page's")
            // And back: the first scene again, as its own page draws it.
            _ = try browser.evaluate("animPlayer.swap(\(scenes[0])), 0")
            let back = try Self.markup(browser)
            #expect(back.stage == before.stage && back.lanes == before.lanes, "at \(t) s swapping back differs")
        }
    }

    /// What a swap writes to the page, watched by a MutationObserver: the shapes and the lanes
    /// in sight that it touches, lanes it puts into the strip or takes out, and writes to the
    /// stage's own element, its background and the ruler.
    static let watchedSwap = """
        (function (data) {
          var records = [], watch = new MutationObserver(function (r) { records.push.apply(records, r); });
          watch.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
          animPlayer.swap(data);
          records.push.apply(records, watch.takeRecords()); watch.disconnect();
          var shapes = {}, added = {}, removed = {}, stage = 0, ruler = 0;
          function lanes(list, into) {
            Array.prototype.forEach.call(list, function (e) { if (e.classList && e.classList.contains('lane')) into[e.getAttribute('data-lane')] = 1; });
          }
          records.forEach(function (r) {
            var t = r.target.nodeType === 1 ? r.target : r.target.parentNode;
            if (t.id === 'stage' || t.id === 'stage-bg') stage++;
            if (t.closest('#ruler')) ruler++;
            var g = t.closest('#shapes > g');
            if (g) shapes[g.getAttribute('data-shape')] = 1;
            if (t.id === 'strip') { lanes(r.addedNodes, added); lanes(r.removedNodes, removed); }
          });
          return JSON.stringify({ shapes: Object.keys(shapes).sort(), added: Object.keys(added).sort(), removed: Object.keys(removed).sort(), stage: stage, ruler: ruler });
        })
        """

    @Test("a swap writes only what changed: the edited shapes, the edited lanes in sight",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func swapWritesOnlyChanges() throws {
        let dir = try ScratchDirectory("player-swap-writes")
        defer { dir.remove() }
        let scenes = try Self.renderBoth(dir)
        let data = scenes[1]
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(dir.path("s0.html"))#t=0.3")
        let seen = try browser.string("JSON.stringify(Array.prototype.map.call(document.querySelectorAll('#strip .lane'), function (g) { return g.getAttribute('data-lane'); }))")
        #expect(seen.contains("\"0\"") && seen.contains("\"7\"") && !seen.contains("\"30\""), "lanes in sight: \(seen)")
        let got = try browser.string("\(Self.watchedSwap)(\(data))")
        // Shape 0 is the title (its text changes); r0, r7 and r30 are shapes 1, 8 and 31, and
        // lanes 0, 7 and 30 (30 is out of sight: not drawn).
        let report = try #require(try JSONSerialization.jsonObject(with: Data(got.utf8)) as? [String: Any])
        #expect(report["shapes"] as? [String] == ["0", "1", "31", "8"], "shapes written: \(got)")
        #expect(report["added"] as? [String] == ["0", "7"] && report["removed"] as? [String] == ["0", "7"], "lanes redrawn: \(got)")
        #expect(report["stage"] as? Int == 0 && report["ruler"] as? Int == 0, "the stage's element or the ruler written: \(got)")
        // The same scene again writes nothing to the shapes or the lanes.
        let again = try browser.string("\(Self.watchedSwap)(\(data))")
        #expect(again == #"{"shapes":[],"added":[],"removed":[],"stage":0,"ruler":0}"#, "a swap of the same scene wrote: \(again)")
    }
}
