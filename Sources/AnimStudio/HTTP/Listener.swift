// Listener: a TCP socket bound to an address and listening, non-blocking. It knows whether the
// address is a loopback one (127.0.0.0/8, ::1), which decides the server's Host check, and
// says a port that is taken in words a person can act on.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket.
public final class Listener {
    /// The descriptor.
    public let fd: Int32
    /// The address as given or resolved (`127.0.0.1`, `::1`).
    public let host: String
    /// The port bound (the system's choice when 0 was asked for).
    public let port: UInt16
    /// Whether only this machine can connect.
    public let isLoopback: Bool

    /// Why a listener could not be made.
    public enum Failure: Error, Sendable {
        /// The port is taken.
        case portInUse(host: String, port: UInt16)
        /// The host is not an address of this machine, or cannot be resolved.
        case badHost(String, reason: String)
        /// Any other failure.
        case system(SystemError)
    }

    /// Binds `host:port` and listens. `host` is an IPv4 or IPv6 address, or a name that
    /// resolves to one (`localhost`).
    public init(host: String, port: UInt16, backlog: Int32 = 128) throws(Failure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw .badHost(host, reason: String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(list) }
        var lastError = SystemError(message: "no address")
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let ai = node {
            node = ai.pointee.ai_next
            let s = socket(ai.pointee.ai_family, ai.pointee.ai_socktype, ai.pointee.ai_protocol)
            if s < 0 { lastError = SystemError("cannot create a socket"); continue }
            var one: Int32 = 1
            // Rebinding at once after a restart, while old connections sit in TIME_WAIT.
            setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if ai.pointee.ai_family == AF_INET6 {
                setsockopt(s, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            if bind(s, ai.pointee.ai_addr, ai.pointee.ai_addrlen) != 0 {
                let code = errno
                close(s)
                if code == EADDRINUSE { throw .portInUse(host: host, port: port) }
                if code == EADDRNOTAVAIL { throw .badHost(host, reason: "not an address of this machine") }
                lastError = SystemError("cannot bind \(host):\(port)", code: code)
                continue
            }
            guard listen(s, backlog) == 0 else {
                let code = errno
                close(s)
                if code == EADDRINUSE { throw .portInUse(host: host, port: port) }
                lastError = SystemError("cannot listen on \(host):\(port)", code: code)
                continue
            }
            _ = fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK)
            _ = fcntl(s, F_SETFD, FD_CLOEXEC)
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &length) }
            }
            let (address, boundPort, loopback) = Listener.describe(storage)
            fd = s
            self.host = address
            self.port = boundPort
            isLoopback = loopback
            return
        }
        throw .system(lastError)
    }

    deinit { close(fd) }

    /// The URL of the server's root: `http://127.0.0.1:7878/`, `http://[::1]:7878/`.
    public var url: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "http://\(h):\(port)/"
    }

    /// The numeric address, port and loopback-ness of a socket address.
    static func describe(_ storage: sockaddr_storage) -> (String, UInt16, Bool) {
        var s = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if Int32(s.ss_family) == AF_INET {
            return withUnsafePointer(to: &s) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { a in
                    var addr = a.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                    let firstByte = UInt8(truncatingIfNeeded: UInt32(bigEndian: addr.s_addr) >> 24)
                    return (Listener.string(text), UInt16(bigEndian: a.pointee.sin_port), firstByte == 127)
                }
            }
        }
        return withUnsafePointer(to: &s) {
            $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { a in
                var addr = a.pointee.sin6_addr
                inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                let bytes = withUnsafeBytes(of: addr) { Array($0) }
                let loopback = bytes == [UInt8](repeating: 0, count: 15) + [1]
                    || (bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127)
                return (Listener.string(text), UInt16(bigEndian: a.pointee.sin6_port), loopback)
            }
        }
    }

    /// A NUL-terminated C string held in an array.
    static func string(_ chars: [CChar]) -> String {
        chars.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The first port above `port` that can be bound on `host` (for a suggestion), if any of
    /// the next `tries` is free.
    public static func freePort(after port: UInt16, host: String, tries: Int = 20) -> UInt16? {
        var p = Int(port) + 1
        while p <= Int(UInt16.max) && p <= Int(port) + tries {
            if (try? Listener(host: host, port: UInt16(p))) != nil { return UInt16(p) }
            p += 1
        }
        return nil
    }
}
