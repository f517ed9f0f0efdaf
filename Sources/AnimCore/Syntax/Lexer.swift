// Lexer: source bytes → tokens. Works directly on UTF-8 bytes; identifiers and keywords are
// ASCII. Newlines are tokens (statement separators) except inside `( )` and `[ ]`; inside
// `< >` they separate statements again. Lexical errors are reported once, here, and become
// `.error` tokens that the parser skips without reporting again (Wren).

/// Turns a source into tokens, reporting lexical errors.
public struct Lexer {
    private let file: SourceFile
    /// The source's bytes, valid while `tokenize` runs (raw access keeps the inner loops tight).
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var pos = 0
    /// Lexing stops here (the end of the source, or of an interpolation).
    private let limit: Int
    private var tokens: [Token] = []
    /// Open delimiters: `(`, `[` or `<`, innermost last.
    private var delimiters: [UInt8] = []
    private var sawSpace = true
    /// Diagnostics found while lexing.
    public private(set) var diagnostics = DiagnosticBag()

    /// Creates a lexer for a source.
    public init(file: SourceFile) {
        self.file = file
        self.limit = file.bytes.count
    }

    /// Creates a lexer for part of a source (the expression inside a string's `{ }`).
    public init(file: SourceFile, range: Range<Int>) {
        self.file = file
        self.pos = range.lowerBound
        self.limit = range.upperBound
    }

    /// Lexes a whole source: `tokens` ends with `.eof`.
    public static func tokenize(_ file: SourceFile) -> (tokens: [Token], diagnostics: DiagnosticBag) {
        var lexer = Lexer(file: file)
        let tokens = lexer.tokenize()
        return (tokens, lexer.diagnostics)
    }

    /// Lexes the whole source.
    public mutating func tokenize() -> [Token] {
        tokens.reserveCapacity((limit - pos) / 3)
        file.bytes.withUnsafeBufferPointer { b in
            bytes = b
            while true {
                skipSpaceAndComments()
                guard pos < limit else { break }
                lexOne()
            }
        }
        bytes = UnsafeBufferPointer(start: nil, count: 0)
        add(.eof, start: limit, end: limit)
        return tokens
    }

    // MARK: - Scanning

    private mutating func skipSpaceAndComments() {
        while pos < limit {
            let c = bytes[pos]
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C {
                pos += 1; sawSpace = true
            } else if c == 0x23 /* # */ {
                if hexColorLength(at: pos) != nil { return }
                while pos < limit && bytes[pos] != 0x0A { pos += 1 }
            } else if c == 0x0A {
                newline()
            } else {
                return
            }
        }
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
        if tokens.last?.kind != .newline { add(.newline, start: at, end: at + 1) }
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

    private mutating func lexOne() {
        let start = pos
        let c = bytes[pos]
        if isNameStart(c) { return lexName() }
        if isDigit(c) || (c == 0x2E && pos + 1 < limit && isDigit(bytes[pos + 1])) { return lexNumber() }
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
                if let i = delimiters.lastIndex(of: 0x3C) { delimiters.removeSubrange(i...) }
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
                error("unexpected character '!'", start, pos, help: "'!=' compares for inequality")
            }
        default:
            lexUnexpected(start)
        }
    }

    private mutating func close(_ open: UInt8) {
        if delimiters.last == open { delimiters.removeLast() }
    }

    /// An identifier or keyword: `[A-Za-z_][A-Za-z0-9_]*`.
    private mutating func lexName() {
        let start = pos
        while pos < limit, isNameByte(bytes[pos]) { pos += 1 }
        if let kw = Keyword.lookup(bytes, start, pos) {
            add(.keyword, start: start, end: pos, keyword: kw)
        } else {
            add(.identifier, start: start, end: pos)
        }
    }

    /// `12`, `1.5`, `.5`, `2e-3`, then an optional unit suffix (`s ms deg rad turn`).
    private mutating func lexNumber() {
        let start = pos
        while pos < limit, isDigit(bytes[pos]) { pos += 1 }
        if pos < limit, bytes[pos] == 0x2E, pos + 1 < limit, isDigit(bytes[pos + 1]) {
            pos += 1
            while pos < limit, isDigit(bytes[pos]) { pos += 1 }
        }
        // An exponent needs a digit after `e` (and its sign), so `2ease` is not a number.
        if pos < limit, bytes[pos] == 0x65 || bytes[pos] == 0x45 {
            var p = pos + 1
            if p < limit, bytes[p] == 0x2B || bytes[p] == 0x2D { p += 1 }
            if p < limit, isDigit(bytes[p]) {
                pos = p
                while pos < limit, isDigit(bytes[pos]) { pos += 1 }
            }
        }
        var unit = NumberUnit.none
        if pos < limit, isNameStart(bytes[pos]) {
            var e = pos
            while e < limit, isNameByte(bytes[e]) { e += 1 }
            if let u = NumberUnit(suffix: bytes[pos..<e]) {
                unit = u
                pos = e
            } else if bytes[pos] == 0x78 /* x */, bytes[(pos + 1)..<e].allSatisfy(isDigit) {
                // `400x700` lexes as `400 x 700`: the number, an `x`, then the next number.
                var t = Token(kind: .number, span: span(start, pos), unit: .none)
                t.spaceBefore = sawSpace
                sawSpace = false
                tokens.append(t)
                add(.identifier, start: pos, end: pos + 1)
                pos += 1
                return
            } else {
                // Any other suffix is a misspelt unit.
                let suffix = String(decoding: bytes[pos..<e], as: UTF8.self)
                let units = ["s", "ms", "deg", "rad", "turn"]
                error("unknown unit '\(suffix)'" + DidYouMean.suffix(suffix, from: units), pos, e,
                      help: "units are s, ms, deg, rad and turn")
                pos = e
                return
            }
        }
        var t = Token(kind: .number, span: span(start, pos), unit: unit)
        t.spaceBefore = sawSpace
        sawSpace = false
        tokens.append(t)
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
                        error("invalid UTF-8 byte 0x\(String(bytes[bad], radix: 16)) in a string", bad, bad + 1,
                              help: "anim reads scripts as UTF-8; save the file in that encoding")
                    } else {
                        add(.string, start: start, end: pos)
                    }
                    return
                }
            }
            pos += 1
        }
        pos = min(pos, limit)
        error("unterminated string", start, pos, label: "this string has no closing '\"'")
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
                error("unexpected character '\(s)'", start, end, help: "names use ASCII letters, digits and '_'")
            } else {
                error("invalid UTF-8 byte 0x\(String(c, radix: 16))", start, start + 1)
                pos = start + 1
            }
            return
        }
        let name = c == 0 ? "NUL" : c < 0x20 || c == 0x7F ? "control character 0x\(String(c, radix: 16))" : "'\(Character(Unicode.Scalar(c)))'"
        error("unexpected \(c < 0x20 || c == 0x7F ? "" : "character ")\(name)", start, pos)
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

    private mutating func add(_ kind: TokenKind, start: Int, end: Int, keyword: Keyword? = nil) {
        var t = Token(kind: kind, span: span(start, end), keyword: keyword)
        t.spaceBefore = sawSpace
        sawSpace = kind == .newline
        tokens.append(t)
    }

    private mutating func error(_ message: String, _ start: Int, _ end: Int, label: String? = nil, help: String? = nil) {
        diagnostics.error(message, at: span(start, end), label: label, help: help)
        var t = Token(kind: .error, span: span(start, end))
        t.spaceBefore = sawSpace
        sawSpace = false
        tokens.append(t)
    }

    private func span(_ s: Int, _ e: Int) -> Span { Span(source: file.id, start: s, end: e) }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
@inline(__always) func isNameStart(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == 0x5F }
@inline(__always) func isNameByte(_ c: UInt8) -> Bool { isNameStart(c) || isDigit(c) }
@inline(__always) func isHexDigit(_ c: UInt8) -> Bool { isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) }

extension Keyword {
    /// The keywords by their first byte, with their spelling: a lookup compares bytes against
    /// the few keywords that start like the name, no hashing.
    private static let byFirstByte: [[(spelling: [UInt8], keyword: Keyword)]] = {
        var table = [[(spelling: [UInt8], keyword: Keyword)]](repeating: [], count: 128)
        for k in Keyword.allCases {
            let b = Array(k.rawValue.utf8)
            table[Int(b[0])].append((b, k))
        }
        return table
    }()

    /// The longest keyword (`interrupt`).
    private static let maxLength = 9

    /// The keyword spelled by `bytes[start..<end]`, if any.
    static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword? {
        let n = end - start
        guard n >= 2, n <= maxLength, bytes[start] < 128 else { return nil }
        candidates: for (spelling, k) in byFirstByte[Int(bytes[start])] where spelling.count == n {
            for i in 1..<n where bytes[start + i] != spelling[i] { continue candidates }
            return k
        }
        return nil
    }
}
