import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// Profiles are members who live on a machine (proto/PEER.md, "Profiles"): real daemons on
/// loopback, alice's machine with sam and kim on it, and bob's.
@Suite(.serialized) struct ProfileTests {
    /// What `member` marked on each movie of `daemon`'s list: "550 want", "603 seen".
    static func marks(of member: String, on daemon: TestDaemon) throws -> Set<String> {
        var found: Set<String> = []
        for row in try daemon.list() {
            for marks in row.marks where marks.name == member {
                if marks.want { found.insert("\(row.movieId) want") }
                if marks.seen { found.insert("\(row.movieId) seen") }
            }
        }
        return found
    }

    static func unseen(by member: String, on daemon: TestDaemon) throws -> [Int] {
        try daemon.peerctl("list", "--unseen", "--by", member, "--json").json([MovieRecord].self).map(\.movieId)
    }

    static func history(of daemon: TestDaemon) throws -> [String] {
        guard case .history(let page) = try daemon.peerctl("history", "--json").json(ControlResponse.self) else {
            return []
        }
        return page.entries.map(\.text)
    }

    @Test func twoProfilesOnOneMachineKeepTheirMarksWatchesAndHistoryApartOnEveryPeer() async throws {
        let scratch = try ScratchDirectory("profiles")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try alice.peerctl("profile", "add", "sam").status == 0)
        #expect(try alice.peerctl("profile", "add", "kim").status == 0)
        #expect(try alice.peerctl("add", "550").status == 0)
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try alice.peerctl("--profile", "sam", "want", "550").status == 0)
        #expect(try alice.peerctl("--profile", "kim", "want", "603").status == 0)
        #expect(try alice.peerctl("--profile", "kim", "seen", "550").status == 0)
        #expect(try alice.peerctl("watched", "603", "--with", "sam").status == 0)

        #expect(try await bob.waitUntil { try Self.marks(of: "sam", on: bob).count == 2 })
        #expect(try await bob.waitUntil { try Self.marks(of: "kim", on: bob).count == 2 })
        for daemon in [alice, bob] {
            #expect(try Self.marks(of: "sam", on: daemon) == ["550 want", "603 seen"])
            #expect(try Self.marks(of: "kim", on: daemon) == ["603 want", "550 seen"])
            #expect(try Self.marks(of: "alice", on: daemon) == ["603 seen"])
            #expect(try Self.unseen(by: "sam", on: daemon) == [550])
            #expect(try Self.unseen(by: "kim", on: daemon) == [603])
            let history = try Self.history(of: daemon)
            #expect(history.contains { $0.hasPrefix("sam wants to watch") })
            #expect(history.contains { $0.hasPrefix("kim has seen") })
            #expect(history.contains { $0.contains("made the profile kim") })
        }
        let samOnBob = try #require(try GroupRemovalTests.members(of: bob).first { $0.name == "sam" })
        #expect(samOnBob.via == .profile)
        #expect(samOnBob.admittedByName == "alice")
        // A profile is a member, not a machine: `peers` does not list it.
        #expect(try !bob.peerctl("peers").stdout.contains("sam"))
    }

    @Test func theGroupRemovesAProfileAloneAndItsMachineWithAllItsProfiles() async throws {
        let scratch = try ScratchDirectory("profiles-removal")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try alice.peerctl("profile", "add", "sam").status == 0)
        #expect(try alice.peerctl("profile", "add", "kim").status == 0)
        #expect(try alice.peerctl("add", "550").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [550] })
        #expect(try await bob.waitUntil { try GroupRemovalTests.members(of: bob).contains { $0.name == "kim" } })

        #expect(try bob.peerctl("members", "remove", "sam").status == 0)
        #expect(
            try await alice.waitUntil {
                try GroupRemovalTests.members(of: alice).contains { $0.name == "sam" && $0.state == .removed }
            }
        )
        let refused = try alice.peerctl("--profile", "sam", "want", "550")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("removed from the group by bob"))
        #expect(try alice.peerctl("--profile", "kim", "want", "550").status == 0)
        #expect(try alice.peerctl("want", "550").status == 0)
        #expect(try await bob.waitUntil { try Self.marks(of: "kim", on: bob) == ["550 want"] })
        #expect(try Self.marks(of: "sam", on: bob).isEmpty)

        // Removing alice's machine removes kim with it: alice holds kim's key.
        #expect(try bob.peerctl("members", "remove", "alice").status == 0)
        let members = try GroupRemovalTests.members(of: bob)
        #expect(members.first { $0.name == "kim" }?.state == .removed)
        #expect(members.first { $0.name == "alice" }?.state == .removed)
    }

    @Test func aProfileOnlyActsOnItsOwnMachineAndAnUnknownOneIsNamed() async throws {
        let scratch = try ScratchDirectory("profiles-unknown")
        let alice = try TestDaemon("alice", in: scratch)
        let unknown = try alice.peerctl("--profile", "zoe", "want", "550")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no profile 'zoe' lives on this peerd"))
        #expect(try alice.peerctl("profile", "add", "sam").status == 0)
        let twice = try alice.peerctl("profile", "add", "sam")
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("lives on this machine already"))
        let nested = try alice.peerctl("--profile", "sam", "profile", "add", "tom")
        #expect(nested.status == 1)
        // The key survives a restart: sam still acts after it.
        alice.stop()
        try alice.start()
        #expect(try alice.peerctl("--profile", "sam", "want", "550").status == 0)
        #expect(try alice.peerctl("add", "550").status == 0)
        #expect(try Self.marks(of: "sam", on: alice) == ["550 want"])
    }
}
