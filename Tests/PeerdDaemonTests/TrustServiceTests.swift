import Foundation
import Logging
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import ServiceLifecycleTestKit
import SystemPackage
import Testing

@testable import PeerdDaemon

/// `peerctl join`'s wait in the trust service: told when its inviter says hello, and let go of when
/// peerd stops rather than holding the stop for the rest of its 20 s.
@Suite("Trust service joins")
struct TrustServiceTests {
    let local = try! PeerIdentity.generate(name: "local")
    let inviter = try! PeerIdentity.generate(name: "inviter").peer

    /// A trust service whose joins wait `joinWait` for their inviter.
    func withTrust(
        joinWait: Duration = .seconds(20),
        name: String? = nil,
        _ body: (TrustService) async throws -> Void
    ) async throws {
        let directory = try ScratchDirectory("trust")
        defer { directory.remove() }
        let scratch = directory.path
        let trust = try TrustService(
            local: local.peer,
            path: scratch.appending("trust.json"),
            groupKey: nil,
            name: name,
            joinWait: joinWait,
            logger: Logger(label: "test")
        )
        try await body(trust)
    }

    /// Runs `count` joins of `code`; once each waits, runs `meanwhile`; returns what the joins
    /// answered. A join rings the dialers as it registers, in the same turn of the actor as it
    /// starts to wait, so the ring says it waits.
    func join(
        _ trust: TrustService,
        _ code: InviteCode,
        count: Int = 1,
        meanwhile: () async -> Void
    ) async -> [JoinOutcome] {
        let rings = await trust.dialUpdates()
        return await withTaskGroup(of: JoinOutcome.self) { group in
            var heard = rings.makeAsyncIterator()
            for _ in 0..<count {
                group.addTask { await trust.join(code) }
                await heard.next()
            }
            await meanwhile()
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test("every join waiting on an inviter is told once it is admitted and says hello")
    func joinsAreToldAtHello() async throws {
        try await withTrust { trust in
            let answers = await join(trust, InviteCode.make(inviter: inviter), count: 2) {
                #expect(await trust.admitted(inviter, via: nil, invite: nil))
                #expect(await trust.trustStates()[inviter] == nil, "pinned only once it says hello")
                await trust.named(inviter, "inviter")
            }
            #expect(answers == [.paired, .paired])
            #expect(await trust.trustStates()[inviter] == .member)
            #expect(await trust.name(of: inviter) == "inviter")
        }
    }

    @Test(
        "a join the inviter refuses ends at once with its reason, trusting nobody",
        .timeLimit(.minutes(1)),
        arguments: [
            JoinOutcome.refused(.inviteExpired, SpentInvite(.expired, at: 1_764_903_000_000, inviter: "alice")),
            .refused(.inviteUsed, SpentInvite(.used, at: 1_764_902_820_000, inviter: "alice")),
            .refused(.notAMember, nil), .refused(.revoked, nil),
        ]
    )
    func aRefusedJoinEndsAtOnce(refusal: JoinOutcome) async throws {
        guard case .refused(let reason, let spent) = refusal else { return }
        try await withTrust(joinWait: .seconds(3600)) { trust in
            let answers = await join(trust, InviteCode.make(inviter: inviter)) {
                #expect(await trust.admitted(inviter, via: nil, invite: nil))
                await trust.refused(by: inviter, reason, spent: spent, proof: .invite)
            }
            #expect(answers == [refusal])
            #expect(await trust.trustStates()[inviter] == nil)
            #expect(await !trust.shouldDial(inviter), "the refused code is dropped")
        }
    }

    /// A `not-a-member` of a connection that gave the group's proof, or any busy refusal, says
    /// nothing of the code: the join waits on.
    @Test("a refusal that says nothing of the code leaves the join waiting", .timeLimit(.minutes(1)))
    func aRefusalOfAnotherProofLeavesTheJoinWaiting() async throws {
        try await withTrust(joinWait: .milliseconds(300)) { trust in
            let answers = await join(trust, InviteCode.make(inviter: inviter)) {
                await trust.refused(by: inviter, .notAMember, spent: nil, proof: .group)
                await trust.refused(by: inviter, .busy, spent: nil, proof: .invite)
            }
            #expect(answers == [.timedOut])
            #expect(await trust.trustStates()[inviter] == nil)
        }
    }

    @Test("an invite once used is remembered as spent, with when and by whom, a bounded few")
    func usedInvitesAreRemembered() async throws {
        try await withTrust(name: "alice") { trust in
            let joiner = try PeerIdentity.generate(name: "joiner").peer
            let before = Wallclock.millis()
            for _ in 0..<(InviteBook.spentKept + 6) {
                _ = try await trust.invite(expiresIn: nil)
                let id = try #require(await trust.policy().invites.first?.id)
                #expect(await trust.admitted(joiner, via: .invite, invite: id))
            }
            let policy = await trust.policy()
            #expect(policy.invites.isEmpty)
            #expect(policy.spentInvites.count == InviteBook.spentKept)
            let spent = try #require(policy.spentInvites.last?.invite)
            #expect(spent.fate == .used && spent.inviter == "alice" && spent.at >= before)
        }
    }

    /// Two connections of one joiner may both carry the code: the second finds it used, by the same
    /// peer, now a member, and is let in rather than refused.
    @Test("a second connection of the joiner that used the code is let in")
    func theJoinersOtherConnectionIsLetIn() async throws {
        try await withTrust { trust in
            let joiner = try PeerIdentity.generate(name: "joiner").peer
            let stranger = try PeerIdentity.generate(name: "stranger").peer
            _ = try await trust.invite(expiresIn: nil)
            let id = try #require(await trust.policy().invites.first?.id)
            #expect(await trust.admitted(joiner, via: .invite, invite: id))
            #expect(await trust.admitted(joiner, via: .invite, invite: id))
            #expect(await !trust.admitted(stranger, via: .invite, invite: id))
            #expect(await trust.trustStates()[stranger] == nil)
        }
    }

    /// The join would wait an hour for its inviter: only the stop can end it within the time limit.
    @Test("a join stops waiting when peerd stops", .timeLimit(.minutes(1)))
    func joinEndsAtShutdown() async throws {
        try await withTrust(joinWait: .seconds(3600)) { trust in
            try await testGracefulShutdown { trigger in
                let answers = await join(trust, InviteCode.make(inviter: inviter)) {
                    trigger.triggerGracefulShutdown()
                }
                #expect(answers == [.stopped])
            }
        }
    }
}
