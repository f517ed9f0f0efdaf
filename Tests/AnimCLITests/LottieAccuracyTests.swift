// Between-frame accuracy of the Lottie export in lottie-web: Tests/Pictures/lottie_accuracy.py
// exports Tests/Pictures/easings.anim (one rect per easing, each moving, turning, scaling,
// fading and changing colour) at 30 fps, reads what lottie-web computes at 32 instants per
// frame, and compares with anim's values at the same instants (anim run --trace). The bounds
// are the scene-vocabulary issue's: 0.25 px (position, and scale at the box's corner), 0.001
// for alpha, 0.1 degree for rotation; colour within one level (the trace rounds colours).
//
// One test per easing family. A family within the bounds passes. A family that is over them
// is either required (the test fails) or listed in `known` with why: its test is skipped
// (cancelled) with the measured errors in the message. A known family that comes within the
// bounds fails its test, so that the exporter work that fixed it also moves it to required
// by deleting its line. `Scripts/lottie-accuracy` prints the same table.
import AnimTestSupport
import Foundation
import Testing

@Suite("Lottie between-frame accuracy in lottie-web", .serialized)
struct LottieAccuracyTests {
    /// Families over the bounds today, and why: none. Bézier tweens (linear, ease…,
    /// cubic-bezier) are exported with their own handles, `steps()` as hold keys at the
    /// nanosecond of each jump, and everything else as cubic keyframes fitted within the bounds
    /// (Sources/AnimCore/Output/Lottie/LottieFit.swift). A family that goes over them again
    /// fails; list it here with why only if that is a decision, not a regression.
    static let known: [String: String] = [:]

    /// What the harness reported, or why it could not.
    struct Report: @unchecked Sendable {
        var families: [String: [String: Any]]
        var bounds: [String: Double]
        var table: String
    }

    /// The measurement, made once for all the families' tests.
    static let measurement: Result<Report, LottieAccuracyFailure> = {
        let harness = PictureFixtures.directory.appendingPathComponent("lottie_accuracy.py").path
        let easings = PictureFixtures.directory.appendingPathComponent("easings.anim").path
        do {
            let r = try Consumers.run(Consumers.python3!, [
                harness, "--anim", TestPaths.animBinary.path, "--lottie-web", Consumers.lottieWeb!,
                "--chromium", Consumers.chromium!, "--fps", "30", "--steps", "32", "--json", easings,
            ])
            guard r.exitCode == 0 else { return .failure(LottieAccuracyFailure(description: "the harness failed:\n\(r.stderr)")) }
            guard let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
                  let families = json["families"] as? [String: [String: Any]], let bounds = json["bounds"] as? [String: Double],
                  let table = json["table"] as? String else {
                return .failure(LottieAccuracyFailure(description: "the harness printed no report:\n\(r.stdout.prefix(500))"))
            }
            print("Lottie between-frame accuracy (Tests/Pictures/easings.anim):\n\(table)")
            return .success(Report(families: families, bounds: bounds, table: table))
        } catch {
            return .failure(LottieAccuracyFailure(description: "could not run the harness: \(error)"))
        }
    }()

    static let enabled = Consumers.chromium != nil && Consumers.lottieWeb != nil && Consumers.python3 != nil
    static let note: Comment = Consumers.chromium == nil ? Consumers.skipNote("chromium")
        : Consumers.python3 == nil ? Consumers.skipNote("python3") : Consumers.skipNote("lottie-web (wagtail-lottie in .build/test-tools/venv)")

    /// Checks one family against the bounds, as described at the top of the file.
    static func check(_ family: String) throws {
        let report = try measurement.get()
        let row = try #require(report.families[family], "no probes of family '\(family)' in easings.anim")
        let units = ["position": " px", "scale": " px", "rotation": "°", "alpha": "", "color": " levels"]
        let properties = ["position", "scale", "rotation", "alpha", "color"]
        let errors = properties.map { p in
            let e = row[p] as? Double ?? .nan, bound = report.bounds[p] ?? 0
            return "\(p) \(String(format: "%.4g", e))\(units[p]!)\(e > bound ? " (bound \(String(format: "%g", bound)))" : "")"
        }.joined(separator: ", ")
        let within = row["within"] as? Bool ?? false
        switch (within, known[family]) {
        case (true, nil):
            print("\(family): within the bounds at every instant: \(errors)")
        case (true, .some):
            Issue.record("'\(family)' is within the bounds now (\(errors)): delete its line from LottieAccuracyTests.known so that it stays required")
        case (false, .some(let why)):
            try Test.cancel("known: '\(family)' is off between frames in lottie-web: \(errors); \(why)")
        case (false, nil):
            Issue.record("'\(family)' is off between frames in lottie-web: \(errors)")
        }
    }

    @Test("linear", .enabled(if: enabled, note)) func linear() throws { try Self.check("linear") }
    @Test("cubic-bezier (ease, ease-in, ease-out, ease-in-out, cubic-bezier)", .enabled(if: enabled, note))
    func bezier() throws { try Self.check("bezier") }
    @Test("steps", .enabled(if: enabled, note)) func steps() throws { try Self.check("steps") }
    @Test("sine", .enabled(if: enabled, note)) func sine() throws { try Self.check("sine") }
    @Test("quad", .enabled(if: enabled, note)) func quad() throws { try Self.check("quad") }
    @Test("cubic", .enabled(if: enabled, note)) func cubic() throws { try Self.check("cubic") }
    @Test("quart", .enabled(if: enabled, note)) func quart() throws { try Self.check("quart") }
    @Test("quint", .enabled(if: enabled, note)) func quint() throws { try Self.check("quint") }
    @Test("expo", .enabled(if: enabled, note)) func expo() throws { try Self.check("expo") }
    @Test("circ", .enabled(if: enabled, note)) func circ() throws { try Self.check("circ") }
    @Test("back", .enabled(if: enabled, note)) func back() throws { try Self.check("back") }
    @Test("elastic", .enabled(if: enabled, note)) func elastic() throws { try Self.check("elastic") }
    @Test("bounce", .enabled(if: enabled, note)) func bounce() throws { try Self.check("bounce") }
    @Test("spring", .enabled(if: enabled, note)) func spring() throws { try Self.check("spring") }
    @Test("path (with orient), as spatial keyframes", .enabled(if: enabled, note)) func path() throws { try Self.check("path") }

    @Test("every probe's family has a test", .enabled(if: enabled, note))
    func everyFamilyTested() throws {
        let tested: Set = ["linear", "bezier", "steps", "sine", "quad", "cubic", "quart", "quint", "expo", "circ", "back",
                           "elastic", "bounce", "spring", "path"]
        let measured = Set(try Self.measurement.get().families.keys)
        #expect(measured == tested, "families measured but not tested, or tested but not measured: \(measured.symmetricDifference(tested))")
        #expect(Set(Self.known.keys).isSubset(of: tested), "known families with no test: \(Set(Self.known.keys).subtracting(tested))")
    }
}

/// Why the accuracy harness could not measure.
struct LottieAccuracyFailure: Error, CustomStringConvertible {
    var description: String
}
