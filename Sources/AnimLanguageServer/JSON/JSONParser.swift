// JSONParser: UTF-8 bytes → JSON, strictly by RFC 8259: one value, surrounded only by
// whitespace; strings must be valid UTF-8 with no raw control characters. A `\u` escape of a
// lone surrogate (which no Unicode text holds) reads as U+FFFD, one UTF-16 unit like the
// surrogate, so positions counted in UTF-16 stay where the client has them.

/// Why some bytes are not one JSON value.
public struct JSONParseError: Error, Hashable, Sendable {
    /// What is wrong, in a few words.
    public var message: String
    /// The byte offset where it was found.
    public var offset: Int
}

/// Parses JSON text.
public struct JSONParser {
    /// The deepest nesting of arrays and objects read; deeper input is an error, not a stack
    /// overflow.
    public static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses the whole of `bytes` as one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSON {
        try parse(bytes[...])
    }

    /// Parses the whole of `bytes` as one JSON value.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSON {
        let result: Result<JSON, JSONParseError> = bytes.withUnsafeBufferPointer { b in
            var p = JSONParser(b)
            do throws(JSONParseError) {
                p.skipSpace()
                let v = try p.value()
                p.skipSpace()
                guard p.pos == b.count else { throw p.failure("unexpected text after the JSON value") }
                return .success(v)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a string as JSON (tests, and values written in source).
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8))
    }

    // MARK: - Values

    private mutating func value() throws(JSONParseError) -> JSON {
        guard pos < bytes.count else { throw failure("unexpected end of the JSON text") }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character in JSON")
        }
    }

    private mutating func object() throws(JSONParseError) -> JSON {
        try enter()
        pos += 1
        var members: [String: JSON] = [:]
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; depth -= 1; return .object(members) }
        while true {
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let key = try string()
            skipSpace()
            try expect(UInt8(ascii: ":"), "expected ':' after a member name")
            skipSpace()
            members[key] = try value()
            skipSpace()
            guard pos < bytes.count else { throw failure("unexpected end inside an object") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            try expect(UInt8(ascii: "}"), "expected ',' or '}' in an object")
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(JSONParseError) -> JSON {
        try enter()
        pos += 1
        var elements: [JSON] = []
        skipSpace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; depth -= 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            guard pos < bytes.count else { throw failure("unexpected end inside an array") }
            if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
            try expect(UInt8(ascii: "]"), "expected ',' or ']' in an array")
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONParser.maxDepth { throw failure("JSON nested more than \(JSONParser.maxDepth) deep") }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard pos + n <= bytes.count else { throw failure("unexpected end of the JSON text") }
        for k in 0..<n where bytes[pos + k] != word.utf8Start[k] { throw failure("unexpected word in JSON") }
        pos += n
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(JSONParseError) -> JSON {
        let start = pos
        var integral = true
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw failure("expected a digit") }
        if bytes[pos] == UInt8(ascii: "0") { pos += 1 } else { while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 } }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            integral = false
            pos += 1
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw failure("expected a digit after '.'") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            integral = false
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw failure("expected a digit in the exponent") }
            while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        if integral, let i = Int64(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw JSONParseError(message: "number out of range", offset: start) }
        return .double(d)
    }

    /// A string literal starting at the `"` at `pos`.
    private mutating func string() throws(JSONParseError) -> String {
        pos += 1
        let start = pos
        // The usual case: no escapes, decoded straight from the bytes.
        while pos < bytes.count {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<pos])
                pos += 1
                guard let s = String(validating: raw, as: UTF8.self) else { throw invalidUTF8(in: start..<(pos - 1)) }
                return s
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            pos += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<pos]))
        while pos < bytes.count {
            // The bytes up to the next escape, copied at once (a document's text has an escape
            // on every line: byte by byte, its 312 KB cost 13 M instructions).
            let run = pos
            while pos < bytes.count {
                let c = bytes[pos]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                pos += 1
            }
            if pos > run { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<pos])) }
            guard pos < bytes.count else { break }
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                pos += 1
                guard let s = String(validating: buffer, as: UTF8.self) else { throw invalidUTF8(in: start..<(pos - 1)) }
                return s
            }
            if c < 0x20 { throw failure("raw control character in a string") }
            pos += 1
            guard pos < bytes.count else { break }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(e)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), pos + 1 < bytes.count,
                   bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                    let save = pos
                    pos += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        pos = save  // not a pair: the high surrogate stands alone
                    }
                }
                let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                buffer.append(contentsOf: String(Character(u)).utf8)
            default:
                pos -= 1
                throw failure("unknown escape in a string")
            }
        }
        throw JSONParseError(message: "unterminated string", offset: start - 1)
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw failure("expected four hex digits after '\\u'") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits after '\\u'")
            }
            v = v << 4 | UInt32(d)
            pos += 1
        }
        return v
    }

    // MARK: - Helpers

    private mutating func skipSpace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0A, 0x0D: pos += 1
            default: return
            }
        }
    }

    private mutating func expect(_ c: UInt8, _ message: String) throws(JSONParseError) {
        guard pos < bytes.count, bytes[pos] == c else { throw failure(message) }
        pos += 1
    }

    private func failure(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: pos) }

    /// The error for a string whose bytes are not UTF-8, at the first bad byte.
    private func invalidUTF8(in range: Range<Int>) -> JSONParseError {
        var p = range.lowerBound
        while p < range.upperBound {
            let c = bytes[p]
            if c < 0x80 { p += 1; continue }
            let len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            if p + len > range.upperBound || String(validating: UnsafeBufferPointer(rebasing: bytes[p..<(p + len)]), as: UTF8.self) == nil { break }
            p += len
        }
        return JSONParseError(message: "invalid UTF-8 in a string", offset: p)
    }

    @inline(__always) private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
