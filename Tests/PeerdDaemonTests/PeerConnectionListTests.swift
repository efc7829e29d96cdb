import Logging
import NIOCore
import NIOEmbedded
import PeerdModel
import PeerdSecurity
import PeerdSync
import PeerdTestKit
import PeerdWire
import ServiceLifecycleTestKit
import SystemPackage
import Testing

@testable import PeerdDaemon

/// The driver's part in lists (proto/PEER.md, "How a list travels"): the test is the remote peer.
extension PeerConnectionDriverTests {
    static let friends = ListID("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!

    @Test func aListThePeerOpensIsTakenCaughtUpAndEndedAloneByItsError() async throws {
        let root = try ScratchDirectory("driver-lists")
        defer { root.remove() }
        let replica = ReplicaService.testing(local, name: "local", store: MemoryStore())
        let friends = ReplicaService.testing(local, name: "local", store: MemoryStore(), list: Self.friends)
        let spaces = try await ListSpaces.testing(group: replica)
        await spaces.hold(Self.friends, friends)
        let trust = try TrustService(
            local: local.peer,
            path: root.path.appending("trust.json"),
            groupKey: GroupSecret.key(Self.groupSecret),
            logger: Logger(label: "test")
        )
        let directory = PeerDirectory(localID: local.peer)
        let channel = NIOAsyncTestingChannel()
        let connection = try await connection(
            on: channel,
            replica: replica,
            spaces: spaces,
            trust: trust,
            directory: directory
        )
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await replica.run() }
                group.addTask { try await friends.run() }
                // A list of local's with the remote on it: a list goes only to its members' machines.
                let definition = ListDefinition(name: "friends", nonce: "00000000000000000000000000000001")
                let remoteOn = MemberStep.admit(remote.peer, via: .list, name: "remote")
                _ = try await friends.write([.defineList(definition), .member(remoteOn)], at: 1)
                _ = try await friends.submit(.add(Movie(id: MovieID(603)!)), at: 1)
                let outcome = try await playListRemote(on: channel, running: connection, list: friends)
                #expect(outcome.error == nil && outcome.establishedFor != nil)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    /// The remote's half: admission, a hello that says `lists`, then the list opened, caught up and
    /// ended with an `error` of the list's; the connection still answers a ping.
    func playListRemote(
        on channel: NIOAsyncTestingChannel,
        running connection: PeerConnection,
        list: ReplicaService
    ) async throws -> ConnectionOutcome {
        try await playing(connection, on: channel, lists: true) {
            let hello = PeerMessage.Hello(peer: remote.peer, name: "remote", port: 0, vector: .init(), lists: true)
            try await channel.writeInbound(WireCoding.encodeBuffer(PeerMessage.list(Self.friends, .hello(hello))))
            guard case .list(Self.friends, .hello(let theirs)) = try await notMembers(from: channel) else {
                throw DriverTestError.noOps
            }
            #expect(theirs.vector == (await list.vector) && theirs.lists == true)
            guard case .list(Self.friends, .ops(let caughtUp)) = try await notMembers(from: channel) else {
                throw DriverTestError.noOps
            }
            #expect(caughtUp.filter { $0.kind == .add }.map(\.movie.id) == [MovieID(603)!])
            let forbidden = WireError(.forbidden, "no member of this list lives on your machine any more")
            try await channel.writeInbound(WireCoding.encodeBuffer(PeerMessage.list(Self.friends, .error(forbidden))))
            try await channel.writeInbound(WireCoding.encodeBuffer(PeerMessage.ping))
            #expect(try await notMembers(from: channel) == .pong)
        }
    }

    /// The next message the daemon sends but `members` (sent again when the trust list names the peer).
    func notMembers(from channel: NIOAsyncTestingChannel) async throws -> PeerMessage {
        while true {
            let next = try await message(from: channel)
            if next.type != "members" { return next }
        }
    }
}
