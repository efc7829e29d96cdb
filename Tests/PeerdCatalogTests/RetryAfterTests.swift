import PeerdModel
import PeerdTestKit
import PeerdWire
import Testing

@testable import PeerdCatalog

@Suite struct RetryAfterTests {
    /// 1999-12-31T23:59:59Z.
    static let endOf1999: Int64 = 946_684_799

    @Test func secondsAreTakenAsTheyAre() {
        #expect(RetryAfter.parse("120", now: 0) == .seconds(120))
        #expect(RetryAfter.parse("0", now: 0) == .zero)
    }

    @Test func anHTTPDateIsReadAgainstTheCurrentTime() {
        #expect(RetryAfter.parse("Fri, 31 Dec 1999 23:59:59 GMT", now: Self.endOf1999) == .zero)
        #expect(RetryAfter.parse("Sat, 01 Jan 2000 00:00:29 GMT", now: Self.endOf1999) == .seconds(30))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_777 - 60) == .seconds(60))
        #expect(RetryAfter.parse("Thu, 29 Feb 2024 12:00:00 GMT", now: 1_709_208_000) == .zero)
    }

    @Test func aDateInThePastIsNoWait() {
        #expect(RetryAfter.parse("Fri, 31 Dec 1999 23:59:00 GMT", now: Self.endOf1999) == .zero)
    }

    @Test(arguments: ["", "soon", "-5", "1.5", "Friday, 31-Dec-99 23:59:59 GMT", "Fri, 31 Dec 1999 23:59:59 CET"])
    func anythingElseIsNoRetryAfter(value: String) {
        #expect(RetryAfter.parse(value, now: Self.endOf1999) == nil)
    }
}

@Suite struct AnswerCacheTests {
    static let page = CatalogAnswer.Found.search(
        SearchResultsRecord(query: "dune", page: 1, totalPages: 1, totalResults: 0, results: [])
    )

    @Test func anAnswerIsKeptUntilItExpires() {
        var cache = AnswerCache<TestInstant>(capacity: 4)
        let ask = CatalogQuery.Ask.search(text: "dune", year: nil, page: 1)
        cache.keep(Self.page, for: ask, until: .seconds(600))
        #expect(cache.answer(for: ask, now: .seconds(599)) == Self.page)
        #expect(cache.answer(for: ask, now: .seconds(600)) == nil)
        #expect(cache.answer(for: .search(text: "dune", year: nil, page: 2), now: .zero) == nil)
    }

    @Test func theOldestGoesFirstWhenItIsFull() {
        var cache = AnswerCache<TestInstant>(capacity: 2)
        let asks = (1...3).map { CatalogQuery.Ask.search(text: "dune", year: nil, page: $0) }
        for ask in asks { cache.keep(Self.page, for: ask, until: .seconds(600)) }
        #expect(cache.answer(for: asks[0], now: .zero) == nil)
        #expect(cache.answer(for: asks[1], now: .zero) == Self.page)
        #expect(cache.answer(for: asks[2], now: .zero) == Self.page)
    }
}
