import Foundation
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

@Suite("Replication between real peerd processes")
struct ReplicationTests {
    @Test func twoPeersShowTheSameListInTheSameOrder() async throws {
        let scratch = try ScratchDirectory("pair")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])

        let added = try alice.peerctl("add", "603", "--title", "The Matrix", "--year", "1999")
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.contains("added 603 The Matrix (1999)"))
        let fromURL = try bob.peerctl("add", "https://www.themoviedb.org/movie/550-fight-club")
        #expect(fromURL.status == 0, "\(fromURL)")

        #expect(
            try await TestDaemon.waitUntil([alice, bob]) {
                try alice.movieIDs().count == 2 && bob.movieIDs().count == 2
            }
        )
        let onAlice = try alice.list()
        #expect(onAlice.map(\.movieId) == [603, 550])
        #expect(try bob.list() == onAlice)
        let matrix = try #require(onAlice.first)
        #expect(matrix.title == "The Matrix")
        #expect(matrix.year == 1999)
        #expect(matrix.addedBy == ["alice"])
        #expect(onAlice.last?.addedBy == ["bob"])
    }

    @Test func aMovieAddedOnTwoPeersIsOneRowListingBothAdders() async throws {
        let scratch = try ScratchDirectory("both")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        // A session shows only in `peers`; no control event announces it: a poll.
        #expect(
            try await waitUntil(Ticks(every: .milliseconds(50))) {
                try alice.peerctl("peers", "--json").stdout.contains("\"connected\"")
            }
        )

        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })
        #expect(try bob.peerctl("add", "603", "--title", "The Matrix").status == 0)

        #expect(try await alice.waitUntil { try alice.list().first?.addedBy == ["alice", "bob"] })
        let row = try #require(try bob.list().first)
        #expect(try alice.list() == [row])
        #expect(row.addedBy == ["alice", "bob"])
        #expect(row.title == "The Matrix")
    }

    @Test func aRemovalIsSharedAndALaterReAddShowsTheMovieAgain() async throws {
        let scratch = try ScratchDirectory("remove")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])

        #expect(try alice.peerctl("add", "550", "--title", "Fight Club").status == 0)
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [550, 603] })

        let removed = try alice.peerctl("remove", "550")
        #expect(removed.status == 0, "\(removed)")
        #expect(removed.stdout.contains("removed 550 Fight Club"))
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })

        let again = try alice.peerctl("remove", "550")
        #expect(again.status == 1)
        #expect(again.stderr.contains("not on the list"))

        #expect(try bob.peerctl("add", "550").status == 0)
        #expect(
            try await TestDaemon.waitUntil([alice, bob]) {
                try alice.movieIDs() == [603, 550] && bob.movieIDs() == [603, 550]
            }
        )
        #expect(try alice.list().last?.addedBy == ["bob"])
    }

    @Test func anAddOnAReachesCThroughBOnALine() async throws {
        let scratch = try ScratchDirectory("line")
        let a = try TestDaemon("a", in: scratch)
        let b = try TestDaemon("b", in: scratch, peers: [a])
        let c = try TestDaemon("c", in: scratch, peers: [b])

        #expect(try a.peerctl("add", "603", "--title", "The Matrix").status == 0)
        #expect(try c.peerctl("add", "680").status == 0)

        #expect(try await TestDaemon.waitUntil([a, c]) { try c.movieIDs().count == 2 && a.movieIDs().count == 2 })
        #expect(try a.list() == c.list())
        #expect(try b.list() == c.list())
        // c never connected to a: everything came through b.
        let cPeers = try c.peerctl("peers", "--json").json([PeerRecord].self)
        #expect(cPeers.filter { $0.state == .connected }.map(\.name) == ["b"])
        let relayed = try #require(cPeers.first { $0.source == .relay })
        #expect(relayed.name == "a")
        #expect(relayed.state == .relayed)
        #expect(relayed.addresses.isEmpty)
        #expect(try c.peerctl("peers").stdout.contains("via peers"))
        #expect(try c.list().first { $0.movieId == 603 }?.addedBy == ["a"])
    }

    @Test func aPeerThatJoinsLateCatchesUpOnEverything() async throws {
        let scratch = try ScratchDirectory("late")
        let alice = try TestDaemon("alice", in: scratch)
        for id in 1...150 {
            #expect(try alice.peerctl("add", String(id)).status == 0)
        }
        #expect(try alice.peerctl("remove", "7").status == 0)

        let late = try TestDaemon("late", in: scratch, peers: [alice])
        #expect(try await late.waitUntil { try late.movieIDs().count == 149 })
        #expect(try late.list() == alice.list())
        // 151 of alice's, and the record of their admission by the group secret (one per pair).
        #expect(try await late.waitUntil { try late.status().operations == 152 })
    }

    @Test func peersReconnectWithBackoffWhenOneComesBack() async throws {
        let scratch = try ScratchDirectory("reconnect")
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice])
        #expect(try alice.peerctl("add", "1").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [1] })

        alice.stop()
        #expect(try bob.peerctl("add", "2").status == 0)
        #expect(
            // A session's end shows only in `peers`; no control event announces it: a poll.
            try await waitUntil(Ticks(every: .milliseconds(50))) {
                try bob.peerctl("peers", "--json").json([PeerRecord].self).first?.state == .retrying
            }
        )
        try alice.start()
        #expect(try await alice.waitUntil(within: .seconds(40)) { try alice.movieIDs() == [1, 2] })
    }

    @Test func connectDialsANewPeerAndPeersShowsIt() async throws {
        let scratch = try ScratchDirectory("connect")
        let alice = try TestDaemon("alice", in: scratch)
        let carol = try TestDaemon("carol", in: scratch)
        #expect(try carol.peerctl("add", "13").status == 0)

        let run = try alice.peerctl("connect", carol.address)
        #expect(run.status == 0, "\(run)")
        #expect(try await alice.waitUntil { try alice.movieIDs() == [13] })

        let peers = try alice.peerctl("peers", "--json").json([PeerRecord].self)
        let carolRow = try #require(peers.first)
        #expect(peers.count == 1)
        #expect(carolRow.name == "carol")
        #expect(carolRow.source == .static)
        #expect(carolRow.state == .connected)
        // Her add, and perhaps the record of their admission by the group secret (one of the two makes it).
        #expect(carolRow.opsReceived >= 1)
        #expect(carolRow.connectedSince != nil)
        let text = try alice.peerctl("peers")
        #expect(text.stdout.contains("carol"))
        #expect(text.stdout.contains("connected"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to start peerd as the unprivileged user nobody"))
    func peersConnectAndReplicateWhenRunByAnOrdinaryUser() async throws {
        let scratch = try ScratchDirectory("nobody")
        // nobody must be able to create its state directories and sockets here.
        chmod(scratch.url.path, 0o777)
        let alice = try TestDaemon("alice", in: scratch, runAsNobody: true)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], runAsNobody: true)
        #expect(try alice.peerctl("add", "603").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs() == [603] })
        let peers = try bob.peerctl("peers", "--json").json([PeerRecord].self)
        #expect(peers.first?.state == .connected)
        #expect(peers.first?.lastError == nil)
    }
}
