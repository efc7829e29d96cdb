import Foundation
package import PeerdCodec
package import PeerdModel
package import PeerdSecurity

/// Operations as a later version of peerd would make them: with fields, or of a kind, this version
/// does not know, really signed and chained by their origin's key (proto/PEER.md, "Operations can
/// grow"). What a receiver of this version must keep, verify and relay byte for byte.
package struct LaterVersionOperation: Sendable {
    /// The origin: its key signs.
    package let identity: PeerIdentity
    /// The operations made so far, in seq order.
    package private(set) var made: [PeerdModel.Operation] = []

    package init(identity: PeerIdentity) {
        self.identity = identity
    }

    /// The next operation of the origin: `base` (its origin, seq and proof are set here) as JSON,
    /// with `extra` members merged in at the top level and `op` replaced by `kind` when given, then
    /// sealed: `key` on seq 1, else `prev` over the previous operation, and `sig` over the canonical
    /// bytes, unknown fields included.
    package mutating func next(
        _ base: PeerdModel.Operation,
        extra: [String: JSONValue] = [:],
        kind: String? = nil
    ) throws -> PeerdModel.Operation {
        var unsigned = base
        unsigned.id = OperationID(origin: identity.peer, seq: UInt64(made.count + 1))
        unsigned.proof = OperationProof()
        unsigned.verbatim = nil
        guard
            case .object(var members) = try JSONDecoder().decode(
                JSONValue.self,
                from: Data(OperationJSON.encode(unsigned))
            )
        else { preconditionFailure("an operation is a JSON object") }
        members.merge(extra) { _, new in new }
        if let kind { members["op"] = .string(kind) }
        if let previous = made.last {
            members["prev"] = .string(Base64.string(Array(OperationSeal.digest(of: previous))))
        } else {
            members["key"] = .string(Base64.string(identity.publicKeyDER))
        }
        let signingBytes = OperationSeal.signingBytes(ofCanonical: JSONValue.object(members).canonical)
        members["sig"] = .string(Base64.string(OperationSeal.signature(over: signingBytes, by: identity)))
        var reader = OperationJSONReader()
        let operation = try JSONValue.object(members).canonical.withUnsafeBytes { try reader.decode($0) }
        made.append(operation)
        return operation
    }
}
