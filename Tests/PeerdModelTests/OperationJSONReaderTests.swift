import Foundation
import PeerdModel
import Testing

@testable import PeerdStore

/// The fast parser must agree with `JSONDecoder` whenever it returns an operation.
@Suite("Operation payload parser")
struct OperationPayloadParserTests {
    private func parse(_ json: String) -> Operation? {
        Array(json.utf8).withUnsafeBytes { OperationPayloadParser.parse($0) }
    }

    private func decode(_ json: String) -> Operation? {
        try? JSONDecoder().decode(Operation.self, from: Data(json.utf8))
    }

    private func encode(_ operation: Operation) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(operation))
    }

    @Test func itReadsWhatJSONEncoderWritesForAddsAndRemovals() throws {
        for operation in makeOperations(count: 10) {
            let payload = try encode(operation)
            #expect(payload.withUnsafeBytes { OperationPayloadParser.parse($0) } == operation)
        }
    }

    @Test func itReadsEveryKindOfCharacterInNamesAndTitles() throws {
        var generator = SeededGenerator(state: 550)
        let pool: [Unicode.Scalar] = [
            "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "€", "🎬", "a", " ",
        ]
        for _ in 0..<500 {
            var operation = makeOperations(count: 1)[0]
            operation.by = String(String.UnicodeScalarView((0..<8).map { _ in pool.randomElement(using: &generator)! }))
            operation.movie.title = String(
                String.UnicodeScalarView((0..<12).map { _ in pool.randomElement(using: &generator)! })
            )
            let payload = try encode(operation)
            #expect(payload.withUnsafeBytes { OperationPayloadParser.parse($0) } == operation)
        }
    }

    @Test(arguments: [
        #"{ "at" : 5 , "by" : "b\u00e9\/\ud83c\udfac" , "lamport" : 2 , "movie" : { "id" : 603 } , "op" : "add" , "origin" : "0123456789abcdef" , "seq" : 1 }"#,
        #"{"seq":9,"origin":"0123456789abcdef","op":"remove","movie":{"year":1999,"id":1},"lamport":3,"by":"x","at":-7,"removes":[]}"#,
        #"{"at":1,"by":"x","lamport":18446744073709551615,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1,"removes":[{"seq":1,"origin":"0123456789abcdef"}]}"#,
    ])
    func itAgreesWithJSONDecoderOnHandWrittenJSON(json: String) throws {
        let decoded = try #require(decode(json))
        #expect(parse(json) == decoded)
    }

    @Test(arguments: [
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1,"extra":true}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1,"title":null},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","by":"y","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1.0,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"\ud800","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":01,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":0},"op":"add","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"move","origin":"0123456789abcdef","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"NOT HEX","seq":1}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef"}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":1} {}"#,
        #"{"at":1,"by":"x","lamport":1,"movie":{"id":1},"op":"add","origin":"0123456789abcdef","seq":18446744073709551616}"#,
    ])
    func itLeavesAnythingUnusualToJSONDecoder(json: String) {
        #expect(parse(json) == nil)
    }

    @Test func whenItAcceptsADamagedPayloadJSONDecoderAcceptsTheSame() throws {
        var generator = SeededGenerator(state: 1999)
        let payloads = try makeOperations(count: 10).map(encode)
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
            guard let fast = payload.withUnsafeBytes({ OperationPayloadParser.parse($0) }) else { continue }
            accepted += 1
            let slow = try? JSONDecoder().decode(Operation.self, from: Data(payload))
            #expect(slow == fast, "\(String(decoding: payload, as: UTF8.self))")
        }
        #expect(accepted > 100)
    }
}
