// VectorError: everything the vector drawing layer rejects, as data with one message
// catalogue (house style §12): malformed path data, invalid strokes, dashes, gradients and
// shadows, unreadable images, missing fonts, and the limits. Values that are checked when they
// are made (StrokeStyle, Dash, Gradient, Shadow) cannot be invalid later, so drawing itself
// never fails. VectorWarning holds what is drawn anyway, with a note (a font fallback).

/// Why the drawing layer rejected an input.
public enum VectorError: Error, Hashable, Sendable {
    // MARK: Path data (`offset` counts characters from the start of the path string)
    /// Something other than a command letter where one was expected.
    case pathExpectedCommand(offset: Int, found: Character)
    /// Path data that does not begin with a moveto.
    case pathMustStartWithMove(offset: Int)
    /// A command whose numbers ran out.
    case pathIncompleteCommand(offset: Int, command: Character, takes: Int)
    /// Something other than a number (or the next command) where a command's number was expected.
    case pathExpectedNumber(offset: Int, found: Character)
    /// An arc flag that is not 0 or 1.
    case pathBadArcFlag(offset: Int)
    /// A number too large to be finite.
    case pathNumberOutOfRange(offset: Int)
    /// More commands than `PathData.maxCommands`.
    case pathTooManyCommands(limit: Int)
    /// An outline with more points than a renderer holds (`OutlineRasterizer.maxPoints`).
    case tooManyPoints(count: Int, limit: Int)

    // MARK: Strokes and dashes
    /// A stroke width below zero.
    case negativeStrokeWidth(Double)
    /// A stroke width above `StrokeStyle.maxWidth`.
    case strokeWidthTooLarge(Double, limit: Double)
    /// A miter limit below 1 (SVG requires at least 1).
    case miterLimitBelowOne(Double)
    /// A dash length below zero.
    case negativeDash(Double)
    /// A dash pattern that would cut an outline into more than `Dash.maxDashes` pieces.
    case tooManyDashes(limit: Int)

    // MARK: Paints and shadows
    /// A gradient with fewer than two colour stops.
    case gradientNeedsTwoStops(found: Int)
    /// A negative shadow blur.
    case negativeShadowBlur(Double)
    /// A shadow blur above `Shadow.maxBlur`.
    case shadowBlurTooLarge(Double, limit: Double)
    /// A number that is not finite (NaN or infinite) where a value was needed.
    case notFinite(String)

    // MARK: Images
    /// A file that cannot be read (missing, a directory, no permission…).
    case imageUnreadable(path: String, reason: String)
    /// Bytes that are not a PNG image.
    case imageNotPNG(path: String)
    /// A PNG that libpng could not decode.
    case imageCorrupt(path: String, reason: String)
    /// An image wider, taller or larger than `ImageFile`'s limits.
    case imageTooLarge(path: String, width: Int, height: Int)
    /// A file larger than `ImageFile.maxFileBytes`.
    case imageFileTooLarge(path: String, bytes: Int, limit: Int)

    // MARK: Fonts and text
    /// fontconfig found no font at all.
    case noFonts
    /// FreeType could not open the font fontconfig chose.
    case fontUnloadable(path: String, code: Int32)
    /// A text with more glyphs than `TextLayout.maxGlyphs`.
    case tooManyGlyphs(count: Int, limit: Int)

    /// Where in the path string the problem is, for path-data errors.
    public var offset: Int? {
        switch self {
        case .pathExpectedCommand(let o, _), .pathMustStartWithMove(let o), .pathIncompleteCommand(let o, _, _), .pathExpectedNumber(let o, _),
             .pathBadArcFlag(let o), .pathNumberOutOfRange(let o):
            o
        default:
            nil
        }
    }

    /// The message: lowercase, no final period, names in single quotes.
    public var message: String {
        switch self {
        case .pathExpectedCommand(_, let c):
            "expected a path command (M, L, H, V, C, S, Q, T, A or Z), found '\(c)'"
        case .pathMustStartWithMove:
            "path data must start with a moveto ('M' or 'm')"
        case .pathIncompleteCommand(_, let c, let n):
            "incomplete '\(c)' command: it takes \(n) number\(n == 1 ? "" : "s")"
        case .pathExpectedNumber(_, let c):
            "expected a number in path data, found '\(c)'"
        case .pathBadArcFlag:
            "an arc flag must be 0 or 1"
        case .pathNumberOutOfRange:
            "number out of range in path data"
        case .pathTooManyCommands(let limit):
            "path data has more than \(grouped(limit)) commands"
        case .tooManyPoints(let n, let limit):
            "the outline has \(grouped(n)) points; at most \(grouped(limit)) can be drawn"
        case .negativeStrokeWidth(let w):
            "stroke width \(plain(w)) is negative"
        case .strokeWidthTooLarge(let w, let limit):
            "stroke width \(plain(w)) is larger than \(plain(limit))"
        case .miterLimitBelowOne(let m):
            "miter limit \(plain(m)) is below 1"
        case .negativeDash(let d):
            "dash length \(plain(d)) is negative"
        case .tooManyDashes(let limit):
            "the dash pattern cuts the outline into more than \(grouped(limit)) dashes"
        case .gradientNeedsTwoStops(let n):
            "a gradient needs at least two colour stops, found \(n)"
        case .negativeShadowBlur(let b):
            "shadow blur \(plain(b)) is negative"
        case .shadowBlurTooLarge(let b, let limit):
            "shadow blur \(plain(b)) is larger than \(plain(limit))"
        case .notFinite(let what):
            "\(what) is not a finite number"
        case .imageUnreadable(let path, let reason):
            "cannot read image '\(path)': \(reason)"
        case .imageNotPNG(let path):
            "'\(path)' is not a PNG image"
        case .imageCorrupt(let path, let reason):
            "cannot decode PNG image '\(path)': \(reason)"
        case .imageTooLarge(let path, let w, let h):
            "image '\(path)' is \(w) x \(h) pixels; at most \(grouped(ImageFile.maxSide)) on a side and \(grouped(ImageFile.maxPixels)) pixels are read"
        case .imageFileTooLarge(let path, let bytes, let limit):
            "image file '\(path)' is \(grouped(bytes)) bytes; at most \(grouped(limit)) are read"
        case .noFonts:
            "no fonts are installed (fontconfig found none)"
        case .fontUnloadable(let path, let code):
            "FreeType cannot open the font '\(path)' (error \(code))"
        case .tooManyGlyphs(let n, let limit):
            "the text has \(grouped(n)) glyphs; at most \(grouped(limit)) are drawn"
        }
    }
}

/// Something drawn anyway, with a note for the user.
public enum VectorWarning: Hashable, Sendable {
    /// The requested font family is not installed; another was used.
    case fontFallback(requested: String, used: String)
    /// Characters the font has no glyph for (drawn as the font's missing-glyph box).
    case missingGlyphs(family: String, characters: String)

    /// The message: lowercase, no final period.
    public var message: String {
        switch self {
        case .fontFallback(let requested, let used):
            "font family '\(requested)' is not installed; using '\(used)'"
        case .missingGlyphs(let family, let chars):
            "font '\(family)' has no glyph for '\(chars)'"
        }
    }
}

/// A whole number with thousands separators: 32767 → "32,767".
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (k, ch) in digits.enumerated() {
        if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
}

/// A number as the language prints it: no trailing ".0".
func plain(_ x: Double) -> String {
    if x.isFinite && x == x.rounded() && abs(x) < 1e15 { return String(Int(x)) }
    return String(x)
}
