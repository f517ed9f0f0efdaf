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
        // Every sample of every attribute of every shape, frame by frame (0 where a shape
        // does not exist yet, filled in below); the text of text shapes (others have none);
        // and for each shape the first sample at which it exists (nil: not yet).
        let row = count * attributes
        var values = [Double](repeating: 0, count: samples * row)
        var texts = [[String]](repeating: [], count: count)
        var firstSeen = [Int?](repeating: nil, count: count)
        let isText = timeline.shapes.map { $0.kind == .text }
        let textShapes = isText.indices.filter { isText[$0] }
        var k = 0
        func take(_ frame: StageFrame) {
            values.withUnsafeMutableBufferPointer { buf in
                for s in frame.shapes {
                    let i = Int(s.id.index)
                    guard i < count else { continue }
                    if firstSeen[i] == nil { firstSeen[i] = k }
                    Self.write(s, to: buf, at: k * row + i * attributes)
                    if isText[i] { texts[i].append(s.text) }
                }
            }
            for i in textShapes where texts[i].count == k { texts[i].append("") }
            k += 1
        }
        if let before {
            for frame in timeline.frames(on: grid, before) { take(frame) }
        }
        take(timeline.frame(at: max(.zero, timeline.end)))

        shapes = timeline.shapes.enumerated().map { i, info in
            var tracks: [[Double]] = []
            tracks.reserveCapacity(attributes)
            let first = firstSeen[i]
            for a in 0..<attributes {
                guard let first else {
                    tracks.append([0])
                    continue
                }
                // Where the shape does not exist yet it is drawn invisible with its first values.
                let initial = a == Attribute.op.rawValue ? 0 : values[first * row + i * attributes + a]
                var track = [Double](repeating: initial, count: samples)
                var constant = true
                values.withUnsafeBufferPointer { buf in
                    for j in first..<samples {
                        let v = buf[j * row + i * attributes + a]
                        track[j] = v
                        if v != track[0] { constant = false }
                    }
                }
                tracks.append(constant ? [track[0]] : track)
            }
            var text = isText[i] ? texts[i] : [""]
            if let first, first > 0, first < text.count {
                for j in 0..<first { text[j] = text[first] }
            }
            if text.count > 1, text.allSatisfy({ $0 == text[0] }) { text = [text[0]] }
            return Shape(id: info.id, name: info.name, kind: info.kind, tracks: tracks, text: text)
        }
    }

    /// Writes a snapshot's attribute values, in `Attribute` order, from `base`.
    @inline(__always)
    static func write(_ s: ShapeSnapshot, to buf: UnsafeMutableBufferPointer<Double>, at base: Int) {
        let p = s.position
        let radius = s.kind == .circle ? abs(s.radius) : s.cornerRadius
        buf[base + Attribute.x.rawValue] = p.x
        buf[base + Attribute.y.rawValue] = p.y
        buf[base + Attribute.w.rawValue] = abs(s.size.x)
        buf[base + Attribute.h.rawValue] = abs(s.size.y)
        buf[base + Attribute.rot.rawValue] = s.rotation
        buf[base + Attribute.sx.rawValue] = s.scale.x
        buf[base + Attribute.sy.rawValue] = s.scale.y
        buf[base + Attribute.op.rawValue] = s.opacity
        buf[base + Attribute.rad.rawValue] = radius
        buf[base + Attribute.z.rawValue] = s.z
        buf[base + Attribute.r.rawValue] = max(0, min(255, s.color.r))
        buf[base + Attribute.g.rawValue] = max(0, min(255, s.color.g))
        buf[base + Attribute.b.rawValue] = max(0, min(255, s.color.b))
        buf[base + Attribute.font.rawValue] = max(0, s.font)
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
