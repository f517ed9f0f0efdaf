// The picture scripts: each `.anim` file in Tests/Scripts/pictures carries, in `#| ` lines, the
// terminal chart `anim timeline --width 80` draws of it (with its `#: ` flags), and the chart
// must match line for line. The scripts also run as ordinary golden scripts. With
// RECORD_SNAPSHOTS set, the `#| ` lines are re-recorded (read the diff before committing).
@testable import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Timeline charts of the picture scripts")
struct TimelineScriptTests {
    static let files = TestPaths.scripts(under: TestPaths.scripts.appendingPathComponent("pictures"))

    /// The chart of a script, as `anim timeline --width 80` draws it when piped.
    static func chart(_ text: String, path: String) -> String? {
        let expect = ScriptExpectations(text: text)
        var options = (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions()
        options.baseNamesOnly = true
        let session = Session(options: options, output: CapturedOutput())
        guard let t = session.timeline(name: path, bytes: Array(text.utf8)) else { return nil }
        return TimelineChart.render(t, width: 80, color: false)
    }

    @Test("the chart matches its #| lines", arguments: files)
    func matches(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = lines.filter { $0.hasPrefix("#|") }.map { String($0.dropFirst($0.hasPrefix("#| ") ? 3 : 2)) }
        let chart = try #require(Self.chart(text, path: path), "\(path) did not run")
        let actual = chart.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            var kept = lines.filter { !$0.hasPrefix("#|") }
            while kept.last == "" { kept.removeLast() }
            try (kept + actual.map { "#| " + $0 } + [""]).joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(!expected.isEmpty, "\(path) has no #| lines (RECORD_SNAPSHOTS=1 records them)")
        if expected != actual {
            let line = (0..<min(expected.count, actual.count)).first { expected[$0] != actual[$0] } ?? min(expected.count, actual.count)
            Issue.record("""
                \(path): the chart differs at line \(line + 1)
                  expected: \(line < expected.count ? expected[line] : "<end>")
                  actual:   \(line < actual.count ? actual[line] : "<end>")
                the whole chart:
                \(chart)
                """)
        }
    }

    @Test("no lane is named '?' and every bar names what it moved", arguments: files)
    func labels(_ path: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        let expect = ScriptExpectations(text: text)
        let session = Session(options: (try? SessionOptions.parse(runFlags: expect.flags).get()) ?? SessionOptions(), output: CapturedOutput())
        let t = try #require(session.timeline(name: path, bytes: Array(text.utf8)))
        let lanes = TimelineLanes(t)
        for lane in lanes.lanes { #expect(!lane.label.contains("?"), "\(path): lane '\(lane.label)'") }
        for bar in lanes.bars where bar.kind == .tween || bar.kind == .spring {
            #expect(!bar.properties.isEmpty && !bar.label.contains("?"), "\(path): bar '\(bar.label)'")
            #expect(bar.end > bar.begin, "\(path): bar '\(bar.label)' lasts no time")
        }
    }
}
