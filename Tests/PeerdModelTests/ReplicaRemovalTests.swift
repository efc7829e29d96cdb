import PeerdModel
import Testing

/// What a removal does to a replica: what it drops, what it refuses to draft, and whether the group
/// secret still admits.
@Suite struct ReplicaRemovalTests {
    let alice = Peers.alice
    let bob = Peers.bob
    let carol = Peers.carol
    let oldSecret = MemberChains.secrets[0]
    let newSecret = MemberChains.secrets[1]

    @Test func aRemovalArrivingAfterTheVoidOperationsWereCommittedReportsTheRowsOnlyTheyMadeAsRemoved() throws {
        var group = MemberGroup([alice, bob, carol])
        try group.make(alice, .add(Movie(id: movieID(11), title: "Heat")))
        try group.make(carol, .add(Movie(id: movieID(550))))
        group.settle()
        let removal = try group.remove(carol, by: alice)
        try group.make(carol, .add(Movie(id: movieID(13), title: "Alien")))
        try group.make(carol, .add(Movie(id: movieID(11), title: "Heat")))
        group.pull(into: bob, from: carol)

        var bobs = group[bob]
        #expect(bobs.list.rows.map(\.movie.id) == [movieID(11), movieID(550), movieID(13)])
        _ = bobs.commit(try bobs.admit([removal]))
        let dropped = bobs.dropVoidOperations(cause: removal)
        let changes = try #require(dropped)

        #expect(changes.contains(.removed(Movie(id: movieID(13), title: "Alien"), by: removal)))
        let removed = changes.compactMap { change -> MovieID? in
            if case .removed(let movie, _) = change { movie.id } else { nil }
        }
        #expect(removed == [movieID(13)])
        #expect(bobs.list.row(for: movieID(11))?.addedBy.map(\.peer) == [alice])
        #expect(bobs.list.rows.map(\.movie.id) == [movieID(11), movieID(550)])
        #expect(bobs.vector[carol] == 1)
        let again = bobs.dropVoidOperations(cause: removal)
        #expect(again == nil, "nothing is void any more")
    }

    @Test func aReplicaDropsVoidOperationsWithoutReportingWhenNoCauseIsGiven() throws {
        var group = MemberGroup([alice, carol])
        try group.make(carol, .add(Movie(id: movieID(11))))
        group.pull(into: alice, from: carol)
        let removal = try group.remove(carol, by: alice)
        try group.make(carol, .add(Movie(id: movieID(13))))
        var observer = Replica(id: Peers.observers[0], name: "observer")
        _ = observer.replay(group[carol].operations(from: carol, seqs: 1...2) + [removal])
        #expect(observer.vector[carol] == 2)
        let changes = observer.dropVoidOperations(cause: nil)
        #expect(changes == [])
        #expect(observer.vector[carol] == 1)
        #expect(observer.list.rows.map(\.movie.id) == [movieID(11)])
    }

    /// Carol removes Alice without having seen alice/2; Bob, who holds alice/2, had already removed
    /// Carol, so Carol's removal never applies. Alice hears Carol first, then Bob.
    @Test func aReplicaKeepsItsOwnOperationsSoItNeverSignsTheirSeqsAgain() throws {
        var group = MemberGroup([alice, bob, carol])
        for key in [alice, bob, carol] { try group.make(key, .add(Movie(id: movieID(11)))) }
        group.settle()
        try group.make(alice, .add(Movie(id: movieID(13))))
        group.pull(into: bob, from: alice)
        try group.remove(carol, by: bob)
        try group.remove(alice, by: carol)

        group.pull(into: alice, from: carol)
        #expect(group[alice].membership.removal(of: alice) != nil)
        #expect(group[alice].vector[alice] == 2, "what Alice signed stays with her")
        group.pull(into: alice, from: bob)
        #expect(group[alice].membership.removal(of: alice) == nil)

        let next = try group.make(alice, .add(Movie(id: movieID(550))))
        #expect(next.id.seq == 3)
        group.settle()
        #expect(group[bob].vector == group[alice].vector)
        #expect(group[bob].list.rows == group[alice].list.rows)
        #expect(group[bob].list.rows.map(\.movie.id) == [movieID(11), movieID(13), movieID(550)])
    }

    @Test func removingYourselfIsRefused() {
        let replica = Replica(id: alice, name: "alice")
        #expect(throws: Replica.LocalRefusal.invalid("a member does not remove itself")) {
            try replica.draft(.member(.remove(alice, seen: 0)), at: epoch)
        }
    }

    @Test func removingAKeyRemovedAlreadyIsRefused() throws {
        var group = MemberGroup([alice, bob, carol])
        try group.make(carol, .add(Movie(id: movieID(11))))
        group.settle()
        try group.remove(carol, by: alice)
        group.pull(into: bob, from: alice)
        for key in [alice, bob] {
            let error = #expect(throws: Replica.LocalRefusal.self) {
                try group[key].draft(.member(group[key].removal(of: carol)), at: epoch)
            }
            guard case .invalid(let reason) = error else {
                Issue.record("expected .invalid, got \(String(describing: error))")
                continue
            }
            #expect(reason.contains("removed from the group by alice") && reason.hasSuffix("already"))
        }
    }

    /// Which keys are members to remove is the daemon's to say (its `MemberDesk` resolves only the
    /// keys it knows, its trust list's too, which the log may not hold yet): the model drafts it.
    @Test func removingAKeyTheLogNeverHeldIsLeftToTheDaemon() throws {
        var group = MemberGroup([alice, bob])
        try group.make(bob, .add(Movie(id: movieID(11))))
        group.pull(into: alice, from: bob)
        let stranger = Peers.newcomers[1]
        #expect(throws: Never.self) { try group[alice].draft(.member(.remove(stranger, seen: 0)), at: epoch) }
        // A key admitted but silent so far is a member, and a member's held key is too.
        try group.make(alice, .member(.admit(stranger, via: .invite, name: nil)))
        #expect(throws: Never.self) { try group[alice].draft(.member(.remove(stranger, seen: 0)), at: epoch) }
        #expect(throws: Never.self) { try group[alice].draft(.member(group[alice].removal(of: bob)), at: epoch) }
    }

    @Test func aRemovedReplicasOwnDraftThrowsRemovedFromGroup() throws {
        var group = MemberGroup([alice, carol])
        try group.make(carol, .add(Movie(id: movieID(11))))
        group.pull(into: alice, from: carol)
        let removal = try group.remove(carol, by: alice)
        group.pull(into: carol, from: alice)
        for request in [Replica.LocalRequest.add(Movie(id: movieID(11))), .member(.remove(alice, seen: 1))] {
            #expect(throws: Replica.LocalRefusal.removedFromGroup(Membership.removedWords(by: "alice", at: removal.at)))
            {
                try group[carol].draft(request, at: epoch)
            }
        }
    }

    @Test func theGroupSecretAdmitsUntilARemovalAndAgainOnlyOnceANewOneIsRecorded() throws {
        var group = MemberGroup([alice, bob, carol])
        #expect(group[alice].membership.secretAdmits(oldSecret))
        try group.make(alice, .member(.secret(oldSecret)))
        try group.make(carol, .add(Movie(id: movieID(11))))
        group.settle()
        #expect(group[bob].membership.secretAdmits(oldSecret))
        #expect(group[bob].membership.secretAdmits(newSecret), "nobody was removed: any secret admits")

        try group.remove(carol, by: alice)
        // Carol, removed, records a secret of her own: beyond her cutoff, it counts nowhere.
        try group.make(carol, .member(.secret(newSecret)))
        group.settle()
        for key in [alice, bob] {
            #expect(!group[key].membership.secretAdmits(oldSecret))
            #expect(!group[key].membership.secretAdmits(newSecret))
            #expect(!group[key].membership.recorded(secret: newSecret))
        }

        try group.make(bob, .member(.secret(newSecret)))
        group.settle()
        for key in [alice, bob] {
            #expect(group[key].membership.secretAdmits(newSecret))
            #expect(!group[key].membership.secretAdmits(oldSecret))
        }

        // The old secret recorded again after the removal still admits nobody: the removed member knows it.
        try group.make(alice, .member(.secret(oldSecret)))
        group.settle()
        #expect(!group[bob].membership.secretAdmits(oldSecret))
        #expect(!group[bob].membership.secretAdmits(newSecret), "only the newest secret admits")
    }
}
