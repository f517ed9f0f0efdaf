// The HTML player's script is JavaScript inside a Swift string: a brace lost in a merge
// leaves every player page blank (its script a SyntaxError) while every Swift test of the
// page's data still passes. Node's parser (`node --check`, where installed) reads it as a
// browser would.
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("HTML player script")
struct HTMLPlayerScriptTests {
    static let node: String? = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("the player's script parses", .enabled(if: node != nil, "node is not installed"))
    func parses() throws {
        // With and without the lines that draw a text's glyphs (HTMLPlayerScript.script(glyphs:)).
        for script in [HTMLPlayerScript.source, HTMLPlayerScript.withGlyphs] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("anim-player-\(UUID().uuidString.prefix(8)).js")
            try script.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let r = try runProgram(URL(fileURLWithPath: Self.node!), ["--check", file.path])
            #expect(r.exitCode == 0, "\(r.stderr)")
        }
        #expect(HTMLPlayerScript.withGlyphs.contains("s.gl.forEach") && !HTMLPlayerScript.source.contains("s.gl"))
    }
}
