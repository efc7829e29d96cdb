import PeerdCatalog
import PeerdModel
import PeerdWire

/// What the control socket asks of the catalog (TMDB), present only when this daemon holds a token.
protocol CatalogAccess: Sendable {
    /// What `ask` finds on TMDB; throws when TMDB fails (the error's description names the page and why).
    func lookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found
    /// The same, for an import, which paces its lookups itself (ImportJournals).
    func importLookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found
    /// Queues fetches of `movies` now; returns how many.
    func refresh(_ movies: [MovieID]) async -> Int
    /// Why `movie` has no details yet, from this daemon's own fetching; nil if it is not fetching it.
    func pendingReason(_ movie: MovieID) async -> String?
    /// The full URL of a poster on TMDB's image server.
    func posterURL(for path: String) async -> String
    /// What TMDB says of `movie` before an add writes it, within a short wait (``AddCheck``).
    func checkBeforeAdd(_ movie: MovieID) async -> AddCheck
    /// Whether `movie` may join a list whose ceiling is `ceiling`, by its certification in `region`, within
    /// the same short wait (``CeilingCheck``).
    func checkCeiling(_ movie: MovieID, ceiling: String, region: String) async -> CeilingCheck
}

extension CatalogAccess {
    /// A catalog that can't tell: the add is written as it came.
    func checkBeforeAdd(_ movie: MovieID) async -> AddCheck { .unknown("this catalog checks no adds") }

    /// A catalog that can't tell: nothing is known of the certification.
    func checkCeiling(_ movie: MovieID, ceiling: String, region: String) async -> CeilingCheck {
        CeilingCheck(verdict: .unknown("this catalog checks no ceilings"), region: region, ceiling: ceiling)
    }
}

enum Posters {
    /// TMDB's image server at a width that suits a card; what a daemon without a token uses.
    static let defaultBase = "https://image.tmdb.org/t/p/w500"

    static func url(for path: String) -> String { defaultBase + path }
}
