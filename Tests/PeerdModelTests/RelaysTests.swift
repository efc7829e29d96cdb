import PeerdModel
import Testing

/// proto/PEER.md "Relays and reach": the group's relays and each peer's reach, their limits, and the
/// newest-wins rules every replica folds alike.
@Suite struct RelaysTests {
    static let relayA =
        "relay://198.51.100.10:22067/?id=MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD"
    static let relayB = "relay://203.0.113.7:22067/?id=AAAAAAA-BBBBBBB-CCCCCCC-DDDDDDD-EEEEEEE-FFFFFFF-GGGGGGG-HHHHHHH"
    static let device = "MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD"

    static func relays(_ urls: [String], by origin: PeerID, seq: UInt64 = 1, lamport: UInt64) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: epoch,
            by: Peers.name(of: origin),
            kind: .relays,
            movie: Operation.groupMovie,
            payload: .relays(GroupRelays(urls: urls))
        )
    }

    static func reach(_ addresses: [String], by origin: PeerID, seq: UInt64 = 1, lamport: UInt64) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: epoch,
            by: Peers.name(of: origin),
            kind: .reach,
            movie: Operation.groupMovie,
            payload: .reach(PeerReach(addresses: addresses.compactMap { PeerAddress($0) }, device: device))
        )
    }

    @Test func relaysAreKeptSortedAndOnce() {
        let relays = GroupRelays(urls: [Self.relayB, Self.relayA, Self.relayB])
        #expect(relays.urls == [Self.relayA, Self.relayB])
        #expect(relays.invalidReason == nil)
        #expect(relays.description == "198.51.100.10:22067, 203.0.113.7:22067")
        #expect(GroupRelays(urls: []).invalidReason == nil, "a group may have no relay")
    }

    @Test func relaysOutsideTheirLimitsAreRefused() {
        let nine = (1...9).map { "relay://10.0.0.\($0):22067/" }
        #expect(GroupRelays(urls: nine).invalidReason == "a group has at most 8 relays")
        let scheme = "a relay's URL starts with relay://, as strelaysrv prints it"
        #expect(GroupRelays(urls: ["http://198.51.100.10:22067/"]).invalidReason == scheme)
        #expect(GroupRelays(urls: ["relay://"]).invalidReason == scheme)
        #expect(GroupRelays(urls: [""]).invalidReason == "a relay's URL is 1 to 512 bytes")
        let long = "relay://" + String(repeating: "a", count: 505)
        #expect(GroupRelays(urls: [long]).invalidReason == "a relay's URL is 1 to 512 bytes")
        #expect(GroupRelays(urls: ["relay://host:22067/?id=a b"]).invalidReason?.contains("printable ASCII") == true)
        #expect(GroupRelays(urls: ["relay://hôst:22067/"]).invalidReason?.contains("printable ASCII") == true)
    }

    @Test func aReachOutsideItsLimitsIsRefused() {
        let seventeen = (1...17).map { PeerAddress(host: "10.0.0.\($0)", port: 7601) }
        #expect(PeerReach(addresses: seventeen, device: "").invalidReason == "a peer names at most 16 addresses")
        let sixteen = Array(seventeen.prefix(16))
        #expect(PeerReach(addresses: sixteen, device: Self.device).invalidReason == nil)
        let device = "a device id is up to 80 capital letters, digits and dashes"
        #expect(PeerReach(addresses: [], device: "mfzwi3d").invalidReason == device)
        #expect(PeerReach(addresses: [], device: String(repeating: "A", count: 81)).invalidReason == device)
        #expect(PeerReach(addresses: [], device: "").invalidReason == nil, "a peer with no relay device")
        let twice = [PeerAddress(host: "10.0.0.1", port: 7601), PeerAddress(host: "10.0.0.1", port: 7601)]
        #expect(PeerReach(addresses: twice, device: "").invalidReason == "a peer names each address once")
        let portless = [PeerAddress(host: "10.0.0.1", port: 0)]
        #expect(PeerReach(addresses: portless, device: "").invalidReason?.hasPrefix("an address is host:port") == true)
    }

    @Test func eachKindCarriesItsOwnPayloadAboutTheGroup() {
        var op = Self.relays([Self.relayA], by: Peers.alice, lamport: 1)
        #expect(op.invalidReason == nil && op.isAboutGroup)
        op.movie = Movie(id: movieID(603))
        #expect(op.invalidReason == #"relays is about the group: its movie is {"id":1}"#)
        op.movie = Operation.groupMovie
        op.payload = nil
        #expect(op.invalidReason == "a relays operation carries the group's relays")
        op.kind = .settings
        op.payload = .relays(GroupRelays(urls: []))
        #expect(op.invalidReason == "a settings operation carries the group's settings")
        op.kind = .add
        #expect(op.invalidReason == "only a relays operation carries relays")
        var reach = Self.reach(["192.168.1.20:7601"], by: Peers.bob, lamport: 1)
        #expect(reach.invalidReason == nil && reach.isAboutGroup)
        reach.payload = nil
        #expect(reach.invalidReason == "a reach operation carries how to reach its origin")
    }

    @Test func theNewestRelaysWinInEveryOrder() {
        let ops = [
            Self.relays([Self.relayA], by: Peers.bob, lamport: 3),
            Self.relays([Self.relayA, Self.relayB], by: Peers.alice, lamport: 4),
            Self.relays([], by: Peers.carol, lamport: 4),
            Self.relays([Self.relayB], by: Peers.alice, seq: 2, lamport: 2),
        ]
        let newest = ops[2]  // lamport 4, and carol's id sorts after alice's
        for order in permutations(of: ops) {
            var list = WatchList()
            for op in order { #expect(list.apply(op) == nil, "a relay changes no row") }
            #expect(list.relaysOperation == newest)
            #expect(list.relays == GroupRelays(urls: []))
            #expect(list == WatchList(applying: ops))
        }
        let early = WatchList(applying: Array(ops.prefix(2)))
        let late = WatchList(applying: Array(ops.suffix(2)))
        #expect(early.merged(with: late) == WatchList(applying: ops))
        #expect(late.merged(with: early).relaysOperation == newest)
        #expect(early != late)
        #expect(WatchList().relays == nil, "no member set any")
    }

    @Test func eachPeersNewestReachWinsInEveryOrder() {
        let ops = [
            Self.reach(["192.168.1.20:7601"], by: Peers.alice, lamport: 2),
            Self.reach(["192.168.1.21:7601", "[fd00::2]:7601"], by: Peers.alice, seq: 2, lamport: 5),
            Self.reach(["10.0.0.9:7601"], by: Peers.bob, lamport: 9),
        ]
        for order in permutations(of: ops) {
            let list = WatchList(applying: order)
            #expect(list.reachOperations == [Peers.alice: ops[1], Peers.bob: ops[2]])
            #expect(list == WatchList(applying: ops))
        }
        let alices = WatchList(applying: Array(ops.prefix(2)))
        let older = WatchList(applying: [ops[0], ops[2]])
        #expect(alices.merged(with: older).reachOperations == [Peers.alice: ops[1], Peers.bob: ops[2]])
        #expect(older.merged(with: alices) == alices.merged(with: older))
        #expect(older != WatchList(applying: ops))
    }

    @Test func aReplicaDraftsRelaysAndItsReachAboutTheGroup() throws {
        var alice = Replica(id: Peers.alice, name: "alice")
        let set = try alice.stage(.relays(GroupRelays(urls: [Self.relayA])), at: epoch)
        let told = try alice.stage(.reach(PeerReach(addresses: [], device: Self.device)), at: epoch)
        _ = alice.commit([set, told])
        #expect(set.kind == .relays && set.movie == Operation.groupMovie && set.invalidReason == nil)
        #expect(told.kind == .reach && told.movie == Operation.groupMovie && told.invalidReason == nil)
        #expect(alice.relays?.urls == [Self.relayA])
        #expect(alice.reach(of: Peers.alice)?.device == Self.device)
        #expect(alice.reaches == [Peers.alice: PeerReach(addresses: [], device: Self.device)])
        #expect(throws: Replica.LocalRefusal.invalid("a group has at most 8 relays")) {
            try alice.draft(.relays(GroupRelays(urls: (1...9).map { "relay://10.0.0.\($0):22067/" })), at: epoch)
        }
        #expect(throws: Replica.LocalRefusal.invalid("a peer names at most 16 addresses")) {
            let many = (1...17).map { PeerAddress(host: "10.0.0.\($0)", port: 7601) }
            _ = try alice.draft(.reach(PeerReach(addresses: many, device: "")), at: epoch)
        }
    }

    @Test func aProfileHasNoReachAndAListHasNeitherRelaysNorReach() throws {
        var alice = Replica(id: Peers.alice, name: "alice")
        let sam = Peers.newcomers[0]
        _ = alice.commit([try alice.stage(.member(.admit(sam, via: .profile, name: "sam")), at: epoch)])
        let reach = Replica.LocalRequest.reach(PeerReach(addresses: [], device: Self.device))
        #expect(throws: Replica.LocalRefusal.invalid("sam is a profile: it is reached through the machine it lives on"))
        {
            try alice.draft(reach, at: epoch, by: Replica.Author(id: sam, name: "sam"))
        }
        // A profile is a member: it may set the group's relays.
        _ = try alice.draft(.relays(GroupRelays(urls: [])), at: epoch, by: Replica.Author(id: sam, name: "sam"))
        let friends = Replica(id: Peers.alice, name: "alice", list: ListID("f00d0000000000000000000000000001")!)
        #expect(throws: Replica.LocalRefusal.invalid("the group's relays are set for the whole group")) {
            try friends.draft(.relays(GroupRelays(urls: [])), at: epoch)
        }
        #expect(throws: Replica.LocalRefusal.invalid("how to reach a machine is told to the whole group")) {
            try friends.draft(reach, at: epoch)
        }
    }

    @Test func aRemovedPeersReachIsNotListed() throws {
        var group = MemberGroup([Peers.alice, Peers.bob, Peers.carol])
        try group.make(Peers.bob, .reach(PeerReach(addresses: [PeerAddress(host: "10.0.0.2", port: 7601)], device: "")))
        try group.make(Peers.carol, .reach(PeerReach(addresses: [], device: Self.device)))
        group.settle()
        #expect(Set(group[Peers.alice].reaches.keys) == [Peers.bob, Peers.carol])
        try group.remove(Peers.carol, by: Peers.alice)
        #expect(Set(group[Peers.alice].reaches.keys) == [Peers.bob])
        #expect(group[Peers.alice].reach(of: Peers.carol) == nil)
        #expect(group[Peers.alice].reach(of: Peers.bob)?.addresses.map(\.description) == ["10.0.0.2:7601"])
    }

    @Test func historySaysWhatWasSetInWords() {
        let set = Self.relays([Self.relayA], by: Peers.alice, lamport: 1)
        #expect(
            HistoryLine.text(of: set, name: Peers.name(of:), movie: "", kindName: nil)
                == "alice set the group's relays to 198.51.100.10:22067"
        )
        let cleared = Self.relays([], by: Peers.alice, lamport: 2)
        #expect(
            HistoryLine.text(of: cleared, name: Peers.name(of:), movie: "", kindName: nil)
                == "alice took away the group's relays: it has none now"
        )
        let told = Self.reach(["192.168.1.20:7601", "[fd00::2]:7601"], by: Peers.bob, lamport: 1)
        #expect(
            HistoryLine.text(of: told, name: Peers.name(of:), movie: "", kindName: nil)
                == "bob's machine can be reached at 192.168.1.20:7601, [fd00::2]:7601 and through relays as MFZWI3D"
        )
    }
}

/// Every order of `items` (a handful: n! of them).
private func permutations<Element>(of items: [Element]) -> [[Element]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index in
        var rest = items
        let first = rest.remove(at: index)
        return permutations(of: rest).map { [first] + $0 }
    }
}
