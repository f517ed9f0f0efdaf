// Lexer: source bytes → tokens. A tight loop over the UTF-8 bytes that builds no String for a
// token; identifiers and keywords are ASCII. Newlines are tokens (statement separators) except
// inside `( )` and `[ ]`; inside `< >` they separate statements again. The lexer can be resumed:
// the parser pulls tokens a chunk at a time (`lex(into:atLeast:)`), so a script's tokens are
// never all in memory. Lexical errors are reported once, here (LexMessage), and become `.error`
// tokens that the parser skips without reporting again (Wren).

/// Turns a source into tokens, reporting lexical errors.
public struct Lexer {
    private let file: SourceFile
    /// The file's id, kept here for the spans (read for every token).
    private let source: SourceID
    /// The source's bytes, valid while a `lex` call runs (raw access keeps the inner loops tight).
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var pos = 0
    /// Lexing stops here (the end of the source, or of an interpolation).
    private let limit: Int
    /// Where tokens go during a `lex` call: a buffer on the stack, copied to the caller's
    /// array at the end of the call (appending to an array token by token cost a third of
    /// the lexer's instructions).
    private var out = UnsafeMutablePointer<Token>(bitPattern: 0x10)!
    /// How many tokens `out` holds.
    private var made = 0
    /// Open delimiters: `(`, `[` or `<`, innermost last.
    private var delimiters: [UInt8] = []
    private var sawSpace = true
    /// Whether the last token made was a newline (two line breaks make one token).
    private var lastWasNewline = false
    /// Whether `.eof` has been made: nothing more comes.
    public private(set) var isAtEnd = false
    /// Diagnostics found while lexing.
    public private(set) var diagnostics = DiagnosticBag()

    /// Creates a lexer for a source.
    public init(file: SourceFile) {
        self.file = file
        self.source = file.id
        self.limit = file.bytes.count
    }

    /// Creates a lexer for part of a source (the expression inside a string's `{ }`).
    public init(file: SourceFile, range: Range<Int>) {
        self.file = file
        self.source = file.id
        self.pos = range.lowerBound
        self.limit = range.upperBound
    }

    /// Lexes a whole source: `tokens` ends with `.eof`.
    public static func tokenize(_ file: SourceFile) -> (tokens: [Token], diagnostics: DiagnosticBag) {
        var lexer = Lexer(file: file)
        let tokens = lexer.tokenize()
        return (tokens, lexer.diagnostics)
    }

    /// Lexes the rest of the source.
    public mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        tokens.reserveCapacity((limit - pos) / 3 + 1)
        tokenize(appendingTo: &tokens)
        return tokens
    }

    /// Lexes the rest of the source onto the end of `tokens` (the parser's interpolations
    /// reuse one array this way).
    public mutating func tokenize(appendingTo tokens: inout [Token]) {
        // No more tokens than bytes are left (each takes at least one, `.eof` aside): a short
        // range (a string's `{ }`) gets a buffer its size, not one of 4096 tokens.
        while !isAtEnd { lex(into: &tokens, atLeast: min(4096, limit - pos + 1)) }
    }

    /// The most tokens one `lex` call makes beyond what it was asked for: a number written
    /// against an `x` (`400x700`) makes two, and the end of input one more.
    private static let slack = 3

    /// Appends the next tokens to `tokens`: at least `count` of them (at most 4096 a call),
    /// fewer only when the source ends first (its `.eof` is then the last).
    public mutating func lex(into tokens: inout [Token], atLeast count: Int) {
        guard !isAtEnd else { return }
        let goal = min(count, 4096)
        withUnsafeTemporaryAllocation(of: Token.self, capacity: goal + Lexer.slack) { buffer in
            out = buffer.baseAddress!
            made = 0
            file.bytes.withUnsafeBufferPointer { b in
                bytes = b
                while made < goal {
                    skipSpaceAndComments()
                    guard pos < limit else { break }
                    // Names and numbers, most tokens, go straight to their scanners.
                    let c = bytes[pos]
                    if isNameStart(c) { lexName() } else if isDigit(c) { lexNumber() } else { lexOne() }
                }
            }
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            if made < goal {
                add(.eof, start: limit, end: limit)
                isAtEnd = true
            }
            tokens.append(contentsOf: UnsafeBufferPointer(start: out, count: made))
        }
    }

    // MARK: - Scanning

    @inline(__always)
    private mutating func skipSpaceAndComments() {
        var p = pos
        while p < limit {
            let c = bytes[p]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C {
                p += 1; sawSpace = true
            } else if c == 0x23 /* # */ {
                if hexColorLength(at: p) != nil { break }
                while p < limit && bytes[p] != 0x0A { p += 1 }
            } else if c == 0x0A {
                pos = p
                newline()
                p = pos
            } else {
                break
            }
        }
        pos = p
    }

    /// Handles a line break at `pos`: a token unless inside `( )` or `[ ]`.
    private mutating func newline() {
        let at = pos
        pos += 1
        sawSpace = true
        if let top = delimiters.last, top != 0x3C /* < */ {
            // Recovery: an unclosed `(` or `[` stops at a line that starts, unindented, with a
            // statement keyword, so one missing `)` does not swallow the rest of the file.
            guard startsStatementLine(at: pos) else { return }
            while let t = delimiters.last, t != 0x3C { delimiters.removeLast() }
        }
        if !lastWasNewline { add(.newline, start: at, end: at + 1) }
    }

    private func startsStatementLine(at p: Int) -> Bool {
        var e = p
        while e < limit, isNameByte(bytes[e]) { e += 1 }
        guard e > p, let kw = Keyword.lookup(bytes, p, e) else { return false }
        switch kw {
        case .stage, .rect, .circle, .group, .let, .seed, .define, .animate, .spring, .wait, .print,
             .set, .expect, .stagger, .play, .on, .pause, .resume, .seek, .reverse, .interrupt,
             .save, .restore:
            return true
        default:
            return false
        }
    }

    /// Everything but a name or a number that starts with a digit.
    private mutating func lexOne() {
        let start = pos
        let c = bytes[pos]
        if c == 0x2E && pos + 1 < limit && isDigit(bytes[pos + 1]) { return lexNumber() }
        pos += 1
        let next: UInt8 = pos < limit ? bytes[pos] : 0
        switch c {
        case 0x22: lexString(start)
        case 0x23:
            let n = hexColorLength(at: start)!
            pos = start + 1 + n
            add(.color, start: start, end: pos)
        case 0x28: delimiters.append(0x28); add(.lparen, start: start, end: pos)
        case 0x29: close(0x28); add(.rparen, start: start, end: pos)
        case 0x5B: delimiters.append(0x5B); add(.lbracket, start: start, end: pos)
        case 0x5D: close(0x5B); add(.rbracket, start: start, end: pos)
        case 0x3C:
            if next == 0x3D { pos += 1; add(.lessEqual, start: start, end: pos) } else {
                delimiters.append(0x3C); add(.lt, start: start, end: pos)
            }
        case 0x3E:
            if next == 0x3D { pos += 1; add(.greaterEqual, start: start, end: pos) } else {
                // `>` closes the innermost block, and any `(`/`[` left open inside it.
                if let i = delimiters.lastIndex(of: 0x3C) { while delimiters.count > i { delimiters.removeLast() } }
                add(.gt, start: start, end: pos)
            }
        case 0x2C: add(.comma, start: start, end: pos)
        case 0x3B: add(.semicolon, start: start, end: pos)
        case 0x2E: add(.dot, start: start, end: pos)
        case 0x3A: add(.colon, start: start, end: pos)
        case 0x2A: add(.star, start: start, end: pos)
        case 0x2F: add(.slash, start: start, end: pos)
        case 0x2B:
            if next == 0x3D { pos += 1; add(.plusEqual, start: start, end: pos) } else { add(.plus, start: start, end: pos) }
        case 0x2D:
            if next == 0x3D { pos += 1; add(.minusEqual, start: start, end: pos) } else { add(.minus, start: start, end: pos) }
        case 0x3D:
            if next == 0x3D { pos += 1; add(.equalEqual, start: start, end: pos) } else { add(.equal, start: start, end: pos) }
        case 0x21:
            if next == 0x3D { pos += 1; add(.bangEqual, start: start, end: pos) } else {
                error(.loneBang, start, pos)
            }
        case 0x26 where next == 0x26, 0x7C where next == 0x7C:  // && ||
            pos += 1
            error(.foreignLogic(c == 0x26 ? "&&" : "||"), start, pos)
        default:
            lexUnexpected(start)
        }
    }

    private mutating func close(_ open: UInt8) {
        if delimiters.last == open { delimiters.removeLast() }
    }

    /// An identifier or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
    @inline(__always)
    private mutating func lexName() {
        let start = pos
        var p = pos + 1
        while p < limit, isNameByte(bytes[p]) { p += 1 }
        pos = p
        // Keywords are 2 to 9 lowercase letters: a name ending otherwise (`o12`) is none.
        if p - start >= 2, bytes[p - 1] &- 0x61 < 26, let kw = Keyword.lookup(bytes, start, p) {
            add(.keyword, start: start, end: p, keyword: kw)
        } else {
            add(.identifier, start: start, end: p)
        }
    }

    /// `12`, `1.5`, `.5`, `2e-3`, then an optional unit suffix (`s ms deg rad turn`, or `%`).
    private mutating func lexNumber() {
        let start = pos
        var p = pos
        while p < limit, isDigit(bytes[p]) { p += 1 }
        if p < limit, bytes[p] == 0x2E, p + 1 < limit, isDigit(bytes[p + 1]) {
            p += 1
            while p < limit, isDigit(bytes[p]) { p += 1 }
        }
        // An exponent needs a digit after `e` (and its sign), so `2ease` is not a number.
        if p < limit, bytes[p] | 0x20 == 0x65 /* e */ {
            var q = p + 1
            if q < limit, bytes[q] == 0x2B || bytes[q] == 0x2D { q += 1 }
            if q < limit, isDigit(bytes[q]) {
                p = q
                while p < limit, isDigit(bytes[p]) { p += 1 }
            }
        }
        pos = p
        var unit = NumberUnit.none
        if pos < limit, bytes[pos] == 0x25 /* % */ {
            unit = .percent
            pos += 1
        } else if pos < limit, isNameStart(bytes[pos]) {
            var e = pos
            while e < limit, isNameByte(bytes[e]) { e += 1 }
            if let u = NumberUnit(suffix: UnsafeBufferPointer(rebasing: bytes[pos..<e])) {
                unit = u
                pos = e
            } else if bytes[pos] == 0x78 /* x */, bytes[(pos + 1)..<e].allSatisfy(isDigit) {
                // `400x700` lexes as `400 x 700`: the number, an `x`, then the next number.
                add(.number, start: start, end: pos)
                add(.identifier, start: pos, end: pos + 1)
                pos += 1
                return
            } else {
                // Any other suffix is a misspelt unit.
                let suffix = String(decoding: bytes[pos..<e], as: UTF8.self)
                error(.unknownUnit(suffix, suggestion: DidYouMean.suggest(suffix, from: LexMessage.units)), pos, e)
                pos = e
                return
            }
        }
        add(.number, start: start, end: pos, unit: unit)
    }

    /// A string `"..."`; `{expr}` inside it is interpolation (checked by the parser), and
    /// `\"`, `\\`, `\n`, `\t`, `\{`, `\}` are escapes. Strings end at the line's end.
    private mutating func lexString(_ start: Int) {
        var depth = 0
        var inInner = false
        while pos < limit {
            let c = bytes[pos]
            if c == 0x0A { break }
            // A backslash escapes the next byte, but never the line break: strings end at the line's end.
            if c == 0x5C /* \ */ { pos += pos + 1 < limit && bytes[pos + 1] == 0x0A ? 1 : 2; continue }
            if depth > 0 && c == 0x22 { inInner.toggle(); pos += 1; continue }
            if !inInner {
                if c == 0x7B { depth += 1 } else if c == 0x7D && depth > 0 { depth -= 1 } else if c == 0x22 && depth == 0 {
                    pos += 1
                    if let bad = firstInvalidUTF8(from: start, to: pos) {
                        error(.invalidUTF8InString(bytes[bad]), bad, bad + 1)
                    } else {
                        add(.string, start: start, end: pos)
                    }
                    return
                }
            }
            pos += 1
        }
        pos = min(pos, limit)
        error(.unterminatedString, start, pos)
    }

    /// The offset of the first byte in `start..<end` that does not begin a valid UTF-8
    /// sequence, or nil (ASCII-only text is checked byte by byte, without decoding).
    private func firstInvalidUTF8(from start: Int, to end: Int) -> Int? {
        var p = start
        while p < end {
            let c = bytes[p]
            if c < 0x80 { p += 1; continue }
            let len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            guard p + len <= end, let s = String(validating: bytes[p..<(p + len)], as: UTF8.self), !s.isEmpty else { return p }
            p += len
        }
        return nil
    }

    private mutating func lexUnexpected(_ start: Int) {
        let c = bytes[start]
        if c >= 0x80 {
            // Decode one scalar to name it; invalid UTF-8 is its own error.
            let len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            let end = min(limit, start + len)
            let s = String(validating: bytes[start..<end], as: UTF8.self)
            pos = end
            if let s, !s.isEmpty {
                error(.unexpectedCharacter(s), start, end)
            } else {
                error(.invalidUTF8(c), start, start + 1)
                pos = start + 1
            }
            return
        }
        error(.unexpectedByte(c), start, pos)
    }

    /// If `#` at `p` starts a hex color (3, 4, 6 or 8 hex digits, then a byte that cannot
    /// continue a name), the number of digits.
    private func hexColorLength(at p: Int) -> Int? {
        var e = p + 1
        while e < limit, isHexDigit(bytes[e]) { e += 1 }
        let n = e - p - 1
        guard n == 3 || n == 4 || n == 6 || n == 8 else { return nil }
        if e < limit, isNameByte(bytes[e]) { return nil }
        return n
    }

    // MARK: - Helpers

    @inline(__always)
    private mutating func add(_ kind: TokenKind, start: Int, end: Int, keyword: Keyword? = nil, unit: NumberUnit = .none) {
        var t = Token(kind: kind, span: Span(source: source, start: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: end)),
                      keyword: keyword, unit: unit)
        t.spaceBefore = sawSpace
        sawSpace = kind == .newline
        lastWasNewline = kind == .newline
        out[made] = t
        made &+= 1
    }

    private mutating func error(_ m: LexMessage, _ start: Int, _ end: Int) {
        diagnostics.error(m.message, at: span(start, end), label: m.label, help: m.help)
        var t = Token(kind: .error, span: span(start, end))
        t.spaceBefore = sawSpace
        sawSpace = false
        lastWasNewline = false
        out[made] = t
        made &+= 1
    }

    private func span(_ s: Int, _ e: Int) -> Span { Span(source: source, start: s, end: e) }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }
@inline(__always) func isNameStart(_ c: UInt8) -> Bool { (c | 0x20) &- 0x61 < 26 || c == 0x5F }
@inline(__always) func isNameByte(_ c: UInt8) -> Bool { isNameStart(c) || isDigit(c) }
@inline(__always) func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || (c | 0x20) &- 0x61 < 6 }

extension Keyword {
    /// The keyword spelled by `bytes[start..<end]`, if any. The first eight bytes, read as one
    /// little-endian word, are compared with each keyword of that length (no hashing, no table:
    /// a perfect hash into a table measured slower than this switch).
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword? {
        let n = end - start
        guard n >= 2, n <= 9 else { return nil }
        var w: UInt64 = 0
        if start + 8 <= bytes.count {
            // One little-endian load; the bytes past the name are masked off.
            w = UnsafeRawPointer(bytes.baseAddress! + start).loadUnaligned(as: UInt64.self)
            if n < 8 { w &= (1 << (8 * UInt64(n))) &- 1 }
        } else {
            for i in 0..<min(n, 8) { w |= UInt64(bytes[start + i]) << (8 * UInt64(i)) }
        }
        switch n {
        case 2:
            switch w {
            case 0x0000000000006E69: return .in
            case 0x0000000000007361: return .as
            case 0x0000000000007461: return .at
            case 0x0000000000006E6F: return .on
            default: return nil
            }
        case 3:
            switch w {
            case 0x000000000074656C: return .let
            case 0x0000000000746573: return .set
            case 0x0000000000726F66: return .for
            default: return nil
            }
        case 4:
            switch w {
            case 0x0000000074636572: return .rect
            case 0x0000000074786574: return .text
            case 0x0000000064656573: return .seed
            case 0x0000000074696177: return .wait
            case 0x000000006F796F79: return .yoyo
            case 0x000000006D6F7266: return .from
            case 0x000000006E656874: return .then
            case 0x0000000068746977: return .with
            case 0x0000000079616C70: return .play
            case 0x000000006B656573: return .seek
            case 0x0000000065766173: return .save
            case 0x0000000065736165: return .ease
            case 0x0000000065757274: return .true
            default: return nil
            }
        case 5:
            switch w {
            case 0x0000006567617473: return .stage
            case 0x00000070756F7267: return .group
            case 0x000000746E697270: return .print
            case 0x0000007265746661: return .after
            case 0x0000006573756170: return .pause
            case 0x00000079616C6564: return .delay
            case 0x0000006465657073: return .speed
            case 0x00000065736C6166: return .false
            default: return nil
            }
        case 6:
            switch w {
            case 0x0000656C63726963: return .circle
            case 0x0000656E69666564: return .define
            case 0x0000676E69727073: return .spring
            case 0x0000746365707865: return .expect
            case 0x0000746165706572: return .repeat
            case 0x0000656D75736572: return .resume
            case 0x00006E6968746977: return .within
            default: return nil
            }
        case 7:
            switch w {
            case 0x006574616D696E61: return .animate
            case 0x0072657665726F66: return .forever
            case 0x0072656767617473: return .stagger
            case 0x0065737265766572: return .reverse
            case 0x0065726F74736572: return .restore
            default: return nil
            }
        case 8:
            switch w {
            case 0x6465737265766572: return .reversed
            default: return nil
            }
        case 9:
            switch w {
            case 0x7075727265746E69 where bytes[start + 8] == 116 /* t */: return .interrupt
            default: return nil
            }

        default:
            return nil
        }
    }
}
