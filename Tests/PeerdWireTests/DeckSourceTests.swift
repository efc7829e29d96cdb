import PeerdWire
import Testing

/// A pick's deck source as the wire writes it (proto/CONTROL.md, "pick").
@Suite struct DeckSourceTests {
    @Test(arguments: [
        ("list", DeckSource.list), ("popular", .popular), ("trending", .trending), ("genre:comedy", .genre("comedy")),
        ("genre:Science Fiction", .genre("Science Fiction")),
    ])
    func eachSourceReadsAndWritesAsItsText(text: String, source: DeckSource) {
        #expect(DeckSource(text) == source)
        #expect(source.text == text)
    }

    @Test(arguments: ["", "best", "genre:", "List", "top rated", "genre"])
    func anythingElseIsNoSource(text: String) {
        #expect(DeckSource(text) == nil)
    }

    @Test func anOpeningSaysItsSourceAndAnUnknownOneHasNone() {
        #expect(PickOpening().source == .list)
        #expect(PickOpening(deck: "genre:drama").source == .genre("drama"))
        #expect(PickOpening(deck: "westerns").source == nil)
    }
}
