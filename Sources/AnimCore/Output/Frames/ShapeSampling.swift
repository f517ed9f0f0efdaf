// ShapeSampling: a Timeline's shapes sampled frame after frame in place — the values
// `Timeline.frames(on:_:)` gives, without making a StageFrame per frame. Each shape keeps one
// snapshot for the whole pass, declared once and then written only where its animated
// properties are (a row of the Sampler, once it has a value, keeps one: so the snapshot after
// frame k is the one StageFrames copies from its declaration and writes at frame k). Outputs that
// read every shape per frame and keep their own per-shape tracks (BakedFrames) read it shape by
// shape instead of copying 1,000 snapshots per frame and sorting them into paint order.
// Tests/AnimCoreTests/Output/BakedFramesEquivalenceTests.swift checks the player's data made
// this way is the data made from StageFrames, byte for byte, on every golden script and example.

/// The shapes of a timeline, sampled in place at increasing frames of a grid.
struct ShapeSampling {
    let timeline: Timeline
    let grid: FrameGrid
    let sampler: Sampler
    /// Each shape's current values (declaration order; a glyph's are its GlyphSnapshot's).
    private(set) var current: [ShapeSnapshot]
    private var glyph: [GlyphSnapshot]
    /// When each shape is created.
    private let created: [Time]
    /// The built-in properties with rows, shape by shape: shape i's are
    /// `animated[first[i] ..< first[i + 1]]`.
    private let first: [Int32]
    private let animated: [(property: BuiltinProperty, row: Int32)]
    /// Each shape's text when it is a glyph (−1: not a glyph).
    private let owners: [Int]
    /// Whether any shape is a glyph.
    private let hasGlyphs: Bool
    /// Whether each shape exists at the last frame sampled (created then or before).
    private(set) var exists: [Bool]
    /// The shapes brought up (nil: all).
    let shapes: Range<Int>?
    /// Whether shape i is a glyph drawn in its text (its entry in `current` is not drawn).
    func isFolded(_ i: Int) -> Bool { hasGlyphs && owners[i] >= 0 }

    /// A sampling of the shapes in `shapes` (nil: all; a text's glyphs must be in its range):
    /// its Sampler samples only their rows, so samplings of ranges side by side share a frame's
    /// work out instead of each sampling every row.
    init(_ timeline: Timeline, grid: FrameGrid, shapes: Range<Int>? = nil) {
        self.timeline = timeline
        self.grid = grid
        self.shapes = shapes
        sampler = Sampler(history: timeline.history, grid: grid, shapes: shapes)
        let table = SamplingTable(timeline, shapes: shapes)
        let current = table.declared
        owners = timeline.glyphOwners
        hasGlyphs = owners.contains { $0 >= 0 }
        glyph = hasGlyphs ? current.map(GlyphSnapshot.init) : []
        self.current = current
        created = table.created
        first = table.first
        animated = table.animated
        exists = [Bool](repeating: false, count: current.count)
    }

    /// Brings every shape up to frame `f` (later than the last one sampled): afterwards
    /// `current[i]` is shape i as `Timeline.frames(on:_:)` shows it at `f` where `exists[i]`
    /// (glyphs folded into their texts' `glyphs`; a glyph's own entry is not drawn), for the
    /// shapes of the sampling's range.
    mutating func sample(frame f: Int64) {
        let t = grid.time(ofFrame: f)
        sampler.sample(frame: f)
        let sampler = self.sampler, range = self.shapes
        current.withUnsafeMutableBufferPointer { shapes in
            for i in range ?? shapes.indices where created[i] <= t {
                exists[i] = true
                let o = hasGlyphs ? owners[i] : -1
                if o >= 0 {
                    // A glyph: its values go into its text's snapshot (Grammar.md §4.12).
                    guard exists[o] else { continue }
                    for k in Int(first[i])..<Int(first[i + 1]) {
                        let (p, row) = animated[k]
                        guard sampler.hasValue(ofRow: Int(row)) else { continue }
                        glyph[i].set(p, sampler.numericValue(ofRow: Int(row)))
                    }
                    shapes[o].glyphs.append(glyph[i])
                    continue
                }
                if hasGlyphs && !shapes[i].glyphs.isEmpty { shapes[i].glyphs.removeAll(keepingCapacity: true) }
                for k in Int(first[i])..<Int(first[i + 1]) {
                    let (p, row) = animated[k]
                    guard sampler.hasValue(ofRow: Int(row)) else { continue }
                    if let n = sampler.numericValue(ofRow: Int(row)) { shapes[i].set(p, n) } else { shapes[i].set(p, sampler.value(ofRow: Int(row))) }
                }
            }
        }
    }
}
