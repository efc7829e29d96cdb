/// Who the group's members are called: each origin's name as its newest operation gives it (`by`),
/// the same on every replica with the same operations. Two members may share a name; then each
/// is shown with its short id, `alice (3f2a9c1e)`.
package struct MemberNames: Sendable {
    private var names: [PeerID: (key: OrderKey, name: String)] = [:]
    /// How many members go by each name.
    private var sharing: [String: Int] = [:]

    package init() {}

    /// Notes the name `operation` gives its origin, if it is the origin's newest.
    package mutating func note(_ operation: Operation) {
        note(operation.by, of: operation.id.origin, at: operation.orderKey)
        // A profile is named by its admission until it makes something: lamport 0 ranks below all of
        // its own operations, and the admission's id keeps the rank the same on every replica.
        if let step = operation.member, step.action == .admit, step.via == .profile, let peer = step.peer,
            let name = step.name
        {
            note(name, of: peer, at: OrderKey(lamport: 0, origin: operation.id.origin, seq: operation.id.seq))
        }
    }

    /// Names `member` as `name` unless an operation of theirs names them: a member paired but
    /// silent so far (who can be named in a watch before they made anything).
    package mutating func introduce(_ member: PeerID, as name: String) {
        note(name, of: member, at: OrderKey(lamport: 0, origin: member, seq: 0))
    }

    /// Every member with a name, by id.
    package var members: [PeerID] { names.keys.sorted() }

    /// The name to show for `member`: its own, with its short id when another member shares it;
    /// the short id alone for a member no operation named (one a watch named, say).
    package func name(of member: PeerID) -> String {
        guard let name = names[member]?.name else { return member.short }
        return sharing[name, default: 0] > 1 ? "\(name) (\(member.short))" : name
    }

    /// Whether more than one member goes by `name`.
    package func isShared(_ name: String) -> Bool { sharing[name, default: 0] > 1 }

    /// The name `member` gave itself, without an id.
    package func plainName(of member: PeerID) -> String? { names[member]?.name }

    /// One member's name and the place in the list's order of the operation that gave it.
    package struct Part: Hashable, Sendable {
        package var member: PeerID
        package var key: OrderKey
        package var name: String

        package init(member: PeerID, key: OrderKey, name: String) {
            self.member = member
            self.key = key
            self.name = name
        }
    }

    /// Every name, in parts (``ReplicaParts``).
    var parts: [Part] { names.map { Part(member: $0.key, key: $0.value.key, name: $0.value.name) } }

    /// Takes every name of `parts` that is newer than the one held.
    mutating func restore(_ parts: [Part]) {
        for part in parts { note(part.name, of: part.member, at: part.key) }
    }

    package func merged(with other: MemberNames) -> MemberNames {
        var result = self
        for (member, named) in other.names { result.note(named.name, of: member, at: named.key) }
        return result
    }

    private mutating func note(_ name: String, of member: PeerID, at key: OrderKey) {
        if let current = names[member] {
            guard current.key < key else { return }
            if current.name == name {
                names[member]!.key = key
                return
            }
            sharing[current.name]! -= 1
            if sharing[current.name] == 0 { sharing[current.name] = nil }
        }
        names[member] = (key, name)
        sharing[name, default: 0] += 1
    }
}
