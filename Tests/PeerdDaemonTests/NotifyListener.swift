import Foundation
import PeerdTestKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket: bound to a fresh path, or to a
/// fresh name in the abstract namespace, and read without blocking.
///
/// With `draining`, a thread empties the socket as each datagram arrives (`poll(2)`) into a queue
/// the test reads at its own pace, as systemd reads its socket: a test starved for a second would
/// otherwise leave the kernel's queue of ten datagrams full, and a service pinging every 100 ms would
/// fail to send. ``receive(within:)`` waits on those arrivals.
final class NotifyListener: Sendable {
    let fd: Int32
    /// What `NOTIFY_SOCKET` would say: the path, or `@name` for an abstract socket.
    let address: String
    /// Datagrams taken off the socket, oldest first, not yet received.
    private let taken = Mutex<[String]>([])
    /// An event each time the drain took datagrams off the socket.
    private let arrivals = EventFeed<Void>()
    /// Signalled by the drain once it let go of the socket.
    private let drained = DispatchSemaphore(value: 0)
    private let draining: Bool

    init(abstract: Bool = false, draining: Bool = false) throws {
        let name = "peerd-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        address = abstract ? "@" + name : "/tmp/" + name + ".sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.draining = draining
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(address.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1)
        let bound = withUnsafePointer(to: socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard fd >= 0, bound == 0 else { throw Failure.cannotBind(errno) }
        guard draining else { return }
        let (socket, feed, done) = (fd, arrivals, drained)
        // Until the listener goes (its `deinit` has begun once `self` is nil).
        Thread.detachNewThread { [weak self] in
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            while poll(&ready, 1, -1) >= 0 || errno == EINTR, let listener = self {
                listener.takeWaiting()
                feed.send(())
            }
            done.signal()
        }
    }

    deinit {
        if draining {
            // Wakes the drain's `poll`, and waits for it to let go of the socket before closing it.
            shutdown(fd, Int32(SHUT_RDWR))
            drained.wait()
        }
        close(fd)
        if address.hasPrefix("/") { unlink(address) }
    }

    /// The next datagram, if one is waiting.
    func receiveNow() -> String? {
        takeWaiting()
        return taken.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Moves what waits on the socket to `taken`, under the lock so that order is kept.
    private func takeWaiting() {
        taken.withLock { queue in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)), count >= 0 {
                queue.append(String(decoding: buffer.prefix(count), as: UTF8.self))
            }
        }
    }

    /// Waits up to `timeout` for the next datagram (with `draining`). The default is generous because
    /// other suites running at the same time can keep the service from being scheduled for many seconds.
    func receive(within timeout: Duration = .seconds(60)) async throws -> String? {
        let arrived = arrivals.subscribe()
        if let message = receiveNow() { return message }
        _ = try await firstEvent(of: arrived, within: timeout) { _ in !taken.withLock(\.isEmpty) }
        return receiveNow()
    }

    enum Failure: Error {
        case cannotBind(Int32)
    }
}
