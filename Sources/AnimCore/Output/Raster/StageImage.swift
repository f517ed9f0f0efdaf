// StageImage: how every output finds an image shape's picture — each PNG file read and decoded
// once per process and version of the file (ImageFile: libpng, premultiplied, with its
// half-size levels), kept by its resolved path, modification time and size for every frame
// and every renderer thread (`anim render -j N`) — and how the rasterizer draws it: the image scaled into the shape's box (its size, centred on 0 in the
// shape's own coordinates), bilinear, under the same translate · rotate · scale about the
// anchor as every shape (StageShapes.localTransform), under its alpha, with its drop shadow
// (the picture's own alpha, offset, blurred and tinted) beneath, as SVG's feDropShadow on an
// <image> draws it.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The images read so far, by resolved path.
public enum StageImages {
    /// What `stat` says of a file when it was read: a file edited on disk (a new modification
    /// time or size) is read again, so `anim serve` and `anim lsp` see it without a restart.
    struct Stamp: Equatable {
        var seconds: Int, nanoseconds: Int, size: Int64
    }

    private static let cache = Mutex<[String: (stamp: Stamp?, image: Result<RasterImage, VectorError>)]>([:])

    /// The file's modification time and size (nil: it cannot be looked at, as when missing).
    static func stamp(_ path: String) -> Stamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        #if canImport(Glibc)
        return Stamp(seconds: Int(st.st_mtim.tv_sec), nanoseconds: Int(st.st_mtim.tv_nsec), size: Int64(st.st_size))
        #else
        return Stamp(seconds: Int(st.st_mtimespec.tv_sec), nanoseconds: Int(st.st_mtimespec.tv_nsec), size: Int64(st.st_size))
        #endif
    }

    /// The image at `path`, read on first use and again when the file has changed since.
    public static func load(_ path: String) -> Result<RasterImage, VectorError> {
        let now = stamp(path)
        if let hit = cache.withLock({ $0[path] }), hit.stamp == now { return hit.image }
        let read = ImageFile.read(path)
        cache.withLock { $0[path] = (now, read) }
        return read
    }

    /// The PNG file's bytes, for the outputs that embed it (data URIs); nil if unreadable.
    public static func bytes(_ path: String) -> [UInt8]? {
        guard case .success = load(path) else { return nil }
        return ImageFile.bytes(path)
    }
}

extension ShapeSnapshot {
    /// An image shape's box in its own coordinates (centred on 0).
    var imageBox: Box {
        let h = halfExtents
        return Box(x: -h.x, y: -h.y, width: 2 * h.x, height: 2 * h.y)
    }
}

extension Canvas {
    /// Draws an image shape through the vector layer (StageImage), clipped to `clip`.
    mutating func drawImage(_ s: ShapeSnapshot, path: String, originX: Double, originY: Double, scale: Double,
                            clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
        let opacity = max(0, min(1, s.alpha))
        guard opacity > 0, case .success(let image) = StageImages.load(path) else { return }
        let m = s.localTransform(originX: originX, originY: originY, scale: scale)
        let box = s.imageBox
        guard m.isFinite, m.inverted != nil, box.width > 0, box.height > 0 else { return }
        withVector(clip: clip) { v in
            if let shadow = s.vectorShadow {
                try? v.group(bounds: box.transformed(by: m).expanded(1, 1), opacity: opacity, shadow: shadow, transform: m) {
                    (layer: inout VectorCanvas) throws(VectorError) in
                    layer.draw(image: image, in: box, transform: m)
                }
            } else {
                v.draw(image: image, in: box, transform: m, opacity: opacity)
            }
        }
    }
}

extension StageImages {
    /// The PNG file at `path` as a data URI (`data:image/png;base64,…`), so the HTML player and
    /// the animated SVG embed it and stay one file; empty if it cannot be read.
    public static func dataURI(_ path: String) -> String {
        guard let b = bytes(path) else { return "" }
        return "data:image/png;base64," + base64(b)
    }

    /// Base64 with padding (RFC 4648 §4).
    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Timeline {
    /// An image shape's file, resolved against the script's directory ("" for other shapes).
    public func imageFile(of id: ShapeID) -> String {
        guard let v = history.declared(PropertyKey(id, BuiltinProperty.file.id)), case .string(let f) = v else { return "" }
        return imagePath(f)
    }
}
