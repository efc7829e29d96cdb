import PeerdCatalog
import PeerdModel
import PeerdWire
import Testing

@testable import PeerdDaemon

/// ``ListDesk`` in process, over the real replica service: adds checked with TMDB on a holder,
/// and the list's queries by members' names.
@Suite("The list desk")
struct ListDeskTests {
    /// A holder's TMDB that knows no movie but 603.
    struct OneMovieCatalog: CatalogAccess {
        func lookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found { .genres([]) }
        func importLookup(_ ask: CatalogQuery.Ask) async throws -> CatalogAnswer.Found { .genres([]) }
        func refresh(_ movies: [MovieID]) async -> Int { 0 }
        func pendingReason(_ movie: MovieID) async -> String? { nil }
        func posterURL(for path: String) async -> String { path }
        func checkBeforeAdd(_ movie: MovieID) async -> AddCheck {
            movie.rawValue == 603 ? .unknown("TMDB is slow") : .missing
        }
    }

    func desk(_ world: DeskWorld) -> ListDesk {
        ListDesk(replica: world.replica, roster: world.roster, catalog: OneMovieCatalog())
    }

    @Test func anAddTMDBDoesNotKnowIsRefusedAndWritesNothing() async throws {
        try await DeskWorld.run { world in
            guard case .error(let error) = await desk(world).add(Movie(id: MovieID(99_999_999)!)) else {
                Issue.record("refused")
                return
            }
            #expect(error.code == .badRequest && error.message.hasPrefix("TMDB has no movie 99999999"))
            #expect(world.commits == 0)
            guard case .added(let record, _?) = await desk(world).add(Movie(id: MovieID(603)!)) else {
                Issue.record("an add TMDB couldn't check in time is written as it came")
                return
            }
            #expect(record.movieId == 603 && world.commits == 1)
        }
    }

    @Test func aQueryByMembersNamesEachOrSaysWhoItDoesNotKnow() async throws {
        try await DeskWorld.run { world in
            try await world.list([603, 550])
            let desk = desk(world)
            let unknown = ListFilter(unseen: true, by: ["zed"])
            guard case .error(let nobody) = await desk.list(limit: nil, after: nil, streaming: false, filter: unknown)
            else {
                Issue.record("an unknown name is refused")
                return
            }
            #expect(nobody.code == .badRequest && nobody.message.contains("zed"))
            let wanted = ListFilter(wantedBy: ["me"])
            guard
                case .list(let movies, let total, nil) = await desk.list(
                    limit: nil,
                    after: nil,
                    streaming: false,
                    filter: wanted
                )
            else {
                Issue.record("alice's wants are listed")
                return
            }
            #expect(total == 2 && Set(movies.map(\.movieId)) == [603, 550])
            guard
                case .error(let streaming) = await desk.list(
                    limit: nil,
                    after: nil,
                    streaming: true,
                    filter: ListFilter()
                )
            else {
                Issue.record("streaming without services is refused")
                return
            }
            #expect(streaming.message == ListDesk.noServices)
        }
    }
}
