// Lexer: source bytes → tokens. Golden token dumps for representative lines, and one test per
// lexical rule of the brief (§1): comments vs hex colors, units, newlines inside delimiters,
// and every lexical error reported exactly once.
@testable import AnimCore
import Testing

@Suite("Lexer")
struct LexerTests {
    @Test func tokenDump() {
        let (tokens, diags, file) = lex("rect a color #3366ff   # comment\nanimate 1.5s < a.z += 2 >\n")
        #expect(!diags.hasErrors)
        #expect(ASTDumper(file: file).dump(tokens: tokens) == """
        1:1 keyword rect
        1:6 identifier a
        1:8 identifier color
        1:14 color #3366ff
        1:33 newline
        2:1 keyword animate
        2:9 number 1.5s (unit s)
        2:14 lt <
        2:16 identifier a
        2:17 dot .
        2:18 identifier z
        2:20 plusEqual +=
        2:23 number 2
        2:25 gt >
        2:26 newline
        3:1 eof \n
        """)
    }

    // MARK: - Keywords

    @Test("every keyword lexes as itself, at the end of input too; a longer, shorter or capitalised word is a name")
    func keywords() {
        for k in Keyword.allCases {
            let word = k.rawValue
            for text in [word + " x", word] {  // a word that ends the source is read without the 8-byte load
                let t = lex(text).tokens[0]
                #expect(t.kind == .keyword && t.keyword == k, "\(text)")
            }
            for near in [word + "s", String(word.dropLast()), word.prefix(1).uppercased() + word.dropFirst(), word + "1", "_" + word] {
                let t = lex(near + " x").tokens[0]
                #expect(t.kind == .identifier || Keyword(rawValue: near) != nil, "\(near) is no keyword")
            }
        }
        // `interrupt` is the one keyword of nine letters: its last letter counts.
        #expect(lex("interrupx").tokens[0].kind == .identifier)
    }

    // MARK: - Comments and hex colors

    @Test("a '#' is a color only with 3, 4, 6 or 8 hex digits and no name character after", arguments: [
        ("#abc", true), ("#abcd", true), ("#aabbcc", true), ("#aabbccdd", true), ("#ABCDEF", true),
        ("#ab", false), ("#abcde", false), ("#abcdefa", false), ("#aabbccdde", false),
        ("#abcg", false), ("#abc_", false), ("#abc1x", false), ("# abc", false), ("#", false),
    ])
    func hexColorOrComment(text: String, isColor: Bool) {
        let k = kinds("print " + text + "\n")
        #expect(k.contains(.color) == isColor, "\(text): \(k)")
        #expect(k.count == (isColor ? 3 : 2))  // print, [color,] newline
    }

    @Test func colorThenCommentWithoutSpace() {
        // `#def` is a color too; `#xyz` is not, so it starts a comment.
        #expect(texts("#abc#def #abc#xyz 1\n") == ["#abc", "#def", "#abc", "⏎"])
    }

    @Test func commentRunsToEndOfLine() {
        #expect(texts("print 1 # print 2; print 3\nprint 4") == ["print", "1", "⏎", "print", "4"])
    }

    // MARK: - Numbers and units

    @Test("numbers and their units", arguments: [
        ("1", NumberUnit.none), ("0.25", .none), (".5", .none), ("2e-3", .none), ("1E3", .none),
        ("1.5s", .s), ("300ms", .ms), ("90deg", .deg), ("1.57rad", .rad), ("0.25turn", .turn), ("25%", .percent), ("1e2%", .percent),
    ])
    func numberUnits(text: String, unit: NumberUnit) {
        let (tokens, diags, file) = lex(text)
        #expect(!diags.hasErrors)
        #expect(tokens.count == 2)
        #expect(tokens[0].kind == .number)
        #expect(tokens[0].unit == unit)
        #expect(file.text(of: tokens[0].span) == text)
    }

    @Test func exponentNeedsDigits() {
        // `2ease` must not swallow the `e`: it is an unknown unit, not an exponent.
        #expect(messages(lex("2e").diagnostics) == ["unknown unit 'e'"])
        #expect(messages(lex("2ease").diagnostics) == ["unknown unit 'ease'"])
        #expect(texts("1e+5") == ["1e+5"])
    }

    @Test func sizeWithX() {
        #expect(texts("stage 400x700") == ["stage", "400", "x", "700"])
        #expect(kinds("400x700") == [.number, .identifier, .number])
        #expect(texts("stage 400 x 700") == ["stage", "400", "x", "700"])
        #expect(texts("3x") == ["3", "x"])
    }

    @Test func unknownUnitSuggestsOne() {
        #expect(messages(lex("90dge").diagnostics) == ["unknown unit 'dge'; did you mean 'deg'?"])
        #expect(messages(lex("1tunr").diagnostics) == ["unknown unit 'tunr'; did you mean 'turn'?"])
        #expect(messages(lex("3px").diagnostics) == ["unknown unit 'px'"])
    }

    // MARK: - Operators, keywords, names

    @Test func twoCharacterOperators() {
        #expect(kinds("== != <= >= += -= = + - < >") ==
                [.equalEqual, .bangEqual, .lessEqual, .greaterEqual, .plusEqual, .minusEqual, .equal, .plus, .minus, .lt, .gt])
    }

    @Test func keywordsAndNames() {
        let (tokens, _, _) = lex("animate animated then _then then2 ease-out")
        #expect(tokens.map(\.kind) == [.keyword, .identifier, .keyword, .identifier, .identifier, .keyword, .minus, .identifier, .eof])
        #expect(tokens[0].keyword == .animate)
        #expect(tokens[5].keyword == .ease)
    }

    @Test func spaceBeforeIsRecorded() {
        let (tokens, _, _) = lex("min(1) min (1)")
        #expect(tokens[1].kind == .lparen && !tokens[1].spaceBefore)
        #expect(tokens[5].kind == .lparen && tokens[5].spaceBefore)
    }

    // MARK: - Newlines

    @Test func newlinesInsideParensAndBracketsAreIgnored() {
        #expect(kinds("(1,\n2)\n[3,\n4]\n") == [.lparen, .number, .comma, .number, .rparen, .newline,
                                               .lbracket, .number, .comma, .number, .rbracket, .newline])
    }

    @Test func newlinesInsideBlocksSeparate() {
        #expect(kinds("<\nprint 1\n>") == [.lt, .newline, .keyword, .number, .newline, .gt])
    }

    @Test func newlinesInsideParensInsideABlockAreIgnored() {
        #expect(kinds("< print (1,\n2) >") == [.lt, .keyword, .lparen, .number, .comma, .number, .rparen, .gt])
    }

    @Test func closingBlockClosesParensLeftOpenInside() {
        // The `(` never closes, but `>` ends the block, so the next line break counts again.
        #expect(kinds("< print (1 >\nprint 2") == [.lt, .keyword, .lparen, .number, .gt, .newline, .keyword, .number])
    }

    @Test func unclosedParenStopsAtAStatementLine() {
        // Recovery: one missing ')' does not swallow the rest of the file.
        #expect(kinds("print (1\nprint 2") == [.keyword, .lparen, .number, .newline, .keyword, .number])
        // ...but a continuation line that starts with an expression is joined.
        #expect(kinds("print (1\n+ 2)") == [.keyword, .lparen, .number, .plus, .number, .rparen])
    }

    @Test func blankAndCommentLinesMakeOneNewline() {
        #expect(kinds("print 1\n\n# c\n\n  \nprint 2") == [.keyword, .number, .newline, .keyword, .number])
    }

    @Test func crlfAndBOM() {
        let (tokens, diags, file) = lex("\u{FEFF}print 1\r\nprint 2\r\n")
        #expect(!diags.hasErrors)
        #expect(tokens.map(\.kind) == [.keyword, .number, .newline, .keyword, .number, .newline, .eof])
        #expect(file.location(of: Int(tokens[3].span.start)) == SourceLocation(line: 2, column: 1))
    }

    // MARK: - Strings

    @Test func stringsWithInterpolationAreOneToken() {
        #expect(texts(#"print "a {b.c + "d}"} e""#) == ["print", #""a {b.c + "d}"} e""#])
    }

    @Test func stringsEndAtTheLineEnd() {
        let (tokens, diags, _) = lex("print \"abc\nprint 2")
        #expect(messages(diags) == ["unterminated string"])
        #expect(tokens.map(\.kind) == [.keyword, .error, .newline, .keyword, .number, .eof])
    }

    @Test func backslashDoesNotEscapeTheLineBreak() {
        let (tokens, diags, _) = lex("print \"abc\\\nprint \"x\"")
        #expect(messages(diags) == ["unterminated string"])
        #expect(tokens.map(\.kind) == [.keyword, .error, .newline, .keyword, .string, .eof])
    }

    @Test func escapedQuoteDoesNotEndTheString() {
        #expect(kinds(#"print "a \" b""#) == [.keyword, .string])
    }

    // MARK: - Errors

    @Test("each lexical error is reported once, as an error token", arguments: [
        ("print 1 ! 2", "unexpected character '!'"),
        ("print 1 @ 2", "unexpected character '@'"),
        ("print 1 € 2", "unexpected character '€'"),
        ("print 1 \u{01} 2", "unexpected control character 0x1"),
        ("print 1 \u{7F} 2", "unexpected control character 0x7f"),
        ("print 1 \u{0} 2", "unexpected NUL"),
        ("print 3px", "unknown unit 'px'"),
        ("print \"abc", "unterminated string"),
    ])
    func lexicalErrors(text: String, message: String) {
        let (tokens, diags, _) = lex(text)
        #expect(messages(diags) == [message])
        #expect(tokens.filter { $0.kind == .error }.count == 1)
        // The parser does not report the error token again.
        #expect(messages(parse(text).diagnostics) == [message])
    }

    @Test func invalidUTF8() {
        let file = SourceFile(id: 0, name: "t.anim", bytes: Array("print 1 ".utf8) + [0xFF] + Array(" 2\n".utf8))
        let (_, diags) = Lexer.tokenize(file)
        #expect(messages(diags) == ["invalid UTF-8 byte 0xff"])
        #expect(render(diags, file) == """
        t.anim:1:9: error: invalid UTF-8 byte 0xff
          1 | print 1 \u{FFFD} 2
            |         ^

        """)
    }

    @Test func lexingGoesOnAfterAnError() {
        let (_, diags, _) = lex("print 1 @ 2\nprint 3 ! 4\nprint 5px")
        #expect(messages(diags) == ["unexpected character '@'", "unexpected character '!'", "unknown unit 'px'"])
    }
}
