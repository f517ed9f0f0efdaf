// The HTML player checked in a real browser: headless Chromium opens the page at several
// times (`#t=T&shot` shows the stage alone, paused at T) and its screenshot must match the PNG
// frame that anim renders for the same time; the page must run without console errors.
//
// The pixel comparisons (and the project's tolerance, argued there) are ChromiumPixels'.
// Measured on scene.anim at 0, 0.5, 1.2 and 2.4 s: see the test log (`swift test --filter
// Chromium`).
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("HTML player in headless Chromium", .serialized)
struct RenderChromiumTests {
    static let times = ["0", "0.5", "1.2", "2.4"]

    @Test("the stage matches anim's PNG frames", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func stageMatchesFrames() throws {
        try ChromiumPixels.expectPlayerMatchesFrames(PictureFixtures.scene, times: Self.times, name: "scene", scratch: "chromium")
    }

    @Test("the page runs without console errors", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func noConsoleErrors() throws {
        let dir = try ScratchDirectory("chromium-console")
        defer { dir.remove() }
        let html = dir.path("demo.html")
        let r = try runAnim(["render", "Examples/demo.anim", "-o", html])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!page.contains("http://") || !page.contains("src=\"http"), "the page must not load anything from the network")
        for fragment in ["", "#t=1.3", "#t=99&shot"] {
            let dom = try Consumers.run(Consumers.chromium!, [
                "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                "--virtual-time-budget=1500", "--dump-dom", "file://\(html)\(fragment)",
            ])
            let console = dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
            #expect(console.isEmpty, "console output for \(fragment): \(console.joined(separator: "\n"))")
            #expect(dom.stdout.contains("data-ready="), "the player script did not finish for '\(fragment)'")
            #expect(!dom.stdout.contains("data-errors="), "errors for '\(fragment)': \(dom.stdout.prefix(300))")
        }
    }

    /// Per-axis tweens (Grammar.md §6.3): a component tween taking one component of a running
    /// whole-point tween, two component tweens at once, a spring on one component of the scale.
    static let perAxis = """
        stage 320 x 240
        rect sq center (20, 20) size (30, 20) color steelblue
        circle c center (300, 220) radius 12 color orange
        animate 2 ease linear < sq.center = (300, 220) >
        at 0.3 < animate 1 ease ease-out < sq.center.x = 60 > >
        animate 1.5 ease ease-in < c.center.x = 40 >
        animate 2.5 ease linear < c.center.y = 30 >
        spring duration 0.8 bounce 0.4 < sq.scale.y = 2.5 >
        """

    @Test("per-axis tweens: the player and the SVG draw the combined point as the PNG frames do",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func perAxisAgrees() throws {
        let dir = try ScratchDirectory("chromium-axis")
        defer { dir.remove() }
        let source = dir.path("axis.anim")
        try Self.perAxis.write(toFile: source, atomically: true, encoding: .utf8)
        // The combined point at 0.8 s, from the interpreter: x from its own tween, y from the whole one.
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput())
            .timeline(name: "axis.anim", bytes: Array(Self.perAxis.utf8)))
        let sq = try #require(t.shapes.firstIndex { $0.name == "sq" })
        guard case .point(let at08)? = t.value(ShapeID(sq), BuiltinProperty.center.id, at: Time(ticks: 800_000_000)) else {
            Issue.record("no center at 0.8 s")
            return
        }
        // y: the whole-point tween, 20 + 200 × 0.4; x: the component tween, from 62 at 0.3 s toward 60.
        #expect(at08.y == 100)
        #expect(at08.x >= 60 && at08.x <= 62, "\(at08)")
        let still = dir.path("still-0.8.png")
        #expect(try runAnim(["render", source, "-o", still, "--at", "0.8"]).exitCode == 0)
        let png08 = try PNGFile.read(still)
        func red(_ x: Int, _ y: Int) -> Float { png08.pixels[(y * png08.width + x) * 4] }
        // Drawn where the combined point is (steelblue, r = 70), not where the whole tween alone would be (x = 132).
        #expect(abs(red(Int(at08.x.rounded()), 100) - 70 / 255) < 0.02)
        #expect(red(132, 100) > 0.98)
        let times = ["0.4", "0.8", "1.6"]
        try ChromiumPixels.expectPlayerMatchesFrames(source, times: times, name: "axis", scratch: "chromium-axis-html")
        try ChromiumPixels.expectSVGMatchesFrames(source, times: times, name: "axis", scratch: "chromium-axis-svg")
    }

    @Test("the animated SVG plays on its own", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svgPlays() throws {
        try ChromiumPixels.expectSVGMatchesFrames(PictureFixtures.scene, times: ["0.5", "1.2", "2.4"], name: "scene", scratch: "chromium-svg")
    }
}

/// The HTML player's controls and URL fragment, driven in headless Chromium over the DevTools
/// protocol (ChromiumDriver): real key presses, the page's state read back, its console watched.
@Suite("HTML player controls in headless Chromium", .serialized)
struct PlayerControlTests {
    /// A run that ends at 2.579 s, off the 60 fps grid, with a print at its last instant.
    static let script = """
        stage 200 x 100
        rect box center (20, 50) size (20, 20) color red
        text label center (100, 20) text "hi" font 12 color black
        animate 2.579 ease linear < box.center = (180, 50) > then < print "the end" >
        """

    /// Renders the script to a player page and opens it at `fragment`.
    static func open(_ fragment: String, in dir: ScratchDirectory, _ browser: ChromiumDriver) throws {
        let source = dir.path("run.anim"), html = dir.path("run.html")
        if !FileManager.default.fileExists(atPath: html) {
            try script.write(toFile: source, atomically: true, encoding: .utf8)
            let r = try runAnim(["render", source, "-o", html])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        }
        try browser.open("file://\(html)\(fragment)")
        #expect(try browser.string("document.documentElement.getAttribute('data-ready')") != "", "the player did not start")
    }

    static let frame = "document.getElementById('scrub').value"
    static let readout = "document.getElementById('time').textContent"

    @Test("← and → step one frame, wherever the focus is", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func arrowKeys() throws {
        let dir = try ScratchDirectory("player-keys")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0.5", in: dir, browser)
        #expect(try browser.string(Self.frame) == "30")
        for focus in ["document.getElementById('scrub')", "document.body", "document.getElementById('next')"] {
            _ = try browser.evaluate("\(focus).focus(), document.activeElement.id || document.activeElement.tagName")
            try browser.press("ArrowRight")
            #expect(try browser.string(Self.frame) == "31", "→ with \(focus) focused")
            try browser.press("ArrowLeft")
            #expect(try browser.string(Self.frame) == "30", "← with \(focus) focused")
        }
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("space toggles play once, on a focused button or checkbox too", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func spaceKey() throws {
        let dir = try ScratchDirectory("player-space")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=1", in: dir, browser)
        let playing = "document.getElementById('play').classList.contains('playing')"
        var expected = false
        for focus in ["document.body", "document.getElementById('play')", "document.getElementById('loop')"] {
            _ = try browser.evaluate("\(focus).focus(), 0")
            try browser.press(" ")
            expected.toggle()
            #expect(try browser.evaluate(playing) as? Bool == expected, "space with \(focus) focused")
        }
        #expect(try browser.evaluate("document.getElementById('loop').checked") as? Bool == true, "space must not untick loop")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("the buttons' icons are SVG, not font glyphs", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func icons() throws {
        let dir = try ScratchDirectory("player-icons")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0", in: dir, browser)
        for id in ["play", "prev", "next"] {
            #expect(try browser.string("document.getElementById('\(id)').textContent.trim()") == "", "\(id) has text")
            #expect(try browser.evaluate("document.getElementById('\(id)').querySelectorAll('svg path').length") as? Int ?? 0 >= 1,
                    "\(id) has no SVG icon")
        }
        func shown(_ icon: String) throws -> Bool {
            try browser.evaluate("getComputedStyle(document.querySelector('#play .icon-\(icon)')).display !== 'none'") as? Bool ?? false
        }
        #expect(try shown("play") && !shown("pause"), "paused: the play icon")
        _ = try browser.evaluate("document.getElementById('play').click(), 0")
        #expect(try shown("pause") && !shown("play"), "playing: the pause icon")
        // The icon is drawn: it has a size.
        #expect(try browser.evaluate("document.querySelector('#play .icon-pause').getBoundingClientRect().width") as? Double ?? 0 >= 12)
    }

    @Test("#t= reads seconds and units; anything else is reported, not thrown", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")),
          arguments: [("#t=1500ms", "1.500 s", false), ("#t=1.5s", "1.500 s", false), ("#t=1.5", "1.500 s", false),
                      ("#t=", "0.000 s", true), ("#t=abc", "0.000 s", true), ("#t=-1", "0.000 s", true), ("#t=99", "2.579 s", false)])
    func fragments(_ fragment: String, _ shows: String, _ reported: Bool) throws {
        let dir = try ScratchDirectory("player-hash")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open(fragment, in: dir, browser)
        let time = try browser.string(Self.readout)
        #expect(time == "\(shows) / 2.579 s", "\(fragment): \(time)")
        #expect(try browser.evaluate("document.getElementById('play').classList.contains('playing')") as? Bool == false, "\(fragment) opens paused")
        let note = try browser.string("document.getElementById('note').textContent")
        #expect(note.contains("not a time") == reported, "\(fragment): note '\(note)'")
        let transform = try browser.string("document.querySelector('#shapes g').getAttribute('transform')")
        #expect(transform.hasPrefix("translate(") && !transform.contains("NaN") && !transform.contains("undefined"), "\(fragment): \(transform)")
        #expect(try browser.string("document.documentElement.getAttribute('data-errors') || ''") == "", "\(fragment)")
        #expect(browser.console.isEmpty, "\(fragment): console \(browser.console)")
    }

    @Test("the last sample is the run's end, with its last print", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func end() throws {
        let dir = try ScratchDirectory("player-end")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=2.579", in: dir, browser)
        #expect(try browser.string(Self.readout) == "2.579 s / 2.579 s")
        #expect(try browser.string("document.getElementById('log').textContent") == "[2.579] the end")
        try browser.press("ArrowLeft")
        #expect(try browser.string(Self.readout) == "2.567 s / 2.579 s", "the frame before the end is on the 60 fps grid")
        #expect(try browser.string("document.getElementById('log').textContent") == "")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}

/// The player's samples as the page decodes them (TrackCode), read back from Chromium at every
/// sample through the slider: each drawn number is the interpreter's value at that sample,
/// rounded to the 1/1000 (opacity 1/10000) the page stores — exactly, for springs, a stagger,
/// a move to millions of pixels and a jump of 2.5 million in one frame, whose code in
/// thousandths passes 2³² (so a decoder using 32-bit bit operations would fail).
@Suite("HTML player samples in headless Chromium", .serialized)
struct PlayerSampleTests {
    static let script = """
        stage 400 x 200
        circle d[12] center (20 + 30 * i, 60) radius 6 color steelblue
        rect far center (0, 0) size (10, 10) color red
        stagger 0.02 for c in d < spring duration 0.6 bounce 0.4 < c.offset = (0, 60); c.scale = 1.5 > >
        animate 1 ease linear < far.center = (3000000, -2500000.25); far.alpha = 0.3; far.rotation = 720deg >
        at 0.5 < set far.offset = (2500000.125, -7) >
        rect ax center (10, 10) size (8, 8) color green
        animate 2 ease linear < ax.center = (300, 150) >
        at 0.4 < animate 1 ease ease-out < ax.center.x = 40 > >
        at 0.6 < spring duration 0.5 bounce 0.3 < ax.scale.y = 2 > >
        at 1.2 < animate 0.8 ease ease-in < ax.center = (100, 20) > >
        """

    /// For every sample: each shape's transform and opacity attributes, in paint order.
    static let readAll = """
        JSON.stringify((function () {
          var s = document.getElementById('scrub'), out = [];
          for (var k = 0; k <= parseInt(s.max, 10); k++) {
            s.value = k; s.dispatchEvent(new Event('input'));
            out.push(Array.prototype.map.call(document.querySelectorAll('#shapes > g'), function (g) {
              return [g.getAttribute('transform'), g.getAttribute('opacity')];
            }));
          }
          return out;
        })())
        """

    @Test("every drawn number is the interpreter's, to the stored precision",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func samples() throws {
        let dir = try ScratchDirectory("player-samples")
        defer { dir.remove() }
        let source = dir.path("run.anim"), html = dir.path("run.html")
        try Self.script.write(toFile: source, atomically: true, encoding: .utf8)
        let r = try runAnim(["render", source, "-o", html])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let t = try #require(Session(options: SessionOptions(), output: CapturedOutput())
            .timeline(name: "run.anim", bytes: Array(Self.script.utf8)))
        // The samples: the 60 fps frames before the end, then the end.
        let grid = FrameGrid(fps: 60)
        let upper = t.frameRange(on: grid).upperBound
        let stages = Array(t.frames(on: grid, 0...(upper - 1))) + [t.frame(at: t.end)]
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(html)#t=0")
        let drawn = try #require(try JSONSerialization.jsonObject(with: Data(browser.string(Self.readAll).utf8)) as? [[[String]]])
        #expect(drawn.count == stages.count)
        func q(_ x: Double, _ unit: Double = 1000) -> Double { (x * unit).rounded() / unit }
        var checked = 0
        for (k, (page, stage)) in zip(drawn, stages).enumerated() {
            #expect(page.count == stage.shapes.count)
            for (g, s) in zip(page, stage.shapes) {
                let numbers = g[0].split(whereSeparator: { "() ".contains($0) }).compactMap { Double($0) }
                let want = [q(s.position.x), q(s.position.y), q(s.rotation), q(s.scale.x), q(s.scale.y)]
                #expect(numbers == want, "sample \(k), \(t.name(of: s.id)): \(g[0])")
                #expect(Double(g[1]) == q(s.opacity, 10_000), "sample \(k), \(t.name(of: s.id)) opacity \(g[1])")
                checked += 1
            }
        }
        #expect(checked > 700)
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}

/// The timeline strip's labels measured in headless Chromium, with its own fonts: no two
/// labels may overlap, and each must fit the box it was laid out in (the width estimate is an
/// upper bound, so nothing is cut by the clip that guards it).
@Suite("Timeline strip labels in headless Chromium", .serialized)
struct StripLabelTests {
    /// Crowded prints: close together, wide letters, one that must read leftwards at the end
    /// (the reverse makes the run 3 s long).
    static let script = """
        rect a center (0, 0)
        rect b center (0, 0)
        animate 1 < a.center = (100, 0) > then animate 0.5 < b.center = (50, 50); b.alpha = 0.5 > as go
        at 0.1 < print "the first message is rather long" >
        at 0.12 < print "second one" >
        at 0.13 < print "third" >
        at 0.14 < print "fourth" >
        at 0.5 < print "WWWWWWWWWWWWWWWW" >
        at 0.8 < print "MMMM right after" >
        at 2.5 < print "near the end of the run, a long one" >
        at 3 < print "the very end, read leftwards" >
        at 3 < print "and one more" >
        at 1.5 < reverse go >
        """

    /// Every label's visible box: its text's box cut to the viewport that clips it.
    static let measure = """
        JSON.stringify(Array.prototype.map.call(document.querySelectorAll('g.messages text, g.lane text'), function (t) {
          var b = t.getBoundingClientRect(), v = t.parentNode.tagName === 'svg' ? t.parentNode.getBoundingClientRect() : b;
          return { text: t.textContent, x0: Math.max(b.left, v.left), x1: Math.min(b.right, v.right), y0: Math.max(b.top, v.top),
                   y1: Math.min(b.bottom, v.bottom), cut: b.width - v.width };
        }))
        """

    @Test("no two labels overlap, and none is cut", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")),
          arguments: [("timeline", 760), ("html", 640)])
    func labels(_ output: String, _ width: Int) throws {
        let dir = try ScratchDirectory("strip-labels")
        defer { dir.remove() }
        let source = dir.path("crowd.anim")
        try Self.script.write(toFile: source, atomically: true, encoding: .utf8)
        let file = dir.path(output == "html" ? "crowd.html" : "crowd.svg")
        let r = try runAnim(output == "html" ? ["render", source, "-o", file] : ["timeline", source, "-o", file])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try browser.open("file://\(file)\(output == "html" ? "#t=0" : "")")
        let json = try browser.string(Self.measure)
        let boxes = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(boxes.count >= 10, "labels found: \(boxes.count)")
        func d(_ b: [String: Any], _ k: String) -> Double { b[k] as? Double ?? Double(b[k] as? Int ?? 0) }
        for b in boxes where d(b, "cut") > 0.5 {
            Issue.record("'\(b["text"] ?? "")' is cut by \(d(b, "cut")) px: the width estimate was too small")
        }
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                let w = min(d(a, "x1"), d(b, "x1")) - max(d(a, "x0"), d(b, "x0"))
                let h = min(d(a, "y1"), d(b, "y1")) - max(d(a, "y0"), d(b, "y0"))
                if w > 0.5 && h > 0.5 { Issue.record("'\(a["text"] ?? "")' and '\(b["text"] ?? "")' overlap by \(w) × \(h) px") }
            }
        }
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}
