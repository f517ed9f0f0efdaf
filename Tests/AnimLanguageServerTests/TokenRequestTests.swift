// What the editor asks after each keystroke, against what it would get in full: on every golden
// script and example, semantic tokens deltas applied to the previous result equal a fresh full
// result after random edits; range tokens equal the full tokens restricted to the range; inlay
// hints for a range equal the document's hints in it. Also the `.uints` JSON numbers, and
// completion answering from what is at hand.
import AnimCore
@testable import AnimLanguageServer
import AnimTestSupport
import Foundation
import Testing

@Suite struct TokenRequestTests {
    static let scripts = DiagnosticsTests.allScripts

    /// A small deterministic generator (SplitMix64), so a failure can be run again.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent(path)), as: UTF8.self)
    }

    /// A random edit of `text`'s lines: a character typed, a word deleted, a line duplicated or
    /// removed. Returns the change (LSP, UTF-16 = ASCII here) and the new text.
    static func edit(_ text: String, _ rng: inout Random) -> (JSON, String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let l = Int.random(in: 0..<lines.count, using: &rng)
        let line = Array(lines[l].utf16)
        func range(_ a: (Int, Int), _ b: (Int, Int)) -> JSON {
            ["start": ["line": .int(a.0), "character": .int(a.1)], "end": ["line": .int(b.0), "character": .int(b.1)]]
        }
        // Columns only in lines of ASCII, so a column never falls inside a character.
        let ascii = line.allSatisfy { $0 < 0x80 }
        switch Int.random(in: ascii ? 0..<4 : 2..<4, using: &rng) {
        case 0:
            let c = Int.random(in: 0...line.count, using: &rng)
            let typed = ["5", "x", " ", "\"", "#", "{", "<", ".", "e"].randomElement(using: &rng)!
            lines[l] = String(decoding: line[..<c], as: UTF16.self) + typed + String(decoding: line[c...], as: UTF16.self)
            return (["range": range((l, c), (l, c)), "text": .string(typed)], lines.joined(separator: "\n"))
        case 1:
            let c = Int.random(in: 0...line.count, using: &rng), e = min(line.count, c + Int.random(in: 1...6, using: &rng))
            lines[l] = String(decoding: line[..<c], as: UTF16.self) + String(decoding: line[e...], as: UTF16.self)
            return (["range": range((l, c), (l, e)), "text": ""], lines.joined(separator: "\n"))
        case 2:
            lines.insert(lines[l], at: l)
            return (["range": range((l, 0), (l, 0)), "text": .string(lines[l] + "\n")], lines.joined(separator: "\n"))
        default:
            guard l + 1 < lines.count else { return edit(text, &rng) }
            lines.remove(at: l)
            return (["range": range((l, 0), (l + 1, 0)), "text": ""], lines.joined(separator: "\n"))
        }
    }

    static func data(_ answer: JSON?) -> [Int]? { answer?["result"]?["data"]?.array?.compactMap(\.int) }

    @Test("deltas applied to the previous result equal a fresh full result, after random edits", arguments: scripts)
    func deltas(_ path: String) throws {
        // Line feeds only and no byte order mark, so the edits' lines and columns are plain.
        var text = try TokenRequestTests.text(path).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rng = Random(state: path.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) })
        let uri = "file:///delta.anim"
        let c = TestClient()
        c.initialize(encodings: ["utf-16"])
        c.open(uri, text)
        let first = try #require(c.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])?["result"])
        let firstData = first["data"]?.array?.compactMap { $0.int } ?? []
        var previous = (first["resultId"]?.string ?? "", firstData.map(UInt32.init))
        for version in 2...5 {
            let (change, next) = TokenRequestTests.edit(text, &rng)
            text = next
            c.change(uri, version: version, [change])
            let answer = try #require(c.request("textDocument/semanticTokens/full/delta",
                                                ["textDocument": ["uri": .string(uri)], "previousResultId": .string(previous.0)])?["result"])
            let edits = try #require(answer["edits"]?.array, "\(path): a known previous result is answered with edits")
            let applied = SemanticTokens.apply(edits.map { e in
                SemanticTokens.Edit(start: e["start"]?.int ?? -1, deleteCount: e["deleteCount"]?.int ?? -1,
                                    data: ArraySlice((e["data"]?.array ?? []).compactMap(\.int).map(UInt32.init)))
            }, to: previous.1)
            // A fresh server, which has no previous result, on the same text.
            let fresh = TestClient()
            fresh.initialize(encodings: ["utf-16"])
            fresh.open(uri, text)
            let full = try #require(TokenRequestTests.data(fresh.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])))
            #expect(applied.map(Int.init) == full, "\(path), version \(version)")
            previous = (answer["resultId"]?.string ?? "", applied)
        }
        // A result id the server does not have: the whole result.
        let unknown = c.request("textDocument/semanticTokens/full/delta", ["textDocument": ["uri": .string(uri)], "previousResultId": "nope"])
        #expect(TokenRequestTests.data(unknown)?.map(UInt32.init) == previous.1)
    }

    @Test("after a value edit, tokens moved from the base analysis equal a fresh server's, whole and in a range", arguments: scripts)
    func valueEdits(_ path: String) throws {
        var text = try TokenRequestTests.text(path)
        guard !text.contains("\r"), !text.hasPrefix("\u{FEFF}") else { return }
        // Each `let NAME = DIGITS` line: a digit typed after its number, one after the other.
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let targets = lines.indices.filter { lines[$0].wholeMatch(of: /let [a-z_]+ = [0-9]+/) != nil }
        guard !targets.isEmpty else { return }
        let uri = "file:///value.anim"
        let c = TestClient()
        c.initialize(encodings: ["utf-16"])
        c.open(uri, text)
        _ = c.diagnostics(uri, version: 1)
        for (k, l) in targets.prefix(4).enumerated() {
            let column = lines[l].utf16.count
            lines[l] += "7"
            text = lines.joined(separator: "\n")
            c.change(uri, version: k + 2, [["range": ["start": ["line": .int(l), "character": .int(column)], "end": ["line": .int(l), "character": .int(column)]],
                                            "text": "7"]])
            let range: JSON = ["start": ["line": .int(max(0, l - 3)), "character": 0], "end": ["line": .int(l + 3), "character": 0]]
            let full = TokenRequestTests.data(c.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]]))
            let ranged = TokenRequestTests.data(c.request("textDocument/semanticTokens/range", ["textDocument": ["uri": .string(uri)], "range": range]))
            let fresh = TestClient()
            fresh.initialize(encodings: ["utf-16"])
            fresh.open(uri, text)
            #expect(full == TokenRequestTests.data(fresh.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])), "\(path) line \(l)")
            #expect(ranged == TokenRequestTests.data(fresh.request("textDocument/semanticTokens/range", ["textDocument": ["uri": .string(uri)], "range": range])),
                    "\(path) line \(l), range")
        }
    }

    @Test("a value edit's tokens are moved from the base: the new text is not even parsed")
    func valueEditIsNotParsed() throws {
        let uri = ValueEditServerTests.uri
        let c = TestClient()
        c.initialize(encodings: ["utf-16"])
        c.open(uri, ValueEditServerTests.script)
        _ = c.diagnostics(uri, version: 1)
        c.change(uri, version: 2, [["range": ["start": ["line": 2, "character": 11], "end": ["line": 2, "character": 11]], "text": "5"]])
        let full = TokenRequestTests.data(c.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]]))
        let a = try #require(c.server.analyzerForTests?.analysis(of: uri))
        #expect(a.reusedDiagnostics && !a.lazySyntax.isMade)
        let fresh = TestClient()
        fresh.initialize(encodings: ["utf-16"])
        fresh.open(uri, a.text.string)
        #expect(full == TokenRequestTests.data(fresh.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])))
    }

    /// Token spans as comparable text.
    static func described(_ tokens: [(Span, SemanticTokens.T, Int)]) -> [String] {
        tokens.map { "\($0.0.start)-\($0.0.end) \($0.1) \($0.2)" }
    }

    @Test("range tokens equal the full tokens restricted to the range; hints for a range equal the document's in it", arguments: scripts)
    func ranges(_ path: String) throws {
        let text = try TokenRequestTests.text(path)
        let uri = "file:///range.anim"
        let c = TestClient()
        c.initialize(encodings: ["utf-16"])
        c.open(uri, text)
        let a = try #require(c.server.analyzerForTests?.analysis(of: uri))
        let all = SemanticTokens.tokens(a)
        let hints = InlayHints.hints(a)
        var rng = Random(state: path.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
        let n = a.text.bytes.count
        for _ in 0..<6 {
            let lo = Int.random(in: 0...n, using: &rng), hi = min(n, lo + Int.random(in: 0...max(1, n / 3), using: &rng))
            let range = a.sourceOffset(lo)..<a.sourceOffset(hi)
            let expected = all.filter { $0.0.start < range.upperBound && $0.0.end > range.lowerBound }
            #expect(TokenRequestTests.described(SemanticTokens.tokens(a, in: range)) == TokenRequestTests.described(expected), "\(path) \(lo)..<\(hi)")
            #expect(InlayHints.hints(a, in: lo...hi).map { "\($0.offset) \($0.label)" } == hints.filter { (lo...hi).contains($0.offset) }.map { "\($0.offset) \($0.label)" },
                    "\(path) hints \(lo)...\(hi)")
        }
        // Through the server, lines 0–20: the full answer's tokens that start in them (a token
        // reaching past line 20 starts in the range, and is in both).
        let range: JSON = ["start": ["line": 0, "character": 0], "end": ["line": 20, "character": 0]]
        let ranged = try #require(TokenRequestTests.data(c.request("textDocument/semanticTokens/range", ["textDocument": ["uri": .string(uri)], "range": range])))
        let full = try #require(TokenRequestTests.data(c.request("textDocument/semanticTokens/full", ["textDocument": ["uri": .string(uri)]])))
        var line = 0, kept: [Int] = []
        for k in stride(from: 0, to: full.count, by: 5) {
            line += full[k]
            if line < 20 { kept += full[k..<(k + 5)] }
        }
        #expect(ranged == kept, "\(path) lines 0-20")
    }

    @Test("one edit turns any result into any other")
    func editsOfNumbers() {
        var rng = Random(state: 7)
        for _ in 0..<500 {
            let old = (0..<(5 * Int.random(in: 0...8, using: &rng))).map { _ in UInt32.random(in: 0...3, using: &rng) }
            var new = old
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let at = 5 * Int.random(in: 0...(new.count / 5), using: &rng)
                if Bool.random(using: &rng), at < new.count { new.removeSubrange(at..<(at + 5)) } else {
                    new.insert(contentsOf: (0..<5).map { _ in UInt32.random(in: 0...3, using: &rng) }, at: at)
                }
            }
            let e = SemanticTokens.edits(from: old, to: new)
            #expect(SemanticTokens.apply(e.map { [$0] } ?? [], to: old) == new)
            #expect((e == nil) == (old == new))
            if let e { #expect(e.start % 5 == 0 && e.deleteCount % 5 == 0 && e.data.count % 5 == 0) }
        }
    }

    @Test("unboxed numbers write and compare as the array of the same integers")
    func unboxedNumbers() throws {
        let numbers: [UInt32] = [0, 9, 10, 99, 100, 4_294_967_295, 12345, 1]
        let boxed = JSON.array(numbers.map { .int(Int($0)) })
        #expect(JSON.uints(numbers).serialized == boxed.serialized)
        #expect(JSON.uints([]).serialized == "[]")
        #expect(JSON.uints(numbers) == boxed && boxed == JSON.uints(numbers))
        #expect(JSON.uints(numbers) != JSON.uints([1]))
        #expect(Set([JSON.uints(numbers), boxed]).count == 1)
        #expect(JSON.uints(numbers).array == boxed.array)
        #expect(try JSONParser.parse(Array(JSON.object(["data": .uints(numbers)]).serialized.utf8)) == ["data": boxed])
    }

    @Test("the capabilities offer deltas and ranges")
    func capabilities() throws {
        let c = TestClient()
        let caps = try #require(c.initialize()?["result"]?["capabilities"]?["semanticTokensProvider"])
        #expect(caps["full"]?["delta"] == true)
        #expect(caps["range"] == true)
    }

    @Test("completion on a value-edited version answers from its parse and the base's environment, without analysing it")
    func completionAtHand() throws {
        let uri = "file:///complete.anim"
        let c = TestClient()
        c.initialize(encodings: ["utf-16"])
        c.open(uri, "rect box center (0, 0) size (10, 10)\nlet gap = 12\nanimate 1 < box.center = (gap, 0) >\n")
        _ = c.diagnostics(uri, version: 1)
        // Into `12`: a value edit, whose diagnostics are reused.
        c.change(uri, version: 2, [["range": ["start": ["line": 1, "character": 11], "end": ["line": 1, "character": 11]], "text": "5"]])
        _ = c.diagnostics(uri, version: 2)
        let answer = c.request("textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": ["line": 2, "character": 16]])
        let items = try #require(answer?["result"]?["items"]?.array)
        #expect(items.contains { $0["label"] == "center" && $0["detail"] == "point" })
        let expression = c.request("textDocument/completion", ["textDocument": ["uri": .string(uri)], "position": ["line": 2, "character": 27]])
        #expect(expression?["result"]?["items"]?.array?.contains { $0["label"] == "gap" } == true)
        let a = try #require(c.server.analyzerForTests?.analysis(of: uri))
        #expect(a.reusedDiagnostics, "completion made the full analysis of a value edit")
    }
}
