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
                let operations = await replica.operations([(range.origin, next...last)])
                guard !operations.isEmpty else { break }
                for operation in operations {
                    if let body = builder.append(operation) { try await outbound.write(traced(body)) }
                }
                sent += operations.count
                next = last + 1
            }
        }
        if let body = builder.finish() { try await outbound.write(traced(body)) }
        return sent
    }

    static func wireError(for failure: ReplicaService.Failure) -> WireError {
        switch failure {
        case .rejected(.invalid(let id, let reason)): WireError(.invalidOperation, "operation \(id): \(reason)")
        case .rejected(.gap(let id, let expected)):
            WireError(.invalidOperation, "operation \(id) arrived before seq \(expected) of its origin")
        case .rejected(.forgedOwnOrigin(let id)):
            WireError(.invalidOperation, "operation \(id) is in my name but I never made it")
        case .storage(let error): WireError(.storageFailed, "\(error)")
        case .shuttingDown: WireError(.shuttingDown, "peerd is shutting down")
        case .refused(let refusal): WireError(.internal, "\(refusal)")
        }
    }
}
