// An edit updates the document's line table in place of scanning the whole text again: after
// random edits of random texts (line breaks `\n`, `\r\n` and lone `\r` next to the edit's
// ends, multi-byte characters), the table (and which lines are ASCII) is the one a full scan makes.
@testable import AnimLanguageServer
import Testing

@Suite struct DocumentEditTests {
    @Test func editedLineTablesAreThoseOfAFullScan() {
        var rng = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], Array("ab".utf8), Array("é".utf8), Array("😀".utf8), [0x20]]
        func random(_ n: Int) -> [UInt8] { (0..<n).flatMap { _ in pieces.randomElement(using: &rng)! } }
        for _ in 0..<300 {
            var doc = DocumentText(random(Int.random(in: 0...12, using: &rng)))
            for _ in 0..<20 {
                let a = Int.random(in: 0...doc.bytes.count, using: &rng)
                let b = Int.random(in: a...doc.bytes.count, using: &rng)
                doc = doc.replacing(bytes: a..<b, with: random(Int.random(in: 0...3, using: &rng)))
                #expect(doc.lineStarts == DocumentText(doc.bytes).lineStarts, "\(doc.bytes)")
                #expect(doc.lineIsASCII == DocumentText(doc.bytes).lineIsASCII, "\(doc.bytes)")
            }
        }
    }

    @Test func aRangeEditKeepsTheTable() {
        var doc = DocumentText("rect a\r\nprint 1\rprint 2\n")
        doc = doc.replacing(TextRange(start: Position(line: 0, character: 6), end: Position(line: 1, character: 0)), with: "\r", encoding: .utf16)
        #expect(doc.string == "rect a\rprint 1\rprint 2\n")
        #expect(doc.lineStarts == [0, 7, 15, 23])
        doc = doc.replacing(TextRange(start: Position(line: 1, character: 7), end: Position(line: 2, character: 0)), with: "", encoding: .utf16)
        #expect(doc.lineStarts == DocumentText(doc.bytes).lineStarts)
    }
}
