import PeerdModel

@testable import PeerdDaemon

extension ListSpaces {
    /// Holds `service` as list `id`'s, as if the list were made or taken here.
    func hold(_ id: ListID, _ service: ReplicaService) { lists[id] = service }
}
