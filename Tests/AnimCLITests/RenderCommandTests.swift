// `anim render`, `anim export`, `anim graph` and `anim timeline` as a user runs them: the files
// they write, their errors and exit codes (2 for usage, 1 for script errors), nothing left
// half-written on failure, ffmpeg's absence explained, and help that names every option.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Picture commands")
struct RenderCommandTests {
    static var small: String { PictureFixtures.directory.appendingPathComponent("small.anim").path }

    /// The names in a directory, hidden ones included.
    func contents(_ dir: ScratchDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []).sorted()
    }

    @Test("frames: one PNG per frame at --fps, through the end")
    func frames() throws {
        let dir = try ScratchDirectory("frames")
        defer { dir.remove() }
        let r = try runAnim(["render", Self.small, "-o", dir.path("frames") + "/", "--fps", "10"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path("frames")).sorted()
        // 0.7 s at 10 fps: frames 0...7.
        #expect(names == (0...7).map { "frame-000\($0).png" })
        let first = try PNGFile.read(dir.path("frames/frame-0000.png"))
        #expect(first.width == 120 && first.height == 80)
        #expect(contents(dir) == ["frames"], "no temporary files are left")
        // Into an existing directory, at twice the size.
        let again = try runAnim(["render", Self.small, "-o", dir.path("frames"), "--fps", "10", "--scale", "2"])
        #expect(again.exitCode == 0, Comment(rawValue: again.stderr))
        #expect(try PNGFile.read(dir.path("frames/frame-0007.png")).width == 240)
        #expect(contents(dir) == ["frames"])
    }

    @Test("a contact sheet and a single frame")
    func sheetAndFrame() throws {
        let dir = try ScratchDirectory("sheet")
        defer { dir.remove() }
        let r = try runAnim(["render", Self.small, "-o", dir.path("sheet.png"), "--sheet", "6", "--columns", "3"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let sheet = try PNGFile.read(dir.path("sheet.png"))
        // 3 columns × 2 rows of 120×80 cells (scale 1), 12 px gaps, 22 px labels.
        #expect(sheet.width == 12 + 3 * (120 + 12))
        #expect(sheet.height == 12 + 2 * (80 + 22 + 12))
        let f = try runAnim(["render", Self.small, "-o", dir.path("f.png"), "--at", "0.5"])
        #expect(f.exitCode == 0, Comment(rawValue: f.stderr))
        let frame = try PNGFile.read(dir.path("f.png"))
        // At 0.5 s the box has arrived at (90, 40), under the dot (blue at alpha 0.2, declared
        // later so painted later); the background shows where it began.
        #expect(frame.pixel(90, 49) == (255, 0, 0, 255))
        #expect(frame.pixel(90, 40) == (204, 0, 51, 255))
        #expect(frame.pixel(30, 40) == (250, 250, 250, 255))
    }

    @Test("usage errors exit 2 and write nothing", arguments: [
        (["-o", "x.webm"], "unknown output format '.webm'"),
        (["-o", "noextension"], "has no extension"),
        (["-o", "x.png"], "needs '--sheet <n>'"),
        (["-o", "x.png", "--sheet", "4", "--at", "1"], "cannot be combined"),
        (["-o", "x.html", "--sheet", "4"], "'--sheet' needs a .png output"),
        (["-o", "x.html", "--fps", "0"], "'--fps' takes a whole number from 1 to 240"),
        (["-o", "x.html", "--fsp", "30"], "did you mean '--fps'"),
        (["-o", "/nonexistent-dir/x.html"], "no such directory"),
        (["-o", "x.html", "--frames", "1-2"], "'--frames' picks frames to draw, so it needs PNG frames (-o DIR/), a .gif or an .mp4"),
        (["-o", "x.png", "--at", "1", "--shard", "0/2"], "'--shard' picks frames to draw"),
        (["-o", "f/", "--frames", "9-3"], "'--frames' takes frame numbers A-B (0-99), A- (from A to the end) or one frame A, not '9-3'"),
        (["-o", "f/", "--frames", "-3"], "not '-3'"),
        (["-o", "f/", "--shard", "4/4"], "'--shard 4/4': shards are counted from 0, so of 4 the last is 3/4"),
        (["-o", "f/", "--shard", "1/0"], "'--shard' takes I/N, shard I of N counted from 0 (0/4 … 3/4), or auto/N, not '1/0'"),
        (["-o", "f/", "--shard", "two/4"], "not 'two/4'"),
        (["-o", "f/", "-j", "0"], "'-j' takes a whole number from 1 to 1024, not '0'"),
        (["-o", "f/", "--jobs", "many"], "'--jobs' takes a whole number from 1 to 1024, not 'many'"),
        ([], "missing '-o <output>'"),
    ])
    func usageErrors(_ args: [String], _ message: String) throws {
        let dir = try ScratchDirectory("usage")
        defer { dir.remove() }
        let r = try runAnim(["render", Self.small] + args, currentDirectory: dir.url)
        #expect(r.exitCode == 2, Comment(rawValue: r.stderr))
        #expect(r.stderr.contains(message), Comment(rawValue: r.stderr))
        #expect(contents(dir).isEmpty)
    }

    @Test("the page's title names the script's file, as anim serve's page does")
    func titleNamesTheFile() throws {
        let dir = try ScratchDirectory("title")
        defer { dir.remove() }
        try "rect a\nanimate 1 < a.z = 1 >\n".write(toFile: dir.path("intro.anim"), atomically: true, encoding: .utf8)
        let r = try runAnim(["render", "intro.anim", "-o", "out.html"], currentDirectory: dir.url)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(try String(contentsOfFile: dir.path("out.html"), encoding: .utf8).contains("<title>anim — intro.anim</title>"))
        // From standard input: no file name.
        let piped = try runAnim(["render", "-", "-o", dir.path("in.html")], stdin: "rect a\n")
        #expect(piped.exitCode == 0, Comment(rawValue: piped.stderr))
        #expect(try String(contentsOfFile: dir.path("in.html"), encoding: .utf8).contains("<title>anim</title>"))
    }

    @Test("a script error exits 1 and leaves the old file untouched")
    func scriptError() throws {
        let dir = try ScratchDirectory("script-error")
        defer { dir.remove() }
        let out = dir.path("out.html")
        try "old".write(toFile: out, atomically: true, encoding: .utf8)
        let r = try runAnim(["render", "-", "-o", out], stdin: "rect a center (0,0)\nanimate 1 < a.centre = (1,1) >\n")
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("did you mean 'center'"), Comment(rawValue: r.stderr))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old")
        #expect(contents(dir) == ["out.html"])
    }

    @Test("a graph that never ends needs --until")
    func until() throws {
        let dir = try ScratchDirectory("until")
        defer { dir.remove() }
        let script = "rect a center (10,10)\nrepeat forever < animate 1 < a.rotation += 90deg > >\n"
        let r = try runAnim(["render", "-", "-o", dir.path("a.html")], stdin: script)
        #expect(r.exitCode == 1)
        #expect(r.stderr.contains("--until"), Comment(rawValue: r.stderr))
        #expect(contents(dir).isEmpty)
        let ok = try runAnim(["render", "-", "-o", dir.path("a.html"), "--until", "2.5"], stdin: script)
        #expect(ok.exitCode == 0, Comment(rawValue: ok.stderr))
        let chart = try runAnim(["timeline", "-", "--until", "2.5"], stdin: script)
        #expect(chart.stdout.hasPrefix("timeline: 2.5s, 1 lane, 3 steps"), Comment(rawValue: chart.stdout))
    }

    @Test("GIF and MP4 without ffmpeg: a clear error, exit 2, no file")
    func ffmpegMissing() throws {
        let dir = try ScratchDirectory("no-ffmpeg")
        defer { dir.remove() }
        for ext in ["gif", "mp4"] {
            let r = try runAnim(["render", Self.small, "-o", dir.path("a.\(ext)")], environment: ["PATH": dir.url.path])
            #expect(r.exitCode == 2)
            #expect(r.stderr.contains("needs ffmpeg"), Comment(rawValue: r.stderr))
            #expect(r.stderr.contains("apt-get install ffmpeg"), Comment(rawValue: r.stderr))
        }
        #expect(contents(dir).isEmpty)
    }

    @Test("GIF and MP4 through ffmpeg", .enabled(if: Consumers.find("ffmpeg") != nil, Consumers.skipNote("ffmpeg")))
    func video() throws {
        let dir = try ScratchDirectory("video")
        defer { dir.remove() }
        let r = try runAnim(["render", Self.small, "-o", dir.path("a.gif"), "--fps", "10"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let gif = try Data(contentsOf: dir.url.appendingPathComponent("a.gif"))
        #expect(gif.prefix(6) == Data("GIF89a".utf8))
        let m = try runAnim(["render", Self.small, "-o", dir.path("a.mp4"), "--fps", "10"])
        #expect(m.exitCode == 0, Comment(rawValue: m.stderr))
        let mp4 = try Data(contentsOf: dir.url.appendingPathComponent("a.mp4"))
        #expect(mp4.dropFirst(4).prefix(4) == Data("ftyp".utf8), "an ISO media file")
        #expect(contents(dir) == ["a.gif", "a.mp4"], "no frames or temporary files are left")
    }

    @Test("export writes Lottie JSON; bad paths are usage errors")
    func export() throws {
        let dir = try ScratchDirectory("export")
        defer { dir.remove() }
        let r = try runAnim(["export", Self.small, "-o", dir.path("a.json"), "--lottie"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("a.json"))) as? [String: Any]
        #expect(json?["v"] as? String == "5.7.4")
        #expect((json?["layers"] as? [Any])?.count == 4, "box, dot, the label (glyph outlines) and the stage")
        let bad = try runAnim(["export", Self.small, "-o", dir.path("a.lottie"), "--lottie"])
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("a.lottie' ends in '.lottie', which does not match --lottie: name it '.json'"), Comment(rawValue: bad.stderr))
        #expect(contents(dir) == ["a.json"])
    }

    @Test("--lottie is export's format: required, and an output's extension must agree", arguments: [
        (["-o", "a.json"], "missing the format: add --lottie"),
        (["-o", "a.svg", "--lottie"], "'a.svg' ends in '.svg', which does not match --lottie"),
        (["-o", "a.json", "--svg"], "'--svg' is not an export format"),
        (["-o", "a.json", "--lotie"], "did you mean '--lottie'"),
    ])
    func exportFormat(_ args: [String], _ message: String) throws {
        let dir = try ScratchDirectory("export-format")
        defer { dir.remove() }
        let r = try runAnim(["export", Self.small] + args, currentDirectory: dir.url)
        #expect(r.exitCode == 2, Comment(rawValue: r.stderr))
        #expect(r.stderr.contains(message), Comment(rawValue: r.stderr))
        #expect(contents(dir).isEmpty)
    }

    @Test("a device such as /dev/stdout is written directly, in the format --format (or --lottie) names")
    func toStandardOutput() throws {
        let svg = try runAnim(["render", Self.small, "-o", "/dev/stdout", "--format", "svg"])
        #expect(svg.exitCode == 0, Comment(rawValue: svg.stderr))
        #expect(svg.stdout.hasPrefix("<svg"))
        let png = try runAnim(["render", Self.small, "-o", "/dev/stdout", "--format", "png", "--at", "0.5"])
        #expect(png.exitCode == 0, Comment(rawValue: png.stderr))
        #expect(png.stdout.utf8.prefix(4).elementsEqual([0x89, 0x50, 0x4E, 0x47]) || png.stdout.hasPrefix("\u{FFFD}PNG"), "a PNG signature")
        let lottie = try runAnim(["export", Self.small, "-o", "/dev/stdout", "--lottie"])
        #expect(lottie.exitCode == 0, Comment(rawValue: lottie.stderr))
        let json = try JSONSerialization.jsonObject(with: Data(lottie.stdout.utf8)) as? [String: Any]
        #expect(json?["v"] as? String == "5.7.4")
        let chart = try runAnim(["timeline", Self.small, "-o", "/dev/stdout", "--format", "txt"])
        #expect(chart.exitCode == 0, Comment(rawValue: chart.stderr))
        #expect(chart.stdout.hasPrefix("timeline: 0.7s"), Comment(rawValue: chart.stdout))
        #expect(chart.stdout == (try runAnim(["timeline", Self.small])).stdout, "the chart anim timeline prints")
        let strip = try runAnim(["timeline", Self.small, "--format", "svg"])
        #expect(strip.exitCode == 0, Comment(rawValue: strip.stderr))
        #expect(strip.stdout.hasPrefix("<svg"))
        // Without a format, a device's name says nothing.
        for command in ["render", "timeline"] {
            let r = try runAnim([command, Self.small, "-o", "/dev/stdout"])
            #expect(r.exitCode == 2)
            #expect(r.stderr.contains("'/dev/stdout' is not a file, so its name cannot tell the format: add --format"), Comment(rawValue: r.stderr))
            #expect(r.stdout.isEmpty)
        }
    }

    @Test("an animated GIF to standard output", .enabled(if: Consumers.find("ffmpeg") != nil, Consumers.skipNote("ffmpeg")))
    func videoToStandardOutput() throws {
        let r = try runAnim(["render", Self.small, "-o", "/dev/stdout", "--format", "gif", "--fps", "10"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stdout.hasPrefix("GIF89a"))
    }

    @Test("--format names the format and must agree with an extension", arguments: [
        (["render", "-o", "x.svg", "--format", "html"], "'x.svg' ends in '.svg', which does not match '--format html': name it '.html'"),
        (["render", "-o", "x.html", "--format", "webm"], "'--format' takes html, svg, png, gif or mp4, not 'webm'"),
        (["render", "-o", "frames/", "--format", "svg"], "'frames/' is a directory, which holds PNG frames, not '--format svg'"),
        (["timeline", "-o", "t.svg", "--format", "txt"], "'t.svg' ends in '.svg', which does not match '--format txt'"),
        (["timeline", "--format", "png"], "'--format' takes txt or svg, not 'png'"),
        (["timeline", "-o", "t.png"], "unknown output format '.png'; use .txt or .svg"),
    ])
    func formatFlag(_ args: [String], _ message: String) throws {
        let dir = try ScratchDirectory("format")
        defer { dir.remove() }
        let r = try runAnim([args[0], Self.small] + args.dropFirst(), currentDirectory: dir.url)
        #expect(r.exitCode == 2, Comment(rawValue: r.stderr))
        #expect(r.stderr.contains(message), Comment(rawValue: r.stderr))
        #expect(contents(dir).isEmpty)
    }

    @Test("--format writes a name without an extension")
    func formatWithoutExtension() throws {
        let dir = try ScratchDirectory("format-noext")
        defer { dir.remove() }
        let r = try runAnim(["render", Self.small, "-o", dir.path("player"), "--format", "html"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(try String(contentsOfFile: dir.path("player"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
    }

    @Test("graph and timeline write files with -o")
    func graphAndTimelineFiles() throws {
        let dir = try ScratchDirectory("graph-file")
        defer { dir.remove() }
        #expect(try runAnim(["graph", Self.small, "-o", dir.path("g.dot")]).exitCode == 0)
        #expect(try String(contentsOfFile: dir.path("g.dot"), encoding: .utf8).hasPrefix("digraph anim {"))
        #expect(try runAnim(["timeline", Self.small, "-o", dir.path("t.svg")]).exitCode == 0)
        #expect(try String(contentsOfFile: dir.path("t.svg"), encoding: .utf8).hasPrefix("<svg"))
        let bad = try runAnim(["timeline", Self.small, "-o", dir.path("t.png")])
        #expect(bad.exitCode == 2)
    }

    @Test("--help names every option", arguments: ["render", "export", "graph", "timeline"])
    func help(_ command: String) throws {
        let r = try runAnim([command, "--help"])
        #expect(r.exitCode == 0)
        let options: [String: [String]] = [
            "render": ["-o, --output", "--format", "--fps", "--sheet", "--columns", "--at", "--scale", "-j, --jobs", "--frames",
                       "--shard", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "--until", "--seed", "circles and text"],
            "export": ["-o, --output", "--lottie", "--fps", "--until", "--seed"],
            "graph": ["-o, --output", "--until", "--seed"],
            "timeline": ["--width", "--color, --no-color", "-o, --output", "--format", "--until", "--seed"],
        ]
        for o in options[command]! { #expect(r.stdout.contains(o), "\(command) --help lacks \(o)") }
    }

    /// The regression scripts about drawing (`Tests/Scripts/regressions/render_*.anim`).
    static let renderRegressions = TestPaths.scripts(under: TestPaths.scripts.appendingPathComponent("regressions"))
        .filter { $0.hasPrefix("Tests/Scripts/regressions/render_") }

    @Test("every render regression script draws in every output", arguments: renderRegressions)
    func renderRegression(_ script: String) throws {
        let dir = try ScratchDirectory("render-regression")
        defer { dir.remove() }
        for args in [["render", "-o", "a.html"], ["render", "-o", "a.svg"], ["render", "-o", "a.png", "--at", "0.05"],
                     ["render", "-o", "s.png", "--sheet", "4"], ["render", "-o", "frames/", "--fps", "20"],
                     ["export", "-o", "a.json", "--lottie"], ["timeline", "-o", "t.svg"]] {
            let r = try runAnim([args[0], TestPaths.packageRoot.appendingPathComponent(script).path] + args.dropFirst(),
                                currentDirectory: dir.url)
            #expect(r.exitCode == 0, "\(script): anim \(args.joined(separator: " ")): \(r.stderr.prefix(400))")
        }
    }

    @Test("every output draws text; with no font installed, those that draw it from fonts say which shapes they leave out",
          arguments: [
        (["export", "-o", "x.json", "--lottie"], "the Lottie export"),
        (["render", "-o", "x.png", "--at", "0"], "PNG output"), (["render", "-o", "frames/"], "PNG output"),
        (["render", "-o", "s.png", "--sheet", "3"], "PNG output"),
        (["render", "-o", "x.html"], nil), (["render", "-o", "x.svg"], nil),
    ] as [([String], String?)])
    func textLeftOut(_ args: [String], _ fontOutput: String?) throws {
        let dir = try ScratchDirectory("text-left-out")
        defer { dir.remove() }
        let withText = args.map { $0.contains("x.") || $0 == "s.png" ? dir.path($0) : $0 == "frames/" ? dir.path("frames") + "/" : $0 }
        let r = try runAnim([withText[0], Self.small] + withText.dropFirst())
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(r.stderr.isEmpty, Comment(rawValue: r.stderr))
        // fontconfig with a configuration that names no font directory: no font at all.
        let conf = dir.path("fonts.conf")
        try "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n<fontconfig></fontconfig>\n"
            .write(toFile: conf, atomically: true, encoding: .utf8)
        let none = try runAnim([withText[0], Self.small] + withText.dropFirst(), environment: ["FONTCONFIG_FILE": conf])
        #expect(none.exitCode == 0, Comment(rawValue: none.stderr))
        if let fontOutput {
            #expect(none.stderr == "anim: warning: \(fontOutput) cannot draw text shapes: no font is installed (fontconfig finds none); "
                    + "left out: 'label'\nhelp: the HTML player and the animated SVG (.html, .svg) draw text\n")
        } else {
            #expect(none.stderr.isEmpty, Comment(rawValue: none.stderr))
        }
        // A run without text shapes: no warning.
        let plain = try runAnim([withText[0], PictureFixtures.scene] + withText.dropFirst())
        #expect(plain.exitCode == 0 && plain.stderr.isEmpty, Comment(rawValue: plain.stderr))
    }
}
