import Foundation
import PeerdModel
import Testing

@Suite struct IdentifierTests {
    @Test(arguments: ["01234567", "abcdef0123456789", String(repeating: "f", count: 64)])
    func eightToSixtyFourLowercaseHexDigitsAreAPeerID(text: String) {
        #expect(PeerID(text)?.rawValue == text)
    }

    @Test(arguments: ["", "0123456", String(repeating: "a", count: 65), "ABCDEF01", "0123456g", "a11ce 00", "a11ce-00"])
    func anythingElseIsNotAPeerID(text: String) {
        #expect(PeerID(text) == nil)
    }

    @Test func aRandomPeerIDIsThirtyTwoHexDigitsAndFresh() {
        let id = PeerID.random()
        #expect(id.rawValue.count == 32)
        #expect(PeerID(id.rawValue) == id)
        #expect(id.short == String(id.rawValue.prefix(8)))
        #expect(PeerID.random() != id)
    }

    @Test func aMovieIDIsPositive() {
        #expect(MovieID(603)?.rawValue == 603)
        #expect(MovieID(0) == nil)
        #expect(MovieID(-603) == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MovieID.self, from: Data("0".utf8)) }
    }

    @Test func operationsRoundTripThroughJSON() throws {
        let add = makeAdd(Peers.alice, 1, lamport: 1, movie: 603, title: "The Matrix", year: 1999)
        let remove = makeRemove(Peers.bob, 1, lamport: 2, movie: 603, cancelling: [add])
        for operation in [add, remove] {
            let data = try JSONEncoder().encode(operation)
            #expect(try JSONDecoder().decode(Operation.self, from: data) == operation)
        }
        let addJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(add)) as? [String: Any]
        #expect(addJSON?["op"] as? String == "add")
        #expect(addJSON?["removes"] == nil, "an add carries no removes")
    }
}
