// JSON: the values JSON-RPC messages are made of (RFC 8259), with typed accessors and a
// serializer. Integers are kept apart from other numbers so a request id comes back exactly as
// it was sent. Objects serialize with their keys sorted, so output is the same on every run.

/// A JSON value.
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
    /// An array of non-negative integers kept unboxed (a semantic tokens answer is hundreds of
    /// thousands of them): written straight from the numbers, and equal to the `.array` of the
    /// same integers.
    case uints([UInt32])

    // MARK: - Reading

    /// The member `key` of an object (nil for a missing member or a value that is not an object).
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// The string, if this is one.
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The integer, if this is a number with an integral value that fits in an `Int`.
    public var int: Int? {
        switch self {
        case .integer(let i): return Int(exactly: i)
        case .double(let d): return d.rounded() == d && abs(d) < 9.0e15 ? Int(d) : nil
        default: return nil
        }
    }

    /// The Boolean, if this is one.
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements, if this is an array.
    public var array: [JSON]? {
        if case .array(let a) = self { return a }
        if case .uints(let u) = self { return u.map { .integer(Int64($0)) } }
        return nil
    }

    /// The members, if this is an object.
    public var object: [String: JSON]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    // MARK: - Writing

    /// The value as compact JSON text (keys sorted, no insignificant whitespace).
    public var serialized: String {
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the value's JSON text, as UTF-8, to `out`.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .integer(let i): JSON.writeInteger(i, to: &out)
        case .double(let d):
            // JSON has no NaN or infinity; an integral value prints without a fraction.
            if !d.isFinite { out.append(contentsOf: "null".utf8) } else if d.rounded() == d && abs(d) < 1e15 {
                JSON.writeInteger(Int64(d), to: &out)
            } else {
                out.append(contentsOf: "\(d)".utf8)
            }
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (k, v) in a.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (k, key) in o.keys.sorted().enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                o[key]!.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .uints(let u): JSON.writeNaturals(u, to: &out)
        }
    }

    /// `[n,n,…]` written into `out`'s storage in one pass: at most 11 bytes a number (10 digits
    /// and a comma) are made room for, then what was not used is cut off.
    static func writeNaturals(_ numbers: [UInt32], to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: numbers.count * 11 + 2))
        let end = out.withUnsafeMutableBufferPointer { b -> Int in
            var k = start
            b[k] = UInt8(ascii: "[")
            k += 1
            var digits: (UInt64, UInt64) = (0, 0)
            for (i, n) in numbers.enumerated() {
                if i > 0 { b[k] = UInt8(ascii: ","); k += 1 }
                if n < 10 {
                    b[k] = UInt8(ascii: "0") + UInt8(n)
                    k += 1
                    continue
                }
                // The digits backwards into a small buffer, then forwards into the output.
                var m = n, count = 0
                withUnsafeMutableBytes(of: &digits) { d in
                    while m > 0 {
                        d[count] = UInt8(ascii: "0") + UInt8(m % 10)
                        m /= 10
                        count += 1
                    }
                    for j in stride(from: count - 1, through: 0, by: -1) {
                        b[k] = d[j]
                        k += 1
                    }
                }
            }
            b[k] = UInt8(ascii: "]")
            return k + 1
        }
        out.removeLast(out.count - end)
    }

    /// An integer's decimal digits, written in place (a semantic tokens answer is hundreds of
    /// thousands of them: made as a String each, they cost about 100 M instructions per answer
    /// for a 5,000-line script).
    static func writeInteger(_ i: Int64, to out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var m = i.magnitude
        var n = 1, t = m
        while t >= 10 { t /= 10; n += 1 }
        var k = out.count + n
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n))
        repeat {
            k -= 1
            out[k] = UInt8(ascii: "0") + UInt8(m % 10)
            m /= 10
        } while m > 0
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as escapes, everything
    /// else as its UTF-8 bytes.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSON {
    /// Equal values: as the cases say, and `.uints` equal to the `.array` of the same integers.
    public static func == (l: JSON, r: JSON) -> Bool {
        switch (l, r) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        case (.uints(let a), .uints(let b)): a == b
        case (.uints(let u), .array(let a)), (.array(let a), .uints(let u)):
            u.count == a.count && zip(u, a).allSatisfy { JSON.integer(Int64($0)) == $1 }
        default: false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(1); h.combine(b)
        case .integer(let i): h.combine(2); h.combine(i)
        case .double(let d): h.combine(3); h.combine(d)
        case .string(let s): h.combine(4); h.combine(s)
        case .array(let a): h.combine(5); h.combine(a)
        case .object(let o): h.combine(6); h.combine(o)
        // As the `.array` it equals.
        case .uints(let u): h.combine(5); h.combine(u.count); for n in u { JSON.integer(Int64(n)).hash(into: &h) }
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON {
    /// A number from an `Int`.
    public static func int(_ i: Int) -> JSON { .integer(Int64(i)) }
}
