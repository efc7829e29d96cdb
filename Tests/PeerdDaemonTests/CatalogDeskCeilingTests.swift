import PeerdCatalog
import PeerdModel
import PeerdTestKit
import PeerdWire
import Testing

@testable import PeerdDaemon

/// ``CatalogDesk/checkCeiling(_:ceiling:)``: the group's region decides where a certification is looked up, and
/// a daemon with nobody to ask knows nothing of it.
@Suite("The catalog desk's ceiling check")
struct CatalogDeskCeilingTests {
    static let matrix = MovieID(603)!

    @Test func theGroupsRegionIsWhereTheCertificationIsLookedUp() async throws {
        try await DeskWorld.run { world in
            let desk = CatalogDesk(replica: world.replica, catalog: CatalogDeskTests.ScriptedCatalog())
            let before = await desk.checkCeiling(Self.matrix, ceiling: "PG")
            #expect(before.region == "US" && before.ceiling == "PG")  // the TMDB language's, en-US
            guard case .services = await desk.services(region: "DE", names: []) else {
                throw CatalogDeskTests.Unexpected()
            }
            let after = await desk.checkCeiling(Self.matrix, ceiling: "12")
            #expect(after.region == "DE" && after.verdict == .unknown("this catalog checks no ceilings"))
        }
    }

    @Test func withoutATokenOrAHolderTheCertificationIsUnknown() async throws {
        try await DeskWorld.run { world in
            let desk = CatalogDesk(replica: world.replica, catalog: nil)
            let check = await desk.checkCeiling(Self.matrix, ceiling: "PG")
            guard case .unknown(let reason) = check.verdict else { throw CatalogDeskTests.Unexpected() }
            #expect(reason.contains("no TMDB token") && check.isUnrated)
        }
    }
}
