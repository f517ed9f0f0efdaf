// Navigation: go to definition, find references and rename, for every name the SymbolIndex
// knows (shapes, arrays, groups, lets, defines and their parameters, step names, stagger
// variables). Rename refuses, with a message, a new name that is not a name (a keyword, a
// word that does not lex as one name), one that clashes with another declaration in the same
// scope, and a name the script does not declare (a prelude define, a colour).
import AnimCore

struct NavigationFeature: LanguageFeature {
    func addCapabilities(to capabilities: inout [String: JSON], client: ClientCapabilities) {
        capabilities["definitionProvider"] = true
        capabilities["referencesProvider"] = true
        capabilities["renameProvider"] = ["prepareProvider": true]
    }

    var requests: [String: RequestHandler] {
        [
            "textDocument/definition": { ctx throws(ResponseError) in
                let (a, offset) = try ctx.requestedSourcePosition()
                guard let d = a.script.symbols.declaration(at: offset) else { return .null }
                return location(a, a.script.symbols.declarations[d].nameSpan, ctx.encoding)
            },
            "textDocument/references": { ctx throws(ResponseError) in
                let (a, offset) = try ctx.requestedSourcePosition()
                guard let d = a.script.symbols.declaration(at: offset) else { return .null }
                var spans = a.script.symbols.uses(of: d)
                if ctx.params?["context"]?["includeDeclaration"]?.bool ?? true {
                    spans.insert(a.script.symbols.declarations[d].nameSpan, at: 0)
                }
                return .array(spans.map { location(a, $0, ctx.encoding) })
            },
            "textDocument/prepareRename": { ctx throws(ResponseError) in
                let (a, offset) = try ctx.requestedSourcePosition()
                guard let d = a.script.symbols.declaration(at: offset) else {
                    throw .requestFailed("there is no name declared in this script here to rename")
                }
                let spans = [a.script.symbols.declarations[d].nameSpan] + a.script.symbols.uses(of: d)
                let at = spans.first { $0.covers(offset) } ?? spans[0]
                return ["range": a.range(of: at, encoding: ctx.encoding).json, "placeholder": .string(a.script.symbols.declarations[d].name)]
            },
            "textDocument/rename": { ctx throws(ResponseError) in
                let (a, offset) = try ctx.requestedSourcePosition()
                guard let newName = ctx.params?["newName"]?.string else { throw .invalidParams("expected params.newName") }
                let edits = try Rename.edits(a, at: offset, to: newName)
                return ["changes": [a.uri: .array(edits.map { ["range": a.range(of: $0, encoding: ctx.encoding).json, "newText": .string(newName)] })]]
            },
        ]
    }
}

func location(_ a: DocumentAnalysis, _ span: Span, _ encoding: PositionEncoding) -> JSON {
    ["uri": .string(a.uri), "range": a.range(of: span, encoding: encoding).json]
}

enum Rename {
    /// The spans to replace to rename what is at `offset`, or the reason not to.
    static func edits(_ a: DocumentAnalysis, at offset: UInt32, to newName: String) throws(ResponseError) -> [Span] {
        let symbols = a.script.symbols
        guard let d = symbols.declaration(at: offset) else {
            throw .requestFailed("there is no name declared in this script here to rename")
        }
        let decl = symbols.declarations[d]
        if let problem = invalidName(newName) { throw .requestFailed("cannot rename '\(decl.name)' to '\(newName)': \(problem)") }
        if newName == decl.name { return [decl.nameSpan] + symbols.uses(of: d) }
        // A clash: another declaration of the new name that the renamed one would meet — a
        // top-level name anywhere, or a local in the same scope; a local may not take the name
        // of a top-level name its scope uses either (it would hide it).
        for (k, other) in symbols.declarations.enumerated() where k != d && other.name == newName {
            let meets: Bool
            switch (decl.scope, other.scope) {
            case (nil, nil): meets = true
            case (let s?, let o?): meets = s == o
            case (let s?, nil): meets = symbols.uses(of: k).contains { s.contains($0) }
            case (nil, let o?): meets = symbols.uses(of: d).contains { o.contains($0) }
            }
            if meets {
                let line = a.text.line(ofOffset: a.documentOffset(other.nameSpan.start)) + 1
                throw .requestFailed("cannot rename '\(decl.name)' to '\(newName)': line \(line) already declares '\(newName)' (a \(other.kind.rawValue))")
            }
        }
        return [decl.nameSpan] + symbols.uses(of: d)
    }

    /// Why a word cannot name something, or nil when it can.
    static func invalidName(_ name: String) -> String? {
        if Keyword(rawValue: name) != nil { return "'\(name)' is a keyword" }
        let u = Array(name.utf8)
        guard let first = u.first else { return "a name cannot be empty" }
        func letter(_ c: UInt8) -> Bool { (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F }
        guard letter(first) else { return "a name starts with a letter or '_'" }
        guard u.allSatisfy({ letter($0) || ($0 >= 0x30 && $0 <= 0x39) }) else { return "a name holds only letters, digits and '_'" }
        return nil
    }
}

extension ResponseError {
    /// LSP's RequestFailed: the request was valid but cannot be done (a refused rename).
    static func requestFailed(_ message: String) -> ResponseError { ResponseError(code: -32803, message: message) }
}

extension RequestContext {
    /// The requested document's analysis and `params.position` as a byte offset into its source.
    func requestedSourcePosition() throws(ResponseError) -> (DocumentAnalysis, UInt32) {
        let a = try requestedAnalysis()
        return (a, a.sourceOffset(try requestedOffset(in: a)))
    }
}
