// TriviaEdit: whether an edit changes only trivia — spaces, tabs, line breaks that make no
// token, the text of comments — so that the new text is the same tokens as the old, in the same
// order, each with the same kind, text and space before it, only moved. Every pass reads the
// tokens alone (the parser, and through its tree the checker, the graphs and the timing run),
// so a full analysis of the new text finds what the old one did, at spans moved past the edit.
//
// Lexing is local to lines: a comment and a string end at the line's end, so every line starts
// at a token boundary. The lines an edit touches are lexed again, alone, in both texts: the
// tokens there being the same (and no lexical error), the lexer leaves those lines in the same
// state in both (the same delimiters opened and closed, the same last token), and the rest of
// the text is the same bytes.

/// The proof that an edit changes only trivia.
public enum TriviaEdit {
    /// Whether `new` is `old` with only trivia changed, where the two differ in `p..<oldEnd`
    /// of `old` and `p..<newEnd` of `new` (before `p` and after the ends they are the same).
    public static func sameTokens(old: [UInt8], new: [UInt8], from p: Int, oldEnd: Int, newEnd: Int) -> Bool {
        // The lines the edit touches: from the start of the line of `p` to the end of the line
        // of each end (its line break included), in each text.
        var start = p
        while start > 0 && old[start - 1] != 0x0A { start -= 1 }
        func lineEnd(_ bytes: [UInt8], _ from: Int) -> Int {
            var e = from
            while e < bytes.count && bytes[e] != 0x0A { e += 1 }
            return min(e + 1, bytes.count)
        }
        let oldLines = Array(old[start..<lineEnd(old, oldEnd)]), newLines = Array(new[start..<lineEnd(new, newEnd)])
        let a = SourceFile(id: 0, name: "", bytes: oldLines), b = SourceFile(id: 0, name: "", bytes: newLines)
        let (x, xd) = Lexer.tokenize(a), (y, yd) = Lexer.tokenize(b)
        guard xd.all.isEmpty, yd.all.isEmpty, x.count == y.count else { return false }
        for (s, t) in zip(x, y) {
            guard s.kind == t.kind, s.kind != .error, s.keyword == t.keyword, s.unit == t.unit, s.spaceBefore == t.spaceBefore,
                  oldLines[Int(s.span.start)..<Int(s.span.end)].elementsEqual(newLines[Int(t.span.start)..<Int(t.span.end)])
            else { return false }
        }
        return true
    }
}

/// The proof that an edit changes only the text a `print` prints: plain characters typed into,
/// or deleted from, the text of a string that is a `print`'s whole value, outside its `{ }`
/// and its escapes. The string stays one token with the same interpolations; its text only
/// reaches the printed line, which checking discards: no diagnostic and no time depends on it.
public enum PrintTextEdit {
    /// The spans of the strings that are a `print`'s whole value, in order.
    public static func printedStrings(in tree: SyntaxTree) -> [Span] {
        var out: [Span] = []
        for raw in 0..<Int32(tree.nodes.count) where tree.nodes[Int(raw)].kind == .print {
            guard case .print(let p) = tree[StepID(raw: raw)], case .string(let s) = tree[p.value] else { continue }
            out.append(s.span)
        }
        return out.sorted { $0.start < $1.start }
    }

    /// Whether bytes may be typed or deleted as a string's plain text: printable ASCII that
    /// starts no escape, interpolation or end of the string.
    public static func isPlain(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C && $0 != 0x7B && $0 != 0x7D }
    }

    /// Whether `region` (base offsets) lies in the plain text of the string at `string` in
    /// `bytes`: between its quotes, outside every `{ }` and escape, where an insertion at its
    /// start would not land inside an escape either (the scan follows Lexer.lexString).
    public static func isInPlainText(_ region: Range<Int>, of string: Span, in bytes: [UInt8]) -> Bool {
        let open = Int(string.start), close = Int(string.end) - 1
        guard open < region.lowerBound, region.upperBound <= close, close < bytes.count, bytes[open] == 0x22 else { return false }
        var depth = 0, inInner = false
        var i = open + 1
        while i < close {
            let c = bytes[i]
            let plain = depth == 0 && c != 0x5C && c != 0x7B && c != 0x7D
            // The region's bytes must be plain text, and an insertion point must be a boundary
            // at depth 0 (not after a backslash).
            if i >= region.lowerBound && i < region.upperBound && !plain { return false }
            if c == 0x5C {
                if region.lowerBound == i + 1 || (region.lowerBound <= i + 1 && i + 1 < region.upperBound) { return false }
                i += 2
                continue
            }
            if depth > 0 && c == 0x22 { inInner.toggle(); i += 1; continue }
            if !inInner {
                if c == 0x7B { depth += 1 } else if c == 0x7D && depth > 0 { depth -= 1 }
            }
            i += 1
            if i == region.lowerBound && depth != 0 { return false }
        }
        return true
    }
}
