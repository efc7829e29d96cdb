import Foundation
import PeerdCodec
import PeerdModel
import Testing

/// A list operation (proto/PEER.md, "Lists") in its canonical form: `list` between `lamport` and
/// `movie`, read back as written, by the reader and by `JSONDecoder` alike.
@Suite struct ListOperationJSONTests {
    let creation = PeerdModel.Operation(
        id: OperationID(origin: PeerID("a11ce000000000000000000000000001")!, seq: 1),
        lamport: 1,
        at: 1_763_700_000_000,
        by: "alice",
        kind: .list,
        movie: PeerdModel.Operation.groupMovie,
        payload: .list(ListDefinition(name: "kids", nonce: "0123456789abcdef0123456789abcdef", maxCertification: "PG"))
    )

    @Test func itIsWrittenCanonicallyAndReadBack() throws {
        let json = String(decoding: OperationJSON.encode(creation), as: UTF8.self)
        #expect(
            json
                == #"{"at":1763700000000,"by":"alice","lamport":1,"list":{"maxCertification":"PG","name":"kids","#
                + #""nonce":"0123456789abcdef0123456789abcdef"},"movie":{"id":1},"op":"list","#
                + #""origin":"a11ce000000000000000000000000001","seq":1}"#
        )
        var reader = OperationJSONReader()
        let bytes = OperationJSON.encode(creation)
        // The fast parser leaves a list operation, as a member one, to the general path.
        let read = try bytes.withUnsafeBytes { try reader.decode($0) }
        #expect(read == creation)
        #expect(read.verbatim == nil)
        let decoded = try JSONDecoder().decode(PeerdModel.Operation.self, from: Data(bytes))
        #expect(decoded == creation && decoded.verbatim == nil)
    }

    @Test func aListOperationWithoutANameIsRefused() throws {
        var nameless = creation
        nameless.payload = .list(ListDefinition(name: ""))
        #expect(nameless.invalidReason == "a list's name is 1 to 64 characters")
        var bare = creation
        bare.payload = nil
        #expect(bare.invalidReason == "a list operation carries the list's name")
    }
}
