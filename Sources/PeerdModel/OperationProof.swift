/// The fields that prove where an operation comes from (proto/PEER.md, "Signed operations"), as
/// plain bytes; the model only carries them, PeerdSecurity makes and checks them.
///
/// - `sig`: the origin's 64-byte ECDSA P-256 signature (r‖s) over the operation's signing bytes;
/// - `prev`: on seq > 1, the 32-byte SHA-256 of the origin's previous operation, `sig` included;
/// - `key`: on seq 1 only, the origin's public key as a DER SubjectPublicKeyInfo.
///
/// One array holds all three (`[present flags][sig][prev][key]`), so an operation grows by one
/// pointer and one allocation of about 100 bytes, not three: the replica holds every operation.
package struct OperationProof: Hashable, Sendable {
    package static let signatureLength = 64
    package static let digestLength = 32
    /// Longer than any SubjectPublicKeyInfo of a P-256 key (91 bytes); a bound for decoding.
    package static let maxKeyLength = 256

    private static let hasSig: UInt8 = 1
    private static let hasPrev: UInt8 = 2
    private static let hasKey: UInt8 = 4

    private let storage: [UInt8]

    /// No fields: an unsigned operation.
    package init() { storage = [] }

    /// - Precondition: `sig` is 64 bytes, `prev` 32, `key` 1 to ``maxKeyLength``.
    package init(sig: [UInt8]?, prev: [UInt8]?, key: [UInt8]?) {
        precondition(sig == nil || sig!.count == Self.signatureLength, "sig is 64 bytes")
        precondition(prev == nil || prev!.count == Self.digestLength, "prev is 32 bytes")
        precondition(key == nil || (1...Self.maxKeyLength).contains(key!.count), "key is 1 to 256 bytes")
        guard sig != nil || prev != nil || key != nil else {
            storage = []
            return
        }
        var flags: UInt8 = 0
        if sig != nil { flags |= Self.hasSig }
        if prev != nil { flags |= Self.hasPrev }
        if key != nil { flags |= Self.hasKey }
        var storage: [UInt8] = []
        storage.reserveCapacity(1 + (sig?.count ?? 0) + (prev?.count ?? 0) + (key?.count ?? 0))
        storage.append(flags)
        storage += sig ?? []
        storage += prev ?? []
        storage += key ?? []
        self.storage = storage
    }

    package var isEmpty: Bool { storage.isEmpty }
    package var sig: ArraySlice<UInt8>? { field(Self.hasSig) }
    package var prev: ArraySlice<UInt8>? { field(Self.hasPrev) }
    package var key: ArraySlice<UInt8>? { field(Self.hasKey) }

    /// This proof with `sig` replaced.
    package func signed(_ sig: [UInt8]) -> OperationProof {
        OperationProof(sig: sig, prev: prev.map(Array.init), key: key.map(Array.init))
    }

    private func field(_ flag: UInt8) -> ArraySlice<UInt8>? {
        guard let flags = storage.first, flags & flag != 0 else { return nil }
        var start = 1
        if flag != Self.hasSig, flags & Self.hasSig != 0 { start += Self.signatureLength }
        if flag == Self.hasKey, flags & Self.hasPrev != 0 { start += Self.digestLength }
        let end =
            switch flag {
            case Self.hasSig: start + Self.signatureLength
            case Self.hasPrev: start + Self.digestLength
            default: storage.count
            }
        return storage[start..<end]
    }
}
