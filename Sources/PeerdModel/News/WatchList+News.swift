/// What news is about: the movies members want and have not seen, who wants each, and what the
/// group last knew of where each streams (proto/PEER.md, "News").
extension WatchList {
    /// The members who want `movie` and have not seen it, named as the list names them, by id.
    package func wanters(of movie: MovieID) -> [MemberMarks] {
        marks.marks(of: movie, names: names).filter { $0.wants && !$0.seen }
    }

    /// The listed movies that a member wants and has not seen, by id: what news checks watch.
    package var newsWatched: [MovieID] {
        marks.markedMovies.filter { isListed($0) && !wanters(of: $0).isEmpty }.sorted()
    }

    /// Where `movie` can be watched now: the newest news of it in the group's region when it is
    /// newer than its details, else its details' where-to-watch. What `list --streaming` keeps.
    package func providers(of movie: MovieID) -> WatchProviders? {
        let described = description(of: movie)
        let region = settings?.region ?? described?.details?.providers?.region
        if let report = news.latest(of: movie), described.map({ $0.orderKey < report.orderKey }) ?? true,
            let providers = report.news?.providers, providers.region == region
        {
            return providers
        }
        return described?.details?.providers
    }

    /// What the group last knew of where `movie` streams in `region`: its newest news there, else
    /// the where-to-watch its details carry when they are of that region; nil when neither is (it
    /// waits for its describe, which brings the first).
    package func knownProviders(of movie: MovieID, in region: String) -> WatchProviders? {
        if let reported = news.providers(of: movie, in: region) { return reported }
        guard let providers = description(of: movie)?.details?.providers, providers.region == region else { return nil }
        return providers
    }
}
