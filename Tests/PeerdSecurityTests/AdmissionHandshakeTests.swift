import PeerdModel
import PeerdSecurity
import Testing

/// Who gets in: the decisions of proto/SECURITY.md, with both ends of a session driven by each
/// other's bytes.
@Suite struct AdmissionHandshakeTests {
    let alice: AdmissionParty
    let bob: AdmissionParty
    let carol: AdmissionParty
    let group = AdmissionPolicy(groupKey: GroupSecret.key(Array("the group secret of this lan".utf8)))

    init() throws {
        (alice, bob, carol) = (try .generate(), try .generate(), try .generate())
    }

    @Test func twoHoldersOfTheGroupSecretAdmitEachOther() {
        var dialer = alice.handshake(with: bob, policy: group)
        var listener = bob.handshake(with: alice, policy: group)
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .admit(via: .groupSecret, invite: nil))
        #expect(outcome.second == .admit(via: .groupSecret, invite: nil))
    }

    @Test func aPeerWhoseKeyIsNotP256IsRefusedEvenWithTheGroupSecretOrPinned() throws {
        let p384 = try AdmissionParty.withP384Key()
        for policy in [group, AdmissionPolicy(members: [p384.peer])] {
            var member = alice.handshake(with: p384, policy: policy)
            var other = p384.handshake(with: alice, policy: group)
            let outcome = admission(&member, &other)
            #expect(outcome.first == .refuse(.unsupportedKey))
        }
    }

    @Test func theRecordsSentAreAnOfferAndThenAProof() {
        var handshake = alice.handshake(with: bob, policy: group)
        #expect(AdmissionRecord.nonce(ofOffer: handshake.offer()) != nil)
        let proof = sent(handshake.received(AdmissionRecord.offer(nonce: nonce(1))))
        #expect(AdmissionRecord.parseProof(proof ?? [])?.method == .group)
        #expect(alice.handshake(with: bob, policy: group).offer() != handshake.offer())
    }

    @Test func aWrongGroupSecretIsRefusedOnBothEnds() {
        let other = AdmissionPolicy(groupKey: GroupSecret.key(Array("the group secret of another lan".utf8)))
        var dialer = alice.handshake(with: bob, policy: group)
        var listener = bob.handshake(with: alice, policy: other)
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .refuse(.notAMember))
        #expect(outcome.second == .refuse(.notAMember))
    }

    @Test func aPeerWithNoSecretIsRefused() {
        var stranger = alice.handshake(with: bob, policy: AdmissionPolicy())
        var member = bob.handshake(with: alice, policy: group)
        #expect(admission(&stranger, &member).second == .refuse(.notAMember))
    }

    @Test func aKnownMemberIsAdmittedWithoutASecret() {
        var dialer = alice.handshake(with: bob, policy: AdmissionPolicy(members: [bob.peer]))
        var listener = bob.handshake(with: alice, policy: AdmissionPolicy(members: [alice.peer]))
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .admit(via: nil, invite: nil))
        #expect(outcome.second == .admit(via: nil, invite: nil))
    }

    @Test func aRevokedPeerIsRefusedEvenWithAValidGroupProof() {
        var revoked = group
        revoked.revoked = [alice.peer]
        var dialer = alice.handshake(with: bob, policy: group)
        var listener = bob.handshake(with: alice, policy: revoked)
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .admit(via: .groupSecret, invite: nil))
        #expect(outcome.second == .refuse(.revoked))
    }

    @Test func revocationIsDecidedBeforeTheExpectedPeer() {
        var revoked = group
        revoked.revoked = [bob.peer]
        var dialer = alice.handshake(with: bob, policy: revoked, expected: carol.peer)
        var listener = bob.handshake(with: alice, policy: group)
        #expect(admission(&dialer, &listener).first == .refuse(.revoked))
    }

    @Test func aPeerOtherThanTheOneDialedIsRefusedEvenIfItIsAMember() {
        var members = group
        members.members = [bob.peer]
        var dialer = alice.handshake(with: bob, policy: members, expected: carol.peer)
        var listener = bob.handshake(with: alice, policy: group)
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .refuse(.keyMismatch))
        #expect(outcome.second == .admit(via: .groupSecret, invite: nil))
    }

    @Test func thePeerDialedIsAdmitted() {
        var dialer = alice.handshake(with: bob, policy: group, expected: bob.peer)
        var listener = bob.handshake(with: alice, policy: group)
        #expect(admission(&dialer, &listener).first == .admit(via: .groupSecret, invite: nil))
    }

    @Test func aConnectionToItselfIsRefusedBeforeAnythingElse() {
        var policy = group
        policy.members = [alice.peer]
        policy.revoked = [alice.peer]
        var dialer = alice.handshake(with: alice, policy: policy, expected: bob.peer)
        var listener = alice.handshake(with: alice, policy: policy)
        let outcome = admission(&dialer, &listener)
        #expect(outcome.first == .refuse(.selfConnection))
        #expect(outcome.second == .refuse(.selfConnection))
    }

    @Test func aFirstFrameThatIsNotAnOfferIsRefusedAndNothingFollows() {
        var handshake = bob.handshake(with: alice, policy: group)
        #expect(handshake.received(Array("{\"hello\":1}".utf8)) == [.refuse(.notAMember)])
        #expect(handshake.received(AdmissionRecord.offer(nonce: nonce(1))).isEmpty)
    }

    @Test(arguments: [
        AdmissionRecord.offer(nonce: nonce(2)),
        Array(AdmissionRecord.proof(method: .group, mac: nonce(3)).dropLast()),
        AdmissionRecord.refusal(.busy),
    ])
    func aSecondFrameThatIsNotAProofIsRefused(frame: [UInt8]) {
        var handshake = bob.handshake(with: alice, policy: group)
        #expect(sent(handshake.received(AdmissionRecord.offer(nonce: nonce(1)))) != nil)
        #expect(handshake.received(frame) == [.refuse(.notAMember)])
    }
}
