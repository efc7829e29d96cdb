import PeerdModel
import ServiceLifecycle

/// Picks across the lists, for the guest door (proto/WEB.md, "Guests"): a pick opened on any list
/// held here is one a guest may join, and the door learns of each list's picks as of the group's.
extension ListSpaces {
    /// The list that holds `pick`, when it is held here and has the pick.
    func holder(of pick: PickOnList) async -> ReplicaService? {
        guard let service = pick.list.map({ lists[$0] }) ?? group,
            await service.groupSnapshot.list.picks.pick(pick.id) != nil
        else { return nil }
        return service
    }

    /// The group's list and every other list held here.
    func everyList() -> [ReplicaService] {
        [group] + lists.values.sorted { $0.listID?.rawValue ?? "" < $1.listID?.rawValue ?? "" }
    }

    /// The picks each commit changed, on every list held here, from now on.
    func pickChanges() -> AsyncStream<[PickOnList]> { pickFeed.subscribe() }

    /// Passes `service`'s pick changes on to ``pickChanges()`` until the daemon stops.
    func forwardPicks(of service: ReplicaService) async {
        for await ids in await service.pickFeed.subscribe().cancelOnGracefulShutdown() {
            pickFeed.yield(ids.map { PickOnList($0, on: service.listID) })
        }
    }
}
