#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Identifies one operation everywhere: the replica that made it and its sequence number there.
/// Sequence numbers start at 1 and have no gaps, which is what makes a `VersionVector` enough to
/// describe a set of operations.
public struct OperationID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var origin: PeerID
    public var seq: UInt64

    public init(origin: PeerID, seq: UInt64) {
        self.origin = origin
        self.seq = seq
    }

    public var description: String { "\(origin.short)/\(seq)" }

    public static func < (lhs: OperationID, rhs: OperationID) -> Bool {
        (lhs.origin, lhs.seq) < (rhs.origin, rhs.seq)
    }
}

/// One entry of the replicated, append-only log.
///
/// JSON shape (see proto/schemas/operation.schema.json):
/// `{"origin":"…","seq":1,"lamport":1,"at":1763700000000,"by":"alice","op":"add","movie":{"id":603,…}}`
/// `{"origin":"…","seq":2,"lamport":4,"at":…,"by":"alice","op":"remove","movie":{"id":550},"removes":[{"origin":"…","seq":1}]}`
/// plus the proof of origin, `sig`, `prev` and `key` (``OperationProof``), which PeerdSecurity makes and checks.
public struct Operation: Hashable, Sendable, Codable {
    public enum Kind: Hashable, Sendable {
        case add
        case remove
        /// A kind a later version made (`op` holds a name this version does not know). It is kept,
        /// verified and relayed in its ``verbatim`` form and changes nothing on the list.
        case unknown

        init(name: String) {
            switch name {
            case "add": self = .add
            case "remove": self = .remove
            default: self = .unknown
            }
        }
    }

    // Stored properties in this order pack into 112 bytes rather than 120 (`kind` fills the gap
    // after `movie`): the replica holds every operation, and the list every surviving add.
    public var id: OperationID
    /// Lamport timestamp: larger than every timestamp its origin had seen when it was made.
    public var lamport: UInt64
    /// Wall-clock time at the origin, milliseconds since 1970. For display only; never used to order.
    public var at: Int64
    /// The origin's human-readable name at the time, e.g. "alice".
    public var by: String
    public var movie: Movie
    public var kind: Kind
    /// For a removal: the adds it observed and so cancels. An add not listed here survives,
    /// which is what makes a later (or concurrent) re-add show the movie again.
    public var removes: [OperationID]
    /// `sig`, `prev` and `key`: empty until the origin signs the operation.
    public var proof: OperationProof
    /// The operation's canonical JSON as its origin made it, when it holds fields or a kind this
    /// version does not know; nil for every operation it knows entirely.
    public var verbatim: VerbatimJSON?

    public init(
        id: OperationID,
        lamport: UInt64,
        at: Int64,
        by: String,
        kind: Kind,
        movie: Movie,
        removes: [OperationID] = [],
        proof: OperationProof = OperationProof(),
        verbatim: VerbatimJSON? = nil
    ) {
        self.id = id
        self.lamport = lamport
        self.at = at
        self.by = by
        self.kind = kind
        self.movie = movie
        self.removes = removes
        self.proof = proof
        self.verbatim = verbatim
    }

    /// The total order every replica agrees on.
    public var orderKey: OrderKey { OrderKey(lamport: lamport, origin: id.origin, seq: id.seq) }

    enum CodingKeys: String, CodingKey {
        case origin, seq, lamport, at, by, kind = "op", movie, removes, sig, prev, key
    }

    /// Reads the fields this version knows, then the whole operation as a ``JSONValue``: when its
    /// canonical form holds more than the known fields write (a field or kind of a later version), it
    /// is kept as ``verbatim``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = OperationID(
            origin: try c.decode(PeerID.self, forKey: .origin),
            seq: try c.decode(UInt64.self, forKey: .seq)
        )
        lamport = try c.decode(UInt64.self, forKey: .lamport)
        at = try c.decode(Int64.self, forKey: .at)
        by = try c.decode(String.self, forKey: .by)
        kind = Kind(name: try c.decode(String.self, forKey: .kind))
        movie = try c.decode(Movie.self, forKey: .movie)
        removes = try c.decodeIfPresent([OperationID].self, forKey: .removes) ?? []
        proof = try Self.decodeProof(c)
        verbatim = nil
        let canonical = try JSONValue(from: decoder).canonical
        if kind == .unknown || OperationJSON.encode(self) != canonical { verbatim = VerbatimJSON(canonical) }
    }

    private static func decodeProof(_ c: KeyedDecodingContainer<CodingKeys>) throws -> OperationProof {
        func bytes(_ key: CodingKeys, _ lengths: ClosedRange<Int>, _ what: String) throws -> [UInt8]? {
            guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let bytes = Base64.decode(text), lengths.contains(bytes.count) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not base64 of \(what)")
            }
            return bytes
        }
        let sigLength = OperationProof.signatureLength
        let digestLength = OperationProof.digestLength
        return OperationProof(
            sig: try bytes(.sig, sigLength...sigLength, "a 64-byte signature"),
            prev: try bytes(.prev, digestLength...digestLength, "a 32-byte SHA-256 digest"),
            key: try bytes(.key, 1...OperationProof.maxKeyLength, "a public key of 1 to 256 bytes")
        )
    }

    public func encode(to encoder: any Encoder) throws {
        if let verbatim {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(verbatim.bytes))
            return try value.encode(to: encoder)
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.origin, forKey: .origin)
        try c.encode(id.seq, forKey: .seq)
        try c.encode(lamport, forKey: .lamport)
        try c.encode(at, forKey: .at)
        try c.encode(by, forKey: .by)
        try c.encode(kind == .add ? "add" : "remove", forKey: .kind)
        try c.encode(movie, forKey: .movie)
        // Also an add's: such an add is invalid (`validate`), and must be refused as it came.
        if kind == .remove || !removes.isEmpty { try c.encode(removes, forKey: .removes) }
        if let sig = proof.sig { try c.encode(Base64.string(sig), forKey: .sig) }
        if let prev = proof.prev { try c.encode(Base64.string(prev), forKey: .prev) }
        if let key = proof.key { try c.encode(Base64.string(key), forKey: .key) }
    }

    /// Why this operation must not be merged, or nil when it is well formed.
    public var invalidReason: String? {
        if id.seq == 0 { return "seq starts at 1" }
        if lamport == 0 { return "lamport starts at 1" }
        if by.isEmpty || by.unicodeScalars.count > 64 { return "by is 1 to 64 characters" }
        if let reason = movie.invalidReason { return reason }
        guard kind != .unknown else { return nil }
        if kind == .add, !removes.isEmpty { return "an add removes nothing" }
        if removes.count > 10_000 { return "a removal names at most 10000 adds" }
        if zip(removes, removes.dropFirst()).contains(where: { $0 >= $1 }) {
            return "removes is sorted by (origin, seq), each add named once"
        }
        return nil
    }
}

/// `(lamport, origin, seq)`: the deterministic order of operations and of list rows.
/// Its text form `lamport.origin.seq` is the pagination cursor.
public struct OrderKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var lamport: UInt64
    public var origin: PeerID
    public var seq: UInt64

    public init(lamport: UInt64, origin: PeerID, seq: UInt64) {
        self.lamport = lamport
        self.origin = origin
        self.seq = seq
    }

    public init?(cursor: String) {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let lamport = UInt64(parts[0]), let origin = PeerID(String(parts[1])),
            let seq = UInt64(parts[2])
        else { return nil }
        self.init(lamport: lamport, origin: origin, seq: seq)
    }

    public var cursor: String { "\(lamport).\(origin.rawValue).\(seq)" }
    public var description: String { cursor }

    public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        (lhs.lamport, lhs.origin, lhs.seq) < (rhs.lamport, rhs.origin, rhs.seq)
    }
}
