// StringInterpolation: where a string literal's `{ … }` interpolation ends, found one way for the
// parser (which parses the expression inside) and for the editor's semantic tokens (which
// colour it), so the two never disagree about which bytes are an expression.

/// The scan of a string literal's interpolations.
public enum Interpolation {
    /// The offset of the `}` that closes the `{` at `open`, searching `bytes` before `end` (the
    /// string's closing quote): a backslash escapes the next byte, and braces inside a nested
    /// string do not count. Nil when the brace is not closed before `end`.
    public static func closingBrace(_ bytes: [UInt8], open: Int, end: Int) -> Int? {
        var j = open + 1, nesting = 1, inString = false
        while j < end {
            let d = bytes[j]
            if d == 0x5C { j += 2; continue }
            if d == 0x22 { inString.toggle() } else if !inString && d == 0x7B { nesting += 1 } else if !inString && d == 0x7D {
                nesting -= 1
                if nesting == 0 { return j }
            }
            j += 1
        }
        return nil
    }
}
