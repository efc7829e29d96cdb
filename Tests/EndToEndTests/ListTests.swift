import Foundation
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// Several lists (proto/PEER.md, "Lists"): three real daemons on loopback, all in one group; alice
/// and carol share "friends", bob does not, and nothing of it reaches bob: not on the wire, not on
/// his disk.
@Suite(.serialized) struct ListTests {
    static func movies(_ daemon: TestDaemon, list: String) throws -> [Int] {
        try daemon.peerctl("list", "--list", list, "--json").json([MovieRecord].self).map(\.movieId)
    }

    static func lists(_ daemon: TestDaemon) throws -> [ListRecord] {
        guard case .lists(let lists) = try daemon.peerctl("lists", "--json").json(ControlResponse.self) else {
            return []
        }
        return lists
    }

    /// Every byte of every file under `directory`.
    static func bytes(under directory: String) -> [UInt8] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var all: [UInt8] = []
        for case let file as String in walker {
            if let data = FileManager.default.contents(atPath: directory + "/" + file) { all += data }
        }
        return all
    }

    /// Three daemons in a mesh, bob tracing the frames he receives, each knowing the others as
    /// members (a list can be made with them).
    static func threeHouses(_ scratch: ScratchDirectory) async throws -> (TestDaemon, TestDaemon, TestDaemon) {
        let alice = try TestDaemon("alice", in: scratch)
        let bob = try TestDaemon("bob", in: scratch, peers: [alice], traceFrames: true)
        let carol = try TestDaemon("carol", in: scratch, peers: [alice, bob])
        for daemon in [alice, bob, carol] {
            let known = try await daemon.waitUntil {
                Set(try GroupRemovalTests.members(of: daemon).compactMap(\.name)).isSuperset(of: [
                    "alice", "bob", "carol",
                ])
            }
            #expect(known, "\(daemon.name) knows all three members")
        }
        return (alice, bob, carol)
    }

    @Test func aListGoesToItsMembersMachinesAndNoWhereElse() async throws {
        let scratch = try ScratchDirectory("lists")
        let (alice, bob, carol) = try await Self.threeHouses(scratch)
        #expect(try alice.peerctl("add", "550").status == 0)
        for daemon in [bob, carol] { #expect(try await daemon.waitUntil { try daemon.movieIDs() == [550] }) }

        let made = try alice.peerctl("lists", "create", "friends", "--members", "carol")
        #expect(made.status == 0, "\(made.stderr)")
        let friends = try #require(try Self.lists(alice).first { $0.name == "friends" })
        let id = try #require(friends.id)
        #expect(Set(friends.members.compactMap(\.name)) == ["alice", "carol"])
        #expect(try alice.peerctl("add", "603", "--list", "friends").status == 0)
        #expect(try carol.peerctl("want", "603", "--list", "friends").status == 0)
        #expect(try await carol.waitUntil { try Self.movies(carol, list: "friends") == [603] })
        #expect(
            try await alice.waitUntil {
                let rows = try alice.peerctl("list", "--list", "friends", "--json").json([MovieRecord].self)
                return rows.first?.marks.contains { $0.name == "carol" && $0.want } == true
            }
        )
        // "Seen" is seen everywhere: marked on the group's list, it shows on friends, and the other way.
        // (550 is the group's movie already: marking it and listing it on friends tells bob nothing new.)
        #expect(try carol.peerctl("seen", "550").status == 0)
        #expect(try carol.peerctl("add", "550", "--list", "friends").status == 0)
        #expect(try carol.peerctl("want", "550", "--list", "friends").status == 0)
        let onFriends = try carol.peerctl("list", "--list", "friends", "--json").json([MovieRecord].self)
        #expect(onFriends.first { $0.movieId == 550 }?.marks.contains { $0.name == "carol" && $0.seen } == true)
        let onGroup = try carol.list().first { $0.movieId == 550 }
        #expect(onGroup?.marks.contains { $0.name == "carol" && $0.want } == true)
        // The group's list is unchanged everywhere; bob has no list called friends.
        for daemon in [alice, bob, carol] { #expect(try daemon.movieIDs() == [550]) }
        #expect(try Self.lists(bob).map(\.name) == ["group"])
        #expect(try bob.peerctl("list", "--list", "friends").status == 1)

        // After a round trip through bob of something new in the group's list, nothing of friends came.
        #expect(try carol.peerctl("add", "13").status == 0)
        #expect(try await bob.waitUntil { try bob.movieIDs().contains(13) })
        let listID = Array(id.rawValue.utf8)
        #expect(!Self.bytes(under: bob.stateDir).contains(listID), "bob's disk names the list")
        #expect(!FileManager.default.fileExists(atPath: bob.stateDir + "/lists/" + id.rawValue))
        let frames = bob.receivedFrames()
        #expect(!frames.isEmpty, "bob traced his frames")
        #expect(!frames.contains { $0.contains(listID) }, "a frame bob received names the list")
        #expect(!frames.contains { $0.contains(Array(#""id":603"#.utf8)) }, "a frame bob received names 603")
        // Its own log holds it, apart: alice's and carol's.
        for daemon in [alice, carol] {
            #expect(
                FileManager.default.fileExists(atPath: daemon.stateDir + "/lists/" + id.rawValue + "/operations.log")
            )
        }
    }

    @Test func aMemberPutOnTheListReceivesItAndOneTakenOffWritesNothingThatCounts() async throws {
        let scratch = try ScratchDirectory("lists-members")
        let (alice, bob, carol) = try await Self.threeHouses(scratch)
        #expect(try alice.peerctl("lists", "create", "friends", "--members", "carol").status == 0)
        #expect(try alice.peerctl("add", "603", "--list", "friends").status == 0)
        #expect(try await carol.waitUntil { try Self.movies(carol, list: "friends") == [603] })

        #expect(try carol.peerctl("lists", "add-member", "friends", "bob").status == 0)
        #expect(try await bob.waitUntil { try Self.movies(bob, list: "friends") == [603] })
        #expect(try bob.peerctl("add", "550", "--list", "friends").status == 0)
        for daemon in [alice, carol] {
            #expect(try await daemon.waitUntil { try Self.movies(daemon, list: "friends") == [603, 550] })
        }

        #expect(try alice.peerctl("lists", "remove-member", "friends", "bob").status == 0)
        #expect(
            try await bob.waitUntil {
                try Self.lists(bob).first { $0.name == "friends" }.map { !$0.members.contains { $0.name == "bob" } }
                    ?? false
            }
        )
        let refused = try bob.peerctl("add", "13", "--list", "friends")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("removed from this list"), "\(refused.stderr)")
        // What bob held stays with him.
        #expect(try Self.movies(bob, list: "friends") == [603, 550])
    }

    @Test func aMemberRemovedFromTheGroupIsRemovedFromItsLists() async throws {
        let scratch = try ScratchDirectory("lists-group-removal")
        let (alice, bob, carol) = try await Self.threeHouses(scratch)
        #expect(try alice.peerctl("lists", "create", "friends", "--members", "bob,carol").status == 0)
        // carol writes into the list once it has reached her (on a loaded machine, not at once).
        #expect(try await carol.waitUntil { try Self.lists(carol).contains { $0.name == "friends" } })
        #expect(try carol.peerctl("add", "603", "--list", "friends").status == 0)
        #expect(try await bob.waitUntil { try Self.movies(bob, list: "friends") == [603] })

        #expect(try alice.peerctl("members", "remove", "carol").status == 0)
        for daemon in [alice, bob] {
            #expect(
                try await daemon.waitUntil {
                    let friends = try Self.lists(daemon).first { $0.name == "friends" }
                    return friends.map { Set($0.members.compactMap(\.name)) == ["alice", "bob"] } ?? false
                },
                "\(daemon.name) still has carol on friends"
            )
        }
        let history = try bob.peerctl("history", "--list", "friends").stdout
        #expect(history.contains("removed carol from friends"), "\(history)")
        // What carol added before stays on the list.
        #expect(try Self.movies(bob, list: "friends") == [603])
    }
}
