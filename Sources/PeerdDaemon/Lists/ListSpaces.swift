package import Logging
package import PeerdModel
package import PeerdWire

/// The group's lists as this machine holds them (proto/PEER.md, "Lists"): the group's own, which
/// every member holds, and each other list a member living here is on, with its own operations,
/// log and replica service. The one place that knows which lists go to which machines.
package actor ListSpaces {
    /// Why a list request can't be done; the words are for the person who asked.
    package struct Refusal: Error, Hashable, Sendable {
        package var words: String
        package init(_ words: String) { self.words = words }
    }

    /// The group's own list.
    package nonisolated let group: ReplicaService
    var lists: [ListID: ReplicaService] = [:]
    let sharing = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    let logger: Logger

    package init(group: ReplicaService, logger: Logger) {
        self.group = group
        self.logger = logger
    }

    // MARK: For sessions

    /// The lists this machine shares with the machine `machine`: those a member living on it (the
    /// machine itself, or a profile of it) is on, as this machine knows the list's members.
    package func shared(with machine: PeerID) async -> [ListID: ReplicaService] {
        [:]
    }

    /// `machine` opened list `id` on a session: the list's service, opened empty when this machine
    /// does not hold it yet, or nil when it is refused (this machine holds as many lists as it takes).
    package func accept(_ id: ListID, from machine: PeerID) async -> ReplicaService? {
        lists[id]
    }

    /// A tick now and whenever which lists are shared with whom may have changed (a list made, a
    /// member added or removed, a list opened from a peer).
    package func sharingChanges() -> AsyncStream<Void> {
        sharing.subscribe(startingWith: ())
    }

    // MARK: For requests

    /// The list `nameOrID` names (a list's name, or its id or the first 8 digits of it): nil for the
    /// group's own (`group`, or nothing named).
    package func resolve(_ nameOrID: String?) throws(Refusal) -> ReplicaService? {
        guard let nameOrID, !nameOrID.isEmpty else { return nil }
        throw Refusal("there is no list called \(nameOrID); `peerctl lists` shows the lists there are")
    }

    /// Every list this machine holds, the group's first.
    package func records() async -> [ListRecord] {
        []
    }

    /// Makes a list named `name` of `members` (the maker is on it too), with a ceiling when given.
    package func create(name: String, members: [PeerID], maxCertification: String?) async throws -> ListRecord {
        throw Refusal("not yet")
    }

    /// Puts `member` on the list, or takes them off it.
    package func change(_ list: ListID, member: PeerID, adding: Bool) async throws -> ListRecord {
        throw Refusal("not yet")
    }
}
