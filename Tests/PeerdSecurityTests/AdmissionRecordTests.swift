import PeerdSecurity
import PropertyBased
import Testing

/// The fixed-size binary records an untrusted party can send (proto/SECURITY.md, "The handshake").
@Suite struct AdmissionRecordTests {
    static let reasons: [AdmissionRefusal] = [
        .notAMember, .revoked, .keyMismatch, .selfConnection, .busy, .unsupportedKey, .inviteUsed, .inviteExpired,
        .removed,
    ]

    @Test func anOfferGivesBackItsNonce() async {
        await propertyCheck(input: Gen.uint8().array(of: 32)) { nonce in
            let offer = AdmissionRecord.offer(nonce: nonce)
            #expect(offer == Array("WLO1".utf8) + nonce)
            #expect(AdmissionRecord.nonce(ofOffer: offer) == nonce)
        }
    }

    @Test func aProofGivesBackItsMethodAndMAC() async {
        let methods = Gen.uint8(in: 0...2).map { AdmissionMethod(rawValue: $0)! }
        await propertyCheck(input: methods, Gen.uint8().array(of: 32)) { method, mac in
            let proof = AdmissionRecord.proof(method: method, mac: mac)
            #expect(proof == Array("WLP1".utf8) + [method.rawValue] + mac)
            let parsed = AdmissionRecord.parseProof(proof)
            #expect(parsed?.method == method)
            #expect(parsed?.mac == mac)
        }
    }

    @Test(arguments: reasons)
    func aRefusalParsesBackToTheSameReason(reason: AdmissionRefusal) {
        let refusal = AdmissionRecord.refusal(reason)
        #expect(refusal == Array("WLR1".utf8) + [reason.rawValue])
        #expect(AdmissionRecord.parseRefusal(refusal) == reason)
    }

    @Test(arguments: [0, 10, 255] as [UInt8])
    func aRefusalForAnUnknownReasonIsStillARefusal(reason: UInt8) {
        #expect(AdmissionRecord.parseRefusal(Array("WLR1".utf8) + [reason]) == .notAMember)
    }

    @Test func aRecordIsAcceptedAtItsOwnLengthOnly() async {
        await propertyCheck(input: Gen.uint8().array(of: 0...AdmissionRecord.maxLength)) { body in
            let offer = Array("WLO1".utf8) + body
            #expect((AdmissionRecord.nonce(ofOffer: offer) != nil) == (offer.count == AdmissionRecord.offerLength))
            let proof = Array("WLP1".utf8) + [AdmissionMethod.group.rawValue] + body
            #expect((AdmissionRecord.parseProof(proof) != nil) == (proof.count == AdmissionRecord.proofLength))
            // A spent invite's refusal (reasons 7 and 8) is longer: 14 bytes and the name its byte 13 counts.
            let refusal = Array("WLR1".utf8) + body
            let spent =
                refusal.count >= AdmissionRecord.spentInviteRefusalLength && [7, 8].contains(refusal[4])
                && Int(refusal[13]) == refusal.count - AdmissionRecord.spentInviteRefusalLength
            #expect(
                (AdmissionRecord.parseRefusal(refusal) != nil)
                    == (refusal.count == AdmissionRecord.refusalLength || spent)
            )
        }
    }

    @Test func truncatedAndOversizedRecordsAreRejected() {
        let offer = AdmissionRecord.offer(nonce: nonce(1))
        let proof = AdmissionRecord.proof(method: .group, mac: nonce(2))
        let refusal = AdmissionRecord.refusal(.revoked)
        #expect(AdmissionRecord.nonce(ofOffer: offer.dropLast()) == nil)
        #expect(AdmissionRecord.nonce(ofOffer: offer + [0]) == nil)
        #expect(AdmissionRecord.parseProof(proof.dropLast()) == nil)
        #expect(AdmissionRecord.parseProof(proof + [0]) == nil)
        #expect(AdmissionRecord.parseRefusal(refusal.dropLast()) == nil)
        #expect(AdmissionRecord.parseRefusal(refusal + [0]) == nil)
        #expect(AdmissionRecord.parseRefusal([]) == nil)
    }

    @Test func aRecordIsNotTakenForAnotherKind() {
        let offer = AdmissionRecord.offer(nonce: nonce(1))
        let proof = AdmissionRecord.proof(method: .group, mac: nonce(1))
        let refusal = AdmissionRecord.refusal(.busy)
        #expect(AdmissionRecord.parseProof(offer) == nil)
        #expect(AdmissionRecord.parseRefusal(offer) == nil)
        #expect(AdmissionRecord.nonce(ofOffer: proof) == nil)
        #expect(AdmissionRecord.parseRefusal(proof) == nil)
        #expect(AdmissionRecord.nonce(ofOffer: Array("WLP1".utf8) + nonce(1)) == nil)
        #expect(AdmissionRecord.parseProof(Array("WLO1".utf8) + [1] + nonce(1)) == nil)
        #expect(AdmissionRecord.parseRefusal(Array("WLO1".utf8) + [1]) == nil)
        #expect(AdmissionRecord.nonce(ofOffer: refusal + nonce(1).dropLast()) == nil)
    }

    @Test func aProofOfAnUnknownMethodIsRejected() {
        #expect(AdmissionRecord.parseProof(Array("WLP1".utf8) + [3] + nonce(1)) == nil)
        #expect(AdmissionRecord.parseProof(Array("WLP1".utf8) + [255] + nonce(1)) == nil)
    }

    @Test func recordsAreReadFromASliceOfALargerBuffer() {
        let buffer = [9, 9, 9] + AdmissionRecord.refusal(.keyMismatch) + AdmissionRecord.offer(nonce: nonce(4))
        #expect(AdmissionRecord.parseRefusal(buffer[3..<8]) == .keyMismatch)
        #expect(AdmissionRecord.nonce(ofOffer: buffer[8...]) == nonce(4))
        #expect(AdmissionRecord.parseProof(buffer[8...].dropLast()) == nil)
    }

    @Test func everyRecordFitsTheLimitOfTheFirstFrames() {
        #expect(AdmissionRecord.offer(nonce: nonce(1)).count == AdmissionRecord.offerLength)
        #expect(AdmissionRecord.proof(method: .invite, mac: nonce(1)).count == AdmissionRecord.proofLength)
        #expect(AdmissionRecord.refusal(.busy).count == AdmissionRecord.refusalLength)
        let longest = max(AdmissionRecord.offerLength, AdmissionRecord.proofLength, AdmissionRecord.refusalLength)
        #expect(longest <= AdmissionRecord.maxLength)
    }
}
