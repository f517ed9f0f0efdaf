// FuzzRepl: the libFuzzer entry point for the REPL's line handling (ReplSession.handle(line:)),
// the part of the REPL that takes what people type: `:` commands, entries left open, `then`
// lines, seeks by replay. The input is split at 0x01 bytes into what one read would give: a
// line, or several lines at once (a paste). As in FuzzRun, a work budget stops the clock
// (it stands for Ctrl-C). Built only by Scripts/fuzz (see Fuzz/README.md).
import AnimCore

/// The most work one input may do, in calls of the interrupt check (about 1024 events each),
/// for the whole input: once it is spent, every later run is interrupted at once.
let budgetChecks = 50

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRepl(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let repl = ReplSession(output: DiscardedOutput())
    var checks = 0
    repl.interruptRequested = {
        checks += 1
        return checks > budgetChecks
    }
    for chunk in bytes.split(separator: 0x01, omittingEmptySubsequences: false) {
        if repl.handle(line: String(decoding: chunk, as: UTF8.self)) == .quit { break }
    }
    return 0
}
