// Code actions (`textDocument/codeAction`): quick fixes for the diagnostics in the requested
// range whose repair is mechanical (Diagnostic.fixes: a did-you-mean's replacement, a missing
// `then`, a space after `#`), each with the diagnostic it fixes, as PublishDiagnostics sent it.
import AnimCore

struct CodeActionsFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["codeActionProvider"] = ["codeActionKinds": ["quickfix"]]
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/codeAction": { ctx throws(ResponseError) in
                let a = try ctx.requestedAnalysis()
                guard let range = TextRange(json: ctx.params?["range"]) else { throw .invalidParams("expected params.range") }
                let lo = a.sourceOffset(a.text.offset(of: range.start, encoding: ctx.encoding))
                let hi = a.sourceOffset(a.text.offset(of: range.end, encoding: ctx.encoding))
                var actions: [JSON] = []
                for d in a.check.diagnostics where a.isInDocument(d.span) && d.span.start <= hi && lo <= d.span.end {
                    for fix in d.fixes(in: a.check.file) {
                        let edit: JSON = ["range": a.range(of: fix.span, encoding: ctx.encoding).json, "newText": .string(fix.replacement)]
                        actions.append(["title": .string(fix.title), "kind": "quickfix", "isPreferred": true,
                                        "diagnostics": [PublishDiagnostics.lsp(d, a, encoding: ctx.encoding)],
                                        "edit": ["changes": [a.uri: [edit]]]])
                    }
                }
                return .array(actions)
            },
        ]
    }
}
