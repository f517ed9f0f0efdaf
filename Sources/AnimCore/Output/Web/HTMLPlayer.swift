// HTMLPlayer: `anim render x.anim -o x.html` — one self-contained page (no network, no other
// files) that plays a run, and the page `anim serve` serves (LivePage adds its live script):
// the stage as SVG, transport controls, a timeline with one lane per tween drawn under one time
// scale with the slider, in/out markers, zoom and pan, the named steps, the printed messages.
// The page holds the run baked at the frame rate (BakedFrames) and shows each frame's samples
// as they are: the values on screen are the interpreter's own, with no easing re-implemented in
// JavaScript (the curve drawn in a tween's bar is read from those same samples).
//
// The page's state is in its URL fragment (HTMLPlayerScript reads and writes it): `#t=1.5` (or
// `1.5s`, `1500ms`) opens paused at that time, `in=` and `out=` the loop range, `speed=`,
// `zoom=a,b` the visible seconds; a value that is not one is reported on the page and ignored.
// `#shot` shows only the stage at the top-left corner (the test suite screenshots it this way).
// The icons are SVG (fonts on a stock desktop lack glyphs such as ⏸).
//
// The data, in `<script type="application/json" id="anim-data">` (format 3):
//   {"format": 3, "fps": F, "times": [seconds of every sample], "end": seconds,
//    "stage": {"w": px, "h": px, "bg": "#rrggbb", "a": alpha},
//    "shapes": [{"name": N, "kind": "rect"|"circle"|"text"|"line"|"ellipse"|"polygon"|"polyline"|"path"|"image",
//                "t": {"x", "y", "w", "h", "rot", "sx", "sy", "op", "rad", "z", "r", "g", "b", "font",
//                      and, left out while 0 throughout, "ax", "ay" (the anchor's shift), "shx",
//                      "shy", "shblur", "shr", "shg", "shb", "sha" (the drop shadow), "fa", "sr",
//                      "sg", "sb", "sa", "sw" (fill alpha and stroke of outlined shapes)},
//                "text": [one string, or one per sample],
//                "tf": text not in the stage's font, centred: ["WEIGHT ANCHOR[ FAMILIES]", one or
//                      one per sample] (BakedFrames.textStyle: font-weight, text-anchor, font-family),
//                "img": an image's PNG as a data URI (images only),
//                outlined shapes only: "d", "sd", "ls", "gr" (the fill's gradient, "" for a
//                colour: BakedFrames.Geometry.gr; a text's followed by "|cx cy hw hh", the box it
//                spans), "sg" (the stroke's gradient, left out when it has none): [one string, or
//                one per sample],
//                text with glyphs (`title.glyphs`) only: "gl": [{"t": {"x", "y", "rot", "sx", "sy",
//                      "op", "r", "g", "b"}, "d": [one string, or one per sample], "gr": [the
//                      text's gradient over its box in the glyph's coordinates, "" where the glyph
//                      has its own colour; left out when never]}], one per
//                      laid-out glyph (BakedFrames.Glyph), drawn instead of the text's <text>}],
//    "prints": [[seconds, text]],
//    "lanes": [{"label": "square, card[0]", "shapes": [shape indices]}],
//    "bars": [[lane, kind, begin, end, delayed from (or null), label, tooltip, reversed (0/1),
//              [shape, attribute key, …]]],
//    "steps": [[name, start, end]]}
// A track in "t" is a number when the attribute never changes, else a string holding one
// sample per time: the samples in 1/1000 (opacity 1/10000) as second differences in Base64
// VLQ with runs (TrackCode.swift). The samples are the frames before the run's end and the
// end itself (BakedFrames). A bar's kind is "tween", "spring", "wait" or "action" (TimelineLanes);
// its shape-attribute pairs are the tracks it moved, from which the page draws its curve. The
// steps are the runs of the named chains (`as NAME`) in the order they started. Format 2 had the
// strip drawn as SVG by Swift; format 1 wrote every track as an array of decimals.

/// Writes the HTML player.
public enum HTMLPlayer {
    /// The page for a run, sampled at `fps`; `stepNames` are the script's step names (the
    /// session's `environment.stepNames`), for the list of named steps.
    public static func render(_ timeline: Timeline, fps: Int, title: String = "anim", stepNames: [String] = []) -> String {
        let (shell, data) = parts(timeline, fps: fps, title: title, stepNames: stepNames)
        return page(shell, data: data)
    }

    /// What the page is made of apart from its data: its title, the stage and the samples' count.
    public struct Shell: Sendable {
        var title: String
        var stageSize: Point
        var stageColor: Color
        var samples: Int
        /// Whether the page's script draws glyphed text glyph by glyph (`HTMLPlayerScript.withGlyphs`):
        /// when its data has such text, and always for `anim serve`'s pages, whose later scenes may.
        public var drawsGlyphs = false
    }

    /// The page's shell and its data (the JSON the page embeds): `page(shell, data: data)` is
    /// `render`'s page. `anim serve` keeps them apart, sending open pages the data alone.
    public static func parts(_ timeline: Timeline, fps: Int, title: String = "anim", stepNames: [String] = []) -> (Shell, String) {
        let baked = BakedFrames(timeline, fps: fps)
        let shell = Shell(title: title, stageSize: timeline.stageSize, stageColor: timeline.stageColor, samples: baked.times.count,
                          drawsGlyphs: baked.shapes.contains { !$0.glyphs.isEmpty })
        return (shell, data(baked, timeline: timeline, stepNames: stepNames))
    }

    /// The page for a shell and its data.
    public static func page(_ shell: Shell, data: String) -> String {
        let title = shell.title
        let stageW = shell.stageSize.x, stageH = shell.stageSize.y
        let bg = shell.stageColor
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <script>addEventListener('error', function (e) { var d = document.documentElement; d.setAttribute('data-errors', (d.getAttribute('data-errors') || '') + (e.message || 'error') + '; '); });</script>
        <title>\(xmlEscaped(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <style>
        \(css)
        </style>
        </head>
        <body>
        <div id="app">
        <header id="top"><span class="brand">\(icon("logo", "M2 12.5 6.5 3l3 6 2-3.5 2.5 7z"))anim</span><span id="title">\(xmlEscaped(title == "anim" ? "" : title.hasPrefix("anim — ") ? String(title.dropFirst(7)) : title))</span><span id="live"></span><span class="spacer"></span><button id="snap" title="Save the stage at this time as PNG" aria-label="Snapshot">\(icon("snap", "M5.5 3 6.6 1.5h2.8L10.5 3H14v10H2V3zM8 5.2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z"))<span>PNG</span></button></header>
        <div id="view">
        <div id="stage-box"><svg id="stage" xmlns="http://www.w3.org/2000/svg" width="\(n(stageW))" height="\(n(stageH))" viewBox="0 0 \(n(stageW)) \(n(stageH))" font-family="Helvetica, Arial, sans-serif"><rect id="stage-bg" width="\(n(stageW))" height="\(n(stageH))" fill="\(hexColor(bg.r, bg.g, bg.b))" fill-opacity="\(formatFixed(max(0, min(1, bg.a)), 4))"/><g id="shapes"></g></svg></div>
        <aside id="side"><h2>Steps</h2><ol id="steps"></ol><h2>Output</h2><pre id="log"></pre></aside>
        </div>
        <div id="controls">
        <div class="group"><button id="play" title="Play or pause (space)" aria-label="Play or pause">\(icon("play", "M4.5 2.5v11l9-5.5z"))\(icon("pause", "M4 2.5h3v11H4zM9 2.5h3v11H9z"))</button><button id="prev" title="Previous frame (←, Shift: 10 frames)" aria-label="Previous frame">\(icon("prev", "M2.5 3h2v10h-2zM13.5 3v10L6 8z"))</button><button id="next" title="Next frame (→, Shift: 10 frames)" aria-label="Next frame">\(icon("next", "M11.5 3h2v10h-2zM2.5 3v10L10 8z"))</button></div>
        <div id="readout"><span id="time">0.000 s</span><span id="frameno">frame 0</span></div>
        <div class="group"><button id="mark-in" title="Loop from here (I)" aria-label="In marker">\(icon("in", "M3 2h2v12H3zM6 3l7 5-7 5z"))</button><button id="mark-out" title="Loop to here (O)" aria-label="Out marker">\(icon("out", "M11 2h2v12h-2zM10 3 3 8l7 5z"))</button><button id="mark-clear" title="Clear the loop range (X)" aria-label="Clear the loop range">\(icon("clear", "M4.2 3 8 6.8 11.8 3 13 4.2 9.2 8l3.8 3.8-1.2 1.2L8 9.2 4.2 13 3 11.8 6.8 8 3 4.2z"))</button></div>
        <label class="field">speed <select id="speed"><option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option></select></label>
        <label class="field"><input id="loop" type="checkbox" checked> loop</label>
        <div class="group"><button id="zoom-out" title="Zoom out (−)" aria-label="Zoom out">\(icon("zoom-out", "M3 7h10v2H3z"))</button><button id="zoom-in" title="Zoom in (+)" aria-label="Zoom in">\(icon("zoom-in", "M7 3h2v4h4v2H9v4H7V9H3V7h4z"))</button><button id="zoom-fit" title="Fit the whole run (0)" aria-label="Fit">\(icon("fit", "M2 2h4v2H4v2H2zM10 2h4v4h-2V4h-2zM2 10h2v2h2v2H2zM12 10h2v4h-4v-2h2z"))</button></div>
        </div>
        <div id="timeline">
        <div id="ruler-box"><svg id="ruler" xmlns="http://www.w3.org/2000/svg" font-family="Helvetica, Arial, sans-serif"></svg><input id="scrub" type="range" min="0" max="\(shell.samples - 1)" step="1" value="0" aria-label="time"></div>
        <div id="lanes-box"><svg id="strip" xmlns="http://www.w3.org/2000/svg" font-family="Helvetica, Arial, sans-serif"></svg></div>
        </div>
        <p id="note" role="status"></p>
        </div>
        <script type="application/json" id="anim-data">\(data)</script>
        <script>
        \(shell.drawsGlyphs ? HTMLPlayerScript.withGlyphs : HTMLPlayerScript.source)
        </script>
        </body>
        </html>

        """
    }

    /// The baked run as JSON (the format is in the file header): frame rate, sample times,
    /// stage, shapes with their tracks, messages, the timeline's lanes and bars, named steps.
    /// Written into one byte buffer (ByteWriter), reserved for about the size it ends up:
    /// the tracks' codes take a digit or two a sample, a bar about 120 bytes.
    static func data(_ baked: BakedFrames, timeline: Timeline, stepNames: [String] = []) -> String {
        var samples = 0
        for s in baked.shapes { for t in s.tracks where t.count > 1 { samples += t.count } }
        var o = ByteWriter(capacity: 4096 + 12 * baked.times.count + 2 * samples + 256 * baked.shapes.count
                           + 128 * timeline.activities.count)
        o.put("{\"format\":3,\"fps\":")
        o.putInt(baked.fps)
        o.put(",\"times\":[")
        for (k, t) in baked.times.enumerated() {
            if k > 0 { o.put(UInt8(ascii: ",")) }
            o.putFixed(t.seconds, 9)
        }
        let bg = timeline.stageColor
        o.put("],\"end\":")
        o.putFixed(timeline.end.seconds, 9)
        o.put(",\"stage\":{\"w\":")
        o.putFixed(timeline.stageSize.x, 3)
        o.put(",\"h\":")
        o.putFixed(timeline.stageSize.y, 3)
        o.put(",\"bg\":\"")
        o.putText(hexColor(bg.r, bg.g, bg.b))
        o.put("\",\"a\":")
        o.putFixed(max(0, min(1, bg.a)), 4)
        o.put("},\"shapes\":[")
        for (i, s) in baked.shapes.enumerated() {
            if i > 0 { o.put(UInt8(ascii: ",")) }
            o.put("{\"name\":")
            o.putJSONString(s.name)
            o.put(",\"kind\":\"")
            o.putText(s.kind.rawValue)
            o.put("\",\"t\":{")
            for a in BakedFrames.Attribute.allCases {
                let track = s.tracks[a.rawValue]
                if a.omittedWhenZero && track.count == 1 && track[0] == 0 { continue }
                if a.rawValue > 0 { o.put(UInt8(ascii: ",")) }
                o.put(UInt8(ascii: "\""))
                o.put(a.staticKey)
                o.put("\":")
                let digits = a.digits
                if track.count == 1 {
                    o.putFixed(track[0], digits)
                } else {
                    o.put(UInt8(ascii: "\""))
                    TrackCode.append(track, scale: digits == 4 ? 10_000 : 1_000, to: &o)
                    o.put(UInt8(ascii: "\""))
                }
            }
            o.put("},\"text\":")
            putStrings(s.text, to: &o)
            // A text's font, when it is not the stage's, centred (BakedFrames.textStyle).
            if !s.textStyle.isEmpty {
                o.put(",\"tf\":")
                putStrings(s.textStyle, to: &o)
            }
            // An image's PNG as a data URI.
            if s.kind == .image {
                o.put(",\"img\":")
                o.putJSONString(s.image)
            }
            // An outlined shape's strings (BakedFrames.Geometry): path data, the stroke's cut
            // pieces, caps and joins.
            for g in BakedFrames.Geometry.allCases where !s.geometry.isEmpty {
                if g.omittedWhenEmpty && s.geometry[g.rawValue].allSatisfy(\.isEmpty) { continue }
                o.put(",\"")
                o.putText(g.key)
                o.put("\":")
                putStrings(s.geometry[g.rawValue], to: &o)
            }
            // A glyphed text's glyphs (BakedFrames.Glyph), each drawn as its own path.
            if !s.glyphs.isEmpty {
                o.put(",\"gl\":[")
                for (n, g) in s.glyphs.enumerated() {
                    if n > 0 { o.put(UInt8(ascii: ",")) }
                    o.put("{\"t\":{")
                    for a in BakedFrames.GlyphAttribute.allCases {
                        let track = g.tracks[a.rawValue]
                        if a.rawValue > 0 { o.put(UInt8(ascii: ",")) }
                        o.put(UInt8(ascii: "\""))
                        o.putText(a.key)
                        o.put("\":")
                        if track.count == 1 {
                            o.putFixed(track[0], a.digits)
                        } else {
                            o.put(UInt8(ascii: "\""))
                            TrackCode.append(track, scale: a.digits == 4 ? 10_000 : 1_000, to: &o)
                            o.put(UInt8(ascii: "\""))
                        }
                    }
                    o.put("},\"d\":")
                    putStrings(g.d, to: &o)
                    // Where it shows its text's gradient (BakedFrames.Glyph.gr).
                    if !g.gr.isEmpty {
                        o.put(",\"gr\":")
                        putStrings(g.gr, to: &o)
                    }
                    o.put(UInt8(ascii: "}"))
                }
                o.put(UInt8(ascii: "]"))
            }
            o.put(UInt8(ascii: "}"))
        }
        o.put("],\"prints\":[")
        for (k, p) in timeline.prints.enumerated() {
            if k > 0 { o.put(UInt8(ascii: ",")) }
            o.put(UInt8(ascii: "["))
            o.putFixed(p.time.seconds, 9)
            o.put(UInt8(ascii: ","))
            o.putJSONString(p.text)
            o.put(UInt8(ascii: "]"))
        }
        o.put("],")
        lanes(TimelineLanes(timeline), shapes: baked.shapes, to: &o)
        o.put(",\"steps\":[")
        for (k, step) in steps(timeline, names: stepNames).enumerated() {
            if k > 0 { o.put(UInt8(ascii: ",")) }
            o.put(UInt8(ascii: "["))
            o.putJSONString(step.name)
            o.put(UInt8(ascii: ","))
            o.putFixed(step.start.seconds, 9)
            o.put(UInt8(ascii: ","))
            o.putFixed(step.end.seconds, 9)
            o.put(UInt8(ascii: "]"))
        }
        o.put("]}")
        return o.string()
    }

    /// `[s₀,s₁,…]`: a list of JSON strings.
    static func putStrings(_ strings: [String], to o: inout ByteWriter) {
        o.put(UInt8(ascii: "["))
        for (k, s) in strings.enumerated() {
            if k > 0 { o.put(UInt8(ascii: ",")) }
            o.putJSONString(s)
        }
        o.put(UInt8(ascii: "]"))
    }

    /// The timeline's lanes and bars as the page draws them (`"lanes":[…],"bars":[…]`).
    /// Written straight into the bytes: a script of thousands of steps has as many bars, each
    /// with its tooltip and tracks. A property's shape and tracks are looked up once per shape
    /// and per property (through the bars' refs) and each lane's shapes kept in a short list.
    static func lanes(_ lanes: TimelineLanes, shapes: [BakedFrames.Shape], to o: inout ByteWriter) {
        var index: [Substring: Int] = [:]
        index.reserveCapacity(shapes.count)
        for (i, s) in shapes.enumerated() where index[Substring(s.name)] == nil { index[Substring(s.name)] = i }
        // The tracks a property moves, by its name (custom properties draw no tracks).
        let attributes: [Substring: [BakedFrames.Attribute]] = [
            "center": [.x, .y], "offset": [.x, .y], "size": [.w, .h], "rotation": [.rot], "scale": [.sx, .sy],
            "alpha": [.op], "color": [.r, .g, .b], "radius": [.rad], "z": [.z], "font": [.font],
            "anchor": [.ax, .ay], "shadow-offset": [.shx, .shy], "shadow-blur": [.shblur],
            "shadow-color": [.shr, .shg, .shb, .sha],
            "fill": [.r, .g, .b], "stroke": [.sr, .sg, .sb], "stroke-width": [.sw],
        ]
        // A property's text is `shape.property`: its shape's index in `shapes` (nil: none) and
        // the tracks it moves, found from the text, or once per ShapeID and per PropertyID
        // where the bar's ref says the text is the shape's name and the property's.
        var shapeOfID: [Int?] = [], shapeKnown: [Bool] = []
        var attributesOfID: [[BakedFrames.Attribute]?] = []
        func resolve(_ p: String, _ ref: TimelineLanes.PropertyRef?) -> (shape: Int?, attributes: [BakedFrames.Attribute]) {
            guard let dot = lastDot(p) else { return (nil, []) }
            guard let ref, lanes.propertyNamesDotFree, ref.shape >= 0, ref.property >= 0 else {
                return (index[p[..<dot]], attributes[p[p.utf8.index(after: dot)...], default: []])
            }
            // One component of a point (`sq.center.x`) moves that axis's track of its point.
            let id = PropertyID(Int(ref.property))
            if let c = id.componentIndex {
                let point = p[..<dot]
                guard let pointDot = point.utf8.lastIndex(of: UInt8(ascii: ".")) else { return (nil, []) }
                let axes = attributes[point[point.utf8.index(after: pointDot)...], default: []]
                return (index[point[..<pointDot]], c < axes.count ? [axes[c]] : [])
            }
            let si = Int(ref.shape), pi = Int(ref.property)
            if si >= shapeKnown.count {
                shapeKnown += repeatElement(false, count: si + 1 - shapeKnown.count)
                shapeOfID += repeatElement(nil, count: si + 1 - shapeOfID.count)
            }
            if !shapeKnown[si] { shapeOfID[si] = index[p[..<dot]]; shapeKnown[si] = true }
            if pi >= attributesOfID.count { attributesOfID += repeatElement(nil, count: pi + 1 - attributesOfID.count) }
            if attributesOfID[pi] == nil { attributesOfID[pi] = attributes[p[p.utf8.index(after: dot)...], default: []] }
            return (shapeOfID[si], attributesOfID[pi]!)
        }
        // The last `.` of a property's text, found in its UTF-8 bytes (the generic search of
        // the view cost about 270 instructions a property).
        func lastDot(_ p: String) -> String.Index? {
            var p = p
            guard let k = p.withUTF8({ $0.lastIndex(of: UInt8(ascii: ".")) }) else { return nil }
            return p.utf8.index(p.utf8.startIndex, offsetBy: k)
        }
        func ref(_ b: TimelineLanes.Bar, _ k: Int) -> TimelineLanes.PropertyRef? {
            let r = Int(b.firstRef) + k
            return b.firstRef >= 0 && r < lanes.propertyRefs.count ? lanes.propertyRefs[r] : nil
        }
        // Each lane's shapes, in the order its bars name them (a set beside a long list).
        var laneShapes = [[Int]](repeating: [], count: lanes.lanes.count)
        var inLane = [Set<Int>](repeating: [], count: lanes.lanes.count)
        for b in lanes.bars where b.lane < laneShapes.count {
            for (k, p) in b.properties.enumerated() {
                guard let shape = resolve(p, ref(b, k)).shape else { continue }
                let l = b.lane
                if laneShapes[l].count <= 8 {
                    if laneShapes[l].contains(shape) { continue }
                    laneShapes[l].append(shape)
                    if laneShapes[l].count == 9 { inLane[l] = Set(laneShapes[l]) }
                } else if inLane[l].insert(shape).inserted {
                    laneShapes[l].append(shape)
                }
            }
        }
        o.put("\"lanes\":[")
        for (l, lane) in lanes.lanes.enumerated() {
            if l > 0 { o.put(",") }
            o.put("{\"label\":")
            o.putJSONString(lane.label)
            o.put(",\"shapes\":[")
            for (k, s) in laneShapes[l].enumerated() {
                if k > 0 { o.put(",") }
                o.putInt(s)
            }
            o.put("]}")
        }
        o.put("],\"bars\":[")
        for (k, b) in lanes.bars.enumerated() {
            if k > 0 { o.put(",") }
            o.put("[")
            o.putInt(b.lane)
            o.put(",\"")
            o.put(b.kind.key)
            o.put("\",")
            o.putFixed(b.begin.seconds, 9)
            o.put(",")
            o.putFixed(b.end.seconds, 9)
            o.put(",")
            if let d = b.delayedFrom { o.putFixed(d.seconds, 9) } else { o.put("null") }
            o.put(",")
            o.putJSONString(b.label)
            // The tooltip: what it moves, how it ran, when (TimelineStrip.note, TimelineChart.range).
            o.put(",\"")
            if b.properties.isEmpty {
                o.putJSONEscaped(b.label)
            } else {
                for (j, p) in b.properties.enumerated() {
                    if j > 0 { o.put(", ") }
                    o.putJSONEscaped(p)
                }
            }
            if b.reversed || b.retargets > 0 { o.putJSONEscaped(TimelineStrip.note(b)) }
            o.put(" ")
            if b.kind == .action {
                o.put("@")
                o.putFixed(b.begin.seconds, 3)
            } else {
                o.putFixed(b.begin.seconds, 3)
                o.put("–")
                o.putFixed(b.end.seconds, 3)
            }
            o.put("s\"")
            o.put(b.reversed ? ",1,[" : ",0,[")
            var first = true
            for (j, p) in b.properties.enumerated() {
                let (shape, attributes) = resolve(p, ref(b, j))
                guard let shape else { continue }
                for a in attributes {
                    if !first { o.put(",") }
                    first = false
                    o.putInt(shape)
                    o.put(",\"")
                    o.put(a.staticKey)
                    o.put("\"")
                }
            }
            o.put("]]")
        }
        o.put("]")
    }

    /// One run of a named chain.
    struct StepRun {
        var name: String
        var start: Time
        var end: Time
    }

    /// The runs of the named chains, in the order they started: a top-level graph whose root
    /// has a name, and a child instance whose starting node has one (a named chain inside a
    /// graph runs as its own instance, §6.11).
    /// A run starts when its first activity does (a step that first waits for another,
    /// `with a < … > as b`, starts when its block starts, §6.11), or when its graph starts if it
    /// did nothing.
    static func steps(_ timeline: Timeline, names: [String]) -> [StepRun] {
        var out: [StepRun] = []
        // The first activity of each instance and of the instances it started (children are
        // started after their parents, so later in `graphs`).
        var first = [Time?](repeating: nil, count: timeline.graphs.count)
        for a in timeline.activities where a.instance < first.count && a.pass != .skipped {
            first[a.instance] = min(first[a.instance] ?? a.start, a.start)
        }
        for i in timeline.graphs.indices.reversed() {
            guard let p = timeline.graphs[i].parent, p.instance < i, let f = first[i] else { continue }
            first[p.instance] = min(first[p.instance] ?? f, f)
        }
        for (i, g) in timeline.graphs.enumerated() {
            var id = g.graph.nodes.first?.name
            if let p = g.parent, p.instance < timeline.graphs.count {
                let parent = timeline.graphs[p.instance].graph
                if Int(p.node.index) < parent.nodes.count, let n = parent.nodes[Int(p.node.index)].name { id = n }
            }
            guard let id, id.index < names.count else { continue }
            let end = g.end ?? timeline.end
            out.append(StepRun(name: names[id.index], start: min(end, max(g.start, first[i] ?? g.start)), end: end))
        }
        return out.enumerated().sorted { $0.element.start != $1.element.start ? $0.element.start < $1.element.start : $0.offset < $1.offset }
            .map(\.element)
    }

    static func n(_ x: Double) -> String { formatFixed(x, 3) }
    /// A button icon drawn as SVG (fonts on a stock desktop lack glyphs such as ⏸).
    static func icon(_ name: String, _ path: String) -> String {
        "<svg class=\"icon icon-\(name)\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\"><path d=\"\(path)\"/></svg>"
    }


    static let css = """
    :root { --bg: #eef0f3; --panel: #ffffff; --panel2: #f7f8fa; --ink: #1d2127; --muted: #69707d; --line: #dfe3e8;
      --accent: #2f6fde; --head: #e5484d; --range: rgba(47,111,222,.10); --hl: #ff2d87; --btn: #f1f3f5; --btn-hover: #e4e7eb;
      --shadow: 0 1px 2px rgba(16,24,40,.08), 0 1px 3px rgba(16,24,40,.10); color-scheme: light dark; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #0f1115; --panel: #181b21; --panel2: #1f232a; --ink: #e7e9ec; --muted: #9299a5; --line: #2b3039;
        --accent: #6ea1ff; --head: #ff6369; --range: rgba(110,161,255,.14); --btn: #242830; --btn-hover: #2e333d;
        --shadow: 0 1px 2px rgba(0,0,0,.5); }
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; }
    body { font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--ink); background: var(--bg); }
    #app { display: flex; flex-direction: column; gap: 10px; padding: 10px 14px 14px; min-height: 100vh; max-width: 1800px; margin: 0 auto; }
    #top { display: flex; align-items: center; gap: 10px; }
    #top .brand { display: flex; align-items: center; gap: 5px; font-weight: 700; letter-spacing: .02em; }
    #top .brand .icon { fill: var(--accent); }
    #title { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    #live { font-size: 12px; color: var(--muted); }
    #live.connected::before { content: ""; display: inline-block; width: 7px; height: 7px; border-radius: 50%; background: #30a46c; margin-right: 5px; }
    .spacer { flex: 1; }
    #view { display: grid; grid-template-columns: minmax(0, 1fr) 250px; gap: 10px; min-height: 0; }
    #stage-box { position: relative; display: flex; align-items: center; justify-content: center; padding: 18px; min-height: 200px;
      background: var(--panel2); border: 1px solid var(--line); border-radius: 8px;
      background-image: radial-gradient(var(--line) 1px, transparent 1px); background-size: 16px 16px; }
    #stage { display: block; max-width: 100%; max-height: 54vh; width: auto; height: auto; box-shadow: var(--shadow); background: #fff; }
    #shapes > g { transition: filter .08s; }
    #shapes > g.hl { filter: drop-shadow(0 0 1.5px var(--hl)) drop-shadow(0 0 3px var(--hl)); }
    #side { display: flex; flex-direction: column; gap: 6px; min-height: 0; max-height: calc(54vh + 38px); background: var(--panel);
      border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; }
    #side h2 { margin: 2px 0; font-size: 11px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); font-weight: 600; }
    #steps { list-style: none; margin: 0; padding: 0; overflow: auto; flex: 1 1 40%; min-height: 2.2em; }
    #steps:empty::after { content: "No named steps (name one with 'as NAME')."; color: var(--muted); font-size: 12px; }
    #steps button { display: flex; width: 100%; gap: 6px; justify-content: space-between; border: 0; background: none; color: inherit;
      padding: 3px 6px; border-radius: 4px; font: inherit; cursor: pointer; text-align: left; }
    #steps button:hover { background: var(--btn-hover); }
    #steps button.current { background: var(--range); color: var(--accent); font-weight: 600; }
    #steps .span { color: var(--muted); font-variant-numeric: tabular-nums; font-size: 12px; white-space: nowrap; }
    #log { flex: 1 1 60%; margin: 0; overflow: auto; min-height: 3em; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; }
    #controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; background: var(--panel); border: 1px solid var(--line);
      border-radius: 8px; padding: 6px 10px; }
    .group { display: flex; gap: 2px; }
    button { display: inline-flex; align-items: center; gap: 4px; min-width: 32px; height: 30px; padding: 0 8px; border: 1px solid var(--line);
      border-radius: 6px; background: var(--btn); color: var(--ink); font: inherit; cursor: pointer; }
    button:hover { background: var(--btn-hover); }
    button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
    button .icon { display: block; margin: auto; fill: currentColor; }
    #play { min-width: 40px; background: var(--accent); border-color: var(--accent); color: #fff; }
    #play.playing .icon-play, #play:not(.playing) .icon-pause { display: none; }
    button.on { color: var(--accent); border-color: var(--accent); }
    #readout { display: flex; flex-direction: column; font-variant-numeric: tabular-nums; min-width: 11em; line-height: 1.2; }
    #time { font-weight: 600; }
    #frameno { color: var(--muted); font-size: 12px; }
    .field { display: inline-flex; align-items: center; gap: 5px; color: var(--muted); }
    select { height: 28px; border: 1px solid var(--line); border-radius: 6px; background: var(--btn); color: var(--ink); font: inherit; }
    #timeline { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; user-select: none; touch-action: none; }
    #ruler-box { position: relative; border-bottom: 1px solid var(--line); }
    #ruler, #strip { display: block; width: 100%; cursor: col-resize; }
    #lanes-box { max-height: 38vh; overflow-y: auto; overflow-x: hidden; touch-action: pan-y; }
    #scrub { position: absolute; top: 0; height: 14px; margin: 0; background: transparent; -webkit-appearance: none; appearance: none; cursor: pointer; }
    #scrub::-webkit-slider-runnable-track { height: 14px; background: transparent; }
    #scrub::-webkit-slider-thumb { -webkit-appearance: none; width: 16px; height: 14px; border: 0; background: transparent; }
    #scrub::-moz-range-thumb { width: 16px; height: 14px; border: 0; background: transparent; }
    #scrub::-moz-range-track { background: transparent; }
    .axis text, .lane-label text { fill: var(--muted); }
    .axis line { stroke: var(--line); }
    .axis .frame { font-size: 9px; opacity: .8; }
    .lane-bg { fill: transparent; }
    .lane-bg.alt { fill: var(--panel2); }
    .lane-bg.hl { fill: var(--range); }
    .lane-label text { fill: var(--ink); }
    .bar { cursor: pointer; }
    .bar:hover rect { stroke: var(--ink); stroke-width: 1; }
    .curve { fill: none; stroke: rgba(255,255,255,.85); stroke-width: 1.25; }
    .delay { stroke: var(--muted); stroke-width: 1.25; stroke-dasharray: 2 2; }
    .wait rect { fill: url(#hatch); stroke: var(--line); }
    .playhead { stroke: var(--head); stroke-width: 1.5; pointer-events: none; }
    .playhead-cap { fill: var(--head); pointer-events: none; }
    .outside { fill: var(--bg); opacity: .6; pointer-events: none; }
    .marker { fill: var(--accent); pointer-events: none; }
    .expect-fail { fill: var(--head); }
    #note { margin: 0; color: #b5650d; }
    #note:empty { display: none; }
    #anim-diagnostics { position: absolute; left: 10px; right: 10px; top: 10px; max-height: calc(100% - 20px); overflow: auto; margin: 0;
      padding: 12px 14px; background: rgba(22,22,26,.95); color: #f4f4f5; border-left: 4px solid #e5484d; border-radius: 6px;
      font: 12px/1.45 ui-monospace, Menlo, Consolas, monospace; white-space: pre; z-index: 10; box-shadow: 0 6px 24px rgba(0,0,0,.3); }
    @media (max-width: 760px) {
      #app { padding: 8px; gap: 8px; }
      #view { grid-template-columns: minmax(0, 1fr); }
      #side { max-height: 30vh; }
      #stage { max-height: 45vh; }
      #lanes-box { max-height: 45vh; }
    }
    @media (min-width: 1600px) { #view { grid-template-columns: minmax(0, 1fr) 300px; } #stage { max-height: 64vh; } }
    body.shot { background: #fff; }
    body.shot #app { padding: 0; display: block; }
    body.shot #top, body.shot #side, body.shot #controls, body.shot #timeline, body.shot #note { display: none; }
    body.shot #view { display: block; }
    body.shot #stage-box { display: block; padding: 0; border: 0; border-radius: 0; background: none; min-height: 0; }
    body.shot #stage { box-shadow: none; max-width: none; max-height: none; }
    """
}

extension TimelineLanes.BarKind {
    /// The kind's name in the player's data (its raw value), as static bytes.
    var key: StaticString {
        switch self {
        case .tween: "tween"
        case .spring: "spring"
        case .wait: "wait"
        case .action: "action"
        }
    }
}

extension BakedFrames.Attribute {
    /// The attribute's name in the player's data, as static bytes: the data names an attribute
    /// for every track of every shape and bar.
    var staticKey: StaticString {
        switch self {
        case .x: "x"
        case .y: "y"
        case .w: "w"
        case .h: "h"
        case .rot: "rot"
        case .sx: "sx"
        case .sy: "sy"
        case .op: "op"
        case .rad: "rad"
        case .z: "z"
        case .r: "r"
        case .g: "g"
        case .b: "b"
        case .font: "font"
        case .ax: "ax"
        case .ay: "ay"
        case .shx: "shx"
        case .shy: "shy"
        case .shblur: "shblur"
        case .shr: "shr"
        case .shg: "shg"
        case .shb: "shb"
        case .sha: "sha"
        case .fa: "fa"
        case .sr: "sr"
        case .sg: "sg"
        case .sb: "sb"
        case .sa: "sa"
        case .sw: "sw"
        }
    }
}
