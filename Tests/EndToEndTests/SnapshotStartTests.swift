import Foundation
import PeerdTestKit
import PeerdTestSupport
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
}
