import PeerdModel
import PeerdSecurity
import Testing

/// Pairing with `peerctl invite` and `peerctl join`: the inviter checks the joiner's proof of the
/// code, the joiner trusts the key the code names.
@Suite struct AdmissionInviteTests {
    let inviter: AdmissionParty
    let joiner: AdmissionParty
    let code: InviteCode

    init() throws {
        (inviter, joiner) = (try .generate(), try .generate())
        code = InviteCode.make(inviter: inviter.peer)
    }

    var joining: AdmissionPolicy { AdmissionPolicy(joins: [inviter.peer: code.key]) }

    func inviting(id: Int = 7) -> AdmissionPolicy {
        AdmissionPolicy(invites: [.init(id: id, key: code.key)])
    }

    @Test func anInviterAndItsJoinerAdmitEachOther() {
        var dialer = joiner.handshake(with: inviter, policy: joining, expected: inviter.peer)
        var listener = inviter.handshake(with: joiner, policy: inviting())
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .admitInviter)
        #expect(outcome.second == .admit(via: .invite, invite: 7))
    }

    @Test func theInviteUsedIsTheOneReported() {
        let other = InviteCode.make(inviter: inviter.peer)
        let policy = AdmissionPolicy(invites: [.init(id: 1, key: other.key), .init(id: 2, key: code.key)])
        var dialer = joiner.handshake(with: inviter, policy: joining)
        var listener = inviter.handshake(with: joiner, policy: policy)
        #expect(admission(&dialer, &listener).second == .admit(via: .invite, invite: 2))
    }

    @Test func aCodeOfAnotherInviteIsRefused() {
        let other = InviteCode.make(inviter: inviter.peer)
        var dialer = joiner.handshake(with: inviter, policy: AdmissionPolicy(joins: [inviter.peer: other.key]))
        var listener = inviter.handshake(with: joiner, policy: inviting())
        #expect(admission(&dialer, &listener).second == .refuse(.notAMember))
    }

    @Test func anInviteProofIsNotAGroupProof() {
        var dialer = joiner.handshake(with: inviter, policy: joining)
        var listener = inviter.handshake(with: joiner, policy: AdmissionPolicy(groupKey: GroupSecret.key(code.secret)))
        #expect(admission(&dialer, &listener).second == .refuse(.notAMember))
    }

    /// The daemon drops an invite once it admitted someone with it (`TrustService.admitted`); the
    /// policy it then hands admission holds only the invites still open.
    @Test func aCodeOnceUsedAdmitsNobodyElse() throws {
        var dialer = joiner.handshake(with: inviter, policy: joining)
        var listener = inviter.handshake(with: joiner, policy: inviting())
        #expect(admission(&dialer, &listener).second == .admit(via: .invite, invite: 7))
        let stillOpen = AdmissionPolicy(invites: [.init(id: 8, key: InviteCode.make(inviter: inviter.peer).key)])
        let latecomer = try AdmissionParty.generate()
        var again = latecomer.handshake(with: inviter, policy: joining)
        var used = inviter.handshake(with: latecomer, policy: stillOpen)
        #expect(admission(&again, &used).second == .refuse(.notAMember))
    }

    @Test func aProofSeenOnceIsRefusedInTheNextSessionWhileTheInviteIsStillOpen() throws {
        var dialer = joiner.handshake(with: inviter, policy: joining)
        let inviterOffer = AdmissionRecord.offer(nonce: nonce(1))
        let proof = try #require(sent(dialer.received(inviterOffer)))
        var first = inviter.handshake(with: joiner, policy: inviting(), nonce: nonce(1))
        _ = first.received(dialer.offer())
        #expect(first.received(proof) == [.admit(via: .invite, invite: 7)])
        #expect(first.received(proof).isEmpty)
        var replayed = inviter.handshake(with: joiner, policy: inviting(), nonce: nonce(2))
        _ = replayed.received(dialer.offer())
        #expect(replayed.received(proof) == [.refuse(.notAMember)])
    }

    /// Admitted for the session, not pinned: the inviter is trusted once its hello shows it
    /// admitted the joiner too (`TrustService.named`), never on the joiner's word alone.
    @Test func aJoinerLetsTheInvitersKeyInWithoutItsProofButDoesNotPinIt() {
        var dialer = joiner.handshake(with: inviter, policy: joining)
        var listener = inviter.handshake(with: joiner, policy: AdmissionPolicy(members: [joiner.peer]))
        #expect(admission(&dialer, &listener).first == .admitInviter)
    }

    @Test func aJoinerRefusesAPeerOtherThanTheInviterItsCodeNames() throws {
        let impostor = try AdmissionParty.generate()
        var dialer = joiner.handshake(with: impostor, policy: joining)
        var listener = impostor.handshake(with: joiner, policy: AdmissionPolicy(members: [joiner.peer]))
        #expect(admission(&dialer, &listener).first == .refuse(.notAMember))
    }
}
