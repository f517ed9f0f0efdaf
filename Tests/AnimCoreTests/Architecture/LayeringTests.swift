// The library's passes depend one way: each folder of Sources/AnimCore may use the folders
// below it and never one above (or beside) it. This reads every source file, finds the types
// and top-level functions each folder declares, and reports every use of a name that only a
// higher (or same-level) folder declares.
//
// It works on names, not on the compiler's symbol graph: comments and string literals are
// skipped (so a name inside an interpolation `\(…)` is not seen), and a name declared in two
// folders is ambiguous and not counted. That errs towards missing an edge, never towards
// reporting one that is not there.
import AnimTestSupport
import Foundation
import Testing

@Suite("Layering")
struct LayeringTests {
    /// Each folder's level: a folder may use only folders of a lower level. Source, then
    /// Diagnostics and Values beside each other, Motion, then the passes in the order data flows
    /// (the formatter beside the checker: both read the syntax tree), Session on top (README's layout section says the same).
    static let levels: [String: Int] = [
        "Source": 0,
        "Diagnostics": 1, "Values": 1,
        "Motion": 2,
        "Syntax": 3,
        "Check": 4, "Format": 4,
        "Graph": 5,
        "Runtime": 6,
        "Engine": 7,
        "Output": 8, "Analysis": 8,
        "Session": 9,
    ]

    static let root = TestPaths.packageRoot.appendingPathComponent("Sources/AnimCore")

    /// Every Swift file of the library, by its top folder.
    static func files() throws -> [(folder: String, path: String, text: String)] {
        var out: [(String, String, String)] = []
        let fm = FileManager.default
        guard let walk = fm.enumerator(atPath: root.path) else { return [] }
        while let rel = walk.nextObject() as? String {
            guard rel.hasSuffix(".swift") else { continue }
            let folder = String(rel.split(separator: "/").first ?? "")
            let text = try String(contentsOf: root.appendingPathComponent(rel), encoding: .utf8)
            out.append((folder, rel, text))
        }
        return out.sorted { $0.1 < $1.1 }
    }

    @Test("every folder of the library has a level")
    func everyFolderHasALevel() throws {
        let folders = Set(try Self.files().map(\.folder))
        #expect(folders.subtracting(Self.levels.keys).isEmpty, "add the new folder to LayeringTests.levels: \(folders.subtracting(Self.levels.keys).sorted())")
        #expect(folders.count >= 10)
    }

    @Test("no folder uses a name declared only above it")
    func noUpwardReferences() throws {
        let files = try Self.files()
        var owners: [String: Set<String>] = [:]
        var functions = Set<String>()
        for f in files {
            for (name, isFunction) in SourceNames.declared(in: f.text) {
                owners[name, default: []].insert(f.folder)
                if isFunction { functions.insert(name) }
            }
        }
        var found: [String] = []
        for f in files {
            guard let level = Self.levels[f.folder] else { continue }
            var seen = Set<String>()
            // A function's name counts only where it is called: a local `let plain` is not a use
            // of a function `plain`.
            for (name, isCall) in SourceNames.uses(in: f.text) where isCall || !functions.contains(name) {
                guard seen.insert(name).inserted, let o = owners[name], o.count == 1, let owner = o.first, owner != f.folder,
                      let ownerLevel = Self.levels[owner], ownerLevel >= level else { continue }
                found.append("\(f.path) uses \(owner)'s \(name)")
            }
        }
        #expect(found.isEmpty, "references against the layering:\n\(found.joined(separator: "\n"))")
        // The scan must see the edges that are allowed, or it proves nothing.
        #expect(owners["Span"] == ["Source"] && owners["Interpreter"] == ["Runtime"])
    }

    @Test("the scan sees an upward reference when there is one")
    func scanFindsAPlantedEdge() {
        let runtime = "struct Track { var lanes: TimelineChart }"
        let output = "public struct TimelineChart {\n    struct Element {}\n}\nfunc chart() {}"
        #expect(SourceNames.declarations(in: output) == ["TimelineChart", "chart"])
        #expect(SourceNames.identifiers(in: runtime).contains("TimelineChart"))
        let hidden = "// TimelineChart\nlet s = \"TimelineChart \\(x)\"\n/* TimelineChart */"
        #expect(!SourceNames.identifiers(in: hidden).contains("TimelineChart"))
    }
}

/// Names in Swift source, with comments and string literals skipped.
enum SourceNames {
    /// The code of `text` with comments and string literals blanked out.
    static func code(_ text: String) -> [UInt8] {
        let b = Array(text.utf8)
        var out = [UInt8](repeating: 32, count: b.count)
        var i = 0
        func at(_ k: Int, _ s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard k + n <= b.count else { return false }
            let p = s.utf8Start
            for j in 0..<n where b[k + j] != p[j] { return false }
            return true
        }
        while i < b.count {
            if at(i, "//") {
                while i < b.count && b[i] != 10 { i += 1 }
            } else if at(i, "/*") {
                var depth = 0
                repeat {
                    if at(i, "/*") { depth += 1; i += 2 } else if at(i, "*/") { depth -= 1; i += 2 } else { i += 1 }
                } while depth > 0 && i < b.count
            } else if at(i, "\"\"\"") {
                i += 3
                while i < b.count && !at(i, "\"\"\"") { i += b[i] == 92 ? 2 : 1 }
                i += 3
            } else if b[i] == 34 {
                i += 1
                while i < b.count && b[i] != 34 && b[i] != 10 { i += b[i] == 92 ? 2 : 1 }
                i += 1
            } else {
                out[i] = b[i]
                i += 1
            }
        }
        return out
    }

    static func isIdentStart(_ c: UInt8) -> Bool { c == 95 || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
    static func isIdent(_ c: UInt8) -> Bool { isIdentStart(c) || (c >= 48 && c <= 57) }

    /// Every identifier in the code, in order.
    static func identifiers(in text: String) -> [String] { uses(in: text).map(\.name) }

    /// Every identifier in the code, in order, and whether it is called as a free function
    /// (followed by `(`, not preceded by `.`).
    static func uses(in text: String) -> [(name: String, isCall: Bool)] {
        let c = code(text)
        var out: [(name: String, isCall: Bool)] = []
        var i = 0
        while i < c.count {
            if isIdentStart(c[i]) && (i == 0 || !isIdent(c[i - 1])) {
                var j = i
                while j < c.count && isIdent(c[j]) { j += 1 }
                var k = j
                while k < c.count && c[k] == 32 { k += 1 }
                let call = k < c.count && c[k] == 40 && (i == 0 || c[i - 1] != 46)
                out.append((String(decoding: c[i..<j], as: UTF8.self), call))
                i = j
            } else {
                i += 1
            }
        }
        return out
    }

    /// The types, type aliases and functions the file declares at its top level (a line that
    /// starts with no indentation). Nested types are left out: outside their parent they are
    /// named through it, and their short names (`Element`, `Kind`) collide with the standard
    /// library's and each other's.
    static func declarations(in text: String) -> Set<String> { Set(declared(in: text).keys) }

    /// `declarations(in:)`, each with whether it is a function.
    static func declared(in text: String) -> [String: Bool] {
        let code = String(decoding: Self.code(text), as: UTF8.self)
        let introducers: Set<Substring> = ["struct", "enum", "class", "protocol", "typealias", "actor", "func"]
        let modifiers: Set<Substring> = ["public", "internal", "package", "final", "indirect", "fileprivate", "private"]
        var out: [String: Bool] = [:]
        for line in code.split(separator: "\n") where !line.hasPrefix(" ") && !line.hasPrefix("\t") {
            let words = line.split(separator: " ")
            guard let k = words.firstIndex(where: { introducers.contains($0) }), k + 1 < words.count,
                  words[..<k].allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }) else { continue }
            let name = words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty { out[String(name)] = words[k] == "func" }
        }
        return out
    }
}
