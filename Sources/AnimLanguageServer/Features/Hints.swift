// Inlay hints (`textDocument/inlayHint`): after each step, when it ran in the timing run —
// `⟨1.250s → 2.000s⟩`, `⟨1.250s → …⟩` for a step still running when the run stopped, and
// `×N` for a step that ran N times (the first start and the last end) — and after each
// top-level `wait`, where script time landed: `⟨now 3.000s⟩`. A step that never ran gets none.
// A request for a range (an editor asks for the visible lines) looks only at the top-level
// statements in it, found by binary search, so its work is the range's, not the document's.
import AnimCore

struct HintsFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["inlayHintProvider"] = true
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/inlayHint": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                let range = TextRange(json: ctx.params?["range"])
                let lo = range.map { a.text.offset(of: $0.start, encoding: ctx.encoding) } ?? 0
                let hi = range.map { a.text.offset(of: $0.end, encoding: ctx.encoding) } ?? a.text.bytes.count
                return .array(InlayHints.hints(a, in: lo...hi).map { h in
                    ["position": a.text.position(ofOffset: h.offset, encoding: ctx.encoding).json, "label": .string(h.label),
                     "kind": 1, "paddingLeft": true]
                })
            },
        ]
    }
}

enum InlayHints {
    /// Hints as (document offset, label), in order. They read the timing run alone (when each
    /// step ran, where each `wait` landed) and print only times and run counts, never a value:
    /// for a version whose diagnostics were reused they are the base analysis's, moved as the
    /// diagnostics are (`DocumentAnalysis.timing`).
    /// Only those placed in `range` (document offsets) are labelled and returned.
    static func hints(_ a: DocumentAnalysis, in range: ClosedRange<Int> = 0...Int.max) -> [(offset: Int, label: String)] {
        let (script, offset) = a.timing
        guard script.timeline != nil else { return [] }
        let tree = script.tree
        let statements = tree[tree.statements]
        // The top-level statements that can hold a hint in the range: the first ending at or
        // after its start (statements do not overlap, so their ends are in order, and `offset`
        // keeps order) through the last starting at or before its end.
        var lo = 0, hi = statements.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if offset(tree.span(statements[mid]).end) < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var last = lo
        while last < statements.count, offset(tree.span(statements[last]).start) <= range.upperBound { last += 1 }
        guard lo < last else { return [] }
        var out: [(Int, String)] = []
        // Steps are indexed in source order, each inside its top-level statement: those of the
        // statements found are the ones starting between the first's start and the last's end.
        let steps = script.symbols.steps
        let first = tree.span(statements[lo]).start, end = tree.span(statements[last - 1]).end
        var k = 0, n = steps.count
        while k < n {
            let mid = (k + n) / 2
            if tree.span(steps[mid]).start < first { k = mid + 1 } else { n = mid }
        }
        while k < steps.count, tree.span(steps[k]).start <= end {
            let span = tree.span(steps[k])
            k += 1
            let at = offset(span.end)
            guard range.contains(at), let t = script.stepTimes.time(of: span) else { continue }
            out.append((at, label(t)))
        }
        for s in statements[lo..<last] {
            let at = offset(tree.span(s).end)
            guard range.contains(at), case .wait(let w) = tree[s],
                  let now = script.waitLandings[w.span] ?? script.waitLandings[tree.span(s)] else { continue }
            out.append((at, "⟨now \(Hover.stamp(now))⟩"))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    static func label(_ t: StepTime) -> String {
        let end = t.end.map(Hover.stamp) ?? "…"
        return "⟨\(Hover.stamp(t.start)) → \(end)\(t.runs > 1 ? ", ×\(t.runs)" : "")⟩"
    }
}
