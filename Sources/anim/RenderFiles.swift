// RenderFiles: the outputs of `anim render` that are more than one file write — a directory of
// PNG frames and GIF/MP4 videos assembled by ffmpeg. Both are drawn in parallel
// (ParallelFrames) into a temporary directory beside the target and moved into place only when
// complete, so a failure leaves nothing half-written. Both may be part of a run (`--frames`,
// `--shard`): frames keep their numbers in the whole run, so shards' files fit together.
@preconcurrency import Glibc
import AnimCore

enum FrameWriter {
    /// One frame as a canvas.
    static func canvas(_ frame: StageFrame, scale: Double) -> Canvas {
        var c = Canvas(width: Int((frame.size.x * scale).rounded()), height: Int((frame.size.y * scale).rounded()))
        c.draw(frame, scale: scale)
        return c
    }

    /// The file name of frame `k` of a run with `count` frames: `frame-0000.png` (at least 4
    /// digits, as many as the run's last frame needs, so every shard names its frames alike).
    static func name(_ k: Int64, count: Int64) -> String {
        let digits = max(4, String(max(0, count - 1)).count)
        let s = String(k)
        return "frame-" + String(repeating: "0", count: max(0, digits - s.count)) + s + ".png"
    }

    /// Draws the frames `range` of a run on `grid` (the run has `count` frames, which sets the
    /// width of the names) on `jobs` threads into a fresh temporary directory beside `path`;
    /// returns its path and the file names in frame order. The caller moves or removes it.
    static func renderToTemporary(_ timeline: Timeline, near path: String, grid: FrameGrid, range: ClosedRange<Int64>,
                                  count: Int64, scale: Double, jobs: Int,
                                  compression: PNGEncoder.Compression) throws(FileError) -> (String, [String]) {
        let temp = AtomicFile.temporaryPath(for: path.hasSuffix("/") ? String(path.dropLast()) : path)
        guard mkdir(temp, 0o755) == 0 else { throw FileError(message: "cannot write '\(path)': \(FileAccess.errorText())") }
        do {
            try ParallelFrames.render(timeline, grid: grid, range: range, scale: scale, jobs: jobs, compression: compression) {
                (k, png) throws(FileError) in
                // Each frame is new in a directory of our own: written, synced and closed, so
                // that the directory, once renamed into place, holds whole files.
                if let e = FileAccess.writeNew(png, to: temp + "/" + name(k, count: count)) {
                    throw FileError(message: "cannot write '\(path)': \(e)")
                }
            }
        } catch {
            removeTree(temp)
            throw error
        }
        return (temp, range.map { name($0, count: count) })
    }

    /// Writes the frames `range` (of `count`) as `DIR/frame-NNNN.png`. A new directory appears
    /// whole (one rename); into an existing one — or one that another process (another shard)
    /// created meanwhile — the frames are moved one by one after all were written.
    static func writeFrames(_ timeline: Timeline, to path: String, grid: FrameGrid, range: ClosedRange<Int64>,
                            count: Int64, scale: Double, jobs: Int) throws(FileError) {
        let dir = path.hasSuffix("/") ? String(path.dropLast()) : path
        let (temp, names) = try renderToTemporary(timeline, near: dir, grid: grid, range: range, count: count,
                                                  scale: scale, jobs: jobs, compression: .fast)
        if !FileAccess.exists(dir) {
            if rename(temp, dir) == 0 { return }
            guard errno == EEXIST || errno == ENOTEMPTY else {
                let e = FileAccess.errorText()
                removeTree(temp)
                throw FileError(message: "cannot write '\(path)': \(e)")
            }
        }
        for n in names where rename(temp + "/" + n, dir + "/" + n) != 0 {
            let e = FileAccess.errorText()
            removeTree(temp)
            throw FileError(message: "cannot write '\(dir)/\(n)': \(e)")
        }
        rmdir(temp)
    }

    /// Removes a temporary directory and the files in it.
    static func removeTree(_ dir: String) {
        for n in FileAccess.names(in: dir) { unlink(dir + "/" + n) }
        rmdir(dir)
    }
}

/// GIF and MP4 through the `ffmpeg` program.
enum Ffmpeg {
    /// The path of `ffmpeg` on $PATH, if any.
    static func locate() -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = String(dir) + "/ffmpeg"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Exits with a usage-class error that says how to get ffmpeg.
    static func missing(_ ext: String) -> Never {
        streams.standardError("""
            anim: error: writing .\(ext) needs ffmpeg, which was not found on PATH
            help: install it (Debian/Ubuntu: 'apt-get install ffmpeg'; macOS: 'brew install ffmpeg'),
                  or render PNG frames with '-o frames/' and assemble them yourself

            """)
        finish(.usage)
    }

    /// Renders frames into a temporary directory and has ffmpeg assemble them into a temporary
    /// file, renamed over `path` only if ffmpeg succeeded.
    /// A device or pipe (`-o /dev/stdout`) can neither have temporary files beside it nor be
    /// renamed over: the work is done in the system's temporary directory and the video copied.
    static func encode(_ timeline: Timeline, to path: String, format: String, grid: FrameGrid, range: ClosedRange<Int64>,
                       count: Int64, scale: Double, jobs: Int) throws(FileError) {
        guard let ffmpeg = locate() else { missing(format) }
        let device = OutputPath.isDevice(path)
        let work = device ? (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/anim-video." + format : path
        // The frames are an intermediate that ffmpeg reads once: compressed for speed.
        let (dir, names) = try FrameWriter.renderToTemporary(timeline, near: work, grid: grid, range: range, count: count,
                                                             scale: scale, jobs: jobs, compression: .fast)
        defer { FrameWriter.removeTree(dir) }
        let temp = AtomicFile.temporaryPath(for: work)
        let digits = names.first.map { $0.count - "frame-.png".count } ?? 4
        var args = [ffmpeg, "-loglevel", "error", "-nostdin", "-y", "-framerate", String(grid.fps),
                    "-start_number", String(range.lowerBound), "-i", "\(dir)/frame-%0\(digits)d.png"]
        if format == "gif" {
            // One palette for the whole clip (palettegen), then map every frame onto it.
            args += ["-filter_complex", "[0:v]split[a][b];[a]palettegen=reserve_transparent=0[p];[b][p]paletteuse", "-f", "gif"]
        } else {
            // H.264 needs even dimensions and yuv420p for players to accept it.
            args += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"]
        }
        args.append(temp)
        let status = run(args)
        guard status == 0 else {
            unlink(temp)
            throw FileError(message: "cannot write '\(path)': ffmpeg failed (exit status \(status))")
        }
        if device {
            defer { unlink(temp) }
            let fd = open(temp, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError(message: "cannot write '\(path)': \(FileAccess.errorText())") }
            let video = FileAccess.readAll(fd: fd)
            close(fd)
            try AtomicFile.write(video, to: path)
        } else if rename(temp, path) != 0 {
            let e = FileAccess.errorText()
            unlink(temp)
            throw FileError(message: "cannot write '\(path)': \(e)")
        }
    }

    /// Runs a program and waits for it; its exit status, or -1 if it could not start.
    static func run(_ args: [String]) -> Int32 {
        var pid = pid_t()
        var cargs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        streams.flush()
        guard posix_spawn(&pid, args[0], nil, nil, &cargs, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
