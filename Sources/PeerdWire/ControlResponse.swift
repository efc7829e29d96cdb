package import PeerdModel

/// What the daemon answers (proto/CONTROL.md): one response per request, except `follow`, which
/// answers `following` and then streams `change` messages until the client hangs up.
package enum ControlResponse: Hashable, Sendable, Codable {
    /// `operation` is nil when the movie was already on the list by this peer and nothing was appended.
    case added(movie: MovieRecord, operation: OperationID?)
    case removed(movie: Movie, operation: OperationID)
    /// `next` is the cursor for the following page, absent on the last page.
    case list(movies: [MovieRecord], total: Int, next: String?)
    case following
    case change(ChangeRecord)
    case peers([PeerRecord])
    case status(StatusRecord)
    case connecting(address: String)
    /// A one-time code, valid until `expiresAt` (milliseconds since 1970).
    case invite(code: String, expiresAt: Int64)
    /// Paired with `peer`; `members` is how many peers this daemon trusts now.
    case joined(peer: PeerID, name: String?, members: Int)
    case forgotten(peer: PeerID, name: String?)
    case trusted(peer: PeerID)
    case searchResults(SearchResultsRecord)
    /// A page of one of TMDB's lists: `discover` and `similar`.
    case movies(SearchResultsRecord)
    case genres(GenresRecord)
    case services(ServicesRecord)
    case shown(ShownRecord)
    /// What `mark` or `watch` did.
    case marked(MarkedRecord)
    case history(HistoryRecord)
    /// A pick as it stands: `pick`, `vote`, `pickStatus` and `pickClose` answer with it.
    case pickState(PickRecord)
    /// How many fetches `refresh` queued.
    case refreshing(movies: Int)
    /// The page's address, its token in the fragment: `http://127.0.0.1:7602/#token=…`.
    case page(url: String)
    case diagnosis(DiagnosisRecord)
    /// What became of an `import` request's rows.
    case imported(ImportedRecord)
    /// Everyone in the group (`members`).
    case members(MembersRecord)
    /// A removal from the group made (`removeMember`).
    case memberRemoved(MemberRemovedRecord)
    /// A profile made (`addProfile`): the member it is, as `members` shows it.
    case profileAdded(MemberRecord)
    /// The group's lists this machine holds, the group's own first (`lists`).
    case lists([ListRecord])
    /// A list made (`listCreate`).
    case listCreated(ListRecord)
    /// A list whose members changed (`listMember`), as it is now.
    case listChanged(ListRecord)
    /// A device link made (`deviceLink`).
    case deviceLink(DeviceLinkRecord)
    /// The linked devices (`deviceList`).
    case devices(DevicesRecord)
    /// A device unlinked (`deviceUnlink`): its access ended.
    case deviceUnlinked(DeviceRecord)
    /// The group's news of wanted movies (`news`), and with `follow` each later batch of it.
    case news(NewsRecord)
    /// The group's relays and this daemon's membership of each (`relay`).
    case relays([RelayRecord])
    case error(WireError)

    enum CodingKeys: String, CodingKey {
        case type, movie, operation, movies, total, next, peers, address, code, expiresAt, peer, name, members, url
        case lists, list, relays
    }

    package var type: String {
        switch self {
        case .added: "added"
        case .removed: "removed"
        case .list: "list"
        case .following: "following"
        case .change: "change"
        case .peers: "peers"
        case .status: "status"
        case .connecting: "connecting"
        case .invite: "invite"
        case .joined: "joined"
        case .forgotten: "forgotten"
        case .members: "members"
        case .memberRemoved: "memberRemoved"
        case .profileAdded: "profileAdded"
        case .lists: "lists"
        case .listCreated: "listCreated"
        case .listChanged: "listChanged"
        case .deviceLink: "deviceLink"
        case .devices: "devices"
        case .deviceUnlinked: "deviceUnlinked"
        case .news: "news"
        case .relays: "relays"
        case .trusted: "trusted"
        case .searchResults: "searchResults"
        case .movies: "movies"
        case .genres: "genres"
        case .services: "services"
        case .shown: "shown"
        case .marked: "marked"
        case .history: "history"
        case .pickState: "pickState"
        case .refreshing: "refreshing"
        case .page: "page"
        case .diagnosis: "diagnosis"
        case .imported: "imported"
        case .error: "error"
        }
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "added":
            self = .added(
                movie: try c.decode(MovieRecord.self, forKey: .movie),
                operation: try c.decodeIfPresent(OperationID.self, forKey: .operation)
            )
        case "removed":
            self = .removed(
                movie: try c.decode(Movie.self, forKey: .movie),
                operation: try c.decode(OperationID.self, forKey: .operation)
            )
        case "list":
            self = .list(
                movies: try c.decode([MovieRecord].self, forKey: .movies),
                total: try c.decode(Int.self, forKey: .total),
                next: try c.decodeIfPresent(String.self, forKey: .next)
            )
        case "following": self = .following
        case "change": self = .change(try ChangeRecord(from: decoder))
        case "peers": self = .peers(try c.decode([PeerRecord].self, forKey: .peers))
        case "status": self = .status(try StatusRecord(from: decoder))
        case "connecting": self = .connecting(address: try c.decode(String.self, forKey: .address))
        case "invite":
            self = .invite(
                code: try c.decode(String.self, forKey: .code),
                expiresAt: try c.decode(Int64.self, forKey: .expiresAt)
            )
        case "joined":
            self = .joined(
                peer: try c.decode(PeerID.self, forKey: .peer),
                name: try c.decodeIfPresent(String.self, forKey: .name),
                members: try c.decode(Int.self, forKey: .members)
            )
        case "forgotten":
            self = .forgotten(
                peer: try c.decode(PeerID.self, forKey: .peer),
                name: try c.decodeIfPresent(String.self, forKey: .name)
            )
        case "trusted": self = .trusted(peer: try c.decode(PeerID.self, forKey: .peer))
        case "searchResults": self = .searchResults(try SearchResultsRecord(from: decoder))
        case "movies": self = .movies(try SearchResultsRecord(from: decoder))
        case "genres": self = .genres(try GenresRecord(from: decoder))
        case "services": self = .services(try ServicesRecord(from: decoder))
        case "shown": self = .shown(try ShownRecord(from: decoder))
        case "marked": self = .marked(try MarkedRecord(from: decoder))
        case "history": self = .history(try HistoryRecord(from: decoder))
        case "pickState": self = .pickState(try PickRecord(from: decoder))
        case "refreshing": self = .refreshing(movies: try c.decode(Int.self, forKey: .movies))
        case "page": self = .page(url: try c.decode(String.self, forKey: .url))
        case "diagnosis": self = .diagnosis(try DiagnosisRecord(from: decoder))
        case "imported": self = .imported(try ImportedRecord(from: decoder))
        case "members": self = .members(try MembersRecord(from: decoder))
        case "memberRemoved": self = .memberRemoved(try MemberRemovedRecord(from: decoder))
        case "profileAdded": self = .profileAdded(try MemberRecord(from: decoder))
        case "lists": self = .lists(try c.decode([ListRecord].self, forKey: .lists))
        case "listCreated": self = .listCreated(try c.decode(ListRecord.self, forKey: .list))
        case "listChanged": self = .listChanged(try c.decode(ListRecord.self, forKey: .list))
        case "deviceLink": self = .deviceLink(try DeviceLinkRecord(from: decoder))
        case "devices": self = .devices(try DevicesRecord(from: decoder))
        case "deviceUnlinked": self = .deviceUnlinked(try DeviceRecord(from: decoder))
        case "news": self = .news(try NewsRecord(from: decoder))
        case "relays": self = .relays(try c.decode([RelayRecord].self, forKey: .relays))
        case "error": self = .error(try WireError(from: decoder))
        default: throw WireError(.unknownType, "unknown control response type '\(type)'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .added(let movie, let operation):
            try c.encode(movie, forKey: .movie)
            try c.encodeIfPresent(operation, forKey: .operation)
        case .removed(let movie, let operation):
            try c.encode(movie, forKey: .movie)
            try c.encode(operation, forKey: .operation)
        case .list(let movies, let total, let next):
            try c.encode(movies, forKey: .movies)
            try c.encode(total, forKey: .total)
            try c.encodeIfPresent(next, forKey: .next)
        case .following: break
        case .change(let change): try change.encode(to: encoder)
        case .peers(let peers): try c.encode(peers, forKey: .peers)
        case .status(let status): try status.encode(to: encoder)
        case .connecting(let address): try c.encode(address, forKey: .address)
        case .invite(let code, let expiresAt):
            try c.encode(code, forKey: .code)
            try c.encode(expiresAt, forKey: .expiresAt)
        case .joined(let peer, let name, let members):
            try c.encode(peer, forKey: .peer)
            try c.encodeIfPresent(name, forKey: .name)
            try c.encode(members, forKey: .members)
        case .forgotten(let peer, let name):
            try c.encode(peer, forKey: .peer)
            try c.encodeIfPresent(name, forKey: .name)
        case .trusted(let peer): try c.encode(peer, forKey: .peer)
        case .searchResults(let results), .movies(let results): try results.encode(to: encoder)
        case .genres(let genres): try genres.encode(to: encoder)
        case .services(let services): try services.encode(to: encoder)
        case .shown(let shown): try shown.encode(to: encoder)
        case .marked(let marked): try marked.encode(to: encoder)
        case .history(let history): try history.encode(to: encoder)
        case .pickState(let pick): try pick.encode(to: encoder)
        case .refreshing(let count): try c.encode(count, forKey: .movies)
        case .page(let url): try c.encode(url, forKey: .url)
        case .diagnosis(let diagnosis): try diagnosis.encode(to: encoder)
        case .imported(let imported): try imported.encode(to: encoder)
        case .members(let members): try members.encode(to: encoder)
        case .memberRemoved(let removed): try removed.encode(to: encoder)
        case .profileAdded(let profile): try profile.encode(to: encoder)
        case .lists(let lists): try c.encode(lists, forKey: .lists)
        case .listCreated(let list), .listChanged(let list): try c.encode(list, forKey: .list)
        case .deviceLink(let link): try link.encode(to: encoder)
        case .devices(let devices): try devices.encode(to: encoder)
        case .deviceUnlinked(let device): try device.encode(to: encoder)
        case .news(let news): try news.encode(to: encoder)
        case .relays(let relays): try c.encode(relays, forKey: .relays)
        case .error(let error): try error.encode(to: encoder)
        }
    }
}
