import PeerdModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of an operation through `Codable`: the reference the hand-written ``OperationJSON`` and
/// ``OperationJSONReader`` are checked against, and the general path for what they do not take.
extension Operation: Codable {
    enum CodingKeys: String, CodingKey {
        case origin, seq, lamport, at, by, kind = "op", movie, removes, details, settings, mark, watch, pick, member,
            list, news, relays, reach, sig
        case prev
        case key
    }

    /// Reads the fields this version knows, then the whole operation as a ``JSONValue``: when its
    /// canonical form holds more than the known fields write (a field or kind of a later version), it
    /// is kept as ``verbatim``.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if Self.payloadKeys.filter(c.contains).count > 1 {
            throw DecodingError.dataCorruptedError(
                forKey: .settings,
                in: c,
                debugDescription: "an operation carries at most one of "
                    + "details, settings, mark, watch, pick, member, list, news, relays and reach"
            )
        }
        // A mark of a kind, or a pick step of an action or mode, that a later version made is, to this
        // version, an operation of a kind it does not know: kept verbatim and relayed, changing
        // nothing (proto/PEER.md, "Marks" and "Picks").
        let later = Self.isLaterMark(c) || Self.isLaterPick(c) || Self.isLaterMember(c)
        self.init(
            id: OperationID(
                origin: try c.decode(PeerID.self, forKey: .origin),
                seq: try c.decode(UInt64.self, forKey: .seq)
            ),
            lamport: try c.decode(UInt64.self, forKey: .lamport),
            at: try c.decode(Int64.self, forKey: .at),
            by: try c.decode(String.self, forKey: .by),
            kind: later ? .unknown : Kind(name: try c.decode(String.self, forKey: .kind)),
            movie: try c.decode(Movie.self, forKey: .movie),
            removes: try c.decodeIfPresent([OperationID].self, forKey: .removes) ?? [],
            details: try c.decodeIfPresent(MovieDetails.self, forKey: .details),
            settings: try c.decodeIfPresent(GroupSettings.self, forKey: .settings),
            payload: later ? nil : try Self.decodeMarkOrWatch(c),
            proof: try Self.decodeProof(c)
        )
        let canonical = try JSONValue(from: decoder).canonical
        if kind == .unknown || OperationJSON.encode(self) != canonical { verbatim = VerbatimJSON(canonical) }
    }

    /// The keys of what an operation of one kind carries beyond the common fields (``Operation/Payload``).
    private static let payloadKeys: [CodingKeys] = [
        .details, .settings, .mark, .watch, .pick, .member, .list, .news, .relays, .reach,
    ]

    /// Whether `mark` names a kind of mark this version does not know (`{"kind":"skip",…}`).
    private static func isLaterMark(_ c: KeyedDecodingContainer<CodingKeys>) -> Bool {
        guard let value = try? c.decodeIfPresent(JSONValue.self, forKey: .mark), case .object(let fields) = value,
            case .string(let kind) = fields["kind"]
        else { return false }
        return Mark.Kind(rawValue: kind) == nil
    }

    /// Whether `pick` names an action or a mode this version does not know: to this version, an
    /// operation of a kind it does not know (proto/PEER.md, "Picks").
    private static func isLaterPick(_ c: KeyedDecodingContainer<CodingKeys>) -> Bool {
        guard let value = try? c.decodeIfPresent(JSONValue.self, forKey: .pick), case .object(let fields) = value
        else { return false }
        if case .string(let action) = fields["action"], Pick.Action(rawValue: action) == nil { return true }
        if case .string(let mode) = fields["mode"], Pick.Mode(rawValue: mode) == nil { return true }
        return false
    }

    /// Whether `member` names an action or a way in this version does not know (proto/PEER.md,
    /// "Membership"): to this version, an operation of a kind it does not know.
    private static func isLaterMember(_ c: KeyedDecodingContainer<CodingKeys>) -> Bool {
        guard let value = try? c.decodeIfPresent(JSONValue.self, forKey: .member), case .object(let fields) = value
        else { return false }
        if case .string(let action) = fields["action"], MemberStep.Action(rawValue: action) == nil { return true }
        if case .string(let via) = fields["via"], MemberStep.Via(rawValue: via) == nil { return true }
        return false
    }

    private static func decodeMarkOrWatch(_ c: KeyedDecodingContainer<CodingKeys>) throws -> Payload? {
        if let mark = try c.decodeIfPresent(Mark.self, forKey: .mark) { return .mark(mark) }
        if let pick = try c.decodeIfPresent(Pick.self, forKey: .pick) { return .pick(pick) }
        if let step = try c.decodeIfPresent(MemberStep.self, forKey: .member) { return .member(step) }
        if let definition = try c.decodeIfPresent(ListDefinition.self, forKey: .list) { return .list(definition) }
        if let news = try c.decodeIfPresent(ProviderNews.self, forKey: .news) { return .news(news) }
        if let relays = try c.decodeIfPresent(GroupRelays.self, forKey: .relays) { return .relays(relays) }
        if let reach = try c.decodeIfPresent(PeerReach.self, forKey: .reach) { return .reach(reach) }
        return try c.decodeIfPresent(Watch.self, forKey: .watch).map(Payload.watch)
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

    package func encode(to encoder: any Encoder) throws {
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
        try c.encode(kind.name ?? "describe", forKey: .kind)
        try c.encodeIfPresent(details, forKey: .details)
        try c.encodeIfPresent(settings, forKey: .settings)
        try c.encodeIfPresent(mark, forKey: .mark)
        try c.encodeIfPresent(watch, forKey: .watch)
        try c.encodeIfPresent(pick, forKey: .pick)
        try c.encodeIfPresent(member, forKey: .member)
        try c.encodeIfPresent(listDefinition, forKey: .list)
        try c.encodeIfPresent(news, forKey: .news)
        try c.encodeIfPresent(relays, forKey: .relays)
        try c.encodeIfPresent(reach, forKey: .reach)
        try c.encode(movie, forKey: .movie)
        // Also an add's: such an add is invalid (`validate`), and must be refused as it came.
        if kind == .remove || !removes.isEmpty { try c.encode(removes, forKey: .removes) }
        if let sig = proof.sig { try c.encode(Base64.string(sig), forKey: .sig) }
        if let prev = proof.prev { try c.encode(Base64.string(prev), forKey: .prev) }
        if let key = proof.key { try c.encode(Base64.string(key), forKey: .key) }
    }
}
