import PeerdWire

#if canImport(Glibc)
import Glibc
#endif

/// Opens (and at once closes) a TCP connection to each address, all at once, to tell whether a peer
/// that reaches us inbound can be reached from here: what the daemon never tries while connected.
enum TCPProbe {
    /// Each `host:port` and how connecting to it went, within `limit` seconds.
    static func run(_ addresses: [String], limit: Int32 = 3) -> [(address: String, outcome: DialRecord.Outcome)] {
        var pending: [(address: String, fd: Int32)] = []
        var results: [(address: String, outcome: DialRecord.Outcome)] = []
        for address in addresses {
            switch start(address) {
            case .connecting(let fd): pending.append((address, fd))
            case .failed(let outcome): results.append((address, outcome))
            }
        }
        defer { for entry in pending { close(entry.fd) } }
        var fds = pending.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
        var done = Set<Int32>()
        let deadline = time(nil) + time_t(limit)
        while done.count < fds.count, time(nil) < deadline {
            let ready = poll(&fds, nfds_t(fds.count), Int32(max(1, deadline - time(nil))) * 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            for (index, entry) in fds.enumerated() where entry.revents != 0 && !done.contains(entry.fd) {
                done.insert(entry.fd)
                fds[index].events = 0
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(entry.fd, SOL_SOCKET, SO_ERROR, &error, &length)
                results.append((pending[index].address, outcome(errno: error)))
            }
        }
        for (index, entry) in fds.enumerated() where !done.contains(entry.fd) {
            results.append((pending[index].address, .timeout))
        }
        return results
    }

    enum Start {
        /// The socket whose non-blocking connect is under way.
        case connecting(Int32)
        /// How it failed at once.
        case failed(DialRecord.Outcome)
    }

    private static func start(_ address: String) -> Start {
        let host = DialRecord.host(of: address)
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
            return .failed(.other)
        }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &info) == 0, let first = info else { return .failed(.other) }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return .failed(.other) }
        if connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
            return .connecting(fd)
        }
        let code = errno
        close(fd)
        return .failed(outcome(errno: code))
    }

    private static func outcome(errno code: Int32) -> DialRecord.Outcome {
        switch code {
        case 0: .ok
        case ECONNREFUSED: .refused
        case ETIMEDOUT: .timeout
        case EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, ENETDOWN: .unreachable
        default: .other
        }
    }
}
