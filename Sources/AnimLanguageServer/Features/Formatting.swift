// Formatting: `textDocument/formatting` through anim's formatter, so an editor's "Format
// Document" writes what `anim fmt` writes. The answer is one TextEdit that replaces the lines
// that differ (the lines before and after them are left alone, so marks and the cursor there
// do not move), none when the document is formatted, and null when it has syntax errors: the
// formatter refuses those, and the diagnostics already say why. The formatting options (tab
// size, spaces) are not read: anim has one layout.
//
// `textDocument/rangeFormatting` formats the smallest run of whole top-level statements that
// covers the range (a range inside a block formats the statement holding the block; a range
// that touches no statement, only comments or blank lines, changes nothing): the whole
// document goes through the formatter, with its guarantees (same tokens, same tree, same
// comments), and the edit replaces those statements' lines with the lines the formatted
// document has for the same statements. The lines outside stay as written. The edited
// document is checked to lex to the same tokens as before; if it would not, nothing changes.
import AnimCore

/// `documentFormattingProvider`.
struct FormattingFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["documentFormattingProvider"] = true
        capabilities["documentRangeFormattingProvider"] = true
    }

    var requests: [String: RequestHandler] {
        ["textDocument/formatting": { context throws(ResponseError) in try FormattingFeature.format(context) },
         "textDocument/rangeFormatting": { context throws(ResponseError) in try FormattingFeature.formatRange(context) }]
    }

    /// The edits that format the statements covering `params.range` of the document
    /// `params.textDocument.uri` names.
    static func formatRange(_ context: RequestContext) throws(ResponseError) -> JSON {
        let uri = try context.textDocumentURI()
        guard let document = context.document(uri) else { throw .invalidParams("the document \(uri) is not open") }
        guard let range = TextRange(json: context.params?["range"]) else { throw .invalidParams("expected params.range") }
        let text = document.text
        let bom = text.byteOrderMarkLength
        let body = Array(text.bytes[bom...])
        let file = SourceFile(id: 0, name: uri, bytes: body)
        guard case .success(let out) = Formatter.format(file) else { return .null }
        let lo = max(0, text.offset(of: range.start, encoding: context.encoding) - bom)
        let hi = max(lo, text.offset(of: range.end, encoding: context.encoding) - bom)
        guard let (old, new) = statementLines(body, out, covering: lo..<hi) else { return [] }
        guard body[old] != out[new] else { return [] }
        // The same tokens as before (the formatter promises it for the whole document; the
        // pieces put together must keep it too).
        var edited = Array(body[..<old.lowerBound])
        edited += out[new]
        edited += body[old.upperBound...]
        func code(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
            Lexer.tokenize(SourceFile(id: 0, name: uri, bytes: bytes)).tokens.filter { $0.kind != .newline }.map {
                bytes[Int($0.span.start)..<Int($0.span.end)]
            }
        }
        guard code(edited) == code(body) else { return [] }
        let r = text.range(ofOffsets: (old.lowerBound + bom)..<(old.upperBound + bom), encoding: context.encoding)
        return [["range": r.json, "newText": .string(String(decoding: out[new], as: UTF8.self))]]
    }

    /// The byte ranges, in the script `a` and in its formatted text `b`, of the whole lines
    /// of the fewest top-level statements that cover `range` of `a` and whose lines hold no
    /// other statement in either text; nil when `range` touches no statement.
    static func statementLines(_ a: [UInt8], _ b: [UInt8], covering range: Range<Int>) -> (Range<Int>, Range<Int>)? {
        func spans(_ bytes: [UInt8]) -> [Span] {
            let tree = Parser.parseProgram(SourceFile(id: 0, name: "", bytes: bytes)).tree
            return tree[tree.statements].map { tree.span($0) }
        }
        let sa = spans(a), sb = spans(b)
        // The formatter keeps the tree: the same statements, in the same order.
        guard sa.count == sb.count else { return nil }
        guard var first = sa.firstIndex(where: { Int($0.end) >= range.lowerBound }), Int(sa[first].start) <= range.upperBound else { return nil }
        var last = sa.lastIndex(where: { Int($0.start) <= range.upperBound })!
        func lineStart(_ s: [UInt8], _ k: Int) -> Int {
            var k = k
            while k > 0, s[k - 1] != 0x0A { k -= 1 }
            return k
        }
        func lineEnd(_ s: [UInt8], _ k: Int) -> Int {
            var k = k
            while k < s.count, s[k] != 0x0A { k += 1 }
            return min(s.count, k + 1)
        }
        // Widen until the lines of first...last hold no other statement in either text.
        while true {
            var changed = false
            for (s, sp) in [(a, sa), (b, sb)] {
                let start = lineStart(s, Int(sp[first].start)), end = lineEnd(s, Int(sp[last].end))
                while first > 0, Int(sp[first - 1].end) > start { first -= 1; changed = true }
                while last + 1 < sp.count, Int(sp[last + 1].start) < end { last += 1; changed = true }
            }
            if !changed { break }
        }
        return (lineStart(a, Int(sa[first].start))..<lineEnd(a, Int(sa[last].end)),
                lineStart(b, Int(sb[first].start))..<lineEnd(b, Int(sb[last].end)))
    }

    /// The edits that format the document `params.textDocument.uri` names.
    static func format(_ context: RequestContext) throws(ResponseError) -> JSON {
        let uri = try context.textDocumentURI()
        guard let document = context.document(uri) else { throw .invalidParams("the document \(uri) is not open") }
        let text = document.text
        let bom = text.byteOrderMarkLength
        let body = Array(text.bytes[bom...])
        guard case .success(let out) = Formatter.format(SourceFile(id: 0, name: uri, bytes: body)) else { return .null }
        guard let (old, new) = differingLines(body, out) else { return [] }
        let range = text.range(ofOffsets: (old.lowerBound + bom)..<(old.upperBound + bom), encoding: context.encoding)
        return [["range": range.json, "newText": .string(String(decoding: out[new], as: UTF8.self))]]
    }

    /// The byte ranges, in `a` and in `b`, of the whole lines between their common first and
    /// last lines; nil when they are equal.
    static func differingLines(_ a: [UInt8], _ b: [UInt8]) -> (Range<Int>, Range<Int>)? {
        guard a != b else { return nil }
        func lines(_ s: [UInt8]) -> [Range<Int>] {
            var out: [Range<Int>] = []
            var start = 0
            for (i, c) in s.enumerated() where c == 0x0A { out.append(start..<(i + 1)); start = i + 1 }
            if start < s.count { out.append(start..<s.count) }
            return out
        }
        let la = lines(a), lb = lines(b)
        var head = 0
        while head < la.count, head < lb.count, a[la[head]] == b[lb[head]] { head += 1 }
        var tail = 0
        while tail < la.count - head, tail < lb.count - head, a[la[la.count - 1 - tail]] == b[lb[lb.count - 1 - tail]] { tail += 1 }
        let startA = head < la.count ? la[head].lowerBound : a.count
        let endA = la.count - tail > head ? la[la.count - 1 - tail].upperBound : startA
        let startB = head < lb.count ? lb[head].lowerBound : b.count
        let endB = lb.count - tail > head ? lb[lb.count - 1 - tail].upperBound : startB
        return (startA..<endA, startB..<endB)
    }
}
