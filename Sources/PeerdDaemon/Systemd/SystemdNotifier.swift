#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells the service manager how peerd is doing: sd_notify(3), written by hand because none of the
/// dependencies peerd may use provides it, and linking libsystemd for one datagram is not worth it.
///
/// The protocol: one datagram per message, sent to the `AF_UNIX` socket named by `$NOTIFY_SOCKET`,
/// holding newline-separated `KEY=value` assignments (`READY=1`, `STATUS=…`, `WATCHDOG=1`,
/// `STOPPING=1`). A name starting with `@` is in the abstract namespace: its first byte becomes NUL
/// and the address is not NUL-terminated. The manager learns the sender's pid from the socket's
/// credentials, so with `NotifyAccess=main` only the main process may send, from any thread.
package struct SystemdNotifier: Sendable {
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// `$NOTIFY_SOCKET` is neither an absolute path nor `@abstract`, or too long for `sun_path`.
        case unsupportedAddress(String)
        case sendFailed(errno: Int32)

        package var description: String {
            switch self {
            case .unsupportedAddress(let address): "unsupported NOTIFY_SOCKET address '\(address)'"
            case .sendFailed(let code): "cannot notify systemd: \(String(cString: strerror(code)))"
            }
        }
    }

    /// `$NOTIFY_SOCKET` as systemd set it.
    package let address: String
    /// How often the manager expects `WATCHDOG=1` at the latest (`$WATCHDOG_USEC`), when the
    /// watchdog is on and meant for this process (`$WATCHDOG_PID` unset or ours).
    package let watchdogTimeout: Duration?

    /// The notifier systemd asked for through the environment, or nil when peerd was not started by
    /// a service manager that listens (no `$NOTIFY_SOCKET`): then there is nothing to tell.
    package init?(environment: [String: String], pid: Int32 = getpid()) {
        guard let address = environment["NOTIFY_SOCKET"], !address.isEmpty else { return nil }
        self.address = address
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == pid } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            watchdogTimeout = .microseconds(usec)
        } else {
            watchdogTimeout = nil
        }
    }

    /// Sends `assignments` (such as `["READY=1", "STATUS=3 peers, 42 movies"]`) as one datagram.
    ///
    /// It never blocks: it runs on an event loop, and a manager that stops reading (its queue of
    /// datagrams full, `net.unix.max_dgram_qlen`) would otherwise stop that loop and every
    /// connection on it. Then the send fails with `EAGAIN` and the caller tries again later.
    package func send(_ assignments: [String]) throws(Failure) {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        var name = Array(address.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        if abstract { name[0] = 0 }
        guard abstract || name.first == UInt8(ascii: "/"), name.count < capacity else {
            throw .unsupportedAddress(address)
        }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { path in
            path.copyBytes(from: name)
        }
        // The path's length plus its NUL; an abstract name is exactly its bytes.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (abstract ? 0 : 1)

        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .sendFailed(errno: errno) }
        defer { close(fd) }
        let message = Array(assignments.joined(separator: "\n").utf8)
        let flags = Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
        let sent = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                message.withUnsafeBytes { bytes in
                    sendto(fd, bytes.baseAddress, bytes.count, flags, address, socklen_t(length))
                }
            }
        }
        guard sent >= 0 else { throw .sendFailed(errno: errno) }
    }
}
