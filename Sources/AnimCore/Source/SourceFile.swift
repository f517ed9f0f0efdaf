// SourceFile: the text of one script (a file, stdin, or one REPL entry) as UTF-8 bytes,
// with the line table that turns byte offsets into 1-based lines and columns.
// Invariant: offsets are byte offsets into `bytes`; columns are counted in Characters.

/// Identifies a source inside a `SourceMap`.
public typealias SourceID = UInt32

/// A half-open byte range `[start, end)` in one source.
public struct Span: Hashable, Sendable, CustomStringConvertible {
    /// The source the span points into.
    public var source: SourceID
    /// The byte offset of the first byte.
    public var start: UInt32
    /// The byte offset one past the last byte.
    public var end: UInt32

    /// Creates a span; `end` is clamped to be at least `start`.
    public init(source: SourceID, start: Int, end: Int) {
        self.source = source
        self.start = UInt32(clamping: start)
        self.end = UInt32(clamping: max(start, end))
    }

    /// Creates a span from offsets known to be in order (the lexer's).
    @inline(__always) init(source: SourceID, start: UInt32, end: UInt32) {
        self.source = source
        self.start = start
        self.end = end
    }

    /// A span covering both `self` and `other` (same source assumed).
    @inline(__always) public func merged(with other: Span) -> Span {
        Span(source: source, start: min(start, other.start), end: max(end, other.end))
    }

    /// An empty span that marks a position.
    public static func point(_ source: SourceID, _ offset: Int) -> Span {
        Span(source: source, start: offset, end: offset)
    }

    /// A span that points nowhere (used for synthesized nodes).
    public static let none = Span(source: .max, start: 0, end: 0)

    public var description: String { "\(source):\(start)..<\(end)" }
}

/// A 1-based line and column.
public struct SourceLocation: Hashable, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Characters.
    public var column: Int
}

/// The text of one script and its line table.
public final class SourceFile: Sendable {
    /// The identifier of this source in its `SourceMap`.
    public let id: SourceID
    /// The name shown in diagnostics (a path, `<stdin>`, `<repl>`).
    public let name: String
    /// The UTF-8 bytes of the text (a leading BOM removed; see `init`).
    public let bytes: [UInt8]
    /// The byte offset where each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// The largest script anim reads: 256 MiB, forty times the 100,000-shape benchmark script,
    /// and well inside the 32-bit offsets of a `Span`.
    public static let maxSize = 256 << 20

    /// Creates a source from raw bytes. A UTF-8 byte order mark is dropped.
    public init(id: SourceID, name: String, bytes: [UInt8]) {
        var b = bytes
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { b.removeFirst(3) }
        self.id = id
        self.name = name
        self.bytes = b
        self.lineStarts = SourceFile.lineStarts(of: b)
    }

    /// Where each line starts: 0, and one past every `\n`. Eight bytes are tested at a time
    /// (a word with no `\n` byte, the usual case, costs a few instructions), by the "has a
    /// zero byte" test of Mycroft (1987), in Warren's *Hacker's Delight* §6-1.
    static func lineStarts(of b: [UInt8]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(b.count / 24 + 1)
        b.withUnsafeBufferPointer { p in
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            let newlines = ones &* 0x0A
            var i = 0
            while i + 8 <= p.count {
                let w = UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: UInt64.self) ^ newlines
                if (w &- ones) & ~w & highs != 0 {
                    for k in i..<(i + 8) where p[k] == 0x0A { starts.append(k + 1) }
                }
                i += 8
            }
            while i < p.count {
                if p[i] == 0x0A { starts.append(i + 1) }
                i += 1
            }
        }
        return starts
    }

    /// Creates a source from a string.
    public convenience init(id: SourceID, name: String, text: String) {
        self.init(id: id, name: name, bytes: Array(text.utf8))
    }

    /// The 0-based index of the line holding `offset`.
    public func lineIndex(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The line and column of a byte offset.
    public func location(of offset: Int) -> SourceLocation {
        let li = lineIndex(of: offset)
        let start = lineStarts[li]
        let end = min(max(offset, start), bytes.count)
        // ASCII (the usual case) has one Character per byte: no need to decode.
        if bytes[start..<end].allSatisfy({ $0 < 0x80 }) { return SourceLocation(line: li + 1, column: end - start + 1) }
        return SourceLocation(line: li + 1, column: decode(start..<end).count + 1)
    }

    /// The text of a 0-based line, without its line break (`\r\n` or `\n`).
    public func lineText(_ index: Int) -> String {
        guard index >= 0, index < lineStarts.count else { return "" }
        return decode(lineStarts[index]..<lineEnd(index))
    }

    /// The byte offset where a 0-based line's text ends (its line break, `\r\n` or `\n`, starts).
    public func lineEnd(_ index: Int) -> Int {
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return max(start, end)
    }

    /// The text of a span.
    public func text(of span: Span) -> String {
        decode(Int(span.start)..<min(Int(span.end), bytes.count))
    }

    /// Decodes bytes, replacing invalid UTF-8 with U+FFFD.
    func decode(_ range: Range<Int>) -> String {
        // From a raw buffer, String takes its fast contiguous UTF-8 path (a name is read for
        // almost every identifier the parser meets).
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }
}

/// All sources a session has seen, by id; diagnostics are rendered against it.
public struct SourceMap: Sendable {
    private var files: [SourceFile] = []

    /// An empty map.
    public init() {}

    /// Adds a source made from bytes and returns it.
    public mutating func add(name: String, bytes: [UInt8]) -> SourceFile {
        let file = SourceFile(id: SourceID(files.count), name: name, bytes: bytes)
        files.append(file)
        return file
    }

    /// Adds a source made elsewhere (the prelude, shared by every session). Its id must be the
    /// next one of this map.
    mutating func add(_ file: SourceFile) {
        precondition(Int(file.id) == files.count, "source \(file.name) has id \(file.id), not \(files.count)")
        files.append(file)
    }

    /// Adds a source made from text and returns it.
    public mutating func add(name: String, text: String) -> SourceFile {
        add(name: name, bytes: Array(text.utf8))
    }

    /// The source with this id, if any.
    public subscript(id: SourceID) -> SourceFile? {
        Int(id) < files.count ? files[Int(id)] : nil
    }
}
