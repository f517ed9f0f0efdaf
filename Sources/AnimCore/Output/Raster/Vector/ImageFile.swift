// ImageFile: PNG images for the `image` shape, read with libpng's simplified API from memory
// (png_image_begin_read_from_memory / png_image_finish_read: errors come back in
// png_image.message, never by longjmp), checked against size limits before any pixel is
// decoded, and kept premultiplied with a chain of half-size levels (2 × 2 box averages) so
// that an image drawn much smaller than it is does not alias. Failures are VectorErrors: an
// unreadable file, bytes that are not PNG, a corrupt PNG, an image or file too large.
import CPNG
#if canImport(Glibc)
import Glibc
#endif

/// A decoded image: premultiplied RGBA levels, level 0 the image itself, each next one half
/// the size (rounded up) of the one before, down to 1 × 1.
public struct RasterImage: Sendable {
    /// The levels; `levels[0]` is the image at full size.
    public let levels: [Canvas]
    /// Width in pixels.
    public var width: Int { levels[0].width }
    /// Height in pixels.
    public var height: Int { levels[0].height }

    /// An image from a canvas (its pixels as they are), with its smaller levels.
    public init(_ canvas: Canvas) {
        var levels = [canvas]
        while let last = levels.last, last.width > 1 || last.height > 1 {
            levels.append(RasterImage.half(last))
        }
        self.levels = levels
    }

    /// The 2 × 2 box average, premultiplied (an odd last row or column averages with itself).
    static func half(_ c: Canvas) -> Canvas {
        let w = (c.width + 1) / 2, h = (c.height + 1) / 2
        var out = Canvas(width: w, height: h)
        c.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let y0 = 2 * y, y1 = min(2 * y + 1, c.height - 1)
                    for x in 0..<w {
                        let x0 = 2 * x, x1 = min(2 * x + 1, c.width - 1)
                        let o = (y * w + x) * 4
                        for ch in 0..<4 {
                            dst[o + ch] = (src[(y0 * c.width + x0) * 4 + ch] + src[(y0 * c.width + x1) * 4 + ch]
                                + src[(y1 * c.width + x0) * 4 + ch] + src[(y1 * c.width + x1) * 4 + ch]) * 0.25
                        }
                    }
                }
            }
        }
        return out
    }
}

/// Reading PNG images.
public enum ImageFile {
    /// The widest or tallest image read: 16,384 pixels (what browsers' canvases allow, and
    /// beyond anything a stage shows).
    public static let maxSide = 16_384
    /// The most pixels read: 16,777,216 (4096 × 4096; 256 MiB as the float pixels drawing uses).
    public static let maxPixels = 16_777_216
    /// The largest file read: 64 MiB (compressed data of a maximal image rarely comes near).
    public static let maxFileBytes = 64 << 20

    /// The PNG signature (PNG specification §5.2).
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Reads and decodes the PNG file at `path`.
    public static func read(_ path: String) -> Result<RasterImage, VectorError> {
        switch readBytes(path) {
        case .success(let bytes): return decode(bytes, name: path)
        case .failure(let e): return .failure(e)
        }
    }

    /// The bytes of the file at `path` (nil: unreadable, or beyond `maxFileBytes`).
    public static func bytes(_ path: String) -> [UInt8]? {
        if case .success(let b) = readBytes(path) { return b }
        return nil
    }

    /// Reads the whole file at `path`, up to `maxFileBytes`.
    static func readBytes(_ path: String) -> Result<[UInt8], VectorError> {
        var st = stat()
        guard stat(path, &st) == 0 else { return .failure(.imageUnreadable(path: path, reason: String(cString: strerror(errno)))) }
        if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(.imageUnreadable(path: path, reason: "it is a directory")) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return .failure(.imageUnreadable(path: path, reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return .failure(.imageUnreadable(path: path, reason: String(cString: strerror(errno)))) }
            if n == 0 { break }
            bytes += chunk[..<n]
            if bytes.count > maxFileBytes { return .failure(.imageFileTooLarge(path: path, bytes: Int(st.st_size), limit: maxFileBytes)) }
        }
        return .success(bytes)
    }

    /// Decodes PNG bytes; `name` is the path or label errors mention.
    public static func decode(_ bytes: [UInt8], name: String) -> Result<RasterImage, VectorError> {
        guard bytes.count <= maxFileBytes else { return .failure(.imageFileTooLarge(path: name, bytes: bytes.count, limit: maxFileBytes)) }
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return .failure(.imageNotPNG(path: name)) }
        // libpng reads from the bytes until finish_read: both calls inside one borrow.
        return bytes.withUnsafeBytes { raw -> Result<RasterImage, VectorError> in
            var img = png_image()
            img.version = png_uint_32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&img, raw.baseAddress, raw.count) != 0 else {
                return .failure(.imageCorrupt(path: name, reason: PNGFile.message(img)))
            }
            let w = Int(img.width), h = Int(img.height)
            guard w <= maxSide, h <= maxSide, w * h <= maxPixels else {
                png_image_free(&img)
                return .failure(.imageTooLarge(path: name, width: w, height: h))
            }
            img.format = PNGFile.formatRGBA
            var px = [UInt8](repeating: 0, count: w * h * 4)
            let ok = px.withUnsafeMutableBytes { png_image_finish_read(&img, nil, $0.baseAddress, 0, nil) }
            guard ok != 0 else { return .failure(.imageCorrupt(path: name, reason: PNGFile.message(img))) }
            return .success(RasterImage(Canvas(width: w, height: h, rgba: px)))
        }
    }
}

extension RasterImage {
    /// The premultiplied colour at continuous image coordinates (u, v) of `level` (pixel
    /// centers at half-integers), bilinear, clamped to the edge.
    @inline(__always)
    func sample(level: Int, _ u: Double, _ v: Double) -> (Float, Float, Float, Float) {
        let c = levels[level]
        let fx = u - 0.5, fy = v - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        let xa = max(0, min(c.width - 1, x0)), xb = max(0, min(c.width - 1, x0 + 1))
        let ya = max(0, min(c.height - 1, y0)), yb = max(0, min(c.height - 1, y0 + 1))
        return c.pixels.withUnsafeBufferPointer { p in
            let i00 = (ya * c.width + xa) * 4, i10 = (ya * c.width + xb) * 4
            let i01 = (yb * c.width + xa) * 4, i11 = (yb * c.width + xb) * 4
            func ch(_ k: Int) -> Float {
                let top = p[i00 + k] + (p[i10 + k] - p[i00 + k]) * tx
                let bottom = p[i01 + k] + (p[i11 + k] - p[i01 + k]) * tx
                return top + (bottom - top) * ty
            }
            return (ch(0), ch(1), ch(2), ch(3))
        }
    }
}
