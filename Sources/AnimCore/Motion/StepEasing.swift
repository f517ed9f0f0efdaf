// StepEasing: CSS `steps(n, position)` (CSS Easing Level 1, "Step easing functions" and its
// algorithm "to calculate the output progress of a step easing function"). The before flag moves
// an exact transition point back one step, so that a tween sitting in its before phase shows the
// value from before the jump. Output is exact: current step ÷ number of jumps.

/// Where a `steps` easing jumps.
public enum StepPosition: String, Hashable, Sendable, CaseIterable {
    /// The first jump happens at p = 0 (CSS `jump-start`, alias `start`).
    case jumpStart = "jump-start"
    /// The last jump happens at p = 1 (CSS `jump-end`, alias `end`; the default).
    case jumpEnd = "jump-end"
    /// No jump at either end: n − 1 jumps, holding 0 and 1 for a step each (needs n ≥ 2).
    case jumpNone = "jump-none"
    /// Jumps at both ends: n + 1 jumps.
    case jumpBoth = "jump-both"

    /// Every word `steps` accepts as its position, the CSS aliases `start` and `end` included.
    public static let words: [String: StepPosition] = [
        "jump-start": .jumpStart, "jump-end": .jumpEnd, "jump-none": .jumpNone, "jump-both": .jumpBoth,
        "start": .jumpStart, "end": .jumpEnd,
    ]

    /// The words in the order messages and completion list them.
    public static let wordList = ["jump-start", "jump-end", "jump-none", "jump-both", "start", "end"]

    /// The number of jumps for `n` steps (CSS: `jumps`).
    public func jumps(steps n: Int) -> Int {
        switch self {
        case .jumpStart, .jumpEnd: n
        case .jumpNone: n - 1
        case .jumpBoth: n + 1
        }
    }
}

/// The output of a step easing.
enum StepEasing {
    /// The step algorithm of CSS Easing Level 1, step by step.
    static func output(_ p: Double, steps n: Int, position: StepPosition, beforeFlag: Bool) -> Double {
        let scaled = p * Double(n)
        // 1. current step = floor(input × steps); kept as a Double so huge inputs cannot trap.
        var step = scaled.rounded(.down)
        // 2. jump-start and jump-both have already jumped once at 0.
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        // 3. Before flag at an exact transition point: the jump has not happened yet.
        if beforeFlag && scaled == scaled.rounded(.down) { step -= 1 }
        // 4. Inside the interval the output never drops below 0 ...
        if p >= 0 && step < 0 { step = 0 }
        // 5.-6. ... nor rises above 1.
        let jumps = Double(position.jumps(steps: n))
        if p <= 1 && step > jumps { step = jumps }
        // 7.
        return step / jumps
    }
}
