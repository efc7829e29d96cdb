import Foundation
import Logging
import PeerdModel
import PeerdSecurity
import PeerdTestKit
import PeerdWire
import ServiceLifecycleTestKit
import Synchronization
import SystemPackage

@testable import PeerdDaemon

/// One member's desks over the real replica service, its store in memory: what the control socket,
/// the page and the guest door ask, without a socket. `store.written` holds one batch per commit.
struct DeskWorld {
    let replica: ReplicaService
    let store: MemoryStore
    let roster: MemberRoster
    let marks: MarkDesk
    let picks: PickDesk
    let guests: ReplicaGuestDesk
    /// The lists alice holds besides the group's, by id: each its own replica, its store in memory.
    let lists: [ListID: ReplicaService]

    /// Runs alice's replica, and one for each of `lists`, until `body` returns.
    static func run(lists ids: [ListID] = [], _ body: (DeskWorld) async throws -> Void) async throws {
        let directory = try ScratchDirectory("desks")
        defer { directory.remove() }
        let scratch = directory.path
        let identity = try PeerIdentity.generate(name: "alice")
        let store = MemoryStore()
        let replica = ReplicaService.testing(identity, name: "alice", store: store)
        let trust = try TrustService(
            local: identity.peer,
            path: scratch.appending("trust.json"),
            groupKey: nil,
            logger: Logger(label: "test")
        )
        let roster = MemberRoster(trust: trust, me: identity.peer, myName: "alice")
        let picks = PickDesk(replica: replica, roster: roster, connected: { [] })
        let spaces = try await ListSpaces.testing(group: replica)
        var lists: [ListID: ReplicaService] = [:]
        for id in ids {
            lists[id] = ReplicaService.testing(identity, name: "alice", store: MemoryStore(), list: id)
            await spaces.hold(id, lists[id]!)
        }
        let world = DeskWorld(
            replica: replica,
            store: store,
            roster: roster,
            marks: MarkDesk(replica: replica, roster: roster),
            picks: picks,
            guests: ReplicaGuestDesk(picks: picks, spaces: spaces),
            lists: lists
        )
        try await testGracefulShutdown { shutdown in
            try await withThrowingTaskGroup { group in
                group.addTask { try await replica.run() }
                group.addTask { try await spaces.run() }
                for list in lists.values { group.addTask { try await list.run() } }
                try await body(world)
                shutdown.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
    }

    /// How many commits the store has taken.
    var commits: Int { store.written.withLock(\.count) }

    /// Lists movies `ids`, each wanted by alice, in one write.
    func list(_ ids: [Int]) async throws {
        let requests = ids.flatMap { id -> [Replica.LocalRequest] in
            let movie = Movie(id: MovieID(id)!, title: "Movie \(id)", year: 2000)
            return [.add(movie), .mark(movie, Mark(kind: .want))]
        }
        _ = try await replica.write(requests, at: 1_700_000_000_000)
    }

    /// Opens a majority pick of alice's from the list; its state.
    func openPick(mode: Pick.Mode = .majority) async throws -> PickState {
        guard case .success(.opened(let state, _, _)) = await picks.open(PickOpening(mode: mode, finalists: 3)) else {
            throw DeskFailure.refused("the opening")
        }
        return state
    }

    struct DeskFailure: Error {
        let what: String
        static func refused(_ what: String) -> DeskFailure { DeskFailure(what: what) }
    }
}
