// What the vector drawing tests share: a white canvas, pixel sums, and the reference renderer —
// headless Chromium screenshotting SVG and CSS of the same drawing — with the project's image
// comparison (≤ 0.5 % of pixels off by more than 24/255 in a channel, mean < 1 level).
@testable import AnimCore
import Foundation
import Testing

/// Colours used throughout.
enum Ink {
    static let white = Color(r: 255, g: 255, b: 255)
    static let black = Color(r: 0, g: 0, b: 0)
    static let red = Color(r: 255, g: 0, b: 0)
    static let blue = Color(r: 0, g: 0, b: 255)
}

extension VectorCanvas {
    /// A white canvas.
    static func white(_ w: Int, _ h: Int) -> VectorCanvas { VectorCanvas(width: w, height: h, background: Ink.white) }

    /// Ink (1 − the channel over white, so black on white counts 1 per pixel) summed over the
    /// canvas, from the float buffer (no rounding to 8 bits).
    func ink(channel: Int = 0) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: canvas.pixels.count, by: 4) {
            sum += Double(canvas.pixels[i + 3]) - Double(canvas.pixels[i + channel])
        }
        return sum
    }

    /// Ink of one pixel (exact, from the float buffer: 1 − premultiplied red over white).
    func inkAt(_ x: Int, _ y: Int) -> Double {
        let i = (y * canvas.width + x) * 4
        return Double(canvas.pixels[i + 3]) - Double(canvas.pixels[i])
    }
}

/// How far apart two images are (both composited over white).
struct PixelDifference: CustomStringConvertible {
    var maximum = 0
    var mean = 0.0
    var over = 0
    var pixels = 0
    var threshold = 24

    var overFraction: Double { pixels > 0 ? Double(over) / Double(pixels) : 0 }

    /// Within the project's tolerance for comparing renderers.
    var withinTolerance: Bool { overFraction <= 0.005 && mean < 1.0 }

    var description: String {
        "max \(maximum), mean \(String(format: "%.3f", mean)), \(over)/\(pixels) (\(String(format: "%.3f", overFraction * 100))%) over \(threshold)"
    }

    /// Compares the region (x, y, w, h) of two canvases of the same size.
    static func between(_ a: Canvas, _ b: Canvas, x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil,
                        threshold: Int = 24) -> PixelDifference {
        var d = PixelDifference(threshold: threshold)
        var sum = 0.0
        let w = width ?? a.width, h = height ?? a.height
        for py in y..<min(y + h, a.height, b.height) {
            for px in x..<min(x + w, a.width, b.width) {
                let i = (py * a.width + px) * 4, j = (py * b.width + px) * 4
                var worst: Float = 0
                for c in 0..<3 {
                    let va = a.pixels[i + c] + (1 - a.pixels[i + 3]), vb = b.pixels[j + c] + (1 - b.pixels[j + 3])
                    worst = max(worst, abs(va - vb) * 255)
                }
                let v = Int(worst.rounded())
                d.maximum = max(d.maximum, v)
                sum += Double(v)
                if v > threshold { d.over += 1 }
                d.pixels += 1
            }
        }
        d.mean = d.pixels > 0 ? sum / Double(d.pixels) : 0
        return d
    }
}

extension Canvas {
    /// The pixels of a rectangle of this canvas, as a new canvas.
    func crop(x: Int, y: Int, width w: Int, height h: Int) -> Canvas {
        var out = Canvas(width: w, height: h)
        for py in 0..<h where y + py < height {
            for px in 0..<w where x + px < width {
                for c in 0..<4 { out.pixels[(py * w + px) * 4 + c] = pixels[((y + py) * width + x + px) * 4 + c] }
            }
        }
        return out
    }
}

/// Headless Chromium as the reference renderer.
enum Chromium {
    /// The browser, if installed (Scripts/install-picture-tools installs it).
    static let executable: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome"] {
                let p = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: p) { return p }
            }
        }
        return nil
    }()

    static var skipNote: Comment { "chromium is not installed: run Scripts/install-picture-tools" }

    /// A screenshot of `body` (HTML) in a page of `width` × `height` CSS pixels with a white
    /// background and no margin, read back as a canvas. With `scale` > 1 the page is drawn at
    /// `scale` device pixels per CSS pixel and each `scale` × `scale` block is averaged: the area
    /// coverage of each CSS pixel, to 1/scale² (what text needs, see VectorChromiumTests).
    static func screenshot(_ body: String, width: Int, height: Int, scale: Int = 1) throws -> Canvas {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-vector-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("page.html")
        let html = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>html,body{margin:0;padding:0;background:#fff;overflow:hidden}"
            + "</style></head><body>\(body)</body></html>"
        try html.write(to: page, atomically: true, encoding: .utf8)
        return try screenshot(url: page.absoluteString, width: width, height: height, scale: scale)
    }

    /// A screenshot of the page at `url` (a file URL, perhaps with a fragment) in a window of
    /// `width` × `height` CSS pixels, read back as a canvas, averaged down from `scale` as
    /// `screenshot(_:width:height:scale:)` does.
    static func screenshot(url: String, width: Int, height: Int, scale: Int = 1) throws -> Canvas {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("anim-vector-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shot = dir.appendingPathComponent("shot.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable!)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=\(scale)",
                       "--default-background-color=ffffffff", "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
                       "--window-size=\(width),\(height)", "--screenshot=\(shot.path)", url]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let big = try PNGFile.read(shot.path)
        guard scale > 1 else { return big }
        var out = Canvas(width: width, height: height)
        let k = Float(scale * scale)
        for y in 0..<min(height, big.height / scale) {
            for x in 0..<min(width, big.width / scale) {
                for c in 0..<4 {
                    var sum: Float = 0
                    for j in 0..<scale {
                        for i in 0..<scale { sum += big.pixels[((y * scale + j) * big.width + x * scale + i) * 4 + c] }
                    }
                    out.pixels[(y * width + x) * 4 + c] = sum / k
                }
            }
        }
        return out
    }
}

/// Writes a canvas where a failing comparison can be looked at, if ANIM_VECTOR_DUMP names a directory.
func dump(_ canvas: Canvas, _ name: String) {
    guard let dir = ProcessInfo.processInfo.environment["ANIM_VECTOR_DUMP"] else { return }
    try? PNGFile.write(canvas, to: "\(dir)/\(name).png")
}
