// Fixes: the mechanical repairs a diagnostic's own words describe, as edits — a did-you-mean
// (replace the misspelt name under the carets with the suggestion), the help that says to
// write 'then' before a step (insert it), and the help that says to put a space after '#'
// (a colour that was meant as a comment). Every did-you-mean in anim is written by one phrase,
// "; did you mean 'x'?" (DidYouMean.suffix and the message catalogues), and names the
// misspelling first in quotes, so the text is the data; a fix is offered only when the
// misspelt word is found under the diagnostic's span.

/// One edit that repairs a diagnostic.
public struct Fix: Hashable, Sendable {
    /// What it does, for a menu.
    public var title: String
    /// What it replaces (empty: an insertion).
    public var span: Span
    /// The new text.
    public var replacement: String
}

extension Diagnostic {
    /// The fixes for this diagnostic, reading its span's text in `file`.
    public func fixes(in file: SourceFile) -> [Fix] {
        guard span.source == file.id else { return [] }
        var out: [Fix] = []
        if let meant = Diagnostic.quoted(after: "did you mean '", in: message), let wrong = Diagnostic.quoted(after: "'", in: message) {
            let text = file.text(of: span)
            if text == wrong {
                out.append(Fix(title: "Replace '\(wrong)' with '\(meant)'", span: span, replacement: meant))
            } else if let r = Diagnostic.find(Array(wrong.utf8), in: Array(text.utf8)) {
                let s = Span(source: span.source, start: Int(span.start) + r, end: Int(span.start) + r + wrong.utf8.count)
                out.append(Fix(title: "Replace '\(wrong)' with '\(meant)'", span: s, replacement: meant))
            }
        }
        if let h = help, h.hasPrefix("write 'then' before") {
            out.append(Fix(title: "Add 'then' (run it after the step before)", span: .point(span.source, Int(span.start)), replacement: "then "))
        }
        if let h = help, h.hasPrefix("put a space after '#'"), file.bytes.indices.contains(Int(span.start)), file.bytes[Int(span.start)] == UInt8(ascii: "#") {
            out.append(Fix(title: "Put a space after '#' (make it a comment)", span: .point(span.source, Int(span.start) + 1), replacement: " "))
        }
        return out
    }

    /// The text between `opening` and the next `'` in `s`.
    static func quoted(after opening: String, in s: String) -> String? {
        let b = Array(s.utf8), o = Array(opening.utf8)
        guard let at = find(o, in: b) else { return nil }
        let rest = b[(at + o.count)...]
        guard let close = rest.firstIndex(of: UInt8(ascii: "'")) else { return nil }
        return String(decoding: rest[..<close], as: UTF8.self)
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        return (0...(hay.count - needle.count)).first { hay[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
