// DocumentText: an open document's text as UTF-8 bytes with its line table, and the one
// converter between LSP positions and byte offsets (which anim's Spans are).
//
// LSP counts lines and columns its own way, not anim's: a line ends at `\n`, `\r\n` or a lone
// `\r` (anim's lexer treats a lone `\r` as a space), and a column is a count of code units in
// the negotiated encoding — UTF-16 units by default (so an emoji outside the Basic
// Multilingual Plane is 2, a CJK character 1, a combining mark 1 of its own, a tab 1), or
// bytes with UTF-8. Anim's diagnostics count Characters, which no LSP encoding does; only byte
// offsets pass between the two, so nothing is ever counted twice.
//
// Positions out of range are clamped as LSP 3.17 says: a character past the end of its line
// means the line's end, and a line past the last means the end of the document. A position
// inside a character (between the two halves of a surrogate pair, or inside a UTF-8
// sequence) means the start of that character.

/// How LSP columns are counted (`general.positionEncodings`).
public enum PositionEncoding: String, Hashable, Sendable {
    /// Bytes of UTF-8.
    case utf8 = "utf-8"
    /// UTF-16 code units: the protocol's default, which every server must support.
    case utf16 = "utf-16"
}

/// A zero-based line and column (in the negotiated encoding).
public struct Position: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// From an LSP `Position` object; nil unless both members are non-negative integers.
    public init?(json: JSON?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else { return nil }
        self.init(line: line, character: character)
    }

    public var json: JSON { ["line": .int(line), "character": .int(character)] }
    public var description: String { "\(line):\(character)" }
}

/// A half-open range of positions.
public struct TextRange: Hashable, Sendable, CustomStringConvertible {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
        self.start = start
        self.end = end
    }

    /// From an LSP `Range` object.
    public init?(json: JSON?) {
        guard let s = Position(json: json?["start"]), let e = Position(json: json?["end"]) else { return nil }
        self.init(start: s, end: e)
    }

    public var json: JSON { ["start": start.json, "end": end.json] }
    public var description: String { "\(start)-\(end)" }
}

/// A document's text and line table.
public struct DocumentText: Sendable {
    /// The text as UTF-8 (always valid: it comes from a JSON string).
    public let bytes: [UInt8]
    /// Where each LSP line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// Whether each line is ASCII only (then a column is its byte count in every encoding).
    let lineIsASCII: [Bool]

    /// Creates the text and its line table.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // Read through a buffer pointer, one comparison for most bytes: indexing the array
        // byte by byte (a bounds check each) cost 4.1 M instructions for a 312 KB text.
        (lineStarts, lineIsASCII) = bytes.withUnsafeBufferPointer { b in
            var starts = [0], ascii: [Bool] = []
            starts.reserveCapacity(b.count / 24 + 1)
            ascii.reserveCapacity(b.count / 24 + 1)
            var k = 0, high: UInt8 = 0
            let n = b.count
            while k < n {
                let c = b[k]
                high |= c
                if c <= 0x0D {
                    if c == 0x0A || c == 0x0D && (k + 1 >= n || b[k + 1] != 0x0A) {
                        starts.append(k + 1)
                        ascii.append(high < 0x80)
                        high = 0
                    }
                }
                k += 1
            }
            ascii.append(high < 0x80)
            return (starts, ascii)
        }
    }

    /// Creates the text from a string.
    public init(_ text: String) { self.init(Array(text.utf8)) }

    /// The number of lines (a final line break starts an empty last line).
    public var lineCount: Int { lineStarts.count }

    /// The text as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The length in bytes of a leading byte order mark (the core's sources drop it, so their
    /// offsets are this much smaller than the document's).
    public var byteOrderMarkLength: Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// Where a line's text ends (its line break starts), in bytes.
    public func lineEnd(_ line: Int) -> Int {
        guard line + 1 < lineStarts.count else { return bytes.count }
        var end = lineStarts[line + 1] - 1
        if bytes[end] == 0x0A, end > lineStarts[line], bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The 0-based line holding a byte offset.
    public func line(ofOffset offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    // MARK: - Offsets to positions

    /// The position of a byte offset. An offset past the end is the end; one inside a UTF-8
    /// sequence is the start of its character; one inside a line break is the end of the line.
    public func position(ofOffset offset: Int, encoding: PositionEncoding) -> Position {
        var line = -1
        return position(ofOffset: offset, encoding: encoding, near: &line)
    }

    /// `position(ofOffset:encoding:)` for offsets asked in about ascending order: `line` (-1 at
    /// first) is the line of the last answer, and the line is found by walking from it rather
    /// than by a binary search (a semantic tokens answer converts every token's two ends).
    func position(ofOffset offset: Int, encoding: PositionEncoding, near line: inout Int) -> Position {
        let offset = max(0, min(offset, bytes.count))
        if line < 0 || line >= lineStarts.count || lineStarts[line] > offset || line + 8 < lineStarts.count && lineStarts[line + 8] <= offset {
            line = self.line(ofOffset: offset)
        } else {
            while line + 1 < lineStarts.count, lineStarts[line + 1] <= offset { line += 1 }
        }
        let start = lineStarts[line]
        var end = min(offset, lineEnd(line))
        while end > start, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return Position(line: line, character: lineIsASCII[line] ? end - start : units(from: start, to: end, encoding: encoding))
    }

    /// The range of a byte range.
    public func range(ofOffsets range: Range<Int>, encoding: PositionEncoding) -> TextRange {
        TextRange(start: position(ofOffset: range.lowerBound, encoding: encoding),
                  end: position(ofOffset: range.upperBound, encoding: encoding))
    }

    /// Code units from `start` to `end` on one line.
    private func units(from start: Int, to end: Int, encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8:
            return end - start
        case .utf16:
            var n = 0
            for k in start..<end {
                let c = bytes[k]
                if c & 0xC0 != 0x80 { n += c >= 0xF0 ? 2 : 1 }
            }
            return n
        }
    }

    // MARK: - Positions to offsets

    /// The byte offset of a position, clamped: a line past the last is the end of the text, a
    /// character past its line's end is that end, and a character inside a code point (half a
    /// surrogate pair, the middle of a UTF-8 sequence) is the start of that code point.
    public func offset(of position: Position, encoding: PositionEncoding) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let start = lineStarts[position.line]
        let end = lineEnd(position.line)
        var k = start
        var units = 0
        let target = max(0, position.character)
        while k < end, units < target {
            let c = bytes[k]
            let length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            let width: Int
            switch encoding {
            case .utf8: width = length
            case .utf16: width = length == 4 ? 2 : 1
            }
            if units + width > target { break }
            units += width
            k = min(end, k + length)
        }
        return k
    }

    /// Whether a position names a place in the text without clamping: its line exists and its
    /// character is at most the line's length. (Requests may answer an error for others.)
    public func contains(_ position: Position, encoding: PositionEncoding) -> Bool {
        guard position.line >= 0, position.line < lineStarts.count, position.character >= 0 else { return false }
        let start = lineStarts[position.line]
        return position.character <= units(from: start, to: lineEnd(position.line), encoding: encoding)
    }

    // MARK: - Editing

    /// The text with `range` replaced by `replacement` (a clamped range; an end before its
    /// start is taken as the start).
    public func replacing(_ range: TextRange, with replacement: String, encoding: PositionEncoding) -> DocumentText {
        let a = offset(of: range.start, encoding: encoding)
        let b = max(a, offset(of: range.end, encoding: encoding))
        return replacing(bytes: a..<b, with: Array(replacement.utf8))
    }

    /// The text with the bytes `range` replaced. The line table is edited, not made again: a
    /// line start at byte k depends only on bytes k-1 and k, so the starts before the range
    /// stay, those after it move by the change in length, and only the replaced part and its
    /// two edges are scanned (a keystroke in a long document costs its line count, not its
    /// byte count).
    func replacing(bytes range: Range<Int>, with replacement: [UInt8]) -> DocumentText {
        let a = range.lowerBound, b = range.upperBound
        var bytes = self.bytes
        bytes.replaceSubrange(a..<b, with: replacement)
        let end = a + replacement.count
        let delta = replacement.count - (b - a)
        var starts = [0]
        starts.reserveCapacity(lineStarts.count + replacement.count / 24 + 1)
        // Kept: the starts before `a` (the first line's 0 is already in).
        let before = firstStart(atOrAfter: a)
        if before > 1 { starts.append(contentsOf: lineStarts[1..<before]) }
        // Scanned: a start at k for k in a...end (k = a reads byte a, k = end reads byte end - 1).
        let n = bytes.count
        var k = max(1, a)
        while k <= min(end, n) {
            let c = bytes[k - 1]
            if c == 0x0A || (c == 0x0D && (k >= n || bytes[k] != 0x0A)) { starts.append(k) }
            k += 1
        }
        // Moved: the old starts after `b` (old k ≥ b + 1 reads old bytes b and on, unchanged).
        let moved = firstStart(atOrAfter: b + 1)
        let firstMoved = starts.count
        for s in lineStarts[moved...] { starts.append(s + delta) }
        // Which lines are ASCII: those before the edited ones and the moved ones as they were,
        // the edited ones (from the line holding `a` to the first moved one) scanned.
        let edited = max(0, before - 1)
        var ascii = Array(lineIsASCII[0..<edited])
        ascii.reserveCapacity(starts.count)
        for line in edited..<firstMoved {
            let lineEnd = line + 1 < starts.count ? starts[line + 1] : n
            ascii.append(bytes[starts[line]..<lineEnd].allSatisfy { $0 < 0x80 })
        }
        ascii.append(contentsOf: lineIsASCII[moved...])
        return DocumentText(bytes: bytes, lineStarts: starts, lineIsASCII: ascii)
    }

    /// The index of the first line start at or after byte `offset` (`lineStarts.count` if none).
    private func firstStart(atOrAfter offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lineStarts[mid] < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private init(bytes: [UInt8], lineStarts: [Int], lineIsASCII: [Bool]) {
        self.bytes = bytes
        self.lineStarts = lineStarts
        self.lineIsASCII = lineIsASCII
    }
}
