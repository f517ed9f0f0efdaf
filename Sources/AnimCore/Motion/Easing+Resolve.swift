// Easing+Resolve: an easing name and its written arguments → an Easing, or an EasingError that
// says what is wrong in plain words (and which argument, so the checker can point at it).
// Defaults are filled in here, so a resolved Easing carries every parameter explicitly.

/// One argument of an easing as written: `4` or `jump-start` in `steps(4, jump-start)`.
public enum EasingArgument: Hashable, Sendable {
    /// A number, such as the `4` of `steps(4)`.
    case number(Double)
    /// A (possibly hyphenated) word, such as `jump-start`.
    case word(String)
    /// Numbers written one after another without commas, or a percentage: a stop of
    /// `linear(0, 0.25 25% 75%, 1)`. The percentages are as written (25 for `25%`).
    case stop(numbers: [Double], percentages: [Double])
}

extension Easing {
    /// Resolves an easing by name and arguments (nil when no parentheses were written).
    public static func resolve(name: String, arguments: [EasingArgument]?) -> Result<Easing, EasingError> {
        // Only linear() has stops; elsewhere numbers without commas are one mistake, found first
        // so that `cubic-bezier(0 0 1 1)` is not "1 parameter".
        if name != "linear", let i = arguments?.firstIndex(where: { if case .stop = $0 { true } else { false } }) {
            return .failure(.notOneNumber(name, argument: i))
        }
        switch name {
        case "linear": return arguments.map(resolveLinear) ?? .success(.linear)
        case "ease": return noArguments(name, arguments, .ease)
        case "ease-in": return noArguments(name, arguments, .easeIn)
        case "ease-out": return noArguments(name, arguments, .easeOut)
        case "ease-in-out": return noArguments(name, arguments, .easeInOut)
        case "step-start": return noArguments(name, arguments, .stepStart)
        case "step-end": return noArguments(name, arguments, .stepEnd)
        case "cubic-bezier": return resolveCubicBezier(arguments)
        case "steps": return resolveSteps(arguments)
        default:
            if let (family, mode) = pennerName(name) { return resolvePenner(name, family, mode, arguments) }
            if let easing = powerEasing(name) { return noArguments(name, arguments, easing) }
            return .failure(.unknown(name, suggestion: DidYouMean.suggest(name, from: allNames)))
        }
    }

    private static func noArguments(_ name: String, _ args: [EasingArgument]?, _ e: Easing) -> Result<Easing, EasingError> {
        args == nil ? .success(e) : .failure(.takesNoArguments(name))
    }

    /// The numbers of `args`, or the error for the first word among them.
    private static func numbers(_ name: String, _ args: [EasingArgument]) -> Result<[Double], EasingError> {
        var out: [Double] = []
        for (i, a) in args.enumerated() {
            switch a {
            case .number(let d):
                guard d.isFinite else { return .failure(.outOfRange(name, "parameters must be finite numbers", argument: i)) }
                out.append(d)
            case .word(let w):
                return .failure(.expectedNumber(name, word: w, argument: i))
            case .stop:
                return .failure(.notOneNumber(name, argument: i))
            }
        }
        return .success(out)
    }

    /// linear(stop, stop, …): at least two stops, each one output number with at most two
    /// positions (CSS Easing Level 2 §2.1.1); the positions are resolved by `LinearEasing`.
    private static func resolveLinear(_ args: [EasingArgument]) -> Result<Easing, EasingError> {
        let name = "linear"
        guard args.count >= 2 else { return .failure(.wrongArgumentCount(name, expected: "at least 2", got: args.count)) }
        var stops: [LinearEasing.Stop] = []
        for (i, a) in args.enumerated() {
            let numbers: [Double], percentages: [Double]
            switch a {
            case .number(let d): numbers = [d]; percentages = []
            case .word(let w): return .failure(.expectedNumber(name, word: w, argument: i))
            case .stop(let n, let p): numbers = n; percentages = p
            }
            guard numbers.count == 1, percentages.count <= 2 else {
                return .failure(.outOfRange(name, "a stop is one output number and at most two positions, such as '0.25 25% 75%'",
                                            argument: i))
            }
            guard (numbers + percentages).allSatisfy(\.isFinite) else {
                return .failure(.outOfRange(name, "parameters must be finite numbers", argument: i))
            }
            stops.append(LinearEasing.Stop(output: numbers[0], positions: percentages.map { $0 / 100 }))
        }
        return .success(.piecewiseLinear(LinearEasing(stops: stops)))
    }

    /// GSAP's `power0`…`power4` with `-in`, `-out`, `-in-out` (`powerNames`): power0 is linear,
    /// power1 to power4 are the Penner quad, cubic, quart and quint, whose curves are GSAP's
    /// p^(N+1), 1 − (1 − p)^(N+1) and their mirror.
    private static func powerEasing(_ name: String) -> Easing? {
        guard name.hasPrefix("power"), powerNames.contains(name) else { return nil }
        let n = name.dropFirst(5).first!.wholeNumberValue!
        guard n > 0 else { return .linear }
        let family: [PennerFamily] = [.quad, .cubic, .quart, .quint]
        let mode = EasingMode(rawValue: String(name.dropFirst(7)))!
        return .penner(family[n - 1], mode)
    }

    /// cubic-bezier(x1, y1, x2, y2), with x1 and x2 in [0, 1] (CSS Easing Level 1).
    private static func resolveCubicBezier(_ args: [EasingArgument]?) -> Result<Easing, EasingError> {
        let name = "cubic-bezier"
        guard let args, args.count == 4 else {
            return .failure(.wrongArgumentCount(name, expected: "4", got: args?.count ?? 0))
        }
        return numbers(name, args).flatMap { a in
            for i in [0, 2] where !(0...1).contains(a[i]) {
                return .failure(.outOfRange(name, "x\(i / 2 + 1) must be between 0 and 1, not \(formatNumber(a[i]))", argument: i))
            }
            return .success(.cubicBezier(a[0], a[1], a[2], a[3]))
        }
    }

    /// steps(n[, position]): n a whole number ≥ 1 (≥ 2 for jump-none); position defaults to jump-end.
    private static func resolveSteps(_ args: [EasingArgument]?) -> Result<Easing, EasingError> {
        let name = "steps"
        guard let args, args.count == 1 || args.count == 2 else {
            return .failure(.wrongArgumentCount(name, expected: "1 or 2", got: args?.count ?? 0))
        }
        let n: Double
        switch args[0] {
        case .number(let d): n = d
        case .word(let w): return .failure(.expectedNumber(name, word: w, argument: 0))
        case .stop: return .failure(.notOneNumber(name, argument: 0))
        }
        // 2^31 steps is far beyond any visible difference; the limit keeps the count an Int32.
        guard n.isFinite, n >= 1, n == n.rounded(.down), n <= Double(Int32.max) else {
            return .failure(.outOfRange(name, "the number of steps must be a whole number of at least 1, not \(formatNumber(n))", argument: 0))
        }
        var position = StepPosition.jumpEnd
        if args.count == 2 {
            switch args[1] {
            case .number, .stop:
                return .failure(.expectedWord(name, "the second parameter is a step position such as 'jump-end'", argument: 1))
            case .word(let w):
                guard let p = StepPosition.words[w] else {
                    return .failure(.unknownStepPosition(w, suggestion: DidYouMean.suggest(w, from: StepPosition.wordList), argument: 1))
                }
                position = p
            }
        }
        if position == .jumpNone && n < 2 {
            return .failure(.outOfRange(name, "'jump-none' needs at least 2 steps", argument: 0))
        }
        return .success(.steps(Int(n), position))
    }

    /// Splits `back-in-out` into (back, in-out); nil if it is not a Penner name.
    private static func pennerName(_ name: String) -> (String, EasingMode)? {
        for mode in [EasingMode.inOut, .in, .out] {   // in-out first: `-in-out` also ends in `-out`
            let suffix = "-" + mode.rawValue
            if name.hasSuffix(suffix) {
                let family = String(name.dropLast(suffix.count))
                if PennerFamily.names.contains(family) { return (family, mode) }
            }
        }
        return nil
    }

    private static func resolvePenner(_ name: String, _ family: String, _ mode: EasingMode,
                                      _ args: [EasingArgument]?) -> Result<Easing, EasingError> {
        let simple: [String: PennerFamily] = ["sine": .sine, "quad": .quad, "cubic": .cubic, "quart": .quart,
                                              "quint": .quint, "expo": .expo, "circ": .circ, "bounce": .bounce]
        if let f = simple[family] { return noArguments(name, args, .penner(f, mode)) }
        let written: [Double]
        switch numbers(name, args ?? []) {
        case .success(let a): written = a
        case .failure(let e): return .failure(e)
        }
        if family == "back" {
            guard written.count <= 1 else { return .failure(.wrongArgumentCount(name, expected: "0 or 1", got: written.count)) }
            return .success(.penner(.back(overshoot: written.first ?? PennerFamily.defaultOvershoot), mode))
        }
        // elastic(amplitude, period)
        guard written.count <= 2 else { return .failure(.wrongArgumentCount(name, expected: "0, 1 or 2", got: written.count)) }
        let amplitude = written.count > 0 ? written[0] : PennerFamily.defaultAmplitude
        let period = written.count > 1 ? written[1] : PennerFamily.defaultPeriod(for: mode)
        guard amplitude > 0 else {
            return .failure(.outOfRange(name, "the amplitude must be greater than 0, not \(formatNumber(amplitude))", argument: 0))
        }
        guard period > 0 else {
            return .failure(.outOfRange(name, "the period must be greater than 0, not \(formatNumber(period))", argument: 1))
        }
        return .success(.penner(.elastic(amplitude: amplitude, period: period), mode))
    }
}

/// Why an easing could not be resolved.
public enum EasingError: Error, Hashable, Sendable {
    /// No easing has this name.
    case unknown(String, suggestion: String?)
    /// A keyword (`linear`, `quad-in`, ...) was given parentheses.
    case takesNoArguments(String)
    /// The wrong number of parameters; `expected` is a phrase such as "1 or 2".
    case wrongArgumentCount(String, expected: String, got: Int)
    /// A parameter is outside its range; the second string says why.
    case outOfRange(String, String, argument: Int)
    /// A word where a number belongs.
    case expectedNumber(String, word: String, argument: Int)
    /// A number where a word belongs; the second string says what belongs there.
    case expectedWord(String, String, argument: Int)
    /// `steps(4, jump-stat)`.
    case unknownStepPosition(String, suggestion: String?, argument: Int)
    /// Numbers without a comma between them, or a percentage, outside `linear(...)`.
    case notOneNumber(String, argument: Int)

    /// The message for the diagnostic.
    public var message: String {
        switch self {
        case .unknown(let n, let s):
            "unknown easing '\(n)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .takesNoArguments(let n):
            "easing '\(n)' takes no parameters"
        case .wrongArgumentCount(let n, let e, let g):
            "easing '\(n)' takes \(e) parameters, not \(g)"
        case .outOfRange(let n, let why, _):
            "bad parameters for '\(n)': \(why)"
        case .expectedNumber(let n, let w, _):
            "easing '\(n)' takes numbers, not '\(w)'"
        case .expectedWord(let n, let why, _):
            "bad parameters for '\(n)': \(why)"
        case .unknownStepPosition(let w, let s, _):
            "unknown step position '\(w)'" + (s.map { "; did you mean '\($0)'?" } ?? "")
        case .notOneNumber(let n, _):
            "easing '\(n)' takes one plain number per parameter, with commas between"
        }
    }

    /// The 0-based index of the argument at fault, when one argument is; nil otherwise.
    public var argumentIndex: Int? {
        switch self {
        case .unknown, .takesNoArguments, .wrongArgumentCount: nil
        case .outOfRange(_, _, let i), .expectedNumber(_, _, let i), .expectedWord(_, _, let i),
             .unknownStepPosition(_, _, let i), .notOneNumber(_, let i): i
        }
    }
}
