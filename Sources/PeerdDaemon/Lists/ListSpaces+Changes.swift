import Logging
package import PeerdModel
import PeerdSecurity
package import PeerdWire

/// Making a list, and putting members on it or taking them off: signed operations in the list
/// itself (proto/PEER.md, "Lists"), made by the member the request acts for (``ActingMember``).
extension ListSpaces {
    /// Makes a list named `name` of `members` and the member the request acts for, with a ceiling
    /// when given; returns it as `lists` shows it.
    package func create(name: String, members: [PeerID], maxCertification: String?) async throws -> ListRecord {
        let group = await self.group.groupSnapshot
        let author = ActingMember.current ?? group.machine
        for (_, service) in lists where await service.groupSnapshot.listDefinition?.name == name {
            throw Refusal("there is a list called \(name) already; choose another name")
        }
        try checkInGroup(members, group: group)
        let (id, nonce) = ListID.fresh(by: author.id)
        let definition = ListDefinition(name: name, nonce: nonce, maxCertification: maxCertification)
        if let reason = definition.invalidReason { throw Refusal(reason) }
        let service = try await open(id, named: group.name)
        let others = Set(members).subtracting([author.id]).sorted()
        let admissions = others.map { peer in
            Replica.LocalRequest.member(.admit(peer, via: .list, name: group.list.names.plainName(of: peer)))
        }
        try await write([.defineList(definition)] + admissions, in: service)
        logger.notice("made a list", metadata: ["list": "\(id.short)", "members": "\(others.count + 1)"])
        return await record(of: id)!
    }

    /// Puts `member` on list `id`, or takes them off it; returns the list as `lists` shows it.
    package func change(_ id: ListID, member: PeerID, adding: Bool) async throws -> ListRecord {
        guard let service = lists[id] else { throw Refusal("this machine holds no list \(id.short)") }
        let group = await self.group.groupSnapshot
        let replica = await service.groupSnapshot
        let name = group.list.names.name(of: member)
        let listName = replica.listDefinition?.name ?? id.short
        if adding {
            try checkInGroup([member], group: group)
            guard !replica.listMembers.contains(member) else { throw Refusal("\(name) is on \(listName) already") }
            try await write(
                [.member(.admit(member, via: .list, name: group.list.names.plainName(of: member)))],
                in: service
            )
        } else {
            guard replica.listMembers.contains(member) else { throw Refusal("\(name) is not on \(listName)") }
            try await write([.member(replica.removal(of: member))], in: service)
        }
        return await record(of: id)!
    }

    /// Refuses keys that are not members of the group now: a list's members are the group's.
    func checkInGroup(_ members: [PeerID], group: Replica) throws(Refusal) {
        let removed = Set(group.membership.removals.compactMap(\.step.peer))
        for member in members where !group.groupKeys.contains(member) || removed.contains(member) {
            throw Refusal("\(group.list.names.name(of: member)) is not a member of the group")
        }
    }

    /// Writes `requests` in the list `service` holds, signing with the keys the group's service has.
    func write(_ requests: [Replica.LocalRequest], in service: ReplicaService) async throws {
        await service.adopt(signers: await group.signerKeys)
        _ = try await ActingList.$current.withValue(nil) { try await service.write(requests, at: Wallclock.millis()) }
        sharingChanged()
    }
}
