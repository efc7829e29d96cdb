import Foundation
import Logging
import PeerdSecurity
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
    func withTrust(joinWait: Duration = .seconds(20), _ body: (TrustService) async throws -> Void) async throws {
        let scratch = FilePath(NSTemporaryDirectory()).appending("peerd-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: scratch.string, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch.string) }
        let trust = try TrustService(
            local: local.peer,
            path: scratch.appending("trust.json"),
            groupKey: nil,
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
    ) async -> [Bool] {
        let rings = await trust.dialUpdates()
        return await withTaskGroup(of: Bool.self) { group in
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
                #expect(await trust.admitted(inviter, via: .invite, invite: nil))
                await trust.named(inviter, "inviter")
            }
            #expect(answers == [true, true])
            #expect(await trust.trustStates()[inviter] == .member)
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
                #expect(answers == [false])
            }
        }
    }
}
