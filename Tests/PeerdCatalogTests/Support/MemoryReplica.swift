import PeerdCatalog
import PeerdModel

/// The replica as the catalog sees it, in memory: listed movies, their describes, and a change
/// tick on every describe.
actor MemoryReplica: CatalogReplica {
    private var listed: [(movie: MovieID, addedHere: Bool)]
    private(set) var describes: [(movie: MovieID, details: MovieDetails)] = []
    private var subscribers: [AsyncStream<Void>.Continuation] = []
    private var describeWatchers: [AsyncStream<MovieID>.Continuation] = []
    private var region: String?

    init(_ listed: [(movie: MovieID, addedHere: Bool)] = []) {
        self.listed = listed
    }

    /// As the daemon's replica does: a movie waits while its newest describe is missing or, once the
    /// group chose a region, looked in another one.
    func undescribed() -> [(movie: MovieID, addedHere: Bool)] {
        listed.filter { entry in
            guard let newest = describes.last(where: { $0.movie == entry.movie })?.details else { return true }
            return region != nil && newest.providers?.region != region
        }
    }

    func groupRegion() -> String? { region }

    /// The group chooses `region` (as a settings operation would).
    func choose(region: String) {
        self.region = region
        tick()
    }

    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        subscribers.append(continuation)
        return stream
    }

    func describe(_ movie: MovieID, _ details: MovieDetails) {
        describes.append((movie, details))
        for watcher in describeWatchers { watcher.yield(movie) }
        tick()
    }

    /// Lists `movie` (as an add would).
    func add(_ movie: MovieID, addedHere: Bool) {
        listed.append((movie, addedHere))
        tick()
    }

    /// Every describe appended from now on.
    func describedMovies() -> AsyncStream<MovieID> {
        let (stream, continuation) = AsyncStream.makeStream(of: MovieID.self)
        describeWatchers.append(continuation)
        return stream
    }

    private func tick() {
        for subscriber in subscribers { subscriber.yield() }
    }
}
