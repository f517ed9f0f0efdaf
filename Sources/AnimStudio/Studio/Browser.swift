// Browser: `anim serve --open` — the system's own opener (`xdg-open` on Linux, `open` on
// macOS) started on the URL, not waited for. Where there is none, or no graphical session for
// it to open a window in (xdg-open would then start a text browser in our terminal), it says so
// and the server runs on.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens URLs in the system's browser.
public enum Browser {
    /// The opener program's name on this system.
    static var openerName: String {
        #if os(macOS)
        "open"
        #else
        "xdg-open"
        #endif
    }

    /// Starts the browser on `url`; nil on success, else what went wrong, in a sentence.
    public static func open(_ url: String, environment: [String: String] = currentEnvironment()) -> String? {
        guard let opener = find(openerName, path: environment["PATH"] ?? "/usr/bin:/bin") else {
            return "no browser to open: '\(openerName)' was not found on PATH; open \(url) in a browser"
        }
        #if os(Linux)
        if environment["DISPLAY"] == nil && environment["WAYLAND_DISPLAY"] == nil && environment["BROWSER"] == nil {
            return "no browser to open: there is no graphical session (DISPLAY and WAYLAND_DISPLAY are not set); open \(url) in a browser"
        }
        #endif
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let args: [UnsafeMutablePointer<CChar>?] = [strdup(opener), strdup(url), nil]
        defer { args.forEach { free($0) } }
        let rc = posix_spawn(&pid, opener, &actions, nil, args, processEnvironment())
        guard rc == 0 else { return "cannot start '\(opener)': \(String(cString: strerror(rc)))" }
        // Reap it whenever it ends, so it does not linger as a zombie.
        let child = pid
        try? ThreadBody { var status: Int32 = 0; while waitpid(child, &status, 0) < 0 && errno == EINTR {} }.start(stackSize: 256 << 10)
        return nil
    }

    /// A program on a PATH, if any.
    static func find(_ name: String, path: String) -> String? {
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The C environment block of this process.
    static func processEnvironment() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        #if canImport(Darwin)
        _NSGetEnviron()!.pointee!
        #else
        environ
        #endif
    }

    /// This process's environment.
    public static func currentEnvironment() -> [String: String] {
        var out: [String: String] = [:]
        var p = processEnvironment()
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { out[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return out
    }
}
