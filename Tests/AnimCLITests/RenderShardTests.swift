// Frames drawn in parallel and in parts: `-j N` writes the same bytes as `-j 1`; `--frames`
// and `--shard` draw part of a run whose files, from any number of shards, together are byte
// for byte one render; `--shard auto/N` reads Kubernetes' and AWS Batch's index variables;
// the README's recipes — GNU parallel (skipped where `parallel` is missing), MP4 segments
// joined by ffmpeg's concat demuxer, and the Kubernetes Indexed Job in Docs/render-job.yaml —
// run here on one machine.
import AnimCore
import AnimTestSupport
import Foundation
import Testing

@Suite("Frames in parallel and in shards")
struct RenderShardTests {
    static var scene: String { PictureFixtures.scene }

    /// Every file of a directory, by name.
    static func files(_ dir: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(name))
        }
        return out
    }

    /// One render of the scene's frames at 30 fps, with -j 1: what every split must equal.
    static func reference(in dir: ScratchDirectory) throws -> [String: Data] {
        let r = try runAnim(["render", scene, "-o", dir.path("reference") + "/", "-j", "1"])
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        return try files(dir.path("reference"))
    }

    /// The shell, for commands that run several processes at once.
    static func shell(_ command: String, in dir: ScratchDirectory, environment: [String: String] = [:]) throws -> RunResult {
        var env = environment
        env["ANIM"] = TestPaths.animBinary.path
        return try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: env, currentDirectory: dir.url)
    }

    @Test("-j N writes the same bytes as -j 1")
    func jobs() throws {
        let dir = try ScratchDirectory("jobs")
        defer { dir.remove() }
        let one = try Self.reference(in: dir)
        #expect(one.count == 79, "scene.anim: 2.6 s at 30 fps is frames 0…78")
        for jobs in ["2", "3", "8"] {
            let out = dir.path("j\(jobs)") + "/"
            let r = try runAnim(["render", Self.scene, "-o", out, "-j", jobs])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            #expect(try Self.files(out) == one, "-j \(jobs)")
        }
        // The default (every processor) too, and into an existing directory.
        let again = try runAnim(["render", Self.scene, "-o", dir.path("j2")])
        #expect(again.exitCode == 0, Comment(rawValue: again.stderr))
        #expect(try Self.files(dir.path("j2")) == one)
    }

    @Test("-j N writes the same bytes as -j 1 for text shapes (drawn by the vector layer on each thread)")
    func jobsWithText() throws {
        let dir = try ScratchDirectory("jobs-text")
        defer { dir.remove() }
        let text = PictureFixtures.directory.appendingPathComponent("text.anim").path
        let r = try runAnim(["render", text, "-o", dir.path("one") + "/", "-j", "1"])
        #expect(r.exitCode == 0 && r.stderr.isEmpty, Comment(rawValue: r.stderr))
        let one = try Self.files(dir.path("one"))
        #expect(one.count == 61, "text.anim: 2 s at 30 fps is frames 0…60")
        for jobs in ["2", "5"] {
            let out = dir.path("j\(jobs)") + "/"
            let r = try runAnim(["render", text, "-o", out, "-j", jobs])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            #expect(try Self.files(out) == one, "-j \(jobs)")
        }
    }

    @Test("the shards of any N together are one render, each frame once", arguments: [1, 2, 3, 4, 7, 13, 79, 100])
    func shards(_ n: Int) throws {
        let dir = try ScratchDirectory("shards")
        defer { dir.remove() }
        let one = try Self.reference(in: dir)
        var union: [String: Data] = [:]
        for i in 0..<n {
            let out = dir.path("shard-\(i)")
            let r = try runAnim(["render", Self.scene, "-o", out + "/", "--shard", "\(i)/\(n)", "-j", "2"])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            guard FileManager.default.fileExists(atPath: out) else {
                // More shards than frames: this one is empty, and says so.
                #expect(n > 79 && r.stderr.contains("nothing to draw"), Comment(rawValue: r.stderr))
                continue
            }
            let part = try Self.files(out)
            #expect(!part.isEmpty)
            for (name, bytes) in part {
                #expect(union[name] == nil, "\(name) is in two shards of \(n)")
                union[name] = bytes
            }
            // A shard is consecutive frames.
            let numbers = part.keys.compactMap { Int($0.dropFirst("frame-".count).dropLast(".png".count)) }.sorted()
            #expect(numbers.last! - numbers.first! + 1 == numbers.count)
        }
        #expect(union == one, "the union of \(n) shards")
    }

    @Test("--frames draws those frames, with their numbers in the run")
    func frames() throws {
        let dir = try ScratchDirectory("frames")
        defer { dir.remove() }
        let one = try Self.reference(in: dir)
        for (flag, range) in [("10-19", 10...19), ("70-", 70...78), ("5", 5...5), ("75-500", 75...78)] {
            let out = dir.path("f-\(flag)") + "/"
            let r = try runAnim(["render", Self.scene, "-o", out, "--frames", flag])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
            let want = one.filter { range.map { String(format: "frame-%04d.png", $0) }.contains($0.key) }
            #expect(want.count == range.count)
            #expect(try Self.files(out) == want, "--frames \(flag)")
        }
        // --frames, then --shard of those.
        let out = dir.path("both") + "/"
        #expect(try runAnim(["render", Self.scene, "-o", out, "--frames", "10-19", "--shard", "1/2"]).exitCode == 0)
        #expect(try Self.files(out).keys.sorted() == (15...19).map { String(format: "frame-%04d.png", $0) })
        // None of the run's frames: a note, exit 0, nothing written.
        let none = try runAnim(["render", Self.scene, "-o", dir.path("none") + "/", "--frames", "200-300"])
        #expect(none.exitCode == 0)
        #expect(none.stderr == "anim: note: nothing to draw: the run's frames at 30 fps are 0-78, "
                + "and --frames 200-300 leaves none of them; nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path("none")))
    }

    @Test("--shard auto/N reads JOB_COMPLETION_INDEX, else AWS_BATCH_JOB_ARRAY_INDEX; I/N wins over both")
    func auto() throws {
        let dir = try ScratchDirectory("auto")
        defer { dir.remove() }
        func shard(_ args: [String], _ env: [String: String]) throws -> (RunResult, [String]) {
            let out = dir.path("out")
            try? FileManager.default.removeItem(atPath: out)
            var environment = ["JOB_COMPLETION_INDEX": "", "AWS_BATCH_JOB_ARRAY_INDEX": ""]
            for (k, v) in env { environment[k] = v }
            let r = try runAnim(["render", Self.scene, "-o", out + "/"] + args, environment: environment)
            return (r, ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).sorted())
        }
        let second = (19...38).map { String(format: "frame-%04d.png", $0) }  // shard 1 of 4 of 79 frames: ⌊79/4⌋ …
        let (k8s, a) = try shard(["--shard", "auto/4"], ["JOB_COMPLETION_INDEX": "1"])
        #expect(k8s.exitCode == 0 && a == second, Comment(rawValue: k8s.stderr))
        let (aws, b) = try shard(["--shard", "auto/4"], ["AWS_BATCH_JOB_ARRAY_INDEX": "1"])
        #expect(aws.exitCode == 0 && b == second, Comment(rawValue: aws.stderr))
        let (both, c) = try shard(["--shard", "auto/4"], ["JOB_COMPLETION_INDEX": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "1"])
        #expect(both.exitCode == 0 && c == second, Comment(rawValue: both.stderr))
        let (explicit, d) = try shard(["--shard", "1/4"], ["JOB_COMPLETION_INDEX": "3"])
        #expect(explicit.exitCode == 0 && d == second, "an explicit index ignores the environment")
        let (unsharded, e) = try shard([], ["JOB_COMPLETION_INDEX": "3"])
        #expect(unsharded.exitCode == 0 && e.count == 79, "without --shard the environment is not read")
        for (env, message) in [
            ([:], "'--shard auto/4' reads the shard index from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) or "
                + "AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array jobs), and neither is set"),
            (["JOB_COMPLETION_INDEX": "4"], "'--shard auto/4': JOB_COMPLETION_INDEX is '4', not a shard index from 0 to 3"),
            (["AWS_BATCH_JOB_ARRAY_INDEX": "x"], "'--shard auto/4': AWS_BATCH_JOB_ARRAY_INDEX is 'x', not a shard index from 0 to 3"),
            (["JOB_COMPLETION_INDEX": "1", "AWS_BATCH_JOB_ARRAY_INDEX": "2"],
             "'--shard auto/4': JOB_COMPLETION_INDEX is '1' but AWS_BATCH_JOB_ARRAY_INDEX is '2'; give the shard as I/4"),
        ] as [([String: String], String)] {
            let (r, files) = try shard(["--shard", "auto/4"], env)
            #expect(r.exitCode == 2, "\(env)")
            #expect(r.stderr.hasPrefix("anim: error: \(message)\n"), Comment(rawValue: r.stderr))
            #expect(files.isEmpty)
        }
    }

    @Test("a write that fails on any thread leaves nothing behind, and an existing directory as it was")
    func failedWrite() throws {
        let dir = try ScratchDirectory("failed-write")
        defer { dir.remove() }
        // Files may grow to 40 blocks of 512 bytes: the big frames fail with EFBIG (the signal
        // that would end the process is ignored), on whichever thread draws them.
        let limited = "trap '' XFSZ; ulimit -f 40; \"$ANIM\" render '\(TestPaths.packageRoot.path)/Scripts/bench-render.anim' --fps 10 -j 3"
        let r = try Self.shell(limited + " -o frames/", in: dir)
        #expect(r.exitCode == 2, Comment(rawValue: r.stderr))
        #expect(r.stderr.hasPrefix("anim: error: cannot write 'frames': File too large"), Comment(rawValue: r.stderr))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
        try FileManager.default.createDirectory(atPath: dir.path("old"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir.path("old/frame-0000.png")))
        let again = try Self.shell(limited + " -o old/", in: dir)
        #expect(again.exitCode == 2, Comment(rawValue: again.stderr))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["old"])
        #expect(try Self.files(dir.path("old")) == ["frame-0000.png": Data("old".utf8)])
    }

    @Test("shards started at once into one new directory fill it", .timeLimit(.minutes(2)))
    func concurrent() throws {
        let dir = try ScratchDirectory("concurrent")
        defer { dir.remove() }
        let one = try Self.reference(in: dir)
        // Five processes at once (started from here: a shell's `wait` under the test runner
        // can miss its children's ends).
        final class Results: @unchecked Sendable { var all = [RunResult?](repeating: nil, count: 5) }
        let results = Results(), lock = NSLock(), url = dir.url
        DispatchQueue.concurrentPerform(iterations: 5) { i in
            let r = try? runAnim(["render", Self.scene, "-o", "frames/", "--shard", "\(i)/5", "-j", "1"], currentDirectory: url)
            lock.lock()
            results.all[i] = r
            lock.unlock()
        }
        for r in results.all {
            #expect(r?.exitCode == 0 && r?.stderr.isEmpty == true, Comment(rawValue: r?.stderr ?? "did not start"))
        }
        #expect(try Self.files(dir.path("frames")) == one)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["frames", "reference"],
                "no temporary directories are left")
    }

    @Test("the GNU parallel recipe: shards on every core, then one directory",
          .enabled(if: Consumers.find("parallel") != nil, "GNU parallel is not installed: run Scripts/setup-test-tools"),
          .timeLimit(.minutes(2)))
    func gnuParallel() throws {
        let dir = try ScratchDirectory("gnu-parallel")
        defer { dir.remove() }
        let one = try Self.reference(in: dir)
        // README, "Rendering on many machines".
        let r = try Self.shell("parallel \"$ANIM\" render '\(Self.scene)' -o frames/ --shard {}/4 -j 1 ::: 0 1 2 3", in: dir)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        #expect(try Self.files(dir.path("frames")) == one, "GNU parallel's shards against one render")
    }

    @Test("MP4 shards join without re-encoding into a video of every frame",
          .enabled(if: Consumers.find("ffmpeg") != nil && Consumers.find("ffprobe") != nil, Consumers.skipNote("ffmpeg")),
          .timeLimit(.minutes(3)))
    func mp4Segments() throws {
        let dir = try ScratchDirectory("segments")
        defer { dir.remove() }
        let runner = Consumers.find("parallel") != nil
            ? "parallel \"$ANIM\" render '\(Self.scene)' -o seg-{}.mp4 --shard {}/3 ::: 0 1 2"
            : "for i in 0 1 2; do \"$ANIM\" render '\(Self.scene)' -o seg-$i.mp4 --shard $i/3 || exit 1; done"
        let join = "for i in 0 1 2; do echo \"file 'seg-$i.mp4'\"; done > list.txt && "
            + "ffmpeg -loglevel error -nostdin -f concat -safe 0 -i list.txt -c copy scene.mp4"
        let r = try Self.shell(runner + " && " + join, in: dir)
        #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        func count(_ file: String) throws -> Int? {
            let p = try Consumers.run(Consumers.find("ffprobe")!, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                                   "-show_entries", "stream=nb_read_frames,codec_name",
                                                                   "-of", "csv=p=0", dir.path(file)])
            return Int(p.stdout.split(separator: ",").last.map { $0.filter(\.isNumber) } ?? "")
        }
        #expect(try count("seg-0.mp4") == 26 && count("seg-1.mp4") == 26 && count("seg-2.mp4") == 27)
        #expect(try count("scene.mp4") == 79, "the joined video has every frame of the run once")
        // One render of the whole run, for comparison: the same number of frames.
        #expect(try runAnim(["render", Self.scene, "-o", dir.path("whole.mp4")]).exitCode == 0)
        #expect(try count("whole.mp4") == 79)
    }

    @Test("the Kubernetes Indexed Job's command, run for every index, renders every frame once")
    func kubernetesJob() throws {
        let manifest = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Docs/render-job.yaml"), encoding: .utf8)
        let lines = manifest.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let completions = try #require(lines.first { $0.hasPrefix("completions:") }.flatMap { Int($0.dropFirst(12).trimmingCharacters(in: .whitespaces)) })
        #expect(lines.contains("completionMode: Indexed"))
        let command = try #require(lines.first { $0.hasPrefix("- anim render ") }.map { String($0.dropFirst(2)) })
        #expect(command.contains("--shard auto/\(completions)"), "the shard count must match completions")
        let dir = try ScratchDirectory("k8s")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path("scripts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.scene, toPath: dir.path("scripts/scene.anim"))
        // The container's paths, here; PNG frames instead of MP4 segments so bytes can be compared.
        let local = command.replacingOccurrences(of: "/scripts/", with: dir.path("scripts") + "/")
            .replacingOccurrences(of: "/out/seg-$JOB_COMPLETION_INDEX.mp4", with: dir.path("out") + "/frames/")
            .replacingOccurrences(of: "anim render", with: "\"$ANIM\" render")
        #expect(local.contains("/frames/"), "the manifest's output path changed: \(command)")
        for index in 0..<completions {
            let r = try Self.shell(local, in: dir, environment: ["JOB_COMPLETION_INDEX": String(index), "AWS_BATCH_JOB_ARRAY_INDEX": ""])
            #expect(r.exitCode == 0, Comment(rawValue: r.stderr))
        }
        #expect(try Self.files(dir.path("out/frames")) == Self.reference(in: dir))
    }
}
