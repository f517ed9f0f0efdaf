// CI's `anim fmt --check` over the repository: every script in Tests/Scripts, Examples,
// Tests/Pictures and Scripts is in the formatter's layout, but for those it leaves as written
// (README, "anim fmt"): a script with syntax errors (deliberately malformed goldens), one that
// says `# fmt: off`, and a golden whose `#!` lines its formatted form would no longer match
// (they pin positions and quote source lines). `Scripts/fmt-scripts` formats them all so.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("The repository's scripts are formatted")
struct FormatRepositoryTests {
    @Test("anim fmt --check passes", arguments: FormatCase.repositoryPaths)
    func formatted(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let file = SourceFile(id: 0, name: path, bytes: bytes)
        guard case .success(let out) = Formatter.format(file), out != bytes else { return }
        let text = String(decoding: bytes, as: UTF8.self)
        if ScriptExpectations(text: text).diagnostics != nil {
            // Kept as written only if formatting would break what its `#!` lines pin.
            let formatted = ScriptTestRunner().run(path: path, bytes: out)
            #expect(!formatted.passed, "\(path) can be formatted without moving its diagnostics: run Scripts/fmt-scripts \(path)")
            return
        }
        Issue.record("\(path) is not formatted: run 'anim fmt -w \(path)' (or Scripts/fmt-scripts)")
    }

    @Test("the scripts are found")
    func found() {
        #expect(FormatCase.repositoryPaths.count > 300)
        #expect(FormatCase.repositoryPaths.contains("Examples/demo.anim"))
    }
}
