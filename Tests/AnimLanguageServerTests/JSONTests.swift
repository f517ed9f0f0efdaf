// The JSON reader and writer: RFC 8259 values, escapes, surrogate pairs, limits.
@testable import AnimLanguageServer
import Testing

@Suite("JSON")
struct JSONTests {
    @Test("values read as written")
    func values() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse(" true ") == .bool(true))
        #expect(try JSONParser.parse("-12") == .integer(-12))
        #expect(try JSONParser.parse("1.5e3") == .double(1500))
        #expect(try JSONParser.parse("12345678901234567890") == .double(12345678901234567168))
        #expect(try JSONParser.parse("[1, \"a\", {}]") == .array([.integer(1), .string("a"), .object([:])]))
        #expect(try JSONParser.parse(#"{"a": {"b": [null]}}"#)["a"]?["b"] == .array([.null]))
    }

    @Test("escapes, surrogate pairs, and lone surrogates as U+FFFD")
    func strings() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\r\b\f""#) == .string("a\"b\\c/d\n\t\r\u{8}\u{C}"))
        #expect(try JSONParser.parse(#""\u00e9\u6f22\ud83d\ude00""#) == .string("é漢😀"))
        #expect(try JSONParser.parse(#""\ud83d""#) == .string("\u{FFFD}"))
        #expect(try JSONParser.parse(#""\ude00x""#) == .string("\u{FFFD}x"))
        #expect(try JSONParser.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSONParser.parse("\"é 😀\"") == .string("é 😀"))
    }

    @Test("malformed text is an error", arguments: ["", "{", "[1 2]", "{\"a\" 1}", "tru", "-", "1.", ".5", "1e", "\"a", "\"\u{1}\"", "{,}", "[1,]", "{\"a\":1,}", "00", "+1", "NaN", "1e999", "[] x"])
    func malformed(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test("nesting deeper than the limit is an error, not a crash")
    func depth() throws {
        let ok = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        _ = try JSONParser.parse(ok)
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
    }

    @Test("writing: keys sorted, strings escaped, integers exact, round trip")
    func writing() throws {
        let v: JSON = ["b": 1, "a": ["x\"\n\u{1}é", .null, true, 2.5, .integer(Int64.max)]]
        #expect(v.serialized == #"{"a":["x\"\n\u0001é",null,true,2.5,9223372036854775807],"b":1}"#)
        #expect(try JSONParser.parse(v.serialized) == v)
        #expect(JSON.double(.nan).serialized == "null")
        #expect(JSON.double(3).serialized == "3")
    }
}
