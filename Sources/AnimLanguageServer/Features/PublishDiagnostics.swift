// PublishDiagnostics: an analysis's diagnostics as `textDocument/publishDiagnostics`, the
// same as `anim check` shows them:
// - `message` is anim's message, then its `note:` and `help:` lines as `anim check` prints them;
// - `range` is the primary span (the carets), `severity` error, warning or information;
// - the text after the carets and every secondary label (the `-` underlines) are
//   `relatedInformation` in the same document, the primary label first;
// - `data` keeps the parts apart (`label`, `notes`, `help`) for code actions to come.
// A span outside the document (a step of the prelude) is shown at the document's start with
// its position in the message, as `anim check` prints it, and its range in that source in
// `data.outside`; the count of diagnostics past the
// limit, and a timing run stopped by the work budget, are information at the end.
import AnimCore

enum PublishDiagnostics {
    /// The notification's params for an analysis.
    static func params(_ analysis: DocumentAnalysis, encoding: PositionEncoding) -> JSON {
        var items = analysis.check.diagnostics.map { lsp($0, analysis, encoding: encoding) }
        let start = TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        if analysis.check.notShown > 0 {
            let n = analysis.check.notShown
            let last = items.last?["range"] ?? start.json
            items.append(["range": last, "severity": 3, "source": "anim",
                          "message": .string("\(n) more diagnostic\(n == 1 ? "" : "s") not shown (the first \(Session.maxShownErrors) errors are above)")])
        }
        if analysis.stoppedByBudget {
            items.append(["range": start.json, "severity": 3, "source": "anim",
                          "message": .string("the script was timed only up to the work budget (about \(analysis.budget.events) events): run-time errors after that are not shown; 'anim check' times all of it")])
        }
        return ["uri": .string(analysis.uri), "version": .int(analysis.version), "diagnostics": .array(items)]
    }

    /// The LSP severity of an anim severity.
    static func severity(_ s: Severity) -> Int {
        switch s {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    /// One diagnostic.
    static func lsp(_ d: Diagnostic, _ analysis: DocumentAnalysis, encoding: PositionEncoding) -> JSON {
        var message = d.message
        var data: [String: JSON] = [:]
        let range: TextRange
        if analysis.isInDocument(d.span) {
            range = analysis.range(of: d.span, encoding: encoding)
        } else {
            range = TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
            if let file = analysis.check.sources[d.span.source] {
                // Where it is, as `anim check` prints it, and the range in that source.
                message = "\(DiagnosticRenderer(sources: analysis.check.sources).position(of: d.span)!): \(message)"
                let text = DocumentText(file.bytes)
                data["outside"] = ["name": .string(file.name),
                                   "range": text.range(ofOffsets: Int(d.span.start)..<Int(d.span.end), encoding: encoding).json]
            }
        }
        for n in d.notes { message += "\nnote: \(n)" }
        if let h = d.help { message += "\nhelp: \(h)" }
        var related: [JSON] = []
        if let label = d.label, analysis.isInDocument(d.span) {
            related.append(relatedInformation(range, label, analysis))
        }
        // As the renderer, only labels in the diagnostic's own source are shown.
        for l in d.secondary where l.span.source == d.span.source && analysis.isInDocument(l.span) {
            related.append(relatedInformation(analysis.range(of: l.span, encoding: encoding), l.text, analysis))
        }
        if let label = d.label { data["label"] = .string(label) }
        if !d.notes.isEmpty { data["notes"] = .array(d.notes.map { .string($0) }) }
        if let h = d.help { data["help"] = .string(h) }
        var item: [String: JSON] = ["range": range.json, "severity": .int(severity(d.severity)), "source": "anim",
                                    "message": .string(message)]
        if !related.isEmpty { item["relatedInformation"] = .array(related) }
        if !data.isEmpty { item["data"] = .object(data) }
        return .object(item)
    }

    private static func relatedInformation(_ range: TextRange, _ message: String, _ analysis: DocumentAnalysis) -> JSON {
        ["location": ["uri": .string(analysis.uri), "range": range.json], "message": .string(message)]
    }
}

/// Diagnostics pushed on open and on every change (`textDocument/publishDiagnostics`), and
/// cleared when a document closes. Push needs no capability.
struct DiagnosticsFeature: LanguageFeature {
    func analysisFinished(_ analysis: DocumentAnalysis, output: ServerOutput) {
        output.notify("textDocument/publishDiagnostics", PublishDiagnostics.params(analysis, encoding: output.encoding))
    }

    func documentClosed(_ uri: String, output: ServerOutput) {
        output.notify("textDocument/publishDiagnostics", ["uri": .string(uri), "diagnostics": []])
    }
}
