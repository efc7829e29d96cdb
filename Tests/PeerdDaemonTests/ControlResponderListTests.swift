import Logging
import PeerdModel
import PeerdSecurity
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

    /// A list's service as ``ListSpaces`` would hold it, empty.
    static func friends() throws -> ReplicaService {
        let identity = try PeerIdentity.generate(name: "alice")
        return ReplicaService(
            replica: Replica(id: identity.peer, name: "alice", list: ListID("5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b")!),
            identity: identity,
            store: MemoryStore(),
            logger: Logger(label: "test")
        )
    }

    @Test func statusOnAListCountsThatListAndNamesIt() async throws {
        try await ControlResponderTests().withResponder { responder, _, _ in
            _ = await responder.respond(to: AddRequest(movie: Self.matrix))
            let friends = try Self.friends()
            let onFriends = await ActingList.$current.withValue(friends) { await responder.status() }
            #expect(onFriends.list == friends.listID && onFriends.movies == 0)
            let onTheGroups = await responder.status()
            #expect(onTheGroups.list == nil && onTheGroups.movies == 1)
        }
    }

    @Test func aFileImportedIntoAListHasAJournalOfItsOwn() throws {
        let batch = ImportBatch(id: String(repeating: "ab", count: 32), rows: [ImportRow(line: 1, tmdb: 603)])
        let friends = try Self.friends()
        let onFriends = ActingList.$current.withValue(friends) { ImportDesk.journal(of: batch) }
        #expect(onFriends == batch.id + "-list-5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b")
        #expect(ImportDesk.journal(of: batch) == batch.id)
    }
}
