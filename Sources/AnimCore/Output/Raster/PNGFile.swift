// PNGFile: writing and reading PNG images through libpng's simplified API (png_image_*), which
// reports failures in png_image.message rather than by longjmp, so no C shim is needed.
// Writing goes to a temporary file beside the target that is renamed over it only once
// complete, so a failure never leaves a half-written image.
import CPNG
#if canImport(Glibc)
import Glibc
#endif

/// A PNG failure, with libpng's or the system's words.
public struct PNGError: Error, Sendable {
    /// What went wrong.
    public var message: String
}

/// PNG encoding and decoding.
public enum PNGFile {
    /// RGBA, 8 bits per channel (PNG_FORMAT_RGBA is a macro Swift cannot import).
    static let formatRGBA = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// The PNG encoding of a canvas, compressed as small as libpng's defaults make it (single
    /// images and contact sheets).
    public static func encode(_ canvas: Canvas) throws(PNGError) -> [UInt8] {
        var encoder = PNGEncoder(compression: .small)
        return Array(try encoder.encode(canvas))
    }

    /// Decodes a PNG file into a canvas.
    public static func read(_ path: String) throws(PNGError) -> Canvas {
        var img = png_image()
        img.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&img, path) != 0 else { throw PNGError(message: "cannot read '\(path)': \(message(img))") }
        img.format = formatRGBA
        let w = Int(img.width), h = Int(img.height)
        var px = [UInt8](repeating: 0, count: w * h * 4)
        let ok = px.withUnsafeMutableBytes { png_image_finish_read(&img, nil, $0.baseAddress, 0, nil) }
        guard ok != 0 else { throw PNGError(message: "cannot read '\(path)': \(message(img))") }
        return Canvas(width: w, height: h, rgba: px)
    }

    /// Writes a canvas as a PNG file, atomically (temporary file, then rename).
    public static func write(_ canvas: Canvas, to path: String) throws(PNGError) {
        let bytes = try encode(canvas)
        do { try AtomicFile.write(bytes, to: path) } catch { throw PNGError(message: error.message) }
    }

    static func message(_ img: png_image) -> String {
        withUnsafeBytes(of: img.message) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
    }
}

/// Encodes canvases as PNG, keeping its buffers from one image to the next: a renderer has
/// one per thread and encodes every frame through it.
public struct PNGEncoder: Sendable {
    /// How hard to compress.
    public enum Compression: Sendable {
        /// libpng's defaults: adaptive row filters, zlib's default level.
        case small
        /// libpng's PNG_IMAGE_FLAG_FAST: no row filters, zlib level 3. For frame sequences:
        /// three to six times faster to write, and on anim's flat-coloured frames within
        /// about a third of the size either way (larger or smaller).
        case fast
    }

    /// The compression used.
    public let compression: Compression
    /// The canvas as 8-bit RGB or RGBA.
    var rgba: [UInt8] = []
    /// The encoded bytes (its start).
    var out: [UInt8] = []

    /// An encoder.
    public init(compression: Compression) { self.compression = compression }

    /// The PNG encoding of a canvas. The slice is valid until the next call (keep a copy
    /// otherwise).
    public mutating func encode(_ canvas: Canvas) throws(PNGError) -> ArraySlice<UInt8> {
        var img = png_image()
        img.version = png_uint_32(PNG_IMAGE_VERSION)
        img.width = png_uint_32(canvas.width)
        img.height = png_uint_32(canvas.height)
        img.flags = compression == .fast ? png_uint_32(PNG_IMAGE_FLAG_FAST) : 0
        // An image with no transparent pixel (any frame of an opaque stage) is written as RGB:
        // a quarter less to compress, and read back it is the same RGBA.
        let rgb = canvas.writeBytes(into: &rgba, dropOpaqueAlpha: true)
        img.format = rgb ? png_uint_32(PNG_FORMAT_FLAG_COLOR) : PNGFile.formatRGBA
        // libpng's upper bound on the whole stream (PNG_IMAGE_PNG_SIZE_MAX, a macro Swift
        // cannot import), so one call encodes; should it still be short, libpng says how much
        // it needs and a second call uses that.
        let raw = rgba.count
        let zlib = raw + (raw + 7) / 8 + (raw + 63) / 64 + 11
        var size = png_alloc_size_t(zlib + 8 + 25 + 16 + 44 + 12 + 12 + 12 * (zlib / 8192) + 64)
        for _ in 0..<2 {
            if out.count < Int(size) { out = [UInt8](repeating: 0, count: Int(size)) }
            size = png_alloc_size_t(out.count)
            let ok = out.withUnsafeMutableBytes { o in
                rgba.withUnsafeBytes { png_image_write_to_memory(&img, o.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
            }
            if ok != 0 { return out[0..<Int(size)] }
            // Failed: either a real error (size 0 or unchanged) or a buffer too small.
            guard Int(size) > out.count else { break }
        }
        throw PNGError(message: PNGFile.message(img))
    }
}

/// A file failure, with the system's words.
public struct FileError: Error, Sendable {
    /// What went wrong, naming the path.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
}

/// Files that appear whole or not at all.
public enum AtomicFile {
    /// Writes bytes to a temporary file in the target's directory, then renames it over the
    /// target. On failure the temporary file is removed and the target is untouched.
    /// A target that is a device, pipe or socket (`-o /dev/stdout`) is written directly: it
    /// cannot be replaced by a rename. A symbolic link is followed, so the file it names is
    /// replaced and the link stays.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        var target = path
        var st = stat()
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
            if let real = realpath(path, nil) {
                target = String(cString: real)
                free(real)
            } else {
                // A link to a file not there yet: its text, beside the link when relative.
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let n = readlink(path, &buffer, buffer.count - 1)
                if n > 0 {
                    let text = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    let dir = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
                    target = text.hasPrefix("/") ? text : dir + text
                }
            }
        }
        if stat(target, &st) == 0 && (st.st_mode & S_IFMT) != S_IFREG {
            guard (st.st_mode & S_IFMT) != S_IFDIR else { throw FileError(message: "cannot write '\(path)': it is a directory") }
            let fd = open(target, O_WRONLY | O_TRUNC)
            guard fd >= 0 else { throw FileError(message: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
            if let e = writeAll(bytes, to: fd) { close(fd); throw FileError(message: "cannot write '\(path)': \(e)") }
            guard close(fd) == 0 else { throw FileError(message: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
            return
        }
        let temp = temporaryPath(for: target)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw FileError(message: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
        if let e = writeAll(bytes, to: fd) {
            close(fd); unlink(temp)
            throw FileError(message: "cannot write '\(path)': \(e)")
        }
        // fsync before the rename: after a power loss the target is the old file or the new
        // one, never an empty one.
        guard fsync(fd) == 0 || errno == EINVAL, close(fd) == 0, rename(temp, target) == 0 else {
            let e = String(cString: strerror(errno))
            unlink(temp)
            throw FileError(message: "cannot write '\(path)': \(e)")
        }
    }

    /// Writes all of `bytes` to a descriptor; the system's words for a failure, or nil.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n == 0 ? "nothing was written" : String(cString: strerror(errno)) }
            offset += n
        }
        return nil
    }

    /// Writes text atomically.
    public static func write(_ text: String, to path: String) throws(FileError) {
        try write(Array(text.utf8), to: path)
    }

    /// A unique temporary name beside `path` (`.name.anim-tmp-PID-N`), so the rename stays on
    /// one file system.
    public static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        counter.increment()
        return "\(dir).\(base).anim-tmp-\(getpid())-\(counter.value)"
    }

    /// Numbers temporary files within the process.
    nonisolated(unsafe) static var counter = Counter()

    /// A plain counter (the renderers run on one thread).
    struct Counter {
        var value = 0
        mutating func increment() { value += 1 }
    }
}
