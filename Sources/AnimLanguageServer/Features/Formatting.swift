// Formatting: `textDocument/formatting` through anim's formatter, so an editor's "Format
// Document" writes what `anim fmt` writes. The answer is one TextEdit that replaces the lines
// that differ (the lines before and after them are left alone, so marks and the cursor there
// do not move), none when the document is formatted, and null when it has syntax errors: the
// formatter refuses those, and the diagnostics already say why. The formatting options (tab
// size, spaces) are not read: anim has one layout.
import AnimCore

/// `documentFormattingProvider`.
struct FormattingFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["documentFormattingProvider"] = true
    }

    var requests: [String: RequestHandler] {
        ["textDocument/formatting": { context throws(ResponseError) in try FormattingFeature.format(context) }]
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
