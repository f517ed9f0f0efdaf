// The player's tools checked in headless Chromium with trusted input (ChromiumDriver): in/out
// markers looping a range, dragging the playhead on the timeline, clicking a bar, the keys,
// zoom by keys and by a pinch, the named steps, hover linking lanes and shapes, each tween's
// curve and delay, the PNG snapshot, the state in the URL fragment (malformed values ignored,
// never an exception), the light and dark themes, and the layout on a phone and a large screen.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("HTML player tools in headless Chromium", .serialized)
struct PlayerToolTests {
    /// 3 s long: `slide` 0–1 s (linear), `drop` 1.25–1.75 s after a 0.25 s delay, a spring on
    /// the square's rotation, and a print at 1 s.
    static let script = """
        stage 320 x 200
        rect sq center (40, 100) size (40, 40) color steelblue
        circle dot center (160, 40) radius 12 color tomato
        < animate 1 ease linear < sq.center = (280, 100) > as slide > then < print "slid" >
        after slide < animate 0.5 delay 0.25 ease back-out < dot.center = (160, 160) > as drop >
        animate 3 ease linear < sq.alpha = 0.5 >
        """

    /// Renders the script once per directory and opens it at `fragment`.
    static func open(_ fragment: String, in dir: ScratchDirectory, _ browser: ChromiumDriver) throws {
        let source = dir.path("tools.anim"), html = dir.path("tools.html")
        if !FileManager.default.fileExists(atPath: html) {
            try script.write(toFile: source, atomically: true, encoding: .utf8)
            let r = try runAnim(["render", source, "-o", html])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        }
        try browser.open("file://\(html)\(fragment)")
        #expect(try browser.string("document.documentElement.getAttribute('data-ready')") != "", "the player did not start")
    }

    static func number(_ browser: ChromiumDriver, _ expression: String) throws -> Double {
        let v = try browser.evaluate(expression)
        return v as? Double ?? Double(v as? Int ?? -1)
    }

    /// The centre of an element's box in the viewport.
    static func centre(_ browser: ChromiumDriver, _ selector: String) throws -> (Double, Double) {
        let json = try browser.string("JSON.stringify((function (b) { return [b.left + b.width / 2, b.top + b.height / 2]; })(document.querySelector(\"\(selector)\").getBoundingClientRect()))")
        let xy = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Double])
        return (xy[0], xy[1])
    }

    @Test("I and O set a range that playing loops, kept in the URL; X clears it",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func markers() throws {
        let dir = try ScratchDirectory("player-markers")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0.5", in: dir, browser)
        try browser.press("i")
        _ = try browser.evaluate("animPlayer.seek(1), 0")
        try browser.press("o")
        #expect(try browser.string("JSON.stringify(animPlayer.range)") == "{\"a\":0.5,\"b\":1}")
        #expect(try browser.wait(until: "location.hash.indexOf('in=0.5&out=1') >= 0"), "the fragment was not written")
        #expect(try browser.evaluate("!!document.getElementById('marker-in') && !!document.getElementById('marker-out')") as? Bool == true)
        // Playing from the out marker starts at the in marker and never leaves the range.
        try browser.press(" ")
        var times: [Double] = []
        for _ in 0..<40 {
            times.append(try Self.number(browser, "animPlayer.time"))
            usleep(40_000)
        }
        #expect(times.allSatisfy { $0 >= 0.5 - 1e-9 && $0 <= 1 + 1e-9 }, "times \(times)")
        #expect(zip(times, times.dropFirst()).contains { $1 < $0 }, "it looped: \(times)")
        try browser.press(" ")
        // Home and End go to the range's ends.
        try browser.press("End")
        #expect(try Self.number(browser, "animPlayer.time") == 1)
        try browser.press("Home")
        #expect(try Self.number(browser, "animPlayer.time") == 0.5)
        try browser.press("x")
        #expect(try browser.string("JSON.stringify(animPlayer.range)") == "{\"a\":null,\"b\":null}")
        try browser.press("End")
        #expect(try Self.number(browser, "animPlayer.time") == 3)
        #expect(try browser.wait(until: "location.hash === '#t=3'"), "the fragment was not written")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("dragging on the timeline moves the playhead; a bar jumps to its start; a step in the list to its",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func drag() throws {
        let dir = try ScratchDirectory("player-drag")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0", in: dir, browser)
        let top = try Self.number(browser, "document.getElementById('ruler').getBoundingClientRect().top")
        let left = try Self.number(browser, "document.getElementById('ruler').getBoundingClientRect().left")
        func x(_ t: Double) throws -> Double { left + (try Self.number(browser, "animPlayer.x(\(t))")) }
        try browser.mouse("mousePressed", try x(0.5), top + 40)
        #expect(abs(try Self.number(browser, "animPlayer.time") - 0.5) < 0.02)
        try browser.mouse("mouseMoved", try x(1.5), top + 40, held: true)
        try browser.mouse("mouseMoved", try x(2.25), top + 300, held: true)
        try browser.mouse("mouseReleased", try x(2.25), top + 300)
        #expect(abs(try Self.number(browser, "animPlayer.time") - 2.25) < 0.02, "dragged off the timeline, the drag goes on")
        #expect(try browser.string("document.getElementById('time').textContent").hasPrefix("2.2"))
        // The slider sits on the same scale: its value is the frame shown.
        #expect(try browser.string("document.getElementById('scrub').value") == browser.string("String(animPlayer.frame)"))
        // A press on the dot's bar (the one with a delay) jumps to its start, 1.25 s.
        let drop = try browser.string("String(animPlayer.data.bars.findIndex(function (b) { return b[4] !== null; }))")
        let (bx, by) = try Self.centre(browser, ".bar[data-bar='\(drop)'] rect")
        try browser.mouse("mousePressed", bx, by)
        try browser.mouse("mouseReleased", bx, by)
        #expect(try Self.number(browser, "animPlayer.time") == 1.25)
        // The list of named steps.
        #expect(try browser.string("Array.prototype.map.call(document.querySelectorAll('#steps button span:first-child'), function (s) { return s.textContent; }).join(',')") == "slide,drop")
        _ = try browser.evaluate("document.querySelector('#steps button[data-step=\"1\"]').click(), 0")
        #expect(try Self.number(browser, "animPlayer.time") == 1)
        #expect(try browser.evaluate("document.querySelector('#steps button[data-step=\"1\"]').classList.contains('current')") as? Bool == true)
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("Shift-arrows step 10 frames; + and − zoom around the playhead, a pinch around the pointer, 0 fits",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func keysAndZoom() throws {
        let dir = try ScratchDirectory("player-zoom")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=1", in: dir, browser)
        #expect(try browser.string("String(animPlayer.frame)") == "60")
        try browser.press("ArrowRight", shift: true)
        #expect(try browser.string("String(animPlayer.frame)") == "70")
        try browser.press("ArrowLeft", shift: true)
        try browser.press("ArrowLeft", shift: true)
        #expect(try browser.string("String(animPlayer.frame)") == "50")
        #expect(try browser.string("document.getElementById('frameno').textContent") == "frame 50 / 180 · 60 fps")
        try browser.press("+")
        let zoomed = try browser.string("JSON.stringify(animPlayer.view)")
        let view = try #require(try JSONSerialization.jsonObject(with: Data(zoomed.utf8)) as? [String: Any])
        let a = (view["a"] as? Double) ?? 0, b = (view["b"] as? Double) ?? 0
        #expect(abs((b - a) - 1.5) < 1e-9, "half of 3 s: \(zoomed)")
        #expect(a < 50.0 / 60 && 50.0 / 60 < b, "around the playhead: \(zoomed)")
        #expect(try browser.wait(until: "location.hash.indexOf('zoom=') >= 0"))
        // The slider covers what the timeline shows.
        #expect(try browser.string("document.getElementById('scrub').min") != "0")
        try browser.press("-")
        try browser.press("-")
        #expect(try browser.evaluate("animPlayer.view.fit") as? Bool == true, "zoomed out past the whole run: fit")
        // A pinch (Ctrl + wheel) over the lanes zooms in around the pointer.
        let top = try Self.number(browser, "document.getElementById('strip').getBoundingClientRect().top")
        let left = try Self.number(browser, "document.getElementById('ruler').getBoundingClientRect().left")
        // The pointer at a whole pixel (as mouse events are), near 2 s; the time under it.
        let px = (left + (try Self.number(browser, "animPlayer.x(2)"))).rounded()
        let x0 = try Self.number(browser, "animPlayer.x(0)"), x3 = try Self.number(browser, "animPlayer.x(3)")
        let under = (px - left - x0) / (x3 - x0) * 3
        try browser.mouse("mouseWheel", px, top + 10, deltaY: -100, ctrl: true)
        let pinched = try #require(try JSONSerialization.jsonObject(with: Data(browser.string("JSON.stringify(animPlayer.view)").utf8)) as? [String: Any])
        let pa = (pinched["a"] as? Double) ?? (pinched["a"] as? Int).map(Double.init) ?? -1
        let pb = (pinched["b"] as? Double) ?? (pinched["b"] as? Int).map(Double.init) ?? -1
        #expect(pb - pa < 2.9 && pa < 2 && 2 < pb, "pinched: \(pinched)")
        #expect(abs((try Self.number(browser, "animPlayer.x(\(under))")) + left - px) < 0.01, "the time under the pointer stays under it")
        try browser.press("0")
        #expect(try browser.evaluate("animPlayer.view.fit") as? Bool == true)
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("the fragment holds time, range, speed and zoom, survives a reload, and malformed values are ignored",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")),
          arguments: [
              ("#t=1.5&in=0.5&out=2&speed=0.25&zoom=0.5,2.5", "1.5|0.5|2|0.25|0.5,2.5", false),
              ("#t=1&in=abc&out=9&speed=3&zoom=a,b", "1|null|null|1|fit", true),
              ("#in=2&out=1", "|null|null|1|fit", true),
              ("#zoom=2,1&speed=NaN", "|null|null|1|fit", true),
              ("#t=1e999&zoom=1", "0|null|null|1|fit", true),
              ("#=&&=&t", "0|null|null|1|fit", true),
              ("#t=%E0%A4%A&speed=%", "0|null|null|1|fit", true),
              ("#speed=0.1&in=1", "|1|null|0.1|fit", false),
              ("#t=0.5&shot", "0.5|null|null|1|fit", false),
          ])
    func hashState(_ fragment: String, _ want: String, _ reported: Bool) throws {
        let dir = try ScratchDirectory("player-state")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open(fragment, in: dir, browser)
        let state = """
            [animPlayer.playing ? '' : String(+animPlayer.time.toFixed(3)), String(animPlayer.range.a), String(animPlayer.range.b),
             document.getElementById('speed').value, animPlayer.view.fit ? 'fit' : animPlayer.view.a + ',' + animPlayer.view.b].join('|')
            """
        #expect(try browser.string(state) == want, "\(fragment)")
        #expect(try browser.string("document.getElementById('note').textContent").isEmpty != reported, "\(fragment)")
        #expect(try browser.string("document.documentElement.getAttribute('data-errors') || ''") == "", "\(fragment)")
        #expect(browser.console.isEmpty, "\(fragment): console \(browser.console)")
        guard !reported, fragment.contains("t=") else { return }
        // Moved, then reopened from the fragment it wrote: the same state.
        _ = try browser.evaluate("animPlayer.seek(1.75), 0")
        #expect(try browser.wait(until: "location.hash.indexOf('t=1.75&') === 1"), "the fragment was not written")
        let written = try browser.string("location.hash")
        #expect(written.hasSuffix("&shot") == fragment.hasSuffix("&shot"), "a #shot stays one: \(written)")
        try browser.open("file://\(dir.path("tools.html"))\(written)")
        #expect(try browser.string(state) == "1.75" + want[want.firstIndex(of: "|")!...], "reopened at \(written)")
    }

    @Test("hovering a lane lights its shape on stage, and hovering a shape lights its lanes",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func hover() throws {
        let dir = try ScratchDirectory("player-hover")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0", in: dir, browser)
        let dotLane = try browser.string("String(animPlayer.data.lanes.findIndex(function (l) { return l.label === 'dot'; }))")
        let (lx, ly) = try Self.centre(browser, ".lane[data-lane='\(dotLane)'] .lane-bg")
        try browser.mouse("mouseMoved", lx, ly)
        #expect(try browser.string("Array.prototype.map.call(document.querySelectorAll('#shapes > g.hl'), function (g) { return g.getAttribute('data-shape'); }).join(',')") == "1")
        let (sx, sy) = try Self.centre(browser, "#shapes > g[data-shape='0'] rect")
        try browser.mouse("mouseMoved", sx, sy)
        let lit = try browser.string("Array.prototype.map.call(document.querySelectorAll('.lane-bg.hl'), function (r) { return r.parentNode.getAttribute('data-lane'); }).join(',')")
        let want = try browser.string("animPlayer.data.lanes.map(function (l, i) { return l.shapes.indexOf(0) >= 0 ? i : -1; }).filter(function (i) { return i >= 0; }).join(',')")
        #expect(lit == want && !lit.isEmpty, "lanes lit \(lit), lanes of sq \(want)")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("each tween's bar draws its curve from the samples, and a delay is drawn before its bar",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func curvesAndDelays() throws {
        let dir = try ScratchDirectory("player-curves")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0", in: dir, browser)
        // The linear slide: every point of its curve on one straight line.
        let points = try browser.string("document.querySelector('.lane[data-lane=\"0\"] .bar polyline').getAttribute('points')")
        let xy = points.split(separator: " ").map { $0.split(separator: ",").compactMap { Double($0) } }
        #expect(xy.count > 10)
        if let first = xy.first, let last = xy.last, first.count == 2, last.count == 2 {
            for p in xy where p.count == 2 {
                let expected = first[1] + (p[0] - first[0]) / (last[0] - first[0]) * (last[1] - first[1])
                #expect(abs(p[1] - expected) < 0.15, "linear curve off its line at \(p)")
            }
            #expect(first[1] > last[1], "it rises")
        }
        // back-out overshoots: a point of the drop's curve above its end.
        let drop = try browser.string("(function () { var b = animPlayer.data.bars.findIndex(function (b) { return b[4] !== null; }); return b + '|' + document.querySelector('.bar[data-bar=\"' + b + '\"] polyline').getAttribute('points'); })()")
        let parts = drop.split(separator: "|")
        let ys = parts.count == 2 ? parts[1].split(separator: " ").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } } : []
        #expect(ys.count > 5 && ys.min()! < ys.last! - 0.5, "back-out overshoots: \(ys)")
        // The delay: a dashed line from the step's start (1 s) to the bar's (1.25 s).
        let delay = try browser.string("(function () { var l = document.querySelector('.bar[data-bar=\"\(parts.first ?? "")\"] line.delay'); return l.getAttribute('x1') + ',' + l.getAttribute('x2'); })()")
        let want = try browser.string("(animPlayer.x(1) - 150) + ',' + (animPlayer.x(1.25) - 150)")
        let got = delay.split(separator: ",").compactMap { Double($0) }, w = want.split(separator: ",").compactMap { Double($0) }
        #expect(got.count == 2 && w.count == 2 && abs(got[0] - w[0]) < 0.01 && abs(got[1] - w[1]) < 0.01, "delay \(delay) vs \(want)")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("the snapshot is the stage as PNG at the current time",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func snapshot() throws {
        let dir = try ScratchDirectory("player-snapshot")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=1", in: dir, browser)
        // The square is at (280, 100) at 1 s, at alpha 1 - 0.5/3 over white.
        _ = try browser.evaluate("""
            animPlayer.snapshot().then(function (url) {
              var img = new Image();
              img.onload = function () {
                var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
                var g = c.getContext('2d', { willReadFrequently: true }); g.drawImage(img, 0, 0);
                window.shot = [url.slice(0, 22), img.width, img.height].concat(Array.from(g.getImageData(280, 100, 1, 1).data),
                                                                              Array.from(g.getImageData(40, 100, 1, 1).data)).join(',');
              };
              img.src = url;
            }), 0
            """)
        #expect(try browser.wait(until: "typeof window.shot === 'string'"))
        let shot = try browser.string("window.shot").split(separator: ",").map(String.init)
        #expect(shot.count == 11 && shot[0] == "data:image/png;base64" && shot[1] == "320" && shot[2] == "200", "\(shot)")
        if shot.count == 11 {
            // steelblue (70, 130, 180) at alpha 0.8333 over white; the old place is white.
            let a = 1 - 0.5 / 3.0
            let want = [70.0, 130, 180].map { $0 * a + 255 * (1 - a) }
            for c in 0..<3 { #expect(abs(Double(shot[3 + c])! - want[c]) <= 2, "channel \(c): \(shot)") }
            #expect(Array(shot[7...9]) == ["255", "255", "255"], "\(shot)")
        }
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("light and dark themes follow prefers-color-scheme",
          .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func themes() throws {
        let dir = try ScratchDirectory("player-theme")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0", in: dir, browser)
        func colours() throws -> String {
            try browser.string("[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color, getComputedStyle(document.getElementById('timeline')).backgroundColor].join(' | ')")
        }
        try browser.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "light"]]])
        let light = try colours()
        try browser.send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": "dark"]]])
        let dark = try colours()
        #expect(light == "rgb(238, 240, 243) | rgb(29, 33, 39) | rgb(255, 255, 255)", Comment(rawValue: light))
        #expect(dark == "rgb(15, 17, 21) | rgb(231, 233, 236) | rgb(24, 27, 33)", Comment(rawValue: dark))
        // The stage keeps the script's colours in both.
        #expect(try browser.string("document.getElementById('stage-bg').getAttribute('fill')") == "#ffffff")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }

    @Test("the layout fits a phone, a laptop and a large monitor", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")),
          arguments: [(390, 844), (1280, 800), (2560, 1440)])
    func layout(_ width: Int, _ height: Int) throws {
        let dir = try ScratchDirectory("player-layout")
        defer { dir.remove() }
        let browser = try ChromiumDriver(Consumers.chromium!)
        defer { browser.quit() }
        try Self.open("#t=0.5", in: dir, browser)
        try browser.send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500])
        // The page redraws its timeline on the resize, in the next animation frame.
        #expect(try browser.wait(until: "window.innerWidth === \(width)"))
        usleep(200_000)
        #expect(try Self.number(browser, "document.documentElement.scrollWidth") <= Double(width), "no sideways scrolling at \(width)")
        let stage = try browser.string("JSON.stringify(document.getElementById('stage').getBoundingClientRect())")
        let box = try #require(try JSONSerialization.jsonObject(with: Data(stage.utf8)) as? [String: Double])
        #expect(box["left"]! >= 0 && box["right"]! <= Double(width) && box["width"]! > 100, "the stage shows at \(width): \(stage)")
        // The stage is centred in its box.
        let holder = try #require(try JSONSerialization.jsonObject(with: Data(browser.string("JSON.stringify(document.getElementById('stage-box').getBoundingClientRect())").utf8)) as? [String: Double])
        #expect(abs((box["left"]! + box["right"]!) / 2 - (holder["left"]! + holder["right"]!) / 2) < 1.5)
        // The timeline's time scale and the slider's are one.
        let x1 = try Self.number(browser, "animPlayer.x(animPlayer.data.end)")
        let scrub = try browser.string("JSON.stringify([document.getElementById('scrub').offsetLeft, document.getElementById('scrub').offsetWidth])")
        let sw = try #require(try JSONSerialization.jsonObject(with: Data(scrub.utf8)) as? [Double])
        #expect(abs(sw[0] + 8 - (try Self.number(browser, "animPlayer.x(0)"))) < 1 && abs(sw[0] + sw[1] - 8 - x1) < 1, "\(scrub) vs \(x1)")
        #expect(browser.console.isEmpty, "console: \(browser.console)")
    }
}
