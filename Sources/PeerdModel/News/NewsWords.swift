/// News in words, the one place `peerctl news`, the page, the history and the desktop take them
/// from: "Arrival is now on Netflix (DE)", "Arrival left MUBI (DE)", "Arrival is out to rent on
/// Apple TV (DE)".
package enum NewsWords {
    /// One change of `movie` (its title as shown) in `region`.
    package static func text(of change: ProviderChange, movie: String, region: String) -> String {
        let service = change.service.name
        switch change.change {
        case .arrived: return "\(movie) is now on \(service) (\(region))"
        case .left: return "\(movie) left \(service) (\(region))"
        case .rent: return "\(movie) is out to rent on \(service) (\(region))"
        case .buy: return "\(movie) is out to buy on \(service) (\(region))"
        }
    }

    /// Every change of a report, joined: "Arrival is now on Netflix (DE); Arrival left MUBI (DE)".
    package static func changes(_ news: ProviderNews, movie: String) -> String {
        news.changes.map { text(of: $0, movie: movie, region: news.providers.region) }.joined(separator: "; ")
    }

    /// "wanted by alice and sam", "wanted by alice, bob and sam"; "wanted by nobody now" when none.
    package static func wanted(by names: [String]) -> String {
        guard let last = names.last else { return "wanted by nobody now" }
        guard names.count > 1 else { return "wanted by \(last)" }
        return "wanted by \(names.dropLast().joined(separator: ", ")) and \(last)"
    }

    /// What TMDB asks every app that shows its where-to-watch data to say.
    package static let attribution = "Where to watch: data by JustWatch, through TMDB"
}
