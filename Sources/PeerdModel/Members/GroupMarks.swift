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
    /// One member's newest mark of one kind on a movie, at its operation's place in the list's
    /// order. 32 bytes: the member and the origin of that place are named by their index in
    /// `peers`, where an entry naming them (two 16-byte strings) took 56.
    package struct Entry: Sendable {
        package var lamport: UInt64
        package var seq: UInt64
        package var mark: Mark
        package var member: UInt32
        package var origin: UInt32

        package init(lamport: UInt64, seq: UInt64, mark: Mark, member: UInt32, origin: UInt32) {
            self.lamport = lamport
            self.seq = seq
            self.mark = mark
            self.member = member
            self.origin = origin
        }
    }

    /// A movie's entries: at most one per member and kind, so a handful each.
    private var movies: [MovieID: [Entry]] = [:]
    /// Every member and origin an entry names, each once (a group has a handful).
    private var peers: [PeerID] = []
    private var peerIndex: [PeerID: UInt32] = [:]

    package init() {}

    /// Every entry, as a snapshot holds them (``ReplicaParts``): the peers the entries name by
    /// index, and each movie's entries.
    package struct Parts: Sendable {
        package var peers: [PeerID]
        package var movies: [(movie: MovieID, entries: [Entry])]

        package init(peers: [PeerID], movies: [(movie: MovieID, entries: [Entry])]) {
            self.peers = peers
            self.movies = movies
        }
    }

    var parts: Parts { Parts(peers: peers, movies: movies.map { ($0.key, $0.value) }) }

    /// The marks `parts` were taken from; nil when an entry names a peer that is not among them.
    init?(_ parts: Parts) {
        let count = UInt32(parts.peers.count)
        guard parts.movies.allSatisfy({ $0.entries.allSatisfy { $0.member < count && $0.origin < count } })
        else { return nil }
        peers = parts.peers
        peerIndex = Dictionary(uniqueKeysWithValues: parts.peers.enumerated().map { ($1, UInt32($0)) })
        movies = Dictionary(parts.movies, uniquingKeysWith: { first, _ in first })
    }

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
        for entry in entries where members.isEmpty || members.contains(peers[Int(entry.member)]) {
            if kind == .seen ? hasSeen(entry.member, in: entries) : entry.mark.kind == kind && entry.mark.set {
                return true
            }
        }
        return false
    }

    /// Whether `member` has seen the movie whose entries these are: their newest seen mark is set,
    /// or their rating is set and no seen mark of theirs is ordered after it.
    private func hasSeen(_ member: UInt32, in entries: [Entry]) -> Bool {
        let seen = entries.first { $0.member == member && $0.mark.kind == .seen }
        if let rating = entries.first(where: { $0.member == member && $0.mark.kind == .rating }), rating.mark.set,
            seen.map({ key(of: $0) < key(of: rating) }) ?? true
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
        guard let member = peerIndex[member] else { return false }
        return movies[movie]?.contains { $0.member == member && $0.mark.set } ?? false
    }

    /// `member`'s newest mark of `kind` on `movie`, set or cleared; nil when they never made one.
    package func mark(_ kind: Mark.Kind, of member: PeerID, on movie: MovieID) -> Mark? {
        guard let member = peerIndex[member] else { return nil }
        return movies[movie]?.first { $0.member == member && $0.mark.kind == kind }?.mark
    }

    /// Each member's marks on `movie` (members with no mark set left out), by member id, named by
    /// `names` (unnamed when nil: a filter needs no names).
    package func marks(of movie: MovieID, names: MemberNames?) -> [MemberMarks] {
        guard let entries = movies[movie] else { return [] }
        // A handful of entries: a scan of an array is cheaper than a dictionary per row.
        var members: [(index: UInt32, marks: MemberMarks)] = []
        for entry in entries {
            if let index = members.firstIndex(where: { $0.index == entry.member }) {
                members[index].marks.take(entry.mark)
            } else {
                var marks = MemberMarks(member: peers[Int(entry.member)], name: "")
                marks.take(entry.mark)
                members.append((entry.member, marks))
            }
        }
        for index in members.indices where !members[index].marks.seen {
            members[index].marks.seen = hasSeen(members[index].index, in: entries)
        }
        var result = members.map(\.marks)
        result.removeAll(where: \.isEmpty)
        result.sort { $0.member < $1.member }
        if let names {
            for index in result.indices { result[index].name = names.name(of: result[index].member) }
        }
        return result
    }

    /// Everything either holds: the newest entry of each member, movie and kind.
    package func merged(with other: GroupMarks) -> GroupMarks {
        var result = self
        for (movie, entries) in other.movies {
            for entry in entries {
                result.set(entry.mark, of: other.peers[Int(entry.member)], on: movie, at: other.key(of: entry))
            }
        }
        return result
    }

    /// The place in the list's order of the operation that made `entry`.
    private func key(of entry: Entry) -> OrderKey {
        OrderKey(lamport: entry.lamport, origin: peers[Int(entry.origin)], seq: entry.seq)
    }

    /// `peer`'s index in `peers`, which takes it in if it is new.
    private mutating func index(of peer: PeerID) -> UInt32 {
        if let index = peerIndex[peer] { return index }
        let index = UInt32(peers.count)
        peers.append(peer)
        peerIndex[peer] = index
        return index
    }

    /// Keeps `mark` as `member`'s of its kind on `movie` unless a newer one is held.
    @discardableResult
    private mutating func set(_ mark: Mark, of member: PeerID, on movie: MovieID, at key: OrderKey) -> Bool {
        let member = index(of: member)
        let entry = Entry(lamport: key.lamport, seq: key.seq, mark: mark, member: member, origin: index(of: key.origin))
        guard let index = movies[movie]?.firstIndex(where: { $0.member == member && $0.mark.kind == mark.kind })
        else {
            movies[movie, default: []].append(entry)
            return true
        }
        guard self.key(of: movies[movie]![index]) < key else { return false }
        movies[movie]![index] = entry
        return true
    }
}
