/// One row of a file being imported, as peerctl read it (proto/CONTROL.md, "import"): which movie,
/// by any id or name it had there, and what this member says of it. The daemon resolves the movie
/// and makes the operations a person would (an add, marks), each only when it changes something.
package struct ImportRow: Hashable, Sendable, Codable {
    /// Where the row is, for messages and the file of unresolved rows: the file inside an archive
    /// (`diary.csv`), if any, and the 1-based line of the record's first line there.
    package var file: String?
    package var line: Int
    /// The movie, by whichever of these the row had: TMDB's id, IMDb's (`tt0133093`), or the title
    /// and release year as the row wrote them.
    package var tmdb: Int?
    package var imdb: String?
    package var title: String?
    package var year: Int?
    /// List it (without a mark of its own).
    package var list: Bool
    /// This member's marks: want to watch; seen (on `seenOn`, `YYYY-MM-DD`, when the row says);
    /// a rating from 1 to 10; a veto.
    package var want: Bool
    package var seen: Bool
    package var seenOn: String?
    package var rating: Int?
    package var veto: Bool

    package init(
        file: String? = nil,
        line: Int,
        tmdb: Int? = nil,
        imdb: String? = nil,
        title: String? = nil,
        year: Int? = nil,
        list: Bool = false,
        want: Bool = false,
        seen: Bool = false,
        seenOn: String? = nil,
        rating: Int? = nil,
        veto: Bool = false
    ) {
        self.file = file
        self.line = line
        self.tmdb = tmdb
        self.imdb = imdb
        self.title = title
        self.year = year
        self.list = list
        self.want = want
        self.seen = seen
        self.seenOn = seenOn
        self.rating = rating
        self.veto = veto
    }
}

/// An `import` request's rows (proto/CONTROL.md, "import"): up to ``maxRows`` of one file, whose
/// SHA-256 (`id`, 64 hex digits) names the import, so that running it again skips what is done.
package struct ImportBatch: Hashable, Sendable, Codable {
    package static let maxRows = 100

    package var id: String
    package var rows: [ImportRow]
    /// Resolve and say what would happen; write nothing.
    package var dryRun: Bool

    package init(id: String, rows: [ImportRow], dryRun: Bool = false) {
        self.id = id
        self.rows = rows
        self.dryRun = dryRun
    }

    /// Why the daemon refuses the batch as a whole, or nil.
    package var invalidReason: String? {
        let hex = id.utf8.count == 64 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        if !hex { return "an import's id is the file's SHA-256: 64 lowercase hex digits" }
        if !(1...Self.maxRows).contains(rows.count) { return "an import request carries 1 to \(Self.maxRows) rows" }
        return nil
    }
}

/// What became of each row of an ``ImportBatch``, in its order.
package struct ImportedRecord: Hashable, Sendable, Codable {
    package var results: [ImportResult]
    package var dryRun: Bool

    package init(results: [ImportResult], dryRun: Bool) {
        self.results = results
        self.dryRun = dryRun
    }
}

/// One row's fate.
package struct ImportResult: Hashable, Sendable, Codable {
    package enum Outcome: String, Hashable, Sendable, Codable {
        /// The movie was put on the list (and marked, if the row said so).
        case added
        /// Only this member's marks changed.
        case marked
        /// The list and the marks said so already (or an earlier run of this import did it).
        case already
        /// No movie could be told from the row; `reason` says why. Never guessed.
        case unresolved
        /// TMDB (or the peer asked) failed, or the row can't be stored; running the import again retries it.
        case failed
        /// The list's ceiling keeps the movie out (proto/PEER.md, "Ceilings"); `reason` says its
        /// certification. Nothing of the row was made.
        case refused
    }

    package var file: String?
    package var line: Int
    package var outcome: Outcome
    package var movieId: Int?
    package var title: String?
    package var year: Int?
    package var reason: String?

    package init(
        _ row: ImportRow,
        _ outcome: Outcome,
        movieId: Int? = nil,
        title: String? = nil,
        year: Int? = nil,
        reason: String? = nil
    ) {
        self.file = row.file
        self.line = row.line
        self.outcome = outcome
        self.movieId = movieId
        self.title = title
        self.year = year
        self.reason = reason
    }
}
