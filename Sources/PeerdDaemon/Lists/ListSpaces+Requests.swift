package import PeerdModel
import PeerdSecurity
package import PeerdWire

/// What people ask of lists: which there are, a new one, who is on one.
extension ListSpaces {
    /// The name the group's own list goes by.
    static let groupName = "group"

    /// The list `nameOrID` names (a list's name, its id or 8 or more of the id's first digits): nil
    /// for the group's own (`group`, or nothing named).
    package func resolve(_ nameOrID: String?) async throws(Refusal) -> ReplicaService? {
        guard let words = nameOrID, !words.isEmpty, words != Self.groupName
        else { return nil }
        if let id = ListID(words), let service = lists[id] {
            try await checkOnList(service, words: words)
            return service
        }
        var named: [ReplicaService] = []
        for (id, service) in lists.sorted(by: { $0.key < $1.key }) {
            let name = await service.groupSnapshot.listDefinition?.name
            if name == words || (words.count >= 8 && id.rawValue.hasPrefix(words.lowercased())) {
                named.append(service)
            }
        }
        guard named.count <= 1 else {
            throw Refusal(
                "\(named.count) lists are called \(words); name one by its id (`peerctl lists --json` shows them)"
            )
        }
        guard let service = named.first else {
            throw Refusal("there is no list called \(words); `peerctl lists` shows the lists there are")
        }
        try await checkOnList(service, words: words)
        return service
    }

    /// Refuses a request acting for a member not on the list: a list is its members' (a device
    /// linked to sam reads only sam's lists), though this machine holds it for another member.
    private func checkOnList(_ service: ReplicaService, words: String) async throws(Refusal) {
        let machine = await group.groupSnapshot.machine
        let author = ActingMember.current ?? machine
        let replica = await service.groupSnapshot
        guard !replica.listMembers.contains(author.id) else { return }
        if replica.membership.removal(of: author.id) != nil { return }  // to be told so by the write
        throw Refusal("\(author.name) is not on \(words); `peerctl lists` shows who is on each list")
    }

    /// Every list this machine holds, the group's first, then the others by name.
    package func records() async -> [ListRecord] {
        let group = await self.group.groupSnapshot
        let names = group.list.names
        let removed = Set(group.membership.removals.compactMap(\.step.peer))
        let everyone = group.groupKeys.subtracting(removed).sorted().map {
            ListMember(peer: $0, name: names.plainName(of: $0))
        }
        var records = [
            ListRecord(id: nil, name: Self.groupName, isDefault: true, members: everyone, movies: group.list.count)
        ]
        let homes = group.membership.profiles
        for (id, service) in lists {
            let replica = await service.groupSnapshot
            // A list a peer opened here that sent nothing yet is no list to show.
            guard replica.listDefinition != nil else { continue }
            let members = replica.listMembers.sorted()
            records.append(
                ListRecord(
                    id: id,
                    name: replica.listDefinition?.name ?? "list \(id.short)",
                    isDefault: false,
                    members: members.map { ListMember(peer: $0, name: names.plainName(of: $0)) },
                    movies: replica.list.count,
                    maxCertification: replica.listDefinition?.maxCertification,
                    held: members.contains { (homes[$0] ?? $0) == identity.peer }
                )
            )
        }
        return [records[0]] + records.dropFirst().sorted { ($0.name, $0.id!) < ($1.name, $1.id!) }
    }

    /// The record of list `id` as ``records()`` shows it.
    func record(of id: ListID) async -> ListRecord? {
        await records().first { $0.id == id }
    }
}
