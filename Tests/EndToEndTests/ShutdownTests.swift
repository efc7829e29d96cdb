import Foundation
import PeerdModel
import PeerdTestSupport
import PeerdWire
import Testing

/// proto/PEER.md ("Errors and closing") and ERRORS.md: a daemon that stops on SIGTERM sends
/// `shutting-down` on every peer session and control connection, `follow` streams included, then
/// closes.
@Suite("A stopping daemon says so")
struct ShutdownTests {
    @Test func aPeerSessionHearsShuttingDownBeforeTheClose() async throws {
        let scratch = try ScratchDirectory("shutdown-peer")
        let alice = try TestDaemon("alice", in: scratch)
        async let exchange = InsiderConnection.exchange(
            port: alice.port,
            groupSecret: TestDaemon.testGroupSecret,
            timeout: .seconds(30)
        ) { me in
            let hello = PeerMessage.Hello(peer: PeerID(me)!, name: "insider", port: 0, vector: VersionVector())
            return [RawConnection.frame(WireCoding.encode(PeerMessage.hello(hello)))]
        }
        // Generous: on a loaded machine TLS and admission may take several tries (InsiderConnection).
        let connected = try await eventually(timeout: .seconds(120)) {
            try OrdinaryCloseTests.peers(of: alice).contains { $0.state == .connected }
        }
        try #require(connected, "the insider's session is up")
        alice.stop()
        let ended = try await exchange
        #expect(ended.admitted)
        #expect(ended.closed, "alice closed the session")
        #expect(BadInputTests.errorCodes(ended.frames) == ["shutting-down"], "\(ended.frames)")
        #expect(ended.frames.last?["type"] as? String == "error", "the error is the session's last frame")
    }

    @Test func aFollowStreamHearsShuttingDownBeforeTheClose() throws {
        let scratch = try ScratchDirectory("shutdown-follow")
        let alice = try TestDaemon("alice", in: scratch)
        let follower = try RawConnection(unixPath: alice.socket)
        follower.sendFrame(#"{"type":"follow","version":1}"#)
        #expect(follower.readOneFrame()?["type"] as? String == "following")
        alice.stop()
        let (frames, closed) = follower.readFramesUntilClosed()
        #expect(closed)
        #expect(frames.map { $0["code"] as? String } == ["shutting-down"], "\(frames)")
    }

    @Test func anIdleControlConnectionHearsShuttingDownBeforeTheClose() throws {
        let scratch = try ScratchDirectory("shutdown-control")
        let alice = try TestDaemon("alice", in: scratch)
        let client = try RawConnection(unixPath: alice.socket)
        client.sendFrame(#"{"type":"status","version":1}"#)
        #expect(client.readOneFrame()?["type"] as? String == "status")
        alice.stop()
        let (frames, closed) = client.readFramesUntilClosed()
        #expect(closed)
        #expect(frames.map { $0["code"] as? String } == ["shutting-down"], "\(frames)")
    }

    @Test func peerctlListFollowSaysThePeerdStoppedAndExits69() async throws {
        let scratch = try ScratchDirectory("shutdown-peerctl")
        let alice = try TestDaemon("alice", in: scratch)
        let process = Process()
        process.executableURL = Binaries.peerctl
        process.arguments = ["--socket", alice.socket, "list", "--follow", "--json"]
        let (out, err) = (Pipe(), Pipe())
        let (printed, said) = (LockedLines(), LockedLines())
        out.fileHandleForReading.readabilityHandler = { handle in printed.append(handle.availableData) }
        err.fileHandleForReading.readabilityHandler = { handle in said.append(handle.availableData) }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        // The follower may subscribe after a first add; keep adding until one reaches it.
        var probe = 1
        #expect(
            try await eventually(every: .milliseconds(200)) {
                probe += 1
                _ = try alice.peerctl("add", String(probe))
                return !printed.all.isEmpty
            }
        )
        alice.stop()
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        #expect(try await eventually { said.all.contains { $0.contains("shutting down") } }, "\(said.all)")
        #expect(printed.all.allSatisfy { $0.hasPrefix("{\"at\":") }, "only change records on stdout")
    }
}
