import PeerdModel
import PeerdSecurity
import PeerdWire

/// Profiles: members who live on this machine (proto/CONTROL.md, "Profiles"). Making one records
/// its admission in the group's log, so every peer knows it and where it lives; removing one is
/// `removeMember`, as for any member.
extension MemberDesk {
    /// This machine's own member, then the profiles that live here, as `members` shows them.
    func profiles() async -> ControlResponse {
        let snapshot = await replica.groupSnapshot
        let names = await roster.names(in: snapshot)
        let connected = await directory.connectedPeers
        let keys = await profiles?.profiles.map(\.identity.peer) ?? []
        let records = ([roster.machine] + keys).map { peer in
            record(of: peer, in: snapshot.membership, names: names, connected: connected.contains(peer))
        }
        return .members(MembersRecord(members: records))
    }

    /// Makes a profile named `name`: a key of its own, kept here, and its admission by this machine.
    func addProfile(_ name: String) async -> ControlResponse {
        guard let profiles else { return .error(WireError(.unavailable, "this peerd keeps no profiles")) }
        let snapshot = await replica.groupSnapshot
        if let refusal = await refusal(ofProfile: name, in: snapshot) { return .error(WireError(.badRequest, refusal)) }
        do {
            let peer = try await profiles.add(named: name)
            let written = try await replica.write(
                [.member(.admit(peer, via: .profile, name: name))],
                at: Wallclock.millis()
            )
            let names = await roster.names(in: written.after)
            return .profileAdded(record(of: peer, in: written.after.membership, names: names, connected: false))
        } catch let error as ReplicaService.Failure {
            return .error(ReplicaService.wireError(error))
        } catch {
            return .error(WireError(.internal, "could not save the profile's key: \(error)"))
        }
    }

    /// Why no profile named `name` can be made now, or nil.
    private func refusal(ofProfile name: String, in snapshot: Replica) async -> String? {
        if ActingMember.current != nil { return "a profile makes no profiles; run it without --profile" }
        if let removal = snapshot.membership.removal(of: roster.machine) {
            return "this peerd was \(removal.removedWords); it makes no profiles"
        }
        if name.isEmpty || name.unicodeScalars.count > 64 || name.first?.isWhitespace == true
            || name.last?.isWhitespace == true
        {
            return "a profile's name is 1 to 64 characters, without spaces around it"
        }
        if await profiles?.named(name) != nil { return "\(name) lives on this machine already" }
        let names = await roster.names(in: snapshot)
        if let taken = names.members.first(where: { names.plainName(of: $0) == name }) {
            return "a member called \(name) is in the group already (\(taken.short)); pick another name"
        }
        return nil
    }

    /// The member a request's `profile` names: a profile living here (nil for this machine's own
    /// member, by its name or id), or why it names none.
    func acting(_ words: String) async -> Result<Replica.Author?, WireError> {
        let snapshot = await replica.groupSnapshot
        if words == roster.machineName || words == roster.machine.rawValue { return .success(nil) }
        guard let profile = await profiles?.profile(words) else {
            return .failure(
                WireError(
                    .badRequest,
                    "no profile '\(words)' lives on this peerd; `peerctl profile list` shows those that do, "
                        + "`peerctl profile add \(words)` makes one"
                )
            )
        }
        let peer = profile.identity.peer
        return .success(Replica.Author(id: peer, name: snapshot.list.names.plainName(of: peer) ?? profile.name))
    }
}
