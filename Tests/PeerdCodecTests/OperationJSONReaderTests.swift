import Foundation
import PeerdCodec
import PeerdModel
import PeerdTestKit
import Testing

/// The watch list's operation, not Foundation's `Operation` (NSOperation).
private typealias Operation = PeerdModel.Operation

/// The reader's fast parser must agree with `JSONDecoder` whenever it returns an operation, and
/// `decode` must fall back to `JSONDecoder` for everything else.
@Suite("Operation JSON reader")
struct OperationJSONReaderTests {
    private func parse(_ json: String) -> Operation? {
        var reader = OperationJSONReader()
        return Array(json.utf8).withUnsafeBytes { reader.read($0) }
    }

    private func decode(_ json: String) -> Operation? {
        try? JSONDecoder().decode(Operation.self, from: Data(json.utf8))
    }

    /// What the log held before `OperationJSON`: `JSONEncoder` with sorted keys (escaping slashes).
    private func encode(_ operation: Operation) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(operation))
    }

    @Test func itReadsWhatJSONEncoderWritesForAwkwardOperations() throws {
        var reader = OperationJSONReader()
        for operation in awkwardOperations(count: 2_000, seed: 1999) {
            let payload = try encode(operation)
            #expect(payload.withUnsafeBytes { reader.read($0) } == operation)
        }
    }

    @Test func operationsFromOneOriginShareTheirOriginsStorage() {
        var reader = OperationJSONReader()
        let origin = PeerID("0123456789abcdef0123456789abcdef")!
        let operations = (1...3).map { seq in
            let operation = Operation(
                id: OperationID(origin: origin, seq: UInt64(seq)),
                lamport: UInt64(seq),
                at: 0,
                by: "someone with a long name",
                kind: .add,
                movie: Movie(id: MovieID(seq)!)
            )
            return OperationJSON.encode(operation).withUnsafeBytes { reader.read($0)! }
        }
        let bases = operations.map { $0.id.origin.rawValue.utf8.withContiguousStorageIfAvailable(\.baseAddress) }
        #expect(bases[0] != nil && bases.allSatisfy { $0 == bases[0] })
        let names = operations.map { $0.by.utf8.withContiguousStorageIfAvailable(\.baseAddress) }
        #expect(names[0] != nil && names.allSatisfy { $0 == names[0] })
    }

    @Test func itReadsArraysOfOperations() throws {
        var reader = OperationJSONReader()
        let operations = awkwardOperations(count: 50, seed: 7)
        var json = Array("[".utf8)
        for (index, operation) in operations.enumerated() {
            if index > 0 { json += Array(" , ".utf8) }
            OperationJSON.append(operation, to: &json)
        }
        json += Array("]".utf8)
        #expect(json.withUnsafeBytes { reader.readArray($0) } == operations)
        #expect(Array(" [ ] ".utf8).withUnsafeBytes { reader.readArray($0) } == [])
        for bad in ["[", "[]]", "[,]", "{}", "[1]", ""] {
            #expect(Array(bad.utf8).withUnsafeBytes { reader.readArray($0) } == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        #"{ "at" : 5 , "by" : "b\u00e9\/\ud83c\udfac" , "lamport" : 2 , "movie" : { "id" : 603 } , "op" : "add" , "origin" : "0123456789abcdef" , "seq" : 1 }"#,
        #"{"seq":9,"origin":"0123456789abcdef","op":"remove","movie":{"year":1999,"id":1},"lamport":3,"by":"x","at":-7,"removes":[]}"#,
        #"{"at":1,"by":"x","lamport":18446744073709551615,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1,"removes":[{"seq":1,"origin":"0123456789abcdef"}]}"#,
        #"{"at":1,"by":"x","details":{ "title" : "T\/2" , "genres" : [ "a" ], "language":"en","fetchedAt":-3 },"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
    ])
    func itAgreesWithJSONDecoderOnHandWrittenJSON(json: String) throws {
        let decoded = try #require(decode(json))
        #expect(parse(json) == decoded)
    }

    @Test(arguments: [
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1,"extra":true}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1,"title":null},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","by":"y","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":- 5,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1.0,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"\ud800","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":01,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":0},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"move","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"NOT HEX","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef"}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1} {}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":18446744073709551616}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"language":"en","title":"T","where":[1]},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"genres":[],"language":"en","title":"T"},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"language":"en","runtime":null,"title":"T"},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"language":"en","runtime":90.0,"title":"T"},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"language":"en","title":"T","title":"U"},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":{"fetchedAt":1,"language":"en"},"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","details":[],"lamport":1,"movie":{"id":1},"op":"describe","origin":"0123456789abcdef","seq":1}"#,
    ])
    func itLeavesAnythingUnusualToJSONDecoder(json: String) throws {
        #expect(parse(json) == nil)
        var reader = OperationJSONReader()
        let viaDecode = try? Array(json.utf8).withUnsafeBytes { try reader.decode($0) }
        #expect(viaDecode == decode(json), "decode falls back to JSONDecoder")
    }

    /// Damaged payloads, some of them in the reader's cache: whatever the fast parser still accepts,
    /// `JSONDecoder` must accept as the same operation. One reader reads them all, so its cache of
    /// recent origins and names is exercised too.
    @Test func whenItAcceptsADamagedPayloadJSONDecoderAcceptsTheSame() throws {
        var generator = SplitMix64(seed: 1999)
        let payloads =
            try awkwardOperations(count: 10, seed: 12).map(encode) + [
                OperationJSON.encode(awkwardOperations(count: 1, seed: 13)[0])
            ]
        var reader = OperationJSONReader()
        var accepted = 0
        for _ in 0..<20_000 {
            var payload = payloads.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<payload.count, using: &generator)
                let replacement = Array(#"{}[],:"\-0123456789.eu "#.utf8).randomElement(using: &generator)!
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: payload[position] = replacement
                case 1: payload.insert(replacement, at: position)
                default: payload.remove(at: position)
                }
            }
            guard let fast = payload.withUnsafeBytes({ reader.read($0) }) else { continue }
            accepted += 1
            let slow = try? JSONDecoder().decode(Operation.self, from: Data(payload))
            #expect(slow == fast, "\(String(decoding: payload, as: UTF8.self))")
        }
        #expect(accepted > 100)
    }
}
