package import Crypto
package import PeerdModel

/// Decides whether operations from a peer really come from their origins (proto/PEER.md, "Signed
/// operations"), and holds what makes that cheap: each origin's public key and the digest of the
/// last operation of each origin checked or made here. The one cache of both; a plain value the
/// replica service owns next to its replica.
///
/// Each origin's operations form a hash chain: every one after the first names the SHA-256 of the
/// one before (`prev`, over its JSON with `sig`), so a valid signature on the last operation of a
/// run vouches for the whole run, and the run's first `prev` ties it to what is already held. One
/// ECDSA verification (50–100 µs) per origin per batch instead of one per operation is what keeps
/// a catch-up of 100,000 operations above 100,000 a second.
package struct OperationVerifier: Sendable {
    /// The seq and digest of the last operation of an origin checked or made here.
    struct Tip: Sendable {
        var seq: UInt64
        var digest: SHA256Digest
    }

    private var keys: [PeerID: P256.Signing.PublicKey] = [:]
    private var tips: [PeerID: Tip] = [:]
    private var scratch: [UInt8] = []
    /// The list whose operations this verifier checks: nil for the group's own (proto/PEER.md, "Lists").
    package let list: ListID?

    package init(list: ListID? = nil) {
        self.list = list
    }

    /// Checks operations a replica admitted (new ones only, each origin's in ascending seq with no gap
    /// from what is held), all or nothing. `stored` gives an operation already held (committed), for
    /// the one before a run and an origin's first when its key is not cached. On success the cache
    /// moves on to the end of each run.
    package mutating func verify(
        _ operations: [Operation],
        stored: (OperationID) -> Operation?
    ) throws(OperationRejection) {
        var runTips: [PeerID: Tip] = [:]
        var runKeys: [PeerID: P256.Signing.PublicKey] = [:]
        var lastOfRun: [PeerID: Operation] = [:]
        for op in operations {
            let origin = op.id.origin
            guard op.proof.sig != nil else { throw OperationRejection(op.id, .unsigned) }
            if let nonce = op.listDefinition?.nonce, ListID.made(by: origin, nonce: nonce) != list {
                throw OperationRejection(op.id, .notThisList)
            }
            if op.id.seq == 1 {
                guard let der = op.proof.key else { throw OperationRejection(op.id, .noKey) }
                guard Fingerprint.peer(ofPublicKeyDER: der) == origin,
                    let key = try? P256.Signing.PublicKey(derRepresentation: der)
                else { throw OperationRejection(op.id, .keyNotOrigins) }
                guard op.proof.prev == nil else { throw OperationRejection(op.id, .prevOnFirst) }
                runKeys[origin] = key
            } else {
                guard op.proof.key == nil else { throw OperationRejection(op.id, .keyAfterFirst) }
                let previous = OperationID(origin: origin, seq: op.id.seq - 1)
                guard let prev = op.proof.prev else { throw OperationRejection(op.id, .noPrev) }
                let inRun = runTips[origin].flatMap { $0.seq == previous.seq ? $0.digest : nil }
                guard let expected = inRun ?? digest(of: previous, stored: stored),
                    expected.elementsEqual(prev)
                else { throw OperationRejection(op.id, .prevMismatch(previous)) }
            }
            runTips[origin] = Tip(seq: op.id.seq, digest: OperationSeal.digest(of: op, scratch: &scratch))
            lastOfRun[origin] = op
        }
        for (origin, last) in lastOfRun {
            guard let key = runKeys[origin] ?? key(of: origin, stored: stored) else {
                throw OperationRejection(last.id, .keyUnknown)
            }
            guard OperationSeal.isSignatureValid(last, key: key, in: list) else {
                throw OperationRejection(last.id, .badSignature)
            }
        }
        keys.merge(runKeys) { _, new in new }
        tips.merge(runTips) { _, new in new }
    }

    /// The digest of operation `id`: from the cache when it is the last one seen of its origin,
    /// else of the held operation; nil if it is not held.
    package func digest(of id: OperationID, stored: (OperationID) -> Operation?) -> SHA256Digest? {
        if let tip = tips[id.origin], tip.seq == id.seq { return tip.digest }
        return stored(id).map { OperationSeal.digest(of: $0) }
    }

    /// Notes a local operation this replica just sealed, so the next one's `prev` needs no lookup.
    package mutating func record(_ sealed: Operation) {
        tips[sealed.id.origin] = Tip(seq: sealed.id.seq, digest: OperationSeal.digest(of: sealed, scratch: &scratch))
    }

    /// Forgets the chain ends: after staged operations were discarded, the digests may name ones
    /// that were never kept. Keys stay: a key is fixed by its origin's id.
    package mutating func forgetTips() {
        tips.removeAll()
    }

    private func key(of origin: PeerID, stored: (OperationID) -> Operation?) -> P256.Signing.PublicKey? {
        if let key = keys[origin] { return key }
        guard let der = stored(OperationID(origin: origin, seq: 1))?.proof.key else { return nil }
        return try? P256.Signing.PublicKey(derRepresentation: der)
    }
}

/// Why an operation from a peer is not accepted as its origin's.
package struct OperationRejection: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Reason: Hashable, Sendable {
        case unsigned
        case noKey
        case keyNotOrigins
        case keyAfterFirst
        case prevOnFirst
        case noPrev
        case prevMismatch(OperationID)
        case keyUnknown
        case badSignature
        /// A list's creation whose nonce, with its origin, does not make the list's id.
        case notThisList
    }

    package let operation: OperationID
    package let reason: Reason

    package init(_ operation: OperationID, _ reason: Reason) {
        self.operation = operation
        self.reason = reason
    }

    /// The reason, to follow "operation X: ".
    package var explanation: String {
        switch reason {
        case .unsigned: "carries no sig: every operation is signed by its origin"
        case .noKey: "carries no key (the first operation of an origin carries its public key)"
        case .keyNotOrigins: "key is not origin \(operation.origin)'s"
        case .keyAfterFirst: "carries a key, which only an origin's first operation does"
        case .prevOnFirst: "carries a prev, but is its origin's first operation"
        case .noPrev: "carries no prev (every operation after an origin's first names the one before)"
        case .prevMismatch(let previous): "prev does not match operation \(previous)"
        case .keyUnknown: "its origin's key is unknown (its first operation carries none)"
        case .badSignature: "signature does not verify against its origin's key"
        case .notThisList: "its nonce and origin do not make this list's id, so it did not make this list"
        }
    }

    package var description: String { "operation \(operation): \(explanation)" }
}
