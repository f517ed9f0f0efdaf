// RenderTestSupport: what the picture tests share — finding the outside consumers (Chromium,
// Graphviz, the lottie reader's virtual environment), running them, scratch directories, and
// comparing two images pixel by pixel.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

/// Outside programs the picture tests check anim's output against.
enum Consumers {
    /// A program on PATH, if any.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Headless Chromium (Debian's `chromium`), installed by Scripts/install-picture-tools.
    static let chromium: String? = find("chromium") ?? find("chromium-browser") ?? find("google-chrome")

    /// Graphviz `dot`.
    static let dot: String? = find("dot")

    /// The Python of the virtual environment holding the `lottie` reader and cairosvg.
    static let lottiePython: String? = {
        let python = TestPaths.packageRoot.appendingPathComponent(".build/test-tools/venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python),
              let r = try? run(python, ["-c", "import lottie, cairosvg"]), r.exitCode == 0 else { return nil }
        return python
    }()

    /// Why a consumer test is skipped, printed where the test log shows it.
    static func skipNote(_ tool: String) -> Comment {
        "\(tool) is not installed: run Scripts/install-picture-tools (Scripts/setup-test-tools calls it)"
    }

    /// Runs a program and collects its output.
    static func run(_ exe: String, _ args: [String]) throws -> ToolResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { box.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return ToolResult(stdout: String(decoding: box.data, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
                          exitCode: p.terminationStatus)
    }
}

/// What an outside program printed, and its exit status.
struct ToolResult {
    var stdout: String
    var stderr: String
    var exitCode: Int32
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init(_ tag: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("anim-\(tag)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// How far apart two images are.
struct ImageDifference: CustomStringConvertible {
    /// The largest difference of any channel of any pixel, 0...255.
    var maximum = 0
    /// The mean over pixels of the largest channel difference.
    var mean = 0.0
    /// Pixels whose largest channel difference is above `threshold`.
    var over = 0
    /// Pixels compared.
    var pixels = 0
    /// The threshold used for `over`.
    var threshold = 0

    /// The fraction of pixels above the threshold.
    var overFraction: Double { pixels > 0 ? Double(over) / Double(pixels) : 0 }

    var description: String {
        "max \(maximum), mean \(String(format: "%.3f", mean)), \(over)/\(pixels) pixels (\(String(format: "%.3f", overFraction * 100))%) differ by more than \(threshold)"
    }

    /// Compares two images of the same size (composited over white), channel by channel.
    static func between(_ a: Canvas, _ b: Canvas, threshold: Int) -> ImageDifference? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var d = ImageDifference(threshold: threshold)
        var sum = 0.0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let i = (y * a.width + x) * 4
                var worst: Float = 0
                for c in 0..<3 {
                    // Premultiplied over white: c + (1 - a).
                    let va = a.pixels[i + c] + (1 - a.pixels[i + 3]), vb = b.pixels[i + c] + (1 - b.pixels[i + 3])
                    worst = max(worst, abs(va - vb) * 255)
                }
                let w = Int(worst.rounded())
                d.maximum = max(d.maximum, w)
                sum += Double(w)
                if w > threshold { d.over += 1 }
                d.pixels += 1
            }
        }
        d.mean = d.pixels > 0 ? sum / Double(d.pixels) : 0
        return d
    }
}

/// The picture-test scene and other fixtures.
enum PictureFixtures {
    /// `Tests/Pictures`.
    static var directory: URL { TestPaths.packageRoot.appendingPathComponent("Tests/Pictures") }
    /// The scene every consumer check renders.
    static var scene: String { directory.appendingPathComponent("scene.anim").path }
    /// The golden files.
    static var snapshots: URL { directory.appendingPathComponent("Snapshots") }
}
