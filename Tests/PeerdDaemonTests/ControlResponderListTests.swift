import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// The envelope's list in the responder (proto/CONTROL.md, "Lists"), before any list exists: a
/// request of a list that names one this machine doesn't hold is refused in ``ListSpaces``' words
/// and writes nothing; the group's requests ignore the list.
@Suite("The control responder's lists")
struct ControlResponderListTests {
    static let matrix = Movie(id: MovieID(603)!, title: "The Matrix", year: 1999)

    @Test(arguments: [
        ControlRequest(AddRequest(movie: matrix), list: "nowhere"),
        ControlRequest(MarkRequest(movie: matrix, marks: [Mark(kind: .want)]), list: "nowhere"),
        ControlRequest(ListRequest(limit: nil, after: nil), list: "nowhere"),
        ControlRequest(StatusRequest(), list: "nowhere"),
        ControlRequest(HistoryRequest(), list: "nowhere"),
    ])
    func aRequestOfAListThisMachineDoesNotHoldIsRefusedAndWritesNothing(request: ControlRequest) async throws {
        try await ControlResponderTests().withResponder { responder, store, _ in
            guard case .error(let error) = await responder.respond(to: request) else {
                Issue.record("\(request.type) on a list that isn't here is refused")
                return
            }
            #expect(error.code == .badRequest)
            #expect(error.message.contains("nowhere"))
            #expect(store.operations.isEmpty)
        }
    }

    @Test func theGroupsRequestsIgnoreTheList() async throws {
        try await ControlResponderTests().withResponder { responder, _, _ in
            guard case .members = await responder.respond(to: ControlRequest(MembersRequest(), list: "nowhere")),
                case .peers = await responder.respond(to: ControlRequest(PeersRequest(), list: "nowhere")),
                case .lists = await responder.respond(to: ControlRequest(ListsRequest(), list: "nowhere"))
            else {
                Issue.record("members, peers and lists are the group's, whatever list the request names")
                return
            }
        }
    }

    @Test func theFollowOfAListThisMachineDoesNotHoldIsRefused() async throws {
        try await ControlResponderTests().withResponder { responder, _, _ in
            let follow = await responder.changes(for: ControlRequest(FollowRequest(), list: "nowhere"))
            guard case .failure(let error) = follow else {
                Issue.record("no stream of a list that isn't here")
                return
            }
            #expect(error.code == .badRequest && error.message.contains("nowhere"))
            guard case .success = await responder.changes(for: ControlRequest(FollowRequest())) else {
                Issue.record("the group's list is followed")
                return
            }
        }
    }

    @Test func theGroupsOwnListTakesNoListMembers() async throws {
        try await ControlResponderTests().withResponder { responder, store, _ in
            let change = ListMemberRequest(list: "", member: "alice", action: .add)
            #expect(await responder.respond(to: change) == .error(WireError(.badRequest, ListsDesk.groupsOwn)))
            #expect(store.operations.isEmpty)
        }
    }

    @Test func aListOfSomeoneTheGroupDoesNotKnowIsRefusedNamingThem() async throws {
        try await ControlResponderTests().withResponder { responder, store, _ in
            let create = ListCreateRequest(name: "friends", members: ["zoe"])
            guard case .error(let error) = await responder.respond(to: create) else {
                Issue.record("zoe is nobody here")
                return
            }
            #expect(error.code == .badRequest && error.message.contains("'zoe'"))
            #expect(store.operations.isEmpty)
        }
    }
}
