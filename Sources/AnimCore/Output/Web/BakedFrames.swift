// BakedFrames: a run sampled at a frame rate for the web outputs — per shape, one track per
// drawing attribute holding the interpreter's value at every frame (a single value when it
// never changes). The samples are the frames of `Timeline.frames(on:_:)` before the run's end,
// then the stage at the end. The HTML player shows these samples as they are, so what it
// displays at any frame is exactly what the interpreter computed; the animated SVG
// interpolates linearly between them.

/// A run sampled at `fps`.
struct BakedFrames {
    /// The drawing attributes, in the order of `Shape.tracks`.
    enum Attribute: Int, CaseIterable {
        /// Position (center + offset).
        case x, y
        /// Width and height of rects.
        case w, h
        /// Rotation, degrees clockwise.
        case rot
        /// Scale per axis.
        case sx, sy
        /// Opacity including the color's alpha; 0 where the shape does not exist yet.
        case op
        /// Corner radius of rects, radius of circles.
        case rad
        /// Stacking order.
        case z
        /// Fill color channels, 0...255.
        case r, g, b
        /// Font size of text.
        case font

        /// The name used in the player's data.
        var key: String { ["x", "y", "w", "h", "rot", "sx", "sy", "op", "rad", "z", "r", "g", "b", "font"][rawValue] }
    }

    /// One shape's samples.
    struct Shape {
        var id: ShapeID
        var name: String
        var kind: ShapeKind
        /// One track per attribute: every frame's value, or one value if constant.
        var tracks: [[Double]]
        /// Text per frame, or one string if constant.
        var text: [String]
    }

    /// Frames per second.
    var fps: Int
    /// The time of every sample: the frames (k/fps) before the run's end, then the end itself,
    /// so the last sample is the run's final state at the instant it ends (not a frame after it).
    var times: [Time]
    /// Every shape declared during the run.
    var shapes: [Shape]

    /// The frames before the run's end (all but the last of `frameRange(on:)`, which is at or
    /// after the end), or nil when the run ends at 0.
    static func framesBeforeEnd(_ timeline: Timeline, _ grid: FrameGrid) -> ClosedRange<Int64>? {
        let upper = timeline.frameRange(on: grid).upperBound
        return upper >= 1 ? 0...(upper - 1) : nil
    }

    /// Samples a timeline at `fps`: the stage at every frame before the end, read from
    /// `Timeline.frames(on:_:)` in one pass, then the stage at the end.
    init(_ timeline: Timeline, fps: Int) {
        self.fps = fps
        let grid = FrameGrid(fps: fps)
        let before = Self.framesBeforeEnd(timeline, grid)
        times = (before.map { $0.map { grid.time(ofFrame: $0) } } ?? []) + [max(.zero, timeline.end)]
        let count = timeline.shapes.count, attributes = Attribute.allCases.count
        let samples = times.count
        // Per shape and attribute, one column of samples; the text per shape; and for each
        // shape the first sample at which it exists (nil: not yet).
        var columns = [[Double]](repeating: [], count: count * attributes)
        for i in columns.indices { columns[i].reserveCapacity(samples) }
        var texts = [[String]](repeating: [], count: count)
        var firstSeen = [Int?](repeating: nil, count: count)
        var seen = [Bool](repeating: false, count: count)
        var k = 0
        func take(_ frame: StageFrame) {
            for i in seen.indices { seen[i] = false }
            for s in frame.shapes {
                let i = Int(s.id.index)
                guard i < count else { continue }
                seen[i] = true
                if firstSeen[i] == nil { firstSeen[i] = k }
                Self.append(s, to: &columns, at: i * attributes)
                texts[i].append(s.text)
            }
            // A shape not declared yet gets a placeholder, filled in below.
            for i in seen.indices where !seen[i] {
                for a in 0..<attributes { columns[i * attributes + a].append(0) }
                texts[i].append("")
            }
            k += 1
        }
        if let before {
            for frame in timeline.frames(on: grid, before) { take(frame) }
        }
        take(timeline.frame(at: max(.zero, timeline.end)))

        shapes = timeline.shapes.enumerated().map { i, info in
            var tracks = (0..<attributes).map { columns[i * attributes + $0] }
            var text = texts[i]
            // Where the shape does not exist yet it is drawn invisible with its first values.
            if let first = firstSeen[i], first > 0 {
                for a in 0..<attributes {
                    let v = a == Attribute.op.rawValue ? 0 : tracks[a][first]
                    for j in 0..<first { tracks[a][j] = v }
                }
                for j in 0..<first { text[j] = text[first] }
            } else if firstSeen[i] == nil {
                for a in 0..<attributes { tracks[a] = [0] }
                text = [""]
            }
            for a in tracks.indices where tracks[a].count > 1 {
                let v = tracks[a][0]
                if tracks[a].allSatisfy({ $0 == v }) { tracks[a] = [v] }
            }
            if text.count > 1, text.allSatisfy({ $0 == text[0] }) { text = [text[0]] }
            return Shape(id: info.id, name: info.name, kind: info.kind, tracks: tracks, text: text)
        }
    }

    /// Appends a snapshot's attribute values, in `Attribute` order, to the columns from `base`.
    @inline(__always)
    static func append(_ s: ShapeSnapshot, to columns: inout [[Double]], at base: Int) {
        let p = s.position
        let radius = s.kind == .circle ? abs(s.radius) : s.cornerRadius
        columns[base + Attribute.x.rawValue].append(p.x)
        columns[base + Attribute.y.rawValue].append(p.y)
        columns[base + Attribute.w.rawValue].append(abs(s.size.x))
        columns[base + Attribute.h.rawValue].append(abs(s.size.y))
        columns[base + Attribute.rot.rawValue].append(s.rotation)
        columns[base + Attribute.sx.rawValue].append(s.scale.x)
        columns[base + Attribute.sy.rawValue].append(s.scale.y)
        columns[base + Attribute.op.rawValue].append(s.opacity)
        columns[base + Attribute.rad.rawValue].append(radius)
        columns[base + Attribute.z.rawValue].append(s.z)
        columns[base + Attribute.r.rawValue].append(max(0, min(255, s.color.r)))
        columns[base + Attribute.g.rawValue].append(max(0, min(255, s.color.g)))
        columns[base + Attribute.b.rawValue].append(max(0, min(255, s.color.b)))
        columns[base + Attribute.font.rawValue].append(max(0, s.font))
    }

    /// The value of attribute `a` of shape `i` at frame `k`.
    func value(_ i: Int, _ a: Attribute, _ k: Int) -> Double {
        let t = shapes[i].tracks[a.rawValue]
        return t.count == 1 ? t[0] : t[k]
    }

    /// The paint order of the shapes at frame `k` (by z, then declaration).
    func order(at k: Int) -> [Int] {
        shapes.indices.sorted {
            let za = value($0, .z, k), zb = value($1, .z, k)
            return za != zb ? za < zb : $0 < $1
        }
    }
}

/// Text escaped for XML content and attribute values.
func xmlEscaped(_ s: String) -> String {
    var o = ""
    for ch in s {
        switch ch {
        case "&": o += "&amp;"
        case "<": o += "&lt;"
        case ">": o += "&gt;"
        case "\"": o += "&quot;"
        case "'": o += "&#39;"
        default: o.append(ch)
        }
    }
    return o
}

/// A JSON string literal safe inside an HTML `<script>`.
func jsonString(_ s: String) -> String { quote(s, htmlSafe: true) }

/// `#rrggbb` of channels in 0...255.
func hexColor(_ r: Double, _ g: Double, _ b: Double) -> String {
    func h(_ x: Double) -> String {
        let v = Int(max(0, min(255, x)).rounded())
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
    return "#" + h(r) + h(g) + h(b)
}
