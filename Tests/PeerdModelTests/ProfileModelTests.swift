import PeerdModel
import Testing

/// proto/PEER.md "Profiles": a profile is a member of its own origin, admitted by the machine it
/// lives on, named by that admission until it makes something.
@Suite struct ProfileModelTests {
    let alice = Peers.alice
    let sam = PeerID("5a0000000000000000000000000000a1")!

    @Test func aProfilesDraftIsItsOwnOperationAndItsMarksAreNotTheMachines() throws {
        var replica = Replica(id: alice, name: "alice")
        let admit = try replica.stage(.member(.admit(sam, via: .profile, name: "sam")), at: 1)
        _ = replica.commit([admit])
        #expect(replica.membership.home(of: sam) == alice)
        #expect(replica.membership.profiles == [sam: alice])
        #expect(replica.list.names.name(of: sam) == "sam")

        let author = Replica.Author(id: sam, name: "sam")
        guard
            case .operation(let want) = try replica.draft(
                .mark(Movie(id: movieID(550)), Mark(kind: .want)),
                at: 2,
                by: author
            )
        else { throw NothingToStage() }
        #expect(want.id == OperationID(origin: sam, seq: 1))
        #expect(want.by == "sam")
        replica.stage(local: want)
        _ = replica.commit([want])
        #expect(replica.list.marks.mark(.want, of: sam, on: movieID(550)) == Mark(kind: .want))
        #expect(replica.list.marks.mark(.want, of: alice, on: movieID(550)) == nil)
        // The machine's own chain goes on where it was.
        let add = try replica.stage(.add(Movie(id: movieID(550))), at: 3)
        #expect(add.id == OperationID(origin: alice, seq: 2))
    }

    @Test func aProfileAdmitsNobodyAndARemovedProfileMakesNothing() throws {
        var replica = Replica(id: alice, name: "alice")
        _ = replica.commit([try replica.stage(.member(.admit(sam, via: .profile, name: "sam")), at: 1)])
        let author = Replica.Author(id: sam, name: "sam")
        let kim = PeerID("c1000000000000000000000000000002")!
        #expect(throws: Replica.LocalRefusal.invalid("a profile admits nobody")) {
            try replica.draft(.member(.admit(kim, via: .profile, name: "kim")), at: 2, by: author)
        }
        _ = replica.commit([try replica.stage(.member(replica.removal(of: sam)), at: 3)])
        #expect(throws: Replica.LocalRefusal.self) {
            try replica.draft(.add(Movie(id: movieID(13))), at: 4, by: author)
        }
    }
}
