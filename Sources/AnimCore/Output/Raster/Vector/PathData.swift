// PathData: SVG path data (`d="M 0 50 C 25 0, 75 100, 100 50"`) into an Outline. The data is
// parsed by PathValue (Values/PathValue.swift: SVG 2 §9.3.9, arcs as cubic Béziers), the value
// a `path` shape's `d` holds; here its absolute commands become an outline's contours, and a
// malformed string's error becomes the vector layer's, with the same character offset.

/// Parses SVG path data.
public enum PathData {
    /// The most commands one path may hold (implicit repetitions count): enough for any icon
    /// or glyph, and small enough that the outline stays within FreeType's 32,767 points in
    /// the common case (a path of arcs may still exceed it; that is `tooManyPoints`).
    public static let maxCommands = PathValue.maxCommands

    /// The outline of `text`, or why it is malformed.
    public static func parse(_ text: String) -> Result<Outline, VectorError> {
        switch PathValue.parse(text) {
        case .failure(let e): return .failure(VectorError(e))
        case .success(let path):
            let outline = Outline(path)
            let points = outline.pointCount
            guard points <= OutlineRasterizer.maxPoints else {
                return .failure(.tooManyPoints(count: points, limit: OutlineRasterizer.maxPoints))
            }
            return .success(outline)
        }
    }
}

extension Outline {
    /// The outline drawn by path data.
    public init(_ path: PathValue) {
        self.init()
        for c in path.commands {
            switch c {
            case .move(let p): move(to: p)
            case .line(let p): line(to: p)
            case .quadratic(let c, let p): quadratic(to: p, control: c)
            case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }
}

extension VectorError {
    /// The vector layer's error for malformed path data.
    init(_ e: PathSyntaxError) {
        switch e {
        case .expectedCommand(let o, let c): self = .pathExpectedCommand(offset: o, found: c)
        case .mustStartWithMove(let o): self = .pathMustStartWithMove(offset: o)
        case .incompleteCommand(let o, let c, let n): self = .pathIncompleteCommand(offset: o, command: c, takes: n)
        case .expectedNumber(let o, let c): self = .pathExpectedNumber(offset: o, found: c)
        case .badArcFlag(let o): self = .pathBadArcFlag(offset: o)
        case .numberOutOfRange(let o): self = .pathNumberOutOfRange(offset: o)
        case .tooManyCommands(let limit): self = .pathTooManyCommands(limit: limit)
        }
    }
}
