// SystemError: a failed system call, said in the system's own words
// (`cannot bind 127.0.0.1:7878: Address already in use`).
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A system call that failed, with errno's text.
public struct SystemError: Error, Sendable, CustomStringConvertible {
    /// What was attempted and why it failed.
    public var message: String
    /// The errno value (0 when the failure was not a system call's).
    public var code: Int32

    /// An error for what was attempted, with the current errno.
    public init(_ what: String, code: Int32 = errno) {
        self.code = code
        message = code == 0 ? what : "\(what): \(String(cString: strerror(code)))"
    }

    /// An error with a message of its own (no errno).
    public init(message: String) {
        self.message = message
        code = 0
    }

    public var description: String { message }
}
