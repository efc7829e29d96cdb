/// What a `pick` operation carries (proto/PEER.md, "Picks"): one step of a group's choice of
/// tonight's movie. Opening fixes the deck, its order, the mode and the voters; each vote, ranking
/// and the close names the pick by its opening operation's id. Everything a pick needs is in the
/// log, so every peer computes the same result and a restart loses nothing.
///
/// A class for the same reason as ``Mark``: an operation holds it in one pointer's room.
package final class Pick: Hashable, Sendable, Codable, CustomStringConvertible {
    package static let maxDeck = 200
    package static let maxFinalists = 10
    package static let maxVoters = 64
    /// Guests whose votes count in one pick, at most: this peer takes no vote of one more.
    package static let maxGuests = 32

    package enum Action: String, Hashable, Sendable, Codable {
        case open, vote, rank, close
    }

    package enum Mode: String, CaseIterable, Hashable, Sendable, Codable {
        /// The first movie of the deck everyone said yes to.
        case unanimous
        /// Once everyone went through the deck, or at the close: the most yeses; the deck's order
        /// breaks ties.
        case majority
        /// Each voter ranks the deck (the finalists); an instant runoff decides.
        case ranked
    }

    /// A guest of the opener's guest page: a vote the opener signs on the guest's behalf.
    package struct Guest: Hashable, Sendable, Codable {
        /// 16 hex digits the opener made for the guest.
        package let id: String
        /// The name the guest typed: 1 to 40 characters.
        package let name: String

        package init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    package let action: Action
    /// The pick: its opening operation's id (absent on the opening itself).
    package let pick: OperationID?
    // Opening:
    package let mode: Mode?
    /// The movies in the order every voter sees them (``PickDeck``).
    package let deck: [Movie]?
    /// The members asked to vote, by id, sorted, each once.
    package let voters: [PeerID]?
    /// Where the deck came from, for display: `list`, `popular`, `trending`, `genre:comedy`.
    package let source: String?
    // A vote (the operation's `movie` is the movie voted on):
    package let yes: Bool?
    package let guest: Guest?
    // A ranking: the deck's movies, best first (all of them or the best few).
    package let ranking: [MovieID]?

    package init(
        action: Action,
        pick: OperationID? = nil,
        mode: Mode? = nil,
        deck: [Movie]? = nil,
        voters: [PeerID]? = nil,
        source: String? = nil,
        yes: Bool? = nil,
        guest: Guest? = nil,
        ranking: [MovieID]? = nil
    ) {
        self.action = action
        self.pick = pick
        self.mode = mode
        self.deck = deck
        self.voters = voters
        self.source = source
        self.yes = yes
        self.guest = guest
        self.ranking = ranking
    }

    package static func open(mode: Mode, deck: [Movie], voters: [PeerID], source: String) -> Pick {
        Pick(action: .open, mode: mode, deck: deck, voters: Array(Set(voters)).sorted(), source: source)
    }

    package var description: String {
        switch action {
        case .open: "open \(mode?.rawValue ?? "?") pick of \(deck?.count ?? 0) movies"
        case .vote: (yes == true ? "yes" : "no") + (guest.map { " (guest \($0.name))" } ?? "")
        case .rank: "ranking \(ranking?.map { String($0.rawValue) }.joined(separator: ", ") ?? "")"
        case .close: "close"
        }
    }

    package static func == (lhs: Pick, rhs: Pick) -> Bool {
        lhs === rhs
            || (lhs.action == rhs.action && lhs.pick == rhs.pick && lhs.mode == rhs.mode && lhs.deck == rhs.deck
                && lhs.voters == rhs.voters && lhs.source == rhs.source && lhs.yes == rhs.yes
                && lhs.guest == rhs.guest && lhs.ranking == rhs.ranking)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(pick)
        hasher.combine(deck)
        hasher.combine(yes)
        hasher.combine(ranking)
    }
}
