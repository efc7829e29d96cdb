/// Identifies one operation everywhere: the replica that made it and its sequence number there.
/// Sequence numbers start at 1 and have no gaps, which is what makes a `VersionVector` enough to
/// describe a set of operations.
package struct OperationID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    package var origin: PeerID
    package var seq: UInt64

    package init(origin: PeerID, seq: UInt64) {
        self.origin = origin
        self.seq = seq
    }

    package var description: String { "\(origin.short)/\(seq)" }

    package static func < (lhs: OperationID, rhs: OperationID) -> Bool {
        (lhs.origin, lhs.seq) < (rhs.origin, rhs.seq)
    }
}

/// One entry of the replicated, append-only log.
///
/// JSON shape (see proto/schemas/defs/operation.schema.json; PeerdCodec reads and writes it):
/// `{"origin":"…","seq":1,"lamport":1,"at":1763700000000,"by":"alice","op":"add","movie":{"id":603,…}}`
/// `{"origin":"…","seq":2,"lamport":4,"at":…,"by":"alice","op":"remove","movie":{"id":550},"removes":[{"origin":"…","seq":1}]}`
/// plus the proof of origin, `sig`, `prev` and `key` (``OperationProof``), which PeerdSecurity makes and checks.
package struct Operation: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case add
        case remove
        /// New details of a movie (``details``): the newest describe of a movie wins on every peer.
        case describe
        /// The group's region and services (``settings``): the newest wins on every peer. It is about
        /// the group, not a movie: its `movie` is ``groupMovie``, which older peers check and this
        /// version ignores.
        case settings
        /// One member's mark on the movie (``mark``): the origin is the member (proto/PEER.md, "Marks").
        case mark
        /// A watch of the movie by the members it names (``watch``): a `seen` mark of each of them.
        case watch
        /// One step of a pick of tonight's movie (``pick``): its opening, a vote, a ranking or its
        /// close (proto/PEER.md, "Picks").
        case pick
        /// A change of who is in the group (``member``): an admission, a removal, or a record of the
        /// group secret in use (proto/PEER.md, "Membership").
        case member
        /// The name and ceiling of one of the group's other lists (``listDefinition``), made only in
        /// that list (proto/PEER.md, "Lists").
        case list
        /// A change of where a wanted movie streams in the group's region (``news``), reported once
        /// for the group by a token holder (proto/PEER.md, "News").
        case news
        /// The relays the group's peers meet through from other houses (``relays``): a setting of
        /// the group, about the group as ``settings`` is; the newest wins on every peer
        /// (proto/PEER.md, "Relays and reach").
        case relays
        /// How to reach its origin (``reach``): where it listens and its device id on relays. About
        /// the group too; each origin's newest wins (proto/PEER.md, "Relays and reach").
        case reach
        /// A kind a later version made (`op` holds a name this version does not know). It is kept,
        /// verified and relayed in its ``verbatim`` form and changes nothing on the list.
        case unknown

        package init(name: String) {
            switch name {
            case "add": self = .add
            case "remove": self = .remove
            case "describe": self = .describe
            case "settings": self = .settings
            case "mark": self = .mark
            case "watch": self = .watch
            case "pick": self = .pick
            case "member": self = .member
            case "list": self = .list
            case "news": self = .news
            case "relays": self = .relays
            case "reach": self = .reach
            default: self = .unknown
            }
        }

        /// The `op` of a kind this version knows; nil for ``unknown``, which keeps its own.
        package var name: String? {
            switch self {
            case .add: "add"
            case .remove: "remove"
            case .describe: "describe"
            case .settings: "settings"
            case .mark: "mark"
            case .watch: "watch"
            case .pick: "pick"
            case .member: "member"
            case .list: "list"
            case .news: "news"
            case .relays: "relays"
            case .reach: "reach"
            case .unknown: nil
            }
        }
    }

    /// What a describe, settings, mark or watch operation carries beyond the common fields: one
    /// pointer's room, since each is a class, so adds and removals pay nothing for it.
    package enum Payload: Hashable, Sendable {
        case details(MovieDetails)
        case settings(GroupSettings)
        case mark(Mark)
        case watch(Watch)
        case pick(Pick)
        case member(MemberStep)
        case list(ListDefinition)
        case news(ProviderNews)
        case relays(GroupRelays)
        case reach(PeerReach)
    }

    // Stored properties in this order pack into 120 bytes rather than 128 (`kind` fills the gap
    // after `movie`): the replica holds every operation, and the list every surviving add. Those it
    // holds without their proof (kept densely apart, `OriginProofs`), so `proof` costs no allocation.
    package var id: OperationID
    /// Lamport timestamp: larger than every timestamp its origin had seen when it was made.
    package var lamport: UInt64
    /// Wall-clock time at the origin, milliseconds since 1970. For display only; never used to order.
    package var at: Int64
    /// The origin's human-readable name at the time, e.g. "alice".
    package var by: String
    package var movie: Movie
    package var kind: Kind
    /// For a removal: the adds it observed and so cancels. An add not listed here survives,
    /// which is what makes a later (or concurrent) re-add show the movie again.
    package var removes: [OperationID]
    /// A describe's details, a settings operation's settings, a mark or a watch; nil for an add or a
    /// removal.
    package var payload: Payload?
    /// `sig`, `prev` and `key`: empty until the origin signs the operation.
    package var proof: OperationProof
    /// The operation's canonical JSON as its origin made it, when it holds fields or a kind this
    /// version does not know; nil for every operation it knows entirely.
    package var verbatim: VerbatimJSON?

    package init(
        id: OperationID,
        lamport: UInt64,
        at: Int64,
        by: String,
        kind: Kind,
        movie: Movie,
        removes: [OperationID] = [],
        details: MovieDetails? = nil,
        settings: GroupSettings? = nil,
        payload: Payload? = nil,
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
        self.payload = payload ?? details.map(Payload.details) ?? settings.map(Payload.settings)
        self.proof = proof
        self.verbatim = verbatim
    }

    /// A describe's details of the movie; nil for every other kind.
    package var details: MovieDetails? {
        if case .details(let details) = payload { details } else { nil }
    }

    /// A settings operation's settings; nil for every other kind.
    package var settings: GroupSettings? {
        if case .settings(let settings) = payload { settings } else { nil }
    }

    /// A mark operation's mark; nil for every other kind.
    package var mark: Mark? {
        if case .mark(let mark) = payload { mark } else { nil }
    }

    /// A watch operation's watch; nil for every other kind.
    package var watch: Watch? {
        if case .watch(let watch) = payload { watch } else { nil }
    }

    /// A pick operation's step; nil for every other kind.
    package var pick: Pick? {
        if case .pick(let pick) = payload { pick } else { nil }
    }

    /// A member operation's step; nil for every other kind.
    package var member: MemberStep? {
        if case .member(let step) = payload { step } else { nil }
    }

    /// A list operation's definition of its list; nil for every other kind.
    package var listDefinition: ListDefinition? {
        if case .list(let definition) = payload { definition } else { nil }
    }

    /// A news operation's report; nil for every other kind.
    package var news: ProviderNews? {
        if case .news(let news) = payload { news } else { nil }
    }

    /// A relays operation's relays; nil for every other kind.
    package var relays: GroupRelays? {
        if case .relays(let relays) = payload { relays } else { nil }
    }

    /// A reach operation's way to reach its origin; nil for every other kind.
    package var reach: PeerReach? {
        if case .reach(let reach) = payload { reach } else { nil }
    }

    /// The pick a pick operation is a step of: its opening's id (its own, for an opening).
    package var pickID: OperationID? {
        guard let pick else { return nil }
        return pick.action == .open ? id : pick.pick
    }

    /// Whether it is about the group rather than a movie (its `movie` is ``groupMovie``): the
    /// group's settings, members, relays and peers' reach, a list's name, and a pick's opening,
    /// ranking and close.
    package var isAboutGroup: Bool {
        switch kind {
        case .settings, .member, .list, .relays, .reach: true
        case .pick: pick?.action != .vote
        case .add, .remove, .describe, .mark, .watch, .news, .unknown: false
        }
    }

    /// The `movie` a settings operation carries: every operation names one, because a version 2 peer
    /// that does not know a kind still checks its `movie` (proto/PEER.md, "Operations can grow").
    package static let groupMovie = Movie(id: MovieID(1)!)

    /// The total order every replica agrees on.
    package var orderKey: OrderKey { OrderKey(lamport: lamport, origin: id.origin, seq: id.seq) }

    /// Why this operation must not be merged, or nil when it is well formed.
    package var invalidReason: String? {
        if id.seq == 0 { return "seq starts at 1" }
        if lamport == 0 { return "lamport starts at 1" }
        if by.isEmpty || by.unicodeScalars.count > 64 { return "by is 1 to 64 characters" }
        if let reason = movie.invalidReason { return reason }
        guard kind != .unknown else { return nil }
        if kind != .remove, !removes.isEmpty { return "only a removal names adds to remove" }
        if kind != .add, kind != .remove { return payloadReason }
        if let payload { return Self.misplaced(payload) }
        if removes.count > 10_000 { return "a removal names at most 10000 adds" }
        if zip(removes, removes.dropFirst()).contains(where: { $0 >= $1 }) {
            return "removes is sorted by (origin, seq), each add named once"
        }
        if kind == .remove, removes.isEmpty { return Self.emptyRemovalReason }
        return nil
    }

    /// Why the payload of a describe, settings, mark or watch operation is wrong, or nil.
    private var payloadReason: String? {
        switch (kind, payload) {
        case (.describe, .details(let details)?): details.invalidReason
        case (.describe, _): "a describe carries the movie's details"
        case (.settings, .settings(let settings)?): settings.invalidReason
        case (.settings, _): "a settings operation carries the group's settings"
        case (.mark, .mark(let mark)?): mark.invalidReason
        case (.mark, _): "a mark operation carries one mark"
        case (.watch, .watch(let watch)?): watch.invalidReason
        case (.watch, _): "a watch carries who watched"
        case (.pick, .pick(let pick)?): pick.invalidReason(movie: movie)
        case (.pick, _): "a pick operation carries one step of a pick"
        case (.member, .member(let step)?): step.invalidReason(origin: id.origin)
        case (.member, _): "a member operation carries one change of the group's members"
        case (.list, .list(let definition)?): definition.invalidReason
        case (.list, _): "a list operation carries the list's name"
        case (.news, .news(let news)?): news.invalidReason
        case (.news, _): "a news operation carries what changed"
        case (.relays, .relays(let relays)?): groupMovieReason ?? relays.invalidReason
        case (.relays, _): "a relays operation carries the group's relays"
        case (.reach, .reach(let reach)?): groupMovieReason ?? reach.invalidReason
        case (.reach, _): "a reach operation carries how to reach its origin"
        case (.add, _), (.remove, _), (.unknown, _): nil
        }
    }

    private static func misplaced(_ payload: Payload) -> String {
        switch payload {
        case .details: "only a describe carries details"
        case .settings: "only a settings operation carries settings"
        case .mark: "only a mark operation carries a mark"
        case .watch: "only a watch operation carries a watch"
        case .pick: "only a pick operation carries a pick"
        case .member: "only a member operation carries a change of members"
        case .list: "only a list operation carries a list's name"
        case .news: "only a news operation carries news"
        case .relays: "only a relays operation carries relays"
        case .reach: "only a reach operation carries how to reach a peer"
        }
    }

    /// Why a relays or reach operation names another movie than ``groupMovie``, or nil. Both are
    /// about the group, and receivers check that they say so (a settings operation's movie, older,
    /// is only ignored).
    private var groupMovieReason: String? {
        movie == Self.groupMovie ? nil : "\(kind.name ?? "it") is about the group: its movie is {\"id\":1}"
    }

    /// Why a removal that names no add is refused (checked last, so it is the only reason given).
    /// An older peerd stored and relayed such removals: a log may hold one, and it replays as the
    /// no-op it always was (``Replica/replay(_:)``).
    package static let emptyRemovalReason = "a removal names 1 to 10000 adds"
}

/// `(lamport, origin, seq)`: the deterministic order of operations and of list rows.
/// Its text form `lamport.origin.seq` is the pagination cursor.
package struct OrderKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    package var lamport: UInt64
    package var origin: PeerID
    package var seq: UInt64

    package init(lamport: UInt64, origin: PeerID, seq: UInt64) {
        self.lamport = lamport
        self.origin = origin
        self.seq = seq
    }

    package init?(cursor: String) {
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let lamport = UInt64(parts[0]), let origin = PeerID(String(parts[1])),
            let seq = UInt64(parts[2])
        else { return nil }
        self.init(lamport: lamport, origin: origin, seq: seq)
    }

    package var cursor: String { "\(lamport).\(origin.rawValue).\(seq)" }
    package var description: String { cursor }

    package static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
        (lhs.lamport, lhs.origin, lhs.seq) < (rhs.lamport, rhs.origin, rhs.seq)
    }
}
