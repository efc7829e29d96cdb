#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The datagram socket a test daemon reports `READY=1` to, as it would to systemd (sd_notify(3)):
/// the test waits for that event rather than polling the control socket. Abstract (`@…`), so a
/// daemon run as another user may send to it, and it leaves no file behind.
struct ReadySocket: ~Copyable {
    /// The `NOTIFY_SOCKET` value to start peerd with.
    let address: String
    private let descriptor: Int32

    init() throws(Failure) {
        address = "@peerd-test-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socket(errno) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var name = Array(address.utf8)
        name[0] = 0  // the abstract namespace
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw .socket(code)
        }
    }

    deinit { close(descriptor) }

    /// Waits until a datagram holding `READY=1` arrives (true), `deadline` passes or `running`
    /// turns false (false). Each wait in `poll` ends early on a datagram; the slices only bound how
    /// late an exited process is noticed.
    func waitForReady(until deadline: ContinuousClock.Instant, running: () -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while running(), ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { continue }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            if message.split(separator: "\n").contains("READY=1") { return true }
        }
        return false
    }

    enum Failure: Error {
        case socket(Int32)
    }
}
