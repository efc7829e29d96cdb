import Testing

@testable import PeerdImport

/// A Trakt JSON array is decoded one item at a time: only the items a file may give rows for are held.
@Suite("Trakt items")
struct TraktItemsTests {
    @Test func itemsPastWhatIsKeptAreCountedNotHeld() throws {
        let text = "[" + Array(repeating: "{}", count: 100_000).joined(separator: ",") + "]"
        let items = try TraktFormat.items(text, place: "history.json", keep: 3)
        #expect(items.kept.count == 3)
        #expect(items.count == 100_000)
        let error = #expect(throws: ImportError.self) { try ImportFile.read(Array(text.utf8), name: "history.json") }
        #expect(error == .tooManyRows(place: "history.json", rows: 100_000, limit: 20_000))
    }

    @Test func anItemPastWhatIsKeptIsStillCheckedAndCanTellTheKind() throws {
        let items = try TraktFormat.items(
            #"[{}, {}, {"rated_at": "2023-01-01", "rating": 8}]"#,
            place: "a.json",
            keep: 0
        )
        #expect(items.kept.isEmpty)
        #expect(items.firstKind == .ratings)
        let error = #expect(throws: ImportError.self) {
            try TraktFormat.items(#"[{}, {}, {"rating": "eight"}]"#, place: "a.json", keep: 1)
        }
        #expect(
            error == .unreadableJSON(place: "a.json", format: .traktJSON, reason: "at [2].rating: expected a number")
        )
    }
}
