import Foundation
import PeerdModel
import PeerdSecurity
import Testing

/// Whom a daemon trusts and whom it revoked (proto/SECURITY.md, "Trust").
@Suite struct TrustListTests {
    let local = PeerID("00000000")!
    let alice = PeerID("aaaaaaaa")!
    let bob = PeerID("bbbbbbbb")!
    let carol = PeerID("cccccccc")!

    @Test func anAdmittedPeerIsAMemberAndMembersStaySortedByID() {
        var trust = TrustList()
        let changed = [
            trust.admit(carol, name: "carol", via: .invite, now: 1),
            trust.admit(alice, name: nil, via: .groupSecret, now: 2),
        ]
        #expect(changed == [true, true])
        #expect(trust.members.map(\.peer) == [alice, carol])
        #expect(trust.member(carol) == TrustList.Member(peer: carol, name: "carol", since: 1, via: .invite))
        #expect(trust.isMember(alice) && !trust.isMember(bob))
    }

    @Test func admittingAMemberAgainChangesOnlyItsName() {
        var trust = TrustList()
        trust.admit(alice, name: "alice", via: .invite, now: 1)
        let changed = [
            trust.admit(alice, name: "alice", via: .pinned, now: 2),
            trust.admit(alice, name: nil, via: .pinned, now: 2),
            trust.admit(alice, name: "laptop", via: .pinned, now: 3),
        ]
        #expect(changed == [false, false, true])
        #expect(trust.member(alice) == TrustList.Member(peer: alice, name: "laptop", since: 1, via: .invite))
    }

    @Test func anIntroductionAddsUnknownPeersButNeverItselfOrTheRevoked() {
        var trust = TrustList()
        trust.forget(carol)
        let added = trust.introduce([(bob, "bob"), (local, "me"), (carol, "carol")], by: alice, local: local, now: 5)
        #expect(added == [bob])
        #expect(trust.member(bob) == TrustList.Member(peer: bob, name: "bob", since: 5, via: .introduced, by: alice))
        #expect(!trust.isMember(local) && !trust.isMember(carol))
    }

    @Test func anIntroductionFillsAMissingNameButNeverRenames() {
        var trust = TrustList()
        trust.admit(alice, name: nil, via: .invite, now: 1)
        trust.admit(bob, name: "bob", via: .invite, now: 1)
        let added = trust.introduce([(alice, "alice"), (bob, "mallory")], by: carol, local: local, now: 2)
        #expect(added.isEmpty)
        #expect(trust.member(alice) == TrustList.Member(peer: alice, name: "alice", since: 1, via: .invite))
        #expect(trust.member(bob)?.name == "bob")
    }

    @Test func oneIntroductionAddsAtMostTheLimit() {
        var trust = TrustList()
        let list = (1...TrustList.maxIntroductions + 1).map {
            (peer: PeerID(String(0x1000_0000 + $0, radix: 16))!, name: nil as String?)
        }
        let added = trust.introduce(list, by: alice, local: local, now: 1)
        #expect(added.count == TrustList.maxIntroductions)
        #expect(!trust.isMember(list.last!.peer))
    }

    @Test func forgettingRevokesAMemberOnce() {
        var trust = TrustList()
        trust.admit(bob, name: "bob", via: .invite, now: 1)
        let changed = [trust.forget(bob), trust.forget(alice), trust.forget(bob)]
        #expect(changed == [true, true, false])
        #expect(!trust.isMember(bob))
        #expect(trust.revoked == [alice, bob])
        #expect(trust.isRevoked(alice) && trust.isRevoked(bob))
    }

    @Test(arguments: [TrustList.Via.invite, .groupSecret, .introduced])
    func aRevokedPeerComesBackOnlyWhenPinned(via: TrustList.Via) {
        var trust = TrustList()
        trust.forget(bob)
        let unpinned = trust.admit(bob, name: "bob", via: via, now: 1)
        #expect(!unpinned && !trust.isMember(bob))
        let pinned = trust.admit(bob, name: "bob", via: .pinned, now: 2)
        #expect(pinned)
        #expect(trust.isMember(bob) && !trust.isRevoked(bob))
    }

    @Test func theListSurvivesItsFile() throws {
        var trust = TrustList()
        trust.admit(alice, name: "alice", via: .groupSecret, now: 1)
        _ = trust.introduce([(bob, nil)], by: alice, local: local, now: 2)
        trust.forget(carol)
        let json = try JSONEncoder().encode(trust)
        #expect(try JSONDecoder().decode(TrustList.self, from: json) == trust)
        #expect(String(decoding: json, as: UTF8.self).contains("\"group-secret\""))
    }
}
