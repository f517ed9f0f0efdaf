// CheckError: every message the checker can give, in one catalogue (as _RegexParser does).
// Messages state the problem; a did-you-mean or help line says how to fix it.

/// The checker's messages.
enum CheckError {
    case unknownName(String, suggestion: String?)
    case unknownProperty(String, shapeKind: ShapeKind, shape: String, suggestion: String?)
    case unknownPropertyOfMany(String, shapes: String, suggestion: String?)
    case unknownFunction(String, suggestion: String?)
    case unknownMember(String, kind: Kind)
    case notAShape(String, kind: Kind)
    case notAProperty(String)
    case stepNameAsValue(String)
    case kindMismatch(expected: String, got: Kind)
    case operandKinds(BinaryExpr.Op, Kind, Kind)
    case negateKind(Kind)
    case arity(Builtin, expected: String, got: Int)
    case argumentKind(Builtin, index: Int, expected: String, got: Kind)
    case alreadyDeclared(String, what: String)
    case arraySize(String)
    case indexOutOfRange(Int, name: String, count: Int)
    case notIndexable(Kind)
    case cannotAnimate(String, Kind)
    case relativeKind(Assignment.Op, Kind)
    case writtenTwice(String)
    case comparisonKind(ExpectStep.Op, Kind)
    case mixedShapeKinds(String)
    case waitNeedsDuration
    case waitNameInChain(String)
    case duplicateStepName(String)
    case unknownStepName(String, suggestion: String?)
    case notYetAvailable(String)
    case easing(EasingError)
    case listElementKinds
    case fromKind(Kind, property: String, propertyKind: Kind)
    case emptyBody(String)

    var message: String {
        switch self {
        case .unknownName(let n, let s):
            "unknown name '\(n)'" + did(s)
        case .unknownProperty(let p, let k, let shape, let s):
            "unknown property '\(p)' of \(k.rawValue) '\(shape)'" + did(s)
        case .unknownPropertyOfMany(let p, let shapes, let s):
            "unknown property '\(p)' of \(shapes)" + did(s)
        case .unknownFunction(let n, let s):
            "unknown function '\(n)'" + did(s)
        case .unknownMember(let m, let k):
            "a \(k) has no member '\(m)'"
        case .notAShape(let text, let k):
            "'\(text)' is a \(k), not a shape"
        case .notAProperty(let text):
            "'\(text)' is not a property of a shape"
        case .stepNameAsValue(let n):
            "'\(n)' names a step, not a value"
        case .kindMismatch(let e, let g):
            "expected \(e), found \(g.withArticle)"
        case .operandKinds(let op, let a, let b):
            "cannot \(verb(op)) \(a.withArticle) and \(b.withArticle)"
        case .negateKind(let k):
            "cannot negate \(k.withArticle)"
        case .arity(let f, let e, let g):
            "'\(f.rawValue)' takes \(e) argument\(e == "1" ? "" : "s"), not \(g)"
        case .argumentKind(let f, let i, let e, let g):
            "argument \(i + 1) of '\(f.rawValue)' must be \(e), not \(g.withArticle)"
        case .alreadyDeclared(let n, let what):
            "'\(n)' is already declared as \(what)"
        case .arraySize(let why):
            "bad array size: \(why)"
        case .indexOutOfRange(let i, let n, let c):
            "index \(i) is out of range for '\(n)' (it has \(c) member\(c == 1 ? "" : "s"))"
        case .notIndexable(let k):
            "cannot index \(k.withArticle)"
        case .cannotAnimate(let p, let k):
            "cannot animate '\(p)': \(k.withArticle) does not interpolate"
        case .relativeKind(let op, let k):
            "cannot use '\(op.rawValue)' on \(k.withArticle)"
        case .writtenTwice(let p):
            "'\(p)' is written twice in one block"
        case .comparisonKind(let op, let k):
            "cannot compare \(k) values with '\(op.rawValue)'"
        case .mixedShapeKinds(let p):
            "property '\(p)' has different kinds on these shapes"
        case .waitNeedsDuration:
            "'wait' inside a chain needs a duration"
        case .waitNameInChain(let n):
            "'wait \(n)' only works at the top level"
        case .duplicateStepName(let n):
            "the step name '\(n)' is already used"
        case .unknownStepName(let n, let s):
            "unknown step name '\(n)'" + did(s)
        case .notYetAvailable(let what):
            "\(what) is not available in this version of anim"
        case .easing(let e):
            e.message
        case .listElementKinds:
            "list elements must all be of one kind"
        case .fromKind(let k, let p, let pk):
            "'from' gives \(k.withArticle), but '\(p)' is \(pk.withArticle)"
        case .emptyBody(let what):
            "\(what) has an empty body"
        }
    }

    private func did(_ s: String?) -> String { s.map { "; did you mean '\($0)'?" } ?? "" }

    private func verb(_ op: BinaryExpr.Op) -> String {
        switch op {
        case .add: "add"
        case .subtract: "subtract"
        case .multiply: "multiply"
        case .divide: "divide"
        }
    }
}


