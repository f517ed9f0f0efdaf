// Marker tests: `.anim` files under Markers/ with requests at marked positions and their
// expected answers, golden like the script suites. A marker is a comment line with a `^`
// under a character of the nearest line above it that is not a marker or an expectation,
// followed by the request: `#     ^ hover`. A request about the whole document is a line of
// its own: `#% symbols`. The expected answer follows as `#= ` lines, rendered as text
// (positions are 1-based line:column, columns in UTF-8 bytes). Requests: hover, definition,
// references, rename NAME, completion, signature, codeaction; symbols, folding, hints, and
// tokens (those of the lines above it).
// The whole file, markers and expectations included, is the document the server sees.
// `ANIM_RECORD_MARKERS=1 swift test --filter MarkerTests` rewrites the expectations (to a
// fixed point: writing them moves the lines below); read the diff.
import AnimCore
@testable import AnimLanguageServer
import Foundation
import Testing

enum Markers {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Markers")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".anim") }.sorted()
    }

    /// One request in a file: the line index of its marker, the request, and the position.
    struct Marker {
        var line: Int
        var request: String
        var argument: String?
        var position: Position?
    }

    static func markers(_ lines: [String]) -> [Marker] {
        var out: [Marker] = []
        var target = -1
        for (k, l) in lines.enumerated() {
            if l.hasPrefix("#= ") || l == "#=" { continue }
            if l.hasPrefix("#% ") {
                let words = l.dropFirst(3).split(separator: " ").map(String.init)
                out.append(Marker(line: k, request: words[0], argument: words.dropFirst().first, position: nil))
                continue
            }
            if l.hasPrefix("#"), let caret = l.firstIndex(of: "^"), l[l.index(after: l.startIndex)..<caret].allSatisfy({ $0 == " " }) {
                let column = l.utf8.distance(from: l.utf8.startIndex, to: caret.samePosition(in: l.utf8)!)
                let words = l[l.index(after: caret)...].split(separator: " ").map(String.init)
                out.append(Marker(line: k, request: words[0], argument: words.dropFirst().first,
                                  position: Position(line: target, character: column)))
                continue
            }
            target = k
        }
        return out
    }

    static func position(_ p: JSON?) -> String {
        guard let l = p?["line"]?.int, let c = p?["character"]?.int else { return "?" }
        return "\(l + 1):\(c + 1)"
    }

    static func range(_ r: JSON?) -> String { "\(position(r?["start"]))-\(position(r?["end"]))" }

    /// The rendered answer of one request.
    static func answer(_ m: Marker, client: TestClient, uri: String, text: DocumentText) -> [String] {
        var params: [String: JSON] = ["textDocument": ["uri": .string(uri)]]
        if let p = m.position { params["position"] = p.json }
        func call(_ method: String) -> JSON? {
            let r = client.request(method, .object(params))
            if let e = r?["error"] { return ["error": e] }
            return r?["result"]
        }
        func lines(_ s: String) -> [String] { s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        switch m.request {
        case "hover":
            guard let r = call("textDocument/hover"), r != .null else { return ["(none)"] }
            return lines(r["contents"]?["value"]?.string ?? "?") + ["range " + range(r["range"])]
        case "definition":
            guard let r = call("textDocument/definition"), r != .null else { return ["(none)"] }
            return [range(r["range"])]
        case "references":
            params["context"] = ["includeDeclaration": true]
            guard let r = call("textDocument/references")?.array else { return ["(none)"] }
            return r.map { range($0["range"]) }
        case "rename":
            params["newName"] = .string(m.argument ?? "")
            guard let r = call("textDocument/rename") else { return ["(none)"] }
            if let e = r["error"] { return ["refused: \(e["message"]?.string ?? "?")"] }
            return (r["changes"]?[uri]?.array ?? []).map { "\(range($0["range"])) → \($0["newText"]?.string ?? "?")" }
        case "completion":
            let items = call("textDocument/completion")?["items"]?.array ?? []
            var out = items.prefix(40).map { i in
                "\(i["label"]?.string ?? "?")" + (i["insertText"]?.string.map { " ⟦\($0)⟧" } ?? "") + (i["detail"]?.string.map { " — \($0)" } ?? "")
            }
            if items.count > 40 { out.append("… \(items.count - 40) more") }
            return out.isEmpty ? ["(none)"] : out
        case "signature":
            guard let r = call("textDocument/signatureHelp"), r != .null else { return ["(none)"] }
            let s = r["signatures"]?.array?.first
            return ["\(s?["label"]?.string ?? "?") [parameter \(r["activeParameter"]?.int ?? -1)]"]
        case "codeaction":
            params["range"] = ["start": m.position!.json, "end": m.position!.json]
            params["context"] = ["diagnostics": []]
            let r = call("textDocument/codeAction")?.array ?? []
            let out = r.map { act -> String in
                let e = act["edit"]?["changes"]?[uri]?.array?.first
                return "\(act["title"]?.string ?? "?"): \(range(e?["range"])) → '\(e?["newText"]?.string ?? "?")'"
            }
            return out.isEmpty ? ["(none)"] : out
        case "symbols":
            func render(_ s: JSON, _ depth: Int) -> [String] {
                let line = String(repeating: "  ", count: depth) + "\(s["kind"]?.int ?? 0) \(s["name"]?.string ?? "?")"
                    + (s["detail"]?.string.map { " (\($0))" } ?? "") + " \(range(s["range"])) name \(range(s["selectionRange"]))"
                return [line] + (s["children"]?.array ?? []).flatMap { render($0, depth + 1) }
            }
            return (call("textDocument/documentSymbol")?.array ?? []).flatMap { render($0, 0) }
        case "folding":
            return (call("textDocument/foldingRange")?.array ?? []).map { "\(($0["startLine"]?.int ?? 0) + 1)-\(($0["endLine"]?.int ?? 0) + 1)" }
        case "hints":
            return (call("textDocument/inlayHint")?.array ?? []).map { "\(position($0["position"])) \($0["label"]?.string ?? "?")" }
        case "tokens":
            let legend = SemanticTokens.types
            let data = call("textDocument/semanticTokens/full")?["data"]?.array?.compactMap(\.int) ?? []
            var out: [String] = []
            var line = 0, char = 0
            for k in stride(from: 0, to: data.count - 4, by: 5) {
                line += data[k]
                char = data[k] == 0 ? char + data[k + 1] : data[k + 1]
                // Only the lines above the request (not its own expectations).
                if line >= m.line { break }
                let start = text.offset(of: Position(line: line, character: char), encoding: .utf8)
                let word = String(decoding: text.bytes[start..<min(text.bytes.count, start + data[k + 2])], as: UTF8.self)
                let mods = SemanticTokens.modifiers.enumerated().filter { data[k + 4] & (1 << $0.offset) != 0 }.map(\.element)
                out.append("\(line + 1):\(char + 1) \(legend[data[k + 3]])\(mods.isEmpty ? "" : "+" + mods.joined(separator: "+")) \(word)")
            }
            return out
        default:
            return ["unknown request '\(m.request)'"]
        }
    }

    /// The file with every marker's expectation replaced by the server's answer.
    static func answered(_ source: String, name: String) -> String {
        let client = TestClient()
        client.initialize(encodings: ["utf-8"])
        let uri = "file:///markers/\(name)"
        client.open(uri, source)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let text = DocumentText(source)
        let ms = markers(lines)
        var out: [String] = []
        var k = 0
        var next = 0
        while k < lines.count {
            out.append(lines[k])
            if next < ms.count, ms[next].line == k {
                out += answer(ms[next], client: client, uri: uri, text: text).map { $0.isEmpty ? "#=" : "#= \($0)" }
                next += 1
                k += 1
                while k < lines.count, lines[k].hasPrefix("#= ") || lines[k] == "#=" { k += 1 }
                continue
            }
            k += 1
        }
        return out.joined(separator: "\n")
    }
}

@Suite struct MarkerTests {
    @Test("marker files", arguments: Markers.files)
    func markerFile(_ name: String) throws {
        let url = Markers.directory.appendingPathComponent(name)
        let source = try String(contentsOf: url, encoding: .utf8)
        if ProcessInfo.processInfo.environment["ANIM_RECORD_MARKERS"] != nil {
            var current = source
            for _ in 0..<5 {
                let next = Markers.answered(current, name: name)
                if next == current { break }
                current = next
            }
            try current.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let answered = Markers.answered(source, name: name)
        #expect(answered == source, "\(name): the answers differ from the expectations:\n\(answered)")
    }

    @Test func everyRequestKindHasAFile() {
        let all = Markers.files.map { (try? String(contentsOf: Markers.directory.appendingPathComponent($0), encoding: .utf8)) ?? "" }.joined()
        for r in ["hover", "definition", "references", "rename", "completion", "signature", "codeaction", "symbols", "folding", "hints", "tokens"] {
            #expect(all.contains("^ \(r)") || all.contains("#% \(r)"), "no marker file uses '\(r)'")
        }
    }
}
