package import PeerdModel

/// Add a movie to the list (proto/CONTROL.md, "add").
package struct AddRequest: ControlRequestBody {
    package static let tag = "add"
    package var movie: Movie
    /// On a list with a ceiling: take a movie whose certification is not known (proto/PEER.md,
    /// "Ceilings"), when the member the request acts for is not a profile.
    package var allowUnrated: Bool?

    package init(movie: Movie, allowUnrated: Bool? = nil) {
        self.movie = movie
        self.allowUnrated = allowUnrated
    }
}

/// Remove a movie from the list.
package struct RemoveRequest: ControlRequestBody {
    package static let tag = "remove"
    package var movie: MovieID

    package init(movie: MovieID) { self.movie = movie }
}

/// A page of the list: at most `limit` rows after `after` (a cursor from an earlier page); with
/// `streaming`, only the movies one of the group's services streams; `filter` by members' marks.
package struct ListRequest: ControlRequestBody {
    package static let tag = "list"
    package var limit: Int?
    package var after: String?
    package var streaming: Bool
    package var filter: ListFilter

    package init(limit: Int? = nil, after: String? = nil, streaming: Bool = false, filter: ListFilter = ListFilter()) {
        self.limit = limit
        self.after = after
        self.streaming = streaming
        self.filter = filter
    }

    private enum CodingKeys: String, CodingKey { case limit, after, streaming }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        limit = try c.decodeIfPresent(Int.self, forKey: .limit)
        after = try c.decodeIfPresent(String.self, forKey: .after)
        streaming = try c.decodeIfPresent(Bool.self, forKey: .streaming) ?? false
        filter = try ListFilter(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(limit, forKey: .limit)
        try c.encodeIfPresent(after, forKey: .after)
        if streaming { try c.encode(true, forKey: .streaming) }
        try filter.encode(to: encoder)
    }
}

/// The list's filter by members' marks and its order, as a `list` request spells them.
extension ListFilter: Codable {
    private enum CodingKeys: String, CodingKey { case unseen, by, wantedBy, sort }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let sortName = try c.decodeIfPresent(String.self, forKey: .sort)
        let sort = sortName.map { ListQuery.Sort(rawValue: $0) } ?? .added
        self.init(
            unseen: try c.decodeIfPresent(Bool.self, forKey: .unseen) ?? false,
            by: try c.decodeIfPresent([String].self, forKey: .by),
            wantedBy: try c.decodeIfPresent([String].self, forKey: .wantedBy),
            sort: sort ?? .added,
            unknownSort: sort == nil ? sortName : nil
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if unseen { try c.encode(true, forKey: .unseen) }
        try c.encodeIfPresent(by, forKey: .by)
        try c.encodeIfPresent(wantedBy, forKey: .wantedBy)
        if let unknownSort {
            try c.encode(unknownSort, forKey: .sort)
        } else if sort != .added {
            try c.encode(sort, forKey: .sort)
        }
    }
}
