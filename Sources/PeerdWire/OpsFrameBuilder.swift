package import PeerdCodec
package import PeerdModel

/// Packs operations, in order, into the bodies of `ops` frames of at most ``maxOperations``
/// operations (proto/PEER.md: at most 500 a message) and at most `budget` bytes each.
///
/// A body is `{"ops":[…],"type":"ops"}` with each operation in `OperationJSON`'s canonical form:
/// the bytes `JSONEncoder` writes for `PeerMessage.ops`, without its cost. Cutting by size as well
/// as by count keeps frames under `Frame.maxFrameLength` whatever the titles and removal lists
/// hold; only an operation that is alone larger than the budget gets a frame of its own that is.
///
/// For a list's session the `ops` is wrapped in its `list` message,
/// `{"list":"<id>","message":{"ops":[…],"type":"ops"},"type":"list"}`, and the budget counts the
/// whole body.
package struct OpsFrameBuilder {
    /// The most operations one `ops` message may hold (a senders' rule of the peer protocol).
    package static let maxOperations = 500
    /// The default budget, 64 KiB, about 190 typical operations: on a slow link a frame arrives
    /// in seconds, not minutes, and a session that drops mid-frame loses at most this much; the
    /// next one resumes from what the receiver's vector says it holds (proto/PEER.md, "Keepalive and liveness").
    package static let defaultBudget = 64 * 1024

    private static let prefix = Array(#"{"ops":["#.utf8)
    private static let suffix = Array(#"],"type":"ops"}"#.utf8)

    package let budget: Int
    package let limit: Int
    private let prefix: [UInt8]
    private let suffix: [UInt8]
    private var body: [UInt8] = []
    private var scratch: [UInt8] = []
    private var count = 0

    /// A builder cutting frames at `budget` bytes and `limit` operations; with `list`, frames of
    /// that list's session.
    package init(budget: Int = defaultBudget, limit: Int = maxOperations, list: ListID? = nil) {
        self.budget = budget
        self.limit = limit
        let (head, tail) = list.map(WireCoding.listEnvelope) ?? ([], [])
        prefix = head + Self.prefix
        suffix = Self.suffix + tail
    }

    /// Adds `operation`; returns the body of the frame it closed when it no longer fit there.
    package mutating func append(_ operation: Operation) -> [UInt8]? {
        scratch.removeAll(keepingCapacity: true)
        OperationJSON.append(operation, to: &scratch)
        return append(json: scratch)
    }

    /// Adds an operation encoded already; the same as ``append(_:)-(Operation)`` without the encoding.
    package mutating func append(_ operation: EncodedOperation) -> [UInt8]? {
        append(json: operation.json)
    }

    private mutating func append(json: [UInt8]) -> [UInt8]? {
        var closed: [UInt8]?
        if count == limit || (count > 0 && body.count + 1 + json.count + suffix.count > budget) {
            closed = finish()
        }
        if count == 0 {
            body.append(contentsOf: prefix)
        } else {
            body.append(UInt8(ascii: ","))
        }
        body.append(contentsOf: json)
        count += 1
        return closed
    }

    /// The body of the frame being filled, if it holds any operation; the builder is then empty.
    package mutating func finish() -> [UInt8]? {
        guard count > 0 else { return nil }
        body.append(contentsOf: suffix)
        defer {
            body = []
            count = 0
        }
        return body
    }

    /// The body of one `ops` frame holding all of `operations`, however large.
    package static func body(for operations: [Operation]) -> [UInt8] {
        var builder = OpsFrameBuilder(budget: .max, limit: .max)
        for operation in operations { _ = builder.append(operation) }
        return builder.finish() ?? Array(#"{"ops":[],"type":"ops"}"#.utf8)
    }
}
