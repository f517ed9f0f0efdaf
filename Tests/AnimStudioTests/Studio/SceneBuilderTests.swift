// What `anim serve` builds from one save: the player page as `anim render x.html` writes it
// (plus the live script), the data the player embeds, and diagnostics exactly as `anim check`
// prints them.
@testable import AnimStudio
import AnimCore
import Foundation
import Testing

@Suite("Scene builds and the live page")
struct SceneBuilderTests {
    static let good = """
    stage 200 x 100
    rect sq center (0, 50) color red
    animate 1 < sq.center = (200, 50) >
    then < print "there" >
    """

    static func build(_ text: String, name: String = "live.anim") -> SceneBuild {
        SceneBuilder.build(name: name, contents: Array(text.utf8), options: SessionOptions(), fps: 30)
    }

    @Test("the image files a script names are among the files to watch")
    func imageFilesAreWatched() {
        let b = Self.build("image icon file \"no-such-icon.png\" size (10, 10)\n")
        #expect(!b.succeeded)
        #expect(b.loadedFiles == ["live.anim", "no-such-icon.png"])
    }

    @Test func aGoodScriptGivesThePlayerPageAndItsData() throws {
        let b = Self.build(Self.good)
        #expect(b.succeeded)
        #expect(b.diagnostics == "")
        #expect(b.end == Time(seconds: 1))
        #expect(b.loadedFiles == ["live.anim"])
        // The page is the player anim render writes, for the same run, with the script that draws
        // a text's glyphs (a later scene may have some: open pages take its data alone).
        var o = SessionOptions()
        o.fps = 30
        let reference = Session(options: o, output: CapturedOutput()).timeline(name: "live.anim", bytes: Array(Self.good.utf8))!
        var (shell, renderedData) = HTMLPlayer.parts(reference, fps: 30, title: "anim — live.anim")
        #expect(b.page != HTMLPlayer.page(shell, data: renderedData), "render's page for a run without glyphs has no glyph lines")
        shell.drawsGlyphs = true
        #expect(b.page == HTMLPlayer.page(shell, data: renderedData))
        let json = try #require(b.sceneJSON)
        let data = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(data["fps"] as? Int == 30)
        #expect((data["times"] as? [Double])?.count == 31)
        #expect((data["shapes"] as? [[String: Any]])?.first?["name"] as? String == "sq")
        #expect(((data["prints"] as? [[Any]])?.first?[1] as? String) == "there")
    }

    @Test func errorsAreTheDiagnosticsAnimCheckPrints() {
        let scripts = [
            "rect sq\nanimate 1 < sq.centre = (1, 1) >\n",
            "rect a\nrect a\n",
            "animate 1 < nothing.x = 1 >\nprint \"{\"\n",
            "rect sq\nwait 1\nat 0.5 < print \"late\" >\n",
            String(repeating: "oops(\n", count: 30),
        ]
        for text in scripts {
            let b = Self.build(text)
            #expect(!b.succeeded && b.page == nil && b.sceneJSON == nil)
            let captured = CapturedOutput()
            _ = Session(output: captured).check(name: "live.anim", bytes: Array(text.utf8))
            #expect(b.diagnostics == captured.error, "for \(text.debugDescription)")
            #expect(b.diagnostics.hasPrefix("live.anim:"))
        }
    }

    @Test func aFailedExpectationStillGivesAScene() {
        let b = Self.build("rect sq\nanimate 1 < sq.z = 10 >\nat 0.5 < expect sq.z == 99 >\n")
        #expect(b.succeeded)
        #expect(b.diagnostics.contains("live.anim:3:10: error: expectation failed at 0.500s"))
    }

    @Test func aMissingFileSaysWhy() {
        let b = SceneBuilder.build(name: "gone.anim", contents: nil, readError: "cannot read 'gone.anim': No such file or directory",
                                   options: SessionOptions(), fps: 60)
        #expect(!b.succeeded)
        #expect(b.diagnostics == "anim: error: cannot read 'gone.anim': No such file or directory\n")
    }

    @Test func aBuildCanBeStopped() {
        let b = SceneBuilder.build(name: "loop.anim", contents: Array("rect a\nrepeat 100000 < animate 1 < a.z = 1 > >\n".utf8),
                                   options: SessionOptions(), fps: 60, shouldStop: { true })
        #expect(!b.succeeded)
        #expect(b.diagnostics.contains("interrupted"))
    }

    @Test func theLiveScriptGoesBeforeTheBodyEnds() {
        let player = Self.build(Self.good).page!
        let page = LivePage.page(player: player, scene: 7)
        #expect(page.contains("var shown = 7,"))
        #expect(page.contains("new EventSource('/events')"))
        let script = "<script>\n\(LivePage.source(scene: 7))\n</script>\n"
        // Take the script out again and the player is what it was.
        #expect(page.replacingOccurrences(of: script, with: "") == player)
        #expect(page.hasSuffix(script + "</body>\n</html>\n"))
    }

    @Test func theWaitingPageEscapesTheFileName() {
        let page = LivePage.waitingPage(file: "<b>&\"x\".anim")
        #expect(page.contains("Waiting for &lt;b&gt;&amp;&quot;x&quot;.anim to run without errors"))
        #expect(!page.contains("<b>"))
        #expect(page.contains("var shown = 0,"))
    }

    @Test func failedExpectsAreFoundWithTheirTimes() {
        let b = SceneBuilder.build(name: "e.anim", contents: Array("""
            rect sq
            animate 1 < sq.center = (100, 0) >
            then < expect sq.center == (50, 0) >
            at 1.5 < expect sq.z == 1 >
            at 1.75 < expect sq.z == 0 >
            """.utf8), options: SessionOptions(), fps: 60)
        #expect(b.succeeded)
        let found = b.failedExpects
        #expect(found.map(\.seconds) == ["1.000", "1.500"])
        // Each is the whole diagnostic, as the run printed it; together they are all of it.
        #expect(found.map(\.text).joined() == b.diagnostics)
        #expect(found.first?.text.hasPrefix("e.anim:3:8: error: expectation failed at 1.000s") == true)
        #expect(SceneBuilder.failedExpects("x.anim:1:1: error: unknown name 'a'\n  1 | a\n    | ^\n").isEmpty)
    }

    @Test func theEmbeddedDataIsFoundAndOnlyIt() {
        #expect(SceneBuilder.embeddedData("<p>no data</p>") == nil)
        let page = "<script type=\"application/json\" id=\"anim-data\">{\"a\":\"\\u003c/script\\u003e\"}</script><script>x</script>"
        #expect(SceneBuilder.embeddedData(page) == "{\"a\":\"\\u003c/script\\u003e\"}")
    }
}
