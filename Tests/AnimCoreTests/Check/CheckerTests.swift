// Checker: AST → checked statements. The kind rules of the brief (§2), exact conversion of
// decimal literals in time slots, constant folding, name resolution with did-you-mean, the
// environment it builds (shapes, arrays, custom properties), and that it reports every bad
// statement of a program, not only the first.
@testable import AnimCore
import Testing

/// The kind `let x = <expr>` gives x, or the checker's messages.
private func kindOf(_ expr: String, declarations: String = "rect a glow 0\ntext t\n") -> Result<Kind, TestFailure> {
    let c = check(declarations + "let x = " + expr + "\n")
    if c.diagnostics.hasErrors { return .failure(TestFailure(messages(c.diagnostics).joined(separator: "; "))) }
    guard case .global(_, let k)? = c.environment.symbol(named: "x") else { return .failure(TestFailure("no binding")) }
    return .success(k)
}

/// The constant `let x = <expr>` folds to, if it folds.
private func folded(_ expr: String) -> Value? {
    let c = check("let x = " + expr)
    guard case .bind(_, let v, _)? = c.statements.first else { return nil }
    return v.constantValue
}

/// The messages checking a program gives.
private func checkMessages(_ text: String) -> [String] { messages(check(text).diagnostics) }

@Suite("Checker")
struct CheckerTests {
    // MARK: - Kind rules

    @Test("the kind of an expression", arguments: [
        ("1 + 2", Kind.number), ("1s + 2", .time), ("2 + 1s", .time), ("1s * 2", .time), ("2 * 1s", .time),
        ("1s / 2", .time), ("3s / 1.5s", .number), ("300ms - 0.1s", .time),
        ("90deg + 10", .angle), ("10 - 90deg", .angle), ("90deg / 45deg", .number), ("2 * 1turn", .angle),
        ("(1, 2) + (3, 4)", .point), ("(1, 2) * 2", .point), ("2 * (1, 2)", .point), ("(1, 2) / 2", .point),
        ("(1, 2).x", .number), ("-(1, 2)", .point), ("-1s", .time),
        ("\"a\" + 1", .string), ("1 + \"a\"", .string), ("\"{1}\"", .string), ("true", .bool),
        ("red", .color), ("#abc", .color), ("rgb(1, 2, 3)", .color), ("hsla(1, 2, 3, 0.5)", .color),
        ("min(1, 2)", .number), ("max(1s, 2)", .time), ("min(2, 90deg)", .angle), ("abs(-1deg)", .angle),
        ("sqrt(4)", .number), ("sin(90deg)", .number), ("cos(90)", .number),
        ("lerp(red, blue, 0.5)", .color), ("lerp((0, 0), (1, 1), 0.5)", .point), ("clamp(5s, 0, 3)", .time),
        ("random()", .number), ("random(1s)", .time), ("random(90deg)", .angle), ("random((1, 2))", .point),
        ("a.center", .point), ("a.rotation", .angle), ("a.color", .paint), ("linear-gradient(90deg, red, blue)", .paint), ("a.glow", .number), ("t.text", .string),
        ("[1, 2]", .list(.number)), ("[a, t]", .list(.shape)), ("[1, \"a\"]", .list(.mixed)), ("[]", .list(.empty)),
        ("a", .shape),
    ])
    func kinds(expr: String, kind: Kind) throws {
        #expect(try kindOf(expr).get() == kind, "\(expr)")
    }

    @Test("operand kinds that do not combine", arguments: [
        ("1s + red", "cannot add a time and a color"),
        ("1s * 1s", "cannot multiply a time and a time"),
        ("2 / 1s", "cannot divide a number and a time"),
        ("90deg * 1s", "cannot multiply an angle and a time"),
        ("1s + 90deg", "cannot add a time and an angle"),
        ("(1, 2) + 1", "cannot add a point and a number"),
        ("(1, 2) * 1s", "cannot multiply a point and a time"),
        ("red * 2", "cannot multiply a color and a number"),
        ("true + 1", "cannot add a bool and a number"),
        ("\"a\" - 1", "cannot subtract a string and a number"),
        ("-red", "cannot negate a color"),
        ("-\"a\"", "cannot negate a string"),
    ])
    func kindErrors(expr: String, message: String) {
        #expect(checkMessages("let x = " + expr) == [message])
    }

    @Test func operandErrorLabelsBothSides() {
        let c = check("let x = 1s + red")
        let d = c.diagnostics.all[0]
        #expect(c.file.text(of: d.span) == "+")
        #expect(d.secondary.map { c.file.text(of: $0.span) } == ["1s", "red"])
        #expect(d.secondary.map(\.text) == ["a time", "a color"])
    }

    // MARK: - Literals in time and angle slots

    @Test func decimalLiteralsInTimeSlotsAreExact() {
        let c = check("wait 0.1\nwait 0.3s\nwait 300ms\nwait -0")
        let ticks: [Int64] = c.statements.compactMap {
            guard case .wait(.duration(let e), _) = $0, case .constant(.time(let t))? = Optional(e.node) else { return nil }
            return t.ticks
        }
        #expect(ticks == [100_000_000, 300_000_000, 300_000_000, 0])
    }

    @Test func bareNumbersInSlotsTakeTheSlotsUnit() {
        #expect(folded("1s + 0.5") == .time(Time(ticks: 1_500_000_000)))
        #expect(folded("90deg + 90") == .angle(Angle(degrees: 180)))
        let c = check("rect a rotation 45 scale 2")
        guard case .shapes(let s)? = c.statements.first else { Issue.record("no shapes"); return }
        let values = s.properties.map { $0.1.constantValue }
        #expect(values == [.angle(Angle(degrees: 45)), .point(Point(2, 2))])
    }

    @Test func constantsFold() {
        #expect(folded("2 + 3 * 4") == .number(14))
        #expect(folded("(1, 2) * 2") == .point(Point(2, 4)))
        #expect(folded("0.1s + 0.2s") == .time(Time(ticks: 300_000_000)))
        #expect(folded("rgb(255, 0, 0)") == .color(Color(r: 255, g: 0, b: 0)))
        #expect(folded("(3, 4).y") == .number(4))
        // Folding never turns a run-time error into a crash: 1 / 0 stays for the runtime to report.
        #expect(folded("1 / 0") == nil)
        #expect(!check("let x = 1 / 0").diagnostics.hasErrors)
        // Randomness is never folded.
        #expect(folded("random()") == nil)
    }

    // MARK: - Names and properties

    @Test("did-you-mean over names, properties, functions and easings", arguments: [
        ("rect square\nprint squar", "unknown name 'squar'; did you mean 'square'?"),
        ("print rde", "unknown name 'rde'; did you mean 'red'?"),
        ("rect square\nprint square.centre", "unknown property 'centre' of rect 'square'; did you mean 'center'?"),
        ("rect a glow 1\nprint a.glwo", "unknown property 'glwo' of rect 'a'; did you mean 'glow'?"),
        ("text t\nprint t.fnot", "unknown property 'fnot' of text 't'; did you mean 'font'?"),
        ("print lerpp(1, 2, 0.5)", "unknown function 'lerpp'; did you mean 'lerp'?"),
        ("rect a\nanimate 1 ease ease-ot < a.z = 1 >", "unknown easing 'ease-ot'; did you mean 'ease-out'?"),
        ("rect a\nanimate 1 ease liner < a.z = 1 >", "unknown easing 'liner'; did you mean 'linear'?"),
        ("stage 1 x 1 colr red", "unknown stage property 'colr'; did you mean 'color'?"),
        ("print 1 as step\nwait stpe", "unknown name 'stpe'; did you mean 'step'?"),
    ])
    func didYouMean(program: String, message: String) {
        #expect(checkMessages(program) == [message])
    }

    @Test func noSuggestionWhenNothingIsClose() {
        #expect(checkMessages("rect a\nprint a.wobble") == ["unknown property 'wobble' of rect 'a'"])
        #expect(checkMessages("print zzz") == ["unknown name 'zzz'"])
    }

    @Test func textPropertiesBelongToTextShapes() {
        #expect(checkMessages("rect a\nprint a.text") == ["unknown property 'text' of rect 'a'"])
        #expect(checkMessages("text t\nprint t.text\nprint t.font").isEmpty)
    }

    @Test func environmentOfAnArray() {
        let c = check("rect card[3] center (i * 10, 0)\ncircle dot")
        #expect(c.environment.shapes.map(\.name) == ["card[0]", "card[1]", "card[2]", "dot"])
        #expect(c.environment.symbol(named: "card") == .array(first: ShapeID(0), count: 3))
        #expect(c.environment.symbol(named: "dot") == .shape(ShapeID(3)))
        #expect(c.environment.symbol(named: "i") == nil)  // the index is local to the declaration
    }

    @Test func customPropertiesShareOneIDPerName() {
        let c = check("rect a glow 0\nrect b glow 1 tint red\ncircle c")
        let glow = c.environment.propertyID(named: "glow")!
        #expect(glow.raw == Int32(BuiltinProperty.allCases.count))
        #expect(c.environment.kind(of: glow, on: ShapeID(0)) == .number)
        #expect(c.environment.kind(of: glow, on: ShapeID(1)) == .number)
        #expect(c.environment.kind(of: glow, on: ShapeID(2)) == nil)
        #expect(c.environment.kind(of: c.environment.propertyID(named: "tint")!, on: ShapeID(1)) == .color)
        #expect(c.environment.propertyNames(of: ShapeID(1)).suffix(2) == ["glow", "tint"])
    }

    @Test func customPropertyWarningsDoNotStopTheProgram() {
        let c = check("rect a centre (1, 1) font 12\nprint a.centre")
        #expect(c.diagnostics.all.map(\.severity) == [.warning, .warning])
        #expect(!c.diagnostics.hasErrors)
        #expect(c.statements.count == 2)
    }

    // MARK: - Steps

    @Test func aTargetWrittenAgainPointsAtItsLastWrite() {
        // Three writes of one target: two errors, each pointing at the write before it (the
        // list `checkAnimate` keeps, searched from its end).
        let text = "rect a\nanimate 1 < a.z = 1; a.z = 2; a.z = 3 >\n"
        let errors = check(text).diagnostics.all.filter { $0.severity == .error }
        let bytes = Array(text.utf8)
        let writes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "a") && bytes[$0 + 1] == UInt8(ascii: ".") }
        #expect(errors.map(\.message) == ["'a.z' is written twice in one block", "'a.z' is written twice in one block"])
        #expect(errors.map { Int($0.span.start) } == [writes[1], writes[2]])
        #expect(errors.map { $0.secondary.first.map { Int($0.span.start) } } == [writes[0], writes[1]])
    }

    @Test func tweenOptionsAreChecked() {
        let c = check("rect a\nanimate 1 delay 0.5 ease ease-out repeat 3 yoyo speed 2 from 0 < a.z = 1 >")
        guard case .start(let chain, _, _, _)? = c.statements.last, case .tween(let t) = chain.steps[0] else {
            Issue.record("no tween"); return
        }
        // Every part is a constant: the timing is decided here, once.
        guard case .constant(let timing, let delay) = t.timing else { Issue.record("timing not decided"); return }
        #expect(delay == Time(ticks: 500_000_000))
        #expect(t.easing == .easeOut)
        #expect(timing == TweenTiming(iterationDuration: Time(ticks: 1_000_000_000), iterations: 3, alternate: true, rate: 2))
        #expect(t.from?.first?.constantValue == .number(0))
    }

    @Test func everyBadStatementIsReported() {
        #expect(checkMessages("rect box\nprint ghost\nprint box.wobble\nprint 1s + red\nlet x = foo()\nprint 1") == [
            "unknown name 'ghost'",
            "unknown property 'wobble' of rect 'box'",
            "cannot add a time and a color",
            "unknown function 'foo'",
        ])
    }

    @Test func anUnknownShapeStillDeclaresItsName() {
        // A declaration with a bad value still takes its name, so later uses do not cascade.
        #expect(checkMessages("rect a color rde\nprint a.center") == ["unknown name 'rde'; did you mean 'red'?"])
    }

    @Test func writesAndComparisons() {
        #expect(checkMessages("text t\nanimate 1 < t.text = \"b\" >") == ["cannot animate 't.text': a string does not interpolate"])
        #expect(checkMessages("text t\nset t.text = \"b\"").isEmpty)
        #expect(checkMessages("rect a\nanimate 1 < a.color += red >") == ["cannot use '+=' on a paint"])
        #expect(checkMessages("rect a\nexpect a.center <= (1, 1)") == ["cannot compare point values with '<='"])
        #expect(checkMessages("rect a\nexpect a.center == 0\nexpect a.rotation == 90\nexpect 1s == 1").isEmpty)
        #expect(checkMessages("rect a\nexpect a.color == 1s") == ["cannot compare a paint with a time"])
    }

    // MARK: - Shared work

    @Test func playsOfAlikeShapesShareOneInstantiation() {
        // `hop(a)` and `hop(b)` differ only in which rect: one checked body serves both (it
        // reads the shape only through its kind and properties); a text is another kind.
        let c = check("rect a\nrect b\ntext t\ndefine hop(s, h) = animate 1 < s.rotation = h >\nplay hop(a, 1)\nplay hop(b, 2)")
        #expect(c.diagnostics.all.isEmpty)
        #expect(c.environment.instantiations.count == 1)
        let d = check("rect a\nrect b\ntext t\ndefine hop(s, h) = animate 1 < s.rotation = h >\nplay hop(a, 1)\nplay hop(t, 2)\nplay hop(b, 3)")
        #expect(d.environment.instantiations.count == 2)
        // A shape with other custom properties is not alike either.
        let e = check("rect a\nrect b glow 1\ndefine hop(s) = animate 1 < s.rotation = 1 >\nplay hop(a)\nplay hop(b)")
        #expect(e.environment.instantiations.count == 2)
    }

    @Test func aBodyThatFailsForOneShapeIsCheckedForEach() {
        // A text has a text, a rect does not: the rect's play is checked, and reported; a body
        // with an error is shared with no other play, so each rect's play reports it.
        #expect(checkMessages("text t\nrect r\ndefine say(s) = set s.text = \"b\"\nplay say(t)\nplay say(r)").count == 1)
        #expect(checkMessages("rect r\nrect q\ndefine say(s) = set s.text = \"b\"\nplay say(r)\nplay say(q)").count == 2)
    }

    @Test func easingsWithArgumentsAreKnownByTheirBytes() {
        let c = check("rect a\nanimate 1 ease steps(4) < a.z = 1 >\nanimate 1 ease steps(2) < a.z = 2 >\nanimate 1 ease steps(2) < a.z = 3 >\nanimate 1 ease steps(4) < a.z = 4 >")
        let easings: [Easing?] = c.statements.compactMap { s in
            guard case .start(let chain, _, _, _) = s, case .tween(let t) = chain.steps[0] else { return nil }
            return t.easing
        }
        #expect(easings == [.steps(4, .jumpEnd), .steps(2, .jumpEnd), .steps(2, .jumpEnd), .steps(4, .jumpEnd)])
    }
}
