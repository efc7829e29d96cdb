import PeerdWire

/// How a page of movies prints: `search`, `discover` and `similar` alike.
enum MoviePageOutput {
    /// The table, then which page this is and the command for the next one. A page kept on disk
    /// says how old it is, and why a fresh one could not be had, on standard error.
    static func print(_ page: SearchResultsRecord, next: (Int) -> String) {
        keptNote(fetchedAt: page.fetchedAt, stale: page.stale)
        table(page)
        if page.page < page.totalPages {
            Swift.print(
                "page \(page.page) of \(page.totalPages) (\(page.totalResults) movies); next: \(next(page.page + 1))"
            )
        } else if page.totalPages > 1 {
            Swift.print("page \(page.page) of \(page.totalPages) (\(page.totalResults) movies)")
        }
    }

    /// "kept from 2h 0m ago: <why>", on standard error, for an answer kept on disk that was shown
    /// because a fresh one could not be had (a list's page or the genres).
    static func keptNote(fetchedAt: Int64?, stale: String?) {
        guard let fetchedAt, let stale else { return }
        Output.note("kept from \(Output.duration(Double(Output.nowMillis() - fetchedAt) / 1_000)) ago: \(stale)")
    }

    static func table(_ page: SearchResultsRecord) {
        var table = Output.Table(["ID", "TITLE", "YEAR", "RATING", "OVERVIEW"])
        for result in page.results {
            table.add([
                String(result.movieId), result.title, result.year.map(String.init) ?? "-",
                result.voteAverage.map { "\($0 / 100).\($0 % 100 / 10)" } ?? "-",
                Output.firstLine(result.overview ?? "", width: 50),
            ])
        }
        table.print()
    }
}
