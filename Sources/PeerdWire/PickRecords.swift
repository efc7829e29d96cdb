package import PeerdModel

/// Where a pick's deck comes from (proto/CONTROL.md, "pick"): the shared list, or one of TMDB's
/// lists through a token holder. Written as text on the wire (`list`, `popular`, `trending`,
/// `genre:NAME`), so that a value this version doesn't know is refused with what it takes.
package enum DeckSource: Hashable, Sendable {
    case list
    case popular
    /// TMDB's trending movies of the week.
    case trending
    /// TMDB's popular movies of the genre TMDB names so, any case.
    case genre(String)

    package static let accepted = "list, popular, trending or genre:NAME"

    /// `text` as a deck's source; nil for anything else (an empty genre too).
    package init?(_ text: String) {
        switch text {
        case "list": self = .list
        case "popular": self = .popular
        case "trending": self = .trending
        case let named where named.hasPrefix("genre:") && named.count > "genre:".count:
            self = .genre(String(named.dropFirst("genre:".count)))
        default: return nil
        }
    }

    /// As the wire and a pick's `source` write it.
    package var text: String {
        switch self {
        case .list: "list"
        case .popular: "popular"
        case .trending: "trending"
        case .genre(let name): "genre:\(name)"
        }
    }
}

/// What `peerctl pick` asks for when it opens a pick (proto/CONTROL.md, "pick").
package struct PickOpening: Hashable, Sendable, Codable {
    package var mode: Pick.Mode
    /// `list` (the default), `popular`, `trending` or `genre:NAME`: the shared list, or one of
    /// TMDB's lists through a token holder (``source``).
    package var deck: String
    /// Minutes.
    package var maxRuntime: Int?
    /// Only this genre (TMDB's name), from the list's details.
    package var genre: String?
    /// Only what the group's services stream.
    package var streaming: Bool
    /// The members who vote, by name, id or prefix; absent: those connected now, and this one.
    package var with: [String]?
    /// A ranked pick's finalists: the most wanted this many (5 when absent, at most 10).
    package var finalists: Int?
    /// How many cards each voter sees in the other modes: the most wanted this many (12 when
    /// absent, 1 to 200).
    package var deckSize: Int?

    package init(
        mode: Pick.Mode = .majority,
        deck: String = "list",
        maxRuntime: Int? = nil,
        genre: String? = nil,
        streaming: Bool = false,
        with: [String]? = nil,
        finalists: Int? = nil,
        deckSize: Int? = nil
    ) {
        self.mode = mode
        self.deck = deck
        self.maxRuntime = maxRuntime
        self.genre = genre
        self.streaming = streaming
        self.with = with
        self.finalists = finalists
        self.deckSize = deckSize
    }

    /// `deck` as a source; nil when it is none this version knows.
    package var source: DeckSource? { DeckSource(deck) }

    enum CodingKeys: String, CodingKey {
        case mode, deck, maxRuntime, genre, streaming, with, finalists, deckSize
    }

    /// Every field may be left out: a majority pick of the list by those connected.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mode = try c.decodeIfPresent(Pick.Mode.self, forKey: .mode) ?? .majority
        deck = try c.decodeIfPresent(String.self, forKey: .deck) ?? "list"
        maxRuntime = try c.decodeIfPresent(Int.self, forKey: .maxRuntime)
        genre = try c.decodeIfPresent(String.self, forKey: .genre)
        streaming = try c.decodeIfPresent(Bool.self, forKey: .streaming) ?? false
        with = try c.decodeIfPresent([String].self, forKey: .with)
        finalists = try c.decodeIfPresent(Int.self, forKey: .finalists)
        deckSize = try c.decodeIfPresent(Int.self, forKey: .deckSize)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if mode != .majority { try c.encode(mode, forKey: .mode) }
        if deck != "list" { try c.encode(deck, forKey: .deck) }
        try c.encodeIfPresent(maxRuntime, forKey: .maxRuntime)
        try c.encodeIfPresent(genre, forKey: .genre)
        if streaming { try c.encode(true, forKey: .streaming) }
        try c.encodeIfPresent(with, forKey: .with)
        try c.encodeIfPresent(finalists, forKey: .finalists)
        try c.encodeIfPresent(deckSize, forKey: .deckSize)
    }
}

/// One movie of a pick's deck, with what a voter's card shows.
package struct PickMovieRecord: Hashable, Sendable, Codable {
    package var movieId: Int
    package var title: String?
    package var year: Int?
    package var posterPath: String?
    /// Minutes, once a peer described it.
    package var runtime: Int?
    package var overview: String?
    /// The members who want it.
    package var wantedBy: [String]
    /// Yes votes: only once the pick has a result or closed (nobody sees the others' votes before).
    package var yeses: Int?

    package init(
        movieId: Int,
        title: String?,
        year: Int?,
        posterPath: String?,
        runtime: Int?,
        overview: String?,
        wantedBy: [String],
        yeses: Int?
    ) {
        self.movieId = movieId
        self.title = title
        self.year = year
        self.posterPath = posterPath
        self.runtime = runtime
        self.overview = overview
        self.wantedBy = wantedBy
        self.yeses = yeses
    }
}

/// One voter of a pick and how far they are.
package struct PickVoterRecord: Hashable, Sendable, Codable {
    package var name: String
    /// A member's id; absent for a guest.
    package var peer: PeerID?
    package var guest: Bool
    /// How many of the deck's movies they voted on (ranked: all of them once they ranked).
    package var voted: Int

    package init(name: String, peer: PeerID?, guest: Bool, voted: Int) {
        self.name = name
        self.peer = peer
        self.guest = guest
        self.voted = voted
    }
}

/// A pick as `pick`, `vote` and `pickStatus` answer it (proto/CONTROL.md, "pick").
package struct PickRecord: Hashable, Sendable, Codable {
    /// The pick's opening: pass it as `pick` to name this pick.
    package var pick: OperationID
    package var mode: Pick.Mode
    package var source: String
    package var openedBy: String
    package var openedAt: Int64
    package var open: Bool
    package var deck: [PickMovieRecord]
    package var voters: [PickVoterRecord]
    /// `voting`, `chosen` or `none`.
    package var outcome: String
    /// The movie chosen, once there is one.
    package var result: PickMovieRecord?
    /// The next movie this member has not voted on, while voting.
    package var next: PickMovieRecord?
    /// The guest link, on the opener's peer while the pick is open (proto/WEB.md, "Guests").
    package var guests: PickGuestsRecord?
    /// In the answer to a `pick` that found this one voting: this member joined it, and nothing
    /// was opened.
    package var joined: Bool?
    /// In the answer to a `pick` that opened this one: how many movies could have been dealt, of
    /// which the deck holds the most wanted.
    package var candidates: Int?
    /// Other picks still voting (two opened at once, or across a partition), oldest first.
    package var others: [PickBriefRecord]?

    package init(
        pick: OperationID,
        mode: Pick.Mode,
        source: String,
        openedBy: String,
        openedAt: Int64,
        open: Bool,
        deck: [PickMovieRecord],
        voters: [PickVoterRecord],
        outcome: String,
        result: PickMovieRecord?,
        next: PickMovieRecord?,
        guests: PickGuestsRecord? = nil,
        others: [PickBriefRecord]? = nil
    ) {
        self.pick = pick
        self.mode = mode
        self.source = source
        self.openedBy = openedBy
        self.openedAt = openedAt
        self.open = open
        self.deck = deck
        self.voters = voters
        self.outcome = outcome
        self.result = result
        self.next = next
        self.guests = guests
        self.others = others
    }
}

/// A pick named in another's record: its id, who opened it and when.
package struct PickBriefRecord: Hashable, Sendable, Codable {
    package var pick: OperationID
    package var openedBy: String
    package var openedAt: Int64

    package init(pick: OperationID, openedBy: String, openedAt: Int64) {
        self.pick = pick
        self.openedBy = openedBy
        self.openedAt = openedAt
    }
}
