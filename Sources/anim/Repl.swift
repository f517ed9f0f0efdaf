// Repl: the terminal front end of the REPL — GNU readline for editing, history and Tab
// completion, around the library's ReplSession, which holds all the logic.
//
// readline runs in its callback mode under our own poll loop (as Python's REPL does), so
// Ctrl-C is ours: a signal handler only sets a flag and wakes the loop through a pipe, and the
// loop drops the half-typed entry and shows a fresh `anim> `. Lines typed ahead (a paste into a
// terminal without bracketed paste) are gathered and handed over together, so a pasted script
// runs as its file would. Each entry is appended to the history file as soon as it is complete.
@preconcurrency import CReadline
@preconcurrency import Glibc
import AnimCore

enum Repl {
    /// The session the C callbacks complete against (readline callbacks cannot capture).
    nonisolated(unsafe) static var core: ReplSession?
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0
    /// Set by the SIGINT handler; cleared by whoever acts on it.
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0
    /// Set by the SIGWINCH handler.
    nonisolated(unsafe) static var resized: sig_atomic_t = 0
    /// Set by the SIGCONT handler (`fg` after Ctrl-Z).
    nonisolated(unsafe) static var continued: sig_atomic_t = 0
    /// The pipe the signal handlers write to, to wake `poll` (read end, write end).
    nonisolated(unsafe) static var wake: (Int32, Int32) = (-1, -1)
    /// Where completion words start, in anim text and in `:load` file names.
    nonisolated(unsafe) static let wordBreaks = strdup(" \t\n\"'<>=;,(){}+*/")!
    nonisolated(unsafe) static let fileNameBreaks = strdup(" \t\n\"'")!

    /// What readline's line handler received: a line, or nil at end of input (Ctrl-D).
    nonisolated(unsafe) static var accepted: String?? = .none

    /// What one read gave.
    enum Input: Equatable {
        case line(String)
        case interrupt
        case end
    }

    /// Runs the REPL until `:quit` or Ctrl-D.
    static func start(options: SessionOptions) -> ExitCode {
        streams.lineBuffered = true
        var opts = options
        opts.color = isatty(2) != 0 && getenv("NO_COLOR") == nil
        let core = ReplSession(options: opts, output: streams, readFile: { FileAccess.read(expandingTilde($0)) })
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { core.terminalWidth = Int(size.ws_col) }
        core.interruptRequested = takeInterrupt
        Repl.core = core
        var history = HistoryFile(path: HistoryFile.defaultPath())
        setUpReadline()
        streams.standardOutput("anim 0.1.0 — type :help for commands, :quit or Ctrl-D to leave\n")
        var entry: [String] = []  // the lines of the entry being typed, for the history
        loop: while true {
            // Gather what was typed ahead; a human's next key comes long after Enter.
            var chunk: [String] = []
            var input = read(prompt: core.prompt)
            while case .line(let l) = input {
                chunk.append(l)
                guard inputPending() else { break }
                input = read(prompt: "...> ")
            }
            if !chunk.isEmpty {
                entry += chunk
                let outcome = core.handle(line: chunk.joined(separator: "\n"))
                if outcome != .incomplete {
                    history.add(entry.joined(separator: "\n"))
                    entry = []
                }
                if outcome == .quit { break loop }
            }
            switch input {
            case .line: break
            case .interrupt:
                core.cancelInput()
                entry = []
            case .end:
                streams.standardOutput("\n")
                break loop
            }
        }
        history.trim()
        return .success
    }

    /// Configures readline: our completion, our signal handling.
    static func setUpReadline() {
        rl_readline_name = UnsafePointer(strdup("anim"))
        rl_attempted_completion_function = attemptCompletion
        // Completion words break at spaces and operators, not at `.`, `:`, `[`, `]` or `-`
        // (`card[2].ce`, `:ti`, `ease-in-o`); file names after `:load` only at spaces.
        rl_completer_word_break_characters = UnsafePointer(Repl.wordBreaks)
        rl_completion_word_break_hook = currentWordBreaks
        // A second Tab lists the matches even when the first one inserted their common prefix
        // (set before readline reads ~/.inputrc, which can still turn it off).
        _ = rl_variable_bind("show-all-if-unmodified", "on")
        rl_catch_signals = 0
        rl_catch_sigwinch = 0
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            wake = (fds[0], fds[1])
        }
        signal(SIGINT, onInterrupt)
        signal(SIGWINCH, onResize)
        signal(SIGCONT, onContinue)
        // A parent may have left them blocked (a test runner's thread did): Ctrl-C must work.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGWINCH)
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// Reads one line with readline, waking for Ctrl-C and window size changes.
    static func read(prompt: String) -> Input {
        drainWakePipe()
        interrupted = 0
        accepted = .none
        rl_callback_handler_install(prompt, onLine)
        while true {
            if interrupted != 0 {
                interrupted = 0
                abandonLine()
                return .interrupt
            }
            if resized != 0 {
                resized = 0
                rl_resize_terminal()
            }
            if continued != 0 {
                // Back from Ctrl-Z: the shell has set the terminal its own way meanwhile.
                continued = 0
                rl_deprep_terminal()
                rl_prep_terminal(0)
                _ = rl_forced_update_display()
            }
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.0, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                rl_callback_handler_remove()
                return .end
            }
            if fds[1].revents != 0 { drainWakePipe() }
            if fds[0].revents & Int16(POLLIN) != 0 {
                rl_callback_read_char()
            } else if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                rl_callback_handler_remove()
                return .end
            }
            if let a = accepted { return a.map { .line($0) } ?? .end }
        }
    }

    /// Ctrl-C while typing: show `^C` after the line, forget it, leave readline's state clean.
    static func abandonLine() {
        rl_point = rl_end
        rl_redisplay()
        _ = write(1, "^C\n", 3)
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_replace_line("", 0)
        rl_callback_handler_remove()
    }

    /// Whether input is waiting to be read now.
    static func inputPending() -> Bool {
        var fd = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0 && fd.revents & Int16(POLLIN) != 0
    }

    /// Asked by the session between clock events: true once after Ctrl-C.
    static func takeInterrupt() -> Bool {
        guard interrupted != 0 else { return false }
        interrupted = 0
        drainWakePipe()
        return true
    }

    static func drainWakePipe() {
        guard wake.0 >= 0 else { return }
        var buf = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wake.0, &buf, buf.count) > 0 {}
    }

    /// `~/x` → `$HOME/x` (for `:load`).
    static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = getenv("HOME") else { return path }
        return String(cString: home) + path.dropFirst()
    }
}

// MARK: - History

/// The history file: `$ANIM_HISTORY` (empty: none), else `~/.anim_history`. Each entry is
/// appended as soon as it is complete, so a crash loses nothing, and the file is cut back to
/// the newest `limit` entries at start and exit. The format is readline's with timestamps:
/// `#<seconds>` starts an entry and the lines up to the next one are its text, so an entry
/// typed over several lines comes back whole; in a file without timestamps each line is an
/// entry. A file that cannot be read or written gives one warning, and history is then kept
/// for this session only. (readline's own history_truncate_file cuts entries in half.)
struct HistoryFile {
    /// The file, or nil when history is kept in memory only.
    private(set) var path: String?
    /// How many entries the file holds, as far as this session knows.
    private var count = 0
    /// The most entries kept, in memory and in the file.
    static let limit = 1000

    /// `$ANIM_HISTORY` (empty: no file), else `$HOME/.anim_history`.
    static func defaultPath() -> String? {
        if let p = getenv("ANIM_HISTORY") {
            let s = String(cString: p)
            return s.isEmpty ? nil : s
        }
        guard let home = getenv("HOME"), home.pointee != 0 else { return nil }
        return String(cString: home) + "/.anim_history"
    }

    /// Loads the file into readline's history.
    init(path: String?) {
        self.path = path
        stifle_history(Int32(HistoryFile.limit))
        guard let p = path else { return }
        var st = stat()
        guard stat(p, &st) == 0 else {
            if errno != ENOENT { give(up: String(cString: strerror(errno))) }
            return
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else { give(up: "it is not a regular file"); return }
        let fd = open(p, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { give(up: String(cString: strerror(errno))); return }
        let entries = HistoryFile.parse(FileAccess.readAll(fd: fd))
        Glibc.close(fd)
        for e in entries.suffix(HistoryFile.limit) { add_history(e) }
        count = entries.count
        trim()
    }

    /// Splits the file's bytes into entries.
    static func parse(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { l in
            String(decoding: l.last == 0x0D ? l.dropLast() : l[...], as: UTF8.self)
        }
        if lines.last == "" { lines.removeLast() }  // the file's final line break
        func isStamp(_ l: String) -> Bool {
            l.count > 1 && l.hasPrefix("#") && l.dropFirst().allSatisfy { $0 >= "0" && $0 <= "9" }
        }
        var entries: [String] = []
        var open = false  // the last entry follows a timestamp and takes the lines after it
        for l in lines {
            if isStamp(l) { open = false; entries.append(""); continue }
            if entries.last == "" && !open { entries[entries.count - 1] = l; open = true; continue }
            if open { entries[entries.count - 1] += "\n" + l; continue }
            if !l.isEmpty { entries.append(l) }
        }
        return entries.filter { !$0.isEmpty }
    }

    /// Adds a complete entry, unless it is blank or repeats the one before.
    mutating func add(_ entry: String) {
        guard entry.contains(where: { $0 != " " && $0 != "\t" && $0 != "\n" }) else { return }
        if history_length > 0, let last = history_get(history_base + history_length - 1),
           String(cString: last.pointee.line) == entry {
            return
        }
        add_history(entry)
        guard let p = path else { return }
        let record = "#\(time(nil))\n\(entry)\n"
        let fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0, write(fd, record, record.utf8.count) == record.utf8.count else {
            give(up: String(cString: strerror(errno)))
            if fd >= 0 { Glibc.close(fd) }
            return
        }
        Glibc.close(fd)
        count += 1
    }

    /// Cuts the file to the newest `limit` entries.
    mutating func trim() {
        guard let p = path, count > HistoryFile.limit else { return }
        let fd = open(p, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { give(up: String(cString: strerror(errno))); return }
        defer { Glibc.close(fd) }
        let entries = HistoryFile.parse(FileAccess.readAll(fd: fd)).suffix(HistoryFile.limit)
        let now = time(nil)
        let text = entries.map { "#\(now)\n\($0)\n" }.joined()
        guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0, write(fd, text, text.utf8.count) == text.utf8.count else {
            give(up: String(cString: strerror(errno)))
            return
        }
        count = entries.count
    }

    /// Warns once and stops using the file.
    private mutating func give(up reason: String) {
        guard let p = path else { return }
        streams.standardError("warning: cannot use history file '\(p)': \(reason); history is kept for this session only\n")
        path = nil
    }
}

// MARK: - C callbacks

/// readline's line handler (callback mode): keep the line, leave callback mode.
private func onLine(_ raw: UnsafeMutablePointer<CChar>?) {
    Repl.accepted = .some(raw.map { String(cString: $0) })
    free(raw)
    rl_callback_handler_remove()
}

/// SIGINT: note it and wake the loop; the loop does the rest outside the handler.
private func onInterrupt(_: Int32) {
    Repl.interrupted = 1
    if Repl.wake.1 >= 0 { _ = write(Repl.wake.1, "i", 1) }
}

/// SIGCONT: note it and wake the loop.
private func onContinue(_: Int32) {
    Repl.continued = 1
    if Repl.wake.1 >= 0 { _ = write(Repl.wake.1, "c", 1) }
}

/// SIGWINCH: note it and wake the loop.
private func onResize(_: Int32) {
    Repl.resized = 1
    if Repl.wake.1 >= 0 { _ = write(Repl.wake.1, "w", 1) }
}

/// readline asks before each completion where words break.
private func currentWordBreaks() -> UnsafeMutablePointer<CChar>? {
    let line = String(cString: rl_line_buffer)
    return Repl.core?.completesFileNames(before: line) == true ? Repl.fileNameBreaks : Repl.wordBreaks
}

private func completionGenerator(_ text: UnsafePointer<CChar>?, _ state: Int32) -> UnsafeMutablePointer<CChar>? {
    guard Repl.matchIndex < Repl.matches.count else { return nil }
    defer { Repl.matchIndex += 1 }
    return strdup(Repl.matches[Repl.matchIndex])
}

private func attemptCompletion(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    guard let core = Repl.core else { return nil }
    let word = text.map { String(cString: $0) } ?? ""
    let before = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(rl_line_buffer).assumingMemoryBound(to: UInt8.self),
                                                      count: Int(max(0, start))), as: UTF8.self)
    if core.completesFileNames(before: before) {
        rl_attempted_completion_over = 0   // readline's own file-name completion
        return nil
    }
    rl_attempted_completion_over = 1       // never fall back to file names
    Repl.matches = core.completions(for: word, before: before)
    Repl.matchIndex = 0
    // readline resets this before every completion, so it is set here.
    rl_completion_append_character = Repl.matches.count == 1 && core.appendsSpace(after: Repl.matches[0]) ? 32 : 0
    return rl_completion_matches(text, completionGenerator)
}
