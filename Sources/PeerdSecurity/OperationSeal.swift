package import Crypto
import PeerdCodec
package import PeerdModel

/// The cryptography of signed operations (proto/PEER.md, "Signed operations"): what is hashed,
/// what is signed, and how a signature is made and checked. ``OperationVerifier`` applies the rules.
package enum OperationSeal {
    /// Put before the canonical JSON in the signing bytes, so a signature over an operation can be
    /// mistaken for no other message signed by the same key (the TLS handshake, a future version).
    package static let domain: StaticString = "peerd-op-v1\n"

    /// What the origin signs: ``domain`` (for an operation of one of the group's other lists, the
    /// list's domain, ``domain(of:)``), then the canonical JSON of `operation` without `sig`.
    package static func signingBytes(of operation: Operation, in list: ListID? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(360)
        if let list {
            bytes.append(contentsOf: domain(of: list))
        } else {
            domain.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
        OperationJSON.append(operation, to: &bytes, includingSig: false)
        return bytes
    }

    /// `peerd-op-v1 list <id>\n`: what an operation of a list other than the group's is signed under,
    /// so that it counts in that list alone, though no field of it names the list (proto/PEER.md,
    /// "Lists"). Moved to another list, or to the group's, its signature fails.
    package static func domain(of list: ListID) -> [UInt8] {
        Array("peerd-op-v1 list \(list.rawValue)\n".utf8)
    }

    /// ``domain``, then `canonicalJSON`: the signing bytes of the operation whose canonical JSON
    /// without `sig` that is.
    package static func signingBytes(ofCanonical canonicalJSON: [UInt8]) -> [UInt8] {
        domain.withUTF8Buffer { Array($0) } + canonicalJSON
    }

    /// SHA-256 of the canonical JSON of `operation`, `sig` included: what the next operation of its
    /// origin names as `prev`. `scratch` is reused between calls to save an allocation each.
    package static func digest(of operation: Operation, scratch: inout [UInt8]) -> SHA256Digest {
        scratch.removeAll(keepingCapacity: true)
        OperationJSON.append(operation, to: &scratch)
        return SHA256.hash(data: scratch)
    }

    package static func digest(of operation: Operation) -> SHA256Digest {
        var scratch: [UInt8] = []
        return digest(of: operation, scratch: &scratch)
    }

    /// `operation` with its proof: `key` on seq 1, `prev` (the digest of the origin's previous
    /// operation) after that, and the signature by `identity`, whose peer id must be the origin.
    package static func seal(
        _ operation: Operation,
        prev: SHA256Digest?,
        by identity: PeerIdentity,
        in list: ListID? = nil
    ) -> Operation {
        precondition(operation.id.origin == identity.peer, "only the origin signs its operations")
        precondition((prev == nil) == (operation.id.seq == 1), "prev on every operation after the first")
        precondition(operation.verbatim == nil, "this version seals only operations it knows entirely")
        var sealed = operation
        sealed.proof = OperationProof(
            sig: nil,
            prev: prev.map(Array.init),
            key: operation.id.seq == 1 ? identity.publicKeyDER : nil
        )
        sealed.proof = sealed.proof.signed(signature(over: signingBytes(of: sealed, in: list), by: identity))
        return sealed
    }

    /// The raw low-S signature `r‖s` of `identity` over `signingBytes`.
    package static func signature(over signingBytes: [UInt8], by identity: PeerIdentity) -> [UInt8] {
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try identity.privateKey.signature(for: signingBytes)
        } catch {
            // BoringSSL's ECDSA_do_sign fails only when it cannot allocate.
            preconditionFailure("P-256 signing failed: \(error)")
        }
        return LowS.normalized(Array(signature.rawRepresentation))
    }

    /// Whether `operation`'s `sig` is a low-S signature by `key` over its signing bytes.
    package static func isSignatureValid(
        _ operation: Operation,
        key: P256.Signing.PublicKey,
        in list: ListID? = nil
    ) -> Bool {
        guard let sig = operation.proof.sig, LowS.isLow(sig),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: sig)
        else { return false }
        return key.isValidSignature(signature, for: signingBytes(of: operation, in: list))
    }
}

/// ECDSA signatures are malleable: if (r, s) verifies, so does (r, n − s), which anyone can compute
/// without the key. Operations are chained by the hash of their full JSON, signature included, so a
/// relay that flipped the signature of an origin's latest operation would leave the peers it fed
/// holding a different `prev` target than the origin's next operation names: they could never take
/// another operation from that origin. Only the low form (s ≤ n/2) is made and accepted, which
/// makes the signature bytes of an operation unique to whoever cannot sign.
enum LowS {
    /// The order n of the P-256 group, big-endian.
    static let order: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
    ]
    /// ⌊n / 2⌋, big-endian.
    static let halfOrder: [UInt8] = {
        var half = [UInt8](repeating: 0, count: 32)
        var carry: UInt8 = 0
        for index in 0..<32 {
            half[index] = order[index] >> 1 | carry
            carry = order[index] << 7
        }
        return half
    }()

    /// Whether the s half of a raw r‖s signature is at most n/2.
    static func isLow(_ signature: some Collection<UInt8>) -> Bool {
        guard signature.count == 64 else { return false }
        // With `>`, "precedes" means: greater at the first byte that differs.
        return !signature.dropFirst(32).lexicographicallyPrecedes(halfOrder, by: >)
    }

    /// The raw signature with s replaced by n − s when s > n/2.
    static func normalized(_ signature: [UInt8]) -> [UInt8] {
        guard signature.count == 64, !isLow(signature) else { return signature }
        var result = signature
        var borrow = 0
        for index in (0..<32).reversed() {
            let difference = Int(order[index]) - Int(signature[32 + index]) - borrow
            result[32 + index] = UInt8(truncatingIfNeeded: difference)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }
}
