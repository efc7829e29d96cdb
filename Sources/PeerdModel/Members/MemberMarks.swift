/// One member's marks on one movie, as the list shows them: the newest mark of each kind that the
/// member made (or, for `seen`, a watch that named them).
package struct MemberMarks: Hashable, Sendable {
    package var member: PeerID
    /// The member's name as ``MemberNames`` shows it: with its short id when another member shares it.
    package var name: String
    package var wants = false
    package var seen = false
    /// The day it was seen, when the member or the watch said.
    package var seenOn: String?
    /// 1 to 10.
    package var rating: Int?
    package var vetoes = false

    package init(member: PeerID, name: String) {
        self.member = member
        self.name = name
    }

    /// Whether any mark is set: a member whose marks were all cleared is not shown.
    package var isEmpty: Bool { !wants && !seen && rating == nil && !vetoes }

    /// Sets what `mark` says.
    package mutating func take(_ mark: Mark) {
        switch mark.kind {
        case .want: wants = mark.set
        case .veto: vetoes = mark.set
        case .rating: rating = mark.set ? mark.rating : nil
        case .seen:
            seen = mark.set
            seenOn = mark.set ? mark.on : nil
        }
    }
}

extension Array where Element == MemberMarks {
    /// The average of the members' ratings, or nil when nobody rated the movie.
    package var averageRating: Double? {
        let ratings = compactMap(\.rating)
        guard !ratings.isEmpty else { return nil }
        return Double(ratings.reduce(0, +)) / Double(ratings.count)
    }

    package var wantedBy: [MemberMarks] { filter(\.wants) }
    package var seenBy: [MemberMarks] { filter(\.seen) }
}
