import PeerdModel
import PeerdWire

/// Members by the words people use for them: name, id, unique id prefix or `me`
/// (``MemberNames/resolve(_:me:)``), among those whose operations name them and the paired ones
/// by the names they gave. Every desk that takes members' names asks here.
struct MemberRoster: Sendable {
    let trust: TrustService
    /// This machine's own member, and the name it goes by.
    let machine: PeerID
    let machineName: String

    init(trust: TrustService, me: PeerID, myName: String) {
        (self.trust, machine, machineName) = (trust, me, myName)
    }

    /// The member the request acts for (``ActingMember``): a profile of this machine, or its own.
    var me: PeerID { ActingMember.current?.id ?? machine }
    var myName: String { ActingMember.current?.name ?? machineName }

    /// The members `names` names, in order, or why one names nobody.
    func resolve(_ names: [String], in snapshot: Replica) async -> Result<[PeerID], WireError> {
        let known = await self.names(in: snapshot)
        var members: [PeerID] = []
        for name in names {
            switch known.resolve(name, me: me) {
            case .success(let member): members.append(member)
            case .failure(let refusal): return .failure(WireError(.badRequest, refusal.message))
            }
        }
        return .success(members)
    }

    /// Every member's name: those the operations give, then this daemon's own and the paired ones'.
    func names(in snapshot: Replica) async -> MemberNames {
        var known = snapshot.list.names
        known.introduce(machine, as: machineName)
        if let acting = ActingMember.current { known.introduce(acting.id, as: acting.name) }
        for member in await trust.members() { known.introduce(member.peer, as: member.name ?? member.peer.short) }
        return known
    }
}
