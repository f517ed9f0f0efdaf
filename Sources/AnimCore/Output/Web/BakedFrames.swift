// BakedFrames: a run sampled at a frame rate for the web outputs — per shape, one track per
// drawing attribute holding the interpreter's value at every frame (a single value when it
// never changes). The HTML player shows these samples as they are, so what it displays at any
// frame is exactly what the interpreter computed; the animated SVG interpolates linearly
// between them.

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
    /// The time of every sample: the frames (k/fps) before the run's end, then the end.
    var times: [Time]
    /// Every shape declared during the run.
    var shapes: [Shape]

    /// The times sampled: every frame before the run's end, then the end itself, so the last
    /// sample is the run's final state at the instant it ends (not a frame after it).
    static func times(_ timeline: Timeline, fps: Int) -> [Time] {
        let grid = FrameGrid(fps: fps)
        var times = timeline.frameRange(on: grid).map { grid.time(ofFrame: $0) }.filter { $0 < timeline.end }
        times.append(max(.zero, timeline.end))
        return times
    }

    /// Samples a timeline at `fps`.
    init(_ timeline: Timeline, fps: Int) {
        self.fps = fps
        times = Self.times(timeline, fps: fps)
        var shapes: [Shape] = timeline.shapes.map {
            Shape(id: $0.id, name: $0.name, kind: $0.kind, tracks: Array(repeating: [], count: Attribute.allCases.count), text: [])
        }
        for t in times {
            let frame = timeline.frame(at: t)
            var present = [ShapeSnapshot?](repeating: nil, count: shapes.count)
            for s in frame.shapes { present[Int(s.id.index)] = s }
            for i in shapes.indices {
                // A shape not declared yet is drawn invisible with its first known values.
                let s = present[i] ?? timeline.firstSnapshot(shapes[i].id)
                let values = s.map(Self.attributes) ?? Array(repeating: 0, count: Attribute.allCases.count)
                for a in values.indices {
                    shapes[i].tracks[a].append(present[i] == nil && a == Attribute.op.rawValue ? 0 : values[a])
                }
                shapes[i].text.append(s?.text ?? "")
            }
        }
        for i in shapes.indices {
            for a in shapes[i].tracks.indices where Set(shapes[i].tracks[a]).count <= 1 {
                shapes[i].tracks[a] = Array(shapes[i].tracks[a].prefix(1))
            }
            if Set(shapes[i].text).count <= 1 { shapes[i].text = Array(shapes[i].text.prefix(1)) }
        }
        self.shapes = shapes
    }

    /// The attribute values of a snapshot, in `Attribute` order.
    static func attributes(_ s: ShapeSnapshot) -> [Double] {
        let p = s.position
        let radius = s.kind == .circle ? abs(s.radius) : s.cornerRadius
        return [p.x, p.y, abs(s.size.x), abs(s.size.y), s.rotation, s.scale.x, s.scale.y, s.opacity, radius, s.z,
                max(0, min(255, s.color.r)), max(0, min(255, s.color.g)), max(0, min(255, s.color.b)), max(0, s.font)]
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

extension Timeline {
    /// A shape as first declared (for drawing it invisible before it exists).
    func firstSnapshot(_ id: ShapeID) -> ShapeSnapshot? {
        guard let created = history.created(id) else { return nil }
        return snapshot(shapes[Int(id.index)], at: created)
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
