// ParseMessage: every message the parser can give, in one catalogue (as _RegexParser does), with
// the help that goes with it. Messages state the problem; the help says how to fix it. The
// parse functions name a case; only this file holds the words.

/// The parser's messages.
enum ParseMessage {
    // MARK: Expected tokens

    /// `consume`/`consumeName` found something else: "expected …".
    case expected(Wanted)
    /// A specific token missing after something (`expected ')' after the index`).
    case expectedToken(Closer)
    /// A statement that goes on after its end.
    case expectedStatementEnd(found: String)
    /// A chain in a block followed by something other than a separator.
    case expectedAfterStep(found: String)
    /// An assignment in a tween block followed by something other than a separator.
    case expectedAfterAssignment(found: String)
    /// A declaration key with no value, or a spring parameter with none.
    case expectedValue(String)
    /// `then` where the named chain has ended.
    case asAfterAs(String)
    case foreignLabel(String)

    // MARK: Expressions

    case expectedOperand(String)
    case expectedPropertyAfterDot
    case malformedNumber(String)
    case pointHasTwoComponents
    case expectedExpression
    case expectedExpressionFoundKeyword(String)
    case expectedExpressionFound(String)

    // MARK: Strings

    case unknownEscape(Character)
    case unclosedInterpolation
    case emptyInterpolation
    case expectedInterpolationEnd
    case unmatchedBrace

    // MARK: Statements and steps

    case keywordAsName(String)
    case cannotStartStep(String)
    case unknownStatement(String, suggestion: String?)
    case expectedStep
    case expectedStatementFound(String)
    case bareAssignment(String)
    case expectedBlock(after: String?)
    case unclosedBlock
    case keywordInTweenBlock(String, context: String)
    case expectedTweenBlock(String)
    case emptyTweenBlock(String)
    case doubleEqualInAssignment
    case expectedAssignmentOperator(target: String, found: String)
    case emptyKeyframes
    case expectedDuration
    case unknownOption(String, suggestion: String?)
    case unknownRepeatOption(String, suggestion: String?)
    case easingParameterWithUnit
    case expectedEasingParameter(found: String)
    case expectedSpringParameter(found: String)
    case singleEqualInExpect
    case angleBracketInExpect
    case boolOperandInExpect(String)
    case expectedComparison(found: String)
    case expectedRepeatCount
    case expectedRepeatCondition
    case expectedIfCondition
    case elseAfterElse
    case expectedStaggerOrder
    case expectedStaggerGrid
    case staggerOrderString(String)
    case expectedStaggerAxis
    case staggerOptionColon(String)
    case staggerEach
    case repeatedStaggerOption(String)
    case unknownStaggerOption(String, suggestion: String)
    case expectedFor
    case expectedIn(String)
    case expectedControlTarget(ControlStep.Verb)
    case expectedSpeedRate(String)
    case nestingTooDeep(Int)
    /// A `--trace` value followed by more.
    case expectedTraceProperty

    /// What `consume`, `consumeName` and `parseHyphenatedWord` wanted.
    enum Wanted {
        case shapeName(ShapeKind), groupName, letName, defineName, parameterName, nameAfterAs, loopVariable
        case sequenceName, stepName(RelativeStep.Anchor), propertyName, easingName, springParameter, word, number
        case open(String), equalsAfter(String), equalsAfterGroupName, equalsBeforeBody(String), change

        var text: String {
            switch self {
            case .shapeName(let k): "a shape name after '\(k.rawValue)'"
            case .groupName: "a group name after 'group'"
            case .letName: "a name after 'let'"
            case .defineName: "a name after 'define'"
            case .parameterName: "a parameter name"
            case .nameAfterAs: "a name after 'as'"
            case .loopVariable: "a loop variable after 'for'"
            case .sequenceName: "the name of a defined sequence after 'play'"
            case .stepName(let a): "the name of a step after '\(a.rawValue)'"
            case .propertyName: "a property name"
            case .easingName: "an easing name after 'ease'"
            case .springParameter: "a spring parameter"
            case .word: "a word"
            case .number: "a number"
            case .open(let name): "'(' after '\(name)'"
            case .equalsAfter(let name): "'=' after '\(name)'"
            case .equalsAfterGroupName: "'=' after the group name"
            case .equalsBeforeBody(let name): "'=' before the body of '\(name)'"
            case .change: "'change' after 'on'"
            }
        }
    }

    /// The closing tokens the parser asks for by name.
    enum Closer {
        case arraySize, parameters, index, callArguments(String), pointEnd, paren, list, keyframes, easingParameters, playArguments

        var text: String {
            switch self {
            case .arraySize: "']' after the array size"
            case .parameters: "')' after the parameters"
            case .index: "']' after the index"
            case .callArguments(let f): "')' after the arguments of '\(f)'"
            case .pointEnd: "')' after the point's second component"
            case .paren: "')' to close '('"
            case .list: "']' to close the list"
            case .keyframes: "']' to close the keyframes"
            case .easingParameters: "')' after the easing's parameters"
            case .playArguments: "')' after the arguments"
            }
        }
    }

    /// The words that may begin a statement, for did-you-mean.
    static let statementWords = ["stage", "rect", "circle", "text", "group", "let", "seed", "define",
                                 "animate", "spring", "wait", "print", "set", "expect", "repeat", "stagger",
                                 "play", "after", "with", "at", "on", "pause", "resume", "seek", "reverse",
                                 "interrupt", "save", "restore", "speed", "line", "ellipse", "polygon", "polyline", "path"]

    /// GSAP's and other tools' words for a timeline label, which is a step name in anim.
    static let labelWords: Set<String> = ["addLabel", "label", "add_label", "add-label"]

    /// The option words of `stagger` (Grammar.md §6.10), for did-you-mean.
    static let staggerOptionWords = ["from", "ease", "grid", "axis", "amount"]

    /// Other tools' names for anim's flow statements (GSAP, Web Animations, Motion Canvas,
    /// Ren'Py), for did-you-mean: the anim word meant.
    static let foreignStatementWords: [String: String] = [
        "killTweensOf": "interrupt", "kill": "interrupt", "killAll": "interrupt", "cancel": "interrupt",
        "race": "any", "choice": "choose", "menu": "choose", "oneOf": "choose",
        "loopUntil": "repeat while", "while": "repeat while", "loop": "repeat",
        "timeScale": "speed", "playbackRate": "speed", "updatePlaybackRate": "speed", "setSpeed": "speed",
    ]

    /// The statement word meant by a word that starts no statement: another tool's name for it,
    /// else the closest statement word.
    static func statementSuggestion(_ word: String) -> String? {
        foreignStatementWords[word] ?? DidYouMean.suggest(word, from: statementWords)
    }

    /// SwiftUI's spring presets, which `spring` takes as its first word (Grammar.md §6.6).
    static let springPresets = ["smooth", "snappy", "bouncy"]
    /// The spring parameters a step may give (`Checker.springParameters`).
    static let springParameters = ["stiffness", "damping", "mass", "duration", "bounce", "response", "damping-ratio",
                                   "velocity", "epsilon", "extra-bounce"]
    /// The options a tween takes, for did-you-mean.
    static let optionWords = ["delay", "ease", "repeat", "yoyo", "speed", "from", "direction", "iteration-start", "end-delay", "fill",
                              "repeat-delay"]

    /// The tween option meant by a word: CSS's and Web Animations' names (`fill-mode`,
    /// `animation-direction`, `iterationStart`, `endDelay`, `iteration_start`), else the closest
    /// option.
    static func optionSuggestion(_ word: String) -> String? {
        // camelCase and snake_case as kebab-case; CSS's `animation-` prefix dropped.
        var kebab = ""
        for c in word {
            if c.isUppercase { kebab += "-" + c.lowercased() } else if c == "_" { kebab += "-" } else { kebab.append(c) }
        }
        if kebab.hasPrefix("animation-") { kebab.removeFirst("animation-".count) }
        switch kebab {
        case "fill-mode": return "fill"
        case "iteration-count", "iterations": return "repeat"
        case "duration": return nil
        default:
            if optionWords.contains(kebab) { return kebab }
            return DidYouMean.suggest(word, from: optionWords)
        }
    }

    /// What a step may start with.
    static let stepStartHelp = "a step starts with animate, spring, wait, print, set, expect, repeat, stagger, play, after, with or '<'"

    /// The first line of the diagnostic.
    var message: String {
        switch self {
        case .expected(let w): "expected \(w.text)"
        case .expectedToken(let c): "expected \(c.text)"
        case .expectedStatementEnd(let found): "expected end of statement, found \(found)"
        case .expectedAfterStep(let found): "expected ';', a new line or '>' after the step, found \(found)"
        case .expectedAfterAssignment(let found): "expected ';', a new line or '>' after the assignment, found \(found)"
        case .expectedValue(let key): "expected a value for '\(key)'"
        case .asAfterAs(let name): "'as' cannot follow 'as \(name)'"
        case .foreignLabel(let word): "unknown word '\(word)': anim names a step with 'as NAME'"
        case .expectedOperand(let op): "expected an expression after '\(op)'"
        case .expectedPropertyAfterDot: "expected a property name after '.'"
        case .malformedNumber(let text): "malformed number '\(text)'"
        case .pointHasTwoComponents: "a point has two components"
        case .expectedExpression: "expected an expression"
        case .expectedExpressionFoundKeyword(let k): "expected an expression, found keyword '\(k)'"
        case .expectedExpressionFound(let found): "expected an expression, found \(found)"
        case .unknownEscape(let c): "unknown escape '\\\(c)' in string"
        case .unclosedInterpolation: "unclosed '{' in string"
        case .emptyInterpolation: "empty '{}' in string"
        case .expectedInterpolationEnd: "expected '}' after the interpolated expression"
        case .unmatchedBrace: "unmatched '}' in string"
        case .keywordAsName(let k): "'\(k)' is a keyword and cannot be used as a name"
        case .cannotStartStep(let k): "'\(k)' cannot start a step"
        case .unknownStatement(let w, let s): "unknown statement '\(w)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .expectedStep: "expected a step"
        case .expectedStatementFound(let found): "expected a statement, found \(found)"
        case .bareAssignment: "an assignment needs 'set' or an 'animate' block"
        case .expectedBlock(let context): "expected '<' to open a block" + (context.map { " after \($0)" } ?? "")
        case .unclosedBlock: "unclosed '<'"
        case .keywordInTweenBlock(let which, let context):
            "\(which) cannot be inside the block of \(context), which holds only property assignments"
        case .expectedTweenBlock(let context): "expected '<' to open the block of \(context)"
        case .emptyTweenBlock(let context): "\(context) needs at least one property to change"
        case .doubleEqualInAssignment: "expected '=' in an assignment, found '=='"
        case .expectedAssignmentOperator(let target, let found): "expected '=', '+=' or '-=' after '\(target)', found \(found)"
        case .emptyKeyframes: "a keyframe list needs at least one value"
        case .expectedDuration: "expected a duration after 'animate'"
        case .unknownOption(let w, let s): "unknown option '\(w)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .unknownRepeatOption(let w, let s): "unknown repeat option '\(w)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .easingParameterWithUnit: "easing parameters are plain numbers"
        case .expectedEasingParameter(let found): "expected a number or a word in the easing's parameters, found \(found)"
        case .expectedSpringParameter(let found): "expected a spring parameter or '<', found \(found)"
        case .singleEqualInExpect: "expected a comparison, found '='"
        case .angleBracketInExpect: "'<' and '>' are block delimiters, not comparisons"
        case .boolOperandInExpect(let op): "'\(op)' inside an 'expect' operand needs parentheses"
        case .expectedComparison(let found): "expected '==', '!=', '<=' or '>=' after the value, found \(found)"
        case .expectedRepeatCount: "expected a count or 'forever' after 'repeat'"
        case .expectedRepeatCondition: "expected a condition after 'repeat while'"
        case .expectedIfCondition: "expected a condition after 'if'"
        case .elseAfterElse: "an 'else' after the last 'else'"
        case .expectedStaggerOrder: "expected start, end, center, edges, random or an index after 'from'"
        case .expectedStaggerGrid: "expected '(ROWS, COLUMNS)' after 'grid'"
        case .staggerOrderString(let s): "a stagger's order is a word, not the string \(s)"
        case .expectedStaggerAxis: "expected x or y after 'axis'"
        case .staggerOptionColon(let word): "':' after '\(word)': a stagger's options are words, not an object's keys"
        case .staggerEach: "'each' is GSAP's: in anim the interval itself is each member's offset"
        case .repeatedStaggerOption(let word): "'\(word)' is given twice in one stagger"
        case .unknownStaggerOption(let word, let s): "unknown stagger option '\(word)'; did you mean '\(s)'?"
        case .expectedFor: "expected 'for' in 'stagger D for NAME in SHAPES < ... >'"
        case .expectedIn(let variable): "expected 'in' after '\(variable)'"
        case .expectedControlTarget(let verb): "expected a name after '\(verb.rawValue)'"
        case .expectedSpeedRate(let target): "expected a rate after 'speed \(target)'"
        case .nestingTooDeep(let limit): "nesting is too deep (the limit is \(limit) levels)"
        case .expectedTraceProperty: "expected a property such as 'square.center'"
        }
    }

    /// The text after the carets, for the few messages that have one.
    var label: String? {
        switch self {
        case .unclosedBlock: "expected '>'"
        default: nil
        }
    }

    /// How to fix it.
    var help: String? {
        switch self {
        case .keywordAsName(let k): "choose another name, such as '\(k)1'"
        case .cannotStartStep, .unknownStatement(_, nil): ParseMessage.stepStartHelp
        case .asAfterAs: "keep one of the two names"
        case .staggerOptionColon(let word): "write '\(word) V' without the ':', as in 'stagger amount 1 from center for c in cards < ... >'"
        case .staggerEach: "write 'stagger 0.1 for c in cards < ... >'; 'stagger amount A' spreads the whole stagger over A"
        case .expectedStaggerGrid: "write 'stagger 0.1 grid (3, 4) from center for c in cards < ... >'"
        case .staggerOrderString(let s): "write it without quotes, as in 'from \(s.dropFirst().dropLast())'"
        case .foreignLabel: "write 'as NAME' after the step to label it, as in 'animate 1 < ... > as intro then ...'; 'seek intro' jumps there"
        case .pointHasTwoComponents: "write (x, y)"
        case .unknownEscape: "escapes are \\n, \\t, \\\", \\\\, \\{ and \\}"
        case .unclosedInterpolation, .emptyInterpolation: "write '\\{' for a literal brace"
        case .unmatchedBrace: "write '\\}' for a literal brace"
        case .bareAssignment(let word): "write 'set \(word)... = v' to change it now, or 'animate 1 < \(word)... = v >' to tween it"
        case .emptyTweenBlock: "write a property assignment inside, as in '< square.alpha = 0 >'"
        case .doubleEqualInAssignment: "'==' compares; use it in 'expect'"
        case .expectedDuration: "write the duration first, as in 'animate 0.5 < ... >'"
        case .unknownRepeatOption: "a repeat block takes 'yoyo' and 'repeat-delay D' before its '<'"
        case .unknownOption: "options are delay, ease, repeat, repeat-delay, yoyo, speed, from, direction, iteration-start, end-delay and fill"
        case .singleEqualInExpect: "use '==' to compare"
        case .angleBracketInExpect: "use '<=' or '>='"
        case .expectedIfCondition: "write a bool after 'if', as in 'if sq.alpha >= 1 < ... >'"
        case .elseAfterElse: "the 'else' without a condition comes last; write 'else if COND < ... >' for another branch"
        case .boolOperandInExpect: "expect compares two operands once; group a bool operand, as in 'expect (a == 1) == true'"
        default: nil
        }
    }

    /// The label under the first `as NAME` when a second one follows.
    static let stepHasOneName = "a step has one name"

    /// The label under `<` of a block that is not closed.
    static let openedHere = "opened here"

    /// The help for a step written right after another on one line.
    static func twoSteps(before word: String) -> String {
        "write 'then' before \(word) to run it after the step before, or ';' to start both now"
    }

    /// The help for a statement keyword where a statement should have ended.
    static let separateStatements = "separate two statements with ';' or a new line"

    /// The label or secondary label on a color that reads as a comment.
    static func colorNotComment(digits: Int) -> String { "'#' and \(digits) hex digits make a color, not a comment" }

    /// The help for a color that reads as a comment: the line as it would read with the space.
    static func commentNeedsSpace(_ rest: String) -> String { "put a space after '#' to start a comment: '# \(rest)'" }
}
