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

    /// The source lines of the marks with their underlines, lines in ascending order.
    private func snippet(_ file: SourceFile, marks: [(Span, Character, String?)]) -> String {
        let byLine = Dictionary(grouping: marks) { file.lineIndex(of: Int($0.0.start)) }
        let lines = byLine.keys.sorted()
        let width = String((lines.last ?? 0) + 1).count
        let pad = String(repeating: " ", count: width)
        var out = ""
        for li in lines {
            let text = file.lineText(li)
            let num = String(li + 1)
            out += "  " + String(repeating: " ", count: width - num.count) + num + " | " + text + "\n"
            for (span, ch, label) in byLine[li]! {
                let lineStart = file.lineStarts[li]
                let startCol = file.location(of: Int(span.start)).column - 1
                // The underline stops at the end of the first line of a multi-line span.
                let lineEndOffset = lineStart + Array(text.utf8).count
                let endOffset = min(Int(span.end), lineEndOffset)
                let endCol = endOffset > Int(span.start) ? file.location(of: endOffset).column - 1 : startCol + 1
                var under = ""
                // Copy tabs from the source so the carets line up under them.
                for (i, c) in text.enumerated() where i < startCol { under.append(c == "\t" ? "\t" : " ") }
                if text.count < startCol { under += String(repeating: " ", count: startCol - text.count) }
                let carets = String(repeating: ch, count: max(1, endCol - startCol))
                under += color ? paint(carets, ch == "^" ? "1;31" : "1;34") : carets
                if let label { under += " " + label }
                out += "  " + pad + " | " + under + "\n"
            }
        }
        return out
    }

    private func paint(_ s: String, _ code: String) -> String { "\u{1B}[\(code)m\(s)\u{1B}[0m" }
}
