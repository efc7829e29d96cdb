package import PeerdModel

/// A pick as its guests see it (proto/WEB.md, "Guests"): the deck's cards, the voters' names and
/// progress, the guest's own votes and the result; nothing of the list, the marks or the peers.
package struct GuestStateRecord: Hashable, Sendable, Codable {
    package struct Card: Hashable, Sendable, Codable {
        package var movieId: Int
        package var title: String?
        package var year: Int?
        package var posterPath: String?
        package var runtime: Int?
        package var overview: String?
        package var yeses: Int?

        package init(_ movie: PickMovieRecord) {
            movieId = movie.movieId
            title = movie.title
            year = movie.year
            posterPath = movie.posterPath
            runtime = movie.runtime
            overview = movie.overview
            yeses = movie.yeses
        }
    }

    package struct Voter: Hashable, Sendable, Codable {
        package var name: String
        package var guest: Bool
        package var voted: Int
    }

    package struct You: Hashable, Sendable, Codable {
        package var id: String
        package var name: String
        /// Each movie voted on, by its id in decimal: `true` for yes.
        package var votes: [String: Bool]

        package init(id: String, name: String, votes: [String: Bool]) {
            self.id = id
            self.name = name
            self.votes = votes
        }
    }

    package var mode: Pick.Mode
    package var openedBy: String
    package var open: Bool
    /// `voting`, `chosen` or `none`.
    package var outcome: String
    package var deck: [Card]
    package var voters: [Voter]
    package var result: Card?
    /// The guest, when the request carried their token.
    package var you: You?
    /// The guest's next card, while they have one.
    package var next: Card?

    /// What of `pick` a guest may see; `you` and `next` for the guest the request named.
    package init(_ pick: PickRecord, you: You?, next: PickMovieRecord?) {
        mode = pick.mode
        openedBy = pick.openedBy
        open = pick.open
        outcome = pick.outcome
        deck = pick.deck.map(Card.init)
        voters = pick.voters.map { Voter(name: $0.name, guest: $0.guest, voted: $0.voted) }
        result = pick.result.map(Card.init)
        self.you = you
        self.next = next.map(Card.init)
    }
}

/// `POST /g/CAP/join`'s answer: who the guest is, and the token that says so.
package struct GuestJoinRecord: Hashable, Sendable, Codable {
    package var guest: Pick.Guest
    package var token: String

    package init(guest: Pick.Guest, token: String) {
        self.guest = guest
        self.token = token
    }
}

/// A guest door's error body: `{"error":{"code":…,"message":…}}`, and on `closed` the result.
package struct GuestErrorRecord: Hashable, Sendable, Codable {
    package struct Body: Hashable, Sendable, Codable {
        package var code: String
        package var message: String
    }

    package var error: Body
    /// On `closed`: the chosen movie; absent when none was chosen.
    package var result: GuestStateRecord.Card?

    package init(code: String, message: String, result: GuestStateRecord.Card? = nil) {
        error = Body(code: code, message: message)
        self.result = result
    }

    /// `closed`: the pick ended, with its result in words and as a card.
    package static func closed(result: GuestStateRecord.Card?) -> GuestErrorRecord {
        GuestErrorRecord(code: "closed", message: "This pick is closed. \(saying(result))", result: result)
    }

    /// "Tonight: The Matrix (1999)." or "No movie was chosen."
    package static func saying(_ result: GuestStateRecord.Card?) -> String {
        guard let result else { return "No movie was chosen." }
        let title = result.title ?? "movie \(result.movieId)"
        return "Tonight: " + (result.year.map { "\(title) (\($0))" } ?? title) + "."
    }
}

/// The opener's guest link for one open pick, as `pickState` carries it (`guests`).
package struct PickGuestsRecord: Hashable, Sendable, Codable {
    package var url: String?
    /// The link's QR code as an SVG document.
    package var svg: String?
    /// Why there is no link (no LAN address, the port taken, guests turned off).
    package var problem: String?

    package init(url: String? = nil, svg: String? = nil, problem: String? = nil) {
        self.url = url
        self.svg = svg
        self.problem = problem
    }
}
