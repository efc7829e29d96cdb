import Foundation
import PeerdCodec
import PeerdModel
import Testing

/// The watch list's operation, not Foundation's `Operation` (NSOperation).
private typealias Operation = PeerdModel.Operation

/// `OperationJSON` must write exactly what `JSONEncoder` writes for the wire, and read back as the
/// same operation through both `OperationJSONReader` and `JSONDecoder`.
@Suite("Operation JSON writer")
struct OperationJSONTests {
    private static func reference(_ operation: Operation) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(operation))
    }

    @Test func itWritesTheBytesJSONEncoderWritesForAwkwardOperations() throws {
        for operation in awkwardOperations(count: 2_000, seed: 603) {
            let written = OperationJSON.encode(operation)
            #expect(
                written == (try Self.reference(operation)),
                "\(String(decoding: written, as: UTF8.self))"
            )
        }
    }

    @Test func whatItWritesReadsBackAsTheSameOperation() throws {
        var reader = OperationJSONReader()
        for operation in awkwardOperations(count: 2_000, seed: 550) {
            let written = OperationJSON.encode(operation)
            #expect(written.withUnsafeBytes { reader.read($0) } == operation)
            #expect(try JSONDecoder().decode(Operation.self, from: Data(written)) == operation)
        }
    }

    @Test func itEscapesOnlyQuotesBackslashesAndControlCharacters() {
        let operation = Operation(
            id: OperationID(origin: PeerID("0123456789abcdef")!, seq: 1),
            lamport: 1,
            at: 0,
            by: "a/b \"c\" \\ \u{7F}é",
            kind: .add,
            movie: Movie(id: MovieID(1)!, title: "\u{0}\u{8}\t\n\u{B}\u{C}\r\u{1F}")
        )
        let json = String(decoding: OperationJSON.encode(operation), as: UTF8.self)
        #expect(json.contains(#""by":"a/b \"c\" \\ "# + "\u{7F}é\""))
        #expect(json.contains(#""title":"\u0000\b\t\n\u000b\f\r\u001f""#))
    }

    @Test func itAppendsAfterWhatTheBufferHolds() {
        let operation = awkwardOperations(count: 1, seed: 1)[0]
        var buffer = Array("[".utf8)
        OperationJSON.append(operation, to: &buffer)
        #expect(buffer == Array("[".utf8) + OperationJSON.encode(operation))
    }
}
