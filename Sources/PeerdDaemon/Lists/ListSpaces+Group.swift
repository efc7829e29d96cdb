import Logging
import PeerdModel
import PeerdSecurity
import ServiceLifecycle

/// What the group's membership does to its lists: a key removed from the group is removed from
/// every list held here that it is on (proto/PEER.md, "Lists"), and the machines a list goes to
/// may change with the profiles that live on them.
extension ListSpaces {
    func followGroup() async {
        for await membership in await group.membershipChanges().cancelOnGracefulShutdown() {
            sharingChanged()
            let removed = Set(membership.removals.compactMap(\.step.peer))
            guard !removed.isEmpty else { continue }
            for (id, service) in lists {
                await removeFromList(removed, service: service, id: id)
            }
        }
    }

    /// Removes from the list `service` holds those of `removed` still on it, as a member living here
    /// who is on the list; nothing when none is.
    private func removeFromList(_ removed: Set<PeerID>, service: ReplicaService, id: ListID) async {
        let replica = await service.groupSnapshot
        let stale = replica.listMembers.intersection(removed)
        guard !stale.isEmpty, let author = await hostedMember(of: replica) else { return }
        do {
            try await ActingMember.$current.withValue(author) {
                try await write(stale.sorted().map { .member(replica.removal(of: $0)) }, in: service)
            }
            logger.notice("removed from a list members the group removed", metadata: ["list": "\(id.short)"])
        } catch {
            logger.warning("could not remove from a list members the group removed", metadata: ["error": "\(error)"])
        }
    }

    /// A member of the list who lives here and can sign: this machine's own, else one of its profiles.
    func hostedMember(of replica: Replica) async -> Replica.Author? {
        let group = await self.group.groupSnapshot
        let members = replica.listMembers
        if members.contains(identity.peer) { return group.machine }
        let profiles = group.membership.profiles.filter { $0.value == identity.peer }.keys.sorted()
        return profiles.first(where: members.contains).map {
            Replica.Author(id: $0, name: group.list.names.plainName(of: $0) ?? $0.short)
        }
    }
}
