import PeerdModel
import PeerdSecurity
import Testing

/// A code its inviter no longer takes, used or expired: the inviter recognises the proof and says
/// which and when, and the joiner, refused, pins nobody (proto/SECURITY.md, "The handshake").
@Suite struct SpentInviteTests {
    let inviter: AdmissionParty
    let joiner: AdmissionParty
    let code: InviteCode
    static let used = SpentInvite(.used, at: 1_764_902_820_000, inviter: "alice")
    static let expired = SpentInvite(.expired, at: 1_764_903_000_000, inviter: "alice")

    init() throws {
        (inviter, joiner) = (try .generate(), try .generate())
        code = InviteCode.make(inviter: inviter.peer)
    }

    var joining: AdmissionPolicy { AdmissionPolicy(joins: [inviter.peer: code.key]) }

    func inviting(spent: SpentInvite, members: Set<PeerID> = []) -> AdmissionPolicy {
        let other = InviteCode.make(inviter: inviter.peer)
        return AdmissionPolicy(
            members: members,
            invites: [.init(id: 9, key: InviteCode.make(inviter: inviter.peer).key)],
            spentInvites: [.init(key: other.key, invite: Self.expired), .init(key: code.key, invite: spent)]
        )
    }

    @Test(arguments: [used, expired])
    func aSpentCodeIsRefusedWithWhatBecameOfItAndTheJoinerPinsNobody(spent: SpentInvite) {
        var dialer = joiner.handshake(with: inviter, policy: joining, expected: inviter.peer)
        var listener = inviter.handshake(with: joiner, policy: inviting(spent: spent))
        let outcome = admission(&dialer, &listener)
        #expect(outcome.second == .refuseSpentInvite(spent))
        #expect(outcome.first == .admitInviter, "admitted for the session only: nothing to pin before its hello")
    }

    @Test func theJoinerProvesWithTheCodeAndOthersDoNot() {
        #expect(joiner.handshake(with: inviter, policy: joining).proofMethod == .invite)
        #expect(inviter.handshake(with: joiner, policy: inviting(spent: Self.used)).proofMethod == .none)
    }

    @Test func aMemberWhoBringsItsUsedCodeAgainIsAdmittedAsAMember() {
        var dialer = joiner.handshake(with: inviter, policy: joining)
        var listener = inviter.handshake(with: joiner, policy: inviting(spent: Self.used, members: [joiner.peer]))
        #expect(admission(&dialer, &listener).second == .admit(via: nil, invite: nil))
    }

    @Test func aCodeTheInviterNeverMadeIsStillJustNotAMember() {
        let stranger = InviteCode.make(inviter: inviter.peer)
        var dialer = joiner.handshake(with: inviter, policy: AdmissionPolicy(joins: [inviter.peer: stranger.key]))
        var listener = inviter.handshake(with: joiner, policy: inviting(spent: Self.used))
        #expect(admission(&dialer, &listener).second == .refuse(.notAMember))
    }

    /// Only the code's holder learns what became of it: a spent key proves nothing as a group key.
    @Test func aGroupProofIsNotCheckedAgainstSpentCodes() throws {
        let member = try AdmissionParty.generate()
        let policy = AdmissionPolicy(groupKey: GroupSecret.key(code.secret))
        var dialer = member.handshake(with: inviter, policy: policy)
        var listener = inviter.handshake(with: member, policy: inviting(spent: Self.used))
        #expect(admission(&dialer, &listener).second == .refuse(.notAMember))
    }

    @Test(arguments: [used, expired, SpentInvite(.used, at: 0, inviter: nil)])
    func aSpentInvitesRefusalParsesBackToTheSame(spent: SpentInvite) {
        let record = AdmissionRecord.refusal(spent)
        #expect(record.starts(with: Array("WLR1".utf8) + [spent.refusal.rawValue]))
        #expect(record.count == AdmissionRecord.spentInviteRefusalLength + (spent.inviter?.utf8.count ?? 0))
        #expect(AdmissionRecord.parseRefusal(record) == spent.refusal)
        #expect(AdmissionRecord.parseSpentInvite(record) == spent)
        #expect(AdmissionRecord.parseSpentInvite(AdmissionRecord.refusal(spent.refusal)) == nil)
    }

    @Test func aLongNameIsCutAtACharacterAndTheRecordStaysBounded() throws {
        let name = String(repeating: "é", count: 40)
        let record = AdmissionRecord.refusal(SpentInvite(.expired, at: 5, inviter: name))
        #expect(record.count == AdmissionRecord.maxRefusalLength)
        let parsed = try #require(AdmissionRecord.parseSpentInvite(record))
        #expect(parsed.inviter == String(repeating: "é", count: 32))
    }

    @Test func aNameWithControlCharactersOrNotUTF8IsLeftOutButTheRefusalHolds() {
        let escape = AdmissionRecord.refusal(SpentInvite(.used, at: 5, inviter: "al\u{1b}[2Jice"))
        #expect(AdmissionRecord.parseSpentInvite(escape) == SpentInvite(.used, at: 5, inviter: nil))
        var latin1 = AdmissionRecord.refusal(SpentInvite(.used, at: 5, inviter: "abc"))
        latin1[latin1.count - 1] = 0xE9
        #expect(AdmissionRecord.parseSpentInvite(latin1) == SpentInvite(.used, at: 5, inviter: nil))
        #expect(AdmissionRecord.parseRefusal(latin1) == .inviteUsed)
    }

    @Test func aSpentInvitesRecordWithAWrongLengthOrReasonIsNoRefusal() {
        let record = AdmissionRecord.refusal(Self.used)
        #expect(AdmissionRecord.parseRefusal(record.dropLast()) == nil)
        #expect(AdmissionRecord.parseRefusal(record + [0x61]) == nil)
        var revoked = record
        revoked[4] = AdmissionRefusal.revoked.rawValue
        #expect(AdmissionRecord.parseRefusal(revoked) == nil)
        #expect(AdmissionRecord.parseRefusal(Array("WLR1".utf8) + [7] + [UInt8](repeating: 0, count: 9)) == .inviteUsed)
        let oversized =
            Array("WLR1".utf8) + [7] + [UInt8](repeating: 0, count: 8) + [65] + [UInt8](repeating: 0x61, count: 65)
        #expect(AdmissionRecord.parseRefusal(oversized) == nil)
    }
}
