// Session+Format: `anim fmt` through a session, so that a script's syntax errors are shown
// exactly as `anim check` shows them (same renderer, same limit on how many).

extension Session {
    /// The formatted bytes of a script, or nil after reporting why not: its syntax errors, or
    /// an internal error when the formatter could not keep the script's meaning.
    public func format(name: String, bytes: [UInt8]) -> [UInt8]? {
        let file = sources.add(name: name, bytes: bytes)
        switch Formatter.format(file) {
        case .success(let out):
            return out
        case .failure(.syntax(let diagnostics)):
            report(diagnostics)
            return nil
        case .failure(.internalError(let reason)):
            errorCount += 1
            output.standardError("anim: internal error: \(renderer.displayName(file)) was left as it is: \(reason) (please report this)\n")
            return nil
        }
    }
}
