import PeerdModel
import PeerdWeb
import PeerdWire

/// The group's members: who is in, who let each in and how, who was removed (`members`), and the
/// removal of a member for the whole group (`removeMember`, and `forget`, which now does the same).
/// The control socket and the page ask here (proto/CONTROL.md, "members").
struct MemberDesk: Sendable {
    let replica: ReplicaService
    let trust: TrustService
    let directory: PeerDirectory
    let roster: MemberRoster
    /// The profiles living here; nil where this daemon keeps none (a test's responder).
    var profiles: ProfileBook?
    /// Linked devices; nil with `--no-devices`.
    var devices: DeviceLedger?

    /// Everyone the group's log and this daemon's trust list know, members first, each by name.
    func members() async -> ControlResponse {
        let snapshot = await replica.groupSnapshot
        let names = await roster.names(in: snapshot)
        let connected = await directory.connectedPeers
        let keys = snapshot.groupKeys.union(await trust.members().map(\.peer)).union([roster.me])
        let records = keys.map { peer in
            var record = record(of: peer, in: snapshot.membership, names: names, connected: connected.contains(peer))
            record.since = record.since ?? snapshot.operation(from: peer, seq: 1)?.at
            return record
        }
        let secretClosed = await trust.group.secretAdmits ? nil : GroupKeeper.secretClosed
        return .members(MembersRecord(members: records.sorted(by: Self.order), secretClosed: secretClosed))
    }

    /// Removes the member `query` names from the whole group: a `member` removal naming how far this
    /// daemon had seen its chain.
    func remove(_ query: String) async -> ControlResponse {
        let snapshot = await replica.groupSnapshot
        let peer: PeerID
        switch await roster.resolve([query], in: snapshot) {
        case .success(let found): peer = found[0]
        case .failure(let error): return .error(error)
        }
        guard peer != roster.machine else {
            return .error(WireError(.badRequest, "that is this peerd itself; another member can remove it"))
        }
        // A machine's profiles go with it: it holds their keys.
        let homed = snapshot.membership.profiles.filter {
            $0.value == peer && snapshot.membership.removal(of: $0.key) == nil
        }
        let removals = ([peer] + homed.keys.sorted()).map { Replica.LocalRequest.member(snapshot.removal(of: $0)) }
        // Its sessions close with `removed` once the removal is committed: ``GroupKeeper`` closes every
        // removed key's, whoever made the removal. Counted here, before.
        let closed = await directory.connectedPeers.contains(peer) ? 1 : 0
        do {
            let written = try await replica.write(removals, at: Wallclock.millis())
            // Their devices are out before the answer: ``GroupKeeper`` unlinks them too, but only once
            // the membership change reaches it, which can be after the answer (proto/WEB.md, "Devices").
            let gone = Set([peer] + homed.keys)
            await devices?.unlinkMembers(why: "its member was removed from the group") {
                $0.map(gone.contains) ?? false
            }
            guard case .membersChanged(let op) = written.made.first, let removal = op.member else {
                return .error(WireError(.internal, "a removal made no member operation"))
            }
            let trusted = await trust.name(of: peer)
            let name = written.after.list.names.plainName(of: peer) ?? trusted
            return .memberRemoved(MemberRemovedRecord(peer: peer, name: name, seen: removal.seen ?? 0, closed: closed))
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }

    func record(of peer: PeerID, in membership: Membership, names: MemberNames, connected: Bool)
        -> MemberRecord
    {
        let removal = membership.removal(of: peer)
        var record = MemberRecord(
            peer: peer,
            name: names.plainName(of: peer),
            here: peer == roster.me,
            state: removal == nil ? .member : .removed,
            connected: connected
        )
        if let admission = membership.admission(of: peer) {
            record.admittedBy = admission.id.origin
            record.admittedByName = names.plainName(of: admission.id.origin) ?? admission.by
            record.via = admission.step.via
            record.since = admission.at
        }
        if let removal {
            record.removedBy = removal.id.origin
            record.removedByName = names.plainName(of: removal.id.origin) ?? removal.by
            record.removedAt = removal.at
            record.seen = removal.step.seen
        }
        return record
    }

    /// Members before removed ones; this daemon first among members; then by name and id.
    private static func order(_ a: MemberRecord, _ b: MemberRecord) -> Bool {
        if a.state != b.state { return a.state == .member }
        if a.here != b.here { return a.here }
        return (a.name ?? "~", a.peer) < (b.name ?? "~", b.peer)
    }
}
