// FuzzCheck: the libFuzzer entry point for `anim check`, and a differential one: each input is
// checked twice, with the checker and the timing run side by side (Session+Alongside, what
// `anim check` and the language server do) and one after the other (`checksAlongside` off),
// and the two must show the same: the same rendered diagnostics in the same order, the same
// exit code, duration, endless step, warning count and critical path. A difference is a crash,
// so libFuzzer keeps the input. `#:` lines are run flags, as in FuzzRun, and the same work
// budget bounds both timing runs. Built only by Scripts/fuzz (see Fuzz/README.md).
import AnimCore

/// As FuzzRun's: about 50 000 events or clock moves per timing run.
let budgetChecks = 50

/// What one check showed, as text.
func checked(_ bytes: [UInt8], options: SessionOptions, alongside: Bool) -> String {
    let out = CapturedOutput()
    let session = Session(options: options, output: out)
    session.checksAlongside = alongside
    var checks = 0
    session.interpreter.shouldStop = {
        checks += 1
        return checks > budgetChecks
    }
    let r = session.check(name: "fuzz.anim", bytes: bytes)
    return """
        \(out.standard)
        \(out.error)
        exit \(r.exitCode.rawValue), duration \(String(describing: r.duration)), endless \(String(describing: r.endless)), \
        cut at \(String(describing: r.cutAt)), warnings \(r.warnings), errors \(session.errorCount)
        \(r.criticalPath.map { "\($0.begin) \($0.end) \($0.label) \($0.position)" })
        """
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheck(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let flags = ScriptExpectations(text: String(decoding: bytes, as: UTF8.self)).flags
    guard case .success(var options) = SessionOptions.parse(runFlags: flags) else { return 0 }
    options.baseNamesOnly = true
    let side = checked(bytes, options: options, alongside: true)
    let first = checked(bytes, options: options, alongside: false)
    if side != first {
        fatalError("checked side by side:\n\(side)\n--- checked first, then run:\n\(first)")
    }
    return 0
}
