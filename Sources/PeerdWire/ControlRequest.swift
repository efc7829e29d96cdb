package import PeerdModel

/// What `peerctl` asks the daemon (proto/CONTROL.md). Each request carries `"version"`.
package enum ControlRequest: Hashable, Sendable {
    case add(Movie)
    case remove(MovieID)
    /// A page of the list: at most `limit` rows after `after` (a cursor from an earlier page); with
    /// `streaming`, only the movies one of the group's services streams; `filter` by members' marks.
    case list(limit: Int?, after: String?, streaming: Bool = false, filter: ListFilter = ListFilter())
    /// This member's marks on a movie, set or cleared (proto/CONTROL.md, "mark"); a `want` of an
    /// unlisted movie adds it first.
    case mark(Movie, [Mark])
    /// A watch of a movie by this member and the members `with` names, on the day `on`.
    case watch(Movie, with: [String], on: String?)
    /// A page of the signed log in words, newest first: of one movie, or all; no older than `since`
    /// (milliseconds since 1970); before the cursor `before`.
    case history(movie: MovieID?, since: Int64?, limit: Int?, before: String?)
    /// Open a pick of tonight's movie (proto/CONTROL.md, "pick").
    case pick(PickOpening)
    /// Vote on a pick: yes or no on `movie` (this member's next one when absent), or a ranking.
    case vote(pick: OperationID?, movie: MovieID?, yes: Bool?, ranking: [MovieID]?)
    /// A pick as it stands: the one named, else the group's current one (the oldest still voting,
    /// else the newest).
    case pickStatus(pick: OperationID?)
    /// Close a pick: what is counted stands. Another member's pick only with `force`.
    case pickClose(pick: OperationID?, force: Bool = false)
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
    /// Rows of a file being imported (peerctl reads the file).
    case importRows(ImportBatch)

    package var type: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .list: "list"
        case .mark: "mark"
        case .watch: "watch"
        case .history: "history"
        case .pick: "pick"
        case .vote: "vote"
        case .pickStatus: "pickStatus"
        case .pickClose: "pickClose"
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
        case .importRows: "import"
        }
    }
}

extension ControlRequest: Codable {
    enum CodingKeys: String, CodingKey {
        case type, version, movie, limit, after, streaming, address, expiresIn, code, peer, query, year, page
        case region, services, marks, with, on, since, before, unseen, by, wantedBy, sort, pick, yes, ranking, force
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
                streaming: try c.decodeIfPresent(Bool.self, forKey: .streaming) ?? false,
                filter: try Self.decodeFilter(c)
            )
        case "mark", "watch", "history", "pick", "vote", "pickStatus", "pickClose":
            self = try Self.decodeGroupRequest(type, c, decoder)
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
        case "import": self = .importRows(try ImportBatch(from: decoder))
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
        case .list(let limit, let after, let streaming, let filter):
            try c.encodeIfPresent(limit, forKey: .limit)
            try c.encodeIfPresent(after, forKey: .after)
            if streaming { try c.encode(true, forKey: .streaming) }
            try Self.encode(filter, into: &c)
        case .mark(let movie, let marks):
            try c.encode(movie, forKey: .movie)
            try c.encode(marks, forKey: .marks)
        case .watch(let movie, let with, let on):
            try c.encode(movie, forKey: .movie)
            if !with.isEmpty { try c.encode(with, forKey: .with) }
            try c.encodeIfPresent(on, forKey: .on)
        case .pick(let opening): try opening.encode(to: encoder)
        case .vote(let pick, let movie, let yes, let ranking):
            try c.encodeIfPresent(pick, forKey: .pick)
            try c.encodeIfPresent(movie, forKey: .movie)
            try c.encodeIfPresent(yes, forKey: .yes)
            try c.encodeIfPresent(ranking, forKey: .ranking)
        case .pickStatus(let pick): try c.encodeIfPresent(pick, forKey: .pick)
        case .pickClose(let pick, let force):
            try c.encodeIfPresent(pick, forKey: .pick)
            if force { try c.encode(true, forKey: .force) }
        case .history(let movie, let since, let limit, let before):
            try c.encodeIfPresent(movie, forKey: .movie)
            try c.encodeIfPresent(since, forKey: .since)
            try c.encodeIfPresent(limit, forKey: .limit)
            try c.encodeIfPresent(before, forKey: .before)
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
        case .importRows(let batch): try batch.encode(to: encoder)
        }
    }
}

extension ControlRequest {
    fileprivate static func decodeFilter(_ c: KeyedDecodingContainer<CodingKeys>) throws -> ListFilter {
        let sortName = try c.decodeIfPresent(String.self, forKey: .sort)
        let sort = sortName.map { ListQuery.Sort(rawValue: $0) } ?? .added
        return ListFilter(
            unseen: try c.decodeIfPresent(Bool.self, forKey: .unseen) ?? false,
            by: try c.decodeIfPresent([String].self, forKey: .by),
            wantedBy: try c.decodeIfPresent([String].self, forKey: .wantedBy),
            sort: sort ?? .added,
            unknownSort: sort == nil ? sortName : nil
        )
    }

    fileprivate static func encode(_ filter: ListFilter, into c: inout KeyedEncodingContainer<CodingKeys>) throws {
        if filter.unseen { try c.encode(true, forKey: .unseen) }
        try c.encodeIfPresent(filter.by, forKey: .by)
        try c.encodeIfPresent(filter.wantedBy, forKey: .wantedBy)
        if let unknown = filter.unknownSort {
            try c.encode(unknown, forKey: .sort)
        } else if filter.sort != .added {
            try c.encode(filter.sort, forKey: .sort)
        }
    }
}

extension ControlRequest {
    /// The requests of members' marks, history and picks (proto/CONTROL.md).
    fileprivate static func decodeGroupRequest(
        _ type: String,
        _ c: KeyedDecodingContainer<CodingKeys>,
        _ decoder: any Decoder
    ) throws -> ControlRequest {
        switch type {
        case "mark": return .mark(try c.decode(Movie.self, forKey: .movie), try c.decode([Mark].self, forKey: .marks))
        case "watch":
            return .watch(
                try c.decode(Movie.self, forKey: .movie),
                with: try c.decodeIfPresent([String].self, forKey: .with) ?? [],
                on: try c.decodeIfPresent(String.self, forKey: .on)
            )
        case "pick": return .pick(try PickOpening(from: decoder))
        case "vote":
            return .vote(
                pick: try c.decodeIfPresent(OperationID.self, forKey: .pick),
                movie: try c.decodeIfPresent(MovieID.self, forKey: .movie),
                yes: try c.decodeIfPresent(Bool.self, forKey: .yes),
                ranking: try c.decodeIfPresent([MovieID].self, forKey: .ranking)
            )
        case "pickStatus": return .pickStatus(pick: try c.decodeIfPresent(OperationID.self, forKey: .pick))
        case "pickClose":
            return .pickClose(
                pick: try c.decodeIfPresent(OperationID.self, forKey: .pick),
                force: try c.decodeIfPresent(Bool.self, forKey: .force) ?? false
            )
        case "history":
            return .history(
                movie: try c.decodeIfPresent(MovieID.self, forKey: .movie),
                since: try c.decodeIfPresent(Int64.self, forKey: .since),
                limit: try c.decodeIfPresent(Int.self, forKey: .limit),
                before: try c.decodeIfPresent(String.self, forKey: .before)
            )
        default: throw WireError(.unknownType, "unknown control request type '\(type)'")
        }
    }
}
