// DiagnosticRenderer: line 1 is exactly `file:line:col: error: message`; below it a gutter,
// the source line and carets under the span. Expected spans are marked inside the source with
// ⟦ ⟧ (swift-format's 1️⃣ markers): the test strips the markers, renders, and checks that the
// carets sit under exactly the marked characters — with tabs, multi-byte and wide characters.
@testable import AnimCore
import Testing

/// A source with the span between ⟦ and ⟧ cut out of the markers.
private struct Marked {
    let file: SourceFile
    let span: Span
    /// The line of the span, and the marked text.
    let line: String
    let marked: String

    init(_ text: String, name: String = "test.anim") {
        let open = text.range(of: "⟦")!, close = text.range(of: "⟧")!
        let before = String(text[..<open.lowerBound])
        let inside = String(text[open.upperBound..<close.lowerBound])
        let after = String(text[close.upperBound...])
        let clean = before + inside + after
        file = SourceFile(id: 0, name: name, text: clean)
        span = Span(source: 0, start: before.utf8.count, end: before.utf8.count + inside.utf8.count)
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        line = String(before[lineStart...]) + inside + String(after.prefix { $0 != "\n" })
        marked = inside
    }

    func render(_ d: Diagnostic, color: Bool = false) -> String {
        var map = SourceMap()
        _ = map.add(name: file.name, bytes: file.bytes)
        return DiagnosticRenderer(sources: map, color: color, baseNamesOnly: true).render(d)
    }
}

/// Checks that a rendered snippet underlines exactly the marked text of `m`.
private func expectCaretsUnderMark(_ m: Marked, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let out = m.render(.error("msg", at: m.span)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // out[1] is "  N | <source line>", out[2] is "    | <underline>"
    let bar = out[1].range(of: " | ")!
    let gutter = out[1][..<bar.upperBound].count
    #expect(String(out[1].dropFirst(gutter)) == m.line, sourceLocation: sourceLocation)
    let under = Array(out[2].dropFirst(gutter))
    let prefix = m.line.components(separatedBy: m.marked)[0]
    let expectedPad = prefix.map { $0 == "\t" ? Character("\t") : " " }
    #expect(Array(under.prefix(expectedPad.count)) == expectedPad, "padding", sourceLocation: sourceLocation)
    #expect(String(under.dropFirst(expectedPad.count)) == String(repeating: "^", count: max(1, m.marked.count)),
            "carets", sourceLocation: sourceLocation)
}

@Suite("Diagnostic renderer")
struct RendererTests {
    @Test func theBriefsForm() {
        let m = Marked("rect square\nanimate 1.0 < square.⟦centre⟧ = (310,120) >\n", name: "dir/demo.anim")
        let d = Diagnostic.error("unknown property 'centre' of rect 'square'; did you mean 'center'?", at: m.span,
                                 label: "not a property of rect")
        #expect(m.render(d) == """
        demo.anim:2:22: error: unknown property 'centre' of rect 'square'; did you mean 'center'?
          2 | animate 1.0 < square.centre = (310,120) >
            |                      ^^^^^^ not a property of rect

        """)
    }

    @Test("carets sit under the marked characters", arguments: [
        "print ⟦foo⟧",
        "⟦print⟧ foo",
        "\tprint  ⟦foo⟧",
        "\t\tx\t⟦foo⟧ bar",
        "print \"héllo wörld\" + ⟦foo⟧",
        "print \"日本語\" + ⟦foo⟧",
        "print \"👩‍👩‍👧 e\u{301}\" + ⟦foo⟧",
        "print ⟦\"日本\"⟧ + 1",
        "print 1 ⟦€⟧ 2",
        "first line\nsecond ⟦line⟧ here\nthird",
    ])
    func caretPlacement(text: String) {
        expectCaretsUnderMark(Marked(text))
    }

    @Test func columnsCountCharacters() {
        let m = Marked("print \"日本語\" + ⟦foo⟧")
        var map = SourceMap()
        _ = map.add(name: "t.anim", bytes: m.file.bytes)
        #expect(DiagnosticRenderer(sources: map).position(of: m.span) == "t.anim:1:15")
    }

    @Test func emptySpanAtTheEndOfALine() {
        let m = Marked("rect a color⟦⟧\nprint 1")
        #expect(m.render(.error("expected a value for 'color'", at: m.span)) == """
        test.anim:1:13: error: expected a value for 'color'
          1 | rect a color
            |             ^

        """)
    }

    @Test func aMultiLineSpanIsUnderlinedToTheEndOfItsFirstLine() {
        let m = Marked("print ⟦(1,\n  2)⟧")
        #expect(m.render(.error("msg", at: m.span)) == """
        test.anim:1:7: error: msg
          1 | print (1,
            |       ^^^

        """)
    }

    @Test func gutterWidthFollowsTheLargestLineNumber() {
        let text = (1...9).map { "print \($0)" }.joined(separator: "\n") + "\nprint ⟦x⟧\n"
        let m = Marked(text)
        var d = Diagnostic.error("msg", at: m.span)
        d.secondary = [.init(span: Span(source: 0, start: 0, end: 5), text: "first")]
        #expect(m.render(d) == """
        test.anim:10:7: error: msg
           1 | print 1
             | ----- first
          10 | print x
             |       ^

        """)
    }

    @Test func labelsOnOneLineComeInOrderOfReport() {
        let m = Marked("print ⟦1s⟧ + red")
        var d = Diagnostic.error("cannot add a time and a color", at: Span(source: 0, start: 9, end: 10))
        d.secondary = [.init(span: m.span, text: "a time"), .init(span: Span(source: 0, start: 11, end: 14), text: "a color")]
        #expect(m.render(d) == """
        test.anim:1:10: error: cannot add a time and a color
          1 | print 1s + red
            |          ^
            |       -- a time
            |            --- a color

        """)
    }

    @Test func notesAndHelp() {
        let m = Marked("⟦delay⟧ 1")
        let d = Diagnostic.error("'delay' cannot start a step", at: m.span, notes: ["a note"], help: "a step starts with ...")
        #expect(m.render(d) == """
        test.anim:1:1: error: 'delay' cannot start a step
          1 | delay 1
            | ^^^^^
          = note: a note
          help: a step starts with ...

        """)
    }

    @Test func warningsAndSpansThatPointNowhere() {
        let m = Marked("⟦x⟧")
        #expect(m.render(.warning("careful", at: m.span)).hasPrefix("test.anim:1:1: warning: careful\n"))
        #expect(m.render(.error("no place", at: .none)) == "error: no place\n")
    }

    @Test func crlfLinesShowWithoutTheCarriageReturn() {
        let m = Marked("print 1\r\nprint ⟦x⟧\r\n")
        #expect(m.render(.error("msg", at: m.span)) == "test.anim:2:7: error: msg\n  2 | print x\n    |       ^\n")
    }

    @Test func colorOnlyWhenAsked() {
        let m = Marked("print ⟦x⟧")
        #expect(!m.render(.error("msg", at: m.span)).contains("\u{1B}["))
        let colored = m.render(.error("msg", at: m.span), color: true)
        #expect(colored.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[1;31m^\u{1B}[0m"))
    }

    @Test func fullPathsUnlessBaseNamesOnly() {
        var map = SourceMap()
        let f = map.add(name: "/some/dir/x.anim", text: "print 1")
        let span = Span(source: f.id, start: 6, end: 7)
        #expect(DiagnosticRenderer(sources: map).position(of: span) == "/some/dir/x.anim:1:7")
        #expect(DiagnosticRenderer(sources: map, baseNamesOnly: true).position(of: span) == "x.anim:1:7")
    }
    // MARK: - Long lines and control characters

    @Test func aMegabyteLineShowsAWindowAroundTheCaret() {
        let filler = String(repeating: "1 + ", count: 250_000)  // a million characters
        let m = Marked("print " + filler + "⟦foo⟧ + " + filler + "1\n")
        let out = m.render(.error("unknown name 'foo'", at: m.span))
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines[0] == "test.anim:1:1000007: error: unknown name 'foo'")
        #expect(lines[1] == "  1 | …" + String(repeating: "1 + ", count: 15) + "foo + " + String(repeating: "1 + ", count: 13) + "1 …")
        #expect(lines[2] == "    |  " + String(repeating: " ", count: 60) + "^^^")
        #expect(out.utf8.count < 400)
    }

    @Test func windowsAtEitherEndOfALongLine() {
        let long = String(repeating: "x", count: 300)
        let start = Marked("⟦foo⟧ " + long).render(.error("msg", at: Marked("⟦foo⟧ " + long).span))
        #expect(start.contains("  1 | foo " + String(repeating: "x", count: 116) + "…\n    | ^^^\n"))
        let end = Marked(long + " ⟦foo⟧")
        #expect(end.render(.error("msg", at: end.span)).contains("  1 | …" + String(repeating: "x", count: 116) + " foo\n    |  "
                                                               + String(repeating: " ", count: 117) + "^^^\n"))
        // A caret just past the end of a long line (a missing value) stays there.
        let past = Marked(long + " color⟦⟧")
        #expect(past.render(.error("msg", at: past.span)).hasSuffix(" color\n    |  " + String(repeating: " ", count: 120) + "^\n"))
    }

    @Test func aSpanLongerThanTheWindowIsCutAtItsEdge() {
        let m = Marked("print ⟦\"" + String(repeating: "a", count: 500) + "\"⟧")
        let under = m.render(.error("msg", at: m.span)).split(separator: "\n")[2]
        #expect(under == "    |       " + String(repeating: "^", count: 114))
    }

    @Test func controlCharactersAreShownAsPictures() {
        let m = Marked("print \u{1B}[31m ⟦\u{0}⟧\u{7}\u{7F} x")
        let out = m.render(.error("unexpected NUL", at: m.span))
        #expect(!out.contains("\u{1B}") && !out.contains("\u{0}") && !out.contains("\u{7}") && !out.contains("\u{7F}"))
        #expect(out.contains("  1 | print ␛[31m ␀␇␡ x\n    |             ^\n"))
        // The C1 controls too (U+009B is a one-character CSI to some terminals); tabs stay.
        let c1 = Marked("print\t\u{9B}31m ⟦x⟧")
        #expect(c1.render(.error("msg", at: c1.span)).contains("  1 | print\t�31m x\n    |      \t     ^\n"))
    }
}
