import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// A removal from the group holds wherever the removed member's operations arrive from
/// (proto/PEER.md, "Membership"): real daemons on loopback, alice – bob – carol in a line.
@Suite(.serialized) struct GroupRemovalTests {
    static func members(of daemon: TestDaemon) throws -> [MemberRecord] {
        guard case .members(let group) = try daemon.peerctl("members", "--json").json(ControlResponse.self) else {
            return []
        }
        return group.members
    }

    static func history(of daemon: TestDaemon) throws -> [String] {
        guard case .history(let page) = try daemon.peerctl("history", "--json").json(ControlResponse.self) else {
            return []
        }
        return page.entries.map(\.text)
    }

    @Test func aRemovedMembersOperationsMadeAfterItsRemovalReachNobodyThroughAnother() async throws {
        let scratch = try ScratchDirectory("removal")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        let carol = try TestDaemon("carol", in: scratch, peers: [bob])
        #expect(try carol.peerctl("add", "13").status == 0)
        #expect(try await alice.waitUntil { try alice.movieIDs() == [13] })

        // bob is away: alice's removal and carol's next add are made apart.
        bob.stop()
        let removed = try alice.peerctl("members", "remove", "carol", "--json")
        #expect(removed.status == 0, "\(removed)")
        #expect(try carol.peerctl("add", "550").status == 0)
        #expect(try carol.peerctl("want", "13").status == 0)

        // bob takes carol's new operations while alice is away, then meets alice and her removal.
        alice.stop()
        try bob.start()
        #expect(try await bob.waitUntil { try bob.movieIDs() == [13, 550] })
        try alice.start()
        // bob's redials to alice backed off while she was away (up to 30 s on a loaded machine): now.
        #expect(try bob.peerctl("connect", alice.address).status == 0)
        let ticks = Ticks(every: .milliseconds(50))
        #expect(
            try await waitUntil(ticks, within: .seconds(20)) {
                try Self.members(of: bob).contains { $0.name == "carol" && $0.state == .removed }
            }
        )
        // carol's session with bob closes, and she is refused from then on, with who removed her.
        #expect(
            try await waitUntil(ticks, within: .seconds(20)) {
                try carol.status().removed?.contains("removed from the group by alice") == true
            }
        )
        #expect(try alice.movieIDs() == [13])
        #expect(try bob.movieIDs() == [13])
        #expect(try alice.list() == bob.list())
        #expect(try alice.list().first?.marks.isEmpty != false)
        #expect(try Self.history(of: alice) == Self.history(of: bob))
        #expect(try !Self.history(of: bob).contains { $0.contains("carol wants") })
        let carolOnBob = try #require(try Self.members(of: bob).first { $0.name == "carol" })
        #expect(carolOnBob.removedByName == "alice")
        #expect((carolOnBob.seen ?? 0) >= 1)
        // carol can write no more: her own peerd says why.
        let refused = try carol.peerctl("add", "603")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("removed from the group by alice"))
    }

    @Test func aRemovedKeyCannotBeTrustedAgain() async throws {
        let scratch = try ScratchDirectory("removal-trust")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try bob.peerctl("add", "13").status == 0)
        #expect(try await alice.waitUntil { try alice.movieIDs() == [13] })
        let bobID = try bob.status().peer.rawValue
        #expect(try alice.peerctl("remove", "bob").status == 0)
        let again = try alice.peerctl("trust", bobID)
        #expect(again.status == 1)
        #expect(again.stderr.contains("a removed key never comes back"))
        let twice = try alice.peerctl("members", "remove", bobID)
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("already"))
        let mine = try alice.peerctl("members", "remove", "alice")
        #expect(mine.status == 1)
    }

    static func secretClosed(on daemon: TestDaemon) throws -> String? {
        guard case .members(let group) = try daemon.peerctl("members", "--json").json(ControlResponse.self) else {
            return "no members answer"
        }
        return group.secretClosed
    }

    /// proto/SECURITY.md, "Group secret": the removed member knows the secret, so after a removal it
    /// admits nobody new until a member runs with a new one; the old one never opens again.
    @Test func afterARemovalTheGroupSecretAdmitsNobodyUntilAMemberRunsANewOne() async throws {
        let scratch = try ScratchDirectory("removal-secret")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try bob.peerctl("add", "13").status == 0)
        #expect(try await alice.waitUntil { try alice.movieIDs() == [13] })
        #expect(try Self.secretClosed(on: alice) == nil)
        #expect(try alice.peerctl("members", "remove", "bob").status == 0)
        #expect(try Self.secretClosed(on: alice)?.contains("give every member a new secret file") == true)

        // A newcomer with the old secret is refused; so is one after alice restarts with it.
        let ticks = Ticks(every: .milliseconds(50))
        let carol = try TestDaemon("carol", in: scratch, peers: [alice])
        #expect(
            try await waitUntil(ticks, within: .seconds(20)) {
                try carol.peerctl("peers", "--json").json([PeerRecord].self).contains {
                    $0.lastError?.contains("not a member") == true
                }
            }
        )
        alice.stop()
        try alice.start()
        #expect(try Self.secretClosed(on: alice) != nil)

        // alice runs with a new secret: she records it, and it admits dave.
        alice.stop()
        let newSecret = "a new secret for the group, after bob"
        let renewed = try TestDaemon("alice", in: scratch, stateDir: alice.stateDir, groupSecret: newSecret)
        #expect(try await waitUntil(ticks, within: .seconds(20)) { try Self.secretClosed(on: renewed) == nil })
        let dave = try TestDaemon("dave", in: scratch, peers: [renewed], groupSecret: newSecret)
        #expect(try await dave.waitUntil { try dave.movieIDs() == [13] })
        #expect(try Self.history(of: renewed).contains { $0.contains("alice recorded the group secret in use") })
    }
}
