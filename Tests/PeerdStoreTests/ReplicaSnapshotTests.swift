import Foundation
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

/// A replica's snapshot beside its log: read back whole, the replica restored from it and the
/// log's tail is the one replaying the whole log gave; a torn, stale or foreign snapshot is refused
/// with the reason, never used.
@Suite("Replica snapshot")
struct ReplicaSnapshotTests {
    static let me = PeerID("fedcba9876543210fedcba9876543210")!

    /// `count` operations of one origin (adds, every fifth a removal) and, from a second origin,
    /// a mark on each movie added.
    static func history(count: Int) -> [Operation] {
        let adds = makeOperations(count: count)
        let marker = PeerID("aaaabbbbccccddddeeeeffff00001111")!
        let marks = adds.filter { $0.kind == .add }.enumerated().map { index, add in
            Operation(
                id: OperationID(origin: marker, seq: UInt64(index + 1)),
                lamport: add.lamport + 1,
                at: add.at + 1,
                by: "marker",
                kind: .mark,
                movie: Movie(id: add.movie.id),
                payload: .mark(Mark.make(kind: index % 3 == 0 ? .seen : .want, set: true, on: nil, rating: nil))
            )
        }
        return adds + marks
    }

    /// Replays the log at `path` (from `snapshot` when given) into a replica.
    static func open(
        _ path: FilePath,
        from snapshot: ReplicaSnapshot.Contents? = nil
    ) throws -> (replica: Replica, log: OperationLog, read: Int) {
        var replica = snapshot.map { Replica(restoring: $0.parts)! } ?? Replica(id: me, name: "me")
        var read = 0
        let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger, tail: snapshot?.logLength) {
            op,
            offset in
            read += 1
            _ = replica.replay(op, at: offset)
        }
        replica.archive = log
        return (replica, log, read)
    }

    @Test func aReplicaRestoredFromItsSnapshotAndTheLogsTailIsTheOneTheWholeLogGives() async throws {
        try await withScratchDirectory("snapshot") { directory in
            let (logPath, snapshotPath) = (
                directory.appending("operations.log"), directory.appending("operations.snapshot")
            )
            // Large enough that the snapshot is written in more than one chunk.
            let history = Self.history(count: 12_000)
            let (first, _, _) = try OperationLog.open(at: logPath, logger: quietLogger)
            try first.append(Array(history[..<16_000]))
            let before = try Self.open(logPath)
            // Appended after the replica was read (a commit under way while a snapshot is kept): the
            // snapshot covers the log only as far as the last operation the replica holds.
            try before.log.append(Array(history[16_000...]))
            try ReplicaSnapshot.write(
                before.replica.parts!,
                logPath: logPath,
                version: "1.0",
                to: snapshotPath
            )

            let contents = try #require(try ReplicaSnapshot.read(at: snapshotPath, logPath: logPath, version: "1.0"))
            let restored = try Self.open(logPath, from: contents)
            let replayed = try Self.open(logPath)
            #expect(history.count == 21_600)
            #expect(restored.read == 5_600, "only the tail is read")
            #expect(replayed.read == 21_600)
            let size = try #require(FileManager.default.attributesOfItem(atPath: snapshotPath.string)[.size] as? Int)
            #expect(size > SnapshotWriter.chunk)
            #expect(restored.replica.vector == replayed.replica.vector)
            #expect(restored.replica.list == replayed.replica.list)
            #expect(restored.replica.list.rows == replayed.replica.list.rows)
            for origin in replayed.replica.vector.entries.keys {
                let seqs = 1...replayed.replica.vector[origin]
                #expect(
                    restored.replica.operations(from: origin, seqs: seqs) == history.filter { $0.id.origin == origin }
                )
            }
            let page = { (replica: Replica) in replica.history(before: nil, limit: 500) { _ in true } }
            #expect(page(restored.replica) == page(replayed.replica))
        }
    }

    /// The snapshot of the log's first 2,000 operations at `snapshotPath`, and the log's path.
    static func snapshotted(in directory: FilePath) throws -> (log: FilePath, snapshot: FilePath) {
        let (logPath, snapshotPath) = (
            directory.appending("operations.log"), directory.appending("operations.snapshot")
        )
        let (log, _, _) = try OperationLog.open(at: logPath, logger: quietLogger)
        try log.append(Self.history(count: 2_000))
        let opened = try Self.open(logPath)
        try ReplicaSnapshot.write(
            opened.replica.parts!,
            logPath: logPath,
            version: "1.0",
            to: snapshotPath
        )
        return (logPath, snapshotPath)
    }

    /// Why the snapshot was not used, or nil when it was.
    static func refusal(_ snapshot: FilePath, _ log: FilePath, version: String = "1.0") -> ReplicaSnapshot.Unused? {
        do {
            _ = try ReplicaSnapshot.read(at: snapshot, logPath: log, version: version)
            return nil
        } catch {
            return error
        }
    }

    @Test func aTornOrDamagedSnapshotIsRefused() async throws {
        try await withScratchDirectory("snapshot") { directory in
            let (log, snapshot) = try Self.snapshotted(in: directory)
            #expect(Self.refusal(snapshot, log) == nil)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot.string))
            let whole = bytes
            bytes[bytes.count / 2] ^= 0x40
            try bytes.write(to: URL(fileURLWithPath: snapshot.string))
            #expect(Self.refusal(snapshot, log)?.description == "damaged or cut short (checksum mismatch)")
            try whole.prefix(whole.count - 100).write(to: URL(fileURLWithPath: snapshot.string))
            #expect(Self.refusal(snapshot, log)?.description == "damaged or cut short (checksum mismatch)")
            try Data().write(to: URL(fileURLWithPath: snapshot.string))
            #expect(Self.refusal(snapshot, log)?.description == "damaged or cut short (not a snapshot of this format)")
        }
    }

    @Test func aSnapshotOfAnotherLogOrAnotherVersionIsRefused() async throws {
        try await withScratchDirectory("snapshot") { directory in
            let (log, snapshot) = try Self.snapshotted(in: directory)
            #expect(Self.refusal(snapshot, log, version: "1.1")?.description == "written by peerd 1.0")
            // The log cut back below what the snapshot covers (a damaged end cut off, say).
            let file = try FileHandle(forUpdating: URL(fileURLWithPath: log.string))
            let length = try file.seekToEnd()
            try file.truncate(atOffset: length - 10)
            #expect(Self.refusal(snapshot, log)?.description.hasPrefix("stale: the log can't be read") == true)
            // As long again, but other bytes where the snapshot ends: not the log it was made from.
            try file.seek(toOffset: length - 10)
            try file.write(contentsOf: Data(repeating: 0x20, count: 10))
            try file.close()
            #expect(Self.refusal(snapshot, log)?.description == "stale: the log is not the one it was made from")
        }
    }
}
