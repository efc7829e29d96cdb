import PeerdModel
import PeerdWire

/// The group's lists as requests name them: which list a request's `inList` is (``space(_:)``),
/// which lists there are (`lists`), making one (`listCreate`) and changing who is on one
/// (`listMember`), in the words of ``ListSpaces`` (proto/CONTROL.md, "Lists"). A list's movies,
/// marks and picks are the other desks', bound to the list by ``ActingList``.
struct ListsDesk: Sendable {
    let spaces: ListSpaces
    /// The group's own list, whose members a list's are.
    let replica: ReplicaService
    let roster: MemberRoster

    /// The service of the list `words` names (a name, an id or its first 8 digits): nil for the
    /// group's own, when `words` is nil or names it.
    func space(_ words: String?) async -> Result<ReplicaService?, WireError> {
        do throws(ListSpaces.Refusal) {
            return .success(try await spaces.resolve(words))
        } catch {
            return .failure(WireError(.badRequest, error.words))
        }
    }

    func lists() async -> ControlResponse {
        let names = await roster.names(in: await replica.groupSnapshot)
        return .lists(await spaces.records().map { Self.named($0, by: names) })
    }

    /// `record` with a name for each member the operations have not named yet: a paired machine
    /// that has made nothing goes by the name it gave.
    static func named(_ record: ListRecord, by names: MemberNames) -> ListRecord {
        var record = record
        for index in record.members.indices where record.members[index].name == nil {
            record.members[index].name = names.plainName(of: record.members[index].peer)
        }
        return record
    }

    /// Makes the list `request` describes, of the members it names (the acting member is on it too).
    func create(_ request: ListCreateRequest) async -> ControlResponse {
        let members: [PeerID]
        switch await roster.resolve(request.members, in: await replica.groupSnapshot) {
        case .success(let found): members = found
        case .failure(let error): return .error(error)
        }
        return await answer(ControlResponse.listCreated) {
            try await spaces.create(
                name: request.name,
                members: members,
                maxCertification: request.maxCertification
            )
        }
    }

    /// Puts the member `request` names on its list, or takes them off it.
    func change(_ request: ListMemberRequest) async -> ControlResponse {
        let list: ListID
        switch await space(request.list) {
        case .failure(let error): return .error(error)
        case .success(let service):
            guard let id = service?.listID else { return .error(WireError(.badRequest, Self.groupsOwn)) }
            list = id
        }
        let member: PeerID
        switch await roster.resolve([request.member], in: await replica.groupSnapshot) {
        case .success(let found): member = found[0]
        case .failure(let error): return .error(error)
        }
        return await answer(ControlResponse.listChanged) {
            try await spaces.change(list, member: member, adding: request.action == .add)
        }
    }

    static let groupsOwn =
        "the group's own list is every member's; `peerctl invite` brings someone into the group, "
        + "`peerctl members remove NAME` takes them out"

    /// `made`'s list as `response` tells it, or why it could not be made.
    private func answer(
        _ response: (ListRecord) -> ControlResponse,
        _ made: () async throws -> ListRecord
    ) async -> ControlResponse {
        do {
            let names = await roster.names(in: await replica.groupSnapshot)
            return response(Self.named(try await made(), by: names))
        } catch let refusal as ListSpaces.Refusal {
            return .error(WireError(.badRequest, refusal.words))
        } catch {
            return .error(ReplicaService.wireError(error))
        }
    }
}
