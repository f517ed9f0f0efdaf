// A text whose glyphs are animated (`title.glyphs`) in the Lottie export
// (Output/Lottie/LottieGlyphs.swift): each moved glyph is a group of its own with its outline,
// its fill and a keyed group transform — turned and scaled about its advance box's centre,
// moved by its offset at the layout's reference size — whose values, read as a player reads
// Lottie keyframes (LottieBakingTests.evaluate), are within the channels' bounds of anim's own
// glyph values (StageFrame.glyphs) between frames; the glyphs never moved stay plain paths
// under the text's fill, and the string's group has no fill that would paint the glyph groups.
@testable import AnimCore
import Foundation
import Testing

@Suite("Lottie export of animated glyphs")
struct LottieGlyphsTests {
    static let script = """
        stage 300 x 100 color white
        text title center (150, 50) text "Hey you" font 40 color #223344
        animate 0.6 ease back-out < title.glyphs[1].offset = (4, -10); title.glyphs[1].rotation = 25deg; title.glyphs[1].color = #ff000080 >
        wait 0.3
        animate 0.5 < title.glyphs[4].alpha = 0.2; title.glyphs[4].scale = (1.5, 0.5) >

        """

    /// The items of a group.
    static func items(_ group: [String: Any]) throws -> [[String: Any]] { try #require(group["it"] as? [[String: Any]]) }

    @Test("each moved glyph is a group with a keyed transform about its centre and its own fill, within the bounds of anim's glyph values")
    func glyphGroups() throws {
        let face = try #require(StageText.face, "no font installed")
        let (t, doc) = try LottieBakingTests.document(Self.script)
        let layers = try #require(doc["layers"] as? [[String: Any]])
        let layer = try #require(layers.first { $0["nm"] as? String == "title" })
        let top = try #require((layer["shapes"] as? [[String: Any]])?.first)
        let string = try #require(try Self.items(top).first { $0["nm"] as? String == "text 0" })
        let inside = try Self.items(string)
        #expect(!inside.contains { $0["ty"] as? String == "fl" }, "the string's group has a fill, which would paint the glyph groups")
        // Top first; the space (glyph 3) has no outline.
        #expect(inside.map { $0["nm"] as? String ?? $0["ty"] as? String ?? "?" }
                    == ["glyphs 5-6", "glyph 4", "glyph 2", "glyph 1", "glyph 0", "tr"])

        let layout = try TextLayout("Hey you", font: face, size: ChannelBuilder.textReferenceSize, align: .center)
        let central = StageText.centralShift(face, size: ChannelBuilder.textReferenceSize)
        let k = ChannelBuilder.textReferenceSize / 40
        func glyph(_ n: Int, _ time: Time) -> GlyphSnapshot {
            let text = t.frame(at: time).shapes.first { $0.kind == .text }
            return text.flatMap { n < $0.glyphs.count ? $0.glyphs[n] : nil } ?? GlyphSnapshot()
        }
        func parts(_ n: Int) throws -> (transform: [String: Any], fill: [String: Any]) {
            let g = try #require(inside.first { $0["nm"] as? String == "glyph \(n)" })
            let its = try Self.items(g)
            #expect(its.contains { $0["ty"] as? String == "sh" }, "glyph \(n) has no outline")
            return (try #require(its.last { $0["ty"] as? String == "tr" }), try #require(its.first { $0["ty"] as? String == "fl" }))
        }
        let base = Color(r: 0x22, g: 0x33, b: 0x44)
        var checks: [(String, [String: Any], Double, (Time) -> [Double])] = []
        for n in [1, 4] {
            let (tr, fl) = try parts(n)
            let c = layout.glyphs[n].box.center
            let anchor = try #require((tr["a"] as? [String: Any])?["k"] as? [Double])
            #expect(abs(anchor[0] - c.x) < 1e-3 && abs(anchor[1] - (c.y + central)) < 1e-3, "glyph \(n) anchor \(anchor)")
            checks.append(("glyph \(n) p", try #require(tr["p"] as? [String: Any]), 0.25, { time in
                let o = glyph(n, time).offset; return [c.x + o.x * k, c.y + central + o.y * k]
            }))
            checks.append(("glyph \(n) r", try #require(tr["r"] as? [String: Any]), 0.1, { [glyph(n, $0).rotation] }))
            checks.append(("glyph \(n) s", try #require(tr["s"] as? [String: Any]), 25 / 40, { let s = glyph(n, $0).scale; return [s.x * 100, s.y * 100] }))
            checks.append(("glyph \(n) o", try #require(tr["o"] as? [String: Any]), 0.1, { [glyph(n, $0).alpha * 100] }))
            checks.append(("glyph \(n) fill", try #require(fl["c"] as? [String: Any]), 0.25 / 255, { time in
                let f = glyph(n, time).fill(over: base); return [f.r / 255, f.g / 255, f.b / 255, 1]
            }))
        }
        for (name, property, bound, exact) in checks {
            let (e, f) = LottieBakingTests.worst(property, frames: 31, exact)
            #expect(e <= bound, "\(name) off by \(e) (bound \(bound)) at frame \(f)")
        }
        // What moves is keyed; glyph 1 keeps its alpha and scale, glyph 4 its place and colour.
        let (one, oneFill) = try parts(1), (four, _) = try parts(4)
        for (tr, key) in [(one, "p"), (one, "r"), (oneFill, "c"), (four, "o"), (four, "s")] {
            #expect((tr[key] as? [String: Any])?["a"] as? Int == 1, "\(key) is not keyed")
        }
        for (tr, key) in [(one, "o"), (one, "s"), (four, "p"), (four, "r")] {
            #expect((tr[key] as? [String: Any])?["a"] as? Int == 0, "\(key) is keyed")
        }
        // The glyphs never moved are paths under the text's own fill, unmoved.
        for name in ["glyphs 5-6", "glyph 2", "glyph 0"] {
            let run = try Self.items(try #require(inside.first { $0["nm"] as? String == name }))
            let tr = try #require(run.last)
            #expect(["p", "r", "s", "o"].allSatisfy { (tr[$0] as? [String: Any])?["a"] as? Int == 0 }, "\(name) moves")
            let c = try #require((run.first { $0["ty"] as? String == "fl" }?["c"] as? [String: Any])?["k"] as? [Double])
            #expect(abs(c[0] * 255 - 0x22) < 0.5 && abs(c[2] * 255 - 0x44) < 0.5, "\(name) fill \(c)")
        }
    }

    @Test("a glyph's offset while the font changes, and its colour over a text colour that changes, are within the bounds")
    func combinedChannels() throws {
        let face = try #require(StageText.face, "no font installed")
        let script = """
            stage 300 x 100 color white
            text title center (150, 50) text "Wo" font 30 color #223344
            set title.glyphs[0].color = #ff000080
            animate 1 ease ease-in-out < title.font = 50; title.color = #00aa00; title.glyphs[1].offset = (6, -12) >

            """
        let (t, doc) = try LottieBakingTests.document(script)
        let layers = try #require(doc["layers"] as? [[String: Any]])
        let layer = try #require(layers.first { $0["nm"] as? String == "title" })
        let top = try #require((layer["shapes"] as? [[String: Any]])?.first)
        let string = try #require(try Self.items(top).first { $0["nm"] as? String == "text 0" })
        let inside = try Self.items(string)
        let layout = try TextLayout("Wo", font: face, size: ChannelBuilder.textReferenceSize, align: .center)
        let central = StageText.centralShift(face, size: ChannelBuilder.textReferenceSize)
        func text(_ time: Time) -> ShapeSnapshot? { t.frame(at: time).shapes.first { $0.kind == .text } }
        func group(_ n: Int) throws -> [[String: Any]] {
            try Self.items(try #require(inside.first { $0["nm"] as? String == "glyph \(n)" }))
        }
        let zero = try group(0), one = try group(1)
        let fill = try #require(zero.first { $0["ty"] as? String == "fl" }?["c"] as? [String: Any])
        let (e, f) = LottieBakingTests.worst(fill, frames: 31) { time in
            let s = text(time), c = (s?.glyphs.first ?? GlyphSnapshot()).fill(over: s?.color ?? Color(r: 0, g: 0, b: 0))
            return [c.r / 255, c.g / 255, c.b / 255, 1]
        }
        #expect(e <= 0.25 / 255, "glyph 0 fill off by \(e) at frame \(f)")
        let c = layout.glyphs[1].box.center
        let p = try #require((one.last { $0["ty"] as? String == "tr" })?["p"] as? [String: Any])
        let (pe, pf) = LottieBakingTests.worst(p, frames: 31) { time in
            let s = text(time), o = s.map { $0.glyphs.count > 1 ? $0.glyphs[1].offset : .zero } ?? .zero
            let k = ChannelBuilder.textReferenceSize / (s?.font ?? 30)
            return [c.x + o.x * k, c.y + central + o.y * k]
        }
        #expect(pe <= 0.25, "glyph 1 position off by \(pe) at frame \(pf)")
    }

    @Test("a text whose glyphs are never named, or named but never moved, is drawn whole as before")
    func plainText() throws {
        for script in ["text title text \"Hi\" font 30\n", "text title text \"Hi\" font 30\nprint \"{title.glyphs}\"\n"] {
            let (_, doc) = try LottieBakingTests.document(script)
            let layers = try #require(doc["layers"] as? [[String: Any]])
            let layer = try #require(layers.first { $0["nm"] as? String == "title" })
            let top = try #require((layer["shapes"] as? [[String: Any]])?.first)
            let string = try #require(try Self.items(top).first { $0["nm"] as? String == "text 0" })
            let inside = try Self.items(string)
            #expect(!inside.contains { $0["ty"] as? String == "gr" }, "glyph groups in \(script)")
            #expect(inside.contains { $0["ty"] as? String == "fl" }, "no fill in \(script)")
        }
    }
}
