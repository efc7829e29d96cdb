import PeerdModel
import Testing

/// proto/PEER.md "Lists": a list's members are its creator and those admitted to it; what a key not
/// on it makes waits until its admission is held; the group's settings are not a list's.
@Suite struct ListModelTests {
    let list = ListID("f00d0000000000000000000000000001")!
    let nonce = "00000000000000000000000000000abc"

    /// alice's replica of the list after she made it with carol on it.
    func made() throws -> (Replica, [Operation]) {
        var alice = Replica(id: Peers.alice, name: "alice", list: list)
        let made = try alice.draft(
            whole: [
                .defineList(ListDefinition(name: "friends", nonce: nonce)),
                .member(.admit(Peers.carol, via: .list, name: "carol")),
            ],
            at: epoch
        )
        let operations = made.compactMap { draft -> Operation? in
            if case .operation(let op) = draft { op } else { nil }
        }
        for op in operations { alice.stage(local: op) }
        _ = alice.commit(operations)
        return (alice, operations)
    }

    @Test func theCreatorAndThoseAdmittedAreOnTheList() throws {
        let (alice, _) = try made()
        #expect(alice.creator == Peers.alice)
        #expect(alice.listMembers == [Peers.alice, Peers.carol])
        #expect(alice.listDefinition?.name == "friends")
    }

    @Test func whatAKeyNotOnTheListMakesWaitsForItsAdmission() throws {
        let (alice, creation) = try made()
        var carol = Replica(id: Peers.carol, name: "carol", list: list)
        _ = carol.commit(try carol.admit(creation))
        // bob was put on the list by carol, and wrote at once; alice hears bob first.
        let admitBob = try carol.stage(.member(.admit(Peers.bob, via: .list, name: "bob")), at: epoch + 1)
        _ = carol.commit([admitBob])
        var bob = Replica(id: Peers.bob, name: "bob", list: list)
        _ = bob.commit(try bob.admit(creation + [admitBob]))
        let bobsAdd = try bob.stage(.add(Movie(id: movieID(603))), at: epoch + 2)
        var heard = alice
        let early = try heard.admission([bobsAdd])
        #expect(early.fresh.isEmpty)
        #expect(early.waiting == [bobsAdd])
        _ = heard.commit(try heard.admit([admitBob]))
        let later = try heard.admission(early.waiting)
        #expect(later.fresh == [bobsAdd] && later.waiting.isEmpty)
    }

    @Test func aListRefusesTheGroupsSettingsAndStrangersAndTheGroupRefusesADefinition() throws {
        var (alice, _) = try made()
        #expect(throws: Replica.LocalRefusal.self) {
            try alice.draft(.settings(GroupSettings(region: "DE", services: [])), at: epoch)
        }
        let bob = Replica.Author(id: Peers.bob, name: "bob")
        #expect(throws: Replica.LocalRefusal.invalid("bob is not on this list")) {
            try alice.draft(.add(Movie(id: movieID(550))), at: epoch, by: bob)
        }
        _ = alice.commit([try alice.stage(.member(alice.removal(of: Peers.carol)), at: epoch + 3)])
        #expect(alice.listMembers == [Peers.alice])
        let carol = Replica.Author(id: Peers.carol, name: "carol")
        #expect(throws: Replica.LocalRefusal.invalid("carol was removed from this list by alice")) {
            try alice.draft(.add(Movie(id: movieID(550))), at: epoch, by: carol)
        }
        var group = Replica(id: Peers.alice, name: "alice")
        #expect(throws: Replica.LocalRefusal.invalid("a list is named in the list itself")) {
            try group.draft(.defineList(ListDefinition(name: "friends")), at: epoch)
        }
        _ = try group.stage(.add(Movie(id: movieID(13))), at: epoch)
    }

    @Test func aListsHistorySaysItsMembersJoinAndLeaveIt() throws {
        var (alice, creation) = try made()
        let removal = try alice.stage(.member(alice.removal(of: Peers.carol)), at: epoch + 3)
        func line(_ op: Operation) -> String {
            HistoryLine.text(of: op, name: Peers.name(of:), movie: "", kindName: nil, list: "friends")
        }
        #expect(line(creation[1]) == "alice admitted carol to friends")
        #expect(line(removal) == "alice removed carol from friends")
        #expect(
            HistoryLine.text(of: removal, name: Peers.name(of:), movie: "", kindName: nil)
                == "alice removed carol from the group"
        )
    }
}
