package import PeerdModel

/// What `peerctl` asks the daemon (proto/CONTROL.md). Each request carries `"version"`.
package enum ControlRequest: Hashable, Sendable {
    case add(Movie)
    case remove(MovieID)
    /// A page of the list: at most `limit` rows after `after` (a cursor from an earlier page); with
    /// `streaming`, only the movies one of the group's services streams.
    case list(limit: Int?, after: String?, streaming: Bool = false)
    /// Keep the connection open and stream one `change` per list change.
    case follow
    case peers
    case status
    /// Add a static peer `host:port` and dial it (again with backoff) until it answers.
    case connect(address: String)
    /// Make a one-time invite code valid for `expiresIn` seconds (default 600).
    case invite(expiresIn: Int?)
    /// Pair with the peer that printed `code`, found by mDNS or at `address`; answers once paired.
    case join(code: String, address: String?)
    /// Revoke a peer: by id, unique id prefix, or unique name.
    case forget(peer: String)
    /// Trust a peer id by hand (also undoes `forget`).
    case trust(peer: String)
    /// One page of TMDB's search results (through the daemon's token).
    case search(query: String, year: Int?, page: Int?)
    /// One page of one of TMDB's lists (through the daemon's token or a peer's).
    case discover(DiscoverList, page: Int?)
    /// One page of TMDB's recommendations for a movie.
    case similar(MovieID, page: Int?)
    /// TMDB's movie genres.
    case genres
    /// The group's region and services; with a `region` or `services` (names or TMDB ids), sets
    /// them (proto/CONTROL.md, "services").
    case services(region: String?, services: [String]?)
    /// Everything known about one movie: row, details, where they came from or why they are pending.
    case show(MovieID)
    /// Fetch details again: of one movie, or of every listed one.
    case refresh(MovieID?)
    /// The page's address with its token (proto/WEB.md), for `peerctl open`.
    case page
    /// What `peerctl doctor` needs that only the daemon knows (proto/CONTROL.md, "diagnose").
    case diagnose

    package var type: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .list: "list"
        case .follow: "follow"
        case .peers: "peers"
        case .status: "status"
        case .connect: "connect"
        case .invite: "invite"
        case .join: "join"
        case .forget: "forget"
        case .trust: "trust"
        case .search: "search"
        case .discover: "discover"
        case .similar: "similar"
        case .genres: "genres"
        case .services: "services"
        case .show: "show"
        case .refresh: "refresh"
        case .page: "page"
        case .diagnose: "diagnose"
        }
    }
}

extension ControlRequest: Codable {
    enum CodingKeys: String, CodingKey {
        case type, version, movie, limit, after, streaming, address, expiresIn, code, peer, query, year, page
        case region, services
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        let version = try c.decode(Int.self, forKey: .version)
        guard version == ProtocolVersion.control else {
            throw WireError(
                .unsupportedVersion,
                "control protocol version \(version) is not supported; this peerd speaks version "
                    + "\(ProtocolVersion.control). Use the peerctl that came with this peerd."
            )
        }
        switch type {
        case "add": self = .add(try c.decode(Movie.self, forKey: .movie))
        case "remove": self = .remove(try c.decode(MovieID.self, forKey: .movie))
        case "list":
            self = .list(
                limit: try c.decodeIfPresent(Int.self, forKey: .limit),
                after: try c.decodeIfPresent(String.self, forKey: .after),
                streaming: try c.decodeIfPresent(Bool.self, forKey: .streaming) ?? false
            )
        case "follow": self = .follow
        case "peers": self = .peers
        case "status": self = .status
        case "connect": self = .connect(address: try c.decode(String.self, forKey: .address))
        case "invite": self = .invite(expiresIn: try c.decodeIfPresent(Int.self, forKey: .expiresIn))
        case "join":
            self = .join(
                code: try c.decode(String.self, forKey: .code),
                address: try c.decodeIfPresent(String.self, forKey: .address)
            )
        case "forget": self = .forget(peer: try c.decode(String.self, forKey: .peer))
        case "trust": self = .trust(peer: try c.decode(String.self, forKey: .peer))
        case "search":
            self = .search(
                query: try c.decode(String.self, forKey: .query),
                year: try c.decodeIfPresent(Int.self, forKey: .year),
                page: try c.decodeIfPresent(Int.self, forKey: .page)
            )
        case "discover":
            self = .discover(try DiscoverList(from: decoder), page: try c.decodeIfPresent(Int.self, forKey: .page))
        case "similar":
            self = .similar(
                try c.decode(MovieID.self, forKey: .movie),
                page: try c.decodeIfPresent(Int.self, forKey: .page)
            )
        case "genres": self = .genres
        case "services":
            self = .services(
                region: try c.decodeIfPresent(String.self, forKey: .region),
                services: try c.decodeIfPresent([String].self, forKey: .services)
            )
        case "show": self = .show(try c.decode(MovieID.self, forKey: .movie))
        case "refresh": self = .refresh(try c.decodeIfPresent(MovieID.self, forKey: .movie))
        case "page": self = .page
        case "diagnose": self = .diagnose
        default: throw WireError(.unknownType, "unknown control request type '\(type)'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(ProtocolVersion.control, forKey: .version)
        switch self {
        case .add(let movie): try c.encode(movie, forKey: .movie)
        case .remove(let id): try c.encode(id, forKey: .movie)
        case .list(let limit, let after, let streaming):
            try c.encodeIfPresent(limit, forKey: .limit)
            try c.encodeIfPresent(after, forKey: .after)
            if streaming { try c.encode(true, forKey: .streaming) }
        case .services(let region, let services):
            try c.encodeIfPresent(region, forKey: .region)
            try c.encodeIfPresent(services, forKey: .services)
        case .follow, .peers, .status, .page, .diagnose, .genres: break
        case .connect(let address): try c.encode(address, forKey: .address)
        case .invite(let expiresIn): try c.encodeIfPresent(expiresIn, forKey: .expiresIn)
        case .join(let code, let address):
            try c.encode(code, forKey: .code)
            try c.encodeIfPresent(address, forKey: .address)
        case .forget(let peer), .trust(let peer): try c.encode(peer, forKey: .peer)
        case .search(let query, let year, let page):
            try c.encode(query, forKey: .query)
            try c.encodeIfPresent(year, forKey: .year)
            try c.encodeIfPresent(page, forKey: .page)
        case .discover(let list, let page):
            try list.encode(to: encoder)
            try c.encodeIfPresent(page, forKey: .page)
        case .similar(let movie, let page):
            try c.encode(movie, forKey: .movie)
            try c.encodeIfPresent(page, forKey: .page)
        case .show(let movie): try c.encode(movie, forKey: .movie)
        case .refresh(let movie): try c.encodeIfPresent(movie, forKey: .movie)
        }
    }
}
