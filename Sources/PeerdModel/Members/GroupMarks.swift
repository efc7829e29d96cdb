/// Every member's marks on every movie, folded from `mark` and `watch` operations (proto/PEER.md,
/// "Marks"): per member, movie and kind of mark, the newest by the list's order wins, so every
/// replica with the same operations holds the same marks, whatever order they came in. A watch
/// counts as a `seen` mark of each member it names, at the watch's place in that order. A rating is
/// a viewing: a member who rated a movie has seen it, unless a seen mark of theirs ordered after
/// the rating clears it (``hasSeen(_:in:)``).
///
/// Marks are kept by movie whether or not it is listed: a movie removed and added again shows its
/// marks again.
package struct GroupMarks: Sendable {
    /// One member's newest mark of one kind on a movie.
    struct Entry: Sendable {
        var member: PeerID
        var key: OrderKey
        var mark: Mark
    }

    /// A movie's entries: at most one per member and kind, so a handful each.
    private var movies: [MovieID: [Entry]] = [:]

    package init() {}

    /// Folds in a `mark` or `watch` operation; whether it changed a member's marks.
    @discardableResult
    package mutating func apply(_ operation: Operation) -> Bool {
        let movie = operation.movie.id
        if let mark = operation.mark {
            return set(mark, of: operation.id.origin, on: movie, at: operation.orderKey)
        }
        guard let watch = operation.watch else { return false }
        let seen = watch.seenMark
        var changed = false
        for member in watch.with where set(seen, of: member, on: movie, at: operation.orderKey) { changed = true }
        return changed
    }

    /// Whether one of `members` (any member, when empty) has `kind` set on `movie`: a filter's
    /// question, asked without making the members' marks.
    package func anyone(in members: [PeerID], has kind: Mark.Kind, on movie: MovieID) -> Bool {
        guard let entries = movies[movie] else { return false }
        for entry in entries where members.isEmpty || members.contains(entry.member) {
            if kind == .seen ? Self.hasSeen(entry.member, in: entries) : entry.mark.kind == kind && entry.mark.set {
                return true
            }
        }
        return false
    }

    /// Whether `member` has seen the movie whose entries these are: their newest seen mark is set,
    /// or their rating is set and no seen mark of theirs is ordered after it.
    static func hasSeen(_ member: PeerID, in entries: [Entry]) -> Bool {
        let seen = entries.first { $0.member == member && $0.mark.kind == .seen }
        if let rating = entries.first(where: { $0.member == member && $0.mark.kind == .rating }), rating.mark.set,
            seen.map({ $0.key < rating.key }) ?? true
        {
            return true
        }
        return seen?.mark.set ?? false
    }

    /// The movies someone has a mark set on, in no order.
    package var markedMovies: [MovieID] {
        movies.compactMap { movie, entries in entries.contains(where: \.mark.set) ? movie : nil }
    }

    /// Whether `member` has a mark set on `movie`.
    package func hasMark(of member: PeerID, on movie: MovieID) -> Bool {
        movies[movie]?.contains { $0.member == member && $0.mark.set } ?? false
    }

    /// `member`'s newest mark of `kind` on `movie`, set or cleared; nil when they never made one.
    package func mark(_ kind: Mark.Kind, of member: PeerID, on movie: MovieID) -> Mark? {
        movies[movie]?.first { $0.member == member && $0.mark.kind == kind }?.mark
    }

    /// Each member's marks on `movie` (members with no mark set left out), by member id, named by
    /// `names` (unnamed when nil: a filter needs no names).
    package func marks(of movie: MovieID, names: MemberNames?) -> [MemberMarks] {
        guard let entries = movies[movie] else { return [] }
        // A handful of entries: a scan of an array is cheaper than a dictionary per row.
        var members: [MemberMarks] = []
        for entry in entries {
            if let index = members.firstIndex(where: { $0.member == entry.member }) {
                members[index].take(entry.mark)
            } else {
                var marks = MemberMarks(member: entry.member, name: "")
                marks.take(entry.mark)
                members.append(marks)
            }
        }
        for index in members.indices where !members[index].seen {
            members[index].seen = Self.hasSeen(members[index].member, in: entries)
        }
        members.removeAll(where: \.isEmpty)
        members.sort { $0.member < $1.member }
        if let names {
            for index in members.indices { members[index].name = names.name(of: members[index].member) }
        }
        return members
    }

    /// Everything either holds: the newest entry of each member, movie and kind.
    package func merged(with other: GroupMarks) -> GroupMarks {
        var result = self
        for (movie, entries) in other.movies {
            for entry in entries { result.set(entry.mark, of: entry.member, on: movie, at: entry.key) }
        }
        return result
    }

    /// Keeps `mark` as `member`'s of its kind on `movie` unless a newer one is held.
    private mutating func set(_ mark: Mark, of member: PeerID, on movie: MovieID, at key: OrderKey) -> Bool {
        let entry = Entry(member: member, key: key, mark: mark)
        guard let index = movies[movie]?.firstIndex(where: { $0.member == member && $0.mark.kind == mark.kind })
        else {
            movies[movie, default: []].append(entry)
            return true
        }
        guard movies[movie]![index].key < key else { return false }
        movies[movie]![index] = entry
        return true
    }
}
