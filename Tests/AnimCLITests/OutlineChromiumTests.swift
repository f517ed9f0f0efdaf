// Outlines (issue 15) checked in a real browser: Tests/Pictures/outlines.anim, which uses every
// outline shape (line, ellipse, polygon, polyline, path) and stroke property (stroke,
// stroke-width, dash, dash-offset, line-cap, line-join, trim-start, trim-end, fill none) and
// animates them, rendered as anim's PNG frames (the FreeType vector layer) and compared with
// headless Chromium's rendering of the HTML player and of the animated SVG at several times,
// at the project's tolerance (ChromiumPixels): at most 0.5% of pixels more than 24 levels
// off in a channel, and a mean difference under 1 level.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Outlines in headless Chromium", .serialized)
struct OutlineChromiumTests {
    static let times = ["0", "0.6", "1.3", "2"]
    static var scene: String { PictureFixtures.directory.appendingPathComponent("outlines.anim").path }

    @Test("the HTML player draws outlines as anim's PNG frames do", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func player() throws {
        try ChromiumPixels.expectPlayerMatchesFrames(Self.scene, times: Self.times, name: "outlines", scratch: "outlines-html")
    }

    @Test("the animated SVG draws outlines as anim's PNG frames do", .enabled(if: Consumers.chromium != nil, Consumers.skipNote("chromium")))
    func svg() throws {
        try ChromiumPixels.expectSVGMatchesFrames(Self.scene, times: Self.times, name: "outlines", scratch: "outlines-svg")
    }
}

/// The outline shapes and strokes in the Lottie export, by the document's structure (the
/// pictures are checked in LottiePlayerTests): which items each shape becomes, where its path
/// lies, how its stroke, dashes and trims are written, and what the export warns of.
@Suite("Outlines in the Lottie export")
struct OutlineLottieTests {
    /// Exports `script`; the command's result and the document's layers by name.
    static func export(_ script: String, _ name: String) throws -> (RunResult, [String: [String: Any]]) {
        let dir = try ScratchDirectory(name)
        defer { dir.remove() }
        let source = dir.path("s.anim"), json = dir.path("s.json")
        try script.write(toFile: source, atomically: true, encoding: .utf8)
        let r = try runAnim(["export", source, "-o", json, "--lottie", "--fps", "30"])
        try #require(r.exitCode == 0, Comment(rawValue: r.stderr))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        var layers: [String: [String: Any]] = [:]
        for l in (doc["layers"] as? [[String: Any]]) ?? [] { layers[l["nm"] as? String ?? ""] = l }
        return (r, layers)
    }

    /// Every shape item of a layer, groups walked, in order.
    static func items(_ layer: [String: Any]?) -> [[String: Any]] {
        func walk(_ its: [[String: Any]]) -> [[String: Any]] {
            its.flatMap { it in (it["ty"] as? String) == "gr" ? [it] + walk(it["it"] as? [[String: Any]] ?? []) : [it] }
        }
        return walk(layer?["shapes"] as? [[String: Any]] ?? [])
    }

    static func types(_ layer: [String: Any]?) -> [String] { items(layer).compactMap { $0["ty"] as? String } }

    static func numbers(_ x: Any?) -> [Double] { (x as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } ?? [] }

    @Test("each outline kind is drawn: paths or ellipses, fills, strokes with caps, joins, dashes and trims")
    func kinds() throws {
        let (r, layers) = try Self.export("""
            line rule from (0, 0) to (100, 0) stroke black stroke-width 2 line-cap round trim-end 0.5
            ellipse blob center (50, 50) size (40, 20) fill teal
            ellipse ring center (50, 50) size (40, 20) fill none stroke navy dash (6, 3) dash-offset 2
            polygon tri points [(0, 0), (40, 0), (20, 30)] fill orange stroke red line-join bevel
            polyline zig points [(0, 0), (10, 10), (20, 0)] fill none stroke navy stroke-width 3 line-cap square
            path wave d "M 0 0 C 10 10 20 10 30 0" fill none stroke purple
            rect card center (50, 50) size (40, 20) stroke black stroke-width 2
            circle dot center (20, 20) radius 5
            """, "outlines-lottie-kinds")
        #expect(r.stderr.isEmpty, Comment(rawValue: r.stderr))
        for name in ["rule", "blob", "ring", "tri", "zig", "wave", "card", "dot"] { #expect(layers[name] != nil, "no layer \(name)") }
        // A line has no fill; a trimmed stroke has its own group, so the trim cuts no fill.
        #expect(Self.types(layers["rule"]) == ["gr", "gr", "sh", "tm", "st", "tr", "tr"], "\(Self.types(layers["rule"]))")
        #expect(Self.types(layers["blob"]).contains("el") && !Self.types(layers["blob"]).contains("st"))
        // A dashed ellipse is a path: Lottie's `el` starts elsewhere than anim's outline.
        #expect(Self.types(layers["ring"]).contains("sh") && !Self.types(layers["ring"]).contains("el"))
        #expect(Self.types(layers["card"]).contains("rc") && Self.types(layers["card"]).contains("st"))
        #expect(!Self.types(layers["dot"]).contains("st"))
        func stroke(_ name: String) -> [String: Any]? { Self.items(layers[name]).first { ($0["ty"] as? String) == "st" } }
        #expect(stroke("rule")?["lc"] as? Int == 2 && stroke("rule")?["lj"] as? Int == 1 && stroke("rule")?["ml"] as? Int == 4)
        #expect(stroke("tri")?["lj"] as? Int == 3 && stroke("zig")?["lc"] as? Int == 3 && stroke("wave")?["lc"] as? Int == 1)
        let dashes = (stroke("ring")?["d"] as? [[String: Any]]) ?? []
        #expect(dashes.map { $0["n"] as? String ?? "" } == ["d", "g", "o"])
        #expect(dashes.map { (($0["v"] as? [String: Any])?["k"] as? NSNumber)?.doubleValue ?? -1 } == [6, 3, 2])
        let trim = try #require(Self.items(layers["rule"]).first { ($0["ty"] as? String) == "tm" })
        #expect(((trim["e"] as? [String: Any])?["k"] as? NSNumber)?.doubleValue == 50 && trim["m"] as? Int == 2)
        // The polyline's fill is none: its fill item is transparent.
        let fill = try #require(Self.items(layers["zig"]).first { ($0["ty"] as? String) == "fl" })
        #expect(((fill["o"] as? [String: Any])?["k"] as? NSNumber)?.doubleValue == 0)
    }

    @Test("a point shape's path is in its own coordinates, about the centre of its points' box")
    func placement() throws {
        let (_, layers) = try Self.export("""
            polygon tri points [(0, 0), (40, 0), (20, 30)] offset (5, 5) anchor (0, 0) rotation 10
            """, "outlines-lottie-place")
        let tri = try #require(layers["tri"])
        let ks = try #require(tri["ks"] as? [String: Any])
        // The box is (0, 0)…(40, 30), centre (20, 15); the anchor (0, 0) is its corner, (−20, −15).
        #expect(Self.numbers((ks["a"] as? [String: Any])?["k"]) == [-20, -15, 0])
        #expect(Self.numbers((ks["p"] as? [String: Any])?["k"]) == [5, 5, 0])
        let path = try #require(Self.items(tri).first { ($0["ty"] as? String) == "sh" })
        let shape = try #require((path["ks"] as? [String: Any])?["k"] as? [String: Any])
        #expect((shape["v"] as? [[Any]])?.map(Self.numbers) == [[-20, -15], [20, -15], [0, 15]])
        #expect(shape["c"] as? Bool == true)
    }

    @Test("a morph is fitted path keys of one vertex count, across command structures too")
    func morphs() throws {
        let (_, layers) = try Self.export("""
            polygon tri points [(0, 0), (40, 0), (20, 30)]
            path blob d "M 0 0 L 40 0 L 40 40 Z"
            animate 1 < tri.points = [(10, 10), (60, 0), (20, 50)]; blob.d = "M 0 0 C 40 0, 40 40, 0 40 Z" >
            """, "outlines-lottie-morph")
        func keys(_ name: String) -> [[String: Any]] {
            let path = Self.items(layers[name]).first { ($0["ty"] as? String) == "sh" }
            return ((path?["ks"] as? [String: Any])?["k"] as? [[String: Any]]) ?? []
        }
        let tri = keys("tri"), blob = keys("blob")
        #expect(tri.count >= 2 && tri.count < 31, "\(tri.count) keys")
        #expect(tri.dropLast().allSatisfy { $0["h"] == nil && $0["o"] != nil }, "the points' morph is not eased keys")
        // The resampled morph has more vertices than the square it starts from, which is padded.
        let counts = Set(blob.map { (($0["s"] as? [[String: Any]])?.first?["v"] as? [Any])?.count ?? -1 })
        #expect(counts.count == 1 && (counts.first ?? 0) > 4, "vertex counts \(counts)")
        #expect(blob.count > 2 && blob.count < 31 && blob.dropLast().contains { $0["o"] != nil }, "\(blob.count) keys")
    }

    @Test("a stroke is transparent where its width is 0 (a canvas would keep its last width)")
    func zeroWidth() throws {
        let (_, layers) = try Self.export("""
            rect card center (50, 50) size (40, 20) stroke black stroke-width 0
            rect wide center (50, 50) size (40, 20) stroke black stroke-width 2
            animate 1 < card.stroke-width = 4; wide.stroke-width = 4 >
            """, "outlines-lottie-width")
        func opacity(_ name: String) -> Any? {
            (Self.items(layers[name]).first { ($0["ty"] as? String) == "st" }?["o"] as? [String: Any])?["k"]
        }
        let keys = try #require(opacity("card") as? [[String: Any]])
        #expect(Self.numbers(keys.first?["s"]) == [0] && Self.numbers(keys.last?["s"]) == [100])
        #expect((opacity("wide") as? NSNumber)?.doubleValue == 100)
    }

    @Test("the export warns of a translucent stroke over a fill and of caps or joins that change")
    func warnings() throws {
        let (r, _) = try Self.export("""
            rect ghost center (50, 50) size (40, 20) stroke black stroke-width 4 alpha 0.5
            rect solid center (50, 50) size (40, 20) stroke black stroke-width 4
            circle ring radius 10 fill none stroke black alpha 0.5
            line rule from (0, 0) to (100, 0) stroke black
            wait 1
            set rule.line-cap = round
            """, "outlines-lottie-warn")
        #expect(r.stderr.contains("shows through the inner half of its stroke ('ghost')"), Comment(rawValue: r.stderr))
        #expect(r.stderr.contains("they change later in 'rule'"), Comment(rawValue: r.stderr))
    }
}
