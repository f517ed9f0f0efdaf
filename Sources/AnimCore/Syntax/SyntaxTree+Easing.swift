// The arguments of an easing as written, in the form Easing.resolve takes: the checker and the
// language server's descriptions read them the same way.

extension SyntaxTree {
    /// An easing's arguments as `Easing.resolve` takes them, each with its span: numbers written
    /// one after another without commas (`0.25 25% 75%`) are one `.stop`.
    public func easingArguments(_ written: SyntaxList<EasingArgumentID>) -> [(argument: EasingArgument, span: Span)] {
        var out: [(argument: EasingArgument, span: Span)] = []
        for a in self[written] {
            switch self[a] {
            case .word(let s):
                out.append((.word(text(s)), s))
            case .number(let d, let s, let percent, let joined):
                if joined, let last = out.last {
                    var (numbers, percentages): ([Double], [Double])
                    switch last.argument {
                    case .number(let x): (numbers, percentages) = ([x], [])
                    case .stop(let n, let p): (numbers, percentages) = (n, p)
                    case .word: (numbers, percentages) = ([], [])   // not reached: words are never joined
                    }
                    if percent { percentages.append(d) } else { numbers.append(d) }
                    out[out.count - 1] = (.stop(numbers: numbers, percentages: percentages), last.span.merged(with: s))
                } else {
                    out.append((percent ? .stop(numbers: [], percentages: [d]) : .number(d), s))
                }
            }
        }
        return out
    }
}
