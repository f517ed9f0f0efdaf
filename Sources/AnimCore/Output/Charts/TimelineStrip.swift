// TimelineStrip: the lanes of a run drawn as SVG — a time axis, a row for the printed messages
// at their instants, and one row per lane with tweens and springs as labelled bars, waits as
// hatched gaps and actions as ticks. The HTML player embeds it under the stage with a playhead;
// `anim timeline -o x.svg` writes it as a picture on its own.

/// Draws timeline strips.
public enum TimelineStrip {
    /// Geometry of a strip.
    struct Geometry {
        /// The whole strip's width.
        var width: Double
        /// The column of lane names on the left.
        var labelWidth = 120.0
        /// The margin on the right.
        var right = 16.0
        /// The time axis's row.
        var axisHeight = 22.0
        /// The printed messages' row.
        var messageHeight = 20.0
        /// Each lane's row.
        var laneHeight = 24.0
        /// The run's end, in seconds (the right end of the axis).
        var end: Double

        /// The x of time `t` (seconds).
        func x(_ t: Double) -> Double {
            let span = width - labelWidth - right
            return labelWidth + (end > 0 ? t / end * span : 0)
        }

        /// The top of lane `l`.
        func laneTop(_ l: Int) -> Double { axisHeight + messageHeight + Double(l) * laneHeight }

        /// The height for `lanes` lanes.
        func height(_ lanes: Int) -> Double { laneTop(max(1, lanes)) + 6 }
    }

    /// Bar colours by lane (fill, text).
    static let palette = ["#4a90d9", "#e67e22", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#d35400", "#2c3e50"]

    /// A standalone SVG picture of a run's timeline.
    public static func standaloneSVG(_ timeline: Timeline, width: Int = 760) -> String {
        let lanes = TimelineLanes(timeline)
        let g = Geometry(width: Double(width), end: lanes.end.seconds)
        let h = g.height(lanes.lanes.count)
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(n(h))" viewBox="0 0 \(width) \(n(h))" \
        font-family="Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body(lanes, g))</svg>

        """
    }

    /// The strip's SVG elements (no `<svg>` wrapper), for a strip `width` pixels wide; the
    /// height needed is returned too.
    static func elements(_ lanes: TimelineLanes, width: Double) -> (String, Double, Geometry) {
        let g = Geometry(width: width, end: lanes.end.seconds)
        return (body(lanes, g), g.height(lanes.lanes.count), g)
    }

    /// Axis, messages and lanes.
    static func body(_ lanes: TimelineLanes, _ g: Geometry) -> String {
        var o = ""
        let bottom = g.height(lanes.lanes.count) - 4
        // Axis: ticks on a 1-2-5 step at least 60 px apart.
        o += "<g class=\"axis\" font-size=\"10\" fill=\"#555\">\n"
        let step = tickStep(end: g.end, pixels: g.width - g.labelWidth - g.right)
        var k = 0
        while g.end > 0 && Double(k) * step <= g.end + 1e-9 {
            let t = Double(k) * step, x = g.x(t)
            o += "<line x1=\"\(n(x))\" y1=\"\(n(g.axisHeight - 6))\" x2=\"\(n(x))\" y2=\"\(n(bottom))\" stroke=\"#e3e6ea\"/>"
            o += "<text x=\"\(n(x))\" y=\"12\" text-anchor=\"middle\">\(formatFixed(t, 3))s</text>\n"
            k += 1
        }
        o += "</g>\n"
        // Messages printed, as flags at their instants.
        let my = g.axisHeight
        o += "<g class=\"messages\" font-size=\"10\"><text x=\"6\" y=\"\(n(my + 13))\" fill=\"#777\">print</text>\n"
        // Messages printed at one instant share a flag: the first one's text, then "+N".
        var groups: [(time: Time, texts: [String])] = []
        for p in lanes.prints {
            if let last = groups.last, last.time == p.time { groups[groups.count - 1].texts.append(p.text) } else { groups.append((p.time, [p.text])) }
        }
        for (i, group) in groups.enumerated() {
            let x = g.x(group.time.seconds)
            let next = i + 1 < groups.count ? g.x(groups[i + 1].time.seconds) : g.width
            let text = group.texts[0] + (group.texts.count > 1 ? " +\(group.texts.count - 1)" : "")
            let room = Int(max(0, next - x - 10) / 5.6)
            let tip = group.texts.map { TimelineLanes.seconds(group.time) + " " + $0 }.joined(separator: "\n")
            o += "<g><title>\(xmlEscaped(tip))</title>"
            o += "<path d=\"M\(n(x)) \(n(my + 2))v15\" stroke=\"#b8860b\" stroke-width=\"1.5\"/>"
            o += "<path d=\"M\(n(x)) \(n(my + 2))h7l-2 3 2 3h-7z\" fill=\"#f1c40f\"/>"
            if room >= 3 {
                o += "<text x=\"\(n(x + 9))\" y=\"\(n(my + 13))\" fill=\"#5d4a00\">\(xmlEscaped(clip(text, room)))</text>"
            } else if i + 1 == groups.count {
                // The last message near the right edge reads leftwards from its flag.
                let previous = i > 0 ? g.x(groups[i - 1].time.seconds) + 20 : g.labelWidth
                let left = Int(max(0, x - previous - 4) / 5.6)
                if left >= 3 {
                    o += "<text x=\"\(n(x - 3))\" y=\"\(n(my + 13))\" fill=\"#5d4a00\" text-anchor=\"end\">\(xmlEscaped(clip(text, min(left, 40))))</text>"
                }
            }
            o += "</g>\n"
        }
        o += "</g>\n"
        // Lanes.
        for (l, lane) in lanes.lanes.enumerated() {
            let top = g.laneTop(l)
            let color = palette[l % palette.count]
            o += "<g class=\"lane\" font-size=\"10\">"
            if l % 2 == 0 { o += "<rect x=\"0\" y=\"\(n(top))\" width=\"\(n(g.width))\" height=\"\(n(g.laneHeight))\" fill=\"#f7f8fa\"/>" }
            o += "<text x=\"6\" y=\"\(n(top + 15))\" fill=\"#333\">\(xmlEscaped(clip(lane.label, 19)))</text>\n"
            for b in lanes.bars where b.lane == l {
                let x0 = g.x(b.begin.seconds), x1 = g.x(b.end.seconds)
                let tip = "\(b.label) \(TimelineChart.range(b))"
                switch b.kind {
                case .tween, .spring:
                    let w = max(1.5, x1 - x0)
                    o += "<g><title>\(xmlEscaped(tip))</title>"
                    o += "<rect x=\"\(n(x0))\" y=\"\(n(top + 4))\" width=\"\(n(w))\" height=\"\(n(g.laneHeight - 8))\" rx=\"3\" "
                    o += "fill=\"\(color)\" fill-opacity=\"\(b.kind == .spring ? "0.7" : "0.9")\"/>"
                    let room = Int((w - 6) / 5.6)
                    if room >= 3 {
                        o += "<text x=\"\(n(x0 + 4))\" y=\"\(n(top + 15.5))\" fill=\"#fff\">\(xmlEscaped(clip(b.label, room)))</text>"
                    }
                    o += "</g>\n"
                case .wait:
                    o += "<g><title>\(xmlEscaped(tip))</title><rect x=\"\(n(x0))\" y=\"\(n(top + 10))\" width=\"\(n(max(0, x1 - x0)))\" "
                    o += "height=\"4\" fill=\"#c9ced6\"/></g>\n"
                case .action:
                    o += "<g><title>\(xmlEscaped(tip))</title><path d=\"M\(n(x0)) \(n(top + 5))l4 7-4 7-4-7z\" fill=\"#b8860b\"/></g>\n"
                }
            }
            o += "</g>\n"
        }
        return o
    }

    /// A tick step on a 1-2-5 scale giving ticks at least 60 px apart.
    static func tickStep(end: Double, pixels: Double) -> Double {
        Ticks.step(end: end, length: pixels, minimum: 60, multiples: [1, 2, 5])
    }

    /// Text cut to `count` characters with an ellipsis.
    static func clip(_ s: String, _ count: Int) -> String {
        s.count <= count ? s : String(s.prefix(max(1, count - 1))) + "…"
    }

    /// A coordinate with at most 2 decimals.
    static func n(_ x: Double) -> String { formatFixed(x, 2) }
}
