// ScriptTest: golden script tests. A `.anim` file carries its own expectations: `#> ` lines
// are its exact standard output in order, `#! ` lines its exact diagnostics (standard error,
// file names shown as base names), and `#: ` lines extra `anim run` flags. `anim test` and
// `swift test` both run files through `ScriptTestRunner`.

/// The expectations written inside a script.
public struct ScriptExpectations: Hashable, Sendable {
    /// `#> ` lines: the expected standard output, or nil when the file has none.
    public var output: [String]?
    /// `#! ` lines: the expected diagnostics, or nil when the file has none.
    public var diagnostics: [String]?
    /// `#: ` lines, split on spaces: flags for the run.
    public var flags: [String]

    /// Reads the expectation lines out of a script's text.
    public init(text: String) {
        var out: [String] = [], err: [String] = [], flags: [String] = []
        var hasOut = false, hasErr = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = Substring(raw)
            if line.last == "\r" { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("#>") {
                hasOut = true
                out.append(String(trimmed.dropFirst(2).dropFirst(trimmed.dropFirst(2).hasPrefix(" ") ? 1 : 0)))
            } else if trimmed.hasPrefix("#!") {
                hasErr = true
                err.append(String(trimmed.dropFirst(2).dropFirst(trimmed.dropFirst(2).hasPrefix(" ") ? 1 : 0)))
            } else if trimmed.hasPrefix("#:") {
                flags += trimmed.dropFirst(2).split(separator: " ").map(String.init)
            }
        }
        output = hasOut ? out : nil
        diagnostics = hasErr ? err : nil
        self.flags = flags
    }
}

/// The outcome of one script test.
public struct ScriptTestResult: Sendable {
    /// The file's path.
    public var path: String
    /// Whether it passed.
    public var passed: Bool
    /// Why it failed: a readable report with diffs (empty when passed).
    public var report: String

    /// Creates a result.
    public init(path: String, passed: Bool, report: String) {
        self.path = path
        self.passed = passed
        self.report = report
    }
}

/// Captures a session's two streams in memory.
public final class CapturedOutput: SessionOutput {
    /// Everything written to standard output.
    public private(set) var standard = ""
    /// Everything written to standard error.
    public private(set) var error = ""
    /// An empty capture.
    public init() {}
    public func standardOutput(_ text: String) { standard += text }
    public func standardError(_ text: String) { error += text }
}

/// Runs golden script tests.
public struct ScriptTestRunner: Sendable {
    /// Creates a runner.
    public init() {}

    /// Runs one script given its path and bytes.
    public func run(path: String, bytes: [UInt8]) -> ScriptTestResult {
        let text = String(decoding: bytes, as: UTF8.self)
        let expect = ScriptExpectations(text: text)
        var options: SessionOptions
        switch SessionOptions.parse(runFlags: expect.flags) {
        case .success(let o): options = o
        case .failure(let e):
            return ScriptTestResult(path: path, passed: false, report: "  bad '#:' flags: \(e.message)\n")
        }
        options.baseNamesOnly = true
        options.color = false
        let captured = CapturedOutput()
        let session = Session(options: options, output: captured)
        let code = session.run(name: path, bytes: bytes)
        let actualOut = lines(captured.standard)
        let actualErr = lines(captured.error).map(trimTrailing)
        var report = ""
        if let want = expect.output, want != actualOut {
            report += "  standard output differs (- expected, + actual):\n" + LineDiff.render(want, actualOut)
        }
        if let want = expect.diagnostics {
            let w = want.map(trimTrailing)
            if w != actualErr {
                report += "  diagnostics differ (- expected, + actual):\n" + LineDiff.render(w, actualErr)
            }
        } else if code != .success {
            report += "  the run failed (exit \(code.rawValue)):\n"
            report += actualErr.map { "    " + $0 + "\n" }.joined()
        }
        return ScriptTestResult(path: path, passed: report.isEmpty, report: report)
    }

    private func lines(_ s: String) -> [String] {
        var ls = s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if ls.last == "" { ls.removeLast() }
        return ls
    }

    private func trimTrailing(_ s: String) -> String {
        var t = Substring(s)
        while t.last == " " || t.last == "\t" { t = t.dropLast() }
        return String(t)
    }
}

/// A small line diff (longest common subsequence) for test reports.
public enum LineDiff {
    /// Lines prefixed `  `, `- ` (only expected) or `+ ` (only actual), indented by four spaces.
    public static func render(_ a: [String], _ b: [String]) -> String {
        let n = a.count, m = b.count
        // Bound the quadratic table: long outputs fall back to a plain listing.
        guard n * m <= 4_000_000 else {
            return a.map { "    - \($0)\n" }.joined() + b.map { "    + \($0)\n" }.joined()
        }
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out = "", i = 0, j = 0
        while i < n || j < m {
            // On a tie, expected lines go first: a changed line reads `- old` then `+ new`.
            if i < n, j < m, a[i] == b[j] { out += "      \(a[i])\n"; i += 1; j += 1 } else if i < n, j == m || lcs[i + 1][j] >= lcs[i][j + 1] {
                out += "    - \(a[i])\n"; i += 1
            } else { out += "    + \(b[j])\n"; j += 1 }
        }
        return out
    }
}
