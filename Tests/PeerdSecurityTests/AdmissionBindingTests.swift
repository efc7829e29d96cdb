import PeerdModel
import PeerdSecurity
import Testing

/// A proof counts only in the session it was made for: it covers both certificates, both nonces,
/// both ids and the method, so it can be neither replayed, relayed nor reflected.
@Suite struct AdmissionBindingTests {
    let alice: AdmissionParty
    let bob: AdmissionParty
    let mallory: AdmissionParty
    let key = GroupSecret.key(Array("the group secret of this lan".utf8))
    var group: AdmissionPolicy { AdmissionPolicy(groupKey: key) }

    init() throws {
        (alice, bob, mallory) = (try .generate(), try .generate(), try .generate())
    }

    /// One part of a session changed between the one a proof was made for and the one it is shown in.
    enum Change: CaseIterable, Sendable {
        case none
        case proverCertificate
        case verifierCertificate
        case proverNonce
        case verifierNonce
        case proverAndVerifierSwapped
        case method
    }

    /// Alice's proof to Bob, for a session that differs from Bob's (alice nonce 1, bob nonce 2) by `change`.
    func aliceProof(_ change: Change) -> [UInt8] {
        var transcript = AdmissionMAC.Transcript(
            method: .group,
            prover: alice.peer,
            verifier: bob.peer,
            proverCertificate: alice.certificate,
            verifierCertificate: bob.certificate,
            proverNonce: nonce(1),
            verifierNonce: nonce(2)
        )
        switch change {
        case .none: break
        case .proverCertificate: transcript.proverCertificate = mallory.certificate
        case .verifierCertificate: transcript.verifierCertificate = mallory.certificate
        case .proverNonce: transcript.proverNonce = nonce(3)
        case .verifierNonce: transcript.verifierNonce = nonce(3)
        case .proverAndVerifierSwapped: (transcript.prover, transcript.verifier) = (bob.peer, alice.peer)
        case .method: transcript.method = .invite
        }
        return AdmissionRecord.proof(method: .group, mac: AdmissionMAC.compute(key: key, transcript))
    }

    @Test(arguments: Change.allCases)
    func aProofCountsOnlyForTheSessionItWasMadeFor(change: Change) {
        var bobSide = bob.handshake(with: alice, policy: group, nonce: nonce(2))
        #expect(sent(bobSide.received(AdmissionRecord.offer(nonce: nonce(1)))) != nil)
        let decision = bobSide.received(aliceProof(change))
        #expect(decision == [change == .none ? .admit(via: .groupSecret, invite: nil) : .refuse(.notAMember)])
    }

    @Test func aProofRelayedByAPeerInTheMiddleIsRefused() throws {
        // Mallory holds no secret; it passes Bob's offer to Alice as its own, and Alice's offer and proof to Bob.
        var aliceSide = alice.handshake(with: mallory, policy: group)
        var bobSide = bob.handshake(with: mallory, policy: group)
        let proof = try #require(sent(aliceSide.received(bobSide.offer())))
        #expect(sent(bobSide.received(aliceSide.offer())) != nil)
        #expect(bobSide.received(proof) == [.refuse(.notAMember)])
    }

    @Test func aPeersOwnProofReflectedBackIsRefused() throws {
        var bobSide = bob.handshake(with: mallory, policy: group)
        let proof = try #require(sent(bobSide.received(bobSide.offer())))
        #expect(bobSide.received(proof) == [.refuse(.notAMember)])
    }

    @Test func aProofWithOneBitFlippedIsRefused() {
        var bobSide = bob.handshake(with: alice, policy: group, nonce: nonce(2))
        _ = bobSide.received(AdmissionRecord.offer(nonce: nonce(1)))
        var forged = aliceProof(.none)
        forged[forged.count - 1] ^= 1
        #expect(bobSide.received(forged) == [.refuse(.notAMember)])
    }
}
