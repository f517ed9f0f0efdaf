// Fonts: font files found through fontconfig by family and weight, opened with FreeType, and
// their glyphs loaded as unhinted outlines in font units (FT_LOAD_NO_SCALE), so that text is
// drawn by the same rasterizer, transforms and paints as every other shape and looks the same
// at every size, rotation and fraction of a pixel. A family that is not installed falls back
// to fontconfig's choice (its default sans-serif, DejaVu Sans where installed) with a warning
// returned as data; the generic CSS families (`sans-serif`, `serif`, `monospace`, …) are
// fontconfig aliases and never warn. A FontCollection owns its fontconfig configuration and
// the faces it opened; faces are shared across threads behind a lock each.
import CFontconfig
import CFreeType
import Synchronization

/// A font face and the glyphs loaded from it so far.
public final class FontFace: @unchecked Sendable {
    /// The family name the font declares.
    public let family: String
    /// The style name (`Book`, `Bold`, …).
    public let style: String
    /// The font file and the face's index in it.
    public let path: String, index: Int
    /// Font units per em.
    public let unitsPerEm: Double
    /// The ascender and descender (hhea, font units, y up: the descender is negative).
    public let ascender: Double, descender: Double
    /// Whether the font has a kerning table FreeType reads (`kern`).
    public let hasKerning: Bool

    /// One glyph in font units (y down, origin at the pen position on the baseline).
    public struct Glyph: Sendable {
        /// The outline.
        public let outline: Outline
        /// The advance width.
        public let advance: Double
    }

    /// The face and its glyph cache, behind the lock (FreeType faces are not thread-safe).
    private struct State: @unchecked Sendable {
        let face: FT_Face
        var glyphs: [UInt32: Glyph] = [:]
    }

    private let state: Mutex<State>

    /// Opens `path` (face `index`) with FreeType.
    init(path: String, index: Int) throws(VectorError) {
        guard let lib = FreeTypeLibrary.shared else { throw .fontUnloadable(path: path, code: -1) }
        var face: FT_Face?
        let code = lib.faceLock.withLock { _ in FT_New_Face(lib.handle, path, FT_Long(index), &face) }
        guard code == 0, let face else { throw .fontUnloadable(path: path, code: code) }
        let rec = face.pointee
        self.path = path
        self.index = index
        family = rec.family_name.map { String(cString: $0) } ?? ""
        style = rec.style_name.map { String(cString: $0) } ?? ""
        unitsPerEm = Double(max(1, rec.units_per_EM))
        ascender = Double(rec.ascender)
        descender = Double(rec.descender)
        hasKerning = (rec.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
        state = Mutex(State(face: face))
    }

    deinit {
        let face = state.withLock { $0.face }
        if let lib = FreeTypeLibrary.shared { _ = lib.faceLock.withLock { _ in FT_Done_Face(face) } }
    }

    /// The glyph index of a character (0, the missing-glyph box, when the font has none).
    public func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        state.withLock { UInt32(FT_Get_Char_Index($0.face, FT_ULong(scalar.value))) }
    }

    /// The glyph at `index`, loaded once.
    public func glyph(_ index: UInt32) -> Glyph {
        state.withLock { s in
            if let g = s.glyphs[index] { return g }
            let g = FontFace.load(s.face, index)
            s.glyphs[index] = g
            return g
        }
    }

    /// The kerning between two glyphs, in font units (FT_Get_Kerning, unscaled).
    public func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerning else { return 0 }
        return state.withLock { s in
            var v = FT_Vector()
            guard FT_Get_Kerning(s.face, left, right, FT_KERNING_UNSCALED.rawValue, &v) == 0 else { return 0 }
            return Double(v.x)
        }
    }

    /// Loads a glyph's outline in font units and flips it to y down.
    private static func load(_ face: FT_Face, _ index: UInt32) -> Glyph {
        guard FT_Load_Glyph(face, index, Int32(FT_LOAD_NO_SCALE)) == 0, let slot = face.pointee.glyph else {
            return Glyph(outline: Outline(), advance: 0)
        }
        let advance = Double(slot.pointee.metrics.horiAdvance)
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return Glyph(outline: Outline(), advance: advance) }
        let builder = OutlineBuilder()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                OutlineBuilder.from(user).outline.move(to: OutlineBuilder.point(to)); return 0
            },
            line_to: { to, user in
                OutlineBuilder.from(user).outline.line(to: OutlineBuilder.point(to)); return 0
            },
            conic_to: { control, to, user in
                OutlineBuilder.from(user).outline.quadratic(to: OutlineBuilder.point(to), control: OutlineBuilder.point(control)); return 0
            },
            cubic_to: { c1, c2, to, user in
                OutlineBuilder.from(user).outline.cubic(to: OutlineBuilder.point(to), control1: OutlineBuilder.point(c1),
                                                         control2: OutlineBuilder.point(c2)); return 0
            },
            shift: 0, delta: 0)
        withExtendedLifetime(builder) {
            _ = FT_Outline_Decompose(&slot.pointee.outline, &funcs, Unmanaged.passUnretained(builder).toOpaque())
        }
        var outline = builder.outline
        for k in outline.contours.indices { outline.contours[k].isClosed = true }
        return Glyph(outline: outline, advance: advance)
    }

    /// Collects FT_Outline_Decompose's calls.
    private final class OutlineBuilder {
        var outline = Outline()
        static func from(_ user: UnsafeMutableRawPointer?) -> OutlineBuilder {
            Unmanaged<OutlineBuilder>.fromOpaque(user!).takeUnretainedValue()
        }
        static func point(_ v: UnsafePointer<FT_Vector>?) -> Point {
            guard let v else { return .zero }
            return Point(Double(v.pointee.x), -Double(v.pointee.y))
        }
    }
}

/// The face chosen for a request, and a warning if it is not the family asked for.
public struct FontMatch: Sendable {
    /// The face.
    public let face: FontFace
    /// Set when the family is not installed and another was used.
    public let warning: VectorWarning?
}

/// Fonts found through fontconfig, and the faces opened from them.
public final class FontCollection: @unchecked Sendable {
    /// fontconfig's configuration and the open faces (by file and index), behind a lock.
    private struct State: @unchecked Sendable {
        let config: OpaquePointer?
        var faces: [String: FontFace] = [:]
    }

    private let state: Mutex<State>

    /// CSS's generic families and fontconfig's own aliases: matched by fontconfig's rules,
    /// never "missing".
    static let genericFamilies: Set<String> = ["sans-serif", "serif", "monospace", "cursive", "fantasy", "system-ui",
                                               "sans", "mono", "ui-sans-serif", "ui-serif", "ui-monospace"]

    /// A collection over the system's fonts (fontconfig's configuration and cache).
    public init() {
        state = Mutex(State(config: FcInitLoadConfigAndFonts()))
    }

    deinit {
        state.withLock { s in
            if let c = s.config { FcConfigDestroy(c) }
        }
    }

    /// The face for `family` at CSS `weight` (100 thin … 400 normal … 700 bold … 900 black).
    public func match(family: String, weight: Int = 400) -> Result<FontMatch, VectorError> {
        let found: (path: String, index: Int, families: [String])? = state.withLock { s in
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            _ = family.withCString { name in
                name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
            }
            FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(max(1, min(1000, weight)))))
            FcConfigSubstitute(s.config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultMatch
            guard let m = FcFontMatch(s.config, pattern, &result) else { return nil }
            defer { FcPatternDestroy(m) }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            var index: Int32 = 0
            if FcPatternGetInteger(m, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
            var families: [String] = []
            var n: Int32 = 0
            var name: UnsafeMutablePointer<FcChar8>?
            while FcPatternGetString(m, FC_FAMILY, n, &name) == FcResultMatch, let name {
                families.append(String(cString: name))
                n += 1
            }
            return (String(cString: file), Int(index), families)
        }
        guard let found else { return .failure(.noFonts) }
        let face: FontFace
        do {
            face = try self.face(path: found.path, index: found.index)
        } catch {
            return .failure(error)
        }
        let wanted = family.lowercased()
        let installed = found.families.contains { $0.lowercased() == wanted } || face.family.lowercased() == wanted
        let generic = FontCollection.genericFamilies.contains(wanted)
        let warning: VectorWarning? = installed || generic || family.isEmpty
            ? nil : .fontFallback(requested: family, used: found.families.first ?? face.family)
        return .success(FontMatch(face: face, warning: warning))
    }

    /// The face in `path` at `index`, opened once.
    func face(path: String, index: Int) throws(VectorError) -> FontFace {
        let key = "\(index):\(path)"
        if let f = state.withLock({ $0.faces[key] }) { return f }
        let f = try FontFace(path: path, index: index)
        return state.withLock { s in
            if let existing = s.faces[key] { return existing }
            s.faces[key] = f
            return f
        }
    }
}
