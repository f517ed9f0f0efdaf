// Converting between LSP positions and byte offsets: tabs, CRLF and lone CR line ends, emoji
// (surrogate pairs in UTF-16), CJK, combining marks, a byte order mark, and positions out of
// range — in both encodings, checked against counts made independently by Swift's own UTF-16
// and UTF-8 views.
@testable import AnimLanguageServer
import Testing

@Suite("Positions")
struct PositionTests {
    static let samples: [String] = [
        "rect a\n\tprint \"x\"\n",
        "rect a\r\nprint 1\r\n\r\nprint 2",
        "a\rb\r\nc\nd\r",
        "print \"😀 ok\" # 😀😀\nprint 1",
        "print \"漢字かな\"\nprint \"éé\"",         // é precomposed, then e + U+0301
        "print \"e\u{301}e\u{301}\" x",
        "\u{FEFF}rect a\nprint \"👩‍👩‍👧\"",
        "",
        "\n\n",
    ]

    @Test("UTF-16: columns count UTF-16 units from the line's start", arguments: samples)
    func utf16(_ text: String) {
        let doc = DocumentText(text)
        // Walk the text by scalars, counting lines and units independently.
        var line = 0, column = 0, offset = 0
        var scalars = Array(text.unicodeScalars)[...]
        var afterCR = false
        while let s = scalars.first {
            scalars = scalars.dropFirst()
            #expect(doc.position(ofOffset: offset, encoding: .utf16) == Position(line: line, character: column), "\(text.debugDescription) at byte \(offset)")
            // The \n of a \r\n has no position of its own: the line's end is before the \r.
            if !(afterCR && s == "\n") {
                #expect(doc.offset(of: Position(line: line, character: column), encoding: .utf16) == offset)
            }
            afterCR = s == "\r"
            offset += String(s).utf8.count
            if s == "\n" || (s == "\r" && scalars.first != "\n") {
                line += 1; column = 0
            } else if s == "\r" {
                column += 0  // the \r of \r\n: the line's end, where the \n also is
            } else {
                column += String(s).utf16.count
            }
        }
        #expect(doc.position(ofOffset: offset, encoding: .utf16) == Position(line: line, character: column))
    }

    @Test("UTF-8: columns count bytes from the line's start", arguments: samples)
    func utf8(_ text: String) {
        let doc = DocumentText(text)
        for offset in 0...doc.bytes.count {
            let p = doc.position(ofOffset: offset, encoding: .utf8)
            let line = doc.line(ofOffset: offset)
            #expect(p.line == line)
            let lineStart = doc.lineStarts[line]
            #expect(p.character <= offset - lineStart)
            #expect(doc.offset(of: p, encoding: .utf8) <= offset)
        }
    }

    @Test("tabs are one unit; emoji two in UTF-16, four bytes in UTF-8; CJK one and three")
    func widths() {
        let doc = DocumentText("\t😀漢e\u{301}x")
        let x = doc.bytes.count - 1
        #expect(doc.position(ofOffset: x, encoding: .utf16) == Position(line: 0, character: 1 + 2 + 1 + 2))
        #expect(doc.position(ofOffset: x, encoding: .utf8) == Position(line: 0, character: 1 + 4 + 3 + 3))
        #expect(doc.offset(of: Position(line: 0, character: 6), encoding: .utf16) == x)
        #expect(doc.offset(of: Position(line: 0, character: 11), encoding: .utf8) == x)
    }

    @Test("a position inside a character means its start")
    func insideCharacter() {
        let doc = DocumentText("a😀b")
        // UTF-16 column 2 is between the surrogates of 😀.
        #expect(doc.offset(of: Position(line: 0, character: 2), encoding: .utf16) == 1)
        #expect(doc.offset(of: Position(line: 0, character: 3), encoding: .utf16) == 5)
        // UTF-8 columns 2 to 4 are inside its four bytes.
        for c in 2...4 { #expect(doc.offset(of: Position(line: 0, character: c), encoding: .utf8) == 1) }
        // A byte offset inside it is shown at its start.
        for o in 2...4 { #expect(doc.position(ofOffset: o, encoding: .utf16) == Position(line: 0, character: 1)) }
    }

    @Test("CRLF: the line ends before the \\r; an offset on the \\n is the line's end")
    func crlf() {
        let doc = DocumentText("ab\r\ncd")
        #expect(doc.lineCount == 2)
        #expect(doc.position(ofOffset: 2, encoding: .utf16) == Position(line: 0, character: 2))
        #expect(doc.position(ofOffset: 3, encoding: .utf16) == Position(line: 0, character: 2))
        #expect(doc.position(ofOffset: 4, encoding: .utf16) == Position(line: 1, character: 0))
        #expect(doc.offset(of: Position(line: 0, character: 99), encoding: .utf16) == 2)
        // A lone \r ends a line for LSP (anim's lexer reads it as a space; only offsets pass between them).
        #expect(DocumentText("a\rb").lineCount == 2)
    }

    @Test("out of range: a character past the line's end is the end, a line past the last is the text's end")
    func outOfRange() {
        let doc = DocumentText("abc\nde")
        #expect(doc.offset(of: Position(line: 0, character: 100), encoding: .utf16) == 3)
        #expect(doc.offset(of: Position(line: 1, character: 100), encoding: .utf8) == 6)
        #expect(doc.offset(of: Position(line: 7, character: 0), encoding: .utf16) == 6)
        #expect(doc.offset(of: Position(line: Int.max, character: Int.max), encoding: .utf16) == 6)
        #expect(doc.position(ofOffset: 1000, encoding: .utf16) == Position(line: 1, character: 2))
        #expect(doc.position(ofOffset: -5, encoding: .utf16) == Position(line: 0, character: 0))
        #expect(doc.contains(Position(line: 0, character: 3), encoding: .utf16))
        #expect(!doc.contains(Position(line: 0, character: 4), encoding: .utf16))
        #expect(!doc.contains(Position(line: 2, character: 0), encoding: .utf16))
    }

    @Test("edits: a range replaced, clamped, in either encoding")
    func edits() {
        let doc = DocumentText("print \"😀\"\nrect a")
        let e1 = doc.replacing(TextRange(start: Position(line: 0, character: 7), end: Position(line: 0, character: 9)), with: "漢", encoding: .utf16)
        #expect(e1.string == "print \"漢\"\nrect a")
        let e2 = e1.replacing(TextRange(start: Position(line: 1, character: 5), end: Position(line: 9, character: 0)), with: "b\n", encoding: .utf8)
        #expect(e2.string == "print \"漢\"\nrect b\n")
        #expect(e2.lineCount == 3)
        // An end before the start inserts at the start.
        let e3 = e2.replacing(TextRange(start: Position(line: 1, character: 1), end: Position(line: 0, character: 0)), with: "X", encoding: .utf16)
        #expect(e3.string == "print \"漢\"\nrXect b\n")
    }

    @Test("a byte order mark: core spans are offset by its length")
    func bom() {
        #expect(DocumentText("\u{FEFF}rect a").byteOrderMarkLength == 3)
        #expect(DocumentText("rect a").byteOrderMarkLength == 0)
    }
}
