package import Logging
import NIOPosix
package import PeerdModel
import PeerdSecurity
package import PeerdStore
package import PeerdWire
package import ServiceLifecycle

/// The group's lists as this machine holds them (proto/PEER.md, "Lists"): the group's own, which
/// every member holds, and each other list a member living here is on, with its own operations,
/// log and replica service. The one place that knows which lists go to which machines.
package actor ListSpaces: Service {
    /// Why a list request can't be done; the words are for the person who asked.
    package struct Refusal: Error, Hashable, Sendable {
        package var words: String
        package init(_ words: String) { self.words = words }
    }

    /// The most lists a machine holds: an offer beyond is refused, as a list made here is.
    static let limit = 256

    /// The group's own list.
    package nonisolated let group: ReplicaService
    /// Every other list held here, by id.
    var lists: [ListID: ReplicaService] = [:]
    let identity: PeerIdentity
    let state: StateDirectory
    let threadPool: NIOThreadPool
    let logger: Logger
    /// A tick whenever which lists go to which machines may have changed.
    let sharing = Broadcast<Void>(bufferingPolicy: .bufferingNewest(1))
    /// The pick changes of every list held here (``pickChanges()``).
    let pickFeed = Broadcast<[PickOnList]>(bufferingPolicy: .bufferingNewest(64))
    /// Each list service opened, to be run by ``run()``.
    let opened = AsyncStream.makeStream(of: ReplicaService.self)

    /// Opens every list held in `state`'s `lists/` directory.
    init(
        group: ReplicaService,
        identity: PeerIdentity,
        state: StateDirectory,
        name: String,
        threadPool: NIOThreadPool,
        logger: Logger
    ) throws {
        self.group = group
        self.identity = identity
        self.state = state
        self.threadPool = threadPool
        self.logger = logger
        for id in try Self.heldLists(in: state) {
            let service = try Self.openService(
                id,
                identity: identity,
                name: name,
                state: state,
                pool: threadPool,
                logger: logger
            )
            lists[id] = service
            opened.continuation.yield(service)
        }
    }

    /// Runs each list's service, and follows the lists' and the group's members, until the daemon
    /// stops (every loop here ends at the graceful shutdown: the group's service stops after this).
    package func run() async throws {
        // The lists opened at start: the group's list shows their marks too, as it does a list opened since.
        for service in lists.values { await group.accompany(service) }
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followGroup() }
            group.addTask { await self.forwardPicks(of: self.group) }
            for await service in opened.stream.cancelOnGracefulShutdown() {
                group.addTask { try? await service.run() }
                group.addTask { await self.forwardPicks(of: service) }
                group.addTask {
                    for await _ in await service.membershipChanges().cancelOnGracefulShutdown() {
                        await self.sharingChanged()
                    }
                }
            }
        }
        sharing.finish()
        pickFeed.finish()
    }

    func sharingChanged() { sharing.yield(()) }

    // MARK: For sessions

    /// The lists this machine shares with the machine `machine`: those on which both a member living
    /// there (the machine itself, or a profile of it) and one living here are, as this machine
    /// knows the list's members.
    package func shared(with machine: PeerID) async -> [ListID: ReplicaService] {
        let homes = await group.groupSnapshot.membership.profiles
        var shared: [ListID: ReplicaService] = [:]
        for (id, service) in lists {
            let members = await service.groupSnapshot.listMembers
            let hosts = Set(members.map { homes[$0] ?? $0 })
            if hosts.contains(machine), hosts.contains(identity.peer) { shared[id] = service }
        }
        return shared
    }

    /// `machine` opened list `id` on a session: the list's service, opened empty when this machine
    /// does not hold it yet (its first operations say who is on it), or why it is refused: a list
    /// held here goes only to the machines of its members, as this machine knows them, and a
    /// machine holds at most ``limit`` lists.
    package func accept(_ id: ListID, from machine: PeerID) async -> Result<ReplicaService, WireError> {
        if let service = lists[id] {
            guard await shared(with: machine)[id] != nil else {
                return .failure(WireError(.forbidden, "as this machine knows the list, no member of it lives on yours"))
            }
            return .success(service)
        }
        guard lists.count < Self.limit else {
            return .failure(WireError(.rateLimited, "this machine holds \(Self.limit) lists, as many as it takes"))
        }
        do {
            let service = try await open(id, named: await group.name)
            logger.info("opened a list a peer shares", metadata: ["list": "\(id.short)", "peer": "\(machine.short)"])
            return .success(service)
        } catch {
            logger.warning("could not open a list a peer offered", metadata: ["list": "\(id)", "error": "\(error)"])
            return .failure(WireError(.storageFailed, "this machine could not open the list: \(error)"))
        }
    }

    /// A tick now and whenever which lists are shared with whom may have changed (a list made, a
    /// member added or removed, a list opened from a peer).
    package func sharingChanges() -> AsyncStream<Void> {
        sharing.subscribe(startingWith: ())
    }
}
