// ReplSession+Completion: what Tab offers — `:` commands at the start of a line and their
// arguments, properties after `name.` (and `x`/`y` after a point), easing names after `ease`,
// otherwise keywords, names in scope, functions and (once a word is started) color names.

extension ReplSession {
    /// Completions for `word`, the text being completed; `before` is the input before it.
    public func completions(for word: String, before: String) -> [String] {
        let env = session.environment
        let line = before.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        let lineStart = line.trimmingSpaces.isEmpty && buffer.isEmpty
        let trimmed = line.trimmingSpaces
        var candidates: [String] = []
        if trimmed.hasPrefix(":") && buffer.isEmpty {
            // The argument of a command.
            switch trimmed.dropFirst().split(separator: " ").first.map(String.init) ?? "" {
            case "auto": candidates = ["on", "off"]
            case "inspect":
                candidates = word.contains(".") ? propertyCompletions(of: word) : env.allNames
            default: return []
            }
        } else if word.hasPrefix(":") {
            guard lineStart else { return [] }
            candidates = ReplSession.commands.map { ":" + $0.name }
        } else if word.contains(".") {
            candidates = propertyCompletions(of: word)
        } else if trimmed.hasSuffix(" ease") || trimmed == "ease" {
            candidates = Easing.allNames
        } else {
            candidates = Keyword.allCases.map(\.rawValue) + env.allNames + Builtin.allCases.filter { $0 != .velocity }.map(\.rawValue)
            if lineStart { candidates += ShapeKind.contextualKinds.map(\.rawValue) }
            if !word.isEmpty { candidates += CSSColors.table.keys }
            if lineStart { candidates += ReplSession.commands.map { ":" + $0.name } }
        }
        var seen = Set<String>()
        return candidates.filter { $0.hasPrefix(word) && seen.insert($0).inserted }.sorted()
    }

    /// Whether Tab should complete file names here: the argument of `:load`.
    public func completesFileNames(before: String) -> Bool {
        buffer.isEmpty && before.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix(":load ")
    }

    /// Whether a space should follow a completion that is the only match: after keywords and
    /// after commands that take an argument, not after names (a `.` may follow).
    public func appendsSpace(after completion: String) -> Bool {
        if completion.hasPrefix(":") {
            return ["load", "step", "until", "seek", "inspect", "auto"].contains(String(completion.dropFirst()))
        }
        return Keyword(rawValue: completion) != nil && session.environment.symbol(named: completion) == nil
    }

    /// `square.ce` → `square.center`; `square.center.` → `.x`, `.y`.
    func propertyCompletions(of word: String) -> [String] {
        guard let dot = word.lastIndex(of: ".") else { return [] }
        let base = String(word[..<dot])
        return propertyNames(ofBase: base).map { base + "." + $0 }
    }

    /// The properties of `base` when it names a shape (`square`, `card[2]`, `card`, a group),
    /// `x` and `y` when it is a point (`square.center`, a point binding).
    func propertyNames(ofBase base: String) -> [String] {
        let env = session.environment
        var name = base
        var property: String?
        if let dot = base.firstIndex(of: ".") {
            name = String(base[..<dot])
            property = String(base[base.index(after: dot)...])
        }
        if let open = name.firstIndex(of: "["), name.hasSuffix("]") { name = String(name[..<open]) }
        let shape: ShapeID?
        switch env.symbol(named: name) {
        case .shape(let id)?: shape = id
        case .array(let first, _)?: shape = first
        case .group(let ids)? where !ids.isEmpty: shape = ids[0]
        case .global(_, .point)? where property == nil: return ["x", "y"]
        default: shape = nil
        }
        guard let id = shape else { return [] }
        guard let p = property else { return env.propertyNames(of: id) }
        guard let pid = env.propertyID(named: p), env.kind(of: pid, on: id) == .point else { return [] }
        return ["x", "y"]
    }
}
