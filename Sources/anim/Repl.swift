// Repl: the terminal front end of the REPL — GNU readline for editing, history and Tab
// completion, around the library's ReplSession, which holds all the logic. History is appended
// to the file after every entry, so a crash later loses nothing already typed.
@preconcurrency import CReadline
@preconcurrency import Glibc
import AnimCore

enum Repl {
    /// The session the C callbacks complete against (readline callbacks cannot capture).
    nonisolated(unsafe) static var core: ReplSession?
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0
    /// Set by the SIGINT handler: the half-typed entry is to be dropped.
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0

    /// How many history entries the file keeps.
    static let historyLimit: Int32 = 1000

    /// Runs the REPL until `:quit` or Ctrl-D.
    static func start(options: SessionOptions) -> ExitCode {
        streams.lineBuffered = true
        var opts = options
        opts.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
        let core = ReplSession(options: opts, output: streams, readFile: FileAccess.read)
        Repl.core = core
        let history = historyPath()
        if let h = history { _ = read_history(h) }
        stifle_history(historyLimit)
        rl_readline_name = UnsafePointer(strdup("anim"))
        rl_attempted_completion_function = attemptCompletion
        signal(SIGINT, onInterrupt)
        streams.standardOutput("anim 0.1.0 — type :help for commands, :quit or Ctrl-D to leave\n")
        var historyWritable = true
        while true {
            guard let raw = readline(core.prompt) else {
                streams.standardOutput("\n")
                break
            }
            let line = String(cString: raw)
            free(raw)
            if interrupted != 0 {
                interrupted = 0
                core.cancelInput()
            }
            if !line.trimmingCharactersSpace.isEmpty {
                add_history(line)
                if let h = history, historyWritable { historyWritable = appendHistory(h) }
            }
            if core.handle(line: line) == .quit { break }
        }
        if let h = history { _ = history_truncate_file(h, historyLimit) }
        return .success
    }

    /// `$ANIM_HISTORY`, else `~/.anim_history`; nil when neither can be found.
    static func historyPath() -> String? {
        if let p = getenv("ANIM_HISTORY") { return String(cString: p) }
        guard let home = getenv("HOME") else { return nil }
        return String(cString: home) + "/.anim_history"
    }

    /// Appends the newest entry to the history file; false (and a warning) if it cannot.
    static func appendHistory(_ path: String) -> Bool {
        if access(path, F_OK) != 0 {
            // append_history needs the file to exist.
            let fd = open(path, O_WRONLY | O_CREAT, 0o600)
            if fd >= 0 { close(fd) }
        }
        let rc = append_history(1, path)
        if rc != 0 {
            streams.standardError("warning: cannot save history to '\(path)': \(String(cString: strerror(rc))); history is kept for this session only\n")
            return false
        }
        return true
    }
}

extension String {
    var trimmingCharactersSpace: String { String(filter { $0 != " " && $0 != "\t" }) }
}

/// Ctrl-C: drop the line being typed (and any half-typed entry) and show a fresh prompt.
private func onInterrupt(_: Int32) {
    Repl.interrupted = 1
    _ = write(1, "^C\n", 3)
    rl_on_new_line()
    rl_replace_line("", 0)
    _ = rl_set_prompt("anim> ")
    rl_redisplay()
}

private func completionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    if state == 0 {
        let word = text.map { String(cString: $0) } ?? ""
        let before = String(cString: rl_line_buffer).utf8.prefix(Int(rl_point) - word.utf8.count)
        Repl.matches = Repl.core?.completions(for: word, before: String(decoding: before, as: UTF8.self)) ?? []
        Repl.matchIndex = 0
    }
    guard Repl.matchIndex < Repl.matches.count else { return nil }
    defer { Repl.matchIndex += 1 }
    return strdup(Repl.matches[Repl.matchIndex])
}

private func attemptCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    rl_attempted_completion_over = 1       // no file-name completion
    rl_completion_append_character = 0     // readline resets this before every completion
    return rl_completion_matches(text, completionGenerator)
}
