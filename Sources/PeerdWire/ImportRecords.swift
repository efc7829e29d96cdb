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
