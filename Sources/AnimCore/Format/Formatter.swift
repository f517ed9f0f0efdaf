// Formatter: `anim fmt` — one canonical layout for a script (FormatLayout says which). Only a
// script without syntax errors is formatted, and the result is checked before it is given
// back: it must lex to the same tokens and parse to the same tree, with the same comments in
// the same order, and format to itself. A script with a `# fmt: off` comment is left as written. A layout rule that broke either would be a bug in the formatter; it is reported
// as one rather than written over the author's file.

/// Formats anim scripts.
public enum Formatter {
    /// Why a script was not formatted.
    public enum Failure: Error, Sendable {
        /// The script has syntax errors (lexer or parser), as `anim check` reports them.
        case syntax(DiagnosticBag)
        /// The layout would have changed what the script means (a formatter bug); the reason.
        case internalError(String)
    }

    /// A comment that keeps its script as written (anywhere in it, on a line of its own or
    /// after code, optionally followed by a space and a reason): a golden test of a layout the formatter
    /// would rewrite (`400x700`, a `then` at a line's end, a comment against a color).
    public static let offMarker = "# fmt: off"

    /// Whether a comment is `# fmt: off`, alone or followed by a space and a reason.
    static func isOffMarker(_ comment: ArraySlice<UInt8>) -> Bool {
        let marker = offMarker.utf8
        guard comment.starts(with: marker) else { return false }
        return comment.count == marker.count || comment[comment.startIndex + marker.count] == 0x20
    }

    /// The formatted bytes of a script: the same bytes when it is already formatted.
    public static func format(_ file: SourceFile) -> Result<[UInt8], Failure> {
        let parsed = Parser.parseProgram(file)
        guard !parsed.diagnostics.hasErrors else { return .failure(.syntax(parsed.diagnostics)) }
        let layout = FormatLayout(file: file, tokens: Lexer.tokenize(file).tokens, tree: parsed.tree)
        if layout.comments().contains(where: isOffMarker) { return .success(file.bytes) }
        let out = layout.format()
        if out == file.bytes { return .success(out) }
        // The safety net: same tree, same comments, and a fixed point.
        let again = SourceFile(id: file.id, name: file.name, bytes: out)
        let reparsed = Parser.parseProgram(again)
        guard !reparsed.diagnostics.hasErrors else {
            return .failure(.internalError("the formatted script does not parse: \(reparsed.diagnostics.all[0].message)"))
        }
        // The same tokens in the same order (only line breaks may move: a `then`) …
        let relayout = FormatLayout(file: again, tokens: Lexer.tokenize(again).tokens, tree: reparsed.tree)
        guard layout.codeTokens().elementsEqual(relayout.codeTokens(), by: ==) else {
            return .failure(.internalError("the formatted script's tokens differ"))
        }
        // … making the same tree (its dump quotes some source text, an easing's for one, whose
        // spaces may change).
        func shape(_ dump: String) -> [Character] { dump.filter { !$0.isWhitespace } }
        guard shape(ASTDumper(file: file).dump(parsed.tree)) == shape(ASTDumper(file: again).dump(reparsed.tree)) else {
            return .failure(.internalError("the formatted script parses to a different tree"))
        }
        guard layout.comments() == relayout.comments() else {
            return .failure(.internalError("the formatted script's comments differ"))
        }
        guard relayout.format() == out else {
            return .failure(.internalError("formatting the formatted script changes it again"))
        }
        return .success(out)
    }

    /// Formats source text (the REPL's, an editor's buffer): nil when it has syntax errors or
    /// the formatter could not keep its meaning.
    public static func format(text: String, name: String = "<buffer>") -> String? {
        let file = SourceFile(id: 0, name: name, bytes: Array(text.utf8))
        guard case .success(let out) = format(file) else { return nil }
        return String(decoding: out, as: UTF8.self)
    }
}

extension FormatLayout {
    /// Every token but line breaks, as its kind and bytes.
    func codeTokens() -> [Pair] {
        tokens.filter { $0.kind != .newline }.map { Pair(kind: $0.kind, text: file.bytes[Int($0.span.start)..<Int($0.span.end)]) }
    }

    struct Pair: Equatable {
        var kind: TokenKind
        var text: ArraySlice<UInt8>
    }

    /// Every comment's bytes, in order.
    func comments() -> [ArraySlice<UInt8>] {
        elements().compactMap { p in
            if case .comment(let r, _, _) = p.element { file.bytes[r] } else { nil }
        }
    }
}
