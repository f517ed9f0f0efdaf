// ReplSession+Completion: what Tab offers — `:` commands at the start of a line, properties
// after `name.`, easing names after `ease`, otherwise keywords, names in scope and functions.

extension ReplSession {
    /// Completions for `word`, the text being completed; `before` is the line before it.
    public func completions(for word: String, before: String) -> [String] {
        let env = session.environment
        var candidates: [String] = []
        let lineStart = before.trimmingSpaces.isEmpty && buffer.isEmpty
        if word.hasPrefix(":") || (lineStart && word.isEmpty && before.hasSuffix(":")) {
            candidates = ReplSession.commands.map { ":" + $0.name }
        } else if let dot = word.lastIndex(of: ".") {
            let base = String(word[..<dot])
            candidates = propertyNames(ofBase: base).map { base + "." + $0 }
        } else if before.trimmingSpaces.hasSuffix(" ease") || before.trimmingSpaces == "ease" {
            candidates = Easing.allNames
        } else {
            candidates = Keyword.allCases.map(\.rawValue) + env.allNames + Builtin.allCases.filter { $0 != .velocity }.map(\.rawValue)
            if !word.isEmpty { candidates += CSSColors.table.keys }
            if lineStart { candidates += ReplSession.commands.map { ":" + $0.name } }
        }
        var seen = Set<String>()
        return candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }.sorted()
    }

    /// The properties of `base` when it names a shape (`square`, `card[2]`, `card`).
    func propertyNames(ofBase base: String) -> [String] {
        let env = session.environment
        var name = base
        if let open = base.firstIndex(of: "["), base.hasSuffix("]") { name = String(base[..<open]) }
        switch env.symbols[name] {
        case .shape(let id)?: return env.propertyNames(of: id)
        case .array(let first, _)?: return env.propertyNames(of: first)
        case .group(let ids)? where !ids.isEmpty: return env.propertyNames(of: ids[0])
        case .global(_, .point)?: return ["x", "y"]
        default: return []
        }
    }
}
