// EventFormatter: run events as text lines (`[1.300] First corner`) or JSON objects, one per
// line, with exact times (the decimal seconds of the integer clock, and nanoseconds).

/// How events are written.
public struct EventFormatter: Sendable {
    /// One JSON object per line instead of text.
    public var json: Bool
    /// Prefix text lines with `[t.ttt] `.
    public var showTime: Bool

    /// Creates a formatter.
    public init(json: Bool = false, showTime: Bool = true) {
        self.json = json
        self.showTime = showTime
    }

    /// The stdout line for an event (with its newline), or nil if it has none.
    /// `position` gives `file:line:col` for diagnostics.
    public func line(for event: RunEvent, position: (Span) -> (file: String, line: Int, column: Int)?) -> String? {
        switch event {
        case .print(let t, let text):
            if json { return object(t, "print", [("text", quote(text))]) }
            return (showTime ? "[\(t.eventStamp)] " : "") + text + "\n"
        case .expectFailed(let t, let d):
            guard json else { return nil }
            return object(t, "expect-failed", location(d.span, position) + [("message", quote(d.message))])
        case .runtimeError(let t, let d):
            guard json else { return nil }
            return object(t, "error", location(d.span, position) + [("message", quote(d.message))])
        case .trace(let t, let values):
            if json {
                let fields = values.map { name, v in "\(quote(name)):\(v.map(jsonValue) ?? "null")" }
                return object(t, "trace", [("values", "{" + fields.joined(separator: ",") + "}")])
            }
            let body = values.map { name, v in "\(name)=\(v.map { $0.description } ?? "-")" }.joined(separator: " ")
            return (showTime ? "[\(t.eventStamp)] " : "") + body + "\n"
        }
    }

    private func location(_ span: Span, _ position: (Span) -> (file: String, line: Int, column: Int)?) -> [(String, String)] {
        guard let p = position(span) else { return [] }
        return [("file", quote(p.file)), ("line", String(p.line)), ("column", String(p.column))]
    }

    private func object(_ t: Time, _ kind: String, _ fields: [(String, String)]) -> String {
        var parts = ["\"time\":\(t.exactSeconds)", "\"ns\":\(t.ticks)", "\"event\":\(quote(kind))"]
        parts += fields.map { "\(quote($0.0)):\($0.1)" }
        return "{" + parts.joined(separator: ",") + "}\n"
    }
}

/// A JSON string literal (RFC 8259 §7 escapes). `htmlSafe` also escapes `<`, `>`, `&`,
/// U+2028 and U+2029, so the literal can sit inside an HTML `<script>`.
public func quote(_ s: String, htmlSafe: Bool = false) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            let html = htmlSafe && (u == "<" || u == ">" || u == "&" || u.value == 0x2028 || u.value == 0x2029)
            if u.value < 0x20 || html {
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// A value as JSON: numbers, `[x, y]` for points, `"#rrggbb"` for colors, seconds for times.
public func jsonValue(_ v: Value) -> String {
    switch v {
    case .number(let n): return jsonNumber(n)
    case .time(let t): return t.exactSeconds
    case .angle(let a): return jsonNumber(a.degrees)
    case .point(let p): return "[\(jsonNumber(p.x)),\(jsonNumber(p.y))]"
    case .color(let c): return quote(c.description)
    case .string(let s): return quote(s)
    case .bool(let b): return b ? "true" : "false"
    case .list(let vs): return "[" + vs.map(jsonValue).joined(separator: ",") + "]"
    case .shape(let id): return String(id.index)
    case .path(let p): return quote(p.text)
    case .gradient(let g): return quote(g.cssText)
    }
}

/// A number as JSON: the canonical form, or null if not finite.
func jsonNumber(_ x: Double) -> String { x.isFinite ? formatNumber(x) : "null" }
