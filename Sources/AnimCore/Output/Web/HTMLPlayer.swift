// HTMLPlayer: `anim render x.anim -o x.html` — one self-contained page (no network, no other
// files) that plays a run: the stage as SVG, play/pause, a scrubber with the time, frame
// stepping, speed, loop, and the timeline strip with a playhead. The page holds the run baked
// at the frame rate (BakedFrames) and shows each frame's samples as they are: the values on
// screen are the interpreter's own, with no easing re-implemented in JavaScript.
//
// The page reads its URL fragment: `#t=1.5` (or `1.5s`, `1500ms`) opens paused at that time
// (anything else there is reported on the page and ignored), and `#shot` shows only the stage
// at the top-left corner (the test suite screenshots it this way). The buttons' icons are SVG.
//
// The data, in `<script type="application/json" id="anim-data">` (format 2):
//   {"format": 2, "fps": F, "times": [seconds of every sample], "end": seconds,
//    "shapes": [{"name": N, "kind": "rect"|"circle"|"text",
//                "t": {"x", "y", "w", "h", "rot", "sx", "sy", "op", "rad", "z", "r", "g", "b", "font"},
//                "text": [one string, or one per sample]}],
//    "prints": [[seconds, text]], "strip": {"x0": px, "x1": px}}
// A track in "t" is a number when the attribute never changes, else a string holding one
// sample per time: the samples in 1/1000 (opacity 1/10000) as second differences in Base64
// VLQ with runs (TrackCode.swift). The samples are the frames before the run's end and the
// end itself (BakedFrames). Format 1 wrote every track as an array of decimals.

/// Writes the HTML player.
public enum HTMLPlayer {
    /// The page for a run, sampled at `fps`.
    public static func render(_ timeline: Timeline, fps: Int, title: String = "anim") -> String {
        let baked = BakedFrames(timeline, fps: fps)
        let lanes = TimelineLanes(timeline)
        let stageW = timeline.stageSize.x, stageH = timeline.stageSize.y
        let stripWidth = max(640, stageW)
        let (strip, stripHeight, geometry) = TimelineStrip.elements(lanes, width: stripWidth)
        let bg = timeline.stageColor
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <script>addEventListener('error', function (e) { var d = document.documentElement; d.setAttribute('data-errors', (d.getAttribute('data-errors') || '') + (e.message || 'error') + '; '); });</script>
        <title>\(xmlEscaped(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        \(css)
        </style>
        </head>
        <body>
        <main>
        <svg id="stage" xmlns="http://www.w3.org/2000/svg" width="\(n(stageW))" height="\(n(stageH))" viewBox="0 0 \(n(stageW)) \(n(stageH))" font-family="Helvetica, Arial, sans-serif">
        <rect width="\(n(stageW))" height="\(n(stageH))" fill="\(hexColor(bg.r, bg.g, bg.b))" fill-opacity="\(formatFixed(max(0, min(1, bg.a)), 4))"/>
        <g id="shapes"></g>
        </svg>
        <div id="controls">
        <button id="play" title="Play or pause (space)" aria-label="Play or pause">\(icon("play", "M4.5 2.5v11l9-5.5z"))\(icon("pause", "M4 2.5h3v11H4zM9 2.5h3v11H9z"))</button>
        <button id="prev" title="Previous frame (←)" aria-label="Previous frame">\(icon("prev", "M2.5 3h2v10h-2zM13.5 3v10L6 8z"))</button>
        <button id="next" title="Next frame (→)" aria-label="Next frame">\(icon("next", "M11.5 3h2v10h-2zM2.5 3v10L10 8z"))</button>
        <input id="scrub" type="range" min="0" max="\(baked.times.count - 1)" step="1" value="0" aria-label="time">
        <span id="time">0.000 s</span>
        <label>speed <select id="speed"><option>0.25</option><option>0.5</option><option selected>1</option><option>2</option><option>4</option></select></label>
        <label><input id="loop" type="checkbox" checked> loop</label>
        </div>
        <svg id="strip" xmlns="http://www.w3.org/2000/svg" width="\(n(stripWidth))" height="\(n(stripHeight))" viewBox="0 0 \(n(stripWidth)) \(n(stripHeight))" font-family="Helvetica, Arial, sans-serif">
        \(strip)<line id="playhead" x1="\(n(geometry.x(0)))" y1="0" x2="\(n(geometry.x(0)))" y2="\(n(stripHeight))" stroke="#e74c3c" stroke-width="1.5"/>
        </svg>
        <p id="note" role="status"></p>
        <pre id="log"></pre>
        </main>
        <script type="application/json" id="anim-data">\(data(baked, timeline: timeline, geometry: geometry))</script>
        <script>
        \(HTMLPlayerScript.source)
        </script>
        </body>
        </html>

        """
    }

    /// The baked run as JSON (the format is in the file header): frame rate, sample times,
    /// shapes with their tracks, messages, and the strip's time axis.
    static func data(_ baked: BakedFrames, timeline: Timeline, geometry: TimelineStrip.Geometry) -> String {
        var o: [UInt8] = []
        func put(_ s: String) { o += s.utf8 }
        put("{\"format\":2,\"fps\":\(baked.fps),\"times\":[")
        for (k, t) in baked.times.enumerated() {
            if k > 0 { put(",") }
            put(formatFixed(t.seconds, 9))
        }
        put("],\"end\":\(formatFixed(timeline.end.seconds, 9)),\"shapes\":[")
        for (i, s) in baked.shapes.enumerated() {
            if i > 0 { put(",") }
            put("{\"name\":\(jsonString(s.name)),\"kind\":\"\(s.kind.rawValue)\",\"t\":{")
            for a in BakedFrames.Attribute.allCases {
                if a.rawValue > 0 { put(",") }
                put("\"\(a.key)\":")
                let track = s.tracks[a.rawValue]
                let digits = a == .op ? 4 : 3
                if track.count == 1 {
                    put(formatFixed(track[0], digits))
                } else {
                    o.append(UInt8(ascii: "\""))
                    TrackCode.append(track, scale: digits == 4 ? 10_000 : 1_000, to: &o)
                    o.append(UInt8(ascii: "\""))
                }
            }
            put("},\"text\":[")
            for (k, text) in s.text.enumerated() {
                if k > 0 { put(",") }
                put(jsonString(text))
            }
            put("]}")
        }
        put("],\"prints\":[")
        for (k, p) in timeline.prints.enumerated() {
            if k > 0 { put(",") }
            put("[\(formatFixed(p.time.seconds, 9)),\(jsonString(p.text))]")
        }
        put("],\"strip\":{\"x0\":\(TimelineStrip.n(geometry.x(0))),\"x1\":\(TimelineStrip.n(geometry.x(geometry.end)))}}")
        return String(decoding: o, as: UTF8.self)
    }

    static func n(_ x: Double) -> String { formatFixed(x, 3) }
    /// A button icon drawn as SVG (fonts on a stock desktop lack glyphs such as ⏸).
    static func icon(_ name: String, _ path: String) -> String {
        "<svg class=\"icon icon-\(name)\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\"><path d=\"\(path)\"/></svg>"
    }


    static let css = """
    body { margin: 16px; font: 13px Helvetica, Arial, sans-serif; color: #222; background: #eceef1; }
    main { display: inline-block; }
    #stage { display: block; background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.25); }
    #controls { display: flex; align-items: center; gap: 8px; margin: 10px 0; }
    #controls button { min-width: 34px; height: 28px; padding: 0 8px; }
    #controls button .icon { display: block; margin: auto; fill: currentColor; }
    #play.playing .icon-play, #play:not(.playing) .icon-pause { display: none; }
    #note { margin: 8px 0 0; color: #8a4b00; }
    #note:empty { display: none; }
    #scrub { flex: 1; min-width: 160px; }
    #time { font-variant-numeric: tabular-nums; min-width: 9em; }
    #strip { display: block; background: #fff; cursor: pointer; box-shadow: 0 1px 3px rgba(0,0,0,.2); }
    #log { background: #fff; min-height: 3em; max-height: 10em; overflow: auto; padding: 6px 8px; margin: 10px 0 0; }
    body.shot { margin: 0; background: #fff; }
    body.shot #controls, body.shot #strip, body.shot #note, body.shot #log { display: none; }
    body.shot #stage { box-shadow: none; }
    """
}
