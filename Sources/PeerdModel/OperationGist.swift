/// What reads of the history need of an operation without reading it whole: its place in the
/// group's order (with its id), when it was made, its movie and kind. A replica holds this much of
/// each retired operation (a mark, a describe, a removal), 32 bytes, and reads the rest back from
/// the log for the few a page shows (``ReplicaLog``).
package struct OperationGist: Hashable, Sendable {
    package var lamport: UInt64
    /// Wall-clock time at the origin, milliseconds since 1970.
    package var at: Int64
    package var movie: MovieID
    package var kind: Operation.Kind
    /// Whether it is about the group rather than a movie (``Operation/isAboutGroup``).
    package var isAboutGroup: Bool
    /// Whether its movie carries a title (``Replica/lastNamed(_:)`` looks for the newest that does).
    package var isTitled: Bool

    package init(lamport: UInt64, at: Int64, movie: MovieID, kind: Operation.Kind, isAboutGroup: Bool, isTitled: Bool) {
        self.lamport = lamport
        self.at = at
        self.movie = movie
        self.kind = kind
        self.isAboutGroup = isAboutGroup
        self.isTitled = isTitled
    }

    /// Every kind, each at a place of its own: what a snapshot writes for a gist's kind.
    package static let kinds: [Operation.Kind] = [
        .add, .remove, .describe, .settings, .mark, .watch, .pick, .member, .list, .unknown, .news, .relays, .reach,
    ]

    package init(_ op: Operation) {
        lamport = op.lamport
        at = op.at
        movie = op.movie.id
        kind = op.kind
        isAboutGroup = op.isAboutGroup
        isTitled = op.movie.title != nil
    }
}
