import PeerdModel
import ServiceLifecycle

/// Picks across the lists, for the guest door (proto/WEB.md, "Guests"): a pick opened on any list
/// held here is one a guest may join, and the door learns of each list's picks as of the group's.
extension ListSpaces {
    /// The list that holds `pick`: the group's, or another held here; nil when none does.
    func holder(of pick: OperationID) async -> ReplicaService? {
        for service in [group] + Array(lists.values) where await service.groupSnapshot.list.picks.pick(pick) != nil {
            return service
        }
        return nil
    }

    /// The group's list and every other list held here.
    func everyList() -> [ReplicaService] {
        [group] + lists.values.sorted { $0.listID?.rawValue ?? "" < $1.listID?.rawValue ?? "" }
    }

    /// The ids of the picks each commit changed, on every list held here, from now on.
    func pickChanges() -> AsyncStream<[OperationID]> { pickFeed.subscribe() }

    /// Passes `service`'s pick changes on to ``pickChanges()`` until the daemon stops.
    func forwardPicks(of service: ReplicaService) async {
        for await ids in await service.pickFeed.subscribe().cancelOnGracefulShutdown() { pickFeed.yield(ids) }
    }
}
