/// One movie as the list shows it: the merge of every surviving add of that movie.
package struct WatchListRow: Hashable, Sendable {
    package var movie: Movie
    /// The row's position: the order key of its earliest surviving add. Also its pagination cursor.
    package var key: OrderKey
    /// Everyone whose add of this movie survives, in the order they added it.
    package var addedBy: [Adder]
    /// Wall-clock time of the earliest surviving add, milliseconds since 1970.
    package var addedAt: Int64
    /// The newest describe's details of the movie, if any peer fetched them.
    package var details: MovieDetails?
    /// Where it can be watched in the group's region now: the details' where-to-watch, or news
    /// newer than them (``WatchList/providers(of:)``).
    package var providers: WatchProviders?
    /// Each member's marks on the movie, by member id: those with at least one mark set.
    package var marks: [MemberMarks] = []

    package struct Adder: Hashable, Sendable {
        package var name: String
        package var peer: PeerID

        package init(name: String, peer: PeerID) {
            self.name = name
            self.peer = peer
        }
    }

    package init(
        movie: Movie,
        key: OrderKey,
        addedBy: [Adder],
        addedAt: Int64,
        details: MovieDetails? = nil,
        marks: [MemberMarks] = []
    ) {
        self.movie = movie
        self.key = key
        self.addedBy = addedBy
        self.addedAt = addedAt
        self.details = details
        self.marks = marks
    }

    /// Whether the row waits for a describe: none reached it yet or, once the group chose a region,
    /// the newest one's where-to-watch is for another region, or it has none (it was fetched before
    /// peerd knew where to watch).
    package func awaitsDescribe(region: String?) -> Bool {
        guard let details else { return true }
        guard let region else { return false }
        return details.providers?.region != region
    }

    /// The title to show: the details' when a peer fetched them, else the earliest add's.
    package var title: String? { details?.title ?? movie.title }
    package var year: Int? { details?.year ?? movie.year }

    /// Builds the row from a movie's surviving adds, or nil when none survive.
    package init?(adds: some Collection<Operation>) {
        let sorted = adds.sorted { $0.orderKey < $1.orderKey }
        guard let first = sorted.first else { return nil }
        var movie = Movie(id: first.movie.id)
        // Title and year come from the earliest add that knew them, so every replica picks the same.
        movie.title = sorted.lazy.compactMap(\.movie.title).first
        movie.year = sorted.lazy.compactMap(\.movie.year).first
        var adders: [Adder] = []
        for add in sorted where !adders.contains(where: { $0.peer == add.id.origin }) {
            adders.append(Adder(name: add.by, peer: add.id.origin))
        }
        self.init(movie: movie, key: first.orderKey, addedBy: adders, addedAt: first.at)
    }
}

/// What applying operations changed, in the order it happened; `peerctl list --follow` prints these.
package enum WatchListChange: Hashable, Sendable {
    /// A movie appeared on the list.
    case added(WatchListRow, by: Operation)
    /// A movie already listed got another adder or a new position.
    case updated(WatchListRow, by: Operation)
    /// A movie left the list.
    case removed(Movie, by: Operation)
}
