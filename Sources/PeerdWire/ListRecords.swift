package import PeerdModel

/// One of the group's lists as `lists` shows it (proto/CONTROL.md, "lists"): the group's own list
/// first, which every member holds, then the lists this machine holds, each with its members.
package struct ListRecord: Hashable, Sendable, Codable {
    /// Absent for the group's own list.
    package var id: ListID?
    package var name: String
    /// The group's own list: every member's, and what a request naming no list reads and writes.
    package var isDefault: Bool
    /// Who is on it: for the group's own list, every member of the group.
    package var members: [ListMember]
    /// How many movies it has.
    package var movies: Int
    /// The highest certification a movie on it may have in the group's region (`PG`, `12`), when
    /// the list has a ceiling.
    package var maxCertification: String?
    /// Whether a member of it lives on this machine: a list no member here is on any more is held
    /// (what it had stays) but no longer receives anything.
    package var held: Bool

    package init(
        id: ListID?,
        name: String,
        isDefault: Bool,
        members: [ListMember],
        movies: Int,
        maxCertification: String? = nil,
        held: Bool = true
    ) {
        self.id = id
        self.name = name
        self.isDefault = isDefault
        self.members = members
        self.movies = movies
        self.maxCertification = maxCertification
        self.held = held
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, isDefault = "default", members, movies, maxCertification, held
    }
}

/// A member of a list, by id and name.
package struct ListMember: Hashable, Sendable, Codable {
    package var peer: PeerID
    package var name: String?

    package init(peer: PeerID, name: String?) {
        self.peer = peer
        self.name = name
    }
}
