import Foundation
import PeerdModel
import Testing

@Suite struct VersionVectorTests {
    let a = VersionVector([Peers.alice: 3, Peers.bob: 2])
    let b = VersionVector([Peers.alice: 1, Peers.carol: 4])

    @Test func missingListsPerOriginWhatTheOtherLacks() {
        #expect(a.missing(from: b).map(\.origin) == [Peers.alice, Peers.bob])
        #expect(a.missing(from: b).map(\.seqs) == [2...3, 1...2])
        #expect(b.missing(from: a).map(\.origin) == [Peers.carol])
        #expect(b.missing(from: a).map(\.seqs) == [1...4])
        #expect(a.missing(from: a).isEmpty)
        #expect(a.missing(from: a.merged(with: b)).isEmpty)
        #expect(VersionVector().missing(from: a).isEmpty)
        #expect(a.missing(from: VersionVector()).map(\.seqs) == [1...3, 1...2])
    }

    @Test func mergedIsThePointwiseMaximum() {
        let expected = VersionVector([Peers.alice: 3, Peers.bob: 2, Peers.carol: 4])
        #expect(a.merged(with: b) == expected)
        #expect(b.merged(with: a) == expected)
        #expect(a.merged(with: a) == a)
        #expect(a.merged(with: VersionVector()) == a)
    }

    @Test func containsIsAGapFreePrefix() {
        #expect(a.contains(OperationID(origin: Peers.alice, seq: 1)))
        #expect(a.contains(OperationID(origin: Peers.alice, seq: 3)))
        #expect(!a.contains(OperationID(origin: Peers.alice, seq: 4)))
        #expect(!a.contains(OperationID(origin: Peers.carol, seq: 1)))
        #expect(a.operationCount == 5)
    }

    @Test func zeroEntriesAreTheSameAsAbsentOnes() {
        var vector = a
        vector[Peers.bob] = 0
        #expect(vector == VersionVector([Peers.alice: 3]))
        #expect(VersionVector([Peers.alice: 3, Peers.carol: 0]) == vector)
        #expect(vector.entries.keys.sorted() == [Peers.alice])
    }

    @Test func jsonIsAnObjectFromPeerHexToSeq() throws {
        let data = try JSONEncoder().encode(a)
        let object = try JSONDecoder().decode([String: UInt64].self, from: data)
        #expect(object == [Peers.alice.rawValue: 3, Peers.bob.rawValue: 2])
        #expect(try JSONDecoder().decode(VersionVector.self, from: data) == a)
        #expect(try JSONDecoder().decode(VersionVector.self, from: Data("{}".utf8)) == VersionVector())
    }

    @Test func jsonWrittenByHandDecodes() throws {
        let json = #"{"\#(Peers.carol.rawValue)": 7, "\#(Peers.bob.rawValue)": 0}"#
        #expect(try JSONDecoder().decode(VersionVector.self, from: Data(json.utf8)) == VersionVector([Peers.carol: 7]))
    }

    @Test(arguments: [
        #"{"not-a-peer": 1}"#,
        #"{"A11CE000000000000000000000000001": 1}"#,
        #"{"abc": 1}"#,
        #"{"a11ce000000000000000000000000001": -1}"#,
        #"{"a11ce000000000000000000000000001": "1"}"#,
        #"["a11ce000000000000000000000000001", 1]"#,
    ])
    func malformedJSONIsADecodingError(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(VersionVector.self, from: Data(json.utf8))
        }
    }
}
