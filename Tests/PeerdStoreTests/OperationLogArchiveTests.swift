import PeerdCodec
import PeerdModel
import PeerdTestKit
import SystemPackage
import Testing

@testable import PeerdStore

/// Proofs stay in the log: opening hands each operation over with its record's offset and, unless
/// asked, without its proof; ``OperationLog/operation(at:)`` reads one back whole, and a replica
/// that replayed the log with those offsets gives out every operation with its proof.
@Suite("Operation log as the replica's archive of proofs")
struct OperationLogArchiveTests {
    /// `count` operations, each with a signature and (past the first) a previous hash of its own.
    private func signedOperations(count: Int) -> [Operation] {
        makeOperations(count: count).map { op in
            var signed = op
            let seed = UInt8(truncatingIfNeeded: op.id.seq)
            signed.proof = OperationProof(
                sig: (0..<64).map { seed &+ UInt8($0) },
                prev: op.id.seq == 1 ? nil : (0..<32).map { seed ^ UInt8($0) },
                key: op.id.seq == 1 ? Array(repeating: 7, count: 91) : nil
            )
            return signed
        }
    }

    /// A replica that replayed a log of `operations` written at `path`, its archive that log.
    private func replayed(_ operations: [Operation], at path: FilePath) throws -> Replica {
        let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
        try log.append(operations)
        var replica = Replica(id: PeerID("fedcba9876543210fedcba9876543210")!, name: "bob")
        let (reopened, _, _) = try OperationLog.open(at: path, logger: quietLogger) { op, offset in
            _ = replica.replay(op, at: offset)
        }
        replica.archive = reopened
        return replica
    }

    @Test func eachRecordIsReadBackWholeFromTheOffsetOpeningAndAppendingGive() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = signedOperations(count: 3_000)
            let (log, _, _) = try OperationLog.open(at: path, logger: quietLogger)
            let written = try log.append(Array(operations[..<1_000])) + log.append(Array(operations[1_000...]))

            var read: [(Operation, UInt64)] = []
            let (reopened, count, recovery) = try OperationLog.open(at: path, logger: quietLogger) {
                read.append(($0, $1))
            }
            #expect(count == operations.count && recovery == nil)
            #expect(read.map(\.1) == written)
            // Without its proof, and otherwise as written.
            #expect(read.allSatisfy { $0.0.proof.isEmpty })
            #expect(
                read.allSatisfy { op, _ in
                    var whole = op
                    whole.proof = operations[Int(op.id.seq - 1)].proof
                    return whole == operations[Int(op.id.seq - 1)]
                }
            )
            for index in [0, 1, 999, 1_000, 2_999] {
                #expect(reopened.operation(at: written[index]) == operations[index])
            }
            // No record starts there: nothing, rather than another operation or a trap.
            #expect(reopened.operation(at: written[5] + 1) == nil)
            #expect(reopened.operation(at: UInt64(reopened.length)) == nil)
            #expect(reopened.operation(at: 0) == nil)
        }
    }

    @Test func aReplicaReplayedFromTheLogGivesOutEachOperationWithItsProof() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = signedOperations(count: 500)
            let replica = try replayed(operations, at: path)
            let origin = operations[0].id.origin
            let given = replica.operations(from: origin, seqs: 1...500)
            #expect(given.count == operations.count)
            #expect(given.indices.allSatisfy { given[$0] == operations[$0] }, "each with its proof")
            #expect(replica.operation(from: origin, seq: 7)?.proof.isEmpty == true)
        }
    }

    /// Retired operations (removals, and the adds they cancelled; every fifth operation here is a
    /// removal of the one before) are held as gists only: history pages, `lastNamed` and single
    /// reads get them back whole from the log.
    @Test func retiredOperationsAreReadBackWholeFromTheLog() async throws {
        try await withScratchDirectory("store") { directory in
            let path = directory.appending("operations.log")
            let operations = signedOperations(count: 500)
            let replica = try replayed(operations, at: path)
            let unsigned = operations.map { op in
                var stripped = op
                stripped.proof = OperationProof()
                return stripped
            }
            let origin = operations[0].id.origin
            #expect(replica.operation(from: origin, seq: 4) == unsigned[3], "an add its removal cancelled")
            #expect(replica.operation(from: origin, seq: 5) == unsigned[4], "a removal")
            #expect(replica.history(before: nil, limit: 7) { _ in true } == Array(unsigned.suffix(7).reversed()))
            let removals = replica.history(before: nil, limit: 3) { $0.kind == .remove }
            #expect(removals == [unsigned[499], unsigned[494], unsigned[489]])
            // Movie 5 left the list with operation 5: its name is the one its add (4) gave it.
            let named = replica.lastNamed([MovieID(5)!])
            #expect(named == [MovieID(5)!: unsigned[3].movie])
            #expect(replica.list.row(for: MovieID(5)!) == nil)
        }
    }
}
