package import PeerdModel

/// What `news` answers (proto/CONTROL.md, "news"): the newest reports first, how many came since
/// the acting member last looked, and the attribution TMDB asks for. With `follow`, later
/// messages carry only the reports that arrived since the one before.
package struct NewsRecord: Hashable, Sendable, Codable {
    package var items: [NewsItemRecord]
    /// Reports since the member last looked (`looked`), of movies one of the group wants now.
    package var unread: Int
    /// Every report the group holds.
    package var total: Int
    /// "Where to watch: data by JustWatch, through TMDB".
    package var attribution: String

    package init(items: [NewsItemRecord], unread: Int, total: Int, attribution: String = NewsWords.attribution) {
        self.items = items
        self.unread = unread
        self.total = total
        self.attribution = attribution
    }
}

/// One report: a movie's changes of where it streams in the group's region.
package struct NewsItemRecord: Hashable, Sendable, Codable {
    /// The news operation.
    package var operation: OperationID
    /// Its place in the group's order (`lamport.origin.seq`).
    package var cursor: String
    package var movieId: Int
    package var title: String?
    package var year: Int?
    package var posterPath: String?
    package var region: String
    package var changes: [Change]
    /// Each change in words: "Arrival is now on Netflix (DE)".
    package var lines: [String]
    /// The members who want it and have not seen it, as of now; empty when nobody does any more.
    package var wantedBy: [String]
    /// When TMDB's data was read, milliseconds since 1970.
    package var read: Int64
    /// The token holder that checked.
    package var reportedBy: String
    /// TMDB's page of where to watch it, when TMDB gave one.
    package var link: String?
    /// Whether the acting member had not looked since it came.
    package var unread: Bool

    package struct Change: Hashable, Sendable, Codable {
        /// `arrived`, `left`, `rent` or `buy`.
        package var change: String
        package var service: String
        package var serviceId: Int

        package init(_ change: ProviderChange) {
            self.change = change.change.rawValue
            service = change.service.name
            serviceId = change.service.id
        }
    }

    package init(
        report: Operation,
        news: ProviderNews,
        title: String?,
        year: Int?,
        posterPath: String?,
        wantedBy: [String],
        reportedBy: String,
        unread: Bool
    ) {
        operation = report.id
        cursor = report.orderKey.cursor
        movieId = report.movie.id.rawValue
        (self.title, self.year, self.posterPath) = (title, year, posterPath)
        region = news.providers.region
        changes = news.changes.map(Change.init)
        let shown = HistoryLine.title(title, year: year, id: report.movie.id)
        lines = news.changes.map { NewsWords.text(of: $0, movie: shown, region: news.providers.region) }
        self.wantedBy = wantedBy
        read = news.read
        self.reportedBy = reportedBy
        link = news.providers.link
        self.unread = unread
    }
}
