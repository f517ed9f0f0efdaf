// FormatLayout: the canonical layout of a script, computed from the lexer's tokens and the
// comments between them. The formatter keeps every line break the author wrote (blank lines
// collapse to one) and decides only what a line holds and how it is spaced:
//
// - indentation: four spaces for each line that left a `<`, `(` or `[` open, a line that
//   starts by closing one dedented (`> then < … >` stays at the block's own level);
// - one space between tokens, none inside `( )` and `[ ]`, before `,` `;`, around `.`, after
//   a unary minus, before the `(` of a call, an easing's parameters, `define f(…)` and
//   `play f(…)` and the `[` of an index or an array declaration (`min(1, 2)` is a call, `min (1, 2)` a name and a
//   point: the tree says which is which); `word-word` written joined stays joined (an easing
//   name, `damping-ratio`), since spaces would make it a subtraction;
// - `then` at the start of a line: a `then` that ends a line moves to the next one, and a line
//   wider than `FormatLayout.width` is broken before each `then` of its own chain;
// - comments where they were: a comment on its own line takes the indentation of the code
//   around it; a comment after code keeps its column (so aligned `#>` expectations stay
//   aligned) or, when the code grew into it, moves right to stay one or two spaces after the
//   code (two if it had at least two).
// Comment bytes are copied as they are (they may hold any bytes), less trailing spaces.

/// Computes the formatted bytes of a parsed script.
struct FormatLayout {
    /// A line wider than this (in characters, comments aside) is broken before its `then`s.
    static let width = 100
    /// Spaces per indentation level.
    static let indentWidth = 4

    let file: SourceFile
    let tokens: [Token]
    /// Byte offsets of the `-` tokens that are a sign (unary minus, a negative easing argument).
    let signs: Set<UInt32>
    /// Byte offsets of the `(` and `[` that must follow what is before them with no space: a
    /// call's, an index's, an easing's parameters (Grammar.md §1.8).
    let postfix: Set<UInt32>

    /// One thing the layout places: a token, or a comment (its bytes, `#` to the line's end).
    enum Element {
        case token(Int)
        /// `column` is where it started, `gap` the spaces before it (0, 1 or 2: at most two are
        /// kept when the code before it grows into its column).
        case comment(Range<Int>, column: Int, gap: Int)
    }

    /// An element and the line breaks written before it (0: on the line of the one before).
    struct Placed {
        var element: Element
        var breaks: Int
    }

    init(file: SourceFile, tokens: [Token], tree: SyntaxTree) {
        self.file = file
        self.tokens = tokens
        var signs = Set<UInt32>(), postfix = Set<UInt32>()
        for i in 0..<tree.nodes.count {
            let n = tree.nodes[i]
            switch n.kind {
            case .unary: signs.insert(n.start)
            case .easingNumber where file.bytes[Int(n.start)] == 0x2D /* - */: signs.insert(n.start)
            case .call: postfix.insert(UInt32(n.a))
            case .easing where n.b >= 0: postfix.insert(UInt32(n.a))
            case .index: postfix.insert(tree.span(ofNode: n.a).end)
            default: break
            }
        }
        self.signs = signs
        self.postfix = postfix
    }

    // MARK: - Elements

    /// The tokens (but line breaks and the end) and the comments, in source order, each with
    /// the line breaks before it.
    func elements() -> [Placed] {
        var out: [Placed] = []
        let bytes = file.bytes
        var gapStart = 0
        func scanGap(to end: Int) -> Int {
            // Line breaks and comments between two tokens; returns the breaks after the last comment.
            var breaks = 0
            var p = gapStart
            while p < end {
                let c = bytes[p]
                if c == 0x0A {
                    breaks += 1; p += 1
                } else if c == 0x23 /* # */ {
                    var e = p
                    while e < end && bytes[e] != 0x0A { e += 1 }
                    var trimmed = e
                    while trimmed > p, bytes[trimmed - 1] == 0x20 || bytes[trimmed - 1] == 0x09 || bytes[trimmed - 1] == 0x0D || bytes[trimmed - 1] == 0x0C {
                        trimmed -= 1
                    }
                    var gap = 0
                    while gap < 2, p - gap > gapStart, bytes[p - gap - 1] == 0x20 || bytes[p - gap - 1] == 0x09 { gap += 1 }
                    out.append(Placed(element: .comment(p..<trimmed, column: column(of: p), gap: gap),
                                      breaks: out.isEmpty ? max(breaks, 1) : breaks))
                    breaks = 0
                    p = e
                } else {
                    p += 1
                }
            }
            return breaks
        }
        for (i, t) in tokens.enumerated() where t.kind != .newline && t.kind != .eof {
            let breaks = scanGap(to: Int(t.span.start))
            out.append(Placed(element: .token(i), breaks: out.isEmpty ? 1 : breaks))
            gapStart = Int(t.span.end)
        }
        _ = scanGap(to: bytes.count)
        return out
    }

    /// The 0-based column of a byte offset, in characters (UTF-8 lead bytes), tabs as one.
    func column(of offset: Int) -> Int {
        let start = file.lineStarts[file.lineIndex(of: offset)]
        return characterCount(file.bytes[start..<offset])
    }

    /// Moves each `then` that ends its line to the start of the next code line (after any
    /// comment lines between), where Grammar.md §1.4 reads it the same.
    func movingThen(_ placed: [Placed]) -> [Placed] {
        var out = placed
        var i = 0
        while i < out.count {
            guard case .token(let k) = out[i].element, tokens[k].is(.then) else { i += 1; continue }
            // The next token, and whether a line break comes before it.
            var j = i + 1
            var broken = false
            while j < out.count, case .comment = out[j].element { broken = broken || out[j].breaks > 0; j += 1 }
            guard j < out.count, broken || out[j].breaks > 0 else { i += 1; continue }
            let then = out.remove(at: i)
            j -= 1
            // A comment that followed a `then` alone on its line keeps its own line.
            if then.breaks > 0, i < out.count, case .comment = out[i].element, out[i].breaks == 0 {
                out[i].breaks = then.breaks
            }
            let breaks = out[j].breaks
            out[j].breaks = 0
            out.insert(Placed(element: then.element, breaks: breaks), at: j)
            i = j + 1
        }
        return out
    }

    // MARK: - Lines

    /// One line of output: its indentation level, its pieces of code, a trailing comment.
    struct Line {
        var blankBefore = false
        var level = 0
        /// The code: each token's text with whether a space comes before it; `breakable` marks
        /// a `then` at the line's own nesting depth (a place to break a long line).
        var pieces: [(text: [UInt8], space: Bool, breakable: Bool)] = []
        var comment: (bytes: Range<Int>, column: Int, gap: Int)?
        var commentOnly: Range<Int>?
    }

    /// The formatted bytes.
    func format() -> [UInt8] {
        let placed = movingThen(elements())
        var lines: [Line] = []
        /// Open brackets: the line each was opened on.
        var open: [Int] = []
        /// Whether the current line's level is settled (by its first token that is not a closer).
        var levelSettled = false
        var current: Line?
        var previous: Int?
        /// The bracket depth at the start of the current line (for breakable `then`s).
        var depthAtLineStart = 0
        var lowest = 0
        func level() -> Int {
            var n = 0
            var last = -1
            for l in open where l != last { n += 1; last = l }
            return n
        }
        for p in placed {
            let startsLine = p.breaks > 0 || current == nil
            if startsLine, let c = current { lines.append(c); current = nil }
            switch p.element {
            case .comment(let r, let col, let gap):
                if startsLine {
                    var l = Line()
                    l.blankBefore = p.breaks > 1 && !lines.isEmpty
                    l.level = level()
                    l.commentOnly = r
                    lines.append(l)
                } else {
                    current!.comment = (r, col, max(1, gap))
                }
            case .token(let k):
                let t = tokens[k]
                if startsLine {
                    var l = Line()
                    l.blankBefore = p.breaks > 1 && !lines.isEmpty
                    current = l
                    levelSettled = false
                    depthAtLineStart = open.count
                    lowest = open.count
                    previous = nil
                }
                // A line's level is counted after the closers it starts with.
                let closes = t.kind == .rparen || t.kind == .rbracket || t.kind == .gt
                if closes, !open.isEmpty { open.removeLast() }
                lowest = min(lowest, open.count)
                if !levelSettled {
                    current!.level = level()
                    levelSettled = !closes
                }
                let breakable = t.is(.then) && previous != nil && open.count == depthAtLineStart && lowest == depthAtLineStart
                current!.pieces.append((text: Array(file.bytes[Int(t.span.start)..<Int(t.span.end)]),
                                        space: previous.map { space(between: $0, and: k) } ?? false, breakable: breakable))
                if t.kind == .lparen || t.kind == .lbracket || t.kind == .lt { open.append(lines.count) }
                previous = k
            }
        }
        if let c = current { lines.append(c) }
        return render(lines)
    }

    func render(_ lines: [Line]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(file.bytes.count + file.bytes.count / 8)
        for line in lines {
            if line.blankBefore { out.append(0x0A) }
            let indent = [UInt8](repeating: 0x20, count: line.level * FormatLayout.indentWidth)
            if let r = line.commentOnly {
                out += indent
                out += file.bytes[r]
                out.append(0x0A)
                continue
            }
            // The code, broken before its `then`s when it is too wide.
            var code = line.pieces.reduce(into: [UInt8]()) { s, p in if p.space { s.append(0x20) }; s += p.text }
            var rows: [[UInt8]] = [code]
            if indent.count + characterCount(code[...]) > FormatLayout.width, line.pieces.contains(where: { $0.breakable }) {
                rows = []
                code = []
                for p in line.pieces {
                    if p.breakable { rows.append(code); code = [] } else if p.space { code.append(0x20) }
                    code += p.text
                }
                rows.append(code)
            }
            for (n, row) in rows.enumerated() {
                out += indent
                out += row
                if n == rows.count - 1, let c = line.comment {
                    let width = indent.count + characterCount(row[...])
                    let gap = rows.count == 1 ? max(c.gap, c.column - width) : c.gap
                    out += [UInt8](repeating: 0x20, count: gap)
                    out += file.bytes[c.bytes]
                }
                out.append(0x0A)
            }
        }
        return out
    }

    // MARK: - Spacing

    /// Whether one space goes between tokens `a` and `b` (adjacent on one line).
    func space(between a: Int, and b: Int) -> Bool {
        let p = tokens[a], c = tokens[b]
        switch c.kind {
        case .rparen, .rbracket, .comma, .semicolon, .dot: return false
        default: break
        }
        switch p.kind {
        case .lparen, .lbracket, .dot: return false
        case .minus where signs.contains(p.span.start): return false
        default: break
        }
        if c.kind == .lparen || c.kind == .lbracket {
            // A call, an index or an easing's parameters need their bracket right after; the
            // parameters of `define NAME(…)` and `play NAME(…)` and an array's size
            // (`rect card[5]`) are written so too.
            if postfix.contains(c.span.start) { return false }
            guard p.kind == .identifier, a > 0 else { return true }
            let before = tokens[a - 1]
            if c.kind == .lparen { return !(before.is(.define) || before.is(.play)) }
            if before.is(.rect) || before.is(.circle) || before.is(.text) { return false }
            // `polygon p[3]`: the outline shapes are words, not keywords (Grammar.md §3).
            if before.kind == .identifier, isShapeWord(before) { return false }
            return true
        }
        // `word-word`: an easing name or a hyphenated key, read whole only when written so.
        if c.kind == .minus, !c.spaceBefore, isWord(p), b + 1 < tokens.count, isWord(tokens[b + 1]), !tokens[b + 1].spaceBefore {
            return false
        }
        if p.kind == .minus, !c.spaceBefore, isWord(c), a > 0, isWord(tokens[a - 1]), !p.spaceBefore {
            return false
        }
        return true
    }

    func isWord(_ t: Token) -> Bool { t.kind == .identifier || t.kind == .keyword }

    /// Whether a word token is one of the outline shapes' words (`line`, `polygon`, …).
    func isShapeWord(_ t: Token) -> Bool {
        let word = file.bytes[Int(t.span.start)..<Int(t.span.end)]
        return ShapeKind.contextualKinds.contains { Array($0.rawValue.utf8)[...] == word }
    }
}

/// The number of characters in UTF-8 bytes (the bytes that do not continue a sequence).
func characterCount(_ bytes: ArraySlice<UInt8>) -> Int {
    var n = 0
    for b in bytes where b & 0xC0 != 0x80 { n += 1 }
    return n
}
