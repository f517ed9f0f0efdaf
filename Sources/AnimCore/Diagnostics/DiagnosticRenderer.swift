// DiagnosticRenderer: the one place diagnostics become text. Line 1 is exactly
// `file:line:col: error: message`; below it a gutter, the source line, and carets under the span.
// Colour only when asked (stderr is a TTY); tests always render plain.

/// Renders diagnostics against the sources they point into.
public struct DiagnosticRenderer: Sendable {
    /// The sources spans refer to.
    public var sources: SourceMap
    /// Whether to add ANSI colours.
    public var color: Bool
    /// Shows only the last path component of file names (golden tests use this).
    public var baseNamesOnly: Bool

    /// Creates a renderer.
    public init(sources: SourceMap, color: Bool = false, baseNamesOnly: Bool = false) {
        self.sources = sources
        self.color = color
        self.baseNamesOnly = baseNamesOnly
    }

    /// The display name of a source.
    func displayName(_ file: SourceFile) -> String {
        guard baseNamesOnly else { return file.name }
        return String(file.name.split(separator: "/").last ?? Substring(file.name))
    }

    /// The `file:line:col` prefix of a span, or nil for a span that points nowhere.
    public func position(of span: Span) -> String? {
        guard let file = sources[span.source] else { return nil }
        let loc = file.location(of: Int(span.start))
        return "\(displayName(file)):\(loc.line):\(loc.column)"
    }

    /// Renders one diagnostic, ending with a newline.
    public func render(_ d: Diagnostic) -> String {
        var out = ""
        let sev = d.severity.rawValue
        let sevText = color ? paint(sev + ":", d.severity == .error ? "1;31" : d.severity == .warning ? "1;33" : "1;36") : sev + ":"
        let message = color ? paint(d.message, "1") : d.message
        if let pos = position(of: d.span) {
            out += "\(pos): \(sevText) \(message)\n"
        } else {
            out += "\(sevText) \(message)\n"
        }
        if let file = sources[d.span.source] {
            var marks: [(Span, Character, String?)] = [(d.span, "^", d.label)]
            for l in d.secondary where l.span.source == d.span.source { marks.append((l.span, "-", l.text)) }
            out += snippet(file, marks: marks)
        }
        for n in d.notes { out += "  = note: \(n)\n" }
        if let h = d.help { out += "  help: \(h)\n" }
        return out
    }

    /// Renders several diagnostics in order.
    public func render(_ ds: [Diagnostic]) -> String { ds.map(render).joined() }

    /// The widest source line shown whole, in Characters. A longer line (a generated script, a
    /// minified one, a megabyte with no line break) shows this many Characters around the first
    /// mark on it, with `…` where it was cut: enough to read the statement, never a screenful.
    public static let maxLineWidth = 120

    /// The source lines of the marks with their underlines, lines in ascending order.
    private func snippet(_ file: SourceFile, marks: [(Span, Character, String?)]) -> String {
        let byLine = Dictionary(grouping: marks) { file.lineIndex(of: Int($0.0.start)) }
        let lines = byLine.keys.sorted()
        let width = String((lines.last ?? 0) + 1).count
        let pad = String(repeating: " ", count: width)
        var out = ""
        for li in lines {
            let text = Array(file.lineText(li))
            let lineEnd = file.lineEnd(li)
            // Columns (0-based, in Characters) of each mark; the underline stops at the end of the
            // first line of a multi-line span.
            let columns = byLine[li]!.map { mark -> (start: Int, end: Int, ch: Character, label: String?) in
                let (span, ch, label) = mark
                let startCol = file.location(of: Int(span.start)).column - 1
                let endOffset = min(Int(span.end), lineEnd)
                let endCol = endOffset > Int(span.start) ? file.location(of: endOffset).column - 1 : startCol + 1
                return (startCol, max(endCol, startCol + 1), ch, label)
            }
            // The window of the line that is shown: all of it, or maxLineWidth around the first mark.
            var lo = 0, hi = text.count
            if text.count > DiagnosticRenderer.maxLineWidth {
                lo = max(0, min(columns[0].start - DiagnosticRenderer.maxLineWidth / 2, text.count - DiagnosticRenderer.maxLineWidth))
                hi = lo + DiagnosticRenderer.maxLineWidth
            }
            let cutBefore = lo > 0 ? "…" : "", cutAfter = hi < text.count ? "…" : ""
            let num = String(li + 1)
            out += "  " + String(repeating: " ", count: width - num.count) + num + " | "
                + cutBefore + String(text[lo..<hi].map(DiagnosticRenderer.visible)) + cutAfter + "\n"
            for (startCol, endCol, ch, label) in columns {
                // A mark past the end of the line (at a line break) stays there; one outside the
                // window is pinned to its edge.
                let limit = hi < text.count ? hi : max(hi, startCol)
                let s = min(max(startCol, lo), limit), e = min(max(endCol, lo), max(limit, s + 1))
                var under = cutBefore.isEmpty ? "" : " "
                // Copy tabs from the source so the carets line up under them.
                for c in text[lo..<min(s, hi)] { under.append(c == "\t" ? "\t" : " ") }
                if s > hi { under += String(repeating: " ", count: s - hi) }
                let carets = String(repeating: ch, count: max(1, e - s))
                under += color ? paint(carets, ch == "^" ? "1;31" : "1;34") : carets
                if let label { under += " " + label }
                out += "  " + pad + " | " + under + "\n"
            }
        }
        return out
    }

    /// A source character as shown: control characters become their Unicode pictures (NUL is
    /// `␀`, ESC `␛`), one column each, so a script cannot drive the terminal through an error
    /// message. Tabs stay, to keep the columns of the line above the carets.
    /// The C1 controls (U+0080–U+009F), which some terminals obey too, become `�`.
    static func visible(_ c: Character) -> Character {
        if let a = c.asciiValue {
            guard a < 0x20 && a != 0x09 || a == 0x7F else { return c }
            return Character(Unicode.Scalar(a == 0x7F ? 0x2421 : 0x2400 + UInt32(a))!)
        }
        guard let v = c.unicodeScalars.first?.value, (0x80...0x9F).contains(v) else { return c }
        return "\u{FFFD}"
    }

    private func paint(_ s: String, _ code: String) -> String { "\u{1B}[\(code)m\(s)\u{1B}[0m" }
}
