// Parser: tokens → AST, tested through the AST dump (`anim check --dump ast`), so a failure
// shows the tree that was built. Also: statement boundaries, `then` continuation, error
// recovery (each broken statement reported once) and the REPL's "ended early" signal.
@testable import AnimCore
import Testing

@Suite("Parser")
struct ParserTests {
    // MARK: - Expressions

    @Test func precedenceAndAssociativity() {
        #expect(astDump("print -1 + 2 * 3 - 4 / 2 / 1") == """
        Program
        └─ Chain
           └─ Print
              └─ Binary -
                 ├─ Binary +
                 │  ├─ Unary -
                 │  │  └─ Number 1
                 │  └─ Binary *
                 │     ├─ Number 2
                 │     └─ Number 3
                 └─ Binary /
                    ├─ Binary /
                    │  ├─ Number 4
                    │  └─ Number 2
                    └─ Number 1

        """)
    }

    @Test func postfixChains() {
        #expect(astDump("print a.b[1].c") == """
        Program
        └─ Chain
           └─ Print
              └─ Member .c
                 └─ Index
                    ├─ Member .b
                    │  └─ Name a
                    └─ Number 1

        """)
    }

    @Test func callsPairsListsAndLiterals() {
        #expect(astDump(#"print min(1, (2, 3), [red, #fff, "s", true], 90deg)"#) == """
        Program
        └─ Chain
           └─ Print
              └─ Call min
                 ├─ Number 1
                 ├─ Pair
                 │  ├─ Number 2
                 │  └─ Number 3
                 ├─ List
                 │  ├─ Name red
                 │  ├─ Color #fff
                 │  ├─ String "s"
                 │  └─ Bool true
                 └─ Number 90deg

        """)
    }

    @Test func parenthesesGroupWithoutANode() {
        #expect(astDump("print (1 + 2) * 3") == astDump("print (((1 + 2))) * 3"))
    }

    @Test func aSpaceBeforeTheParenIsNotACall() {
        // `min (1)` is a name followed by a parenthesised value: two expressions, an error.
        #expect(messages(parse("print min (1)").diagnostics) == ["expected end of statement, found '('"])
    }

    @Test func keywordsAreMemberNames() {
        #expect(astDump("print title.text") == """
        Program
        └─ Chain
           └─ Print
              └─ Member .text
                 └─ Name title

        """)
    }

    // MARK: - Statements and chains

    @Test func thenAtLineEndAndLineStartMakeOneChain() {
        let p = parse("wait 1 then\n\n  print 2\n# comment\nthen print 3\nprint 4")
        #expect(!p.diagnostics.hasErrors)
        #expect(p.tree.count(p.tree.statements) == 2)
        guard case .chain(let c) = p.tree[p.tree[p.tree.statements][0]] else { Issue.record("not a chain"); return }
        #expect(p.tree.count(p.tree[c].steps) == 3)
    }

    @Test func chainWithOptionsAndName() {
        #expect(astDump("animate 1 delay 0.5 ease cubic-bezier(0.1, -0.2, 1, 1) repeat 2 yoyo speed 2 from 0 < a.z += 1; a.q -= 2 > as x") == """
        Program
        └─ Chain as x
           └─ Animate
              ├─ Number 1
              ├─ delay
              │  └─ Number 0.5
              ├─ ease cubic-bezier(0.1, -0.2, 1, 1)
              ├─ repeat
              │  └─ Number 2
              ├─ yoyo
              ├─ speed
              │  └─ Number 2
              ├─ from
              │  └─ Number 0
              ├─ Assign +=
              │  ├─ Member .z
              │  │  └─ Name a
              │  └─ Number 1
              └─ Assign -=
                 ├─ Member .q
                 │  └─ Name a
                 └─ Number 2

        """)
    }

    @Test func hyphenatedEasingNamesNeedNoSpaces() {
        #expect(astDump("animate 1 ease ease-in-out < a.z = 1 >").contains("ease ease-in-out"))
        // With spaces, `-` is subtraction and `in` is a keyword: not an easing name.
        #expect(parse("animate 1 ease ease - in < a.z = 1 >").diagnostics.hasErrors)
    }

    @Test func blocksAndRepeat() {
        #expect(astDump("< print 1 ; wait 1 then print 2 >\nrepeat forever < wait 1 >\nrepeat 3 < print 3 >") == """
        Program
        ├─ Chain
        │  └─ Block
        │     ├─ Chain
        │     │  └─ Print
        │     │     └─ Number 1
        │     └─ Chain
        │        ├─ Wait
        │        │  └─ Number 1
        │        └─ Print
        │           └─ Number 2
        ├─ Chain
        │  └─ Repeat forever
        │     └─ Block
        │        └─ Chain
        │           └─ Wait
        │              └─ Number 1
        └─ Chain
           └─ Repeat
              ├─ Number 3
              └─ Block
                 └─ Chain
                    └─ Print
                       └─ Number 3

        """)
    }

    @Test func aLoneWaitIsATopLevelStatement() {
        #expect(astDump("wait\nwait 2\nwait x\nwait 1 then print 1") == """
        Program
        ├─ Wait
        ├─ Wait
        │  └─ Number 2
        ├─ Wait
        │  └─ Name x
        └─ Chain
           ├─ Wait
           │  └─ Number 1
           └─ Print
              └─ Number 1

        """)
    }

    @Test func declarations() {
        #expect(astDump("stage 400 x 700 color red\nrect card[5] center (i, 0)\ngroup g = [a, b]\nlet k = 2\nseed 3\nat 1 + 1 < print 1 >") == """
        Program
        ├─ Stage
        │  ├─ Pair
        │  │  ├─ Number 400
        │  │  └─ Number 700
        │  └─ Property color
        │     └─ Name red
        ├─ Shape rect card
        │  ├─ count
        │  │  └─ Number 5
        │  └─ Property center
        │     └─ Pair
        │        ├─ Name i
        │        └─ Number 0
        ├─ Group g
        │  └─ List
        │     ├─ Name a
        │     └─ Name b
        ├─ Let k
        │  └─ Number 2
        ├─ Seed
        │  └─ Number 3
        └─ At
           ├─ Binary +
           │  ├─ Number 1
           │  └─ Number 1
           └─ Block
              └─ Chain
                 └─ Print
                    └─ Number 1

        """)
    }

    @Test func expectAndSet() {
        #expect(astDump("expect a.z >= 1 within 0.1\nset a.center = (1, 2)") == """
        Program
        ├─ Chain
        │  └─ Expect >=
        │     ├─ Member .z
        │     │  └─ Name a
        │     ├─ Number 1
        │     └─ within
        │        └─ Number 0.1
        └─ Chain
           └─ Set
              └─ Assign =
                 ├─ Member .center
                 │  └─ Name a
                 └─ Pair
                    ├─ Number 1
                    └─ Number 2

        """)
    }

    @Test func separators() {
        let p = parse(";;print 1;print 2\n\n;\nprint 3;")
        #expect(!p.diagnostics.hasErrors)
        #expect(p.tree.count(p.tree.statements) == 3)
    }

    // MARK: - Strings

    @Test func interpolationParts() {
        let p = parse(#"print "a{1 + 2}b\{c\}{"d"}""#)
        #expect(!p.diagnostics.hasErrors)
        let t = p.tree
        guard case .chain(let c) = t[t[t.statements][0]], case .print(let pr) = t[t[t[c].steps][0]],
              case .string(let s) = t[pr.value] else { Issue.record("not a string"); return }
        let parts = t.parts(of: s)
        #expect(parts.count == 4)  // "a", {1 + 2}, "b{c}", {"d"}
        guard parts.count == 4, case .text(let middle) = parts[2] else { Issue.record("not text"); return }
        #expect(middle == "b{c}")
    }

    /// Text parts are decoded straight from the source unless they hold an escape; every mix
    /// of runs, escapes and interpolations reads as the escapes say.
    @Test func textPartsAroundEscapesAndInterpolations() {
        let p = parse(#"print "\"x\ty{1}\n{2}z\\" "#)
        #expect(!p.diagnostics.hasErrors)
        let t = p.tree
        guard case .chain(let c) = t[t[t.statements][0]], case .print(let pr) = t[t[t[c].steps][0]],
              case .string(let s) = t[pr.value] else { Issue.record("not a string"); return }
        let texts = t.parts(of: s).map { part -> String in
            if case .text(let x) = part { return x } else { return "{}" }
        }
        #expect(texts == ["\"x\ty", "{}", "\n", "{}", "z\\"])
    }

    /// Colour literals are read from the source bytes (`Color(hexLiteral:)`): every length and
    /// case of digit gives the colour `Color(hex:)` gives.
    @Test func colourLiteralsReadAsColorHexReadsThem() {
        for hex in ["abc", "ABCD", "a1B2c3", "0F1e2D3c", "fff", "0000", "123456", "FFFFFFFF", "9aF"] {
            let tree = parse("print #\(hex)").tree
            #expect(tree.colors == [Color(hex: hex)!], "#\(hex)")
        }
    }

    // MARK: - Recovery

    @Test func everyBrokenStatementIsReportedOnce() {
        let p = parse("print 1 +\nprint 2\nanimate 1 < a.z 1 >\nlet = 2\nprint 3 4\nprint 5")
        #expect(messages(p.diagnostics) == [
            "expected an expression after '+'",
            "expected '=', '+=' or '-=' after 'a.z', found '1'",
            "expected a name after 'let'",
            "expected end of statement, found '4'",
        ])
        #expect(p.tree.count(p.tree.statements) == 2)  // print 2, print 5
    }

    @Test func errorsInsideABlockRecoverInsideIt() {
        let p = parse("< print 1 print 2 ; print (3 ; print 4 >\nprint 5")
        #expect(messages(p.diagnostics) == [
            "expected ';', a new line or '>' after the step, found 'print'",
            "expected ')' to close '('",
        ])
        #expect(p.tree.count(p.tree.statements) == 2)
    }

    @Test("a stray '>' at the top level is one error, not a loop", .timeLimit(.minutes(1)))
    func strayCloser() {
        #expect(messages(parse("print 1 >\nprint 2").diagnostics) == ["expected a statement, found '>'"])
        #expect(messages(parse("rect a\nanimate 1 < a.z 1 >\nprint 2").diagnostics) == ["expected '=', '+=' or '-=' after 'a.z', found '1'"])
        #expect(messages(parse("at 1 < animate 1 < a.z == 1 > >\nprint 2").diagnostics) == ["expected '=' in an assignment, found '=='"])
    }

    @Test func errorsAtTheEndPointAtTheLastToken() {
        let p = parse("at 1 < print 1\n# trailing comment\n\n")
        #expect(render(p.diagnostics, p.file) == """
        test.anim:1:15: error: unclosed '<'
          1 | at 1 < print 1
            |               ^ expected '>'
            |      - opened here

        """)
    }

    @Test func endedEarlyOnlyWhenMoreInputCouldComplete() {
        #expect(parse("at 1 < print 1").endedEarly)
        #expect(parse("rect a\nanimate 1 < a.z = 1").endedEarly)
        #expect(parse("print 1 then").endedEarly)
        #expect(parse("print (1,").endedEarly)
        #expect(parse("define hop(s) =\n").endedEarly, "the body may follow on the next lines")
        #expect(parse("animate 1 <\n  a.z = 1\n").endedEarly)
        #expect(!parse("print 1 2").endedEarly)
        #expect(!parse("print 1").endedEarly)
        // Errors at a line break: more lines cannot fix them.
        #expect(!parse("print 1 +\n").endedEarly)
        #expect(!parse("animate\n").endedEarly)
        // A string ends at the end of its line.
        #expect(!parse("print \"abc").endedEarly)
        #expect(!parse("print \"abc\n").endedEarly)
    }

    @Test("an error inside a block of assignments does not leave its '>' to the top level")
    func errorInsideAnAssignmentBlock() {
        #expect(messages(parse("animate 0.5 <\nprint \"inside\"\n>\nprint 2").diagnostics)
            == ["expected an expression, found keyword 'print'"])
        let p = parse("rect a\nanimate 1 <\n  a.center = (1,0)\n  a.z 2\n  a.alpha = 0\n>\nprint 2")
        #expect(messages(p.diagnostics) == ["expected '=', '+=' or '-=' after 'a.z', found '2'"])
        #expect(p.tree.count(p.tree.statements) == 2, "the rect and the print")
    }

    @Test func nestingLimit() {
        let ok = "print " + String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
        #expect(!parse(ok).diagnostics.hasErrors)
        let deep = "print " + String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300)
        #expect(messages(parse(deep).diagnostics) == ["nesting is too deep (the limit is 200 levels)"])
        let blocks = String(repeating: "< ", count: 300) + String(repeating: "> ", count: 300)
        #expect(messages(parse(blocks).diagnostics).first == "nesting is too deep (the limit is 200 levels)")
    }

    @Test func didYouMeanForStatements() {
        #expect(messages(parse("animat 1 < a.z = 1 >").diagnostics) == ["unknown statement 'animat'; did you mean 'animate'?"])
        #expect(messages(parse("lett x = 1").diagnostics) == ["unknown statement 'lett'; did you mean 'let'?"])
        #expect(messages(parse("a.z = 1").diagnostics) == ["an assignment needs 'set' or an 'animate' block"])
        #expect(messages(parse("animate 1 dleay 1 < a.z = 1 >").diagnostics) == ["unknown option 'dleay'; did you mean 'delay'?"])
    }
}
