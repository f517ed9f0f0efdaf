// DidYouMean: the closest name in scope to a misspelt one, by edit distance
// (Damerau–Levenshtein with adjacent transpositions, as rustc's suggestions use).

/// Suggests the closest candidate to a misspelt name.
public enum DidYouMean {
    /// The best candidate within a distance that scales with the name's length, or nil.
    /// Ties go to the candidate listed first, so callers order candidates by preference.
    /// A candidate must keep at least one character of the name: replacing every character
    /// is no misspelling (`x` is not a typo of `z`, nor `e` of `s`).
    public static func suggest(_ name: String, from candidates: some Sequence<String>) -> String? {
        let limit = max(1, name.count / 3)
        var best: (String, Int)?
        let lower = name.lowercased()
        for c in candidates where c != name {
            if c.lowercased() == lower { return c }
            let d = distance(name, c)
            if d <= limit, d < max(name.count, c.count), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    /// The optimal-string-alignment distance between two strings.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cur[j] = min(cur[j], prev2[j - 2] + 1)
                }
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }

    /// `; did you mean 'x'?` or the empty string.
    public static func suffix(_ name: String, from candidates: some Sequence<String>) -> String {
        guard let s = suggest(name, from: candidates) else { return "" }
        return "; did you mean '\(s)'?"
    }
}
