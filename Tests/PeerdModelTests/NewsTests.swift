import PeerdModel
import Testing

/// News (proto/PEER.md, "News"): what a check calls a change, and how every replica folds reports.
@Suite struct NewsTests {
    static let netflix = GroupSettings.Service(id: 8, name: "Netflix")
    static let mubi = GroupSettings.Service(id: 11, name: "MUBI")
    static let services = [netflix, mubi]
    static let appleTV = WatchProviders.Provider(id: 2, name: "Apple TV")
    static let alice = PeerID("a11ce000000000000000000000000001")!
    static let bob = PeerID("b0b00000000000000000000000000002")!
    static let arrival = MovieID(329_865)!

    static func offers(stream: [Int] = [], rent: [WatchProviders.Provider] = []) -> WatchProviders {
        let names = [8: "Netflix", 11: "MUBI", 9: "Amazon Prime Video"]
        return WatchProviders(region: "DE", stream: stream.map { .init(id: $0, name: names[$0]!) }, rent: rent)
    }

    @Test func arrivingLeavingAndAFirstOfferAreChangesAndOthersAreNot() {
        let before = Self.offers(stream: [11, 9])
        let after = Self.offers(stream: [8, 9], rent: [Self.appleTV])
        #expect(
            ProviderNews.changes(from: before, to: after, services: Self.services) == [
                ProviderChange(.arrived, Self.netflix), ProviderChange(.left, Self.mubi),
                ProviderChange(.rent, GroupSettings.Service(id: 2, name: "Apple TV")),
            ]
        )
        // A service the group does not pay for comes and goes unremarked; a second offer to rent too.
        #expect(
            ProviderNews.changes(
                from: Self.offers(stream: [9], rent: [Self.appleTV]),
                to: Self.offers(rent: [Self.appleTV]),
                services: Self.services
            ).isEmpty
        )
        #expect(ProviderNews.changes(from: after, to: after, services: Self.services).isEmpty)
    }

    static func report(_ origin: PeerID, seq: UInt64, lamport: UInt64, _ changes: [ProviderChange], stream: [Int])
        -> Operation
    {
        Operation(
            id: OperationID(origin: origin, seq: seq),
            lamport: lamport,
            at: 1_765_000_000_000,
            by: "x",
            kind: .news,
            movie: Movie(id: arrival),
            payload: .news(ProviderNews(read: 1_765_000_000_000, providers: offers(stream: stream), changes: changes))
        )
    }

    @Test func twoHoldersReportingOneChangeCountOnceInEveryOrder() {
        let arrived = [ProviderChange(.arrived, Self.netflix)]
        let byAlice = Self.report(Self.alice, seq: 1, lamport: 5, arrived, stream: [8])
        let byBob = Self.report(Self.bob, seq: 1, lamport: 5, arrived, stream: [8])
        let left = Self.report(Self.alice, seq: 2, lamport: 9, [ProviderChange(.left, Self.netflix)], stream: [])
        var one = WatchList()
        for op in [byAlice, byBob, left] { one.apply(op) }
        var other = WatchList()
        for op in [left, byBob, byAlice] { other.apply(op) }
        #expect(one.news == other.news)
        #expect(one.news.reports.map(\.id) == [byAlice.id, left.id])
        #expect(one.knownProviders(of: Self.arrival, in: "DE") == Self.offers(stream: []))
        #expect(one.knownProviders(of: Self.arrival, in: "US") == nil)
        #expect(one.merged(with: other) == one)
    }

    @Test func newsNewerThanTheDetailsSaysWhereItStreamsNow() {
        let describe = Operation(
            id: OperationID(origin: Self.bob, seq: 1),
            lamport: 7,
            at: 1,
            by: "bob",
            kind: .describe,
            movie: Movie(id: Self.arrival),
            payload: .details(
                MovieDetails(
                    .init(title: "Arrival", providers: Self.offers(stream: [9]), language: "en-US", fetchedAt: 1)
                )
            )
        )
        let older = Self.report(Self.alice, seq: 1, lamport: 5, [ProviderChange(.left, Self.netflix)], stream: [11])
        let newer = Self.report(Self.alice, seq: 2, lamport: 9, [ProviderChange(.arrived, Self.netflix)], stream: [8])
        var list = WatchList()
        for op in [describe, older] { list.apply(op) }
        #expect(list.providers(of: Self.arrival) == Self.offers(stream: [9]))
        list.apply(newer)
        #expect(list.providers(of: Self.arrival) == Self.offers(stream: [8]))
    }

    @Test func wordsSayWhatChangedAndWhoWantsIt() {
        #expect(
            NewsWords.text(of: ProviderChange(.arrived, Self.netflix), movie: "Arrival (2016)", region: "DE")
                == "Arrival (2016) is now on Netflix (DE)"
        )
        #expect(
            NewsWords.text(of: ProviderChange(.left, Self.mubi), movie: "Arrival", region: "DE")
                == "Arrival left MUBI (DE)"
        )
        #expect(NewsWords.wanted(by: ["alice", "bob", "sam"]) == "wanted by alice, bob and sam")
        #expect(NewsWords.wanted(by: []) == "wanted by nobody now")
    }
}
