import PeerdModel
import Testing

/// The group's region and services: their limits, the newest-wins rule, and naming services.
@Suite struct GroupSettingsTests {
    static let available = [
        WatchProviders.Provider(id: 8, name: "Netflix"),
        WatchProviders.Provider(id: 1796, name: "Netflix basic with Ads"),
        WatchProviders.Provider(id: 337, name: "Disney Plus"),
        WatchProviders.Provider(id: 11, name: "MUBI"),
        WatchProviders.Provider(id: 9, name: "Amazon Prime Video"),
        WatchProviders.Provider(id: 10, name: "Amazon Video"),
    ]

    static func settings(_ id: Int, by origin: PeerID, lamport: UInt64, region: String) -> Operation {
        Operation(
            id: OperationID(origin: origin, seq: 1),
            lamport: lamport,
            at: 0,
            by: Peers.name(of: origin),
            kind: .settings,
            movie: Operation.groupMovie,
            settings: GroupSettings(region: region, services: [GroupSettings.Service(id: id, name: "S\(id)")])
        )
    }

    @Test func servicesAreKeptSortedAndOnce() {
        let settings = GroupSettings(
            region: "DE",
            services: [.init(id: 11, name: "MUBI"), .init(id: 8, name: "Netflix"), .init(id: 11, name: "MUBI")]
        )
        #expect(settings.services.map(\.id) == [8, 11])
        #expect(settings.invalidReason == nil)
    }

    @Test(arguments: ["de", "DEU", "", "D1"])
    func aRegionIsTwoCapitalLetters(region: String) {
        #expect(GroupSettings(region: region, services: []).invalidReason == "a region is two capital letters")
    }

    @Test func aSettingsOperationCarriesSettingsAndNothingElseDoes() {
        var op = Self.settings(8, by: Peers.alice, lamport: 1, region: "DE")
        #expect(op.invalidReason == nil)
        op.payload = nil
        #expect(op.invalidReason == "a settings operation carries the group's settings")
        op.kind = .add
        op.payload = .settings(GroupSettings(region: "DE", services: []))
        #expect(op.invalidReason == "only a settings operation carries settings")
    }

    @Test func theNewestSettingsWinInAnyOrderAndChangeNoRow() {
        let older = Self.settings(8, by: Peers.bob, lamport: 3, region: "DE")
        let newer = Self.settings(11, by: Peers.alice, lamport: 4, region: "FR")
        var one = WatchList()
        var other = WatchList()
        #expect(one.apply(older) == nil)
        one.apply(newer)
        other.apply(newer)
        other.apply(older)
        #expect(one.settings == newer.settings)
        #expect(other.settings == newer.settings)
        #expect(one == other)
        #expect(one.rows.isEmpty)
    }

    @Test func aRowAwaitsADescribeForTheGroupsRegion() {
        let row = WatchListRow(
            movie: Movie(id: MovieID(603)!),
            key: OrderKey(lamport: 1, origin: Peers.alice, seq: 1),
            addedBy: [],
            addedAt: 0
        )
        #expect(row.awaitsDescribe(region: nil))
        var described = row
        described.details = MovieDetails(.init(title: "The Matrix", language: "en-US", fetchedAt: 0))
        #expect(!described.awaitsDescribe(region: nil), "no region set: any describe will do")
        #expect(described.awaitsDescribe(region: "DE"), "fetched before peerd knew where to watch")
        described.details = MovieDetails(
            .init(title: "The Matrix", providers: WatchProviders(region: "DE"), language: "en-US", fetchedAt: 0)
        )
        #expect(!described.awaitsDescribe(region: "DE"))
        #expect(described.awaitsDescribe(region: "US"))
    }

    @Test func namesMatchExactlyFirstThenByAUniqueStart() throws {
        let found = try ServiceNames.resolve(["netflix", "Disney+", "mubi", "9"], among: Self.available, region: "DE")
            .get()
        #expect(found.map(\.id) == [8, 337, 11, 9])
    }

    @Test func anAmbiguousOrUnknownNameIsRefusedWithTheNamesItCouldMean() {
        let ambiguous = ServiceNames.resolve(["amazon"], among: Self.available, region: "DE")
        #expect(ambiguous == .failure(.ambiguous("amazon", candidates: ["Amazon Prime Video", "Amazon Video"])))
        let unknown = ServiceNames.resolve(["hulu"], among: Self.available, region: "DE")
        guard case .failure(let failure) = unknown else {
            Issue.record("hulu resolved in DE: \(unknown)")
            return
        }
        #expect(
            failure.description.hasPrefix("no streaming service called 'hulu' in DE; services there include Netflix,")
        )
        #expect(ServiceNames.resolve(["12345"], among: Self.available, region: "DE") != .success([]))
    }
}
