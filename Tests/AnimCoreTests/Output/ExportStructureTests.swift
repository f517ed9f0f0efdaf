// The structure of the web and interchange outputs: the HTML player carries the interpreter's
// own values at every frame, the Lottie export keeps cubic-Bézier easings as handles and fits
// the rest, and the terminal chart (the REPL's `:timeline`) lays out lanes.
@testable import AnimCore
import Foundation
import Testing

@Suite("Export structure")
struct ExportStructureTests {
    static let script = """
    stage 200 x 100
    rect a center (20,50) size (20,20) color red
    circle b center (180,50) radius 10 color blue
    animate 1 ease ease-in-out < a.center = (100,50) >
    then spring < a.rotation = 90deg >
    animate 0.5 ease bounce-out < b.alpha = 0.2 >
    """

    /// The JSON object embedded in an HTML page.
    func playerData(_ html: String) throws -> [String: Any] {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"anim-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let data = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("the HTML player holds the interpreter's value at every frame")
    func playerValues() throws {
        let t = try #require(timeline(Self.script))
        let html = HTMLPlayer.render(t, fps: 30)
        #expect(!html.contains("src=\"http"), "self-contained")
        let data = try playerData(html)
        let times = try #require(data["times"] as? [Double])
        let shapes = try #require(data["shapes"] as? [[String: Any]])
        #expect(data["format"] as? Int == 3)
        let tracks = try #require(shapes[0]["t"] as? [String: Any])
        let xs = try #require(Self.samples(tracks["x"], count: times.count, unit: 1000))
        let rots = try #require(Self.samples(tracks["rot"], count: times.count, unit: 1000))
        #expect(xs.count == times.count && rots.count == times.count)
        #expect(tracks["w"] as? Double == 20, "a constant track is one number")
        let grid = FrameGrid(fps: 30)
        let frameTimes = t.frameRange(on: grid).map { grid.time(ofFrame: $0) }
        #expect(times.count == frameTimes.count)
        for (k, ft) in frameTimes.enumerated() {
            let center = t.value(ShapeID(0), BuiltinProperty.center.id, at: ft)?.framePoint?.x ?? .nan
            let rotation = t.value(ShapeID(0), BuiltinProperty.rotation.id, at: ft)?.frameNumber ?? .nan
            #expect(abs(xs[k] - center) <= 0.0005, "x at frame \(k)")
            #expect(abs(rots[k] - rotation) <= 0.0005, "rotation at frame \(k)")
        }
    }

    /// A player track decoded as HTMLPlayer.swift's header describes it, written out here
    /// from that description (not with the player's code): a number for a constant, or Base64
    /// VLQ second differences with `*m` runs. Nil if malformed.
    static func samples(_ track: Any?, count: Int, unit: Double) -> [Double]? {
        if let constant = track as? Double { return [constant] }
        guard let code = (track as? String).map({ Array($0.utf8) }) else { return nil }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var i = 0
        func vlq() -> Int64? {
            var z: Int64 = 0, shift: Int64 = 0
            while i < code.count, let digit = alphabet.firstIndex(of: code[i]) {
                i += 1
                z |= Int64(digit & 31) << shift
                shift += 5
                if digit & 32 == 0 { return z & 1 == 1 ? -(z >> 1) : z >> 1 }
            }
            return nil
        }
        var out: [Double] = [], q: Int64 = 0, d: Int64 = 0, e: Int64 = 0
        while i < code.count {
            var repeats: Int64 = 1
            if code[i] == UInt8(ascii: "*") {
                i += 1
                guard let m = vlq() else { return nil }
                repeats = m
            } else {
                guard let v = vlq() else { return nil }
                e = v
            }
            for _ in 0..<repeats {
                d += e
                q += d
                out.append(Double(q) / unit)
            }
        }
        return out.count == count ? out : nil
    }

    @Test("player tracks: runs, second differences, large values and opacity decode to the quantized samples")
    func trackCode() throws {
        func roundTrip(_ values: [Double], unit: Double) -> [Double]? {
            var o = ByteWriter()
            TrackCode.append(values, scale: unit, to: &o)
            return Self.samples(o.string(), count: values.count, unit: unit)
        }
        let still = [Double](repeating: 12.5, count: 50), line = (0..<50).map { Double($0) * 0.25 }
        let wobble = (0..<80).map { 300 * sin(Double($0) / 7) * exp(-Double($0) / 30) }
        for values in [still, line, wobble, [1e9, -1e9, 0.0005, -0.0005, 0, 3], [7]] {
            let q = values.map { ($0 * 1000).rounded() / 1000 }
            #expect(roundTrip(values, unit: 1000) == q, "\(values.prefix(4))")
        }
        #expect(roundTrip([0.12345, 0.5, 1], unit: 10_000) == [0.1235, 0.5, 1])
        var o = ByteWriter()
        TrackCode.append(still + line, scale: 1000, to: &o)
        #expect(o.count <= 24, "100 samples: a still stretch and a straight one are runs: \(String(decoding: o.bytes, as: UTF8.self))")
        // Beyond ±2⁴⁹ thousandths samples are clamped, and infinities read as 0, not a crash.
        #expect(roundTrip([1e300, -1e300, .infinity], unit: 1000) == [562_949_953_421.312, -562_949_953_421.312, 0])
    }

    @Test("Lottie: Bézier easings become handles, springs and bounce are fitted cubic keys")
    func lottie() throws {
        let t = try #require(timeline(Self.script))
        let json = LottieExporter.export(t, fps: 30)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let layers = try #require(doc["layers"] as? [[String: Any]])
        #expect(layers.map { $0["nm"] as? String } == ["b", "a", "stage"])
        let a = try #require(layers[1]["ks"] as? [String: Any])
        // Position: one ease-in-out tween → two keyframes with CSS ease-in-out's handles.
        let p = try #require((a["p"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(p.count == 2)
        #expect((p[0]["o"] as? [String: [Double]])?["x"] == [0.42])
        #expect((p[0]["i"] as? [String: [Double]])?["x"] == [0.58])
        #expect(p[0]["s"] as? [Double] == [20, 50, 0] && p[1]["s"] as? [Double] == [100, 50, 0])
        #expect(p[1]["t"] as? Double == 30)
        // Rotation: the spring is fitted with cubic keys (LottieBakingTests checks their
        // values between frames), far fewer than one per frame while it moves.
        let r = try #require((a["r"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(r.count > 2 && r.count < 15, "\(r.count) keys")
        #expect(r.dropLast().allSatisfy { ($0["o"] as? [String: [Double]])?["x"] == [0.333333] || $0["h"] as? Int == 1 })
        // Opacity of b: bounce-out over 0.5 s, its three bounces a key each.
        let b = try #require(layers[0]["ks"] as? [String: Any])
        let o = try #require((b["o"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(o.count >= 4 && o.count < 15, "\(o.count) keys")
        #expect((o.last?["s"] as? [Double])?.first.map { abs($0 - 20) < 1e-9 } == true)
    }

    @Test("Lottie: a Bézier tween after a still stretch keeps its start key and handles")
    func lottieAfterHold() throws {
        let t = try #require(timeline("rect a center (10,10) color red\nwait 1\nanimate 1 ease ease-in < a.alpha = 0 >"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(LottieExporter.export(t, fps: 30).utf8)) as? [String: Any])
        let a = try #require((doc["layers"] as? [[String: Any]])?.first?["ks"] as? [String: Any])
        let o = try #require((a["o"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(o.map { $0["t"] as? Double } == [0, 30, 60])
        #expect(o.map { $0["s"] as? [Double] } == [[100], [100], [0]])
        #expect(o[0]["h"] as? Int == 1)
        #expect((o[1]["o"] as? [String: [Double]])?["x"] == [0.42])
    }

    @Test("the terminal chart: lanes, bars, ticks, colour only when asked")
    func chart() throws {
        let t = try #require(timeline(Self.script + "\nthen < print \"done\" >"))
        let plain = TimelineChart.render(t, width: 80, color: false)
        #expect(plain.contains("── lane 1: a"))
        #expect(plain.contains("center"))
        #expect(plain.contains("◆"))
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let colored = TimelineChart.render(t, width: 80, color: true)
        #expect(colored.contains("\u{1B}[36m"))
        let empty = TimelineChart.render(try #require(timeline("rect a center (0,0)")), width: 80, color: false)
        #expect(empty.contains("(nothing is animated)"))
    }
}
