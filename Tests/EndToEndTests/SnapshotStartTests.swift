import Foundation
import PeerControl
import PeerdModel
import PeerdTestKit
import PeerdTestSupport
import PeerdWire
import Testing

/// A real peerd keeps a snapshot of its replica beside the log when it stops, and its next start
/// reads the snapshot and only the log's tail; a snapshot that is missing its newest operations (a
/// kill) is caught up from the log, and a damaged one is set aside and the whole log replayed.
@Suite("Start from the replica's snapshot")
struct SnapshotStartTests {
    /// How many operations the daemon's last start read from the log (its "peerd serving" line).
    static func replayed(_ daemon: TestDaemon) -> Int? {
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("peerd serving") }
        guard let line = lines.last, let field = line.split(separator: " ").first(where: { $0.hasPrefix("replayed=") })
        else { return nil }
        return Int(field.dropFirst("replayed=".count))
    }

    @Test func aStartReadsTheSnapshotAndTheLogsTailAndADamagedSnapshotIsSetAside() async throws {
        let scratch = try ScratchDirectory("snapshot-start")
        let alice = try TestDaemon("alice", in: scratch)
        let snapshot = URL(fileURLWithPath: alice.stateDir).appendingPathComponent("operations.snapshot")
        for movie in ["603", "680", "550"] { #expect(try alice.peerctl("add", movie).status == 0) }
        #expect(try alice.peerctl("remove", "550").status == 0)
        #expect(Self.replayed(alice) == 0, "a new state directory has nothing to read")

        alice.stop()
        #expect(FileManager.default.fileExists(atPath: snapshot.path), "kept when the daemon stopped")
        try alice.start()
        #expect(Self.replayed(alice) == 0, "everything came from the snapshot")
        #expect(try alice.movieIDs() == [603, 680])

        // Killed: no snapshot of the newest add; the next start reads it from the log's tail.
        #expect(try alice.peerctl("add", "13").status == 0)
        alice.stop(signal: SIGKILL)
        try alice.start()
        #expect(Self.replayed(alice) == 1)
        #expect(try alice.movieIDs() == [603, 680, 13])

        // Damaged: set aside, the whole log replayed, and a sound snapshot kept at the next stop.
        alice.stop()
        var bytes = try Data(contentsOf: snapshot)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: snapshot)
        try alice.start()
        #expect(alice.log.contains("not using the replica's snapshot; replaying the whole log"))
        #expect(alice.log.contains("damaged or cut short (checksum mismatch)"))
        #expect(Self.replayed(alice) == 5)
        #expect(try alice.movieIDs() == [603, 680, 13])
        alice.stop()
        try alice.start()
        #expect(Self.replayed(alice) == 0)
        #expect(try alice.movieIDs() == [603, 680, 13])
    }

    /// A crash loop: killed with SIGKILL again and again while adds stream in, with snapshots kept
    /// in the background meanwhile (one is due every 1,000 operations at first), the daemon loses
    /// no acknowledged add, and each start reads a snapshot and the log after it.
    @Test func killedAgainAndAgainWhileSnapshotsAreKeptItLosesNoAcknowledgedAdd() async throws {
        let scratch = try ScratchDirectory("snapshot-crashes")
        let alice = try TestDaemon("alice", in: scratch)
        let acked = LockedIDs()
        let snapshot = URL(fileURLWithPath: alice.stateDir).appendingPathComponent("operations.snapshot").path
        for round in 0..<3 {
            let target = (round + 1) * 1_100
            let socket = alice.socket
            let done = DispatchGroup()
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for id in (round * 10_000 + 1)...(round * 10_000 + 5_000) {
                    guard let client = try? ControlClient(socketPath: socket),
                        case .added = try? client.request(AddRequest(movie: Movie(id: MovieID(id)!)))
                    else { return }
                    acked.insert(id)
                }
            }
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                // Killed once past the target with a snapshot on disk (one is due at 1,000).
                for _ in 0..<60_000 {
                    if let status = try? alice.status(), status.movies >= target,
                        FileManager.default.fileExists(atPath: snapshot)
                    {
                        break
                    }
                    usleep(500)
                }
                alice.stop(signal: SIGKILL)
            }
            done.wait()
            try alice.start()
            let listed = Set(try alice.movieIDs())
            let lost = Set(acked.all).subtracting(listed)
            #expect(lost.isEmpty, "round \(round): acknowledged but lost: \(lost.sorted().prefix(10))")
            #expect(listed.count >= target, "round \(round) was killed before it reached \(target) movies")
            let replayed = try #require(Self.replayed(alice))
            #expect(
                replayed < listed.count,
                "round \(round): a snapshot was read (\(replayed) of \(listed.count) from the log)"
            )
        }
    }
}
