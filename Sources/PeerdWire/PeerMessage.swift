package import PeerdModel

/// Every message of the peer protocol (proto/PEER.md; one JSON Schema each in proto/schemas/).
package enum PeerMessage: Hashable, Sendable {
    /// First message each way: who I am, which protocol I speak, and what I hold.
    case hello(Hello)
    /// Operations the receiver lacks, per origin in ascending seq order.
    case ops([Operation])
    /// Keepalive probe; the receiver answers `pong`.
    case ping
    case pong
    /// The sender is closing the session for this reason.
    case error(WireError)
    /// The peers the sender trusts (proto/SECURITY.md, "Trust"): the receiver trusts them too.
    case members([Member])
    /// The relay tree (proto/PEER.md): what the sender holds, announced where it doesn't push.
    case have(VersionVector)
    /// Stop pushing these origins' operations to the sender: they reached it another way first.
    case prune([PeerID])
    /// Push these origins' operations to the sender again: it lacks some that a `have` announced.
    case graft([PeerID])
    /// A question for TMDB, sent only to a peer whose hello says `catalog` (proto/PEER.md).
    case query(CatalogQuery)
    /// The answer to a `query`.
    case answer(CatalogAnswer)
    /// A message of the session of one list other than the group's (proto/PEER.md, "How a list
    /// travels"): one of ``listTypes``, never another `list`. Sent only to a peer whose hello said
    /// `lists`.
    indirect case list(ListID, PeerMessage)

    /// The most origins one `prune` or `graft` may name.
    package static let maxOrigins = 1_000

    /// The types a `list` message may carry: a list's session is a session of its own, with no
    /// keepalive, members or catalog of its own.
    package static let listTypes: Set<String> = ["hello", "ops", "have", "prune", "graft", "error"]

    package struct Member: Hashable, Sendable, Codable {
        package var peer: PeerID
        package var name: String?

        package init(peer: PeerID, name: String?) {
            self.peer = peer
            self.name = name
        }
    }

    package struct Hello: Hashable, Sendable, Codable {
        package var version: Int
        package var peer: PeerID
        package var name: String
        /// The TCP port the sender accepts connections on, or 0 for none. Information only: nobody dials it.
        package var port: Int
        package var vector: VersionVector
        /// The sender's wall clock when it sent this (ms since 1970), for the receiver's clock-skew
        /// report; absent from older peers. Orders nothing.
        package var time: Int64?
        /// True when the sender takes part in the relay tree (`have`, `prune`, `graft`); absent,
        /// it floods and must be sent none of those.
        package var tree: Bool?
        /// True when the sender holds a TMDB token and answers `query`; absent, it is asked nothing.
        package var catalog: Bool?
        /// True when the sender carries lists other than the group's (`list` messages); absent, it
        /// is sent none (proto/PEER.md, "How a list travels"). peerd sends true.
        package var lists: Bool?
        /// True when the sender holds a TMDB token and checks the group's wanted movies for news
        /// (proto/PEER.md, "News"); absent, no movie's check is its turn (an older holder checks none).
        package var news: Bool?

        package init(
            version: Int = ProtocolVersion.peer,
            peer: PeerID,
            name: String,
            port: Int,
            vector: VersionVector,
            time: Int64? = nil,
            tree: Bool? = nil,
            catalog: Bool? = nil,
            lists: Bool? = nil,
            news: Bool? = nil
        ) {
            self.version = version
            self.peer = peer
            self.name = name
            self.port = port
            self.vector = vector
            self.time = time
            self.tree = tree
            self.catalog = catalog
            self.lists = lists
            self.news = news
        }
    }

    /// The wire `type` of each message.
    package var type: String {
        switch self {
        case .hello: "hello"
        case .ops: "ops"
        case .ping: "ping"
        case .pong: "pong"
        case .error: "error"
        case .members: "members"
        case .have: "have"
        case .prune: "prune"
        case .graft: "graft"
        case .query: "query"
        case .answer: "answer"
        case .list: "list"
        }
    }
}

extension PeerMessage: Codable {
    enum CodingKeys: String, CodingKey {
        case type, ops, members, vector, origins, list, message
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "hello":
            // The version is read on its own first, so an unknown version is reported as such even if
            // the rest of its hello has a shape this version doesn't know.
            let version = try VersionProbe(from: decoder).version
            guard version == ProtocolVersion.peer else {
                // Version 3 added removals from the group: an older peer would keep relaying a
                // removed member's operations, and its list would differ (proto/PEER.md).
                let advice =
                    version < ProtocolVersion.peer
                    ? ": the other peerd is older and can't honour removals from the group; upgrade it" : ""
                throw WireError(
                    .unsupportedVersion,
                    "peer protocol version \(version) is not supported; this peerd speaks version \(ProtocolVersion.peer)"
                        + advice
                )
            }
            self = .hello(try Hello(from: decoder))
        case "ops": self = .ops(try c.decode([Operation].self, forKey: .ops))
        case "ping": self = .ping
        case "pong": self = .pong
        case "error": self = .error(try WireError(from: decoder))
        case "members": self = .members(try c.decode([Member].self, forKey: .members))
        case "have": self = .have(try c.decode(VersionVector.self, forKey: .vector))
        case "prune": self = .prune(try Self.origins(in: c, of: type))
        case "graft": self = .graft(try Self.origins(in: c, of: type))
        case "query": self = .query(try CatalogQuery(from: decoder))
        case "answer": self = .answer(try CatalogAnswer(from: decoder))
        case "list": self = try Self.listMessage(in: c)
        default: throw WireError(.unknownType, "unknown peer message type '\(type)'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .hello(let hello): try hello.encode(to: encoder)
        case .ops(let ops): try c.encode(ops, forKey: .ops)
        case .ping, .pong: break
        case .error(let error): try error.encode(to: encoder)
        case .members(let members): try c.encode(members, forKey: .members)
        case .have(let vector): try c.encode(vector, forKey: .vector)
        case .prune(let origins), .graft(let origins): try c.encode(origins, forKey: .origins)
        case .query(let query): try query.encode(to: encoder)
        case .answer(let answer): try answer.encode(to: encoder)
        case .list(let id, let message):
            try c.encode(id, forKey: .list)
            try c.encode(message, forKey: .message)
        }
    }

    /// A `list` message: its inner message's type is looked at before the rest is read, so anything
    /// but one of ``listTypes`` (a `ping`, another `list`, an unknown type) is `malformed-frame`.
    private static func listMessage(in c: KeyedDecodingContainer<CodingKeys>) throws -> PeerMessage {
        let id = try c.decode(ListID.self, forKey: .list)
        let inner = try c.superDecoder(forKey: .message)
        let type = try TypeProbe(from: inner).type
        guard listTypes.contains(type) else {
            throw WireError(.malformedFrame, "a 'list' message carries no '\(type)'")
        }
        return .list(id, try PeerMessage(from: inner))
    }

    private static func origins(in c: KeyedDecodingContainer<CodingKeys>, of type: String) throws -> [PeerID] {
        let origins = try c.decode([PeerID].self, forKey: .origins)
        guard (1...maxOrigins).contains(origins.count) else {
            throw WireError(.malformedFrame, "'\(type)' names 1 to \(maxOrigins) origins, not \(origins.count)")
        }
        return origins
    }
}

struct VersionProbe: Decodable {
    var version: Int
}

struct TypeProbe: Decodable {
    var type: String
}
