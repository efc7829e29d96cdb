import PeerdTitles
import PeerdWire
import Testing

/// `peerctl add <title>`: what a typed title means, and when one search result clearly is it.
@Suite("Movies named by title")
struct TitleQueryTests {
    static let matrix = SearchResultRecord(movieId: 603, title: "The Matrix", year: 1999)
    static let remake = SearchResultRecord(movieId: 9_999_999, title: "The Matrix", year: 2031)
    static let reloaded = SearchResultRecord(movieId: 604, title: "The Matrix Reloaded", year: 2003)

    @Test(
        arguments: [
            ("the matrix 1999", "the matrix", 1999), ("The Matrix (1999)", "The Matrix", 1999),
            ("the matrix", "the matrix", nil), ("1917", "1917", nil),
            ("2001 a space odyssey", "2001 a space odyssey", nil),
        ] as [(String, String, Int?)]
    )
    func aTrailingYearIsTheYear(text: String, title: String, year: Int?) throws {
        let query = try #require(TitleQuery(text))
        #expect(query.title == title && query.year == year)
    }

    @Test func textWithNothingToSearchForIsNotATitle() {
        #expect(TitleQuery("?!") == nil)
        #expect(TitleQuery("   ") == nil)
    }

    @Test func theOneResultWithTheTitleIsTheMatchWhateverItsCaseAndPunctuation() {
        #expect(TitleQuery("matrix")?.bestMatch(in: [Self.reloaded, Self.matrix]) == Self.matrix)
        #expect(TitleQuery("THE MATRIX!")?.bestMatch(in: [Self.matrix, Self.reloaded]) == Self.matrix)
    }

    @Test func twoMoviesWithTheTitleNeedTheYear() {
        #expect(TitleQuery("the matrix")?.bestMatch(in: [Self.matrix, Self.remake]) == nil)
        #expect(TitleQuery("the matrix 1999")?.bestMatch(in: [Self.matrix, Self.remake]) == Self.matrix)
    }

    @Test func aLoneResultCountsOnlyWhenItsTitleHoldsTheQuery() {
        #expect(TitleQuery("reloaded")?.bestMatch(in: [Self.reloaded]) == Self.reloaded)
        #expect(TitleQuery("neo")?.bestMatch(in: [Self.reloaded]) == nil)
        #expect(TitleQuery("matrix")?.bestMatch(in: []) == nil)
    }

    @Test func theOriginalTitleCountsToo() {
        let amelie = SearchResultRecord(
            movieId: 194,
            title: "Amélie",
            originalTitle: "Le Fabuleux Destin d'Amélie Poulain"
        )
        #expect(TitleQuery("le fabuleux destin d amelie poulain")?.bestMatch(in: [amelie]) == amelie)
        #expect(TitleQuery("le fabuleux destin d'amélie poulain")?.bestMatch(in: [amelie]) == amelie)
    }

    @Test func accentsAreOptional() {
        let amelie = SearchResultRecord(movieId: 194, title: "Amélie", year: 2001)
        #expect(TitleQuery("amelie")?.bestMatch(in: [amelie]) == amelie, "the one candidate, its title without accents")
        #expect(TitleQuery("AMELIE 2001")?.bestMatch(in: [amelie]) == amelie)
        #expect(TitleQuery("Léon")?.names("Leon: The Professional", year: 1994) == false)
        #expect(TitleQuery("leon the professional")?.names("Léon: The Professional", year: 1994) == true)
    }

    /// As Foundation's folding did (case, diacritics, width), without Foundation in peerctl.
    @Test func caseWidthAndLettersWithMarksFoldAsFoundationsDid() {
        #expect(TitleQuery("die strasse")?.names("Die Straße", year: nil) == true)
        #expect(TitleQuery("ｆｉｌｍ ＡＢＣ")?.names("ﬁlm abc", year: nil) == true)
        #expect(TitleQuery("lodz")?.names("Łódź", year: nil) == false, "a stroke is part of the letter, not a mark")
        #expect(TitleQuery("łodz")?.names("Łódź", year: nil) == true)
        #expect(TitleQuery("ελληνικα")?.names("ΕΛΛΗΝΙΚΆ", year: nil) == true)
        #expect(TitleQuery("ホケモン")?.names("ポケモン", year: nil) == false, "a kana's voicing mark stays")
        #expect(TitleQuery("千と千尋の神隠し")?.names("千と千尋の神隠し", year: 2001) == true)
    }

    @Test func aTitleNamesAListedMovieOnlyInItsYear() {
        #expect(TitleQuery("the matrix")?.names("The Matrix", year: 1999) == true)
        #expect(TitleQuery("the matrix 1999")?.names("The Matrix", year: 1999) == true)
        #expect(TitleQuery("the matrix 2031")?.names("The Matrix", year: 1999) == false)
        #expect(TitleQuery("matrix reloaded")?.names("The Matrix", year: 1999) == false)
        #expect(TitleQuery("the matrix")?.names(nil, year: nil) == false)
    }
}
