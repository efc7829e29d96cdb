import Foundation
import PeerdTestSupport
import Testing

/// ERRORS.md: a daemon that stops on SIGTERM sends `shutting-down` on every control connection,
/// `follow` streams included, then closes. (Peer sessions: `OrdinaryCloseTests`, whose peers log the
/// code they heard.) One daemon and one stop for all of them: each spawned daemon costs the suite.
@Suite("A stopping daemon says so")
struct ShutdownTests {
    @Test func everyControlConnectionHearsShuttingDownBeforeTheClose() async throws {
        let scratch = try ScratchDirectory("shutdown")
        let alice = try TestDaemon("alice", in: scratch)
        let follower = try RawConnection(unixPath: alice.socket)
        follower.sendFrame(#"{"type":"follow","version":1}"#)
        #expect(follower.readOneFrame()?["type"] as? String == "following")
        let idle = try RawConnection(unixPath: alice.socket)
        idle.sendFrame(#"{"type":"status","version":1}"#)
        #expect(idle.readOneFrame()?["type"] as? String == "status")
        let peerctl = try await FollowingPeerctl(alice)

        alice.stop()

        for (name, connection) in [("follow", follower), ("idle", idle)] {
            let (frames, closed) = connection.readFramesUntilClosed()
            #expect(closed, "\(name)")
            #expect(BadInputTests.errorCodes(frames) == ["shutting-down"], "\(name): \(frames)")
            #expect(frames.last?["type"] as? String == "error", "\(name): the error comes last")
        }
        try await peerctl.expectSaysShuttingDownAndExits69()
    }

    /// `peerctl list --follow --json`, running until the daemon stops.
    struct FollowingPeerctl {
        let process = Process()
        let printed = LockedLines()
        let said = LockedLines()

        /// Started, and following: an add made since has reached it.
        init(_ daemon: TestDaemon) async throws {
            let (out, err) = (Pipe(), Pipe())
            out.fileHandleForReading.readabilityHandler = { [printed] in printed.append($0.availableData) }
            err.fileHandleForReading.readabilityHandler = { [said] in said.append($0.availableData) }
            process.executableURL = Binaries.peerctl
            process.arguments = ["--socket", daemon.socket, "list", "--follow", "--json"]
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // The follower may subscribe after a first add; keep adding until one reaches it.
            var probe = 1
            let following = try await eventually(every: .milliseconds(200)) {
                probe += 1
                _ = try daemon.peerctl("add", String(probe))
                return !printed.all.isEmpty
            }
            #expect(following, "peerctl follows")
        }

        func expectSaysShuttingDownAndExits69() async throws {
            process.waitUntilExit()
            #expect(process.terminationStatus == 69)
            #expect(try await eventually { said.all.contains { $0.contains("shutting down") } }, "\(said.all)")
            #expect(printed.all.allSatisfy { $0.hasPrefix("{\"at\":") }, "only change records on stdout")
        }
    }
}
