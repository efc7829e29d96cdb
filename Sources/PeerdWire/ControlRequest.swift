package import PeerdModel

/// One kind of request `peerctl` and the page make of the daemon (proto/CONTROL.md): a type of
/// its own, whose fields are the request's JSON fields, and its `type` on the wire, spelled once.
package protocol ControlRequestBody: Hashable, Sendable, Codable {
    /// The request's `type`.
    static var tag: String { get }
    /// Whether the page's API takes it (proto/WEB.md). What pairs, trusts, dials, tells the
    /// network's details or brings in a file stays with `peerctl`.
    static var allowedFromPage: Bool { get }
    /// Whether it reads or writes a list, the one the envelope's `inList` names (proto/CONTROL.md,
    /// "Lists"). What is the group's (its members, profiles, devices, trust, settings, the lists
    /// themselves) ignores `inList`. True unless a kind says otherwise: a request that ignored a
    /// list it was meant for would write into the group's list, which every member holds.
    static var takesList: Bool { get }
}

/// What `peerctl` asks the daemon (proto/CONTROL.md): one request of the kinds ``bodies`` lists,
/// with `"type"` and `"version"` beside its own fields.
package struct ControlRequest: Sendable {
    package let body: any ControlRequestBody
    /// The member the request acts for: the name or id of a profile that lives on this machine
    /// (proto/CONTROL.md, "Profiles"); nil for the machine's own member.
    package var profile: String?
    /// The list the request reads and writes: a list's name, its id or the id's first 8 digits
    /// (proto/CONTROL.md, "Lists"); nil for the group's own list. Requests about the group (its
    /// members, devices, trust, settings) ignore it. On the wire it is `inList`: `discover` has a
    /// `list` of its own (TMDB's), beside the envelope's fields.
    package var list: String?

    package init(_ body: some ControlRequestBody, profile: String? = nil, list: String? = nil) {
        self.body = body
        self.profile = profile
        self.list = list
    }

    /// Every kind of request this version answers, each once.
    package static let bodies: [any ControlRequestBody.Type] = [
        AddRequest.self, RemoveRequest.self, ListRequest.self,
        MarkRequest.self, WatchRequest.self, HistoryRequest.self,
        PickOpening.self, VoteRequest.self, PickStatusRequest.self, PickCloseRequest.self,
        FollowRequest.self, PeersRequest.self, StatusRequest.self, ConnectRequest.self, InviteRequest.self,
        JoinRequest.self, ForgetRequest.self, TrustRequest.self, PageRequest.self, DiagnoseRequest.self,
        SearchRequest.self, DiscoverRequest.self, SimilarRequest.self, GenresRequest.self, ServicesRequest.self,
        ShowRequest.self, RefreshRequest.self, ImportBatch.self, MembersRequest.self, RemoveMemberRequest.self,
        ProfilesRequest.self, AddProfileRequest.self, ListsRequest.self, ListCreateRequest.self, ListMemberRequest.self,
        DeviceLinkRequest.self, DeviceListRequest.self, DeviceUnlinkRequest.self, NewsRequest.self, RelayRequest.self,
    ]

    private static let byTag = Dictionary(uniqueKeysWithValues: bodies.map { ($0.tag, $0) })

    /// Every `type` this version answers.
    package static var tags: [String] { bodies.map { $0.tag } }

    package var type: String { Swift.type(of: body).tag }

    package var allowedFromPage: Bool { Swift.type(of: body).allowedFromPage }

    /// Whether ``list`` counts for it (``ControlRequestBody/takesList``).
    package var takesList: Bool { Swift.type(of: body).takesList }
}

extension ControlRequestBody {
    package static var allowedFromPage: Bool { true }
    package static var takesList: Bool { true }
}

extension ControlRequest: Hashable {
    package static func == (lhs: ControlRequest, rhs: ControlRequest) -> Bool {
        AnyHashable(lhs.body) == AnyHashable(rhs.body) && lhs.profile == rhs.profile && lhs.list == rhs.list
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(body))
        hasher.combine(profile)
        hasher.combine(list)
    }
}

extension ControlRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, version, profile
        case list = "inList"
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
        guard let kind = Self.byTag[type] else {
            throw WireError(.unknownType, "unknown control request type '\(type)'")
        }
        body = try kind.init(from: decoder)
        profile = try c.decodeIfPresent(String.self, forKey: .profile)
        list = try c.decodeIfPresent(String.self, forKey: .list)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(ProtocolVersion.control, forKey: .version)
        try c.encodeIfPresent(profile, forKey: .profile)
        try c.encodeIfPresent(list, forKey: .list)
        try body.encode(to: encoder)
    }
}
