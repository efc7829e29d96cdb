import PeerdCatalog
import PeerdModel

/// The replica as the catalog sees it, in memory: listed movies, their describes, and a change
/// tick on every describe.
actor MemoryReplica: CatalogReplica {
    private var listed: [(movie: MovieID, addedHere: Bool)]
    private(set) var describes: [(movie: MovieID, details: MovieDetails)] = []
    private var subscribers: [AsyncStream<Void>.Continuation] = []
    private var describeWatchers: [AsyncStream<MovieID>.Continuation] = []

    init(_ listed: [(movie: MovieID, addedHere: Bool)] = []) {
        self.listed = listed
    }

    func undescribed() -> [(movie: MovieID, addedHere: Bool)] {
        listed.filter { entry in !describes.contains { $0.movie == entry.movie } }
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
