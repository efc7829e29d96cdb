import Foundation
import PeerdCodec
import PeerdModel
import PeerdTestKit
import PropertyBased
import Testing

/// `JSONTreeEncoder` and `JSONTreeDecoder` code a describe's details in place of `JSONEncoder` and
/// `JSONDecoder`: they must agree with them on any value, not only on the details of today.
@Suite("JSON tree coding")
struct JSONTreeCodingTests {
    private static func reference(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private static func canonical(_ tree: JSONTree) -> [UInt8] {
        var bytes: [UInt8] = []
        tree.appendCanonical(to: &bytes)
        return bytes
    }

    @Test func anyValueIsWrittenAsJSONEncoderWritesItAndReadsBack() async {
        await propertyCheck(input: Gen.uint64().map { JSONValue.random(seed: $0) }) { value in
            let tree = try JSONTreeEncoder().encode(value)
            #expect(Self.canonical(tree) == (try Self.reference(value)))
            #expect(try JSONTreeDecoder().decode(JSONValue.self, from: tree) == value)
        }
    }

    @Test func operationsGoThroughTheTreeAsThroughOperationJSON() throws {
        for operation in awkwardOperations(count: 500, seed: 2024) {
            let tree = try JSONTreeEncoder().encode(operation)
            #expect(Self.canonical(tree) == OperationJSON.encode(operation))
            #expect(try JSONTreeDecoder().decode(PeerdModel.Operation.self, from: tree) == operation)
        }
    }

    @Test func nestedContainersAndSuperEncodersWriteWhatJSONEncoderWrites() throws {
        let shelf = Shelf(name: "films", rows: [[1, 2], [3]], position: (x: -4, y: 5), note: nil)
        let tree = try JSONTreeEncoder().encode(shelf)
        #expect(Self.canonical(tree) == (try Self.reference(shelf)))
        #expect(try JSONTreeDecoder().decode(Shelf.self, from: tree) == shelf)
    }

    @Test func aFractionIsRefusedAndSoIsAWrongType() throws {
        #expect(throws: EncodingError.self) { try JSONTreeEncoder().encode(["x": 1.5]) }
        let tree = try JSONTreeEncoder().encode(["x": "1"])
        #expect(throws: DecodingError.self) { try JSONTreeDecoder().decode([String: Int].self, from: tree) }
        #expect(throws: DecodingError.self) { try JSONTreeDecoder().decode([Int].self, from: tree) }
    }

    @Test func sameValueIgnoresTheOrderOfMembersOnly() throws {
        let ab = try JSONTreeEncoder().encode(Pair(a: 1, b: 2))
        let ba = try JSONTreeEncoder().encode(Pair(b: 2, a: 1))
        #expect(ab.isSameValue(as: ba) && ab != ba)
        #expect(!ab.isSameValue(as: try JSONTreeEncoder().encode(Pair(a: 1, b: 3))))
        #expect(!ab.isSameValue(as: try JSONTreeEncoder().encode(["a": 1])))
    }
}

/// Two members, written in the order they were given.
private struct Pair: Encodable {
    var members: [(String, Int)]
    init(a: Int, b: Int) { members = [("a", a), ("b", b)] }
    init(b: Int, a: Int) { members = [("b", b), ("a", a)] }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in members { try container.encode(value, forKey: AnyKey(stringValue: key)) }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A type that uses every kind of container: nested keyed and unkeyed ones, a super encoder, nil.
private struct Shelf: Codable, Equatable {
    var name: String
    var rows: [[Int]]
    var position: (x: Int, y: Int)
    var note: String?

    init(name: String, rows: [[Int]], position: (x: Int, y: Int), note: String?) {
        self.name = name
        self.rows = rows
        self.position = position
        self.note = note
    }

    enum Keys: String, CodingKey { case name, rows, position, note, x, y }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        name = try String(from: try container.superDecoder())
        var rowsContainer = try container.nestedUnkeyedContainer(forKey: .rows)
        rows = []
        while !rowsContainer.isAtEnd {
            var row = try rowsContainer.nestedUnkeyedContainer()
            var numbers: [Int] = []
            while !row.isAtEnd { numbers.append(try row.decode(Int.self)) }
            rows.append(numbers)
        }
        let place = try container.nestedContainer(keyedBy: Keys.self, forKey: .position)
        position = (try place.decode(Int.self, forKey: .x), try place.decode(Int.self, forKey: .y))
        note = try container.decodeNil(forKey: .note) ? nil : try container.decode(String.self, forKey: .note)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try name.encode(to: container.superEncoder())
        var rowsContainer = container.nestedUnkeyedContainer(forKey: .rows)
        for row in rows {
            var nested = rowsContainer.nestedUnkeyedContainer()
            for number in row { try nested.encode(number) }
        }
        var place = container.nestedContainer(keyedBy: Keys.self, forKey: .position)
        try place.encode(position.x, forKey: .x)
        try place.encode(position.y, forKey: .y)
        try container.encodeNil(forKey: .note)
    }

    static func == (lhs: Shelf, rhs: Shelf) -> Bool {
        lhs.name == rhs.name && lhs.rows == rhs.rows && lhs.position == rhs.position && lhs.note == rhs.note
    }
}
