import Foundation

/// A raw socket for sending bytes no well-behaved client would send.
package final class RawConnection {
    private let fd: Int32

    /// TCP to 127.0.0.1:`port`.
    package init(tcpPort port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        setTimeout(seconds: 10)
    }

    /// The Unix socket at `path`.
    package init(unixPath path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
        setTimeout(seconds: 10)
    }

    deinit { close(fd) }

    private func setTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            offset += n
        }
    }

    /// Shuts down the sending side (`shutdown(SHUT_WR)`): the other end reads the end of the stream.
    package func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Sends `json` as one frame.
    package func sendFrame(_ json: String) {
        send(Self.frame(Array(json.utf8)))
    }

    package static func frame(_ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)] + body
    }

    /// Reads bytes until the peer closes (or 10 s pass).
    package func readUntilClosed() -> (bytes: [UInt8], closed: Bool) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 || (n < 0 && errno == ECONNRESET) { return (buffer, true) }
            if n < 0 { return (buffer, false) }
            buffer += chunk[0..<n]
        }
    }

    /// Reads frames until the peer closes (or 10 s pass); returns their JSON bodies as objects.
    package func readFramesUntilClosed() -> (frames: [[String: Any]], closed: Bool) {
        let (buffer, closed) = readUntilClosed()
        var frames: [[String: Any]] = []
        var offset = 0
        while buffer.count - offset >= 4 {
            let length = buffer[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard buffer.count - offset - 4 >= length else { break }
            let body = Data(buffer[offset + 4..<offset + 4 + length])
            if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] { frames.append(object) }
            offset += 4 + length
        }
        return (frames, closed)
    }

    /// Reads exactly one frame, or nil on close or timeout.
    package func readOneFrame() -> [String: Any]? {
        guard let header = readExactly(4) else { return nil }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard let body = readExactly(length) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    }

    private func readExactly(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = bytes[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            offset += n
        }
        return bytes
    }
}
