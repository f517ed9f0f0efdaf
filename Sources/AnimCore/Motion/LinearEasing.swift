// LinearEasing: CSS Easing Level 2's piecewise-linear `linear(0, 0.25 25%, 1)`. The stops are
// resolved to points once, as the spec's "create a linear easing function" says (§2.1.2), and a
// progress is mapped as its "calculate linear easing output progress" says (§2.1.4): between
// the two points around it, or along the first or last segment beyond the ends.

/// A piecewise-linear easing: points (input, output) with inputs that never decrease.
public struct LinearEasing: Hashable, Sendable {
    /// The points' inputs (progress), never decreasing.
    public let inputs: [Double]
    /// The points' outputs.
    public let outputs: [Double]

    /// One stop as written: an output and zero, one or two input positions, as fractions (25% is
    /// 0.25).
    public struct Stop: Hashable, Sendable {
        public var output: Double
        public var positions: [Double]
        public init(output: Double, positions: [Double] = []) {
            self.output = output
            self.positions = positions
        }
    }

    /// The points for `stops` (at least two), by CSS Easing Level 2 §2.1.2: a position below the
    /// largest one before it is raised to it; a first stop without one is at 0, a last at
    /// max(1, largest); a stop with two positions is two points; and the inputs of runs without
    /// one are spread evenly between the points around them.
    public init(stops: [Stop]) {
        precondition(stops.count >= 2, "linear() needs at least two stops")
        var inputs: [Double?] = []
        var outputs: [Double] = []
        var largest = -Double.infinity
        for (k, stop) in stops.enumerated() {
            if stop.positions.isEmpty {
                outputs.append(stop.output)
                if k == 0 {
                    inputs.append(0); largest = 0
                } else if k == stops.count - 1 {
                    inputs.append(max(1, largest))
                } else {
                    inputs.append(nil)
                }
            } else {
                for p in stop.positions.prefix(2) {
                    let input = max(p, largest)
                    inputs.append(input); outputs.append(stop.output)
                    largest = input
                }
            }
        }
        // Runs of points without an input: evenly between the closest points with one. The first
        // and last points always have one.
        var k = 0
        while k < inputs.count {
            guard inputs[k] == nil else { k += 1; continue }
            let before = k - 1
            var after = k
            while inputs[after] == nil { after += 1 }
            let a = inputs[before]!, b = inputs[after]!
            let n = Double(after - before)
            for j in k..<after { inputs[j] = a + (b - a) * Double(j - before) / n }
            k = after
        }
        self.inputs = inputs.map { $0! }
        self.outputs = outputs
    }

    /// The output progress at input progress `p` (CSS Easing Level 2 §2.1.4): point A is the
    /// last point whose input is ≤ p (the first if none is, and never the last), B the one after
    /// it; equal inputs give B's output, otherwise the line through A and B.
    @inline(__always)
    public func callAsFunction(_ p: Double) -> Double {
        // Binary search for the last input ≤ p.
        var lo = 0, hi = inputs.count   // inputs[..<lo] ≤ p, inputs[hi...] > p
        while lo < hi {
            let mid = (lo + hi) / 2
            if inputs[mid] <= p { lo = mid + 1 } else { hi = mid }
        }
        var a = max(lo - 1, 0)
        if a == inputs.count - 1 { a -= 1 }
        let x0 = inputs[a], x1 = inputs[a + 1]
        if x0 == x1 { return outputs[a + 1] }
        return outputs[a] + (p - x0) / (x1 - x0) * (outputs[a + 1] - outputs[a])
    }
}

extension LinearEasing: CustomStringConvertible {
    /// The serialized computed value of CSS Easing Level 2 §2.1.3: every point with its input,
    /// `linear(0 0%, 0.25 25%, 1 100%)`.
    public var description: String {
        "linear(" + zip(outputs, inputs).map { "\(formatNumber($0)) \(formatNumber($1 * 100))%" }.joined(separator: ", ") + ")"
    }
}
