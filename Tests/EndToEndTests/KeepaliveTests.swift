import Foundation
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Keepalive and silence (proto/PEER.md, "Keepalive and liveness") on real daemons, whose
/// connections set one timer at their session's next deadline instead of ticking every second.
@Suite("Keepalive at the session's deadlines")
struct KeepaliveTests {
    static let interval = ["--keepalive-interval", "0.3"]

    static func peer(of daemon: TestDaemon) throws -> PeerRecord? {
        try daemon.peerctl("peers", "--json").json([PeerRecord].self).first
    }

    @Test func aQuietSessionStaysUpOnPingsAndASilentPeerIsClosedAfterThreeIntervals() async throws {
        let scratch = try ScratchDirectory("keepalive")
        let bob = try TestDaemon("bob", in: scratch, arguments: Self.interval)
        let alice = try TestDaemon("alice", in: scratch, peers: [bob], arguments: Self.interval)
        // Sessions and the log show in `peers` and a file; no control event announces them: polls.
        #expect(try await waitUntil(Ticks(every: .milliseconds(50))) { try Self.peer(of: alice)?.state == .connected })
        let since = try #require(try Self.peer(of: alice)?.connectedSince)

        // Nothing to replicate for ten intervals: a session without pings would be closed for
        // silence after three (0.9 s), and dialed again with a newer `connectedSince`.
        try await Task.sleep(for: .seconds(3))
        #expect(try Self.peer(of: alice)?.connectedSince == since)
        #expect(try Self.peer(of: bob)?.state == .connected)

        // bob stops answering, though its kernel still acknowledges: only silence can tell.
        let frozen = try #require(bob.pid)
        kill(frozen, SIGSTOP)
        defer { kill(frozen, SIGCONT) }
        // alice closes the session for silence, with the protocol's words (in its log: bob can't read).
        #expect(
            try await waitUntil(Ticks(every: .milliseconds(50)), within: .seconds(10)) {
                alice.log.contains("nothing received for")
            }
        )
    }
}
