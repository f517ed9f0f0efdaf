// The golden script suites under Tests/Scripts and the bundled Examples, run through the same
// ScriptTestRunner as `anim test`: one parameterised test case per file.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Golden scripts")
struct ScriptSuiteTests {
    static let files = TestPaths.scripts(under: TestPaths.scripts) + TestPaths.scripts(under: TestPaths.examples)

    @Test("script passes", arguments: files)
    func script(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let bytes = try [UInt8](Data(contentsOf: url))
        let result = ScriptTestRunner().run(path: path, bytes: bytes)
        #expect(result.passed, Comment(rawValue: "\(path)\n" + result.report))
    }

    @Test("the suites are found")
    func suitesExist() {
        #expect(ScriptSuiteTests.files.count >= 1)
    }
}
