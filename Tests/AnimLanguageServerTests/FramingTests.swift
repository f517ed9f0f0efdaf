// The base protocol's framing (MessageReader), in the manner of sourcekit-lsp's
// message-parsing tests: frames split at every byte, frames joined in one read, missing and
// wrong headers, and — where clangd, pylsp and sourcekit-lsp stop answering — resynchronising
// on the next `Content-Length:` after a frame whose length is wrong.
@testable import AnimLanguageServer
import Testing

/// A frame with a correct header.
func frame(_ body: String, extraHeaders: String = "") -> [UInt8] {
    Array("Content-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)".utf8)
}

/// Everything the reader yields for `input`, fed in chunks of `chunk` bytes (0: all at once),
/// then the end of the stream.
func frames(_ input: [UInt8], chunk: Int = 0, finish: Bool = true) -> [IncomingFrame] {
    var reader = MessageReader()
    var out: [IncomingFrame] = []
    var k = 0
    let step = chunk == 0 ? max(1, input.count) : chunk
    while k < input.count {
        reader.append(input[k..<min(input.count, k + step)])
        while let f = reader.next() { out.append(f) }
        k += step
    }
    if finish, let f = reader.finish() { out.append(f) }
    return out
}

func isInvalid(_ f: IncomingFrame) -> Bool {
    if case .invalid = f { return true }
    return false
}

@Suite("Framing")
struct FramingTests {
    let a = #"{"jsonrpc":"2.0","id":1,"method":"a"}"#
    let b = #"{"jsonrpc":"2.0","id":2,"method":"b","params":{"text":"é 😀 漢"}}"#
    var aJSON: JSON { try! JSONParser.parse(a) }
    var bJSON: JSON { try! JSONParser.parse(b) }

    @Test("one frame, and two joined in one read")
    func joined() {
        #expect(frames(frame(a)) == [.message(aJSON)])
        #expect(frames(frame(a) + frame(b)) == [.message(aJSON), .message(bJSON)])
    }

    @Test("frames split at every byte boundary and in chunks of every size")
    func split() {
        let input = frame(a) + frame(b) + frame(a)
        for size in 1...input.count {
            #expect(frames(input, chunk: size) == [.message(aJSON), .message(bJSON), .message(aJSON)], "chunks of \(size)")
        }
        // Two reads cut at each byte.
        for cut in 0...input.count {
            var reader = MessageReader()
            var out: [IncomingFrame] = []
            reader.append(input[..<cut])
            while let f = reader.next() { out.append(f) }
            reader.append(input[cut...])
            while let f = reader.next() { out.append(f) }
            #expect(out == [.message(aJSON), .message(bJSON), .message(aJSON)], "cut at \(cut)")
        }
    }

    @Test("a partial frame waits for the rest")
    func waits() {
        var reader = MessageReader()
        let f = frame(a)
        reader.append(f.dropLast())
        #expect(reader.next() == nil)
        reader.append(f.suffix(1))
        #expect(reader.next() == .message(aJSON))
        #expect(reader.next() == nil)
    }

    @Test("header names in any case, Content-Type with utf-8 or utf8, other headers ignored, bare LF line ends")
    func headers() {
        let body = Array(a.utf8)
        let variants = [
            "content-length: \(body.count)\r\n\r\n",
            "CONTENT-LENGTH:\(body.count)\r\n\r\n",
            "Content-Length: \(body.count)\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
            "Content-Type: application/vscode-jsonrpc; charset=utf8\r\nContent-Length: \(body.count)\r\n\r\n",
            "Content-Length: \(body.count)\r\nX-Anything: 1\r\n\r\n",
            "Content-Length: \(body.count)\n\n",
        ]
        for header in variants {
            #expect(frames(Array(header.utf8) + body) == [.message(aJSON)], "\(header.debugDescription)")
        }
    }

    @Test("line breaks between frames are ignored")
    func breaksBetween() {
        #expect(frames(frame(a) + Array("\r\n\r\n".utf8) + frame(b)) == [.message(aJSON), .message(bJSON)])
    }

    @Test("a frame without Content-Length is an error, and the next frame is read")
    func missingLength() {
        let input = Array("Content-Type: application/vscode-jsonrpc\r\n\r\n\(a)".utf8) + frame(b)
        let out = frames(input)
        #expect(out.count == 2)
        #expect(isInvalid(out[0]))
        #expect(out.last == .message(bJSON))
        if case .invalid(let why) = out[0] { #expect(why.contains("Content-Length")) }
    }

    @Test("a Content-Length that is not a length is an error, and the next frame is read", arguments: ["abc", "-5", "12x", "", "99999999999999999999", "1e3"])
    func badLength(_ value: String) {
        let input = Array("Content-Length: \(value)\r\n\r\n\(a)".utf8) + frame(b)
        for chunk in [0, 1, 7] {
            let out = frames(input, chunk: chunk)
            #expect(out.count == 2, "\(value), chunks of \(chunk): \(out)")
            #expect(out.first.map(isInvalid) == true)
            #expect(out.last == .message(bJSON))
        }
    }

    @Test("a Content-Length too long: the frame is still read, and so is the next")
    func lengthTooLong() {
        for extra in [1, 5, 20, 100, 10_000] {
            let input = Array("Content-Length: \(a.utf8.count + extra)\r\n\r\n\(a)".utf8) + frame(b) + frame(a)
            for chunk in [0, 1, 3, 64] {
                let out = frames(input, chunk: chunk)
                #expect(out == [.message(aJSON), .message(bJSON), .message(aJSON)], "\(extra) too long, chunks of \(chunk)")
            }
        }
    }

    @Test("a Content-Length too long with nothing after it waits, and errs at the end of the input")
    func lengthTooLongAtEnd() {
        let input = Array("Content-Length: \(a.utf8.count + 10)\r\n\r\n\(a)".utf8)
        var reader = MessageReader()
        reader.append(input)
        #expect(reader.next() == nil)
        #expect(reader.finish().map(isInvalid) == true)
    }

    @Test("a Content-Length too short: the frame is read with the rest of its body, and the next is read")
    func lengthTooShort() {
        for missing in [1, 5, 20] {
            let input = Array("Content-Length: \(a.utf8.count - missing)\r\n\r\n\(a)".utf8) + frame(b) + frame(a)
            let out = frames(input)
            #expect(out == [.message(aJSON), .message(bJSON), .message(aJSON)], "\(missing) too short")
        }
    }

    @Test("a Content-Length too short, the rest arriving later: one error, then the frames after it")
    func lengthTooShortSplit() {
        let body = Array(a.utf8)
        var reader = MessageReader()
        var out: [IncomingFrame] = []
        reader.append(Array("Content-Length: \(body.count - 5)\r\n\r\n".utf8) + body.dropLast(5))
        while let f = reader.next() { out.append(f) }
        reader.append(body.suffix(5) + frame(b))
        while let f = reader.next() { out.append(f) }
        #expect(out.count == 2)
        #expect(out.first.map(isInvalid) == true)
        #expect(out.last == .message(bJSON))
    }

    @Test("bytes outside any frame: one error, then the next frame")
    func junk() {
        for junk in ["garbage", "{\"jsonrpc\":\"2.0\"}", "Content-Lengt", "\u{0}\u{1}\u{FF}", String(repeating: "x", count: 20_000)] {
            let input = Array(junk.utf8) + frame(a) + frame(b)
            for chunk in [0, 1, 4096] {
                let out = frames(input, chunk: chunk)
                #expect(out.filter(isInvalid).count == 1, "\(junk.prefix(20)), chunks of \(chunk): \(out.count)")
                #expect(Array(out.suffix(2)) == [.message(aJSON), .message(bJSON)], "\(junk.prefix(20)), chunks of \(chunk)")
            }
        }
    }

    @Test("a malformed header line is an error")
    func malformedHeader() {
        let input = Array("Content-Length: 5\r\nno colon here\r\n\r\nhello".utf8) + frame(a)
        let out = frames(input)
        #expect(out.first.map(isInvalid) == true)
        #expect(out.last == .message(aJSON))
    }

    @Test("invalid JSON in a correctly framed body is an error, and the next frame is read")
    func invalidJSON() {
        for body in ["{", "{\"a\":}", "[1,]", "nul", "{} {}", "\"\\x\"", "{\"a\":1,}", "01"] {
            let out = frames(frame(body) + frame(a))
            #expect(out.count == 2, "\(body)")
            #expect(out.first.map(isInvalid) == true, "\(body)")
            #expect(out.last == .message(aJSON), "\(body)")
        }
    }

    @Test("invalid UTF-8 in a body is an error, and the next frame is read")
    func invalidUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80]] {
            let body = Array(#"{"jsonrpc":"2.0","method":"x","params":{"t":""#.utf8) + bad + Array(#""}}"#.utf8)
            let input = Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body + frame(a)
            let out = frames(input)
            #expect(out.count == 2, "\(bad)")
            #expect(out.first.map(isInvalid) == true, "\(bad)")
            if case .invalid(let why) = out[0] { #expect(why.contains("UTF-8"), "\(why)") }
            #expect(out.last == .message(aJSON))
        }
    }

    @Test("an unsupported charset is an error; the body is skipped")
    func charset() {
        let input = frame(a, extraHeaders: "Content-Type: application/vscode-jsonrpc; charset=utf-16\r\n") + frame(b)
        let out = frames(input)
        #expect(out.count == 2)
        #expect(out.first.map(isInvalid) == true)
        #expect(out.last == .message(bJSON))
    }

    @Test("the input ending inside a header or a body is an error; ending between frames is not")
    func endOfInput() {
        #expect(frames(Array("Content-Len".utf8)).map(isInvalid) == [true])
        #expect(frames(Array(frame(a).dropLast(3))).map(isInvalid) == [true])
        #expect(frames(frame(a) + Array("\r\n".utf8)) == [.message(aJSON)])
    }

    @Test("a body holding 'Content-Length:' inside a string is read as it is")
    func headerTextInsideString() {
        let body = #"{"jsonrpc":"2.0","method":"x","params":{"text":"Content-Length: 12\\r\\n\\r\\n{}"}}"#
        #expect(frames(frame(body), chunk: 5) == [.message(try! JSONParser.parse(body))])
    }

    @Test("a large body arrives in pieces")
    func largeBody() {
        let text = String(repeating: "rect a center (1, 2)\n", count: 50_000)
        let body = JSON.object(["jsonrpc": "2.0", "method": "x", "params": ["text": .string(text)]]).serialized
        let out = frames(frame(body) + frame(a), chunk: 65_536)
        #expect(out.count == 2)
        #expect(out.first?.isMessage == true)
        #expect(out.last == .message(aJSON))
    }
}

extension IncomingFrame {
    var isMessage: Bool {
        if case .message = self { return true }
        return false
    }
}

/// A small deterministic generator (SplitMix64), so a failing case can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Framing under random input")
struct FramingPropertyTests {
    /// Bytes that make header-like and JSON-like garbage likely.
    static let alphabet = Array("Content-Length: 0123456789\r\n\r\n{}[]\":,abcXYZ \t".utf8) + [0x00, 0xFF, 0xC3, 0x80]

    @Test("after any garbage, the next frames are read; no input crashes or hangs the reader")
    func garbageThenFrames() {
        var rng = SplitMix(state: 0x5EED)
        let tail = #"{"jsonrpc":"2.0","id":77,"method":"tail"}"#
        let tailJSON = try! JSONParser.parse(tail)
        for round in 0..<3000 {
            var garbage: [UInt8] = []
            for _ in 0..<Int.random(in: 0...80, using: &rng) {
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    // Now and then a whole header, with a length that may be anything.
                    garbage += Array("Content-Length: \(Int.random(in: 0...200, using: &rng))\r\n\r\n".utf8)
                } else {
                    garbage.append(FramingPropertyTests.alphabet.randomElement(using: &rng)!)
                }
            }
            let input = garbage + frame(tail) + frame(tail)
            let out = frames(input, chunk: Int.random(in: 0...17, using: &rng))
            // The last frame always comes through (the one before may be read as the end of a
            // frame the garbage started).
            #expect(out.last == .message(tailJSON), "round \(round): \(String(decoding: garbage, as: UTF8.self).debugDescription)")
        }
    }

    @Test("random JSON values and mutated frames never crash the server")
    func randomMessages() {
        var rng = SplitMix(state: 0xC0FFEE)
        let c = TestClient()
        c.initialize()
        _ = c.sink.take()
        // Not shutdown and exit, which would end it early: they come last.
        let methods = ["initialize", "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
                       "initialized", "$/cancelRequest", "x"]
        func value(_ depth: Int) -> JSON {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .integer(Int64.random(in: -5...5, using: &rng))
            case 3: return .string(["", "file:///a.anim", "rect a\nrect a\n", "😀\r\n"].randomElement(using: &rng)!)
            case 4: return .double(Double.random(in: -1e6...1e6, using: &rng))
            case 5: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) })
            default:
                var o: [String: JSON] = [:]
                for k in ["textDocument", "uri", "text", "version", "contentChanges", "range", "start", "end", "line", "character", "capabilities"]
                where Bool.random(using: &rng) { o[k] = value(depth + 1) }
                return .object(o)
            }
        }
        for _ in 0..<3000 {
            var m: [String: JSON] = ["jsonrpc": "2.0", "method": .string(methods.randomElement(using: &rng)!), "params": value(0)]
            if Bool.random(using: &rng) { m["id"] = value(2) }
            c.server.handle(.message(.object(m)))
            // Every request is answered once, an invalid message too; a notification never.
            let answers = c.sink.take().filter { $0["method"] == nil }
            let structured: Bool
            switch m["params"]! {
            case .object, .array, .null: structured = true
            default: structured = false
            }
            #expect(answers.count == (m["id"] != nil || !structured ? 1 : 0), "\(JSON.object(m).serialized) -> \(answers.map(\.serialized))")
        }
        #expect(c.request("shutdown")?["result"] == .null)
        c.notify("exit")
        #expect(c.server.exitCode == 0)
    }
}
