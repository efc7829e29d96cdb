/// Every `news` operation of the list, folded the same way on every peer (proto/PEER.md, "News"):
/// in the list's order, a report that says again what the one before it about the same movie
/// said (two token holders that checked in the same moment, apart) counts once. News is rare (a
/// change of where a wanted movie streams), so it is held whole, a few hundred operations at most.
package struct NewsFeed: Sendable, Equatable {
    /// In the list's order (``Operation/orderKey``), each once.
    private(set) var operations: [Operation] = []
    /// Each movie's reports, in the list's order: a row asks for its movie's newest
    /// (``WatchList/providers(of:)``), and a list of 100,000 rows asks 100,000 times.
    private var byMovie: [MovieID: [Operation]] = [:]

    package init() {}

    package static func == (lhs: NewsFeed, rhs: NewsFeed) -> Bool { lhs.operations == rhs.operations }

    /// Folds in a news operation; whether it was new.
    @discardableResult
    mutating func apply(_ operation: Operation) -> Bool {
        guard operation.news != nil else { return false }
        let key = operation.orderKey
        let index = operations.partitioningIndex { $0.orderKey >= key }
        guard index == operations.count || operations[index].id != operation.id else { return false }
        operations.insert(operation, at: index)
        var reports = byMovie[operation.movie.id, default: []]
        reports.insert(operation, at: reports.partitioningIndex { $0.orderKey >= key })
        byMovie[operation.movie.id] = reports
        return true
    }

    /// What the group last knew TMDB to say of where `movie` streams in `region`, by news: nil
    /// when no news of it was made there.
    package func providers(of movie: MovieID, in region: String) -> WatchProviders? {
        byMovie[movie]?.last { $0.news?.providers.region == region }?.news?.providers
    }

    /// The newest report of `movie`, in any region.
    package func latest(of movie: MovieID) -> Operation? {
        byMovie[movie]?.last
    }

    /// The news, oldest first, each report once: a report whose changes and providers are those
    /// of the report before it about the same movie is left out.
    package var reports: [Operation] {
        var last: [MovieID: ProviderNews] = [:]
        return operations.filter { op in
            guard let news = op.news else { return false }
            defer { last[op.movie.id] = news }
            guard let before = last[op.movie.id] else { return true }
            return before.changes != news.changes || before.providers != news.providers
        }
    }

    /// The feed that holds every report either holds.
    func merged(with other: NewsFeed) -> NewsFeed {
        var result = self
        for op in other.operations { result.apply(op) }
        return result
    }
}
