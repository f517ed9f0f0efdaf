// ContactSheet: N frames of a run, evenly spaced from the start to the end, laid out in a grid
// with each frame's time under it — the whole animation in one picture. Labels use a built-in
// 5×7 pixel font (digits and a few signs), so the sheet needs no font files.

/// Builds contact sheets.
public enum ContactSheet {
    /// Layout of a sheet.
    public struct Layout: Sendable {
        /// Frames in the sheet.
        public var count: Int
        /// Frames per row (default: about square).
        public var columns: Int
        /// Scale of each frame against the stage (default: each cell at most 240 px wide).
        public var scale: Double
        /// Space between cells, in pixels.
        public var gap = 12
        /// Height of the label strip under each frame.
        public var label = 22

        /// A layout for `count` frames of a stage of this size.
        public init(count: Int, stage: Point, columns: Int? = nil, scale: Double? = nil) {
            self.count = max(1, count)
            let c = columns ?? Int(Double(self.count).squareRoot().rounded(.up))
            self.columns = max(1, min(self.count, c))
            self.scale = scale ?? min(1, 240 / max(1, stage.x))
        }
    }

    /// The times of `count` frames evenly spaced from 0 to the end, both included, each rounded
    /// to the tick grid.
    public static func times(_ timeline: Timeline, count: Int) -> [Time] {
        let n = max(1, count)
        if n == 1 { return [.zero] }
        return (0..<n).map { k in
            Time(ticks: Int64((Double(timeline.end.ticks) * Double(k) / Double(n - 1)).rounded()))
        }
    }

    /// Renders the sheet.
    public static func render(_ timeline: Timeline, layout: Layout) -> Canvas {
        let cellW = Int((timeline.stageSize.x * layout.scale).rounded())
        let cellH = Int((timeline.stageSize.y * layout.scale).rounded())
        let rows = (layout.count + layout.columns - 1) / layout.columns
        let width = layout.gap + layout.columns * (cellW + layout.gap)
        let height = layout.gap + rows * (cellH + layout.label + layout.gap)
        var canvas = Canvas(width: width, height: height, fill: Color(r: 236, g: 238, b: 241))
        for (k, t) in times(timeline, count: layout.count).enumerated() {
            let left = layout.gap + (k % layout.columns) * (cellW + layout.gap)
            let top = layout.gap + (k / layout.columns) * (cellH + layout.label + layout.gap)
            // A 1-pixel frame around the cell, then the stage.
            canvas.fillRect(x: left - 1, y: top - 1, width: cellW + 2, height: cellH + 2, color: Color(r: 190, g: 194, b: 200))
            canvas.draw(timeline.frame(at: t), left: left, top: top, scale: layout.scale)
            let text = t.eventStamp + "s"
            let textWidth = PixelFont.width(of: text, scale: 2)
            PixelFont.draw(text, on: &canvas, x: left + (cellW - textWidth) / 2, y: top + cellH + 5, scale: 2,
                           color: Color(r: 40, g: 44, b: 52))
        }
        return canvas
    }
}

/// A 5×7 pixel font for labels: digits, `.`, `s`, `:`, `-`, `=`, `t` and space.
enum PixelFont {
    /// Each glyph as 7 rows of 5 columns, `#` for ink.
    static let glyphs: [Character: [String]] = [
        "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
        "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
        "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
        "3": ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "],
        "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
        "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
        "6": ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "],
        "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
        "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
        "9": [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "],
        ".": ["     ", "     ", "     ", "     ", "     ", " ##  ", " ##  "],
        "s": ["     ", "     ", " ####", "#    ", " ### ", "    #", "#### "],
        "t": [" #   ", " #   ", "#### ", " #   ", " #   ", " #  #", "  ## "],
        ":": ["     ", " ##  ", " ##  ", "     ", " ##  ", " ##  ", "     "],
        "-": ["     ", "     ", "     ", "#####", "     ", "     ", "     "],
        "=": ["     ", "     ", "#####", "     ", "#####", "     ", "     "],
        " ": ["     ", "     ", "     ", "     ", "     ", "     ", "     "],
    ]

    /// The advance of one glyph (5 columns and 1 of spacing), in pixels at `scale`.
    static func advance(scale: Int) -> Int { 6 * scale }

    /// The width of a string at `scale`.
    static func width(of text: String, scale: Int) -> Int { max(0, text.count * advance(scale: scale) - scale) }

    /// Draws `text` with its top-left at (x, y); unknown characters are blank.
    static func draw(_ text: String, on canvas: inout Canvas, x: Int, y: Int, scale: Int, color: Color) {
        var left = x
        for ch in text {
            if let rows = glyphs[ch] {
                for (r, row) in rows.enumerated() {
                    for (c, cell) in row.enumerated() where cell == "#" {
                        canvas.fillRect(x: left + c * scale, y: y + r * scale, width: scale, height: scale, color: color)
                    }
                }
            }
            left += advance(scale: scale)
        }
    }
}
