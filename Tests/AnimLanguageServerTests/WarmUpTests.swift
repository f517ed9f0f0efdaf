// The script `anim lsp` warms up on checks and runs clean: a script with an error would stop at
// the check and leave the timing run cold.
import AnimCore
@testable import AnimLanguageServer
import Testing

@Suite struct WarmUpTests {
    @Test func theWarmUpScriptChecksAndRunsClean() {
        let d = Session.diagnose(name: "warm-up.anim", bytes: Array(LanguageServer.warmUpScript.utf8))
        #expect(d.diagnostics.isEmpty, "\(d.diagnostics.map(\.message))")
        #expect(d.report.duration != nil)
        #expect(!d.stopped)
    }
}
