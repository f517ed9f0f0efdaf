// TimelineChart: a Gantt chart of a run for the terminal (`anim timeline`, the REPL's
// `:timeline`). One row per tween, spring, wait and action, grouped by lane; bars are Unicode
// blocks with eighth-cell ends, waits are shaded, actions are ◆ ticks; a row played backward is
// marked ◀, and a run of retargets says how many. With `color` the bars are coloured with ANSI
// escapes; without, the text is plain and stable (golden tests).

/// Draws timeline charts for the terminal.
public enum TimelineChart {
    /// The chart of a run, `width` columns wide (at least 40), ending in a newline.
    public static func render(_ timeline: Timeline, width: Int, color: Bool) -> String {
        let lanes = TimelineLanes(timeline)
        return render(lanes, width: width, color: color)
    }

    /// The chart of laid-out lanes.
    public static func render(_ lanes: TimelineLanes, width: Int, color: Bool) -> String {
        let width = max(40, width)
        let rows = lanes.barsByLane.enumerated().flatMap { l, bars in bars.map { (l, lanes.bars[$0]) } }
        let rangeWidth = rows.map { range($0.1).count }.max() ?? 0
        let labelWidth = min(30, max(8, rows.map { rowLabel($0.1).count + 3 }.max() ?? 8))
        let chart = max(10, width - labelWidth - rangeWidth - 2)
        let end = lanes.end.seconds
        var out = "timeline: \(TimelineLanes.seconds(lanes.end)), \(count(lanes.lanes.count, "lane")), \(count(lanes.bars.count, "step"))\n"
        if rows.isEmpty { return out + "(nothing is animated)\n" }
        let pad = String(repeating: " ", count: labelWidth)
        let (labels, axis) = self.axis(end: end, columns: chart)
        out += pad + labels + "\n" + pad + axis + "\n"
        var lastLane = -1
        for (lane, bar) in rows {
            if lane != lastLane {
                let title = "── lane \(lane + 1): \(lanes.lanes[lane].label) "
                out += paint(title + String(repeating: "─", count: max(0, labelWidth + chart - title.count)), dim, color) + "\n"
            }
            lastLane = lane
            var label = "  " + rowLabel(bar)
            if label.count > labelWidth - 1 { label = String(label.prefix(labelWidth - 2)) + "…" }
            out += label + String(repeating: " ", count: labelWidth - label.count)
            out += paint(cells(bar, end: end, columns: chart), style(bar, lane: lane), color)
            out += " " + range(bar) + "\n"
        }
        return out
    }

    // MARK: - Pieces

    /// `1 lane`, `3 steps`.
    static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// A row's label: `◀ ` before a bar played backward, and how often a step retargeted it.
    static func rowLabel(_ b: TimelineLanes.Bar) -> String {
        (b.reversed ? "◀ " : "") + b.label + (b.retargets > 0 ? ", retargeted \(b.retargets)×" : "")
    }

    /// `0–1s` for bars, `@1.3s` for instants.
    static func range(_ b: TimelineLanes.Bar) -> String {
        if b.kind == .action { return "@" + TimelineLanes.seconds(b.begin) }
        return formatFixed(b.begin.seconds, 3) + "–" + TimelineLanes.seconds(b.end)
    }

    /// The cells of one row: full blocks, an eighth-block end, shade for waits, ◆ for actions.
    static func cells(_ b: TimelineLanes.Bar, end: Double, columns: Int) -> String {
        var cells = [Character](repeating: " ", count: columns)
        let scale = end > 0 ? Double(columns) / end : 0
        let x0 = b.begin.seconds * scale, x1 = b.end.seconds * scale
        let start = min(columns - 1, max(0, Int(x0.rounded(.down))))
        switch b.kind {
        case .action:
            cells[start] = "◆"
        case .wait:
            let stop = min(columns, max(start + 1, Int(x1.rounded())))
            for c in start..<stop { cells[c] = "░" }
        case .tween, .spring:
            let full = min(columns, Int(x1.rounded(.down)))
            for c in start..<max(start, full) { cells[c] = "█" }
            let eighths = Int(((x1 - Double(full)) * 8).rounded())
            if full < columns {
                if eighths > 0 { cells[full] = partial[min(7, eighths)] } else if full <= start { cells[start] = "▏" }
            }
        }
        return String(cells)
    }

    /// Left-aligned eighth blocks, 1/8 to 8/8 of a cell (index 0 unused).
    static let partial: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The time labels and the axis line, `columns` wide: ticks on a 1-2-5 step, at least 8
    /// columns apart.
    static func axis(end: Double, columns: Int) -> (String, String) {
        guard end > 0 else { return ("0s", "┼" + String(repeating: "─", count: columns - 1)) }
        // Ticks at least 8 columns apart, and wider than the longest label.
        let widest = formatFixed(end, 3).count + 2
        let step = Ticks.step(end: end, length: Double(columns), minimum: Double(max(8, widest)), multiples: [1, 2, 2.5, 5])
        var labels = [Character](repeating: " ", count: columns + 8)
        var axis = [Character](repeating: "─", count: columns)
        var k = 0
        while Double(k) * step <= end + 1e-9 {
            let t = Double(k) * step
            let c = min(columns - 1, Int((t / end * Double(columns)).rounded(.down)))
            axis[c] = "┼"
            let text = Array(formatFixed(t, 3) + "s")
            if c + text.count <= labels.count { for (i, ch) in text.enumerated() { labels[c + i] = ch } }
            k += 1
        }
        var l = String(labels)
        while l.last == " " { l.removeLast() }
        return (l, String(axis))
    }

    // MARK: - Colour

    /// ANSI SGR parameters of a bar.
    static func style(_ b: TimelineLanes.Bar, lane: Int) -> String {
        switch b.kind {
        case .wait: return dim
        case .action: return "33"  // yellow
        case .spring: return "35"  // magenta
        case .tween: return ["36", "32", "34", "31", "96", "92", "94", "91"][lane % 8]
        }
    }

    static let dim = "2"

    /// Text in an SGR style when `color` is on.
    static func paint(_ s: String, _ sgr: String, _ color: Bool) -> String {
        color ? "\u{1B}[\(sgr)m\(s)\u{1B}[0m" : s
    }
}
