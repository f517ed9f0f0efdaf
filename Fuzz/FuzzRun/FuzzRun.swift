// FuzzRun: the libFuzzer entry point for the whole pipeline of `anim run` — lex, parse, check,
// build graphs, play them, render diagnostics. Each input is a script; `#:` lines in it are run
// flags, as in the golden suites, so flags are fuzzed too. A work budget on the clock (through
// Interpreter.shouldStop) bounds every input: a script may ask for a year of millisecond events,
// and must then be stopped, not time out. Output goes nowhere (AnimCore.DiscardedOutput), but
// diagnostics are still rendered, which is fuzzed too. Built only by Scripts/fuzz (see Fuzz/README.md).
import AnimCore

/// The most work one input may do: `shouldStop` is asked once per
/// `Interpreter.stopCheckInterval` events or clock moves, so this is about 50 000 of them,
/// far more than any seed needs, and a few milliseconds even under ASan.
let budgetChecks = 50

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRun(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let flags = ScriptExpectations(text: String(decoding: bytes, as: UTF8.self)).flags
    guard case .success(var options) = SessionOptions.parse(runFlags: flags) else { return 0 }
    options.baseNamesOnly = true
    let session = Session(options: options, output: DiscardedOutput())
    var checks = 0
    session.interpreter.shouldStop = {
        checks += 1
        return checks > budgetChecks
    }
    session.run(name: "fuzz.anim", bytes: bytes)
    return 0
}
