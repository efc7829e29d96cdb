import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `PEERD_TRACE_FRAMES=<file>`: appends every JSON peer frame sent or received after admission,
/// as 1 byte direction (`>` sent, `<` received), a 4-byte big-endian length and the body. Peer
/// traffic is encrypted, so this is how a developer (and the schema test) sees it in the clear.
/// It writes plaintext: never set it outside debugging.
final class FrameTrace: Sendable {
    private let descriptor: Mutex<Int32>

    init?(environment: [String: String]) {
        guard let path = environment["PEERD_TRACE_FRAMES"], !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        descriptor = Mutex(fd)
    }

    func record(sent: Bool, _ body: some Collection<UInt8>) {
        let n = UInt32(body.count)
        let record: [UInt8] =
            [
                sent ? UInt8(ascii: ">") : UInt8(ascii: "<"), UInt8(n >> 24), UInt8(n >> 16 & 0xff),
                UInt8(n >> 8 & 0xff), UInt8(n & 0xff),
            ]
            + Array(body)
        descriptor.withLock { fd in
            _ = record.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
    }
}
