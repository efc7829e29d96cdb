import PeerdModel
import PeerdWire
import Testing

/// The control envelope's `inList` (proto/CONTROL.md, "Lists"): the list a request reads and writes.
@Suite("A control request's list")
struct ControlRequestListTests {
    private static func decode(_ body: String) throws -> ControlRequest {
        try WireCoding.decode(ControlRequest.self, from: Array(body.utf8))
    }

    private static func encode(_ request: ControlRequest) -> String {
        String(decoding: WireCoding.encode(request), as: UTF8.self)
    }

    @Test func aRequestNamesItsListBesideItsTypeAndComesBackTheSame() throws {
        let add = ControlRequest(AddRequest(movie: Movie(id: MovieID(603)!)), list: "friends")
        let body = Self.encode(add)
        #expect(body.contains(#""inList":"friends""#))
        #expect(try Self.decode(body) == add)
        #expect(try Self.decode(body) != ControlRequest(AddRequest(movie: Movie(id: MovieID(603)!))))
    }

    @Test func aRequestWithoutAListIsTheGroupsAndSaysNothingOfIt() throws {
        let body = Self.encode(ControlRequest(ListRequest(limit: nil, after: nil)))
        #expect(!body.contains("inList"))
        #expect(try Self.decode(body).list == nil)
    }

    @Test func discoversOwnListIsTMDBsAndTheEnvelopesIsOurs() throws {
        let request = try Self.decode(#"{"type":"discover","version":1,"inList":"kids","list":"top-rated"}"#)
        #expect(request.list == "kids")
        #expect((request.body as? DiscoverRequest)?.list.kind == .topRated)
        #expect(try Self.decode(Self.encode(request)) == request)
    }

    /// The group's requests ignore `inList`; every other request takes it, so one meant for a list
    /// never lands on the group's.
    @Test func onlyTheGroupsRequestsIgnoreTheList() {
        let groups = Set(ControlRequest.bodies.filter { !$0.takesList }.map { $0.tag })
        #expect(
            groups == [
                "peers", "connect", "invite", "join", "forget", "trust", "page", "diagnose", "members",
                "removeMember", "profiles", "addProfile", "genres", "services", "deviceLink", "deviceList",
                "deviceUnlink", "lists", "listCreate", "listMember", "news", "relay",
            ]
        )
        #expect(ControlRequest(AddRequest(movie: Movie(id: MovieID(603)!))).takesList)
        #expect(ControlRequest(FollowRequest()).takesList)
        #expect(!ControlRequest(MembersRequest()).takesList)
    }

    @Test func theListRequestsAndTheirAnswersComeBackTheSame() throws {
        let create = ControlRequest(ListCreateRequest(name: "kids", members: ["bob", "sam"], maxCertification: "PG"))
        #expect(try Self.decode(Self.encode(create)) == create)
        let change = ControlRequest(ListMemberRequest(list: "friends", member: "bob", action: .remove))
        #expect(Self.encode(change).contains(#""action":"remove""#))
        #expect(try Self.decode(Self.encode(change)) == change)
        #expect(!ControlRequest(ListCreateRequest(name: "kids", members: [])).allowedFromPage)
        #expect(ControlRequest(ListsRequest()).allowedFromPage)

        let alice = ListMember(peer: PeerID("e47d41781ad71e3c12901eaf77360415")!, name: "alice")
        let friends = ListRecord(
            id: ListID("5f3c1a9e0b7d4c2e8a6f1b3d5c7e9a0b"),
            name: "friends",
            isDefault: false,
            members: [alice],
            movies: 3
        )
        for response in [ControlResponse.lists([friends]), .listCreated(friends), .listChanged(friends)] {
            let body = WireCoding.encode(response)
            #expect(try WireCoding.decode(ControlResponse.self, from: body) == response)
        }
    }
}
