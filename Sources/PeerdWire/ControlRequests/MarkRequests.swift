package import PeerdModel

/// This member's marks on a movie, set or cleared (proto/CONTROL.md, "mark"); a `want` of an
/// unlisted movie adds it too.
package struct MarkRequest: ControlRequestBody {
    package static let tag = "mark"
    package var movie: Movie
    package var marks: [Mark]

    package init(movie: Movie, marks: [Mark]) {
        self.movie = movie
        self.marks = marks
    }
}

/// A watch of a movie by this member and the members `with` names, on the day `on`.
package struct WatchRequest: ControlRequestBody {
    package static let tag = "watch"
    package var movie: Movie
    package var with: [String]
    package var on: String?

    package init(movie: Movie, with: [String] = [], on: String? = nil) {
        self.movie = movie
        self.with = with
        self.on = on
    }

    private enum CodingKeys: String, CodingKey { case movie, with, on }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        movie = try c.decode(Movie.self, forKey: .movie)
        with = try c.decodeIfPresent([String].self, forKey: .with) ?? []
        on = try c.decodeIfPresent(String.self, forKey: .on)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(movie, forKey: .movie)
        if !with.isEmpty { try c.encode(with, forKey: .with) }
        try c.encodeIfPresent(on, forKey: .on)
    }
}

/// A page of the signed log in words, newest first: of one movie, or all; no older than `since`
/// (milliseconds since 1970); before the cursor `before`.
package struct HistoryRequest: ControlRequestBody {
    package static let tag = "history"
    package var movie: MovieID?
    package var since: Int64?
    package var limit: Int?
    package var before: String?

    package init(movie: MovieID? = nil, since: Int64? = nil, limit: Int? = nil, before: String? = nil) {
        self.movie = movie
        self.since = since
        self.limit = limit
        self.before = before
    }
}
