// CheckError: every message the checker can give, in one catalogue (as _RegexParser does), with
// the label and help that go with it. Messages state the problem; a did-you-mean or help line
// says how to fix it. The check functions name a case; only this file holds the words.

/// The checker's messages.
enum CheckError {
    /// CSS's gradient functions anim does not draw (a located error saying so, not a did-you-mean).
    static let unsupportedGradients: Set<String> = ["conic-gradient", "repeating-linear-gradient", "repeating-radial-gradient",
                                                    "repeating-conic-gradient"]

    // MARK: Names

    case unknownName(String, suggestion: String?)
    case stepNameAsValue(String)
    case defineAsValue(String)
    case alreadyDeclared(String, what: String)
    case unknownSequence(String, suggestion: String?, noneDefined: Bool)
    case unknownStepName(String, suggestion: String?, noneNamed: Bool)
    case notAStepName(String, what: String)
    case duplicateStepName(String)
    case parameterGivenTwice(String)
    case tooManyInstantiations(Int)
    case argumentCount(String, parameters: Int, arguments: Int)

    // MARK: Shapes and properties

    case unknownProperty(String, shapeKind: ShapeKind, shape: String, suggestion: String?)
    case unknownPropertyOfMany(String, shapes: String, suggestion: String?)
    case unknownStageProperty(String, suggestion: String?, hint: BuiltinProperty?)
    case hyphenatedKey(String, suggestion: String?)
    case propertyGivenTwice(String)
    case propertyHoldsList
    case propertyHoldsShape
    case builtinOfOtherKind(String, shapeKind: ShapeKind)
    case foreignCustomProperty(String, meant: String?, drawn: Bool)
    case customPropertyNearBuiltin(String, String)
    case arraySize(ArraySizeProblem)
    case tooManyShapes(Int, limit: Int)
    case notAShape(String, kind: Kind)
    case notAProperty(String)
    case mixedShapeKinds(String)
    case groupMemberNotByName
    case groupMemberKind(Kind)
    case glyphsOfNonText(String, shapeKind: ShapeKind)
    case glyphsOfComputedText(String)
    case glyphsNotMade(String)

    // MARK: Expressions

    case unknownFunction(String, suggestion: String?)
    case unknownMember(String, kind: Kind)
    case kindMismatch(expected: String, got: Kind)
    case operandKinds(ArithmeticOperator, Kind, Kind)
    case negateKind(Kind)
    case boolOperand(String, Kind)
    case ifConditionKind(Kind)
    case arity(Builtin, expected: String, got: Int)
    case argumentKind(Builtin, index: Int, expected: String, got: Kind)
    case velocityOfNonProperty
    case velocityKind(Kind)
    case indexOutOfRange(Int, name: String, count: Int)
    case indexNotWhole(Double)
    case indexMixedList
    case notIndexable(Kind)
    case numberTooLarge(String)
    case timeTooLong(String)
    case percentOutsideLinear(String)
    // MARK: Gradients
    case unsupportedGradient(String)
    case gradientStopCount(Int)
    case tooManyGradientStops(Int, limit: Int)
    case gradientStopKind(Kind)
    case gradientPositionKind(Kind)
    case gradientAngleKind(Kind)
    case radialGradientAngle
    case stopOutsideGradient
    case gradientNeedsTween(String)
    /// Two constant gradients a tween would animate between, of different functions or stop
    /// counts (Morph.gradientMismatch's reason).
    case gradientMismatch(String)

    // MARK: Steps

    case cannotAnimate(String, Kind)
    case relativeKind(Assignment.Op, Kind)
    case writtenTwice(String)
    /// `base.x op value`: the point, the component, the operator and the value as written.
    case pointComponentWrite(base: String, component: String, op: String, value: String)
    case keyframesNeedTween
    case optionGivenTwice(String)
    case timing(TimingError)
    case passCount(Double)
    case fromKind(Kind, property: String, propertyKind: Kind)
    case comparisonKind(ExpectStep.Op, Kind)
    case incomparableKinds(Kind, Kind)
    case waitNeedsDuration
    case waitNameInChain(String)
    case easing(EasingError)
    case unknownStaggerOrder(String, suggestion: String?)
    case staggerOverNonShapes(Kind)
    case unknownStaggerAxis(String, suggestion: String?)
    case staggerAxisWithoutGrid
    case staggerIndexSameName(String)
    case controlNeedsStepName(ControlStep.Verb)
    case unknownInterruptTarget(String, suggestion: String?)
    case speedRate(Double)
    case yoyoWithLoop(String)
    case repeatConditionKind(Kind)
    case repeatWhileNeverChanges
    case interruptTarget(String, what: String)
    case observesNonProperty

    // MARK: Springs and keyframes

    case unknownSpringParameter(String, suggestion: String?)
    case springParameterGivenTwice(String)
    case springFormsMixed(String, String)
    case unknownSpringPreset(String, suggestion: String?)
    case unknownWord(String, what: String, suggestion: String?)
    case yoyoAndDirection
    case springPresetParameter(String, String)
    case extraBounceNeedsPreset
    case springNeeds(String, String)
    case springParameterNeeds(String, String)
    case springKeyframes
    case springMovesTime
    case springVelocityKind(Kind)
    case keyframesOperator(Assignment.Op)
    case pathKind(Kind)
    case pathOffset
    case pathEasing
    case keyframeOffsetNotConstant
    case keyframeOffsetRange(Double)
    case keyframeOffsetsDecrease(Double, after: Double)

    // MARK: Outlines (issue 15)

    case malformedPath(String)
    case pathNotConstant
    case negativeStrokeWidth(Double)
    case negativeDash(Point)
    case morphNeedsTween(String)

    // MARK: Images (issue 15)

    case imageFileNotConstant
    case imageFileWritten
    case imageWithoutFile(String)

    /// What is wrong with a shape array's size.
    enum ArraySizeProblem {
        case notWhole(Double), overLimit(Double, limit: Int), notConstant
    }

    /// The first line of the diagnostic.
    var message: String {
        switch self {
        case .unknownName(let n, let s): "unknown name '\(n)'" + did(s)
        case .stepNameAsValue(let n): "'\(n)' names a step, not a value"
        case .defineAsValue(let n): "'\(n)' is a defined sequence, not a value"
        case .alreadyDeclared(let n, let what): "'\(n)' is already declared as \(what)"
        case .unknownSequence(let n, let s, _): "unknown sequence '\(n)'" + did(s)
        case .unknownStepName(let n, let s, _): "unknown step name '\(n)'" + did(s)
        case .notAStepName(let n, let what): "'\(n)' is \(what), not a step name"
        case .duplicateStepName(let n): "the step name '\(n)' is already used"
        case .parameterGivenTwice(let n): "parameter '\(n)' is given twice"
        case .tooManyInstantiations(let limit): "too many different uses of defined sequences (the limit is \(limit))"
        case .argumentCount(let n, let p, let a): "'\(n)' takes \(p) argument\(p == 1 ? "" : "s"), not \(a)"
        case .unknownProperty(let p, let k, let shape, let s): "unknown property '\(p)' of \(k.rawValue) '\(shape)'" + did(s)
        case .unknownPropertyOfMany(let p, let shapes, let s): "unknown property '\(p)' of \(shapes)" + did(s)
        case .glyphsOfNonText(let n, let k): "'\(n)' is a\(k == .ellipse || k == .image ? "n" : "") \(k.rawValue); only text shapes have glyphs"
        case .glyphsOfComputedText(let n): "'\(n).glyphs' needs the text written out as a string in its declaration"
        case .glyphsNotMade(let n): "'\(n).glyphs' is not named by the script, so its glyphs were not made"
        case .unknownStageProperty(let p, let s, _): "unknown stage property '\(p)'" + did(s)
        case .hyphenatedKey(let k, let s): "'\(k)' is not a property name" + did(s)
        case .propertyGivenTwice(let p): "property '\(p)' is given twice"
        case .propertyHoldsList: "a property cannot hold a list"
        case .propertyHoldsShape: "a property cannot hold a shape"
        case .builtinOfOtherKind(let p, let k): "'\(p)' is not a property of \(k.rawValue) shapes; it declares a custom property"
        case .foreignCustomProperty(let p, let meant?, _): "'\(p)' declares a custom property; did you mean '\(meant)'?"
        case .foreignCustomProperty(let p, nil, let drawn): "'\(p)' declares a custom property\(drawn ? "" : ", which is not drawn")"
        case .customPropertyNearBuiltin(let p, let near): "'\(p)' declares a custom property; did you mean '\(near)'?"
        case .arraySize(.notWhole(let n)): "bad array size: '\(formatNumber(n))' is not a whole number of at least 1"
        case .arraySize(.overLimit(let n, let limit)): "bad array size: \(formatNumber(n)) is more than the limit of \(limit)"
        case .arraySize(.notConstant): "bad array size: the size must be a number written in the declaration"
        case .tooManyShapes(let n, let limit): "too many shapes: this declaration would make \(n), more than the limit of \(limit)"
        case .notAShape(let text, let k): "'\(text)' is \(k.withArticle), not a shape"
        case .notAProperty(let text): "'\(text)' is not a property of a shape"
        case .mixedShapeKinds(let p): "property '\(p)' has different kinds on these shapes"
        case .groupMemberNotByName: "a group lists shapes by their names"
        case .groupMemberKind(let k): "a group holds shapes, not \(k.withArticle)"
        case .unknownFunction(let n, let s): "unknown function '\(n)'" + did(s)
        case .unknownMember(let m, let k): "\(k.withArticle) has no member '\(m)'"
        case .kindMismatch(let e, let g): "expected \(e), found \(g.withArticle)"
        case .operandKinds(let op, let a, let b): "cannot \(verb(op)) \(a.withArticle) and \(b.withArticle)"
        case .negateKind(let k): "cannot negate \(k.withArticle)"
        case .boolOperand(let op, let k): "'\(op)' takes bools, not \(k.withArticle)"
        case .ifConditionKind(let k): "an 'if' condition must be a bool, not \(k.withArticle)"
        case .arity(let f, let e, let g): "'\(f.rawValue)' takes \(e) argument\(e == "1" ? "" : "s"), not \(g)"
        case .argumentKind(let f, let i, let e, let g): "argument \(i + 1) of '\(f.rawValue)' must be \(e), not \(g.withArticle)"
        case .velocityOfNonProperty: "'velocity' takes a property or one component of a point, such as 'velocity(square.center)' or 'velocity(square.center.x)'"
        case .velocityKind(let k): "'velocity' needs a number, point or angle property, not \(k.withArticle)"
        case .indexOutOfRange(let i, let n, let c): "index \(i) is out of range for '\(n)' (it has \(c) member\(c == 1 ? "" : "s"))"
        case .indexNotWhole(let k): "index \(formatNumber(k)) is not a whole number"
        case .indexMixedList: "cannot index a list whose elements have different kinds"
        case .notIndexable(let k): "cannot index \(k.withArticle)"
        case .numberTooLarge(let text): "number '\(text)' is too large"
        case .timeTooLong(let text): "time '\(text)' is too long for the clock (the limit is about 292 years)"
        case .percentOutsideLinear(let text): "a percentage such as '\(text)' is only a stop position of the easing 'linear(...)'"
        case .unsupportedGradient(let n): "'\(n)' is not supported"
        case .gradientStopCount(let n): "a gradient needs at least two colour stops, found \(n)"
        case .tooManyGradientStops(let n, let limit): "a gradient of \(n) stops: the limit is \(limit)"
        case .gradientStopKind(let k): "a gradient stop is a colour, not \(k.withArticle)"
        case .gradientPositionKind(let k): "a stop position is a fraction (0.3) or a percentage (30%), not \(k.withArticle)"
        case .gradientAngleKind(let k): "a linear gradient's direction is an angle, not \(k.withArticle)"
        case .radialGradientAngle: "'radial-gradient' takes no angle"
        case .stopOutsideGradient: "'at' gives a gradient stop's position, and belongs inside 'linear-gradient(...)' or 'radial-gradient(...)'"
        case .gradientNeedsTween(let what): "a gradient fill animates in a tween to one target, not by \(what)"
        case .gradientMismatch(let why): why
        case .cannotAnimate(let p, let k): "cannot animate '\(p)': \(k.withArticle) does not interpolate"
        case .relativeKind(let op, let k): "cannot use '\(op.rawValue)' on \(k.withArticle)"
        case .writtenTwice(let p): "'\(p)' is written twice in one block"
        case .pointComponentWrite: "cannot write one component of a point"
        case .keyframesNeedTween: "keyframes need a tween: 'set' changes a property at once"
        case .optionGivenTwice(let key): "option '\(key)' is given twice"
        case .timing(let e): e.message
        case .passCount(let n): "a repeat count must be a whole number of at least 0, not \(formatNumber(n))"
        case .fromKind(let k, let p, let pk): "'from' gives \(k.withArticle), but '\(p)' is \(pk.withArticle)"
        case .comparisonKind(let op, let k): "cannot compare \(k) values with '\(op.rawValue)'"
        case .incomparableKinds(let a, let b): "cannot compare \(a.withArticle) with \(b.withArticle)"
        case .waitNeedsDuration: "'wait' inside a chain needs a duration"
        case .waitNameInChain(let n): "'wait \(n)' only works at the top level"
        case .easing(let e): e.message
        case .unknownStaggerOrder(let o, let s): "unknown stagger order '\(o)'" + did(s)
        case .staggerOverNonShapes(let k): "'stagger' goes over a list of shapes, not \(k.withArticle)"
        case .unknownStaggerAxis(let a, let s): "unknown stagger axis '\(a)'" + did(s)
        case .staggerAxisWithoutGrid: "'axis' measures distances in a grid, and this stagger has no 'grid'"
        case .staggerIndexSameName(let n): "'\(n)' names both the member and its index"
        case .controlNeedsStepName(let verb): "'\(verb.rawValue)' takes the name of a step"
        case .unknownInterruptTarget(let n, let s): "unknown name '\(n)'" + did(s)
        case .speedRate(let x): "a speed must be greater than 0, not \(formatNumber(x))"
        case .yoyoWithLoop(let w): "'yoyo' cannot go with 'repeat … \(w)': its later passes replay the first backward"
        case .repeatConditionKind(let k): "the condition of 'repeat while' must be a bool, not \(k.withArticle)"
        case .repeatWhileNeverChanges:
            "this 'repeat while' would loop for ever at one instant: its body takes no time and nothing can change the condition"
        case .interruptTarget(let n, let what): "'\(n)' is \(what): 'interrupt' stops a step, a shape or a shape's property"
        case .observesNonProperty: "'on change' watches a property, such as 'square.center'"
        case .unknownSpringParameter(let n, let s): "unknown spring parameter '\(n)'" + did(s)
        case .springParameterGivenTwice(let n): "spring parameter '\(n)' is given twice"
        case .springFormsMixed(let a, let b): "spring parameters '\(a)' and '\(b)' belong to different forms"
        case .unknownSpringPreset(let n, let s): "unknown spring preset '\(n)'" + did(s)
        case .unknownWord(let w, let what, let s): "unknown \(what) '\(w)'" + did(s)
        case .yoyoAndDirection: "'direction' and 'yoyo' both set the direction"
        case .springPresetParameter(let preset, let p): "a '\(preset)' spring takes 'duration' and 'extra-bounce', not '\(p)'"
        case .extraBounceNeedsPreset: "'extra-bounce' is added to a preset's bounce, and this spring has no preset"
        case .springNeeds(let given, let missing): "a spring with '\(given)' needs '\(missing)' too"
        case .springParameterNeeds(let p, let needed): "'\(p)' needs '\(needed)'"
        case .springKeyframes: "a spring moves to one target, not keyframes"
        case .springMovesTime: "a spring cannot move a time"
        case .springVelocityKind(let k):
            "a spring's velocity is a number (for every component) or a value of the property's kind, not \(k.withArticle)"
        case .keyframesOperator(let op): "keyframes take '=', not '\(op.rawValue)'"
        case .pathKind(let k): "a path moves a point property, not \(k.withArticle)"
        case .pathOffset: "a path's points take no offsets"
        case .pathEasing: "a path's points take no easing"
        case .keyframeOffsetNotConstant: "a keyframe offset is a number written in the script"
        case .keyframeOffsetRange(let x): "a keyframe offset must be between 0 and 1, not \(formatNumber(x))"
        case .keyframeOffsetsDecrease(let x, let last):
            "keyframe offsets must not decrease (\(formatNumber(x)) comes after \(formatNumber(last)))"
        case .malformedPath(let m): "malformed path data: \(m)"
        case .pathNotConstant: "path data must be written out as a string, not computed"
        case .imageFileNotConstant: "an image's file must be written out as a string, not computed"
        case .imageFileWritten: "an image's file is set in its declaration only"
        case .imageWithoutFile(let name): "image '\(name)' has no file"
        case .negativeStrokeWidth(let w): "stroke width \(formatNumber(w)) is negative"
        case .negativeDash(let d): "dash lengths \(d) must not be negative"
        case .morphNeedsTween(let what): "points and path data morph in a tween to one target, not by \(what)"
        }
    }

    /// The text after the carets, for the messages that have one.
    var label: String? {
        switch self {
        case .unknownProperty(_, let k, _, _): "not a property of \(k.rawValue)"
        case .hyphenatedKey: "names cannot contain '-'"
        default: nil
        }
    }

    /// How to fix it, for the messages whose help does not depend on more than their case.
    var help: String? {
        switch self {
        case .defineAsValue(let n): "play it with 'play \(n)(...)'"
        case .unknownSequence(let n, _, true): "define it first with 'define \(n)(...) = ...'"
        case .unknownStepName(let n, _, true), .notAStepName(let n, _): "name a step with 'as', as in 'animate 1 < ... > as \(n)'"
        case .controlNeedsStepName: "name a step with 'as', as in 'animate 1 < ... > as intro'"
        case .yoyoWithLoop: "drop 'yoyo' and alternate in the body, as in 'if mod(k, 2) == 1 < ... >'"
        case .repeatConditionKind(.number), .repeatConditionKind(.time), .repeatConditionKind(.angle):
            "compare it to make a bool, as in 'repeat while sq.alpha >= 0.5 < ... >'"
        case .repeatWhileNeverChanges:
            "give the body a duration, or make the condition read something the body changes (a property, the pass index)"
        case .speedRate: "'speed NAME 1' is the normal rate; 'pause NAME' stops a run's clock"
        case .unknownInterruptTarget, .interruptTarget:
            "write 'interrupt intro' (a step named with 'as'), 'interrupt sq' (a shape or a list of shapes) or 'interrupt sq.center'"
        case .unknownStageProperty(_, _, .color?): "the stage's background is its 'color'"
        case .unknownStageProperty(_, _, .size?): "the stage's size comes first, as in 'stage 400 x 700'"
        case .unknownStageProperty: "the stage has a size and a 'color'"
        case .unknownFunction: "functions are " + Builtin.allCases.map(\.rawValue).joined(separator: ", ")
        case .notAProperty: "write 'shape.property', as in 'square.center'"
        case .glyphsNotMade(let n): "a text's glyphs are made where a statement first names them; name '\(n).glyphs' in the script or an entry"
        case .glyphsOfNonText: "declare a text shape, as in 'text title text \"Hello\"', and animate 'title.glyphs'"
        case .glyphsOfComputedText: "a glyph is made for each character of the declared text, so write it as in 'text title text \"Hello\"'"
        case .percentOutsideLinear: "write a plain number without '%' (a fraction such as an alpha is 0.5, not 50%)"
        case .unsupportedGradient: "anim draws 'linear-gradient(angle, c1, c2, ...)' and 'radial-gradient(c1, c2, ...)'"
        case .gradientStopCount: "give two colours or more, as in 'linear-gradient(90deg, #ff7a18, #af002d)'"
        case .tooManyGradientStops: "Grammar.md §11 lists the limits"
        case .gradientStopKind: "write a colour, optionally with its position: '#ff7a18 at 0.3'"
        case .gradientPositionKind: "write 'red at 0.3' or 'red at 30%'"
        case .gradientAngleKind: "write the angle in deg, rad or turn (a bare number is degrees): 'linear-gradient(90deg, red, blue)'"
        case .radialGradientAngle: "a radial gradient is CSS's ellipse around the center: write its colour stops only"
        case .stopOutsideGradient: "write 'linear-gradient(90deg, red at 0.2, blue)'"
        case .gradientMismatch: "write both ends with the same gradient function and stop count (repeat a colour to add a stop)"
        case .gradientNeedsTween: "chain tweens with 'then' to go through several gradients, as in 'animate 1 < c.fill = g1 > then animate 1 < c.fill = g2 >'"
        case .groupMemberNotByName: "write the shape's own name here, not a binding or parameter that holds it"
        case .cannotAnimate(let p, _): "use 'set \(p) = ...' to change it at once"
        case .pointComponentWrite(let base, let c, let op, let value):
            // The whole point with the other component as it is (or unchanged by += / -=).
            op == "=" ? "write the whole point, keeping the other component: '\(base) = \(c == "x" ? "(\(value), \(base).y)" : "(\(base).x, \(value))")'"
                : "\(op) works on the whole point: '\(base) \(op) \(c == "x" ? "(\(value), 0)" : "(0, \(value))")'"
        case .comparisonKind(_, .point): "compare components, as in 'p.x <= 10'"
        case .boolOperand(_, .number), .boolOperand(_, .time), .boolOperand(_, .angle),
             .ifConditionKind(.number), .ifConditionKind(.time), .ifConditionKind(.angle):
            "compare it to make a bool, as in 'x != 0'"
        case .waitNameInChain(let n): "use 'after \(n) < ... >' to start steps when it ends"
        case .unknownStaggerOrder: "orders are start, end, center, edges and random, or an index such as 'from 2'"
        case .unknownStaggerAxis: "the axes are x (along a row) and y (along a column)"
        case .staggerAxisWithoutGrid: "add 'grid (ROWS, COLUMNS)' before 'axis', or drop 'axis'"
        case .staggerIndexSameName(let n): "give the index another name, as in 'for \(n), k in …'"
        case .staggerOverNonShapes: "use a shape array ('cards'), a group, or a list such as '[a, b, c]'"
        case .unknownWord(_, "direction", _): "directions are normal, reverse, alternate and alternate-reverse (Web Animations)"
        case .unknownWord(_, "fill", _): "fills are none, forwards, backwards and both (Web Animations)"
        case .unknownWord(_, "line-cap", _): "line caps are butt, round and square (SVG's stroke-linecap)"
        case .unknownWord(_, "line-join", _): "line joins are miter, round and bevel (SVG's stroke-linejoin)"
        case .unknownWord(_, "weight", _): "weights are normal, bold and 100, 200, … 900 (CSS's font-weight)"
        case .unknownWord(_, "align", _): "alignments are left, center and right: where the line sits on 'center' (SVG's text-anchor)"
        case .malformedPath: "path data is SVG's: M L H V C S Q T A Z and their lower-case relative forms, as in \"M 0 0 L 10 10\""
        case .pathNotConstant: "write the data in the script, as in 'd \"M 0 0 L 10 10\"', or copy another path's 'd'"
        case .imageFileNotConstant: "write the path in the script, as in 'file \"icon.png\"' (relative to the script's directory)"
        case .imageFileWritten: "declare one image per picture and fade between them, as in 'animate 0.3 < a.alpha = 0; b.alpha = 1 >'"
        case .imageWithoutFile: "give it a PNG file relative to the script's directory, as in 'file \"icon.png\"'"
        case .negativeStrokeWidth: "a stroke width is 0 (no stroke) or more"
        case .negativeDash: "write 'dash (on, off)' with lengths of 0 or more"
        case .morphNeedsTween: "chain tweens with 'then' to morph through several shapes, as in 'animate 1 < p.d = \"…\" > then animate 1 < p.d = \"…\" >'"
        case .yoyoAndDirection: "'yoyo' is 'direction alternate': keep one"
        case .unknownSpringPreset: "the presets are smooth, snappy and bouncy (SwiftUI's), as in 'spring bouncy < ... >'"
        case .springPresetParameter: "a preset is a duration and a bounce already; write 'spring duration D bounce B' to give both"
        case .extraBounceNeedsPreset: "write a preset first, as in 'spring bouncy extra-bounce 0.1', or give 'bounce'"
        case .unknownSpringParameter, .springFormsMixed:
            "write 'stiffness K damping C [mass M]', 'duration D bounce B' or 'response R damping-ratio Z'"
        default: nil
        }
    }

    private func did(_ s: String?) -> String { s.map { "; did you mean '\($0)'?" } ?? "" }

    private func verb(_ op: ArithmeticOperator) -> String {
        switch op {
        case .add: "add"
        case .subtract: "subtract"
        case .multiply: "multiply"
        case .divide: "divide"
        }
    }

    // MARK: Phrases the messages are made of

    /// What a function's argument must be, as `argumentKind` says it.
    enum Expected {
        static let number = "a number"
        static let angle = "an angle"
        static let hue = "an angle (a hue)"
        static let numeric = "a number, time or angle"
        static let randomRange = "a number, time, angle or point"
        static let interpolating = "a value that interpolates"
    }

    /// What a name is, as messages say it: `a rect`, `a shape array`, `a 'let' binding` …
    static func describe(_ s: Symbol, shapeKind: ShapeKind?) -> String {
        switch s {
        case .shape: "a \(shapeKind?.rawValue ?? "shape")"
        case .array: "a shape array"
        case .group: "a group"
        case .global: "a 'let' binding"
        case .stepName: "a step name"
        case .define: "a defined sequence"
        }
    }

    // MARK: Labels, notes and helps given with other messages

    /// Under an earlier declaration of a name declared again.
    static let declaredHere = "declared here"
    /// Under a declaration that comes after a use of its name.
    static let declaredAfterUse = "declared here, after its use"
    /// Under the first of two writes of a property in one block.
    static let firstWrittenHere = "first written here"

    /// For a name used before the line that declares it.
    static func declareBeforeUse(_ name: String) -> String { "declare '\(name)' before the line that uses it" }

    /// For a custom property written with hyphens that no other tool uses.
    static func oneWordHelp(_ camel: String, _ snake: String) -> String {
        "a custom property's name is one word, such as '\(camel)' or '\(snake)'"
    }

    /// For a member of a point that is not `x` or `y`.
    /// `.x` or `.y` of a value that is not a point.
    static func componentOfNonPointHelp(base: String, kind: Kind) -> String {
        "'.x' and '.y' are the components of a point; '\(base)' is \(kind.withArticle)"
    }

    static func pointMembersHelp(suggestion: String?) -> String {
        "a point has '.x' and '.y'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
    }

    /// For a member read from a list.
    static func listMemberHelp(base: String, member: String) -> String {
        "pick one member first, as in '\(base)[0].\(member)', or use 'stagger ... for c in ...'"
    }

    /// Under the `yoyo` of a tween that also has a `direction`.
    static let yoyoIsAlternate = "'yoyo' is 'direction alternate'"

    /// The word meant: another tool's spelling of it (`alternate_reverse`, `alternateReverse`,
    /// `forward`), else the closest one.
    static func suggestWord(_ w: String, from words: [String]) -> String? {
        var kebab = ""
        for c in w {
            if c.isUppercase { kebab += "-" + c.lowercased() } else if c == "_" { kebab += "-" } else { kebab.append(c) }
        }
        if words.contains(kebab) { return kebab }
        return DidYouMean.suggest(w, from: words)
    }

    /// For GSAP's power easing names.
    static let gsapPowerNames = "anim writes GSAP's powers with '-' and the mode named, as in 'power2-out'; power1 to power4 are also quad, cubic, quart and quint"
    /// For GSAP's back.inOut with an argument.
    static let gsapBackNote = "GSAP's back.inOut(s) is anim's back-in-out(s / 1.525)"

    /// A note on a `play` with the wrong number of arguments: the define's first line.
    static func definedAs(_ name: String, _ line: String) -> String { "'\(name)' is defined as '\(line)'" }

    /// A note on an error in a define's body: which `play` checked it.
    static func inDefine(_ name: String, playedBy call: String) -> String { "in '\(name)', played by '\(call)'" }
}
