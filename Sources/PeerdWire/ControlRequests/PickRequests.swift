package import PeerdModel

/// Open a pick of tonight's movie (proto/CONTROL.md, "pick"): the opening is the request.
extension PickOpening: ControlRequestBody {
    package static let tag = "pick"
}

/// Vote on a pick: yes or no on `movie` (this member's next one when absent), or a ranking.
package struct VoteRequest: ControlRequestBody {
    package static let tag = "vote"
    package var pick: OperationID?
    package var movie: MovieID?
    package var yes: Bool?
    package var ranking: [MovieID]?

    package init(pick: OperationID? = nil, movie: MovieID? = nil, yes: Bool? = nil, ranking: [MovieID]? = nil) {
        self.pick = pick
        self.movie = movie
        self.yes = yes
        self.ranking = ranking
    }
}

/// A pick as it stands: the one named, else the group's current one (the oldest still voting,
/// else the newest).
package struct PickStatusRequest: ControlRequestBody {
    package static let tag = "pickStatus"
    package var pick: OperationID?

    package init(pick: OperationID? = nil) { self.pick = pick }
}

/// Close a pick: what is counted stands. Another member's pick only with `force`.
package struct PickCloseRequest: ControlRequestBody {
    package static let tag = "pickClose"
    package var pick: OperationID?
    package var force: Bool

    package init(pick: OperationID? = nil, force: Bool = false) {
        self.pick = pick
        self.force = force
    }

    private enum CodingKeys: String, CodingKey { case pick, force }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        pick = try c.decodeIfPresent(OperationID.self, forKey: .pick)
        force = try c.decodeIfPresent(Bool.self, forKey: .force) ?? false
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(pick, forKey: .pick)
        if force { try c.encode(true, forKey: .force) }
    }
}
