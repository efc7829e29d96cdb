package import PeerdModel

/// One member's marks on a movie, in a list row (`MovieRecord.marks`).
package struct MarkRecord: Hashable, Sendable, Codable {
    package var peer: PeerID
    /// With the member's short id when another member shares the name.
    package var name: String
    package var want: Bool
    package var seen: Bool
    /// `YYYY-MM-DD`, when the member or the watch said.
    package var seenOn: String?
    /// 1 to 10.
    package var rating: Int?
    package var veto: Bool

    package init(_ marks: MemberMarks) {
        peer = marks.member
        name = marks.name
        want = marks.wants
        seen = marks.seen
        seenOn = marks.seenOn
        rating = marks.rating
        veto = marks.vetoes
    }

    /// A record as a reader found it (``ListPageReader``).
    package init(peer: PeerID, name: String, want: Bool, seen: Bool, seenOn: String?, rating: Int?, veto: Bool) {
        self.peer = peer
        self.name = name
        self.want = want
        self.seen = seen
        self.seenOn = seenOn
        self.rating = rating
        self.veto = veto
    }
}

/// What `mark` and `watch` did (proto/CONTROL.md, "mark").
package struct MarkedRecord: Hashable, Sendable, Codable {
    package var movieId: Int
    /// The row with its marks now; absent when the movie is not listed (its marks wait for it).
    package var movie: MovieRecord?
    /// How many operations were appended: 0 when the marks said so already.
    package var made: Int
    /// Whether `want` added the movie to the list first.
    package var added: Bool

    package init(movieId: Int, movie: MovieRecord?, made: Int, added: Bool) {
        self.movieId = movieId
        self.movie = movie
        self.made = made
        self.added = added
    }
}

/// One operation of the signed log, in words (proto/CONTROL.md, "history").
package struct HistoryEntryRecord: Hashable, Sendable, Codable {
    /// The operation's place in the list's order: pass it as `before` for the older ones.
    package var cursor: String
    /// Milliseconds since 1970, by the origin's clock.
    package var at: Int64
    package var peer: PeerID
    /// The origin's name as the group knows it now.
    package var by: String
    /// The operation's kind, as it came (`add`, `mark`, or a later version's).
    package var op: String
    /// Whether this version knows the kind.
    package var known: Bool
    /// Absent for an operation about the group, not a movie (`settings`).
    package var movieId: Int?
    package var title: String?
    package var year: Int?
    /// The line: "alice added The Matrix (1999)".
    package var text: String

    package init(
        cursor: String,
        at: Int64,
        peer: PeerID,
        by: String,
        op: String,
        known: Bool,
        movieId: Int?,
        title: String?,
        year: Int?,
        text: String
    ) {
        self.cursor = cursor
        self.at = at
        self.peer = peer
        self.by = by
        self.op = op
        self.known = known
        self.movieId = movieId
        self.title = title
        self.year = year
        self.text = text
    }
}

/// A page of history, newest first.
package struct HistoryRecord: Hashable, Sendable, Codable {
    package var entries: [HistoryEntryRecord]
    /// Pass as `before` for the next (older) page; absent on the last.
    package var next: String?

    package init(entries: [HistoryEntryRecord], next: String?) {
        self.entries = entries
        self.next = next
    }
}

/// `list`'s filters and order by members' marks (proto/CONTROL.md, "list"): members named by name,
/// id, unique id prefix, or `me`.
package struct ListFilter: Hashable, Sendable {
    /// Only what nobody in `by` (the whole group, when nil) has seen.
    package var unseen: Bool
    package var by: [String]?
    /// Only what one of these wants.
    package var wantedBy: [String]?
    package var sort: ListQuery.Sort
    /// A `sort` this version does not know, kept as it came: refused with `bad-request` where the
    /// request is answered, as an unknown `discover` list is, so the connection goes on.
    package var unknownSort: String?

    package init(
        unseen: Bool = false,
        by: [String]? = nil,
        wantedBy: [String]? = nil,
        sort: ListQuery.Sort = .added,
        unknownSort: String? = nil
    ) {
        self.unseen = unseen
        self.by = by
        self.wantedBy = wantedBy
        self.sort = sort
        self.unknownSort = unknownSort
    }
}
