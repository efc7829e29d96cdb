import ArgumentParser
import PeerControl
import PeerdModel
import PeerdTitles

/// A MOVIE argument: a TMDB id, `tmdb:ID` or a TMDB movie URL, parsed once, with the command line.
/// Anything else is a usage error whose help names what is accepted.
struct MovieArgument: ExpressibleByArgument {
    let id: MovieID
    /// The provisional title a TMDB URL's slug gives (`…/movie/550-fight-club`), if any.
    let slugTitle: String?

    init?(argument: String) {
        guard let id = MovieReference.parse(argument) else { return nil }
        self.id = id
        slugTitle = MovieReference.slugTitle(argument)
    }

    /// The argument's help: what it is for, then the forms it takes.
    static func help(_ purpose: String) -> ArgumentHelp {
        ArgumentHelp("\(purpose): \(MovieReference.accepted).", valueName: "movie")
    }
}

/// What `peerctl add` is asked to add: a movie named by id or URL, or a title to look up on TMDB.
enum WantedMovie {
    case movie(MovieArgument)
    case title(TitleQuery)

    init?(_ text: String) {
        let lowered = text.lowercased()
        if let movie = MovieArgument(argument: text) {
            self = .movie(movie)
        } else if lowered.hasPrefix("tmdb:") || lowered.contains("://") {
            return nil  // meant as an id or a link, but not one: not a title to search for either
        } else if let query = TitleQuery(text) {
            self = .title(query)
        } else {
            return nil
        }
    }
}
