import Foundation
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

/// `PeerConnection` over an `NIOAsyncTestingChannel`: the test is the remote peer, frame by frame,
/// and the daemon's side is the real driver with a real replica service, directory and trust list.
@Suite("Peer connection driver")
struct PeerConnectionDriverTests {
    static let groupSecret = Array("driver tests share this group secret".utf8)

    let local = try! PeerIdentity.generate(name: "local")
    let remote = try! PeerIdentity.generate(name: "remote")

    @Test func admitsASessionCatchesUpTakesOperationsAndClosesCleanly() async throws {
        let root = try ScratchDirectory("driver")
        defer { root.remove() }
        let scratch = root.path
        let store = MemoryStore()
        let replica = ReplicaService.testing(local, name: "local", store: store)
        let trust = try TrustService(
            local: local.peer,
            path: scratch.appending("trust.json"),
            groupKey: GroupSecret.key(Self.groupSecret),
            logger: Logger(label: "test")
        )
        let directory = PeerDirectory(localID: local.peer)
        let channel = NIOAsyncTestingChannel()
        let connection = try await connection(on: channel, replica: replica, trust: trust, directory: directory)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup { group in
                group.addTask { try await replica.run() }
                _ = try await replica.submit(.add(Movie(id: MovieID(603)!)), at: 1)
                let outcome = try await playRemote(on: channel, running: connection, replica: replica)
                #expect(outcome.peer == remote.peer)
                #expect(outcome.error == nil)
                #expect(outcome.establishedFor != nil)
                #expect(await trust.trustStates()[remote.peer] == .member)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    /// The daemon's side of a connection over `channel`, as the acceptor; its hello says `lists`
    /// when it has `spaces` to share.
    func connection(
        on channel: NIOAsyncTestingChannel,
        replica: ReplicaService,
        spaces: ListSpaces? = nil,
        trust: TrustService,
        directory: PeerDirectory
    ) async throws -> PeerConnection {
        let (wrapped, mailbox) = try await channel.eventLoop.submit {
            let mailbox = try ConnectionMailbox.install(on: channel)
            return (try PeerChannel.Connection(wrappingChannelSynchronously: channel), mailbox)
        }.get()
        let lists: Bool? = spaces == nil ? nil : true
        var held = spaces
        if held == nil { held = try await ListSpaces.testing(group: replica) }
        return PeerConnection(
            connection: wrapped,
            mailbox: mailbox,
            executor: nil,
            role: .acceptor,
            address: "192.0.2.9:50000",
            source: .inbound,
            expected: nil,
            via: nil,
            identify: { [remote] in (remote.peer, remote.certificateDER) },
            admitted: {},
            arriving: ArrivingBytes(),
            replica: replica,
            spaces: held!,
            directory: directory,
            trust: trust,
            catalog: CatalogPeers(asker: CatalogAsker(directory: directory), desk: nil),
            identity: local,
            localHello: { [local] in
                PeerMessage.Hello(peer: local.peer, name: "local", port: 7601, vector: $0, lists: lists)
            },
            configuration: .init(),
            trace: nil,
            logger: Logger(label: "test")
        )
    }

    /// The remote's admission, offer and proof each way, then the hellos (the remote's saying
    /// `lists` when asked to), until the daemon's first `members`.
    func admitRemote(on channel: NIOAsyncTestingChannel, lists: Bool? = nil) async throws {
        var handshake = AdmissionHandshake(
            endpoints: .init(
                local: remote.peer,
                localCertificate: remote.certificateDER,
                remote: local.peer,
                remoteCertificate: local.certificateDER
            ),
            policy: AdmissionPolicy(groupKey: GroupSecret.key(Self.groupSecret)),
            expected: local.peer
        )
        let offer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(offer.readableBytes == AdmissionRecord.offerLength)
        let proofs = handshake.received(Array(offer.readableBytesView))
        try await channel.writeInbound(ByteBuffer(bytes: handshake.offer()))
        let proof = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(handshake.received(Array(proof.readableBytesView)) == [.admit(via: .groupSecret, invite: nil)])
        guard case .send(let ours)? = proofs.first else { throw DriverTestError.noProof }
        try await channel.writeInbound(ByteBuffer(bytes: ours))
        #expect(try await message(from: channel).type == "hello")
        let hello = PeerMessage.Hello(peer: remote.peer, name: "remote", port: 0, vector: .init(), lists: lists)
        try await channel.writeInbound(WireCoding.encodeBuffer(PeerMessage.hello(hello)))
        #expect(try await message(from: channel).type == "members")
    }

    /// Runs `connection` while the test plays the remote: admission and hellos, then `body`, then
    /// a clean end; returns how the connection ended.
    func playing(
        _ connection: PeerConnection,
        on channel: NIOAsyncTestingChannel,
        lists: Bool? = nil,
        _ body: () async throws -> Void
    ) async throws -> ConnectionOutcome {
        try await withThrowingTaskGroup { group in
            group.addTask { await connection.run() }
            try await admitRemote(on: channel, lists: lists)
            try await body()
            try await channel.close()
            return try await group.next()!
        }
    }

    /// The remote's half: offer, proof, hello, one signed operation, then a clean end.
    func playRemote(
        on channel: NIOAsyncTestingChannel,
        running connection: PeerConnection,
        replica: ReplicaService
    ) async throws -> ConnectionOutcome {
        try await playing(connection, on: channel) {
            guard case .ops(let caughtUp) = try await message(from: channel) else { throw DriverTestError.noOps }
            #expect(caughtUp.map(\.movie.id) == [MovieID(603)!])

            var origin = LaterVersionOperation(identity: remote)
            let add = try origin.next(
                Operation(
                    id: caughtUp[0].id,
                    lamport: 1,
                    at: 2,
                    by: "remote",
                    kind: .add,
                    movie: Movie(id: MovieID(550)!)
                )
            )
            let changes = await replica.changes()
            try await channel.writeInbound(WireCoding.encodeBuffer(PeerMessage.ops([add])))
            let merged = await changes.first { _ in true }
            guard case .added(let row, let by)? = merged?.first else { throw DriverTestError.notMerged }
            #expect(row.movie.id == MovieID(550)! && by.id == add.id)
        }
    }

    func message(from channel: NIOAsyncTestingChannel) async throws -> PeerMessage {
        try WireCoding.decode(PeerMessage.self, from: try await channel.waitForOutboundWrite(as: ByteBuffer.self))
    }

    enum DriverTestError: Error {
        case noProof, noOps, notMerged
    }
}
