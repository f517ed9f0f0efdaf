// RenderCommands: `anim render`, `anim export`, `anim graph` and `anim timeline`. Each runs the
// script once into a Timeline, hands it to a renderer in AnimCore/Output, and writes the result
// whole or not at all (temporary file, then rename). The output's extension picks the format,
// or `--format` (export: `--lottie`) for an output whose name does not say it, such as a device.
@preconcurrency import Glibc
import AnimCore
import AnimStudio

enum RenderCommands {
    /// `anim render FILE -o OUT [--format F] [options]`.
    static func render(_ args: [String]) -> ExitCode {
        let o = RenderOptions.parse(args, command: "render")
        guard let out = o.output else { usageError("missing '-o <output>' (an .html, .svg, .png, .gif or .mp4 file, or a directory/ for frames)", command: "render") }
        let isDirectory = !OutputPath.isDevice(out)
            && (out.hasSuffix("/") || (OutputPath.fileExtension(out).isEmpty && FileAccess.isDirectory(out)))
        let format: String
        if isDirectory {
            if let f = o.format, f != "png" {
                usageError("'\(out)' is a directory, which holds PNG frames, not '--format \(f)'", command: "render")
            }
            format = ""
        } else {
            format = OutputPath.format(of: out, flag: o.format, command: "render")
        }
        if format == "png" && !isDirectory {
            guard (o.sheet == nil) != (o.at == nil) else {
                usageError(o.sheet == nil
                           ? "a .png output needs '--sheet <n>' (a contact sheet) or '--at <time>' (one frame); for every frame, give a directory: -o frames/"
                           : "'--sheet' and '--at' cannot be combined", command: "render")
            }
        } else {
            if o.sheet != nil { usageError("'--sheet' needs a .png output", command: "render") }
            if o.at != nil { usageError("'--at' needs a .png output", command: "render") }
        }
        if o.columns != nil && o.sheet == nil { usageError("'--columns' needs '--sheet'", command: "render") }
        let sequence = isDirectory || format == "gif" || format == "mp4"
        if !sequence, let flag = o.frames != nil ? "--frames" : o.shard != nil ? "--shard" : nil {
            usageError("'\(flag)' picks frames to draw, so it needs PNG frames (-o DIR/), a .gif or an .mp4", command: "render")
        }
        if isDirectory {
            let dir = out.hasSuffix("/") ? String(out.dropLast()) : out
            OutputPath.requireWritable(dir.isEmpty ? "/" : dir, command: "render")
        } else {
            OutputPath.requireWritable(out, command: "render")
        }
        if (format == "gif" || format == "mp4") && Ffmpeg.locate() == nil { Ffmpeg.missing(format) }

        let (timeline, session) = o.timeline(command: "render")
        let fps = o.fps ?? (sequence ? 30 : 60)
        if (isDirectory || ["png", "gif", "mp4"].contains(format)) && StageText.face == nil {
            // The rasterizer draws text through fontconfig's fonts; with none installed it cannot.
            warnTextLeftOut(timeline, from: isDirectory || format == "png" ? "PNG output" : format.uppercased() + " output",
                            because: "no font is installed (fontconfig finds none)")
        }
        let jobs = o.jobs ?? ParallelFrames.availableCores()
        do {
            if sequence {
                let grid = FrameGrid(fps: fps)
                let all = timeline.frameRange(on: grid)
                let selection = FrameSelection(frames: o.frames, shard: o.shard)
                guard let range = selection.range(of: all) else {
                    noFrames(all, fps: fps, selection)
                    return .success
                }
                if isDirectory {
                    try FrameWriter.writeFrames(timeline, to: out, grid: grid, range: range, count: Int64(all.count),
                                                scale: o.scale ?? 1, jobs: jobs)
                } else {
                    try Ffmpeg.encode(timeline, to: out, format: format, grid: grid, range: range, count: Int64(all.count),
                                      scale: o.scale ?? 1, jobs: jobs)
                }
                return .success
            }
            switch format {
            case "html":
                // Titled as `anim serve` titles its page: by the script's file name.
                let title = o.file == "-" ? "anim" : "anim — \(FileSystem.baseName(of: o.file))"
                try AtomicFile.write(HTMLPlayer.render(timeline, fps: fps, title: title, stepNames: session.environment.stepNames), to: out)
            case "svg":
                try AtomicFile.write(AnimatedSVG.render(timeline, fps: fps), to: out)
            case "png":
                if let n = o.sheet {
                    let layout = ContactSheet.Layout(count: n, stage: timeline.stageSize, columns: o.columns, scale: o.scale)
                    try PNGFile.write(ContactSheet.render(timeline, layout: layout), to: out)
                } else {
                    try PNGFile.write(FrameWriter.canvas(timeline.frame(at: o.at ?? .zero), scale: o.scale ?? 1), to: out)
                }
            default:  // gif and mp4 are drawn above, with the frames
                break
            }
        } catch let e as PNGError {
            writeFailed(e.message)
        } catch let e as FileError {
            writeFailed(e.message)
        } catch {
            writeFailed("\(error)")
        }
        return .success
    }

    /// `anim export FILE -o OUT.json --lottie`: `--lottie` names the format, and is required
    /// (a .json name alone does not say which JSON).
    static func export(_ args: [String]) -> ExitCode {
        let o = RenderOptions.parse(args, command: "export")
        guard let out = o.output else { usageError("missing '-o <output.json>'", command: "export") }
        _ = OutputPath.format(of: out, flag: o.lottie ? "lottie" : nil, command: "export",
                              missing: "--lottie (export writes Lottie JSON documents; there is no other export format)")
        OutputPath.requireWritable(out, command: "export")
        let (timeline, _) = o.timeline(command: "export")
        if StageText.face == nil {
            // Text is exported as glyph outlines, from the fonts fontconfig finds.
            warnTextLeftOut(timeline, from: "the Lottie export", because: "no font is installed (fontconfig finds none)")
        }
        func list(_ names: [String]) -> String {
            names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
        }
        let gradients = LottieExporter.gradientFills(timeline, fps: o.fps ?? 60)
        if !gradients.isEmpty {
            streams.standardError("anim: warning: the Lottie export paints these gradients with their first colour (\(list(gradients))): "
                                  + "a Lottie gradient fill or stroke keeps one stop count\n"
                                  + "help: the PNG, GIF and MP4 outputs, the HTML player and the animated SVG draw them\n")
        }
        let elliptical = LottieExporter.ellipticalGradients(timeline, fps: o.fps ?? 60)
        if !elliptical.isEmpty {
            streams.standardError("anim: warning: Lottie's radial gradients are circles: the export draws CSS's ellipse as a circle "
                                  + "where the box is not square (\(list(elliptical)))\n")
        }
        let shadowed = LottieExporter.shadowedShapes(timeline)
        if !shadowed.isEmpty {
            streams.standardError("anim: warning: the Lottie export leaves drop shadows out (of \(list(shadowed))): rlottie and lottie-web's canvas "
                                  + "renderer do not draw Lottie's drop-shadow effect, and lottie-web's SVG renderer cuts it to the layer's bounds\n"
                                  + "help: the HTML player, the animated SVG and the PNG, GIF and MP4 outputs draw shadows\n")
        }
        let seeThrough = LottieExporter.translucentStrokes(timeline)
        if !seeThrough.isEmpty {
            streams.standardError("anim: warning: in rlottie and lottie-web's canvas renderer the fill of a translucent shape shows through "
                                  + "the inner half of its stroke (\(list(seeThrough))); lottie-web's SVG renderer draws it as anim does\n")
        }
        let images = LottieExporter.leftOutImages(timeline, fps: o.fps ?? 60)
        if !images.isEmpty {
            streams.standardError("anim: warning: the Lottie export draws images only where no shape's z changes (an image layer cannot switch stacking slots); left out: \(list(images))\n"
                                  + "help: the PNG frames, the HTML player and the animated SVG draw them\n")
        }
        let capped = LottieExporter.leftOut(timeline)
        if !capped.isEmpty {
            streams.standardError("anim: warning: the Lottie export draws line caps and joins as they are declared; they change later in \(list(capped)), "
                                  + "which Lottie's stroke cannot animate\n"
                                  + "help: the PNG frames, the HTML player and the animated SVG draw the changes\n")
        }
        do {
            try AtomicFile.write(LottieExporter.export(timeline, fps: o.fps ?? 60), to: out)
        } catch {
            writeFailed(error.message)
        }
        return .success
    }

    /// `anim graph FILE [-o OUT.dot]`.
    static func graph(_ args: [String]) -> ExitCode {
        let o = RenderOptions.parse(args, command: "graph")
        if let out = o.output { OutputPath.requireWritable(out, command: "graph") }
        let (timeline, session) = o.timeline(command: "graph")
        let text = session.dot(timeline)
        return emit(text, to: o.output)
    }

    /// `anim timeline FILE [--width N] [--color|--no-color] [-o OUT.svg|OUT.txt] [--format txt|svg]`.
    static func timeline(_ args: [String]) -> ExitCode {
        let o = RenderOptions.parse(args, command: "timeline")
        var format = o.format ?? "txt"
        if let out = o.output {
            format = OutputPath.format(of: out, flag: o.format, command: "timeline")
            OutputPath.requireWritable(out, command: "timeline")
        }
        let (timeline, _) = o.timeline(command: "timeline")
        if format == "svg" {
            return emit(TimelineStrip.standaloneSVG(timeline), to: o.output)
        }
        let tty = o.output == nil && isatty(1) != 0
        let color = o.color ?? (tty && getenv("NO_COLOR") == nil)
        let width = o.width ?? (tty ? terminalWidth() : 80)
        return emit(TimelineChart.render(timeline, width: width, color: color), to: o.output)
    }

    // MARK: - Helpers

    /// Says that `--frames` or `--shard` selected none of the run's frames (not an error: a
    /// shard of a short run may be empty), and that nothing was written.
    static func noFrames(_ all: ClosedRange<Int64>, fps: Int, _ selection: FrameSelection) {
        var why: [String] = []
        if let f = selection.frames { why.append("--frames \(f.first)-\(f.last.map(String.init) ?? "")") }
        if let s = selection.shard { why.append("shard \(s)" + (s.source.map { " (from \($0))" } ?? "")) }
        streams.standardError("anim: note: nothing to draw: the run's frames at \(fps) fps are \(all.lowerBound)-\(all.upperBound), "
                              + "and \(why.joined(separator: " then ")) leaves none of them; nothing was written\n")
    }

    /// Warns that an output leaves the run's text shapes out, naming them (`what`: "PNG
    /// output", "the Lottie export"), and `because` when it could draw them but cannot now;
    /// the HTML player and the animated SVG always draw text.
    static func warnTextLeftOut(_ timeline: Timeline, from what: String, because: String? = nil) {
        let names = timeline.shapes.filter { $0.kind == .text }.map(\.name)
        guard !names.isEmpty else { return }
        let list = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
        let why = because.map { "cannot draw text shapes: \($0)" } ?? "does not draw text shapes yet"
        streams.standardError("anim: warning: \(what) \(why); left out: \(list)\n"
                              + "help: the HTML player and the animated SVG (.html, .svg) draw text\n")
    }

    /// Writes text to a file (atomically) or standard output.
    static func emit(_ text: String, to path: String?) -> ExitCode {
        guard let path else {
            streams.standardOutput(text)
            return .success
        }
        do { try AtomicFile.write(text, to: path) } catch { writeFailed(error.message) }
        return .success
    }

    /// A write that failed after the run: a usage-class error (exit 2), nothing left behind.
    static func writeFailed(_ message: String) -> Never {
        streams.standardError("anim: error: \(message)\n")
        finish(.usage)
    }

    /// The terminal's width in columns (80 if unknown).
    static func terminalWidth() -> Int {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col >= 20 { return Int(ws.ws_col) }
        if let c = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), c >= 20 { return c }
        return 80
    }
}
