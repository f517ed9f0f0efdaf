// ScriptSuite and CheckSummary: what `anim test PATH...` and `anim check FILE` print, as
// library code, so `anim watch --test` and `anim watch --check` run them in-process exactly as
// the commands do (the executable's `test` and `check` call these too).
import AnimCore

/// `anim test PATH...`: every `.anim` file at or below the paths, through ScriptTestRunner.
public enum ScriptSuite {
    /// Runs the files below `paths` (each must exist), printing `FAIL` reports (and `PASS`
    /// lines when `verbose`) and `N passed, N failed`. Exit 0 if every file passed, else 1.
    public static func run(paths: [String], verbose: Bool, output: SessionOutput) -> ExitCode {
        var files: [String] = []
        for p in paths { files += FileSystem.scripts(under: p) }
        let runner = ScriptTestRunner()
        var passed = 0, failed = 0
        for f in files {
            let result: ScriptTestResult
            switch FileSystem.readScript(f) {
            case .success(let bytes): result = runner.run(path: f, bytes: bytes)
            case .failure(let e): result = ScriptTestResult(path: f, passed: false, report: "  \(e.message)\n")
            }
            if result.passed {
                passed += 1
                if verbose { output.standardOutput("PASS \(f)\n") }
            } else {
                failed += 1
                output.standardOutput("FAIL \(f)\n" + result.report)
            }
        }
        output.standardOutput("\(passed) passed, \(failed) failed\n")
        return failed == 0 ? .success : .failure
    }
}

/// `anim check FILE`'s report on standard output.
public enum CheckSummary {
    /// Checks `bytes` in `session` (diagnostics go to its standard error) and prints the
    /// summary: `name: ok; duration 4.100s` and the critical path, where `--until` stopped a run
    /// still going, or that it never ends.
    public static func check(name: String, bytes: [UInt8], session: Session, output: SessionOutput) -> ExitCode {
        let report = session.check(name: name, bytes: bytes)
        guard report.exitCode == .success else { return report.exitCode }
        let w = report.warnings == 0 ? "" : " with \(report.warnings) warning\(report.warnings == 1 ? "" : "s")"
        if let cut = report.cutAt {
            let why = report.endless.map { "the graph at \(session.renderer.position(of: $0) ?? name) repeats forever" } ?? "it goes on"
            output.standardOutput("\(name): ok\(w); stopped at \(cut.eventStamp)s by --until (\(why))\n")
        } else if let d = report.duration {
            output.standardOutput("\(name): ok\(w); duration \(d.eventStamp)s\n")
            if !report.criticalPath.isEmpty {
                output.standardOutput("critical path:\n")
                for step in report.criticalPath {
                    output.standardOutput("  \(step.begin.eventStamp)–\(step.end.eventStamp)  \(step.label)  (\(step.position))\n")
                }
            }
        } else if let span = report.endless {
            let pos = session.renderer.position(of: span) ?? name
            output.standardOutput("\(name): ok\(w); it never ends (the graph at \(pos) repeats forever)\n")
        }
        return .success
    }
}
