// How the Lottie export bakes what is not one cubic-Bézier tween (Output/Lottie/LottieFit.swift),
// checked with this file's own reading of Lottie keyframes — a key holds (`h`) or eases to the
// next with its `o`/`i` handles, one CSS cubic-bezier per component (lottie-web's semantics) —
// at instants between frames, against the interpreter's own values there:
// - `steps()` tweens are hold keys, one per change, exact at every instant;
// - springs, Penner curves, linear(), repeats with yoyo and keyframe lists are within the
//   bounds (0.25 px, 0.1 degree, 0.001 alpha, a quarter colour level; scale 0.25 px at the
//   box's corner) everywhere, with fewer keys than frames;
// - colour channels are never written below their level, which players truncate.
@testable import AnimCore
import Foundation
import Testing

@Suite("Lottie baking")
struct LottieBakingTests {
    /// The document of a script exported at `fps`.
    static func document(_ script: String, fps: Int = 30) throws -> (Timeline, [String: Any]) {
        let t = try #require(timeline(script))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(LottieExporter.export(t, fps: fps).utf8)) as? [String: Any])
        return (t, doc)
    }

    /// A layer's transform property (`p`, `r`, `o`, `s`).
    static func transform(_ doc: [String: Any], _ name: String, _ key: String) throws -> [String: Any] {
        let layers = try #require(doc["layers"] as? [[String: Any]])
        let layer = try #require(layers.first { $0["nm"] as? String == name })
        return try #require((layer["ks"] as? [String: Any])?[key] as? [String: Any])
    }

    /// A layer's fill colour property.
    static func fillColor(_ doc: [String: Any], _ name: String) throws -> [String: Any] {
        let layers = try #require(doc["layers"] as? [[String: Any]])
        let layer = try #require(layers.first { $0["nm"] as? String == name })
        let group = try #require(((layer["shapes"] as? [[String: Any]])?.first?["it"]) as? [[String: Any]])
        return try #require(group.first { $0["ty"] as? String == "fl" }?["c"] as? [String: Any])
    }

    /// Arc-length tables of spatial segments, by key index.
    final class Tables { var byKey: [Int: (points: [[Double]], arc: [Double])] = [:] }

    /// A Lottie property's value at frame `f`, as a player computes it.
    static func evaluate(_ property: [String: Any], at f: Double, _ tables: Tables = Tables()) -> [Double] {
        func numbers(_ x: Any?) -> [Double] {
            if let a = x as? [Double] { return a }
            if let n = x as? Double { return [n] }
            return []
        }
        guard property["a"] as? Int == 1, let keys = property["k"] as? [[String: Any]], let first = keys.first else {
            return numbers(property["k"])
        }
        let times = keys.map { $0["t"] as? Double ?? 0 }
        if f < times[0] { return numbers(first["s"]) }
        guard let i = times.lastIndex(where: { $0 <= f }), i + 1 < keys.count else { return numbers(keys.last?["s"]) }
        let s = numbers(keys[i]["s"]), e = numbers(keys[i + 1]["s"])
        if keys[i]["h"] as? Int == 1 { return s }
        let u = (f - times[i]) / (times[i + 1] - times[i])
        // Handles: a number, or an array with one entry per component (or one for all).
        let o = keys[i]["o"] as? [String: Any] ?? [:], n = keys[i]["i"] as? [String: Any] ?? [:]
        func handle(_ x: Any?, _ d: Int) -> Double {
            if let v = x as? Double { return v }
            let xs = x as? [Double] ?? [0]
            return d < xs.count ? xs[d] : xs[0]
        }
        if let to = keys[i]["to"] as? [Double], let ti = keys[i]["ti"] as? [Double] {
            // A spatial segment: the Bézier s, s + to, e + ti, e, at the eased fraction of its
            // arc length (a table of 2000 chords).
            let perc = CubicBezier(handle(o["x"], 0), handle(o["y"], 0), handle(n["x"], 0), handle(n["y"], 0)).solve(u)
            if tables.byKey[i] == nil {
                let c1 = s.indices.map { s[$0] + to[$0] }, c2 = e.indices.map { e[$0] + ti[$0] }
                func at(_ t: Double) -> [Double] {
                    let w = 1 - t
                    return s.indices.map { w * w * w * s[$0] + 3 * t * w * w * c1[$0] + 3 * t * t * w * c2[$0] + t * t * t * e[$0] }
                }
                let points = (0...2000).map { at(Double($0) / 2000) }
                var arc = [0.0]
                for k in 1..<points.count {
                    arc.append(arc[k - 1] + zip(points[k], points[k - 1]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot())
                }
                tables.byKey[i] = (points, arc)
            }
            let (points, arc) = tables.byKey[i]!
            let d = max(0, min(1, perc)) * arc[arc.count - 1]
            let k = max(1, arc.firstIndex { $0 >= d } ?? arc.count - 1)
            let piece = arc[k] - arc[k - 1], t = piece > 0 ? (d - arc[k - 1]) / piece : 0
            return s.indices.map { points[k - 1][$0] + t * (points[k][$0] - points[k - 1][$0]) }
        }
        return s.indices.map { d in
            func pick(_ x: Any?) -> Double { handle(x, d) }
            let b = CubicBezier(pick(o["x"]), pick(o["y"]), pick(n["x"]), pick(n["y"]))
            return s[d] + (e[d] - s[d]) * b.solve(u)
        }
    }

    /// The largest difference (Euclidean) between a property and anim's values, at 40 instants
    /// per frame and a few off any grid, over `frames`.
    static func worst(_ property: [String: Any], frames: Int, fps: Int = 30, _ exact: (Time) -> [Double]) -> (Double, Double) {
        var worst = 0.0, at = 0.0
        let tables = Tables()
        let instants = (0..<(frames * 40)).map { Double($0) / 40 } + (0..<(frames * 3)).map { Double($0) / 3 + 0.0123 }
        for f in instants {
            let t = Time(ticks: Int64((f / Double(fps) * 1e9).rounded()))
            let a = evaluate(property, at: f, tables), b = exact(t)
            let e = zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
            if e > worst { worst = e; at = f }
        }
        return (worst, at)
    }

    @Test("steps(4) becomes five hold keys, exact at every instant")
    func steps() throws {
        let script = """
        rect a center (20, 50) size (20, 20) color red
        rect b center (20, 50) size (20, 20) color red
        animate 1 ease steps(4) < a.center = (100, 50) >
        animate 1 ease steps(3, jump-start) < b.rotation = 90deg >
        """
        let (t, doc) = try Self.document(script)
        let p = try Self.transform(doc, "a", "p")
        let keys = try #require(p["k"] as? [[String: Any]])
        #expect(keys.count == 5, "\(keys)")
        #expect(keys.dropLast().allSatisfy { $0["h"] as? Int == 1 }, "\(keys)")
        #expect(keys.map { ($0["s"] as? [Double])?.first } == [20, 40, 60, 80, 100])
        let a = try #require(t.shapes.first { $0.name == "a" }?.id), b = try #require(t.shapes.first { $0.name == "b" }?.id)
        let (e, f) = Self.worst(p, frames: 31) { time in
            let c = t.value(a, BuiltinProperty.center.id, at: time)?.framePoint ?? .zero
            return [c.x, c.y, 0]
        }
        #expect(e < 1e-6, "position off by \(e) px at frame \(f)")
        // jump-start: the first step at the start, then two more (one at 1/3 s, where a frame
        // lands exactly: the key must not come before the instant the value changes).
        let r = try Self.transform(doc, "b", "r")
        #expect((r["k"] as? [[String: Any]])?.count == 3, "\(r)")
        let (er, fr) = Self.worst(r, frames: 31) { [t.value(b, BuiltinProperty.rotation.id, at: $0)?.frameNumber ?? 0] }
        #expect(er < 1e-6, "rotation off by \(er) degrees at frame \(fr)")
    }

    static let curves = """
    stage 200 x 100
    rect a center (20, 50) size (20, 20) color #4040c0
    rect b center (20, 50) size (20, 20) color #4040c0
    rect c center (20, 50) size (20, 20) color #4040c0
    rect d center (20, 50) size (20, 20) color #4040c0
    rect e center (20, 50) size (20, 20) color #4040c0
    spring < a.center = (180, 50); a.rotation = 90deg >
    animate 1 ease bounce-out < b.center = (180, 80); b.alpha = 0.2; b.color = #c0a040 >
    animate 0.5 ease elastic-out repeat 2 yoyo < c.scale = 2; c.rotation = 45deg >
    animate 1 ease linear(0, 0.6 30%, 0.2 60%, 1) < d.center = (180, 20) >
    animate 1 ease back-in-out < e.center = [(20, 50) at 0, (100, 10) at 0.4, (180, 90)] >
    """

    @Test("springs, Penner curves, linear(), yoyo repeats and keyframe lists are within the bounds between frames, with fewer keys than frames")
    func fitted() throws {
        let (t, doc) = try Self.document(Self.curves)
        func id(_ n: String) throws -> ShapeID { try #require(t.shapes.first { $0.name == n }?.id) }
        func point(_ n: String, _ p: BuiltinProperty) throws -> (Time) -> [Double] {
            let s = try id(n)
            return { time in let v = t.value(s, p.id, at: time)?.framePoint ?? .zero; return [v.x, v.y, 0] }
        }
        func number(_ n: String, _ p: BuiltinProperty, _ k: Double = 1) throws -> (Time) -> [Double] {
            let s = try id(n)
            return { time in [(t.value(s, p.id, at: time)?.frameNumber ?? 0) * k] }
        }
        let frames = 61
        var checks: [(String, String, [String: Any], Double, (Time) -> [Double])] = []
        for n in ["a", "b", "d", "e"] { checks.append((n, "p", try Self.transform(doc, n, "p"), 0.25, try point(n, .center))) }
        checks.append(("a", "r", try Self.transform(doc, "a", "r"), 0.1, try number("a", .rotation)))
        checks.append(("c", "r", try Self.transform(doc, "c", "r"), 0.1, try number("c", .rotation)))
        checks.append(("b", "o", try Self.transform(doc, "b", "o"), 0.1, try number("b", .alpha, 100)))
        // Scale in percent: 0.25 px at the corner of c's 20 px square (a scale error δ moves
        // the corner by δ times its distance from the centre).
        let cs = try id("c")
        checks.append(("c", "s", try Self.transform(doc, "c", "s"), 25 / (20 * 2.0.squareRoot() / 2), { time in
            let v = t.value(cs, BuiltinProperty.scale.id, at: time)?.framePoint ?? Point(1, 1); return [v.x * 100, v.y * 100]
        }))
        let bs = try id("b")
        checks.append(("b", "fill", try Self.fillColor(doc, "b"), 0.25 / 255, { time in
            let c = t.value(bs, BuiltinProperty.color.id, at: time)?.frameColor ?? Color(r: 0, g: 0, b: 0)
            return [c.r / 255, c.g / 255, c.b / 255, 1]
        }))
        for (shape, key, property, bound, exact) in checks {
            let (e, f) = Self.worst(property, frames: frames, exact)
            #expect(e <= bound, "\(shape).\(key) off by \(e) (bound \(bound)) at frame \(f)")
            let count = (property["k"] as? [[String: Any]])?.count ?? 0
            #expect(count > 1 && count < 40, "\(shape).\(key): \(count) keys for 60 frames")
        }
    }

    @Test("a path with orient becomes spatial keys (to/ti), and it and a keyframe list through points are within the bounds between frames")
    func spatial() throws {
        let script = """
        stage 320 x 240
        rect a center (30, 200) size (40, 16) color red
        rect b center (290, 120) size (28, 28) color red
        animate 2 ease ease-in-out < a.center = path [(100, 40), (220, 200), (290, 60)] orient >
        animate 2 ease sine-in-out < b.center = [(290, 120) at 0, (160, 220) at 0.5, (40, 120)] >
        """
        let (t, doc) = try Self.document(script)
        for name in ["a", "b"] {
            let s = try #require(t.shapes.first { $0.name == name }?.id)
            let p = try Self.transform(doc, name, "p")
            let keys = try #require(p["k"] as? [[String: Any]])
            // A keyframe list of points runs straight between them: only the path curves.
            if name == "a" { #expect(keys.contains { $0["to"] != nil && $0["ti"] != nil }, "\(name): no spatial keys") }
            #expect(keys.count < 20, "\(name): \(keys.count) keys for 60 frames")
            let (e, f) = Self.worst(p, frames: 61) { time in
                let c = t.value(s, BuiltinProperty.center.id, at: time)?.framePoint ?? .zero
                return [c.x, c.y, 0]
            }
            #expect(e <= 0.25, "\(name).p off by \(e) px at frame \(f)")
        }
        let s = try #require(t.shapes.first { $0.name == "a" }?.id)
        let (e, f) = Self.worst(try Self.transform(doc, "a", "r"), frames: 61) { [t.value(s, BuiltinProperty.rotation.id, at: $0)?.frameNumber ?? 0] }
        #expect(e <= 0.1, "a.r off by \(e) degrees at frame \(f)")
    }

    @Test("a spring retargeted at every frame (on change) is fitted as one curve across its pieces")
    func retargeted() throws {
        let script = """
        stage 400 x 400
        circle leader center (50, 200) radius 12
        circle follower center (50, 200) radius 18
        on change leader.center < spring response 0.4 damping-ratio 0.7 < follower.center = leader.center > >
        animate 1 ease ease-in-out < leader.center = (350, 200) >
        then animate 1 ease ease-in-out < leader.center = (350, 50) >
        """
        let (t, doc) = try Self.document(script)
        let s = try #require(t.shapes.first { $0.name == "follower" }?.id)
        let p = try Self.transform(doc, "follower", "p")
        let count = (p["k"] as? [[String: Any]])?.count ?? 0
        let frames = Int((t.end.seconds * 30).rounded(.up))
        #expect(count > 2 && count < frames / 4, "\(count) keys for \(frames) frames")
        let (e, f) = Self.worst(p, frames: frames) { time in
            let c = t.value(s, BuiltinProperty.center.id, at: time)?.framePoint ?? .zero
            return [c.x, c.y, 0]
        }
        #expect(e <= 0.25, "follower.p off by \(e) px at frame \(f)")
    }

    @Test("colour channels are never written below their level: a truncating player draws that level")
    func colourChannels() throws {
        let (_, doc) = try Self.document("stage 100 x 100 color #f4f1ea\nrect a center (50, 50) size (20, 20) color #3f7fbf\nanimate 1 < a.color = #c1c2c3 >")
        let layers = try #require(doc["layers"] as? [[String: Any]])
        let stage = try #require(layers.first { $0["nm"] as? String == "stage" })
        let fill = try #require(((stage["shapes"] as? [[String: Any]])?.first?["it"] as? [[String: Any]])?.first { $0["ty"] as? String == "fl" })
        let bg = try #require((fill["c"] as? [String: Any])?["k"] as? [Double])
        #expect(bg.prefix(3).map { Int(($0 * 255).rounded(.down)) } == [0xf4, 0xf1, 0xea], "\(bg)")
        let keys = try #require(try Self.fillColor(doc, "a")["k"] as? [[String: Any]])
        let ends = keys.compactMap { $0["s"] as? [Double] }
        #expect(ends.first?.prefix(3).map { Int(($0 * 255).rounded(.down)) } == [0x3f, 0x7f, 0xbf], "\(ends)")
        #expect(ends.last?.prefix(3).map { Int(($0 * 255).rounded(.down)) } == [0xc1, 0xc2, 0xc3], "\(ends)")
        // And never more than a thousandth of a level above.
        #expect(bg.prefix(3).enumerated().allSatisfy { i, c in c * 255 - Double([0xf4, 0xf1, 0xea][i]) < 0.001 }, "\(bg)")
    }
}
