import NIOCore
import PeerdModel
import PeerdSync
import PeerdWire

/// What a session sends besides single messages: catch-up operations, and the error a replica
/// failure becomes.
extension PeerConnection {
    /// How many operations one read from the replica fetches while catching a peer up: enough to
    /// make the actor hops negligible, few enough that the copy stays small (about 200 KB).
    static let opsPerFetch = 2_000

    /// A frame body on its way out, recorded in the trace (if any) as it goes.
    func traced(_ body: [UInt8]) -> ByteBuffer {
        trace?.record(sent: true, body)
        return ByteBuffer(bytes: body)
    }

    /// Sends the operations in `ranges` in `ops` frames packed by size, fetching them from the
    /// replica a slice at a time; returns how many were sent.
    func sendOperations(
        _ ranges: [Session.SendRange],
        to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> Int {
        var builder = OpsFrameBuilder()
        var sent = 0
        for range in ranges {
            var next = range.seqs.lowerBound
            while next <= range.seqs.upperBound {
                let last = min(range.seqs.upperBound, next + UInt64(Self.opsPerFetch - 1))
                let operations = await replica.outgoing([(range.origin, next...last)])
                guard !operations.isEmpty else { break }
                for operation in operations {
                    let closed =
                        switch operation {
                        case .encoded(let encoded): builder.append(encoded)
                        case .operation(let operation): builder.append(operation)
                        }
                    if let body = closed { try await outbound.write(traced(body)) }
                }
                sent += operations.count
                next = last + 1
            }
        }
        if let body = builder.finish() { try await outbound.write(traced(body)) }
        return sent
    }

}
