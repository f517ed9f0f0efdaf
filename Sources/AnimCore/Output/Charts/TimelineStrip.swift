// TimelineStrip: the lanes of a run drawn as SVG — a time axis, rows for the printed messages
// at their instants, and one row per lane with tweens and springs as labelled bars, waits as
// hatched gaps and actions as ticks. The HTML player embeds it under the stage with a playhead;
// `anim timeline -o x.svg` writes it as a picture on its own.
//
// No two labels overlap: the messages are laid out in up to `maxMessageRows` rows (a label
// that fits nowhere is shortened, down to its flag alone, its text kept in the tooltip), every
// label is measured with TextWidth's upper estimate, and each is drawn clipped to its box.

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
        /// Each row of printed messages.
        var messageRowHeight = 14.0
        /// How many rows the printed messages take.
        var messageRows = 1
        /// Each lane's row.
        var laneHeight = 24.0
        /// The run's end, in seconds (the right end of the axis).
        var end: Double

        init(width: Double, end: Double) {
            self.width = width
            self.end = end
        }

        /// The printed messages' rows.
        var messageHeight: Double { 6 + Double(messageRows) * messageRowHeight }

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

    /// The font size of every label.
    static let fontSize = 10.0

    /// The most rows the printed messages may take.
    static let maxMessageRows = 3

    /// A standalone SVG picture of a run's timeline.
    public static func standaloneSVG(_ timeline: Timeline, width: Int = 760) -> String {
        let lanes = TimelineLanes(timeline)
        let (body, h, _) = elements(lanes, width: Double(width))
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(n(h))" viewBox="0 0 \(width) \(n(h))" \
        font-family="Helvetica, Arial, sans-serif">
        <rect width="100%" height="100%" fill="#ffffff"/>
        \(body)</svg>

        """
    }

    /// The strip's SVG elements (no `<svg>` wrapper), for a strip `width` pixels wide; the
    /// height needed is returned too.
    static func elements(_ lanes: TimelineLanes, width: Double) -> (String, Double, Geometry) {
        var g = Geometry(width: width, end: lanes.end.seconds)
        let messages = layoutMessages(lanes.prints, g)
        g.messageRows = max(1, (messages.map(\.row).max() ?? 0) + 1)
        return (body(lanes, messages, g), g.height(lanes.lanes.count), g)
    }

    // MARK: - Messages

    /// A flag for the messages printed at one instant, placed in a row.
    struct Message {
        /// The flag's x.
        var x: Double
        /// Its row (0 on top).
        var row: Int
        /// The label drawn (shortened, or empty, where the full one does not fit).
        var text: String
        /// The full label: the first message, then `+N` for the others at the same instant.
        var full: String
        /// Whether the label reads leftwards from the flag (no room on its right).
        var leftward: Bool
        /// The tooltip: every message with its time.
        var tip: String

        /// The label's box, from its left to its right edge.
        func box(_ width: Double) -> (Double, Double) { leftward ? (x - 3 - width, x + 7) : (x, x + 9 + width) }
    }

    /// Lays the messages out in rows: each goes in the first row where its label fits after the
    /// last one (on its right, or else on its left), so no two labels overlap. When no row has
    /// room, the row whose last label ends first makes room by shortening that label.
    static func layoutMessages(_ prints: [(time: Time, text: String)], _ g: Geometry) -> [Message] {
        // Messages printed at one instant share a flag: the first one's text, then "+N".
        var groups: [(time: Time, texts: [String])] = []
        for p in prints {
            if let last = groups.last, last.time == p.time { groups[groups.count - 1].texts.append(p.text) } else { groups.append((p.time, [p.text])) }
        }
        let gap = 6.0
        let limit = g.width - 2
        var out: [Message] = []
        var rowEnd: [Double] = []  // where each row's last box ends, gap included
        var rowLast: [Int] = []  // the message last placed in each row
        for group in groups {
            let x = g.x(group.time.seconds)
            let full = group.texts[0] + (group.texts.count > 1 ? " +\(group.texts.count - 1)" : "")
            let tip = group.texts.map { TimelineLanes.seconds(group.time) + " " + $0 }.joined(separator: "\n")
            let w = TextWidth.of(full, size: fontSize)
            var m = Message(x: x, row: 0, text: full, full: full, leftward: false, tip: tip)
            var placed = false
            for r in 0..<maxMessageRows {
                let end = r < rowEnd.count ? rowEnd[r] : 0
                if end <= x - 1 && x + 9 + w <= limit {
                    m.row = r
                } else if end <= x - 3 - w && x - 3 - w >= g.labelWidth && x + 9 + w > limit {
                    m.row = r
                    m.leftward = true
                } else {
                    continue
                }
                placed = true
                break
            }
            if !placed {
                // No row has room: take the row whose last box ends first, shortening its last
                // label to end before this flag, and shorten this one to what is left.
                let rows = min(maxMessageRows, rowEnd.count)
                let r = (0..<rows).min { rowEnd[$0] < rowEnd[$1] } ?? 0
                if r < rowLast.count {
                    let p = rowLast[r]
                    if out[p].leftward {
                        if out[p].x + 7 > x - 1 { out[p].text = "" }
                    } else {
                        out[p].text = TextWidth.clip(out[p].full, width: max(0, x - 1 - gap - (out[p].x + 9)), size: fontSize)
                    }
                }
                m.row = r
                m.text = TextWidth.clip(full, width: max(0, limit - (x + 9)), size: fontSize)
            }
            let width = m.text.isEmpty ? 0 : TextWidth.of(m.text, size: fontSize)
            while rowEnd.count <= m.row { rowEnd.append(0); rowLast.append(-1) }
            rowEnd[m.row] = max(m.box(width).1, x + 7) + gap
            rowLast[m.row] = out.count
            out.append(m)
        }
        return out
    }

    // MARK: - Drawing

    /// Axis, messages and lanes.
    static func body(_ lanes: TimelineLanes, _ messages: [Message], _ g: Geometry) -> String {
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
        o += "<g class=\"messages\" font-size=\"10\"><text x=\"6\" y=\"\(n(g.axisHeight + 13))\" fill=\"#777\">print</text>\n"
        for m in messages {
            let top = g.axisHeight + 2 + Double(m.row) * g.messageRowHeight
            o += "<g><title>\(xmlEscaped(m.tip))</title>"
            o += "<path d=\"M\(n(m.x)) \(n(top))v\(n(g.messageRowHeight + 1))\" stroke=\"#b8860b\" stroke-width=\"1.5\"/>"
            o += "<path d=\"M\(n(m.x)) \(n(top))h7l-2 3 2 3h-7z\" fill=\"#f1c40f\"/>"
            if !m.text.isEmpty {
                let w = TextWidth.of(m.text, size: fontSize)
                let (left, _) = m.box(w)
                let x = m.leftward ? left : m.x + 9
                o += clipped(x: x, y: top - 1, width: w, height: g.messageRowHeight,
                             "<text x=\"\(m.leftward ? n(w) : "0")\" y=\"\(n(10))\" fill=\"#5d4a00\"\(m.leftward ? " text-anchor=\"end\"" : "")>\(xmlEscaped(m.text))</text>")
            }
            o += "</g>\n"
        }
        o += "</g>\n"
        // Lanes.
        let barsByLane = lanes.barsByLane
        for (l, lane) in lanes.lanes.enumerated() {
            let top = g.laneTop(l)
            let color = palette[l % palette.count]
            o += "<g class=\"lane\" font-size=\"10\">"
            if l % 2 == 0 { o += "<rect x=\"0\" y=\"\(n(top))\" width=\"\(n(g.width))\" height=\"\(n(g.laneHeight))\" fill=\"#f7f8fa\"/>" }
            let name = TextWidth.clip(lane.label, width: g.labelWidth - 10, size: fontSize)
            o += "<g><title>\(xmlEscaped(lane.label))</title>"
            o += clipped(x: 6, y: top + 4, width: g.labelWidth - 10, height: 16, "<text x=\"0\" y=\"11\" fill=\"#333\">\(xmlEscaped(name))</text>")
            o += "</g>\n"
            for b in barsByLane[l].lazy.map({ lanes.bars[$0] }) {
                let x0 = g.x(b.begin.seconds), x1 = g.x(b.end.seconds)
                let tip = "\(b.properties.isEmpty ? b.label : b.properties.joined(separator: ", "))\(note(b)) \(TimelineChart.range(b))"
                switch b.kind {
                case .tween, .spring:
                    let w = max(1.5, x1 - x0)
                    o += "<g><title>\(xmlEscaped(tip))</title>"
                    o += "<rect x=\"\(n(x0))\" y=\"\(n(top + 4))\" width=\"\(n(w))\" height=\"\(n(g.laneHeight - 8))\" rx=\"3\" "
                    o += "fill=\"\(color)\" fill-opacity=\"\(b.kind == .spring ? "0.7" : "0.9")\"/>"
                    var textX = x0 + 4
                    if b.reversed && w >= 10 {
                        // Played backward: a left-pointing arrow at the bar's start.
                        o += "<path class=\"reversed\" d=\"M\(n(x0 + 3)) \(n(top + 12))l5-4v8z\" fill=\"#fff\"/>"
                        textX += 7
                    }
                    let room = x0 + w - 2 - textX
                    let text = TextWidth.clip(b.label, width: room, size: fontSize)
                    if !text.isEmpty {
                        o += clipped(x: textX, y: top + 4, width: room, height: g.laneHeight - 8,
                                     "<text x=\"0\" y=\"11.5\" fill=\"#fff\">\(xmlEscaped(text))</text>")
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

    /// `, reversed`, `, retargeted 3×`: what a bar's tooltip adds to its label.
    static func note(_ b: TimelineLanes.Bar) -> String {
        (b.reversed ? ", reversed" : "") + (b.retargets > 0 ? ", retargeted \(b.retargets)×" : "")
    }

    /// Content drawn in a nested viewport at (x, y) that clips it to `width` × `height`.
    static func clipped(x: Double, y: Double, width: Double, height: Double, _ content: String) -> String {
        "<svg x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(max(0, width)))\" height=\"\(n(height))\" overflow=\"hidden\">\(content)</svg>"
    }

    /// A tick step on a 1-2-5 scale giving ticks at least 60 px apart.
    static func tickStep(end: Double, pixels: Double) -> Double {
        Ticks.step(end: end, length: pixels, minimum: 60, multiples: [1, 2, 5])
    }

    /// A coordinate with at most 2 decimals.
    static func n(_ x: Double) -> String { formatFixed(x, 2) }
}
