// The formatter's layout rules, one behaviour per test: what `anim fmt` writes for a script,
// that formatting twice changes nothing, and that a script with syntax errors is refused.
import AnimCore
import Testing

/// Formats text, failing the test when the formatter refuses it.
private func fmt(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
    let file = SourceFile(id: 0, name: "t.anim", bytes: Array(text.utf8))
    switch Formatter.format(file) {
    case .success(let out): return String(decoding: out, as: UTF8.self)
    case .failure(let f):
        Issue.record("not formatted: \(f)", sourceLocation: sourceLocation)
        return ""
    }
}

@Suite("Formatter")
struct FormatterTests {
    @Test("spaces around '=', operators and after ',' and ';', none inside brackets")
    func spacing() {
        #expect(fmt("rect a center(1,2)\nanimate 1<a.center=(3 ,4)*2;a.z+=1-2>\n")
            == "rect a center (1, 2)\nanimate 1 < a.center = (3, 4) * 2; a.z += 1 - 2 >\n")
        #expect(fmt("let xs = [ 1,2 , 3, ]\nprint xs[ 1 ]/2\n") == "let xs = [1, 2, 3,]\nprint xs[1] / 2\n")
        #expect(fmt("rect a\nexpect a.z>=0 within 0.1\nexpect a.z!=1\n") == "rect a\nexpect a.z >= 0 within 0.1\nexpect a.z != 1\n")
    }

    @Test("a unary minus keeps its operand, a binary one gets spaces")
    func minus() {
        #expect(fmt("print - 3\nprint 1-2\nprint 1 - -2\nprint (1, - 2)\nrect t rotation -45deg\n")
            == "print -3\nprint 1 - 2\nprint 1 - -2\nprint (1, -2)\nrect t rotation -45deg\n")
        #expect(fmt("rect a\nanimate 1 ease cubic-bezier(0.68,-0.55, 0.27 ,1.55) < a.z = 1 >\n")
            == "rect a\nanimate 1 ease cubic-bezier(0.68, -0.55, 0.27, 1.55) < a.z = 1 >\n")
    }

    @Test("what spacing means is kept: calls, indexing, easing names, hyphenated words")
    func meaningfulSpacing() {
        // `min(1, 2)` is a call, `min (1, 2)` a name and a point (Grammar.md §1.8).
        #expect(fmt("print min(1,2)\nrect a center(1,2)\ndefine f (s) = print s\nplay f (a)\n")
            == "print min(1, 2)\nrect a center (1, 2)\ndefine f(s) = print s\nplay f(a)\n")
        #expect(fmt("rect card[3]\nprint card[2].z\n") == "rect card[3]\nprint card[2].z\n")
        #expect(fmt("rect a\nanimate 1 ease ease-in-out < a.z = 1 >\nspring damping-ratio 0.5 response 0.3 < a.z = 2 >\n")
            == "rect a\nanimate 1 ease ease-in-out < a.z = 1 >\nspring damping-ratio 0.5 response 0.3 < a.z = 2 >\n")
        #expect(fmt("let a = 5\nlet b = 2\nprint a-b\nprint a - b\n") == "let a = 5\nlet b = 2\nprint a-b\nprint a - b\n")
        #expect(fmt("rect a\nanimate 1 ease steps(4,jump-start) < a.z = 1 >\n")
            == "rect a\nanimate 1 ease steps(4, jump-start) < a.z = 1 >\n")
    }

    @Test("an outline array keeps its size against its name, and a hyphenated property after '.' stays whole")
    func outlines() {
        // `polygon`, `line`… are words, not keywords, yet declare shapes (Grammar.md §4.8).
        #expect(fmt("polygon p[3] points [(0,0),(1,1)]\nline l[2] from (0,0) to (1,1)\n")
            == "polygon p[3] points [(0, 0), (1, 1)]\nline l[2] from (0, 0) to (1, 1)\n")
        #expect(fmt("line l\nanimate 1 < l.trim-end = 1;l.stroke-width=2 >\n") == "line l\nanimate 1 < l.trim-end = 1; l.stroke-width = 2 >\n")
    }

    @Test("'400x700' is spelt 'stage 400 x 700', and a color against a comment gets a space")
    func lexicalForms() {
        #expect(fmt("stage 400x700\n") == "stage 400 x 700\n")
        #expect(fmt("rect a color #abc#note\n") == "rect a color #abc #note\n")
    }

    @Test("four spaces per open block or bracket, a closing line at its opener's level")
    func indentation() {
        let text = """
        define hop(s) = <
          animate 1 < s.z = 1 >
                print "x"
        > then < print "y" >
        let p = (1,
                 2)
        repeat 2 <
        \trepeat 2 <
        print "in"
        >
        >

        """
        #expect(fmt(text) == """
        define hop(s) = <
            animate 1 < s.z = 1 >
            print "x"
        > then < print "y" >
        let p = (1,
            2)
        repeat 2 <
            repeat 2 <
                print "in"
            >
        >

        """)
    }

    @Test("a 'then' that ends a line moves to the start of the next")
    func thenAtLineStart() {
        #expect(fmt("print \"a\" then\n  print \"b\"\n") == "print \"a\"\nthen print \"b\"\n")
        // Comment lines between stay where they were; a comment after the 'then' stays on its line.
        #expect(fmt("print \"a\" then # note\n# between\nprint \"b\"\n") == "print \"a\"      # note\n# between\nthen print \"b\"\n")
        #expect(fmt("print \"a\"\nthen\nprint \"b\"\n") == "print \"a\"\nthen print \"b\"\n")
        #expect(fmt("repeat 2 < print \"a\" then\nprint \"b\" >\n") == "repeat 2 < print \"a\"\n    then print \"b\" >\n")
    }

    @Test("a line wider than 100 characters is broken before each 'then' of its chain, not inside blocks")
    func longChains() {
        let long = "rect sq\nanimate 1 < sq.center = (100, 0) > then animate 1 < sq.center = (100, 100) > then print \"done\" as walk\n"
        #expect(fmt(long) == """
        rect sq
        animate 1 < sq.center = (100, 0) >
        then animate 1 < sq.center = (100, 100) >
        then print "done" as walk

        """)
        let inner = "rect sq\n< animate 1 < sq.center = (100, 0) > then animate 1 < sq.center = (100, 100) > then print \"done\" >\n"
        #expect(fmt(inner) == inner)
        let short = "print 1 then print 2\n"
        #expect(fmt(short) == short)
    }

    @Test("comments are kept: on their own line at the code's indentation, after code at their column")
    func comments() {
        let text = """
        # top
        print 1     #> [0.000] 1
        print 22    #> [0.000] 22
        repeat 1 <
          # inside
          print (1,2) # grows into it
        >
        print   3  # moves left with the code? no: keeps its column


        # after two blank lines (one is kept)
        """
        #expect(fmt(text) == """
        # top
        print 1     #> [0.000] 1
        print 22    #> [0.000] 22
        repeat 1 <
            # inside
            print (1, 2) # grows into it
        >
        print 3    # moves left with the code? no: keeps its column

        # after two blank lines (one is kept)

        """)
        // A comment with two spaces before it keeps two when the code grows into its column.
        #expect(fmt("print (1,2)  # c\n") == "print (1, 2)  # c\n")
        // Comment bytes are copied as they are, even when they are not UTF-8.
        let bytes: [UInt8] = Array("print 1 # ".utf8) + [0xFF, 0xFE] + Array("\n".utf8)
        let out = Formatter.format(SourceFile(id: 0, name: "t.anim", bytes: bytes))
        #expect((try? out.get()) == bytes)
    }

    @Test("line breaks: CRLF becomes LF, blank lines at the start and end go, the file ends with one")
    func lineBreaks() {
        #expect(fmt("\n\nprint 1\r\nprint 2;;\n\n\n") == "print 1\nprint 2;;\n")
        #expect(fmt("print 1") == "print 1\n")
        #expect(fmt("") == "")
    }

    @Test("formatting is idempotent on what it wrote")
    func idempotent() {
        for text in ["stage 400x700\nrect a center(1,2)# c\nanimate 1<a.center=(3,4)>then\n\n\n  print   \"x\"\n",
                     "define f(s)=<\nanimate 1<s.z=1>\n>then<print 1>\nplay f(a)reversed speed 2\n"] {
            let once = fmt(text)
            #expect(fmt(once) == once)
        }
    }

    @Test("'# fmt: off' keeps a script as written")
    func off() {
        let text = "stage 400x700\nprint 1   +2\n# fmt: off (pins the form)\n"
        #expect(fmt(text) == text)
        #expect(fmt("print 1   +2 # fmt: offside\n") == "print 1 + 2  # fmt: offside\n")
    }

    @Test("a script with syntax errors is refused with the parser's diagnostics")
    func syntaxErrors() {
        let file = SourceFile(id: 0, name: "t.anim", bytes: Array("print (1,\nanimate < >\n#bad\n".utf8))
        guard case .failure(.syntax(let bag)) = Formatter.format(file) else {
            Issue.record("a script with syntax errors was formatted")
            return
        }
        #expect(bag.hasErrors)
        #expect(bag.all.map(\.message) == Parser.parseProgram(file).diagnostics.all.map(\.message))
        #expect(Formatter.format(text: "print 1 +\n") == nil)
    }
}
