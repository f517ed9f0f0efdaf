// A change back to a text analysed lately (a character typed and deleted, an undo) is that
// analysis again, published at the new version; any other text is analysed. And the threads
// analyses run on go with their server.
import AnimCore
@testable import AnimLanguageServer
import Foundation
import Testing

@Suite struct RecentAnalysesTests {
    static let uri = "file:///recent.anim"
    // A run-time warning (two steps write a.center at once, from the time the wait ends), so
    // the diagnostics are the run's.
    static let script = "rect a size (10, 10)\nanimate 1 < a.center = (5, 5) >\nwait 0.5\nanimate 0.5 < a.center = (9, 9) >\n"

    static func insert(_ text: String, line: Int, character: Int) -> JSON {
        let at: JSON = ["line": .int(line), "character": .int(character)]
        return ["range": ["start": at, "end": at], "text": .string(text)]
    }

    static func delete(line: Int, from: Int, to: Int) -> JSON {
        ["range": ["start": ["line": .int(line), "character": .int(from)], "end": ["line": .int(line), "character": .int(to)]], "text": ""]
    }

    @Test func aTextAnalysedLatelyIsThatAnalysisAgain() throws {
        let client = TestClient()
        client.initialize()
        client.open(Self.uri, Self.script)
        let first = try #require(client.diagnostics(Self.uri, version: 1))
        #expect(first.count == 1, "\(first)")
        let analyzer = try #require(client.server.analyzerForTests)
        let original = try #require(analyzer.analysis(of: Self.uri))
        // `wait 0.5` → `wait 0.55` (analysed in full), then back.
        client.change(Self.uri, version: 2, [Self.insert("5", line: 2, character: 8)])
        let changed = try #require(client.diagnostics(Self.uri, version: 2))
        let second = try #require(analyzer.analysis(of: Self.uri))
        #expect(second.lazyScript !== original.lazyScript)
        #expect(changed.first?["message"] != first.first?["message"], "the warning names the time it takes over")
        client.change(Self.uri, version: 3, [Self.delete(line: 2, from: 8, to: 9)])
        let back = try #require(client.diagnostics(Self.uri, version: 3))
        #expect(back == first)
        let again = try #require(analyzer.analysis(of: Self.uri))
        #expect(again.version == 3)
        #expect(again.lazyScript === original.lazyScript, "the first analysis again")
        // And again to the second text: the same.
        client.change(Self.uri, version: 4, [Self.insert("5", line: 2, character: 8)])
        #expect(client.diagnostics(Self.uri, version: 4) == changed)
        #expect(try #require(analyzer.analysis(of: Self.uri)).lazyScript === second.lazyScript)
        // A text not seen is analysed.
        client.change(Self.uri, version: 5, [Self.insert("5", line: 2, character: 9)])
        _ = client.diagnostics(Self.uri, version: 5)
        let fresh = try #require(analyzer.analysis(of: Self.uri))
        #expect(fresh.lazyScript !== original.lazyScript && fresh.lazyScript !== second.lazyScript)
    }

    @Test func onlyTheLastFewAreKept() throws {
        let client = TestClient()
        client.initialize()
        client.open(Self.uri, Self.script)
        _ = client.diagnostics(Self.uri, version: 1)
        let analyzer = try #require(client.server.analyzerForTests)
        let original = try #require(analyzer.analysis(of: Self.uri))
        // As many other texts as are kept, each a wait of its own, then the first text again.
        for k in 0..<Analyzer.recentCount {
            client.change(Self.uri, version: k + 2, [Self.insert("\(k + 1)", line: 2, character: 8 + k)])
            _ = client.diagnostics(Self.uri, version: k + 2)
        }
        let last = Analyzer.recentCount + 2
        client.change(Self.uri, version: last, [Self.delete(line: 2, from: 8, to: 8 + Analyzer.recentCount)])
        _ = client.diagnostics(Self.uri, version: last)
        let again = try #require(analyzer.analysis(of: Self.uri))
        #expect(again.lazyScript !== original.lazyScript, "analysed again: it was no longer kept")
    }

    @Test func anEmptyTextAgain() throws {
        let client = TestClient()
        client.initialize()
        client.open(Self.uri, "")
        #expect(client.diagnostics(Self.uri, version: 1) == [])
        client.change(Self.uri, version: 2, [["text": "rect a\nrect a\n"]])
        #expect(client.diagnostics(Self.uri, version: 2)?.count == 1)
        client.change(Self.uri, version: 3, [["text": ""]])
        #expect(client.diagnostics(Self.uri, version: 3) == [])
        client.change(Self.uri, version: 4, [["text": ""]])
        #expect(client.diagnostics(Self.uri, version: 4) == [])
    }

    @Test func aServerTakesItsThreadsWithIt() throws {
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }
        // One server first, so that threads the process makes once (the dispatch pool's) exist.
        do {
            let c = TestClient()
            c.initialize()
            c.open(Self.uri, Self.script)
            _ = c.diagnostics(Self.uri, version: 1)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let before = threads()
        for _ in 0..<10 {
            let c = TestClient()
            c.initialize()
            c.open(Self.uri, Self.script)
            _ = c.diagnostics(Self.uri, version: 1)
        }
        // Each server's three analysis threads quit when it goes.
        var after = threads()
        for _ in 0..<50 where after > before + AnalysisThreads.count {
            Thread.sleep(forTimeInterval: 0.1)
            after = threads()
        }
        #expect(after <= before + AnalysisThreads.count, "\(before) threads before ten servers, \(after) after")
    }
}
