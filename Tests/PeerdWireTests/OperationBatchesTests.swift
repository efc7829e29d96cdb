import PeerdModel
import PeerdWire
import Testing

@Suite("Splitting operations into ops messages")
struct OperationBatchesTests {
    static let origin = PeerID(String(repeating: "f", count: 64))!

    static func operation(_ seq: UInt64, title: String? = nil, removes: Int = 0) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: seq,
            at: 1_763_700_000_000,
            by: String(repeating: "é", count: 64),
            kind: removes > 0 ? .remove : .add,
            movie: Movie(id: MovieID(Int(seq))!, title: title),
            removes: (0..<removes).map { OperationID(origin: origin, seq: UInt64.max - UInt64($0)) }
        )
    }

    @Test func batchesKeepOrderAndHoldAtMost500Operations() {
        let ops = (1...1_201).map { Self.operation($0) }
        let batches = OperationBatches.split(ops)
        #expect(batches.map(\.count) == [500, 500, 201])
        #expect(batches.flatMap { $0 } == ops)
        #expect(OperationBatches.split([Operation]()).isEmpty)
    }

    @Test func everyEncodedBatchFitsInOneFrameEvenWithLargeOperations() {
        let title = String(repeating: "\u{1}\"\\/ü", count: 75)  // 300 characters that escape badly
        let ops = (1...600).map { Self.operation($0, title: title, removes: $0 % 7 == 0 ? 2_000 : 0) }
        let batches = OperationBatches.split(ops)
        #expect(batches.flatMap { $0 } == ops)
        for batch in batches {
            let size = WireCoding.encode(PeerMessage.ops(Array(batch))).count
            #expect(size <= Frame.maxFrameLength, "a batch of \(batch.count) encodes to \(size) bytes")
        }
        #expect(batches.count > 2)
    }
}
